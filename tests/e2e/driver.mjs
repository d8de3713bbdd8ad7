// Starts tauri-driver (which drives WebKitWebDriver, which launches the real app) and
// opens WebDriver sessions on it. Used by the desktop end-to-end tests.
import { spawn, execFileSync } from "node:child_process";
import net from "node:net";
import path from "node:path";
import fs from "node:fs";
import os from "node:os";
import { remote } from "webdriverio";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const APP = process.env.CUBICLE_APP ?? path.join(ROOT, "target", "debug", "cubicle");
export const CLI = process.env.CUBICLE_CLI ?? path.join(ROOT, "target", "debug", "cubicle-cli");

function findTauriDriver() {
  if (process.env.TAURI_DRIVER) return process.env.TAURI_DRIVER;
  const cargoBin = path.join(os.homedir(), ".cargo", "bin", "tauri-driver");
  return fs.existsSync(cargoBin) ? cargoBin : "tauri-driver";
}

function waitForPort(port, timeoutMs) {
  const deadline = Date.now() + timeoutMs;
  return new Promise((resolve, reject) => {
    const attempt = () => {
      const sock = net.connect(port, "127.0.0.1");
      sock.once("connect", () => { sock.end(); resolve(); });
      sock.once("error", () => {
        sock.destroy();
        if (Date.now() > deadline) reject(new Error(`port ${port} did not open`));
        else setTimeout(attempt, 200);
      });
    };
    attempt();
  });
}

/**
 * A picture of the whole screen as the boss sees it, when `CUBICLE_E2E_SHOTS` names a folder
 * (for a change's note and the README); otherwise nothing. Waits a moment for the webview to paint.
 */
export async function shot(name) {
  const dir = process.env.CUBICLE_E2E_SHOTS;
  if (!dir) return;
  fs.mkdirSync(dir, { recursive: true });
  await new Promise((r) => setTimeout(r, 700));
  execFileSync("import", ["-window", "root", path.join(dir, `${name}.png`)]);
}

/** A private home for one test run: its own data dir, database and logs. */
export function freshHome() {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), "cubicle-e2e-"));
  const dataDir = path.join(home, "data");
  fs.mkdirSync(dataDir, { recursive: true });
  return {
    home,
    dbUrl: `sqlite://${path.join(dataDir, "cubicle.db")}?mode=rwc`,
    env: {
      ...process.env,
      XDG_DATA_HOME: dataDir,
      XDG_CONFIG_HOME: path.join(home, "config"),
      XDG_CACHE_HOME: path.join(home, "cache"),
      CUBICLE_DATABASE_URL: `sqlite://${path.join(dataDir, "cubicle.db")}?mode=rwc`,
    },
  };
}

export async function startDriver(env, port = 4444) {
  if (!fs.existsSync(APP)) throw new Error(`app binary missing: ${APP} (run scripts/setup.sh)`);
  const proc = spawn(findTauriDriver(), ["--port", String(port), "--native-port", String(port + 1)], {
    env,
    stdio: ["ignore", "inherit", "inherit"],
  });
  await waitForPort(port, 20_000);
  return {
    port,
    stop: () => proc.kill("SIGTERM"),
  };
}

export async function openApp(driver) {
  return remote({
    hostname: "127.0.0.1",
    port: driver.port,
    logLevel: "error",
    connectionRetryCount: 2,
    capabilities: {
      browserName: "wry",
      "wdio:enforceWebDriverClassic": true,
      "tauri:options": { application: APP },
    },
  });
}

/**
 * Ends the WebDriver session and waits until the app process is really gone: a new
 * instance started while the old one is still shutting down would find the old one's
 * single-instance name on D-Bus and hand over to it instead of starting.
 */
export async function closeApp(b) {
  await b.deleteSession();
  const deadline = Date.now() + 15_000;
  while (Date.now() < deadline) {
    try {
      execFileSync("pgrep", ["-f", `^${APP}( |$)`], { stdio: "ignore" });
    } catch {
      // pgrep exits 1: no such process left. Its single-instance D-Bus name can outlive
      // it for a moment; a launch before the bus drops it fails with NoReply.
      await waitForSingleInstanceName(deadline);
      return;
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`the app (${APP}) did not exit after its session ended`);
}

/** Waits until no connection on the session bus owns the app's single-instance name. */
async function waitForSingleInstanceName(deadline) {
  const listNames = () =>
    execFileSync(
      "dbus-send",
      ["--session", "--print-reply", "--dest=org.freedesktop.DBus", "/org/freedesktop/DBus", "org.freedesktop.DBus.ListNames"],
      { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] },
    );
  while (Date.now() < deadline) {
    let names;
    try {
      names = listNames();
    } catch {
      return; // no session bus: the plugin launches without one too
    }
    if (!names.includes("app.cubicle.desktop.SingleInstance")) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error("the app's single-instance D-Bus name was never released");
}

/** Runs cubicle-cli against the test's database and parses its JSON output. */
export function cliJson(dbUrl, ...args) {
  const out = execFileSync(CLI, ["--db", dbUrl, ...args], { encoding: "utf8" });
  return JSON.parse(out);
}

/**
 * The chat lines a thought's prompt names as new to the employee: the prompt lists the recent
 * messages ("[HH:MM] Name: text"), then says "(The last N messages are new to you.)" — the
 * lines themselves carry no mark, so the next thought's prompt repeats them byte for byte.
 */
export function newMessages(user) {
  const lines = user.split("\n");
  const at = lines.findIndex((l) => /^\(The last (message is|\d+ messages are) new to you\.\)$/.test(l));
  if (at < 0) return [];
  const n = Number(lines[at].match(/^\(The last (\d+)/)?.[1] ?? 1);
  return lines.slice(0, at).filter((l) => l.startsWith("[")).slice(-n);
}
