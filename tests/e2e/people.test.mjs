// Two people attached to one company server at once, each signed in as their own PostgreSQL
// role (docs/people.md): Lin answers for Marketing, Sam for Engineering. The server's engine has
// Mia (Marketing) and Dan (Engineering) each ask to post to a webhook. Lin's desktop shows only
// Mia's approval and Sam's only Dan's, while the boss (the CLI on the server's role) sees both;
// each desktop's header and proxy are its person's; Lin's proxy asks Sam for an estimate and
// Sam's desktop shows the question in his proxy's conversation, not in Lin's. Lin joins from
// her app's first run with the sign-in the boss gave her (Sam's app is started on his), and
// signs out from Settings at the end.
// Two apps at once need two session buses: each app holds a single-instance name on its bus.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freshHome, startDriver, openApp, closeApp, CLI } from "./driver.mjs";
import { startReleaseNote } from "./release_note.mjs";

const WAIT = { timeout: 90_000 };
const PG = process.env.CUBICLE_TEST_PG_URL;
let scripted;
const drivers = [];
const buses = [];
let server;

before(async () => {
  scripted = await startReleaseNote();
});

after(() => {
  drivers.forEach((d) => d.stop());
  server?.kill("SIGKILL");
  buses.forEach((pid) => {
    try {
      process.kill(pid);
    } catch {
      // already gone
    }
  });
  scripted?.close();
});

async function byTestId(b, id) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(WAIT);
  return el;
}

/** A session bus of its own for a second app (its single-instance name, its notifications). */
function newSessionBus() {
  const out = execFileSync("dbus-daemon", ["--session", "--fork", "--print-address=1", "--print-pid=1"], { encoding: "utf8" }).trim().split("\n");
  buses.push(Number(out[1]));
  return out[0];
}

const pageText = (b) => b.execute(() => document.body.innerText);

/** CUBICLE_E2E_SHOTS=DIR: each app's own window (two apps share the screen). */
async function shot(b, name) {
  const dir = process.env.CUBICLE_E2E_SHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await b.pause(1000);
  await b.saveScreenshot(path.join(dir, `${name}.png`));
}

test("two people attached at once each see their own queue and proxy; the boss sees both", { skip: PG ? false : "CUBICLE_TEST_PG_URL is not set (scripts/test.sh starts PostgreSQL)" }, async () => {
  const db = `cubicle_people_${process.pid}`;
  const psql = (sql, url = PG) => execFileSync("psql", [url, "-Atqc", sql], { encoding: "utf8" }).trim();
  psql(`DROP DATABASE IF EXISTS ${db}`);
  psql(`CREATE DATABASE ${db}`);
  const url = PG.replace(/\/[^/?]+(\?|$)/, `/${db}$1`);
  const cli = (...a) => execFileSync(CLI, ["--db", url, ...a], { encoding: "utf8" });
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", "en");
  cli("org", "add-department", "Marketing");
  cli("org", "add-department", "Engineering");
  cli("org", "hire", "Mia Wong", "--title", "Marketing Manager", "--department", "Marketing");
  cli("org", "hire", "Dan Park", "--title", "Backend Engineer", "--department", "Engineering");
  // A backend engineer's card has no webhook tool; the boss gives it to Dan for the release note.
  cli("org", "set-tools", "Dan Park", "--tools", "read_memory,read_file,write_file,post_webhook");
  cli("people", "add", "Lin", "--role", "Head of Marketing", "--department", "Marketing");
  cli("people", "add", "Sam", "--role", "Head of Engineering", "--department", "Engineering");
  cli("webhooks", "allow", scripted.hookHost);
  const signIn = (who) => {
    const found = cli("people", "login", who).match(/postgres(ql)?:\/\/\S+/);
    assert.ok(found, `no sign-in printed for ${who}`);
    return found[0];
  };
  const linUrl = signIn("Lin");
  const samUrl = signIn("Sam");

  server = spawn(CLI, ["--db", url, "run", "--for", "5m"], {
    env: { ...process.env, ...scripted.modelEnv },
    stdio: ["ignore", "ignore", "ignore"],
  });
  // The boss asks both employees; the server's engine has each ask for approval.
  const chats = cli("chats");
  const chatOf = (dept) => chats.match(new RegExp(`# ${dept} \\[department chat #(\\d+)`))[1];
  cli("post", chatOf("Marketing"), "Mia, please post the release note to the team webhook.");
  cli("post", chatOf("Engineering"), "Dan, please post the release note to the team webhook.");
  const waiting = () => JSON.parse(cli("approvals", "list", "--json"));
  const deadline = Date.now() + WAIT.timeout;
  while (waiting().length < 2) {
    assert.ok(Date.now() < deadline, "the two approvals were never raised");
    await new Promise((r) => setTimeout(r, 500));
  }
  const names = (list) => list.map((a) => a.requesterName).sort();
  assert.deepEqual(names(waiting()), ["Dan Park", "Mia Wong"], "the boss sees both");
  const queueOf = (who) => names(JSON.parse(cli("approvals", "list", "--as", who, "--json")));
  assert.deepEqual(queueOf("Lin"), ["Mia Wong"]);
  assert.deepEqual(queueOf("Sam"), ["Dan Park"]);

  const linHome = freshHome();
  const samHome = freshHome();
  // Lin joins from the app itself: a first run on her own computer (no company file, no
  // CUBICLE_DATABASE_URL), where she pastes the sign-in the boss gave her.
  const { CUBICLE_DATABASE_URL: _ownFile, ...linEnv } = linHome.env;
  const linDriver = await startDriver(linEnv, 4506);
  drivers.push(linDriver);
  let lin;
  let sam;
  try {
    lin = await joinFromTheFirstRun(await openApp(linDriver), linUrl);
    const samDriver = await startDriver({ ...samHome.env, CUBICLE_DATABASE_URL: samUrl, DBUS_SESSION_BUS_ADDRESS: newSessionBus() }, 4510);
    drivers.push(samDriver);
    lin = await openApp(linDriver);
    sam = await openApp(samDriver);
    for (const [b, me, mine, theirs] of [
      [lin, "Lin", "Mia Wong", "Dan Park"],
      [sam, "Sam", "Dan Park", "Mia Wong"],
    ]) {
      assert.equal(await (await byTestId(b, "signed-in-name")).getText(), me);
      await (await byTestId(b, "nav-approvals")).click();
      const list = await byTestId(b, "approvals-waiting-list");
      await b.waitUntil(async () => (await list.getText()).includes(mine), { ...WAIT, timeoutMsg: `${me}'s queue never showed ${mine}'s approval` });
      assert.equal((await list.getText()).includes(theirs), false, `${me} must not see ${theirs}'s approval`);
      assert.equal(await (await byTestId(b, "nav-proxy")).getText(), "My proxy");
      await shot(b, `people-${me.toLowerCase()}-queue`);
    }

    // Lin's proxy asks Sam; Sam's desktop shows it in his proxy's conversation (refetched from the server).
    await (await byTestId(lin, "nav-proxy")).click();
    assert.equal(await (await byTestId(lin, "proxy-card")).getText().then((t) => t.includes("Lin's proxy")), true);
    assert.equal(await lin.$('[data-testid="proxy-person"]').then((e) => e.isExisting()), false, "no picking another person's proxy");
    await (await byTestId(lin, "proxy-input")).setValue("ask Sam for an estimate of the checkout redesign");
    await (await byTestId(lin, "proxy-send")).click();
    await byTestId(lin, "proxy-conversation");
    await byTestId(lin, "proxy-written");

    await (await byTestId(sam, "nav-proxy")).click();
    await b_waitForText(sam, "checkout redesign");
    const samLines = await (await byTestId(sam, "proxy-conversation")).getText();
    assert.match(samLines, /Lin/);
    await shot(lin, "people-lin-proxy");
    await shot(sam, "people-sam-proxy");
    assert.equal((await pageText(lin)).includes("Sam's proxy"), false);
    // What Lin's proxy asked is a message in the chat between them: the boss sees it too.
    assert.match(cli("chats"), /Lin/);

    // Settings says where she is signed in and as whom; signing out forgets it on this computer.
    await (await byTestId(lin, "nav-settings")).click();
    await b_waitForText(lin, `Signed in to ${new URL(linUrl).host}`);
    assert.match(await (await byTestId(lin, "server-connected")).getText(), /as Lin/);
    await (await byTestId(lin, "settings-section-server")).scrollIntoView();
    await shot(lin, "people-lin-server-settings");
    await (await byTestId(lin, "server-sign-out")).click();
    await byTestId(lin, "server-signed-out");
  } finally {
    await closeApp(lin).catch(() => {});
    await sam?.deleteSession().catch(() => {});
    // Whatever happened, no later test's app opens Lin's company from this session's keychain.
    execFileSync(CLI, ["sign-in", "--forget"], { stdio: "ignore" });
    drivers.forEach((d) => d.stop());
    drivers.length = 0;
    server.kill("SIGKILL");
    await new Promise((r) => (server.exitCode !== null || server.signalCode !== null ? r() : server.once("exit", r)));
    server = undefined;
    psql(`DROP DATABASE IF EXISTS ${db}`);
  }
});

/**
 * On a first run, a wrong paste is refused with why; the real sign-in is checked with the
 * server and kept, and the page says as whom. Returns once the app is closed again: the next
 * start opens the company on the server (the restart button's own job, which a WebDriver
 * session cannot follow).
 */
async function joinFromTheFirstRun(b, signIn) {
  await (await byTestId(b, "wizard-to-join")).click();
  const input = await byTestId(b, "server-sign-in-url");
  await input.setValue("sqlite:///tmp/acme.db");
  await (await byTestId(b, "server-sign-in-submit")).click();
  assert.match(await (await byTestId(b, "server-sign-in-error")).getText(), /not a company server's sign-in/);
  await input.setValue(signIn);
  await (await byTestId(b, "server-sign-in-submit")).click();
  const done = await byTestId(b, "server-signed-in");
  assert.match(await done.getText(), /Signed in to Acme Robotics on .* as Lin\./);
  assert.equal((await pageText(b)).includes(new URL(signIn).password), false, "the password is not on the page");
  await shot(b, "people-lin-joins");
  await closeApp(b);
}

async function b_waitForText(b, text) {
  await b.waitUntil(async () => (await pageText(b)).includes(text), { ...WAIT, timeoutMsg: `never showed “${text}”` });
}
