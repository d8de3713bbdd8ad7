// An employee wants to post to the team's webhook. The post waits in the approval queue
// of the real app; nothing is sent until the boss clicks Approve there, and then it is
// sent exactly once.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { execFileSync } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, CLI } from "./driver.mjs";

const WAIT = { timeout: 60_000 };
let model;
let hook;
let driver;
const received = [];

function listen(server) {
  return new Promise((r) => server.listen(0, "127.0.0.1", r));
}

before(async () => {
  hook = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push(JSON.parse(body || "{}"));
      res.setHeader("content-type", "application/json");
      res.end('{"ok":true}');
    });
  });
  await listen(hook);
  model = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      const user = JSON.parse(body || "{}").messages?.[1]?.content ?? "";
      const asked = user.split("\n").some((l) => l.startsWith("*[") && l.includes("release note"));
      const thought = asked
        ? {
            innerThoughts: "The boss wants the release note out.",
            shouldSpeak: true,
            reason: "asked",
            messages: [{ content: "I'll post it once you approve." }],
            toolCalls: [
              {
                tool: "post_webhook",
                args: { url: `http://127.0.0.1:${hook.address().port}/hook`, text: "Release 2.3 is out", style: "slack" },
                reason: "the boss asked for the release note",
              },
            ],
          }
        : { innerThoughts: "Nothing for me.", shouldSpeak: false, reason: "nothing new", messages: [] };
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          id: "a",
          object: "chat.completion",
          model: "scripted-1",
          choices: [{ index: 0, finish_reason: "stop", message: { role: "assistant", content: JSON.stringify(thought) } }],
          usage: { prompt_tokens: 700, completion_tokens: 80 },
        }),
      );
    });
  });
  await listen(model);
});

after(() => {
  driver?.stop();
  model?.close();
  hook?.close();
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
  const env = {
    ...home.env,
    CUBICLE_PROVIDER: "openai-compatible",
    CUBICLE_BASE_URL: `http://127.0.0.1:${model.address().port}/v1`,
    CUBICLE_MODEL: "scripted-1",
  };
  driver = await startDriver(env, 4486);
  const b = await openApp(driver);
  try {
    await (await byTestId(b, "nav-chats")).click();
    await (await byTestId(b, "chat-item-1")).click();
    await (await byTestId(b, "chat-input")).setValue("Mia, please post the release note to the team webhook.");
    await (await byTestId(b, "chat-send")).click();

    // It waits for the boss: in the queue, and nothing was sent.
    await (await byTestId(b, "nav-approvals")).click();
    await b.waitUntil(() => bodyHas(b, "Release 2.3 is out"), { ...WAIT, timeoutMsg: "no approval in the queue" });
    await sleep(3000);
    assert.equal(received.length, 0, "nothing goes out before approval");

    const approve = await b.$('[data-testid^="approval-"][data-testid$="-approve"]');
    await approve.waitForDisplayed(WAIT);
    await approve.click();
    await b.waitUntil(() => received.length === 1, { ...WAIT, timeoutMsg: "the webhook never received the post" });
    assert.equal(received[0].text, "Release 2.3 is out");
    // Once, not again.
    await sleep(5000);
    assert.equal(received.length, 1, "the post went out exactly once");
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
});
