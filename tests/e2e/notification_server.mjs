// The desktop's notification daemon for the end-to-end tests: cubicle-test-notifications
// (tests/src/bin, the Rust test server on the session bus the app runs on). It reports each
// notification the app raises and presses its buttons as the boss would.
import { spawn } from "node:child_process";
import readline from "node:readline";
import path from "node:path";
import fs from "node:fs";

const ROOT = path.resolve(import.meta.dirname, "..", "..");
export const NOTIFICATION_SERVER =
  process.env.CUBICLE_TEST_NOTIFICATIONS ?? path.join(ROOT, "target", "debug", "cubicle-test-notifications");

/**
 * Starts the server and waits until it owns org.freedesktop.Notifications. `events` fills
 * with what it reports (see the binary's doc comment); `waitFor` resolves on the first event
 * that matches, past or future.
 */
export async function startNotificationServer({ capabilities = "actions,body,body-markup", timeoutMs = 10_000 } = {}) {
  if (!fs.existsSync(NOTIFICATION_SERVER)) {
    throw new Error(
      `notification server missing: ${NOTIFICATION_SERVER} ` +
        "(build it: cargo build -p cubicle-tests --bin cubicle-test-notifications)",
    );
  }
  if (!process.env.DBUS_SESSION_BUS_ADDRESS) {
    throw new Error("no session bus: run the e2e suite under dbus-run-session (scripts/test.sh)");
  }
  const proc = spawn(NOTIFICATION_SERVER, ["--capabilities", capabilities], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  const events = [];
  const waiters = [];
  readline.createInterface({ input: proc.stdout }).on("line", (line) => {
    const event = JSON.parse(line);
    events.push(event);
    for (const w of [...waiters]) {
      if (w.match(event)) {
        waiters.splice(waiters.indexOf(w), 1);
        clearTimeout(w.timer);
        w.resolve(event);
      }
    }
  });
  let exited = null;
  proc.on("exit", (code) => {
    exited = code;
    for (const w of waiters.splice(0)) {
      clearTimeout(w.timer);
      w.reject(new Error(`the notification server exited (${code})`));
    }
  });

  const waitFor = (match, what, ms = timeoutMs, from = 0) => {
    const seen = events.slice(from).find(match);
    if (seen) return Promise.resolve(seen);
    if (exited !== null) return Promise.reject(new Error(`the notification server exited (${exited})`));
    return new Promise((resolve, reject) => {
      const w = { match, resolve, reject };
      waiters.push(w);
      w.timer = setTimeout(() => {
        const i = waiters.indexOf(w);
        if (i >= 0) {
          waiters.splice(i, 1);
          reject(new Error(`no ${what} within ${ms} ms; the server saw: ${JSON.stringify(events).slice(0, 2000)}`));
        }
      }, ms);
    });
  };
  await waitFor((e) => e.event === "ready", "ready");

  /** Sends one command and waits for its answer (`invoked`, `dismissed` or an error). */
  const command = async (line, done) => {
    const from = events.length; // only answers to this command, not earlier ones
    const answered = waitFor((e) => done(e) || e.event === "error", `answer to "${line}"`, timeoutMs, from);
    proc.stdin.write(`${line}\n`);
    const answer = await answered;
    if (answer.event === "error") throw new Error(`notification server: ${answer.message}`);
    return answer;
  };

  return {
    events,
    waitFor,
    /** Every notification received so far. */
    notifications: () => events.filter((e) => e.event === "notify"),
    /** The first notification whose body includes `text`. */
    notificationWith: (text, ms) =>
      waitFor((e) => e.event === "notify" && e.body.includes(text), `notification showing "${text.slice(0, 60)}"`, ms),
    /** The boss presses `action` on notification `id`; resolves once the signal is out. */
    invoke: (id, action) =>
      command(`invoke ${id} ${action}`, (e) => e.event === "invoked" && e.id === id && e.action === action),
    stop: () => proc.stdin.end(),
  };
}
