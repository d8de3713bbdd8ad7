// Hiring through the secretary in the real app: type the request, confirm the card,
// and the new person is on the org chart — in English and in Chinese; and a typed
// "确认" confirms the waiting card exactly as its button does.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, cliJson, CLI, shot } from "./driver.mjs";

const WAIT = { timeout: 30_000 };
let driver;
const homes = [];

before(async () => {
  // One driver for both runs; each run gets its own database via the session's app env.
  homes.push(freshHome(), freshHome(), freshHome());
});

after(() => driver?.stop());

async function byTestId(b, id) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(WAIT);
  return el;
}

async function waitForText(b, selector, text) {
  await b.waitUntil(
    () =>
      b.execute(
        (sel, needle) => [...document.querySelectorAll(sel)].some((el) => el.textContent.includes(needle)),
        selector,
        text,
      ),
    { ...WAIT, timeoutMsg: `no ${selector} containing "${text}"` },
  );
}

function seed(home, language, department) {
  const cli = (...a) => execFileSync(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8" });
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", language);
  cli("org", "add-department", department);
}

async function hireThroughSecretary(home, port, text, department) {
  driver = await startDriver(home.env, port);
  const b = await openApp(driver);
  try {
    await (await byTestId(b, "nav-secretary")).click();
    await byTestId(b, "secretary-page");
    await (await byTestId(b, "secretary-input")).setValue(text);
    await (await byTestId(b, "secretary-send")).click();
    await (await byTestId(b, "action-confirm-1")).click();
    await byTestId(b, "action-diff-1");
    const diff = await b.execute(() => document.querySelector('[data-testid="action-diff-1"]').textContent);
    assert.ok(diff.includes(department), `the diff names the department: ${diff}`);
    await (await byTestId(b, "nav-org-chart")).click();
    await byTestId(b, "org-chart");
    const snap = cliJson(home.dbUrl, "org", "show", "--json");
    assert.equal(snap.employees.length, 1, "exactly one hire");
    await waitForText(b, '[data-testid^="employee-card-"]', snap.employees[0].name);
    return snap.employees[0];
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
}

test("boss hires a frontend engineer named Bob through the secretary", async () => {
  seed(homes[0], "en", "Engineering");
  const bob = await hireThroughSecretary(
    homes[0],
    4464,
    "hire a frontend engineer named Bob into Engineering",
    "Engineering",
  );
  assert.equal(bob.name, "Bob");
  assert.equal(bob.title, "Frontend Engineer");
});

test("老板用中文让秘书招一个测试", async () => {
  seed(homes[1], "zh-CN", "工程部");
  const hire = await hireThroughSecretary(homes[1], 4474, "帮我给工程部招一个测试", "工程部");
  assert.equal(hire.title, "测试工程师");
});

test("老板打字“确认”，等待中的招聘卡片就被确认", async () => {
  const home = homes[2];
  seed(home, "zh-CN", "工程部");
  driver = await startDriver(home.env, 4520);
  const b = await openApp(driver);
  try {
    await (await byTestId(b, "nav-secretary")).click();
    await byTestId(b, "secretary-page");
    const send = async (text) => {
      await (await byTestId(b, "secretary-input")).setValue(text);
      await (await byTestId(b, "secretary-send")).click();
    };
    await send("帮我给工程部招一个测试");
    // The card waits; nobody is hired yet.
    await byTestId(b, "action-confirm-1");
    assert.equal(cliJson(home.dbUrl, "org", "show", "--json").employees.length, 0);

    await send("确认");
    // The card shows what confirming did, and the secretary says so, in Chinese.
    const diff = await byTestId(b, "action-diff-1");
    assert.match(await diff.getText(), /^\+1 测试工程师（.+）\s*→ 工程部$/);
    await waitForText(b, '[data-role="secretary"]', "已确认：+1 测试工程师");
    assert.equal(await b.$('[data-testid="action-confirm-1"]').isExisting(), false, "no Confirm button left");
    await shot("zh-typed-confirm-applied");

    const snap = cliJson(home.dbUrl, "org", "show", "--json");
    assert.equal(snap.employees.length, 1, "exactly one hire");
    assert.equal(snap.employees[0].title, "测试工程师");
    await (await byTestId(b, "nav-org-chart")).click();
    await byTestId(b, "org-chart");
    await waitForText(b, '[data-testid^="employee-card-"]', snap.employees[0].name);
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
});
