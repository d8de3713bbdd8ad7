// A webhook that records what it receives, and a scripted model (OpenAI-compatible) whose
// employee, asked in a chat for "the release note", asks to post "Release 2.3 is out" to
// that webhook; every other thought stays silent. And the story the approval tests tell with
// them in the real app.
import http from "node:http";
import assert from "node:assert/strict";
import { newMessages } from "./driver.mjs";

export const RELEASE_NOTE = "Release 2.3 is out";

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

/** Starts both servers; `received` fills with the webhook's JSON bodies. */
export async function startReleaseNote() {
  const received = [];
  // What the webhook answers (a test of a failing post sets 500).
  let status = 200;
  const hook = http.createServer(async (req, res) => {
    received.push(JSON.parse((await collect(req)) || "{}"));
    res.statusCode = status;
    res.setHeader("content-type", "application/json");
    res.end(status === 200 ? '{"ok":true}' : '{"ok":false}');
  });
  await listen(hook);
  const model = http.createServer(async (req, res) => {
    const user = JSON.parse((await collect(req)) || "{}").messages?.[1]?.content ?? "";
    const asked = newMessages(user).some((l) => l.includes("release note"));
    const thought = asked
      ? {
          innerThoughts: "The boss wants the release note out.",
          shouldSpeak: true,
          reason: "asked",
          messages: [{ content: "I'll post it once you approve." }],
          toolCalls: [
            {
              tool: "post_webhook",
              args: { url: `http://127.0.0.1:${hook.address().port}/hook`, text: RELEASE_NOTE, style: "slack" },
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
  await listen(model);
  return {
    received,
    /** The webhook's host, for the boss's allowlist (`cubicle-cli webhooks allow`). */
    hookHost: `127.0.0.1:${hook.address().port}`,
    /** Environment that points Cubicle's thoughts at the scripted model; its webhook
     *  receiver is on loopback, which only a debug build's test switch lets through. */
    modelEnv: {
      CUBICLE_TEST_WEBHOOK_LOOPBACK: "1",
      CUBICLE_PROVIDER: "openai-compatible",
      CUBICLE_BASE_URL: `http://127.0.0.1:${model.address().port}/v1`,
      CUBICLE_MODEL: "scripted-1",
    },
    /** From now on the webhook answers `code` (a post that fails). */
    answerWith: (code) => {
      status = code;
    },
    close: () => {
      model.close();
      hook.close();
    },
  };
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

async function byTestId(b, id, wait) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(wait);
  return el;
}

/**
 * In the open app `b`: the boss asks Mia (the first chat) for the release note; her request
 * waits in the approval queue and nothing is sent; the boss approves it there; the webhook
 * gets it, and `settleMs` later still only once.
 */
export async function releaseNoteGoesOutOnceApproved(b, received, { wait, settleMs }) {
  await (await byTestId(b, "nav-chats", wait)).click();
  await (await byTestId(b, "chat-item-1", wait)).click();
  await (await byTestId(b, "chat-input", wait)).setValue("Mia, please post the release note to the team webhook.");
  await (await byTestId(b, "chat-send", wait)).click();

  await (await byTestId(b, "nav-approvals", wait)).click();
  const queued = () => b.execute((t) => document.body.textContent.includes(t), RELEASE_NOTE);
  await b.waitUntil(queued, { ...wait, timeoutMsg: "no approval in the queue" });
  await sleep(3000);
  assert.equal(received.length, 0, "nothing goes out before approval");

  const approve = await b.$('[data-testid^="approval-"][data-testid$="-approve"]');
  await approve.waitForDisplayed(wait);
  await approve.click();
  await b.waitUntil(() => received.length === 1, { ...wait, timeoutMsg: "the webhook never received the post" });
  assert.equal(received[0].text, RELEASE_NOTE);
  await sleep(settleMs);
  assert.equal(received.length, 1, "the post went out exactly once");
}
