// The boss posts in a department's group chat in the real app; the engine wakes the
// employee, who thinks through a scripted OpenAI-compatible model and replies in the
// chat. The inner-thoughts toggle shows what she thought.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { execFileSync } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, CLI } from "./driver.mjs";

const WAIT = { timeout: 45_000 };
const REPLY = "On it, Ada. I'll check the build right now.";
const INNER = "The build matters for Friday; I should answer quickly.";
let server;
let driver;
let requests = 0;

before(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      requests += 1;
      const thought = {
        innerThoughts: INNER,
        interestLevel: 8,
        topicSaturation: 2,
        shouldSpeak: true,
        reason: "the boss asked me directly",
        messages: [{ content: REPLY }],
        memorySummary: "The boss asked about the build.",
        memoryOps: [],
        relationshipOps: [],
        taskOps: [],
      };
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          id: "c",
          object: "chat.completion",
          model: "scripted-1",
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(thought) } }],
          usage: { prompt_tokens: 700, completion_tokens: 80 },
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

test("the boss posts in a group chat and an employee replies", async () => {
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
  driver = await startDriver(env, 4484);
  const b = await openApp(driver);
  try {
    await (await byTestId(b, "nav-chats")).click();
    await byTestId(b, "chats-page");
    await (await byTestId(b, "chat-item-1")).click();
    await byTestId(b, "chat-view");
    await (await byTestId(b, "chat-input")).setValue("Alice, can you check the build?");
    await (await byTestId(b, "chat-send")).click();
    await b.waitUntil(
      () =>
        b.execute(
          (text) => [...document.querySelectorAll('[data-sender="employee"]')].some((el) => el.textContent.includes(text)),
          REPLY,
        ),
      { ...WAIT, timeoutMsg: "no reply from Alice in the chat" },
    );
    assert.ok(requests >= 1, "the reply came from the model");
    // Her inner thoughts are not in the chat, but the toggle shows them.
    const before = await b.execute(() => document.body.textContent);
    assert.ok(!before.includes(INNER), "inner thoughts are never posted");
    await (await byTestId(b, "thoughts-toggle")).click();
    await b.waitUntil(() => b.execute((t) => document.body.textContent.includes(t), INNER), {
      ...WAIT,
      timeoutMsg: "the inner-thoughts toggle did not show her thought",
    });
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
});
