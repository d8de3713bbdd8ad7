// The boss opens an employee's profile in the real app, switches them to Manual approval and
// takes a tool away; the change is in the database (as cubicle-cli reads it) and still shows
// after the app reloads.
import { test, after } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, cliJson, CLI } from "./driver.mjs";

const WAIT = { timeout: 30_000 };
let driver;

after(() => driver?.stop());

async function byTestId(b, id) {
  const el = await b.$(`[data-testid="${id}"]`);
  await el.waitForDisplayed(WAIT);
  return el;
}

test("the boss sets an employee to Manual and removes a tool; it persists", async () => {
  const home = freshHome();
  const cli = (...a) => execFileSync(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8" });
  cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada", "--language", "en");
  cli("org", "add-department", "Marketing");
  cli("org", "hire", "Mia Wong", "--title", "Marketing Manager", "--department", "Marketing");
  cli("org", "set-tools", "Mia Wong", "--tools", "read_memory,read_file,write_file,post_webhook");
  const mia = cliJson(home.dbUrl, "org", "show", "--json").employees.find((e) => e.name === "Mia Wong");
  assert.equal(mia.approvalPolicy, null);

  driver = await startDriver(home.env, 4492);
  const b = await openApp(driver);
  try {
    await byTestId(b, "nav-org-chart");
    await b.execute((id) => (window.location.hash = `#employee/${id}`), mia.id);
    const policy = await byTestId(b, "tools-policy");
    assert.equal(await policy.getValue(), "company");
    assert.equal(await (await byTestId(b, "tool-post_webhook")).isSelected(), true);

    await policy.selectByAttribute("value", "manual");
    await (await byTestId(b, "tool-post_webhook")).click();
    await (await byTestId(b, "tools-save")).click();
    await byTestId(b, "tools-saved");

    // In the database, as the CLI reads it.
    const after = cliJson(home.dbUrl, "org", "show", "--json").employees.find((e) => e.id === mia.id);
    assert.equal(after.approvalPolicy, "manual");
    assert.deepEqual(after.toolWhitelist, ["read_memory", "read_file", "write_file"]);

    // And in the app after a reload.
    await b.refresh();
    const reloaded = await byTestId(b, "tools-policy");
    await b.waitUntil(async () => (await reloaded.getValue()) === "manual", { ...WAIT, timeoutMsg: "the policy did not survive a reload" });
    assert.equal(await (await byTestId(b, "tool-post_webhook")).isSelected(), false);
    assert.equal(await (await byTestId(b, "tool-write_file")).isSelected(), true);
  } finally {
    await closeApp(b);
    driver.stop();
    driver = undefined;
  }
});
