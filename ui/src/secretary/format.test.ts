import { describe, expect, it } from "vitest";
import { draftOf, formatCountdown, hireEdits, msUntil, type HireProposal } from "./format";

const proposal: HireProposal = {
  type: "hire",
  name: "Bob Chen",
  title: "Frontend engineer",
  departmentId: 1,
  departmentName: "Engineering",
  managerId: 11,
  managerName: "Grace Hopper",
  archetype: "ultra_grinder",
  skills: ["react"],
};

describe("undo countdown", () => {
  it("counts the milliseconds left until an RFC 3339 instant, never below 0", () => {
    const now = Date.parse("2025-03-01T09:00:00Z");
    expect(msUntil("2025-03-01T09:10:00Z", now)).toBe(600_000);
    expect(msUntil("2025-03-01T09:10:00.500+00:00", now)).toBe(600_500);
    expect(msUntil("2025-03-01T17:05:00+08:00", now)).toBe(300_000);
    expect(msUntil("2025-03-01T08:59:59Z", now)).toBe(0);
    expect(msUntil(null, now)).toBe(0);
    expect(msUntil("soon", now)).toBe(0);
  });

  it("shows m:ss, rounded up so time left never reads 0:00", () => {
    expect(formatCountdown(600_000)).toBe("10:00");
    expect(formatCountdown(599_001)).toBe("10:00");
    expect(formatCountdown(599_000)).toBe("9:59");
    expect(formatCountdown(61_000)).toBe("1:01");
    expect(formatCountdown(1)).toBe("0:01");
    expect(formatCountdown(0)).toBe("0:00");
    expect(formatCountdown(-5)).toBe("0:00");
  });
});

describe("hire edits", () => {
  it("are null when nothing changed (surrounding spaces do not count)", () => {
    expect(hireEdits(proposal, draftOf(proposal))).toBeNull();
    expect(hireEdits(proposal, { ...draftOf(proposal), name: "  Bob Chen " })).toBeNull();
  });

  it("carry only what changed, trimmed; the rest stays null", () => {
    expect(hireEdits(proposal, { ...draftOf(proposal), name: " Bob Li ", departmentId: 3 })).toEqual({
      name: "Bob Li",
      title: null,
      departmentId: 3,
      managerId: null,
      archetype: null,
    });
    expect(hireEdits(proposal, { ...draftOf(proposal), title: "QA engineer", managerId: 21, archetype: "idealist" })).toEqual({
      name: null,
      title: "QA engineer",
      departmentId: null,
      managerId: 21,
      archetype: "idealist",
    });
  });
});
