import { describe, expect, it } from "vitest";
import type { ChatMessageDto } from "../bindings/ChatMessageDto";
import type { SenderKind } from "../bindings/SenderKind";
import type { SilenceReason } from "../bindings/SilenceReason";
import type { ThoughtDto } from "../bindings/ThoughtDto";
import { SILENCE_REASONS, THOUGHT_FAILURES, charCount, continuesBlock, entryKey, firstName, formatListTime, preview, silenceKind, timeline } from "./format";

const message = (id: number, createdAt: string, from: number | null = 1, senderKind: SenderKind = "employee"): ChatMessageDto => ({
  id,
  chatId: 1,
  senderKind,
  senderEmployeeId: from,
  senderPersonId: null,
  senderName: from === null ? "" : `P${from}`,
  text: `m${id}`,
  mentions: [],
  traceId: null,
  createdAt,
  correctsId: null,
});

const thought = (id: number, createdAt: string): ThoughtDto => ({
  id,
  employeeId: 2,
  employeeName: "P2",
  chatId: 1,
  innerThoughts: "",
  reason: "",
  shouldSpeak: false,
  spoke: false,
  silencedBy: null,
  interest: null,
  saturation: null,
  perspectiveSeed: "",
  promptTokens: 0,
  createdAt,
});

describe("silenceKind", () => {
  it("places each reason in the list the UI translates it from", () => {
    expect(SILENCE_REASONS.map(silenceKind)).toEqual(SILENCE_REASONS.map(() => "held"));
    expect(THOUGHT_FAILURES.map(silenceKind)).toEqual(THOUGHT_FAILURES.map(() => "failure"));
  });
});

describe("timeline", () => {
  it("interleaves messages and thoughts by time, a thought before a message of the same second", () => {
    const entries = timeline(
      [message(1, "2025-03-01T10:00:00Z"), message(3, "2025-03-01T10:02:00Z")],
      [thought(2, "2025-03-01T10:02:00Z"), thought(4, "2025-03-01T10:01:00Z")],
    );
    expect(entries.map(entryKey)).toEqual(["m1", "t4", "t2", "m3"]);
  });

  it("folds failed thoughts in a row into one entry, per kind of failure", () => {
    const failed = (id: number, at: string, why: SilenceReason) => ({ ...thought(id, at), silencedBy: why, reason: "boom" });
    const entries = timeline(
      [message(10, "2025-03-01T10:05:00Z")],
      [
        failed(1, "2025-03-01T10:01:00Z", "model_error"),
        failed(2, "2025-03-01T10:02:00Z", "model_error"),
        failed(3, "2025-03-01T10:03:00Z", "model_error"),
        failed(4, "2025-03-01T10:04:00Z", "budget"),
        failed(5, "2025-03-01T10:06:00Z", "model_error"),
      ],
    );
    expect(entries.map(entryKey)).toEqual(["f1", "t4", "m10", "t5"]);
    const first = entries[0]!;
    expect(first.kind === "failures" ? [first.failure, first.thoughts.map((t) => t.id)] : null).toEqual(["model_error", [1, 2, 3]]);
  });

  it("groups messages of one sender within five minutes, never system notes or across a thought", () => {
    const [a, b, c, d] = timeline(
      [
        message(1, "2025-03-01T10:00:00Z"),
        message(2, "2025-03-01T10:04:00Z"),
        message(3, "2025-03-01T10:10:00Z"),
        message(4, "2025-03-01T10:10:30Z", null, "system"),
      ],
      [],
    );
    expect(continuesBlock(undefined, a!)).toBe(false);
    expect(continuesBlock(a, b!)).toBe(true);
    expect(continuesBlock(b, c!)).toBe(false);
    expect(continuesBlock(c, d!)).toBe(false);
    const [m, t] = timeline([message(1, "2025-03-01T10:00:00Z")], [thought(2, "2025-03-01T10:00:10Z")]);
    expect(continuesBlock(t, m!)).toBe(false);
  });
});

describe("chat formatting", () => {
  it("shows the hour today, the weekday this week, the date before", () => {
    const now = Date.parse("2025-03-07T15:00:00");
    expect(formatListTime("2025-03-07T09:05:00", now, "en")).toBe("09:05 AM");
    expect(formatListTime("2025-03-05T09:05:00", now, "en")).toBe("Wed");
    expect(formatListTime("2025-02-20T09:05:00", now, "en")).toBe("Feb 20");
    expect(formatListTime("2024-12-20T09:05:00", now, "en")).toBe("Dec 20, 2024");
    expect(formatListTime("not a date", now, "en")).toBe("");
  });

  it("previews one line and cuts long text by characters", () => {
    expect(preview("Hello\n  there")).toBe("Hello there");
    expect(preview("a".repeat(100), 10)).toBe(`${"a".repeat(9)}…`);
    expect(preview("你好世界你好世界", 5)).toBe("你好世界…");
  });

  it("counts characters, not UTF-16 units, and takes first names", () => {
    expect(charCount("😀😀")).toBe(2);
    expect(firstName("Alice Chen")).toBe("Alice");
    expect(firstName("张伟")).toBe("张伟");
  });
});
