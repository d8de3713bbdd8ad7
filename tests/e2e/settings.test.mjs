// The boss adds a provider in Settings, its key goes to the OS keychain (gnome-keyring
// on the test's D-Bus session), "Test connection" makes a real call with that key to a
// scripted OpenAI-compatible server, and the spend view counts the call.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import http from "node:http";
import { freshHome, startDriver, openApp, closeApp, cliJson } from "./driver.mjs";

const WAIT = { timeout: 30_000 };
const KEY = `sk-e2e-${Date.now()}-secret`;
let home;
let driver;
let server;
const received = [];

before(async () => {
  server = http.createServer((req, res) => {
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      received.push({ url: req.url, auth: req.headers.authorization, body });
      res.setHeader("content-type", "application/json");
      res.end(
        JSON.stringify({
          id: "c1",
          object: "chat.completion",
          model: "scripted-1",
          choices: [{ index: 0, message: { role: "assistant", content: "Hello from the script" }, finish_reason: "stop" }],
          usage: { prompt_tokens: 12, completion_tokens: 4 },
        }),
      );
    });
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  home = freshHome();
  driver = await startDriver(home.env, 4454);
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

const domText = (b) => b.execute(() => document.body.innerText);

test("boss adds a provider, stores its key in the keychain and tests the connection", async () => {
  const b = await openApp(driver);
  try {
    await (await byTestId(b, "wizard-company-name")).setValue("Acme Robotics");
    await (await byTestId(b, "wizard-boss-name")).setValue("Ada");
    // The second step: how employees think (the built-in model stays picked for English).
    await (await byTestId(b, "wizard-next")).click();
    await (await byTestId(b, "wizard-submit")).click();
    await (await byTestId(b, "nav-settings")).click();
    await byTestId(b, "settings-page");

    await (await byTestId(b, "add-provider-button")).click();
    await (await byTestId(b, "provider-preset-select")).selectByAttribute("value", "openai");
    const name = await byTestId(b, "provider-name-input");
    await name.clearValue();
    await name.setValue("Scripted");
    const url = await byTestId(b, "provider-base-url-input");
    await url.clearValue();
    await url.setValue(`http://127.0.0.1:${server.address().port}/v1`);
    const model = await byTestId(b, "provider-model-input");
    await model.clearValue();
    await model.setValue("scripted-1");
    await (await byTestId(b, "provider-submit")).click();
    await byTestId(b, "provider-row-scripted");

    // The row settles first (the list refetches after the save and redraws the row);
    // typing into it while it redraws can lose keystrokes to the element it replaces.
    await b.waitUntil(
      async () => (await (await b.$('[data-testid="provider-key-status-scripted"]')).getAttribute("data-status")) === "missing",
      { ...WAIT, timeoutMsg: "the new provider's row never showed it has no key" },
    );
    await b.waitUntil(
      async () => {
        const input = await byTestId(b, "provider-key-input-scripted");
        if ((await input.getValue()) !== KEY) {
          await input.clearValue();
          await input.setValue(KEY);
        }
        return (await input.getValue()) === KEY;
      },
      { ...WAIT, timeoutMsg: "the key field never held the whole key" },
    );
    await (await byTestId(b, "provider-key-submit-scripted")).click();
    await b.waitUntil(
      async () => (await (await b.$('[data-testid="provider-key-status-scripted"]')).getAttribute("data-status")) === "keychain",
      { ...WAIT, timeoutMsg: "the key status never showed the keychain" },
    );

    await (await byTestId(b, "provider-test-scripted")).click();
    await b.waitUntil(
      async () => (await domText(b)).includes("Hello from the script"),
      { ...WAIT, timeoutMsg: "the test result never showed the model's reply" },
    );
    await b.waitUntil(async () => (await (await b.$('[data-testid="spend-calls"]')).getText()).trim() === "1", {
      ...WAIT,
      timeoutMsg: "the spend view did not count the call",
    });

    // The key reached the provider, and nowhere in the webview.
    assert.equal(received.length, 1);
    assert.equal(received[0].auth, `Bearer ${KEY}`);
    assert.equal((await b.execute(() => document.documentElement.outerHTML)).includes(KEY), false);
  } finally {
    await closeApp(b);
  }
  // The CLI, on the same session keychain, sees the stored key too.
  const providers = cliJson(home.dbUrl, "provider", "list", "--json");
  const p = providers.find((x) => x.id === "scripted");
  assert.equal(p.hasKey, true);
  assert.equal(p.keySource, "keychain");
  assert.equal(JSON.stringify(providers).includes(KEY), false);
});
