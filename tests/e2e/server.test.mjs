// A team's company on a PostgreSQL server (docs/server.md): `cubicle-cli run` on the "server"
// is the company's one engine, and the desktop app is attached to the same database. The boss
// asks from the desktop; the server's engine has the employee ask for approval; the desktop
// shows it (it refetches every 5 s), the boss approves there, and the server — not the desktop —
// posts the webhook, once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, CLI } from "./driver.mjs";
import { startReleaseNote, releaseNoteGoesOutOnceApproved } from "./release_note.mjs";

const WAIT = { timeout: 90_000 };
const PG = process.env.CUBICLE_TEST_PG_URL;
let scripted;
let driver;
let server;

before(async () => {
  scripted = await startReleaseNote();
});

after(() => {
  driver?.stop();
  server?.kill("SIGKILL");
  scripted?.close();
});

async function byTestId(b, id) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(WAIT);
  return el;
}


test("a desktop attached to a company server approves, and the server runs the action once", { skip: PG ? false : "CUBICLE_TEST_PG_URL is not set (scripts/test.sh starts PostgreSQL)" }, async () => {
  const db = `cubicle_e2e_${process.pid}`;
  const psql = (sql, url = PG) => execFileSync("psql", [url, "-Atqc", sql], { encoding: "utf8" }).trim();
  psql(`DROP DATABASE IF EXISTS ${db}`);
  psql(`CREATE DATABASE ${db}`);
  const url = PG.replace(/\/[^/?]+(\?|$)/, `/${db}$1`);
  const cli = (...a) => execFileSync(CLI, ["--db", url, ...a], { encoding: "utf8" });
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", "en");
  cli("org", "add-department", "Marketing");
  cli("org", "hire", "Mia Wong", "--title", "Marketing Manager", "--department", "Marketing");
  cli("webhooks", "allow", scripted.hookHost);

  // The server: the company's engine, with the model. The desktop gets no model at all.
  server = spawn(CLI, ["--db", url, "run", "--for", "5m"], {
    env: { ...process.env, ...scripted.modelEnv, RUST_LOG: "info" },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let serverLog = "";
  server.stderr.on("data", (c) => (serverLog += c));
  const home = freshHome();
  driver = await startDriver({ ...home.env, CUBICLE_DATABASE_URL: url }, 4498);
  const b = await openApp(driver);
  try {
    await byTestId(b, "server-badge");
    // Raised by the server's engine, shown on the desktop without a reload, approved there,
    // posted by the server (the desktop has no model and runs nothing).
    await releaseNoteGoesOutOnceApproved(b, scripted.received, { wait: WAIT, settleMs: 6000 });
    // Decided on the desktop, run by the server.
    assert.match(serverLog, /ran approvals decided on another app/);
    assert.equal(psql("SELECT decided_via || ' ' || (run_started_at IS NOT NULL) || ' ' || (executed_at IS NOT NULL) || ' ' || COALESCE(error, '-') FROM approval", url), "ui true true -");

    // The desktop's history shows what the server's run came back with.
    await (await byTestId(b, "approvals-view-history")).click();
    const result = await b.$('[data-testid^="approval-history-"][data-testid$="-result"]');
    await result.waitForDisplayed(WAIT);
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
    server.kill("SIGKILL");
    await new Promise((r) => (server.exitCode !== null || server.signalCode !== null ? r() : server.once("exit", r)));
    server = undefined;
    psql(`DROP DATABASE IF EXISTS ${db}`);
  }
});
