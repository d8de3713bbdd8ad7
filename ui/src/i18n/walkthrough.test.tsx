import { screen, waitFor } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { demoBackend } from "../dev/demoCompany";
import type { FakeBackend } from "../dev/memory/fakeBackend";
import i18n from ".";
import { renderApp } from "../test/render";

/**
 * A walkthrough of a zh-CN company (SPEC §17: everything the app writes is in the company's
 * language): every page and every detail the demo company has, rendered in zh-CN, must show no
 * English word the app wrote itself. A word may be Latin only when it came from the company's
 * data (a name, a message, a model id — collected from every answer of the backend), is code
 * (`<code>`, `<pre>`, `<kbd>`) or is a unit or a product name of the allowed list below.
 */

/** Units, formats and names of things that are written the same in Chinese. */
const ALLOWED = new Set([
  // units and formats
  "KB", "MB", "GB", "TB", "ms", "s", "min", "px", "USD", "US", "UTC", "GMT",
  // protocols, file kinds and standards
  "API", "URL", "HTTP", "HTTPS", "JSON", "CSV", "CLI", "MCP", "GGUF", "SSH", "PDF", "ID", "PostgreSQL", "SQLite", "D-Bus", "IP",
  // the language switch names each language in its own words; "AI" is how Chinese writes it
  "English", "AI",
  // keys on the keyboard, as Chinese writes them
  "Enter", "Shift", "Esc", "Ctrl", "Tab",
  // "Shell 命令": the word Chinese uses
  "Shell",
  // products, providers and the app's own name
  "Cubicle", "OpenAI", "Anthropic", "DeepSeek", "Ollama", "LM", "Studio", "llama.cpp", "llama", "cpp", "vLLM", "OpenRouter", "Qwen", "Moonshot", "Kimi",
  "DashScope", "SmolLM", "SmolLM2", "Hugging", "Face", "PyPI", "Feishu", "Slack", "WeCom", "Lark", "Claude", "Codex", "Aider", "GitHub", "Webhook", "Linux", "macOS", "Windows",
]);

/** A Latin word of two letters or more (with inner dots, dashes and apostrophes: "llama.cpp", "don't"). */
const WORD = /[A-Za-z][A-Za-z0-9]*(?:[.'’-][A-Za-z0-9]+)*/g;

/** Words the backend answered with: the company's own data, shown as it is. */
function dataWords(value: unknown, into: Set<string>): void {
  if (typeof value === "string") {
    // An identifier-like code ("waiting_approval", "old_hand") is not data to show: showing it raw is the bug.
    if (/^[a-z]+(_[a-z0-9]+)+$/.test(value)) return;
    for (const w of value.match(WORD) ?? []) into.add(w);
  } else if (Array.isArray(value)) {
    for (const v of value) dataWords(v, into);
  } else if (value && typeof value === "object") {
    for (const v of Object.values(value)) dataWords(v, into);
  }
}

/** Every `name` (and `bossName`, `actor`…) string in an answer: the people and things avatars stand for. */
function namesIn(value: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) for (const v of value) namesIn(v, out);
  else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) {
      if (/name$|^actor$|^who$/i.test(k)) out.push(v);
      else namesIn(v, out);
    }
  }
  return out;
}

/** The demo company in zh-CN whose every backend answer feeds the words of its data. */
function zhCompany(): { backend: FakeBackend; data: Set<string> } {
  const backend = demoBackend({ language: "zh-CN", has: (flag) => flag === "chat" });
  const data = new Set<string>();
  const handle = backend.handle.bind(backend);
  backend.handle = (cmd, args) => {
    dataWords(args, data);
    const answer = handle(cmd, args);
    if (answer instanceof Promise) return answer.then((a: unknown) => (dataWords(a, data), a));
    dataWords(answer, data);
    initialsOf(data, namesIn(answer));
    return answer;
  };
  // What the seeding wrote is data as well (seeded before the wrapper above).
  for (const cmd of ["get_org", "list_chats", "list_mail", "list_traces", "list_people", "secretary_history", "requirements_board", "list_providers"]) {
    try {
      const answer = backend.handle(cmd, {});
      dataWords(answer, data);
      initialsOf(data, namesIn(answer));
    } catch {
      // a command that needs arguments: its answers are collected when the page asks
    }
  }
  return { backend, data };
}

/** Everything the page shows a person: its text, and the titles, labels and placeholders read aloud or on hover. */
function shownText(): string {
  const root = document.body.cloneNode(true) as HTMLElement;
  // Code is code (and so is what the app sets in a monospace font: ids, paths, arguments, results);
  // the graph library's credit link ("React Flow", its own aria-label) is a third party's name.
  for (const code of root.querySelectorAll("code, pre, kbd, samp, .font-mono, script, style, .react-flow__attribution")) code.remove();
  const attrs = [...root.querySelectorAll("[title], [aria-label], [placeholder], [alt]")].flatMap((el) =>
    ["title", "aria-label", "placeholder", "alt"].map((a) => el.getAttribute(a) ?? ""),
  );
  // Text node by text node: an avatar's initials and the name beside it are two words, not one.
  const texts: string[] = [];
  const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) texts.push(node.textContent ?? "");
  return [...texts, ...attrs].join("\n");
}

/** A name's initials, as avatars show them ("Grace Hopper" → "GH", "G"). */
function initialsOf(data: Set<string>, from: unknown[]): void {
  for (const v of from) {
    if (typeof v !== "string") continue;
    const letters = v.split(/\s+/).map((w) => w[0] ?? "").filter((c) => /[A-Za-z]/.test(c));
    for (let n = 1; n <= Math.min(3, letters.length); n++) data.add(letters.slice(0, n).join("").toUpperCase());
  }
}

function englishWords(text: string, data: Set<string>): string[] {
  const out = new Set<string>();
  for (const match of text.matchAll(WORD)) {
    const w = match[0];
    if (ALLOWED.has(w) || data.has(w)) continue;
    // A preview cut in the middle of a word of the data ("two wind…" of "windows").
    const end = (match.index ?? 0) + w.length;
    if (text[end] === "…" && [...data].some((d) => d.startsWith(w))) continue;
    // A model or file name such as "gpt-4.1-mini" or "Qwen2.5-0.5B": data with digits.
    if (/\d/.test(w) && [...data].some((d) => d.includes(w) || w.includes(d))) continue;
    out.add(w);
  }
  return [...out];
}

async function visit(hash: string, data: Set<string>): Promise<string[]> {
  window.history.replaceState(null, "", `#${hash}`);
  const view = renderApp();
  await waitFor(() => expect(i18n.language).toBe("zh-CN"));
  // Loaded: no loading state left (each page shows one while its data comes).
  await waitFor(() => expect(screen.queryAllByRole("status").filter((s) => s.textContent?.includes("加载"))).toHaveLength(0), { timeout: 3000 });
  await new Promise((r) => setTimeout(r, 50));
  const words = englishWords(shownText(), data);
  view.unmount();
  return words;
}

describe("a zh-CN company", () => {
  it("shows no English word the app wrote on any page or detail", { timeout: 120_000 }, async () => {
    const { backend, data } = zhCompany();
    const ids = <T,>(cmd: string, pick: (x: T) => string, args: Record<string, unknown> = {}) => {
      const answer = backend.handle(cmd, args) as T[] | { items: T[] };
      return (Array.isArray(answer) ? answer : answer.items).map(pick);
    };
    const org = backend.handle("get_org", {}) as { employees: { id: number }[] };
    const routes = [
      "secretary",
      "dashboard",
      "org",
      "chats",
      ...ids<{ id: number }>("list_chats", (c) => `chats/${c.id}`),
      "mailbox",
      ...ids<{ id: number }>("list_mail", (m) => `mailbox/${m.id}`, { input: { status: null, kind: null, employeeId: null } }),
      "approvals",
      ...ids<{ id: number }>("list_approvals", (a) => `approvals/${a.id}`, { input: { kind: "pending" } }),
      ...ids<{ id: number }>("list_approvals", (a) => `approvals/${a.id}`, { input: { kind: "history", status: null, employeeId: null } }),
      "work",
      "traces",
      ...ids<{ id: string }>("list_traces", (t) => `traces/${t.id}`),
      "relationships",
      "proxy",
      "settings",
      "settings/providers",
      "settings/local-models",
      "settings/people",
      "settings/server",
      "settings/bundle",
      ...org.employees.map((e) => `employee/${e.id}`),
    ];
    const found: Record<string, string[]> = {};
    for (const route of routes) {
      const words = await visit(route, data);
      if (words.length > 0) found[route] = words;
    }
    expect(found).toEqual({});
  });
});
