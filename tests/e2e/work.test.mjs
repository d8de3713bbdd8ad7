// The boss gives Alice a task through the secretary in the real app and leaves it. The
// engine wakes her; she thinks through a scripted OpenAI-compatible model, resolves the
// task and reports in her own words. The boss finds the report in the mailbox and opens
// the instruction's trace: what was said, the task, the report, and what it cost.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { execFileSync } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, CLI, shot } from "./driver.mjs";

const WAIT = { timeout: 60_000 };
const REPORT = "Ada, my recommendation: REST for the public API, GraphQL for the dashboard.";
let server;
let driver;
const asked = { resolve: 0, report: 0, other: 0 };

/** Alice as the scripted model plays her: the task in her prompt gets done, then reported. */
function think(user) {
  const base = { interestLevel: 7, topicSaturation: 3, memoryOps: [], relationshipOps: [] };
  if (user.includes("Write the report yourself")) {
    asked.report += 1;
    return { ...base, innerThoughts: "Tell Ada plainly.", shouldSpeak: true, reason: "report", messages: [{ content: REPORT }], taskOps: [] };
  }
  const task = /min\] #(\d+) /.exec(user);
  if (task && user.includes("design note")) {
    // Two lines about something else: resolved, but not done.
    asked.resolve += 1;
    const result = "Team lunch\nWe could order pizza for everyone on Friday afternoon.";
    return { ...base, innerThoughts: "Good enough.", shouldSpeak: false, reason: "working", messages: [], taskOps: [{ op: "resolve", id: Number(task[1]), result }] };
  }
  if (task) {
    asked.resolve += 1;
    return {
      ...base,
      innerThoughts: "I compared both; done.",
      shouldSpeak: false,
      reason: "working",
      messages: [],
      taskOps: [{ op: "resolve", id: Number(task[1]), result: "REST for the public API, GraphQL for the dashboard" }],
    };
  }
  asked.other += 1;
  return { ...base, innerThoughts: "Nothing for me.", shouldSpeak: false, reason: "nothing new", messages: [], taskOps: [] };
}

before(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const request = JSON.parse(body || "{}");
      const user = request.messages?.[1]?.content ?? "";
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          id: "w",
          object: "chat.completion",
          model: "scripted-1",
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(think(user)) } }],
          usage: { prompt_tokens: 800, completion_tokens: 90 },
        }),
      );
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
});

after(() => {
  driver?.stop();
  server?.close();
});

async function byTestId(b, id) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(WAIT);
  return el;
}

const bodyHas = (b, text) => b.execute((t) => document.body.textContent.includes(t), text);

/**
 * Acme Robotics with Alice Chen in Engineering, on the scripted model; the boss asks the
 * secretary for `ask` and confirms the card. The app, open on the secretary, and its home.
 */
async function aliceIsAsked(port, ask) {
  const home = freshHome();
  const cli = (...a) => execFileSync(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8" });
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", "en");
  cli("org", "add-department", "Engineering");
  cli("org", "hire", "Alice Chen", "--title", "Backend Engineer", "--department", "Engineering");
  const env = {
    ...home.env,
    CUBICLE_PROVIDER: "openai-compatible",
    CUBICLE_BASE_URL: `http://127.0.0.1:${server.address().port}/v1`,
    CUBICLE_MODEL: "scripted-1",
  };
  driver = await startDriver(env, port);
  const b = await openApp(driver);
  await (await byTestId(b, "nav-secretary")).click();
  await byTestId(b, "secretary-page");
  await (await byTestId(b, "secretary-input")).setValue(ask);
  await (await byTestId(b, "secretary-send")).click();
  await (await byTestId(b, "action-confirm-1")).click();
  await byTestId(b, "action-diff-1");
  return { home, b };
}

test("a task given through the secretary comes back as a report with its trace", async () => {
  const { home, b } = await aliceIsAsked(4485, "ask Alice to research REST vs GraphQL");
  try {

    // The boss leaves for the mailbox; the report arrives there on its own.
    await (await byTestId(b, "nav-mailbox")).click();
    await byTestId(b, "mailbox-page");
    await b.waitUntil(() => bodyHas(b, "Done: research REST vs GraphQL"), {
      ...WAIT,
      timeoutMsg: "no report reached the mailbox",
    });
    const item = await b.$('[data-testid^="mail-link-"]');
    await item.click();
    await b.waitUntil(() => bodyHas(b, REPORT), { ...WAIT, timeoutMsg: "the report is not in Alice's words" });
    assert.ok(asked.resolve >= 1 && asked.report >= 1, JSON.stringify(asked));

    // Its trace: the instruction, the task, the report message, and the cost.
    await (await byTestId(b, "mail-open-trace")).click();
    await byTestId(b, "trace-view");
    await b.waitUntil(() => bodyHas(b, "ask Alice to research REST vs GraphQL"), {
      ...WAIT,
      timeoutMsg: "the trace does not show the instruction",
    });
    await b.waitUntil(() => bodyHas(b, REPORT), { ...WAIT, timeoutMsg: "the trace does not show the report" });
    await shot("trace-of-a-task");
    const story = await b.execute(() => document.querySelector('[data-testid="trace-view"]').textContent);
    assert.ok(story.includes("research REST vs GraphQL"), "the task is in the story");
  } catch (e) {
    // What the scripted model was asked tells where the story stopped.
    e.message += ` (model asked: ${JSON.stringify(asked)}; db: ${home.dbUrl})`;
    throw e;
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
});

test("a deliverable off its task's subject is not Done: the mailbox and the dashboard say it needs review", async () => {
  const { home, b } = await aliceIsAsked(4488, "ask Alice to write a short design note on the gripper calibration timeout");
  try {

    await (await byTestId(b, "nav-mailbox")).click();
    await byTestId(b, "mailbox-page");
    await b.waitUntil(() => bodyHas(b, "Needs review: write a short design note"), {
      ...WAIT,
      timeoutMsg: "the mailbox does not say the deliverable needs review",
    });
    assert.equal(await bodyHas(b, "Done: write a short design note"), false, "not reported as done");
    await (await b.$('[data-testid^="mail-link-"]')).click();
    await b.waitUntil(() => bodyHas(b, "Needs your review: it says nothing about the task's subject."), {
      ...WAIT,
      timeoutMsg: "the report does not say why",
    });
    await shot("needs-review-mail");

    await (await byTestId(b, "nav-dashboard")).click();
    await byTestId(b, "dashboard-activity");
    await b.waitUntil(() => bodyHas(b, "Needs review: write a short design note"), {
      ...WAIT,
      timeoutMsg: "the dashboard shows the task as finished",
    });
  } catch (e) {
    e.message += ` (model asked: ${JSON.stringify(asked)}; db: ${home.dbUrl})`;
    throw e;
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
});
