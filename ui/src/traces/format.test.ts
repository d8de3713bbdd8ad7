import { describe, expect, it } from "vitest";
import type { TraceDto } from "../bindings/TraceDto";
import type { TraceEventDto } from "../bindings/TraceEventDto";
import { eventHref, groupByMinute, isFailedCall, stoppedAtStepCap, visibleEvents, withoutEcho } from "./format";

const event = (fields: Partial<TraceEventDto> & Pick<TraceEventDto, "kind">): TraceEventDto => ({
  at: "2025-03-01T10:00:00Z",
  employeeId: null,
  actor: "",
  text: "",
  chatId: null,
  chatName: null,
  taskId: null,
  mailId: null,
  approvalId: null,
  costUsd: null,
  tokens: null,
  outcome: null,
  ...fields,
});

const trace = (events: TraceEventDto[], steps = 0): TraceDto => ({
  summary: { id: "tr-1", origin: "chat", instruction: "Go", chatId: 3, createdAt: "2025-03-01T10:00:00Z", calls: 0, costUsd: 0 },
  events,
  steps,
  tokens: 0,
  tasksPending: 0,
});

describe("trace helpers", () => {
  it("leads each line to its source", () => {
    expect(eventHref(event({ kind: "message", chatId: 4 }))).toBe("#chats/4");
    expect(eventHref(event({ kind: "thought", chatId: null }))).toBeNull();
    expect(eventHref(event({ kind: "task_created", employeeId: 12, taskId: 9 }))).toBe("#employee/12");
    expect(eventHref(event({ kind: "task_failed", employeeId: 12 }))).toBe("#employee/12");
    expect(eventHref(event({ kind: "mail", mailId: 7, chatId: 4 }))).toBe("#mailbox/7");
    expect(eventHref(event({ kind: "instruction", chatId: null }))).toBe("#secretary");
    expect(eventHref(event({ kind: "instruction", chatId: 3 }))).toBe("#chats/3");
    expect(eventHref(event({ kind: "model_call" }))).toBeNull();
    expect(eventHref(event({ kind: "approval", approvalId: 5, chatId: 4 }))).toBe("#approvals/5");
    expect(eventHref(event({ kind: "approval", approvalId: null }))).toBe("#approvals");
  });

  it("hides thoughts and model calls unless asked, and the boss's message that repeats the instruction", () => {
    const events = [
      event({ kind: "instruction", text: "Go", chatId: 3 }),
      event({ kind: "message", text: "Go", chatId: 3 }),
      event({ kind: "model_call" }),
      event({ kind: "thought" }),
      event({ kind: "message", text: "Go", chatId: 3, employeeId: 11 }),
    ];
    expect(withoutEcho(events).map((e) => e.kind)).toEqual(["instruction", "model_call", "thought", "message"]);
    expect(visibleEvents(events, false).map((e) => e.kind)).toEqual(["instruction", "message", "message"]);
    expect(visibleEvents(events, true)).toHaveLength(5);
  });

  it("marks failed model calls, and knows when the step cap stopped the work", () => {
    expect(isFailedCall(event({ kind: "model_call", outcome: "breaker_open" }))).toBe(true);
    expect(isFailedCall(event({ kind: "model_call", outcome: "ok" }))).toBe(false);
    expect(isFailedCall(event({ kind: "thought", outcome: "cooldown" }))).toBe(false);
    expect(stoppedAtStepCap(trace([], 14))).toBe(false);
    expect(stoppedAtStepCap(trace([], 15))).toBe(true);
    expect(stoppedAtStepCap(trace([event({ kind: "thought", outcome: "step_cap" })]))).toBe(true);
    expect(stoppedAtStepCap(trace([event({ kind: "mail", outcome: "escalation", text: "Stopped: Go" })]))).toBe(true);
    expect(stoppedAtStepCap(trace([event({ kind: "mail", outcome: "escalation", text: "已暂停：出发" })]))).toBe(true);
    expect(stoppedAtStepCap(trace([event({ kind: "mail", outcome: "escalation", text: "Overdue: Go" })]))).toBe(false);
  });

  it("groups consecutive lines by minute", () => {
    const groups = groupByMinute([
      event({ kind: "instruction", at: "2025-03-01T10:00:05Z" }),
      event({ kind: "message", at: "2025-03-01T10:00:50Z" }),
      event({ kind: "message", at: "2025-03-01T10:02:00Z" }),
    ]);
    expect(groups.map((g) => [g.key, g.events.length])).toEqual([
      ["2025-03-01T10:00", 2],
      ["2025-03-01T10:02", 1],
    ]);
  });
});
