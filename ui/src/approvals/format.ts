// Pure helpers of the approval queue: tools in words, risk and status tones, which filter a view
// asks for, when an approval runs out, a short args hash. No React here.
import type { ApprovalDto } from "../bindings/ApprovalDto";
import type { ApprovalFilter } from "../bindings/ApprovalFilter";
import type { ApprovalStatus } from "../bindings/ApprovalStatus";
import type { DecidedVia } from "../bindings/DecidedVia";
import type { Risk } from "../bindings/Risk";
import type { ToolName } from "../bindings/ToolName";
import { isToolName } from "../domain";
import { parseRoute } from "../shell/route";

export const APPROVAL_STATUSES = ["waiting", "approved", "rejected", "expired"] as const satisfies readonly ApprovalStatus[];
export const DECIDED_VIA = ["ui", "notification", "cli", "policy"] as const satisfies readonly DecidedVia[];
export const RISKS = ["read_only", "write", "high"] as const satisfies readonly Risk[];

// Compile-time checks that the lists above cover the generated unions (each has its translation).
const allStatuses: Exclude<ApprovalStatus, (typeof APPROVAL_STATUSES)[number]> extends never ? true : false = true;
const allVia: Exclude<DecidedVia, (typeof DECIDED_VIA)[number]> extends never ? true : false = true;
const allRisks: Exclude<Risk, (typeof RISKS)[number]> extends never ? true : false = true;
void allStatuses;
void allVia;
void allRisks;

const oneOf =
  <T extends string>(list: readonly T[]) =>
  (value: string | null | undefined): value is T =>
    value != null && (list as readonly string[]).includes(value);

export const isApprovalStatus = oneOf<ApprovalStatus>(APPROVAL_STATUSES);
export const isDecidedVia = oneOf<DecidedVia>(DECIDED_VIA);
export const isRisk = oneOf<Risk>(RISKS);

/** Whether a tool's summary is a command, a path or a URL (shown in monospace): every tool says. */
const LITERAL_SUMMARY: Record<ToolName, boolean> = {
  read_memory: false,
  read_file: false,
  write_file: true,
  delete_file: true,
  run_shell: true,
  run_cli: true,
  post_webhook: true,
  raise_budget: false,
  hire: false,
  fire: false,
  change_team_memory: false,
  commit_to_date: false,
};
export const isLiteralSummary = (tool: string): boolean => isToolName(tool) && LITERAL_SUMMARY[tool];

export type ApprovalView = "waiting" | "history";
export const APPROVAL_VIEWS = ["waiting", "history"] as const satisfies readonly ApprovalView[];

export interface HistoryFilters {
  status: ApprovalStatus | null;
  employeeId: number | null;
}

export const NO_HISTORY_FILTERS: HistoryFilters = { status: null, employeeId: null };

export const PENDING: ApprovalFilter = { kind: "pending" };
export const historyFilter = (f: HistoryFilters): ApprovalFilter => ({ kind: "history", status: f.status, employeeId: f.employeeId });
export const ALL_HISTORY: ApprovalFilter = historyFilter(NO_HISTORY_FILTERS);

export const isNarrowed = (f: HistoryFilters): boolean => f.status !== null || f.employeeId !== null;

/** Only a waiting approval that has not run out can still be decided. */
export function canDecide(a: ApprovalDto, now: number): boolean {
  return a.status === "waiting" && Date.parse(a.expiresAt) > now;
}

/** The first 12 hex digits of the args hash: enough to compare by eye. */
export const shortHash = (hash: string): string => hash.slice(0, 12);

/** Arguments as indented JSON (a string argument stays as it is). */
export function prettyArgs(args: unknown): string {
  if (typeof args === "string") return args;
  try {
    return JSON.stringify(args, null, 2) ?? String(args);
  } catch {
    return String(args);
  }
}

/** What the action came back with, as text (null when there is nothing to show). */
export function resultText(result: unknown): string | null {
  if (result === null || result === undefined) return null;
  if (typeof result === "string") return result.trim() === "" ? null : result;
  return prettyArgs(result);
}

/** Minutes left before an approval runs out (0 once it has). */
export function minutesLeft(expiresAt: string, now: number): number {
  return Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 60_000));
}

/**
 * What became of an approval's action, apart from its decision: `running` (approved, its run begun), `queued` (approved
 * on a desktop attached to a company server, not run yet), `done`, `failed` (with the error), `not_run` (rejected or
 * expired: nothing was done); null while it waits.
 */
export type ApprovalOutcome = "running" | "queued" | "done" | "failed" | "not_run";

export function outcomeOf(a: ApprovalDto): ApprovalOutcome | null {
  switch (a.status) {
    case "waiting":
      return null;
    case "rejected":
    case "expired":
      return "not_run";
    case "approved":
      if (a.executedAt === null) return a.error ? "failed" : a.runStartedAt !== null ? "running" : "queued";
      return a.error ? "failed" : "done";
  }
}

/**
 * A chain link's rule as the backend stores it (`approved via ui: looks fine`, `backed the request`) in the boss's
 * language: `key` and its options for the known shapes, null for anything else (a requester's reason, shown as written).
 */
export function chainRule(rule: string): { key: string; options: Record<string, string> } | null {
  const decided = /^(approved|rejected|expired) via (ui|notification|cli|policy)(?:: ([\s\S]*))?$/.exec(rule);
  if (decided) {
    const [, verb = "", via = "", note] = decided;
    return { key: note ? `approvals.chainRule.${verb}Note` : `approvals.chainRule.${verb}`, options: { via, note: note ?? "" } };
  }
  if (rule === "backed the request") return { key: "approvals.chainRule.backed", options: {} };
  return null;
}

/** The route that fixes a refusal, when it is one the app knows (`#settings/webhooks/<host>`, `#settings/budget`, `#employee/7`). */
export type FixTarget = { kind: "webhooks"; host: string | null } | { kind: "budget" } | { kind: "tools"; employeeId: number };

export function fixTarget(href: string | null | undefined): FixTarget | null {
  if (!href) return null;
  // The same reading of the hash as the app's own navigation.
  const route = parseRoute(href);
  if (route.page === "settings" && route.section === "webhooks") return { kind: "webhooks", host: route.host ?? null };
  if (route.page === "settings" && route.section === "budget") return { kind: "budget" };
  if (route.page === "employee") return { kind: "tools", employeeId: route.employeeId };
  return null;
}
