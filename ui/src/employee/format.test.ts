import { describe, expect, it } from "vitest";
import type { MemoryDto } from "../bindings/MemoryDto";
import { clampPercent, comfortLabel, filterMemories, formatRelative, taskUrgency, zoneOf } from "./format";

const memory = (id: number, kind: MemoryDto["kind"], importance: number, createdAt = "2025-03-01T10:00:00Z"): MemoryDto => ({
  id,
  kind,
  content: `memory ${id}`,
  importance,
  visibility: "private",
  expiresAt: null,
  createdAt,
});

describe("profile formatting", () => {
  it("puts comfort in the zones of SPEC §7, and never shows a number of another zone", () => {
    expect(zoneOf(70.1)).toBe("green");
    expect(zoneOf(70)).toBe("yellow");
    expect(zoneOf(40)).toBe("yellow");
    expect(zoneOf(39.9)).toBe("red");
    expect(comfortLabel(39.6, "red")).toBe(39);
    expect(comfortLabel(70.4, "green")).toBe(71);
    expect(comfortLabel(55.5, "yellow")).toBe(56);
    expect(comfortLabel(-12, "red")).toBe(0);
    expect(clampPercent(140)).toBe(100);
  });

  it("filters memories by kind, the most important first", () => {
    const all = [memory(1, "long_term", 3), memory(2, "short_term", 9), memory(3, "long_term", 8), memory(4, "long_term", 8, "2025-03-02T10:00:00Z")];
    expect(filterMemories(all, "all").map((m) => m.id)).toEqual([2, 4, 3, 1]);
    expect(filterMemories(all, "long_term").map((m) => m.id)).toEqual([4, 3, 1]);
    expect(filterMemories(all, "short_term").map((m) => m.id)).toEqual([2]);
  });

  it("says when in words", () => {
    const now = Date.parse("2025-03-01T10:00:00Z");
    expect(formatRelative("2025-03-01T15:00:00Z", now, "en")).toBe("in 5 hours");
    expect(formatRelative("2025-02-27T10:00:00Z", now, "en")).toBe("2 days ago");
    expect(formatRelative("2025-03-01T10:00:20Z", now, "en")).toBe("this minute");
    expect(formatRelative("2025-03-01T15:00:00Z", now, "zh-CN")).toBe("5小时后");
  });

  it("ages tasks as SPEC §6 does", () => {
    const now = Date.parse("2025-03-01T10:00:00Z");
    const minutesAgo = (m: number) => new Date(now - m * 60_000).toISOString();
    expect(taskUrgency(minutesAgo(4), now)).toBe("normal");
    expect(taskUrgency(minutesAgo(5), now)).toBe("aging");
    expect(taskUrgency(minutesAgo(15), now)).toBe("overdue");
    expect(taskUrgency(minutesAgo(30), now)).toBe("overdue");
    expect(taskUrgency(minutesAgo(31), now)).toBe("critical");
  });
});
