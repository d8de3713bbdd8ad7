// An employee wants to post to the team's webhook. The post waits in the approval queue
// of the real app; nothing is sent until the boss clicks Approve there, and then it is
// sent exactly once. Never silent (issue 37): a webhook the boss's allowlist refuses
// reaches the boss with the reason and the one place that fixes it (Settings → Webhooks
// with the host filled in); an approved post that fails stays in the queue showing why.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, CLI, shot } from "./driver.mjs";
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

async function byTestId(b, id, wait = WAIT) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(wait);
  return el;
}

const textOf = (b) => b.execute(() => document.body.textContent);

/** A company with Mia in Marketing whose webhooks may reach `allowed`; the app open on it. */
async function openCompany(allowed, port) {
  const home = freshHome();
  const cli = (...a) => execFileSync(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8" });
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", "en");
  cli("org", "add-department", "Marketing");
  cli("org", "hire", "Mia Wong", "--title", "Marketing Manager", "--department", "Marketing");
  cli("webhooks", "allow", allowed);
  driver = await startDriver({ ...home.env, ...scripted.modelEnv }, port);
  return openApp(driver);
}

async function askForTheReleaseNote(b) {
  await (await byTestId(b, "nav-chats")).click();
  await (await byTestId(b, "chat-item-1")).click();
  await (await byTestId(b, "chat-input")).setValue("Mia, please post the release note to the team webhook.");
  await (await byTestId(b, "chat-send")).click();
}

async function done(b) {
  await closeApp(b);
  driver.stop();
  driver = undefined;
}

test("a webhook the allowlist refuses: the boss sees why in the chat and the mailbox, and the fix opens Settings with the host filled in", async () => {
  scripted.received.length = 0;
  const b = await openCompany("hooks.slack.com", 4490);
  try {
    await askForTheReleaseNote(b);
    // The chat where it was asked says it was refused, and where that is fixed.
    await b.waitUntil(async () => (await textOf(b)).includes(`is not on the webhook allowlist`), {
      ...WAIT,
      timeoutMsg: "no refusal line in the chat",
    });
    assert.ok((await textOf(b)).includes(`Refused: Mia Wong's post to ${scripted.hookHost} was not sent`));
    await shot("refused-webhook-in-chat");

    await (await byTestId(b, "nav-mailbox")).click();
    const refusal = async () => {
      for (const el of await b.$$('[data-testid^="mail-link-"]')) if (String(await el.getProperty("textContent")).includes(scripted.hookHost)) return el;
      return false;
    };
    const item = await b.waitUntil(refusal, { ...WAIT, timeoutMsg: "no mail about the refused post" });
    await item.click();
    const note = await byTestId(b, "mail-fix-note");
    assert.match(await note.getText(), /Nothing was sent: .* is not on your list of webhook destinations/);
    const fix = await byTestId(b, "mail-fix");
    assert.equal(await fix.getText(), `Allow ${scripted.hookHost} in Settings → Webhooks`);
    await shot("refused-webhook-mail-with-fix");
    await fix.click();

    const input = await byTestId(b, "webhook-host");
    await b.waitUntil(async () => (await input.getValue()) === scripted.hookHost, { ...WAIT, timeoutMsg: "the host is not filled in" });
    await byTestId(b, "webhook-prefilled");
    await shot("refused-webhook-fix-prefilled");
    await (await byTestId(b, "webhook-add")).click();
    await b.waitUntil(async () => (await (await byTestId(b, "webhooks-list")).getText()).includes(scripted.hookHost), {
      ...WAIT,
      timeoutMsg: "the host was not allowed",
    });
    assert.equal(scripted.received.length, 0, "nothing was sent");
    // Nothing waits for an approval that could never run.
    await (await byTestId(b, "nav-approvals")).click();
    await byTestId(b, "approvals-empty");
  } finally {
    await done(b);
  }
});

test("an approved post that fails: the card stays in the queue showing the failure", async () => {
  scripted.received.length = 0;
  scripted.answerWith(500);
  const b = await openCompany(scripted.hookHost, 4492);
  try {
    await askForTheReleaseNote(b);
    await (await byTestId(b, "nav-approvals")).click();
    const approve = await b.$('[data-testid^="approval-"][data-testid$="-approve"]');
    await approve.waitForDisplayed(WAIT);
    const id = (await approve.getAttribute("data-testid")).replace(/-approve$/, "");
    await approve.click();

    const chip = await byTestId(b, `${id}-outcome-chip`);
    await b.waitUntil(async () => (await chip.getAttribute("data-outcome")) === "failed", { ...WAIT, timeoutMsg: "the card never showed the failure" });
    assert.equal(await chip.getText(), "Failed");
    assert.equal(await (await byTestId(b, `${id}-status`)).getText(), "Approved");
    assert.match(await (await byTestId(b, `${id}-error`)).getText(), /It failed: .*500/);
    await byTestId(b, "approvals-just-decided");
    await shot("approved-post-failed-card");
    assert.equal(scripted.received.length, 1, "posted once, and it failed");
  } finally {
    scripted.answerWith(200);
    await done(b);
  }
});
