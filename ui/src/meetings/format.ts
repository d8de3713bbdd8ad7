// Pure helpers of the meeting panel: the moderator's strategies, decision types and outcomes, the
// links of an authorization chain, the moderator's notes, and how the decisions are ordered. No React here.
import type { DecidedByKind } from "../bindings/DecidedByKind";
import type { DecisionDto } from "../bindings/DecisionDto";
import type { DecisionType as StoredDecisionType } from "../bindings/DecisionType";
import type { Link } from "../bindings/Link";
import type { MeetingViewDto } from "../bindings/MeetingViewDto";
import type { MoveKind } from "../bindings/MoveKind";
import type { Role } from "../bindings/Role";
import type { RulingOutcome } from "../bindings/RulingOutcome";
import type { Strategy } from "../bindings/Strategy";

export const STRATEGIES = ["round_robin", "rule_based", "model_picked"] as const satisfies readonly Strategy[];
export const LINK_ROLES = ["proposed", "supported", "opposed", "decided", "escalated"] as const satisfies readonly Role[];

// Compile-time checks that the lists above cover the generated unions (each has its translation).
const allStrategies: Exclude<Strategy, (typeof STRATEGIES)[number]> extends never ? true : false = true;
const allRoles: Exclude<Role, (typeof LINK_ROLES)[number]> extends never ? true : false = true;
void allStrategies;
void allRoles;

/** DecisionDto.decisionType as the backend writes it (SPEC §9: who rules on what). */
export const DECISION_TYPES = ["tech", "ux", "compliance", "money", "resources", "external_commitment", "other"] as const satisfies readonly StoredDecisionType[];
export type DecisionType = (typeof DECISION_TYPES)[number];

/** DecisionDto.outcome. */
export const DECISION_OUTCOMES = ["approved", "rejected", "escalated"] as const satisfies readonly RulingOutcome[];
export type DecisionOutcome = (typeof DECISION_OUTCOMES)[number];

/** DecisionDto.decidedByKind: a department lead by jurisdiction, a weighted vote, or the boss. */
export const DECIDED_BY = ["lead", "vote", "boss"] as const satisfies readonly DecidedByKind[];
export type DecidedBy = (typeof DECIDED_BY)[number];

/** ModeratorNoteDto.kind: someone got the floor, was invited, stayed silent; or the meeting closed. */
export const NOTE_KINDS = ["speak", "invite", "close", "pass"] as const satisfies readonly MoveKind[];
export type NoteKind = (typeof NOTE_KINDS)[number];

const allDecidedBy: Exclude<DecidedByKind, DecidedBy> extends never ? true : false = true;
const allNoteKinds: Exclude<MoveKind, NoteKind> extends never ? true : false = true;
void allDecidedBy;
void allNoteKinds;

/** Link.who when it is not a person's name (`policy`: an approval the approval policy decided). */
export const CHAIN_ACTORS = ["boss", "secretary", "vote", "policy"] as const;
export type ChainActor = (typeof CHAIN_ACTORS)[number];

const oneOf =
  <T extends string>(list: readonly T[]) =>
  (value: string | null | undefined): value is T =>
    value != null && (list as readonly string[]).includes(value);

export const isStrategy = oneOf<Strategy>(STRATEGIES);
export const isDecisionType = oneOf<DecisionType>(DECISION_TYPES);
export const isDecisionOutcome = oneOf<DecisionOutcome>(DECISION_OUTCOMES);
export const isDecidedBy = oneOf<DecidedBy>(DECIDED_BY);
export const isNoteKind = oneOf<NoteKind>(NOTE_KINDS);
export const isLinkRole = oneOf<Role>(LINK_ROLES);

/** A chain link acted by someone who is not an employee (the boss, the secretary, the vote itself). */
export const chainActor = (link: Link): ChainActor | null => (link.employeeId === null && oneOf(CHAIN_ACTORS)(link.who) ? (link.who as ChainActor) : null);

export const isOpen = (m: MeetingViewDto): boolean => m.status === "open";

/** Escalated to the boss and not ruled on yet. */
export const isWaiting = (d: DecisionDto): boolean => d.status === "escalated";

/** What the boss must act on first (waiting for them), then the newest; the same instant keeps the later id first. */
export function orderDecisions(decisions: readonly DecisionDto[]): DecisionDto[] {
  return [...decisions].sort(
    (a, b) => Number(isWaiting(b)) - Number(isWaiting(a)) || Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id,
  );
}

/** A vote's weight as people read it: 1, 1.5, 2.25 (never 1.0000001). */
export const formatWeight = (weight: number): string => String(Math.round(weight * 100) / 100);

/** When the meeting closed, or a note was taken: the time today, else the day and the time. */
export function formatMeetingTime(iso: string, now: number, language: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const date = new Date(at);
  const today = new Date(now).toDateString() === date.toDateString();
  return new Intl.DateTimeFormat(
    language,
    today ? { hour: "2-digit", minute: "2-digit" } : { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" },
  ).format(date);
}
