// An employee wants to post to the team's webhook. The post waits in the approval queue
// of the real app; nothing is sent until the boss clicks Approve there, and then it is
// sent exactly once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, CLI } from "./driver.mjs";
import { startReleaseNote, RELEASE_NOTE } from "./release_note.mjs";

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

async function byTestId(b, id) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(WAIT);
  return el;
}

const bodyHas = (b, text) => b.execute((t) => document.body.textContent.includes(t), text);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

test("a webhook post waits in the approval queue and goes out once when approved", async () => {
  const home = freshHome();
  const cli = (...a) => execFileSync(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8" });
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", "en");
  cli("org", "add-department", "Marketing");
  cli("org", "hire", "Mia Wong", "--title", "Marketing Manager", "--department", "Marketing");
  const env = { ...home.env, ...scripted.modelEnv };
  driver = await startDriver(env, 4486);
  const b = await openApp(driver);
  try {
    await (await byTestId(b, "nav-chats")).click();
    await (await byTestId(b, "chat-item-1")).click();
    await (await byTestId(b, "chat-input")).setValue("Mia, please post the release note to the team webhook.");
    await (await byTestId(b, "chat-send")).click();

    // It waits for the boss: in the queue, and nothing was sent.
    await (await byTestId(b, "nav-approvals")).click();
    await b.waitUntil(() => bodyHas(b, RELEASE_NOTE), { ...WAIT, timeoutMsg: "no approval in the queue" });
    await sleep(3000);
    assert.equal(scripted.received.length, 0, "nothing goes out before approval");

    const approve = await b.$('[data-testid^="approval-"][data-testid$="-approve"]');
    await approve.waitForDisplayed(WAIT);
    await approve.click();
    await b.waitUntil(() => scripted.received.length === 1, { ...WAIT, timeoutMsg: "the webhook never received the post" });
    assert.equal(scripted.received[0].text, RELEASE_NOTE);
    // Once, not again.
    await sleep(5000);
    assert.equal(scripted.received.length, 1, "the post went out exactly once");
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
});
