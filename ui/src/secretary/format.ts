// Pure helpers of the Secretary page: undo countdowns, hire edits, the lists translated per value.
import type { ActionStatus } from "../bindings/ActionStatus";
import type { ApprovalPolicy } from "../bindings/ApprovalPolicy";
import type { Archetype } from "../bindings/Archetype";
import type { HireEdits } from "../bindings/HireEdits";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { Proposal } from "../bindings/Proposal";

export const ACTION_STATUSES = ["proposed", "in_progress", "applied", "cancelled", "undone", "failed"] as const satisfies readonly ActionStatus[];
export const PROPOSAL_TYPES = [
  "hire",
  "fire",
  "transfer",
  "create_department",
  "rename_department",
  "set_policy",
  "assign_task",
  "create_requirement",
  "delete_department",
  "convene_meeting",
  "set_reviewer",
  "invite_person",
] as const satisfies readonly Proposal["type"][];
export const APPROVAL_POLICIES = ["auto", "key_steps", "manual"] as const satisfies readonly ApprovalPolicy[];

// Compile-time checks that the lists above cover the generated unions (each value has its translation).
const allStatuses: Exclude<ActionStatus, (typeof ACTION_STATUSES)[number]> extends never ? true : false = true;
const allTypes: Exclude<Proposal["type"], (typeof PROPOSAL_TYPES)[number]> extends never ? true : false = true;
const allPolicies: Exclude<ApprovalPolicy, (typeof APPROVAL_POLICIES)[number]> extends never ? true : false = true;
void [allStatuses, allTypes, allPolicies];

/** Milliseconds left until an RFC 3339 instant; 0 when it has passed, is missing or unreadable. */
export function msUntil(until: string | null, now: number): number {
  if (until === null) return 0;
  const end = Date.parse(until);
  return Number.isFinite(end) ? Math.max(0, end - now) : 0;
}

/** A countdown as m:ss, rounded up so it never shows 0:00 while time is left: 599_001 ms → "10:00". */
export function formatCountdown(ms: number): string {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const minutes = Math.floor(total / 60);
  const seconds = total % 60;
  return `${minutes}:${String(seconds).padStart(2, "0")}`;
}

export type HireProposal = Extract<Proposal, { type: "hire" }>;

/** What the boss has in the card's edit form. */
export interface HireDraft {
  name: string;
  title: string;
  departmentId: number | null;
  managerId: number | null;
  archetype: Archetype;
}

export function draftOf(p: HireProposal): HireDraft {
  return { name: p.name, title: p.title, departmentId: p.departmentId, managerId: p.managerId, archetype: p.archetype };
}

/**
 * The edits to send with secretary_confirm: only what differs from the proposal (null = keep), or null when
 * nothing changed. A department or manager cannot be taken away this way (null means "keep").
 */
export function hireEdits(p: HireProposal, draft: HireDraft): HireEdits | null {
  const name = draft.name.trim();
  const title = draft.title.trim();
  const edits: HireEdits = {
    name: name !== p.name ? name : null,
    title: title !== p.title ? title : null,
    departmentId: draft.departmentId !== p.departmentId ? draft.departmentId : null,
    managerId: draft.managerId !== p.managerId ? draft.managerId : null,
    archetype: draft.archetype !== p.archetype ? draft.archetype : null,
  };
  return Object.values(edits).every((v) => v === null) ? null : edits;
}

/** One first-run example: its key under `secretary.examples` and the company's names it is filled with. */
export interface Example {
  key: "hire" | "hireAnywhere" | "status" | "move" | "personStatus" | "departmentStatus" | "budget" | "createDepartment";
  values?: Record<string, string>;
}

const HAN = /\p{Script=Han}/u;
const CN_DEPARTMENT_ENDING = /(部门|事业部|部|组|团队|中心)$/;

/**
 * Whether the secretary's rules read a department by this name inside a request ("for Engineering",
 * "给工程部…"): a capitalised Latin name, or a Chinese one with a department ending.
 */
export function readableDepartment(name: string): boolean {
  const n = name.trim();
  return HAN.test(n) ? CN_DEPARTMENT_ENDING.test(n) : /^[A-Z]/.test(n);
}

/** Names for a department to create, in the company's language; the first one it does not have is used. */
export const NEW_DEPARTMENT_NAMES = {
  en: ["Research", "Design", "Growth", "Documentation", "Special Projects"],
  zh: ["研究部", "设计部", "增长部", "文档部", "特别项目部"],
} as const;

/**
 * Four things to say that work in this company as it is: only its own departments and people, never a
 * name it does not have ("Move Alice to Marketing" in a company with neither).
 */
export function secretaryExamples(snapshot: OrgSnapshot | undefined, chinese: boolean): Example[] {
  const departments = snapshot?.departments ?? [];
  const employees = snapshot?.employees ?? [];
  const readable = departments.find((d) => readableDepartment(d.name));
  const hire: Example = readable ? { key: "hire", values: { department: readable.name } } : { key: "hireAnywhere" };
  // Someone who could move (has a department, and another exists), preferably not a department's lead.
  const movable = employees.filter((e) => e.departmentId !== null && departments.some((d) => d.id !== e.departmentId));
  const person = movable.find((e) => !departments.some((d) => d.leadId === e.id)) ?? movable[0];
  const target = person ? departments.find((d) => d.id !== person.departmentId) : undefined;
  const third: Example =
    person && target
      ? { key: "move", values: { name: person.name, department: target.name } }
      : employees[0]
        ? { key: "personStatus", values: { name: employees[0].name } }
        : departments[0]
          ? { key: "departmentStatus", values: { department: departments[0].name } }
          : { key: "budget" };
  const taken = (name: string) => departments.some((d) => d.name.trim().toLowerCase() === name.toLowerCase());
  const names = chinese ? NEW_DEPARTMENT_NAMES.zh : NEW_DEPARTMENT_NAMES.en;
  const fresh: string = names.find((n) => !taken(n)) ?? names[names.length - 1] ?? names[0];
  return [hire, { key: "status" }, third, { key: "createDepartment", values: { name: fresh } }];
}
