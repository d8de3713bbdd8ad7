// The boss imports a roster archive in the real app: the file goes through the webview's file
// input, the preview says what is new, changed and unreadable and which tools are never
// granted, the import writes the cards (as cubicle-cli reads them), and a card edited into
// something that does not parse is refused with where and why.
// CUBICLE_E2E_SHOTS=DIR saves screenshots of the screen (Xvfb) at each step into DIR.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freshHome, startDriver, openApp, closeApp, cliJson, CLI } from "./driver.mjs";

const WAIT = { timeout: 30_000 };
let driver;

after(() => driver?.stop());

async function byTestId(b, id) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(WAIT);
  return el;
}

async function shot(b, name) {
  const dir = process.env.CUBICLE_E2E_SHOTS;
  if (!dir) return;
  // The window paints a moment after the DOM changes.
  await b.pause(1500);
  fs.mkdirSync(dir, { recursive: true });
  execFileSync("import", ["-window", "root", path.join(dir, `${name}.png`)]);
}

const card = (name, description, tools, temperature, body = "Say what you did and what is left.") =>
  `---\nname: ${name}\ndescription: ${description}\ntools: [${tools.join(", ")}]\ntemperature: ${temperature}\n---\n${body}\n`;

/** A roster folder in the agency-agents shape, tarred by the system's tar with its folder. */
function rosterTarball(home) {
  const root = path.join(home, "agency-roster");
  const files = {
    "marketing/growth-hacker.md": card("Growth Hacker", "Runs cheap, fast experiments that bring new users and measures each one.", ["read_file", "WebSearch"], 0.6),
    "marketing/brand-storyteller.md": card("Brand Storyteller", "Writes the story of the product for launch pages and posts.", ["read_file", "write_file"], 0.8),
    "engineering/code-reviewer.md": card("Code Reviewer", "Reviews changes for correctness, security and readability before they ship.", ["read_file"], 0.1),
    "engineering/incident-responder.md": card("Incident Responder", "Leads the response when production breaks: triage, mitigation, write-up.", ["read_file", "Bash"], 0.2),
    "research/market-researcher.md": card("Market Researcher", "Sizes markets and reads competitors, with sources for every number.", ["read_file"], 0.5),
    "support/broken-card.md": "---\nname: Broken\ndescription: A card with a temperature that is not a number.\ntemperature: warm\n---\n",
    "README.md": "# A roster\nOne card per role.\n",
  };
  for (const [rel, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  }
  const tarball = path.join(home, "agency-roster.tar.gz");
  execFileSync("tar", ["-czf", tarball, "-C", home, "agency-roster"]);
  return tarball;
}

test("the boss imports a roster archive with its preview, and a broken edit is refused with where", async () => {
  const home = freshHome();
  const cli = (...a) => execFileSync(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8" });
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", "en");
  const tarball = rosterTarball(home.home);

  driver = await startDriver(home.env, 4502);
  const b = await openApp(driver);
  try {
    await byTestId(b, "nav-settings");
    await b.execute(() => (window.location.hash = "#settings/roles"));
    await byTestId(b, "roles-builtin");
    await b.execute(() => document.getElementById("settings-roles")?.scrollIntoView());
    // The file input is hidden behind the "Import roster…" button; WebDriver types the path into it.
    const input = await b.$('[data-testid="roles-import-input"]');
    const pick = async () => {
      await b.execute((el) => el.classList.remove("hidden"), input);
      await input.setValue(tarball);
      await b.execute((el) => el.classList.add("hidden"), input);
    };
    await pick();

    const dialog = await byTestId(b, "roster-import-dialog");
    await b.waitUntil(async () => (await (await b.$('[data-testid="roster-count-new"]')).getText()) === "5", {
      ...WAIT,
      timeoutMsg: "the preview never showed five new cards",
    });
    assert.equal(await (await b.$('[data-testid="roster-count-unreadable"]')).getText(), "1");
    assert.match(await (await b.$('[data-testid="roster-unreadable"]')).getText(), /support\/broken-card\.md:4 \(temperature\): "warm" is not a number/);
    const unknown = await (await b.$('[data-testid="roster-unknown-tools"]')).getText();
    assert.match(unknown, /engineering\/incident-responder: Bash/);
    assert.match(unknown, /marketing\/growth-hacker: WebSearch/);
    assert.equal(cliJson(home.dbUrl, "roles", "list", "--json").some((c) => c.key === "marketing/growth-hacker"), false, "a preview writes nothing");
    await shot(b, "roles-import-preview");

    await (await byTestId(b, "roster-import-confirm")).click();
    await byTestId(b, "roster-imported");
    assert.match(await dialog.getText(), /Imported: 5 new, 0 changed\./);
    await (await dialog.$("button=Close")).click();
    const growth = await byTestId(b, "role-marketing/growth-hacker");
    assert.match(await growth.getText(), /Growth Hacker/);
    assert.match(await (await byTestId(b, "role-marketing/growth-hacker-unknown")).getText(), /WebSearch/);
    await b.execute(() => document.getElementById("settings-roles")?.scrollIntoView());
    await shot(b, "roles-imported");

    const stored = cliJson(home.dbUrl, "roles", "list", "--json").find((c) => c.key === "marketing/growth-hacker");
    assert.equal(stored.card.temperature, 0.6);
    assert.deepEqual(stored.unknownTools, ["WebSearch"]);

    // An edit that breaks the header is refused with the line and key; the stored card stays.
    await (await growth.$("button=Edit")).click();
    const text = await byTestId(b, "role-card-text");
    await b.execute((el) => {
      const setter = Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value").set;
      setter.call(el, el.value.replace("temperature: 0.6", "temperature: hot"));
      el.dispatchEvent(new Event("input", { bubbles: true }));
    }, text);
    await (await byTestId(b, "role-card-save")).click();
    const refusal = await byTestId(b, "role-card-refusal");
    assert.match(await refusal.getText(), /marketing\/growth-hacker\.md:5 \(temperature\): "hot" is not a number/);
    await shot(b, "roles-edit-refused");
    const still = cliJson(home.dbUrl, "roles", "list", "--json").find((c) => c.key === "marketing/growth-hacker");
    assert.equal(still.card.temperature, 0.6);
    await (await byTestId(b, "role-card-dialog")).$("button=Cancel").then((c) => c.click());

    // In Chinese: the same roster again is all unchanged, and says so.
    await (await byTestId(b, "settings-language-switch")).selectByAttribute("value", "zh-CN");
    await b.waitUntil(async () => (await (await byTestId(b, "roles-new")).getText()) === "新建卡片", { ...WAIT, timeoutMsg: "the page never turned Chinese" });
    await pick();
    const again = await byTestId(b, "roster-import-dialog");
    await b.waitUntil(async () => (await (await b.$('[data-testid="roster-count-unchanged"]')).getText()) === "5", {
      ...WAIT,
      timeoutMsg: "the second preview never showed five unchanged cards",
    });
    assert.match(await again.getText(), /导入角色库/);
    assert.equal(await (await byTestId(b, "roster-import-confirm")).isEnabled(), false, "nothing to import");
    await b.execute(() => document.querySelector('[data-testid="settings-section-roles"]')?.scrollIntoView());
    await shot(b, "roles-import-preview-zh");
    await (await again.$("button=取消")).click();
    await shot(b, "roles-zh");
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
});
