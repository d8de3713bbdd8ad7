// An employee wants to post to the team's webhook. The post waits in the approval queue
// of the real app; nothing is sent until the boss clicks Approve there, and then it is
// sent exactly once.
import { test, before, after } from "node:test";
import { execFileSync } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, CLI } from "./driver.mjs";
import { startReleaseNote, releaseNoteGoesOutOnceApproved } from "./release_note.mjs";

const WAIT = { timeout: 60_000 };
let scripted;
let driver;

before(async () => {
  scripted = await startReleaseNote();
});

after(() => {
  driver?.stop();
  scripted?.close();
});

test("a webhook post waits in the approval queue and goes out once when approved", async () => {
  const home = freshHome();
  const cli = (...a) => execFileSync(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8" });
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", "en");
  cli("org", "add-department", "Marketing");
  cli("org", "hire", "Mia Wong", "--title", "Marketing Manager", "--department", "Marketing");
  cli("webhooks", "allow", scripted.hookHost);
  const env = { ...home.env, ...scripted.modelEnv };
  driver = await startDriver(env, 4486);
  const b = await openApp(driver);
  try {
    await releaseNoteGoesOutOnceApproved(b, scripted.received, { wait: WAIT, settleMs: 5000 });
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
});
