// Pure helpers of the trace view: which lines show, where each leads, how they group, when the
// loop guard stopped the work. No React here.
import type { TraceDto } from "../bindings/TraceDto";
import type { TraceEventDto } from "../bindings/TraceEventDto";
import type { TraceEventKind } from "../bindings/TraceEventKind";
import { approvalHref, chatHref, mailHref, profileHref, routeHref } from "../shell/route";

export const TRACE_EVENT_KINDS = [
  "instruction",
  "task_created",
  "task_resolved",
  "task_failed",
  "message",
  "thought",
  "model_call",
  "mail",
  "approval",
  "tool_call",
  "ruling",
] as const satisfies readonly TraceEventKind[];

/** A model call's outcome (TraceEventDto.outcome) as the gateway records it. */
export const CALL_OUTCOMES = ["ok", "error", "budget_exceeded", "breaker_open"] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

/** What became of a tool call (TraceEventDto.outcome) as the tool-call log records it. */
export const TOOL_CALL_OUTCOMES = ["ok", "error", "refused", "waiting_approval"] as const;
export type ToolCallOutcome = (typeof TOOL_CALL_OUTCOMES)[number];

export function isToolCallOutcome(value: string | null): value is ToolCallOutcome {
  return value !== null && (TOOL_CALL_OUTCOMES as readonly string[]).includes(value);
}

/** A tool call that was refused or failed: shown in red, never as a quiet line. */
export const isFailedToolCall = (e: TraceEventDto): boolean => e.kind === "tool_call" && (e.outcome === "error" || e.outcome === "refused");

// Compile-time check that the list above covers the generated union (each kind has its translation).
const allKinds: Exclude<TraceEventKind, (typeof TRACE_EVENT_KINDS)[number]> extends never ? true : false = true;
void allKinds;

/** SPEC §10 (guard.rs MAX_TRACE_STEPS): an instruction gets at most this many speaking steps. */
export const MAX_TRACE_STEPS = 15;

/** Lines hidden unless the boss asks for them: the employees' inner workings. */
export const isQuiet = (kind: TraceEventKind): boolean => kind === "thought" || kind === "model_call";

export function visibleEvents(events: readonly TraceEventDto[], showQuiet: boolean): TraceEventDto[] {
  return showQuiet ? [...events] : events.filter((e) => !isQuiet(e.kind));
}

/**
 * The lines without the boss's own message that gave the instruction: it is the instruction line
 * already (same words, same chat, from no employee).
 */
export function withoutEcho(events: readonly TraceEventDto[]): TraceEventDto[] {
  const instruction = events.find((e) => e.kind === "instruction");
  if (!instruction) return [...events];
  let dropped = false;
  return events.filter((e) => {
    const echo =
      !dropped && e.kind === "message" && e.employeeId === null && e.chatId === instruction.chatId && e.text.trim() === instruction.text.trim();
    if (echo) dropped = true;
    return !echo;
  });
}

export function isCallOutcome(value: string | null): value is CallOutcome {
  return value !== null && (CALL_OUTCOMES as readonly string[]).includes(value);
}

/** A model call that did not come back with an answer. */
export const isFailedCall = (e: TraceEventDto): boolean => e.kind === "model_call" && e.outcome !== null && e.outcome !== "ok";

/**
 * Where a line leads: a message or thought to its chat, a task to its owner's profile, mail to the
 * mailbox item, the instruction to where it was given, a model call to whoever made it, an approval
 * to its card in the queue, a tool call to the approval it ran under (else to whoever made it), a ruling to the meeting it was made in.
 */
export function eventHref(e: TraceEventDto): string | null {
  switch (e.kind) {
    case "message":
    case "thought":
      return e.chatId === null ? null : chatHref(e.chatId);
    case "task_created":
    case "task_resolved":
    case "task_failed":
      return e.employeeId === null ? null : profileHref(e.employeeId);
    case "mail":
      return e.mailId === null ? null : mailHref(e.mailId);
    case "instruction":
      return e.chatId === null ? routeHref({ page: "secretary" }) : chatHref(e.chatId);
    case "model_call":
      return e.employeeId === null ? null : profileHref(e.employeeId);
    case "approval":
      return e.approvalId === null ? routeHref({ page: "approvals", approvalId: null }) : approvalHref(e.approvalId);
    case "tool_call":
      if (e.approvalId !== null) return approvalHref(e.approvalId);
      return e.employeeId === null ? null : profileHref(e.employeeId);
    case "ruling":
      return e.chatId === null ? null : chatHref(e.chatId);
  }
}

/** The escalation the loop guard files when it stops an instruction (engine/ops.rs). */
const STOPPED_TITLE = /^(Stopped: |已暂停：)/;

/** Whether the loop guard stopped this instruction: 15 steps taken, or its stop recorded. */
export function stoppedAtStepCap(trace: TraceDto): boolean {
  return (
    trace.steps >= MAX_TRACE_STEPS ||
    trace.events.some((e) => e.outcome === "step_cap" || (e.kind === "mail" && e.outcome === "escalation" && STOPPED_TITLE.test(e.text)))
  );
}

export interface MinuteGroup {
  /** The minute, as "2025-03-01T10:05" (UTC), for keys; `at` is the first line's time, for display. */
  key: string;
  at: string;
  events: TraceEventDto[];
}

/** Consecutive lines of the same minute under one heading, in the order given. */
export function groupByMinute(events: readonly TraceEventDto[]): MinuteGroup[] {
  const groups: MinuteGroup[] = [];
  for (const e of events) {
    const ms = Date.parse(e.at);
    const key = Number.isNaN(ms) ? e.at : new Date(ms).toISOString().slice(0, 16);
    const last = groups.at(-1);
    if (last && last.key === key) last.events.push(e);
    else groups.push({ key, at: e.at, events: [e] });
  }
  return groups;
}

/** 1234 → "1,234"; 12_345 → "12.3k" (tokens). */
export function formatTokens(n: number, language: string): string {
  if (n < 10_000) return new Intl.NumberFormat(language).format(n);
  return new Intl.NumberFormat(language, { notation: "compact", maximumFractionDigits: 1 }).format(n);
}

/** A ruling's outcome (TraceEventDto.outcome) as the meeting records it. */
export const RULING_OUTCOMES = ["approved", "rejected", "escalated"] as const;
export type RulingOutcome = (typeof RULING_OUTCOMES)[number];

export function isRulingOutcome(value: string | null): value is RulingOutcome {
  return value !== null && (RULING_OUTCOMES as readonly string[]).includes(value);
}
