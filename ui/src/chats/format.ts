// Pure helpers of the chats page: the lists translated per value, times, previews, and the
// timeline that interleaves messages with inner thoughts. No React here.
import type { ChatKind } from "../bindings/ChatKind";
import type { ChatMessageDto } from "../bindings/ChatMessageDto";
import type { ChatMode } from "../bindings/ChatMode";
import type { SilenceReason } from "../bindings/SilenceReason";
import type { ThoughtDto } from "../bindings/ThoughtDto";

export const CHAT_KINDS = ["department", "requirement", "meeting", "boss", "dm", "group", "people"] as const satisfies readonly ChatKind[];
export const CHAT_MODES = ["work", "casual"] as const satisfies readonly ChatMode[];
/** Why an employee stayed silent although it wanted to speak (ThoughtDto.silencedBy): a gate held it back. */
export const SILENCE_REASONS = ["saturation", "cooldown", "anti_spam", "identity", "repetition"] as const satisfies readonly SilenceReason[];
export type HeldReason = (typeof SILENCE_REASONS)[number];
/**
 * ThoughtDto.silencedBy when there was no thought at all: the model's answer was unreadable, the
 * budget was spent, or the model could not be reached (the thought's `reason` holds the error).
 */
export const THOUGHT_FAILURES = ["malformed", "budget", "model_error"] as const satisfies readonly SilenceReason[];
export type ThoughtFailure = (typeof THOUGHT_FAILURES)[number];

// Compile-time checks that the lists above cover the generated unions (each value has its translation).
const allKinds: Exclude<ChatKind, (typeof CHAT_KINDS)[number]> extends never ? true : false = true;
const allModes: Exclude<ChatMode, (typeof CHAT_MODES)[number]> extends never ? true : false = true;
void [allKinds, allModes];

/**
 * Whether a stored reason held a message back or means there was no thought. A switch over the
 * generated union: a reason added in Rust fails `tsc` here until it is placed in one list.
 */
export function silenceKind(reason: SilenceReason): "held" | "failure" {
  switch (reason) {
    case "saturation":
    case "cooldown":
    case "anti_spam":
    case "identity":
    case "repetition":
      return "held";
    case "malformed":
    case "budget":
    case "model_error":
      return "failure";
  }
}

export function isSilenceReason(value: string): value is HeldReason {
  return (SILENCE_REASONS as readonly string[]).includes(value);
}

export function isThoughtFailure(value: string | null): value is ThoughtFailure {
  return value !== null && (THOUGHT_FAILURES as readonly string[]).includes(value);
}

/** As on the Rust side (MAX_MESSAGE_CHARS), counted in characters, not UTF-16 units. */
export const MAX_MESSAGE_CHARS = 4000;
/** From here on the composer shows how many characters are left. */
export const COUNTER_FROM = 3500;

export const charCount = (text: string): number => Array.from(text).length;

/** Messages of one sender this close together read as one block (one name, one avatar). */
export const GROUP_WINDOW_MS = 5 * 60 * 1000;

const time = (iso: string): number => {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
};

export type TimelineEntry =
  | { kind: "message"; at: number; message: ChatMessageDto }
  | { kind: "thought"; at: number; thought: ThoughtDto }
  /** Thoughts in a row that all failed the same way (a model that can't be reached fails every poll). */
  | { kind: "failures"; at: number; failure: ThoughtFailure; thoughts: ThoughtDto[] };

export const entryKey = (e: TimelineEntry): string =>
  e.kind === "message" ? `m${e.message.id}` : e.kind === "thought" ? `t${e.thought.id}` : `f${e.thoughts[0]?.id ?? 0}`;

/**
 * Messages and thoughts in one line by time. On the same second a thought comes first: what
 * someone thought is what led to the message they posted with it.
 */
export function timeline(messages: readonly ChatMessageDto[], thoughts: readonly ThoughtDto[]): TimelineEntry[] {
  const entries: TimelineEntry[] = [
    ...messages.map((message) => ({ kind: "message" as const, at: time(message.createdAt), message })),
    ...thoughts.map((thought) => ({ kind: "thought" as const, at: time(thought.createdAt), thought })),
  ];
  const rank = (e: TimelineEntry) => (e.kind === "message" ? 1 : 0);
  const id = (e: TimelineEntry) => (e.kind === "message" ? e.message.id : e.kind === "thought" ? e.thought.id : 0);
  return collapseFailures(entries.sort((a, b) => a.at - b.at || rank(a) - rank(b) || id(a) - id(b)));
}

/** Two or more failed thoughts in a row, failed the same way, become one entry (at the first one's time). */
export function collapseFailures(entries: readonly TimelineEntry[]): TimelineEntry[] {
  const out: TimelineEntry[] = [];
  for (const e of entries) {
    const failure = e.kind === "thought" && isThoughtFailure(e.thought.silencedBy) ? e.thought.silencedBy : null;
    const last = out.at(-1);
    if (failure !== null && e.kind === "thought") {
      if (last?.kind === "failures" && last.failure === failure) {
        last.thoughts.push(e.thought);
        continue;
      }
      if (last?.kind === "thought" && last.thought.silencedBy === failure) {
        out[out.length - 1] = { kind: "failures", at: last.at, failure, thoughts: [last.thought, e.thought] };
        continue;
      }
    }
    out.push(e);
  }
  return out;
}

/** Whether a message continues the previous entry's block: same sender, close in time, nothing in between. */
export function continuesBlock(previous: TimelineEntry | undefined, entry: TimelineEntry): boolean {
  if (!previous || previous.kind !== "message" || entry.kind !== "message") return false;
  const a = previous.message;
  const b = entry.message;
  if (b.senderKind === "system" || a.senderKind !== b.senderKind || a.senderEmployeeId !== b.senderEmployeeId || a.senderPersonId !== b.senderPersonId) return false;
  return entry.at - previous.at <= GROUP_WINDOW_MS && sameDay(previous.at, entry.at);
}

export function sameDay(a: number, b: number): boolean {
  const x = new Date(a);
  const y = new Date(b);
  return x.getFullYear() === y.getFullYear() && x.getMonth() === y.getMonth() && x.getDate() === y.getDate();
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A chat list's time: the hour today, the weekday this week, else the date. */
export function formatListTime(iso: string, now: number, language: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const date = new Date(at);
  if (sameDay(at, now)) return new Intl.DateTimeFormat(language, { hour: "2-digit", minute: "2-digit" }).format(date);
  if (now - at < 6 * DAY_MS && at < now) return new Intl.DateTimeFormat(language, { weekday: "short" }).format(date);
  const thisYear = new Date(now).getFullYear() === date.getFullYear();
  return new Intl.DateTimeFormat(language, thisYear ? { month: "short", day: "numeric" } : { dateStyle: "medium" }).format(date);
}

export function formatClock(iso: string, language: string): string | null {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return null;
  return new Intl.DateTimeFormat(language, { hour: "2-digit", minute: "2-digit" }).format(new Date(at));
}

export function formatDay(at: number, language: string): string {
  return new Intl.DateTimeFormat(language, { weekday: "long", month: "long", day: "numeric" }).format(new Date(at));
}

/** A one-line preview of a message: whitespace collapsed, cut at `max` characters. */
export function preview(text: string, max = 80): string {
  const line = text.replace(/\s+/g, " ").trim();
  const chars = Array.from(line);
  return chars.length <= max ? line : `${chars.slice(0, max - 1).join("").trimEnd()}…`;
}

/** "Alice Chen" → "Alice"; Chinese names (no spaces) stay whole. */
export function firstName(name: string): string {
  return name.trim().split(/\s+/)[0] ?? name;
}
