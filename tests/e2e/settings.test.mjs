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
    // Added with no key: the dialog offers the built-in purposes; not now (the next test takes them).
    await (await byTestId(b, "provider-offer-skip")).click();
    await b.waitUntil(async () => !(await (await b.$('[data-testid="provider-dialog"]')).isExisting()), WAIT);
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

/** Past the first-run wizard: a company exists whether or not the test above ran first. */
async function ensureCompany(b) {
  await b.waitUntil(
    async () => (await (await b.$('[data-testid="nav-settings"]')).isExisting()) || (await (await b.$('[data-testid="wizard-company-name"]')).isExisting()),
    { ...WAIT, timeoutMsg: "neither the app nor the wizard showed" },
  );
  if (await (await b.$('[data-testid="wizard-company-name"]')).isExisting()) {
    await (await byTestId(b, "wizard-company-name")).setValue("Acme Robotics");
    await (await byTestId(b, "wizard-boss-name")).setValue("Ada");
    await (await byTestId(b, "wizard-next")).click();
    await (await byTestId(b, "wizard-submit")).click();
  }
}

/** Each Default models provider select: its selected label's text width against the room it has. */
const routeLabelFits = (b) =>
  b.execute(() =>
    Array.from(document.querySelectorAll('[data-testid^="route-provider-"]')).map((el) => {
      const select = /** @type {HTMLSelectElement} */ (el);
      const label = select.selectedOptions[0]?.textContent ?? "";
      const style = getComputedStyle(select);
      const ctx = document.createElement("canvas").getContext("2d");
      ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
      const text = ctx.measureText(label).width;
      // The drop-down arrow takes about 16 px inside the right padding.
      const room = select.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
      return { id: select.dataset.testid, label, text: Math.ceil(text), room: Math.floor(room), title: select.title };
    }),
  );

test("a provider added with its key in one dialog takes every built-in purpose in one click", async () => {
  const KEY2 = `sk-e2e-two-${Date.now()}-secret`;
  const b = await openApp(driver);
  try {
    await ensureCompany(b);
    await (await byTestId(b, "nav-settings")).click();
    await byTestId(b, "settings-page");

    // Before: every purpose on the built-in model, its label whole.
    await b.waitUntil(async () => (await (await byTestId(b, "route-provider-intent")).getValue()) === "builtin", WAIT);
    for (const r of await routeLabelFits(b)) {
      if (r.id === "route-provider-privacy") continue;
      assert.ok(r.label.startsWith("Built-in"), JSON.stringify(r));
      assert.ok(r.text <= r.room, `the label is cut: ${JSON.stringify(r)}`);
      assert.equal(r.title, r.label);
    }

    await (await byTestId(b, "add-provider-button")).click();
    await (await byTestId(b, "provider-preset-select")).selectByAttribute("value", "openai");
    const name = await byTestId(b, "provider-name-input");
    await name.clearValue();
    await name.setValue("Scripted Two");
    const url = await byTestId(b, "provider-base-url-input");
    await url.clearValue();
    await url.setValue(`http://127.0.0.1:${server.address().port}/v1`);
    const model = await byTestId(b, "provider-model-input");
    await model.clearValue();
    await model.setValue("scripted-2");
    // The key in the same dialog.
    const key = await byTestId(b, "provider-key-field");
    await b.waitUntil(
      async () => {
        if ((await key.getValue()) !== KEY2) {
          await key.clearValue();
          await key.setValue(KEY2);
        }
        return (await key.getValue()) === KEY2;
      },
      { ...WAIT, timeoutMsg: "the key field never held the whole key" },
    );
    await (await byTestId(b, "provider-submit")).click();

    // Offered: every purpose on the built-in model.
    const offer = await byTestId(b, "provider-offer");
    const offered = await b.execute(() =>
      Array.from(document.querySelectorAll('[data-testid="provider-offer-purposes"] li')).map((li) => li.getAttribute("data-purpose")),
    );
    assert.deepEqual(offered, ["intent", "thought", "summary", "report"]);
    assert.ok((await offer.getText()).includes("Scripted Two"));
    await byTestId(b, "provider-added-key-saved");

    // One click.
    await (await byTestId(b, "provider-offer-accept")).click();
    await b.waitUntil(async () => !(await (await b.$('[data-testid="provider-dialog"]')).isExisting()), {
      ...WAIT,
      timeoutMsg: "the dialog never closed",
    });
    for (const purpose of ["intent", "thought", "summary", "report"]) {
      await b.waitUntil(async () => (await (await byTestId(b, `route-provider-${purpose}`)).getValue()) === "scripted-two", {
        ...WAIT,
        timeoutMsg: `${purpose} is not on the new provider`,
      });
      assert.equal(await (await byTestId(b, `route-model-${purpose}`)).getValue(), "scripted-2");
    }
    for (const r of await routeLabelFits(b)) assert.ok(r.text <= r.room, `the label is cut: ${JSON.stringify(r)}`);
    await b.waitUntil(
      async () => (await (await b.$('[data-testid="provider-key-status-scripted-two"]')).getAttribute("data-status")) === "keychain",
      { ...WAIT, timeoutMsg: "the key status never showed the keychain" },
    );
    assert.equal((await b.execute(() => document.documentElement.outerHTML)).includes(KEY2), false);
  } finally {
    await closeApp(b);
  }
  // The routes and the key, as the engine sees them.
  const providers = cliJson(home.dbUrl, "provider", "list", "--json");
  const p = providers.find((x) => x.id === "scripted-two");
  assert.equal(p.hasKey, true);
  assert.equal(p.keySource, "keychain");
  assert.equal(JSON.stringify(providers).includes(KEY2), false);
});
