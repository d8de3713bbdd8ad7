// The boss's first minutes, in the real desktop app: first-run wizard → create
// "Engineering" → add "Alice" → she is on the org chart → restart → still there.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import os from "node:os";
import path from "node:path";
import { freshHome, startDriver, openApp, closeApp, cliJson } from "./driver.mjs";

const WAIT = { timeout: 30_000 };
let home;
let driver;

before(async () => {
  home = freshHome();
  driver = await startDriver(home.env);
});

after(() => driver?.stop());

async function saveFailureScreenshot(b, name) {
  const file = path.join(os.tmpdir(), `cubicle-e2e-${name}-${Date.now()}.png`);
  await b.saveScreenshot(file).catch(() => {});
  console.error(`screenshot of the failure: ${file}`);
}

async function byTestId(b, id) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(WAIT);
  return el;
}

// Reads the DOM itself: WebDriver's getText() depends on its own idea of visibility,
// which the chart's CSS transforms confuse.
async function waitForText(b, selector, text) {
  await b.waitUntil(
    () =>
      b.execute(
        (sel, needle) =>
          [...document.querySelectorAll(sel)].some((el) => el.textContent.includes(needle)),
        selector,
        text,
      ),
    { ...WAIT, timeoutMsg: `no ${selector} containing "${text}"` },
  );
}

test("boss sets up the company, builds the org chart, and it survives a restart", async () => {
  let b = await openApp(driver);
  try {
    // The document never scrolls (only panes do): the wizard is a pane the boss can scroll
    // down to its last section, the join form below the first card.
    await byTestId(b, "wizard-company-name");
    const pane = await b.execute(() => {
      const scroller = document.querySelector('[data-testid="wizard-scroll"]');
      const join = document.querySelector('[data-testid="wizard-join"]');
      if (!scroller || !join) return null;
      const belowAtFirst = join.getBoundingClientRect().top >= window.innerHeight;
      scroller.scrollTop = scroller.scrollHeight;
      const after = join.getBoundingClientRect();
      const seen = {
        belowAtFirst,
        overflowY: getComputedStyle(scroller).overflowY,
        scrolled: scroller.scrollTop > 0,
        joinInView: after.top < window.innerHeight && after.bottom > 0,
      };
      scroller.scrollTop = 0;
      return seen;
    });
    assert.deepEqual(pane, { belowAtFirst: true, overflowY: "auto", scrolled: true, joinInView: true });
    await (await byTestId(b, "wizard-company-name")).setValue("Acme Robotics");
    await (await byTestId(b, "wizard-boss-name")).setValue("Ada");
    // The second step: how employees think (the built-in model stays picked for English).
    await (await byTestId(b, "wizard-next")).click();
    await (await byTestId(b, "wizard-submit")).click();

    // The secretary is the home page; the org chart is one click away.
    await (await byTestId(b, "nav-org-chart")).click();
    await (await byTestId(b, "new-department-button")).click();
    await (await byTestId(b, "department-name-input")).setValue("Engineering");
    await (await byTestId(b, "department-submit")).click();
    await waitForText(b, '[data-testid^="department-node-"]', "Engineering");

    await (await byTestId(b, "add-employee-button")).click();
    await (await byTestId(b, "employee-name-input")).setValue("Alice");
    await (await byTestId(b, "employee-title-input")).setValue("Frontend Engineer");
    await (await byTestId(b, "employee-department-select")).selectByVisibleText("Engineering");
    await (await byTestId(b, "employee-submit")).click();
    await waitForText(b, '[data-testid^="employee-card-"]', "Alice");
  } catch (e) {
    await saveFailureScreenshot(b, "org-chart-first-run");
    throw e;
  } finally {
    await closeApp(b);
  }

  // What the UI showed is what the database holds.
  const snap = cliJson(home.dbUrl, "org", "show", "--json");
  assert.equal(snap.company.name, "Acme Robotics");
  const eng = snap.departments.find((d) => d.name === "Engineering");
  assert.ok(eng, "Engineering is stored");
  const alice = snap.employees.find((e) => e.name === "Alice");
  assert.ok(alice, "Alice is stored");
  assert.equal(alice.departmentId, eng.id);

  // Restart: a new app process on the same data.
  b = await openApp(driver);
  try {
    await (await byTestId(b, "nav-org-chart")).click();
    await byTestId(b, "org-chart");
    await waitForText(b, '[data-testid^="employee-card-"]', "Alice");
    await waitForText(b, '[data-testid^="department-node-"]', "Engineering");
    assert.equal(await (await b.$('[data-testid="wizard-company-name"]')).isExisting(), false);
  } finally {
    await closeApp(b);
  }
});
