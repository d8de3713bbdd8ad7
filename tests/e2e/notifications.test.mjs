// Approving from a desktop notification, with the real app: the boss asks Mia in a chat to
// post four messages to the team's webhook (a scripted OpenAI-compatible model makes her ask);
// each post waits for approval, and the running app raises a notification for each on the
// session bus, where a test notification daemon (cubicle-test-notifications) receives them
// and presses their buttons as the boss would.
//
// It checks what the boss sees (the employee by name, the exact action, model text escaped
// and capped), that Approve runs the post exactly once, and that a stale notification
// (decided in the CLI first) or an altered one (its row rewritten in SQLite with a freshly
// computed plain SHA-256) runs nothing.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import fs from "node:fs";
import crypto from "node:crypto";
import { execFileSync, execFile } from "node:child_process";
import { promisify } from "node:util";
import { freshHome, startDriver, openApp, closeApp, newMessages, APP, CLI } from "./driver.mjs";
import { startNotificationServer } from "./notification_server.mjs";

const WAIT = { timeout: 60_000 };
// How long a press is given to take effect (or not) once the app has the signal.
const SETTLE_MS = 2500;
// What the model asks to post; each starts with a plain tag the test finds it by.
const MARKUP = "[ship] Release <b>2.3</b> & <i>notes</i> for R&D";
const FLOOD = `[flood] ${"x".repeat(10_000 - 8)}`;
const WEEKLY = "[weekly] All green this week";
const TAMPERED = "[tampered] Wire the budget to account 666";
const LUNCH = "[lunch] The lunch menu is up";
// A notification is a glance, not a document: more than this is not "capped".
const MAX_BODY_CHARS = 1000;

let model;
let hook;
let notifications;
let driver;
let b;
let home;
const received = [];
const byTag = {};

function listen(server) {
  return new Promise((r) => server.listen(0, "127.0.0.1", r));
}

function collect(req) {
  return new Promise((r) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => r(body));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const hookHost = () => `127.0.0.1:${hook.address().port}`;
const hookUrl = () => `http://${hookHost()}/hook`;
/** Whether the app closed the notification for `tag` itself (withdrawn). */
const closedByApp = (tag) => notifications.events.some((e) => e.event === "closedByClient" && e.id === byTag[tag].id);
const posted = (text) => received.filter((r) => r.text === text).length;

/** The scripted model: the boss's unread "first batch" asks for three posts, "second batch" for one. */
function thoughtFor(user) {
  const unread = newMessages(user);
  const asks = (words) => unread.some((l) => l.includes(words));
  const post = (text) => ({
    tool: "post_webhook",
    args: { url: hookUrl(), text, style: "slack" },
    reason: "the boss asked for it",
  });
  const calls = asks("first batch") ? [post(MARKUP), post(FLOOD), post(WEEKLY)] : asks("second batch") ? [post(LUNCH)] : [];
  // She asks without a word in the chat: a post would close the chat's cooldown gate on
  // her and hold the second batch back for half a minute.
  return { innerThoughts: "The boss wants these out.", shouldSpeak: false, reason: "asked", messages: [], toolCalls: calls };
}

async function startScripted() {
  hook = http.createServer(async (req, res) => {
    received.push(JSON.parse((await collect(req)) || "{}"));
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  await listen(hook);
  model = http.createServer(async (req, res) => {
    const user = JSON.parse((await collect(req)) || "{}").messages?.[1]?.content ?? "";
    res.setHeader("content-type", "application/json");
    res.end(
      JSON.stringify({
        id: "n",
        object: "chat.completion",
        model: "scripted-1",
        choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(thoughtFor(user)) } }],
        usage: { prompt_tokens: 700, completion_tokens: 80 },
      }),
    );
  });
  await listen(model);
}

const cliEnv = () => ({ ...process.env, CUBICLE_TEST_WEBHOOK_LOOPBACK: "1" });
const cli = (...a) => execFileSync(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8", env: cliEnv() });
/** The CLI without blocking this process: its webhook post comes back to the receiver here. */
const cliAsync = async (...a) =>
  (await promisify(execFile)(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8", env: cliEnv() })).stdout;
const history = () => JSON.parse(cli("approvals", "list", "--history", "--json"));
const pending = () => JSON.parse(cli("approvals", "list", "--json"));
const approvalOf = (text) => [...pending(), ...history()].find((a) => a.args?.text === text);

/** What a server with `body-markup` shows for `body`: tags drawn, not shown; entities decoded. */
function rendered(body) {
  const named = { lt: "<", gt: ">", amp: "&", quot: '"', apos: "'" };
  return body
    .replace(/<[^>]*>/g, "")
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (m, e) =>
      e[0] === "#" ? String.fromCodePoint(Number(e[1].toLowerCase() === "x" ? `0${e.slice(1)}` : e.slice(1))) : (named[e] ?? m),
    );
}

/** The database file behind the test's `sqlite://…?mode=rwc` URL. */
const dbFile = () => home.dbUrl.replace(/^sqlite:\/\//, "").replace(/\?.*$/, "");

/** Runs a little Python against the database, as someone with file access would. */
function sqlite(script, ...args) {
  const python = fs.existsSync("/usr/bin/python3") ? "/usr/bin/python3" : "python3";
  const prelude = "import sqlite3, sys, json\nc = sqlite3.connect(sys.argv[1], timeout=10)\n";
  return execFileSync(python, ["-c", prelude + script, dbFile(), ...args], { encoding: "utf8" });
}

/** Core's canonical JSON (crates/core/src/tools.rs): keys sorted at every level. */
function canonicalJson(v) {
  if (Array.isArray(v)) return `[${v.map(canonicalJson).join(",")}]`;
  if (v && typeof v === "object") {
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonicalJson(v[k])}`)
      .join(",")}}`;
  }
  return JSON.stringify(v);
}

/** The unkeyed args hash anyone can compute: SHA-256 of tool, NUL, canonical arguments. */
const plainArgsHash = (tool, args) => crypto.createHash("sha256").update(`${tool}\0${canonicalJson(args)}`).digest("hex");

async function byTestId(id) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(WAIT);
  return el;
}

async function say(text) {
  await (await byTestId("chat-input")).setValue(text);
  await (await byTestId("chat-send")).click();
}

before(async () => {
  await startScripted();
  home = freshHome();
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", "en");
  cli("org", "add-department", "Marketing");
  cli("org", "hire", "Mia Wong", "--title", "Marketing Manager", "--department", "Marketing");
  cli("webhooks", "allow", hookHost());
  notifications = await startNotificationServer();
  driver = await startDriver(
    {
      ...home.env,
      CUBICLE_TEST_WEBHOOK_LOOPBACK: "1",
      CUBICLE_PROVIDER: "openai-compatible",
      CUBICLE_BASE_URL: `http://127.0.0.1:${model.address().port}/v1`,
      CUBICLE_MODEL: "scripted-1",
    },
    4502,
  );
  b = await openApp(driver);
  await (await byTestId("nav-chats")).click();
  await (await byTestId("chat-item-1")).click();
  await say("Mia, please post the first batch to the team webhook.");
  for (const tag of ["[ship]", "[flood]", "[weekly]"]) byTag[tag] = await notifications.notificationWith(tag, WAIT.timeout);
  await say("Thanks. Now the second batch, please.");
  byTag["[lunch]"] = await notifications.notificationWith("[lunch]", WAIT.timeout);
});

after(async () => {
  try {
    if (b) await closeApp(b);
  } finally {
    driver?.stop();
    notifications?.stop();
    model?.close();
    hook?.close();
  }
});

test("the running app raises one notification per approval, naming the employee, with Reject, and Approve when the whole action fits", () => {
  const exe = fs.realpathSync(APP);
  for (const [tag, n] of Object.entries(byTag)) {
    assert.equal(notifications.notifications().filter((m) => m.body.includes(tag)).length, 1, `${tag}: one notification`);
    // Raised by the app's own wiring (src-tauri/src/notifications.rs), not by a harness.
    assert.ok(n.senderPid, `${tag}: the bus knows who sent it`);
    assert.equal(fs.realpathSync(`/proc/${n.senderPid}/exe`), exe, `${tag}: sent by the app binary`);
    assert.equal(n.appName, "Cubicle");
    assert.match(n.summary, /Mia Wong/, `${tag}: the title names the employee`);
    const keys = n.actions.filter((_, i) => i % 2 === 0);
    assert.ok(keys.includes("reject"), `${tag}: buttons ${keys}`);
    // Approve only on a notification that shows the whole action (the flood is cut).
    assert.equal(keys.includes("approve"), tag !== "[flood]", `${tag}: buttons ${keys}`);
  }
  // Plain text shows the exact action: where it goes and every word of it.
  for (const [tag, text] of [["[weekly]", WEEKLY], ["[lunch]", LUNCH]]) {
    const shown = rendered(byTag[tag].body);
    assert.ok(shown.includes(hookHost()) && shown.includes(text), `${tag}: ${byTag[tag].body}`);
  }
  // Nothing ran before the boss said so.
  assert.equal(received.length, 0);
});

test("markup characters in the model's text are escaped: the boss sees them as typed", () => {
  const { body } = byTag["[ship]"];
  assert.doesNotMatch(body, /<\/?(b|i|u|a|img)\b/i, `raw markup in the body: ${body}`);
  assert.doesNotMatch(body, /&(?!(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-f]+);)/i, `a bare & in the body: ${body}`);
  const shown = rendered(body);
  assert.ok(shown.includes(hookHost()) && shown.includes(MARKUP), `the exact action is not shown: ${body}`);
});

test("a hostile 10,000-character argument gives a capped body that says it was cut", () => {
  const { body } = byTag["[flood]"];
  assert.ok(body.length <= MAX_BODY_CHARS, `the body has ${body.length} characters`);
  const shown = rendered(body);
  assert.ok(shown.includes(hookHost()) && shown.includes(FLOOD.slice(0, 60)), `the start of the action is not shown: ${body.slice(0, 200)}`);
  assert.ok(shown.includes("…"), "the body says it was cut");
});

test("Approve on the notification runs the action exactly once", async () => {
  const n = byTag["[ship]"];
  await notifications.invoke(n.id, "approve");
  await b.waitUntil(() => posted(MARKUP) > 0, { ...WAIT, timeoutMsg: "the approved post never arrived" });
  await sleep(SETTLE_MS);
  assert.equal(posted(MARKUP), 1, "posted exactly once, with the text as the model wrote it");
  const a = approvalOf(MARKUP);
  assert.equal(a.status, "approved");
  assert.equal(a.decidedVia, "notification");
  assert.ok(a.executedAt, "recorded as run");
  assert.equal(a.error, null);
});

test("a stale notification is refused: decided in the CLI first, Approve on it changes nothing", async () => {
  // Rejected in the terminal; the notification is still up in the app.
  const flood = approvalOf(FLOOD);
  assert.equal(JSON.parse(await cliAsync("approvals", "decide", String(flood.id), "reject", "--json")).status, "rejected");
  // Approved (and run) in the terminal.
  const lunch = approvalOf(LUNCH);
  // From a script the CLI approves only with the seal it listed: what the boss saw.
  const ran = JSON.parse(await cliAsync("approvals", "decide", String(lunch.id), "approve", "--hash", lunch.argsHash, "--json"));
  assert.equal(ran.status, "approved");
  assert.equal(posted(LUNCH), 1, `the CLI ran it: ${JSON.stringify(ran)}`);

  for (const tag of ["[flood]", "[lunch]"]) {
    assert.ok(!closedByApp(tag), `${tag}: the notification is still open, so pressing it is a real stale press`);
    await notifications.invoke(byTag[tag].id, "approve");
  }
  await sleep(SETTLE_MS);

  const floodNow = approvalOf(FLOOD);
  assert.equal(floodNow.status, "rejected", "the rejection stands");
  assert.equal(floodNow.decidedVia, "cli");
  assert.equal(floodNow.executedAt, null);
  assert.equal(posted(FLOOD), 0, "the rejected post never went out");
  const lunchNow = approvalOf(LUNCH);
  assert.equal(lunchNow.status, "approved");
  assert.equal(lunchNow.decidedVia, "cli");
  assert.equal(posted(LUNCH), 1, "not run a second time");
});

test("an altered notification is refused: arguments rewritten in the database with a recomputed plain hash do not run", async () => {
  const weekly = approvalOf(WEEKLY);
  assert.equal(weekly.status, "waiting");
  assert.ok(!closedByApp("[weekly]"), "the notification is still open");
  const row = JSON.parse(
    sqlite("print(json.dumps(c.execute('SELECT tool, args, args_hash FROM approval WHERE id=?', (int(sys.argv[2]),)).fetchone()))", String(weekly.id)),
  );
  const [tool, argsText, storedHash] = row;
  const altered = { ...JSON.parse(argsText), text: TAMPERED };
  // Whether today's stored hash is one an attacker can recompute (it is while it is unkeyed).
  const forgeable = plainArgsHash(tool, JSON.parse(argsText)) === storedHash;
  console.log(`# the stored args hash ${forgeable ? "is" : "is not"} the plain SHA-256 of the arguments`);
  const changed = sqlite(
    "c.execute('UPDATE approval SET args=?, args_hash=? WHERE id=?', (sys.argv[3], sys.argv[4], int(sys.argv[2])))\nc.commit()\nprint(c.total_changes)",
    String(weekly.id),
    JSON.stringify(altered),
    plainArgsHash(tool, altered),
  );
  assert.equal(changed.trim(), "1", "the row was rewritten");

  await notifications.invoke(byTag["[weekly]"].id, "approve");
  const deadline = Date.now() + SETTLE_MS * 2;
  while (Date.now() < deadline && approvalOf(TAMPERED)?.status === "waiting") await sleep(200);
  await sleep(SETTLE_MS);

  assert.equal(posted(TAMPERED), 0, "the altered post went out: the boss never saw it");
  const a = approvalOf(TAMPERED) ?? approvalOf(WEEKLY);
  assert.ok(!(a.status === "approved" && a.executedAt && a.error === null), `recorded as run: ${JSON.stringify(a)}`);
});
