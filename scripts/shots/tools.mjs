// Opens the real app (under the caller's Xvfb) on a CLI employee's "Tools & approvals" card and
// saves a picture of the whole screen: node scripts/shots/tools.mjs OUT.png [en|zh-CN].
// Run through scripts/screenshot_tools.sh.
import { execFileSync } from "node:child_process";
import { freshHome, startDriver, openApp, closeApp, cliJson, CLI } from "../../tests/e2e/driver.mjs";

const [out = "docs/tools.png", language = "en"] = process.argv.slice(2);
const zh = language === "zh-CN";
const home = freshHome();
const cli = (...a) => execFileSync(CLI, ["--db", home.dbUrl, ...a], { encoding: "utf8" });
cli("org", "init", "--name", "Acme Robotics", "--boss", "Ada Lovelace", "--language", language);
cli("org", "add-department", "Engineering");
cli("org", "hire", zh ? "王磊" : "Alan Turing", "--title", zh ? "后端工程师" : "Backend Engineer", "--department", "Engineering");
const name = cliJson(home.dbUrl, "org", "show", "--json").employees[0].name;
cli("org", "set-tools", name, "--tools", "read_memory,read_file,write_file,run_cli", "--policy", "manual", "--cli-command", "codex exec --full-auto");
const id = cliJson(home.dbUrl, "org", "show", "--json").employees[0].id;

// Under WebDriver the webview repaints the X window only as input arrives: wiggle the pointer
// (over an empty spot of the page) for a few seconds before taking the picture.
async function settle() {
  for (let i = 0; i < 12; i++) {
    execFileSync("xdotool", ["mousemove", String(1200 + (i % 2)), "780"]);
    await new Promise((r) => setTimeout(r, 400));
  }
}

const driver = await startDriver(home.env, 4493);
const b = await openApp(driver);
try {
  await (await b.$('[data-testid="nav-org-chart"]')).waitForDisplayed({ timeout: 30_000 });
  await b.execute((i) => (window.location.hash = `#employee/${i}`), id);
  const card = await b.$('[data-testid="profile-tools"]');
  await (await b.$('[data-testid="tools-policy"]')).waitForDisplayed({ timeout: 30_000 });
  // The first frames after the page changes are often not painted yet: scroll once to warm up.
  await (await b.$('[data-testid="tools-save"]')).scrollIntoView({ block: "end" });
  await settle();
  await card.scrollIntoView({ block: "start" });
  await settle();
  execFileSync("import", ["-window", "root", out]);
  if (process.env.CUBICLE_SHOT_BOTTOM) {
    await (await b.$('[data-testid="tools-save"]')).scrollIntoView({ block: "end" });
    await settle();
    execFileSync("import", ["-window", "root", out.replace(/\.png$/, "-bottom.png")]);
  }
  console.log(`screenshot: ${out}`);
} finally {
  await closeApp(b);
  driver.stop();
}
