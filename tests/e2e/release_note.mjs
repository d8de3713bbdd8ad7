// A webhook that records what it receives, and a scripted model (OpenAI-compatible) whose
// employee, asked in a chat for "the release note", asks to post "Release 2.3 is out" to
// that webhook; every other thought stays silent. Shared by the approval tests.
import http from "node:http";

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
  const hook = http.createServer(async (req, res) => {
    received.push(JSON.parse((await collect(req)) || "{}"));
    res.setHeader("content-type", "application/json");
    res.end('{"ok":true}');
  });
  await listen(hook);
  const model = http.createServer(async (req, res) => {
    const user = JSON.parse((await collect(req)) || "{}").messages?.[1]?.content ?? "";
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
    /** Environment that points Cubicle's thoughts at the scripted model. */
    modelEnv: {
      CUBICLE_PROVIDER: "openai-compatible",
      CUBICLE_BASE_URL: `http://127.0.0.1:${model.address().port}/v1`,
      CUBICLE_MODEL: "scripted-1",
    },
    close: () => {
      model.close();
      hook.close();
    },
  };
}
