// A team's company on a PostgreSQL server (docs/server.md): `cubicle-cli run` on the "server"
// is the company's one engine, and the desktop app is attached to the same database. The boss
// asks from the desktop; the server's engine has the employee ask for approval; the desktop
// shows it (it refetches every 5 s), the boss approves there, and the server — not the desktop —
// posts the webhook, once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, CLI } from "./driver.mjs";
import { startReleaseNote, RELEASE_NOTE } from "./release_note.mjs";

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

const bodyHas = (b, text) => b.execute((t) => document.body.textContent.includes(t), text);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

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

  // The server: the company's engine, with the model. The desktop gets no model at all.
  server = spawn(CLI, ["--db", url, "run", "--for", "5m"], {
    env: { ...process.env, ...scripted.modelEnv, RUST_LOG: "warn" },
    stdio: ["ignore", "ignore", "inherit"],
  });
  const home = freshHome();
  driver = await startDriver({ ...home.env, CUBICLE_DATABASE_URL: url }, 4498);
  const b = await openApp(driver);
  try {
    await byTestId(b, "server-badge");
    await (await byTestId(b, "nav-chats")).click();
    await (await byTestId(b, "chat-item-1")).click();
    await (await byTestId(b, "chat-input")).setValue("Mia, please post the release note to the team webhook.");
    await (await byTestId(b, "chat-send")).click();

    // Raised by the server's engine; on the desktop's queue without a reload.
    await (await byTestId(b, "nav-approvals")).click();
    await b.waitUntil(() => bodyHas(b, RELEASE_NOTE), { ...WAIT, timeoutMsg: "the server's approval never reached the desktop" });
    await sleep(3000);
    assert.equal(scripted.received.length, 0, "nothing goes out before approval");

    const approve = await b.$('[data-testid^="approval-"][data-testid$="-approve"]');
    await approve.waitForDisplayed(WAIT);
    await approve.click();
    await b.waitUntil(() => scripted.received.length === 1, { ...WAIT, timeoutMsg: "the server never posted the approved webhook" });
    assert.equal(scripted.received[0].text, RELEASE_NOTE);
    await sleep(6000);
    assert.equal(scripted.received.length, 1, "the post went out exactly once");
    // Decided on the desktop, run by the server.
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
