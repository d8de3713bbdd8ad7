import { describe, expect, it } from "vitest";
import { ARCHETYPES, EMPLOYEE_STATUSES, LANGUAGES, TOOL_NAMES } from "../domain";
import { CHAT_KINDS, CHAT_MODES, SILENCE_REASONS, THOUGHT_FAILURES } from "../chats/format";
import { MEMORY_KINDS, URGENCIES, VISIBILITIES, ZONES } from "../employee/format";
import { POLICY_CHOICES } from "../employee/tools";
import { ERROR_CODES } from "../ipc/errors";
import { MAIL_KINDS, MAIL_STATUSES, MAIL_VIEWS } from "../mailbox/format";
import { AFFINITY_TONES } from "../relationships/affinity";
import { ACTION_STATUSES, APPROVAL_POLICIES, PROPOSAL_TYPES } from "../secretary/format";
import { KEY_STATUSES, ROUTABLE_PURPOSES } from "../settings/format";
import { CALL_OUTCOMES, TRACE_EVENT_KINDS } from "../traces/format";
import { APPROVAL_STATUSES, APPROVAL_VIEWS, DECIDED_VIA, RISKS } from "../approvals/format";
import { REQUIREMENT_STATUSES, TASK_STATUSES } from "../work/format";
import { THINKING_PATHS } from "../wizard/paths";
import { CHAIN_ACTORS, DECIDED_BY, DECISION_OUTCOMES, DECISION_TYPES, LINK_ROLES, NOTE_KINDS, STRATEGIES } from "../meetings/format";
import { resources } from "./index";

type Tree = { [key: string]: string | Tree };

function flatten(tree: Tree, prefix = ""): Map<string, string> {
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key;
    if (typeof value === "string") out.set(path, value);
    else for (const [k, v] of flatten(value, path)) out.set(k, v);
  }
  return out;
}

// What i18next is given: the JSON files with the tools' words (generated from Rust) merged in.
const enKeys = flatten(resources.en.translation as unknown as Tree);
const zhKeys = flatten(resources["zh-CN"].translation as unknown as Tree);

/** A key as used in code resolves directly or through i18next's plural suffixes. */
const resolves = (keys: Map<string, string>, key: string) =>
  keys.has(key) || (keys.has(`${key}_one`) && keys.has(`${key}_other`));

// Every component's source, as text (Vite's raw import: no Node APIs needed).
const sources = import.meta.glob<string>("../**/*.tsx", { query: "?raw", import: "default", eager: true });

describe("translations", () => {
  it("has the same keys in English and Chinese", () => {
    const missingInZh = [...enKeys.keys()].filter((k) => !zhKeys.has(k));
    const missingInEn = [...zhKeys.keys()].filter((k) => !enKeys.has(k));
    expect(missingInZh).toEqual([]);
    expect(missingInEn).toEqual([]);
  });

  it("has no empty values", () => {
    for (const [lang, keys] of [["en", enKeys], ["zh-CN", zhKeys]] as const) {
      const empty = [...keys].filter(([, v]) => v.trim() === "").map(([k]) => k);
      expect(empty, lang).toEqual([]);
    }
  });

  it("uses the same interpolation variables in both languages", () => {
    const vars = (s: string) => [...s.matchAll(/\{\{(\w+)\}\}/g)].map((m) => m[1]).sort();
    for (const [key, value] of enKeys) expect(vars(zhKeys.get(key) ?? ""), key).toEqual(vars(value));
  });

  it("defines every key that components pass to t()", () => {
    const files = Object.entries(sources).filter(([path]) => !path.includes(".test."));
    expect(files.length).toBeGreaterThan(5);
    const used = new Set<string>();
    for (const [, text] of files) {
      for (const m of text.matchAll(/\bt\(\s*["']([^"'$]+)["']/g)) used.add(m[1]!);
    }
    expect(used.size).toBeGreaterThan(40);
    const missing = [...used].filter((k) => !resolves(enKeys, k));
    expect(missing).toEqual([]);
  });

  it("translates every archetype, status, error code, language, key status, purpose, secretary action, chat kind, silence reason, stamina zone, memory label, affinity tone, mailbox kind, status and view, meeting strategy, decision and chain link, and approval tool, risk, status and channel in both languages", () => {
    const dynamic = [
      ...ARCHETYPES.map((a) => `archetype.${a}`),
      ...EMPLOYEE_STATUSES.map((s) => `status.${s}`),
      ...ERROR_CODES.map((c) => `errors.${c}`),
      "errors.unknown",
      ...LANGUAGES.map((l) => `language.${l}`),
      ...KEY_STATUSES.map((s) => `settings.keys.status.${s}`),
      ...ROUTABLE_PURPOSES.flatMap((p) => [`settings.routes.purpose.${p}`, `settings.routes.hint.${p}`]),
      ...["providers", "localModels", "routes", "budget", "spend", "prices", "language"].map((s) => `settings.${s}.title`),
      ...["disk_full", "checksum_mismatch", "download_failed"].map((c) => `settings.localModels.failed.${c}`),
      ...ACTION_STATUSES.map((s) => `secretary.status.${s}`),
      ...PROPOSAL_TYPES.map((p) => `secretary.kind.${p}`),
      ...APPROVAL_POLICIES.map((p) => `secretary.policy.${p}`),
      ...["confirm", "cancel", "undo"].map((op) => `secretary.action.failed.${op}`),
      ...CHAT_KINDS.map((k) => `chats.kind.${k}`),
      ...CHAT_MODES.flatMap((m) => [`chats.mode.${m}`, `chats.modeHint.${m}`]),
      ...SILENCE_REASONS.map((r) => `chats.silence.${r}`),
      ...THOUGHT_FAILURES.map((f) => `chats.failure.${f}`),
      ...ZONES.flatMap((z) => [`profile.stamina.zone.${z}`, `profile.stamina.zoneHint.${z}`]),
      ...MEMORY_KINDS.flatMap((k) => [`profile.memories.kind.${k}`, `profile.memories.filters.${k}`]),
      "profile.memories.filters.all",
      ...VISIBILITIES.flatMap((v) => [`profile.memories.visibility.${v}`, `profile.memories.visibilityHint.${v}`]),
      ...URGENCIES.map((u) => `profile.tasks.urgency.${u}`),
      ...AFFINITY_TONES.flatMap((tone) => [`profile.relationships.tone.${tone}`, `graph.legend.${tone}`]),
      ...MAIL_KINDS.map((k) => `mailbox.kind.${k}`),
      ...MAIL_STATUSES.map((s) => `mailbox.status.${s}`),
      ...MAIL_VIEWS.flatMap((v) => [`mailbox.view.${v}`, `mailbox.emptyView.${v}`]),
      ...TRACE_EVENT_KINDS.map((k) => `traces.kind.${k}`),
      ...CALL_OUTCOMES.map((o) => `traces.outcome.${o}`),
      ...["chat", "secretary"].map((o) => `traces.origin.${o}`),
      ...REQUIREMENT_STATUSES.map((s) => `work.status.${s}`),
      ...TASK_STATUSES.map((s) => `work.taskStatus.${s}`),
      ...STRATEGIES.flatMap((s) => [`meeting.strategy.${s}`, `meeting.strategyHint.${s}`]),
      ...["open", "closed"].map((s) => `meeting.status.${s}`),
      ...DECISION_TYPES.map((d) => `meeting.decisionType.${d}`),
      ...DECISION_OUTCOMES.map((o) => `meeting.outcome.${o}`),
      ...DECIDED_BY.map((d) => `meeting.decidedBy.${d}`),
      ...LINK_ROLES.map((r) => `meeting.role.${r}`),
      ...CHAIN_ACTORS.map((a) => `meeting.who.${a}`),
      ...NOTE_KINDS.map((k) => `meeting.noteKind.${k}`),
      ...RISKS.map((r) => `approvals.risk.${r}`),
      ...APPROVAL_STATUSES.map((s) => `approvals.status.${s}`),
      ...DECIDED_VIA.map((v) => `approvals.via.${v}`),
      ...APPROVAL_VIEWS.map((v) => `approvals.view.${v}`),
      ...TOOL_NAMES.flatMap((tool) => ["action", "ability", "hint", "wants"].map((w) => `tool.${tool}.${w}`)),
      ...POLICY_CHOICES.filter((p) => p !== "company").flatMap((p) => [`profile.tools.policy.${p}`, `profile.tools.policyHint.${p}`]),
      ...RISKS.map((r) => `profile.tools.riskHint.${r}`),
      ...THINKING_PATHS.flatMap((p) => [`wizard.thinking.path.${p}.title`, `wizard.thinking.path.${p}.line`, `wizard.thinking.next.${p}`]),
    ];
    for (const key of dynamic) {
      expect(enKeys.has(key), `en ${key}`).toBe(true);
      expect(zhKeys.has(key), `zh-CN ${key}`).toBe(true);
    }
  });

  it("has every tool's words in both languages, and Chinese ones in Chinese", () => {
    expect(TOOL_NAMES.length).toBeGreaterThanOrEqual(12);
    for (const tool of TOOL_NAMES) {
      for (const w of ["action", "ability", "hint", "wants"]) {
        expect(enKeys.get(`tool.${tool}.${w}`)?.trim(), `en ${tool} ${w}`).toBeTruthy();
        expect(zhKeys.get(`tool.${tool}.${w}`)?.trim(), `zh-CN ${tool} ${w}`).toBeTruthy();
      }
      expect(zhKeys.get(`tool.${tool}.hint`)).not.toBe(enKeys.get(`tool.${tool}.hint`));
    }
  });

  it("really translates: Chinese archetype names differ from the English ones", () => {
    for (const a of ARCHETYPES) expect(zhKeys.get(`archetype.${a}`)).not.toBe(enKeys.get(`archetype.${a}`));
  });
});
