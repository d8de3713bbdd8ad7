import { describe, expect, it } from "vitest";
import { department, employee, fixedOrg } from "../test/fakeFixtures";
import { draftOf, formatCountdown, hireEdits, msUntil, readableDepartment, secretaryExamples, type HireProposal } from "./format";

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

describe("first-run examples", () => {
  const org = (departments: ReturnType<typeof department>[], employees: ReturnType<typeof employee>[] = []) => ({
    ...fixedOrg(),
    departments,
    employees,
  });

  it("reads a department the secretary's rules can read back", () => {
    expect(readableDepartment("Engineering")).toBe(true);
    expect(readableDepartment("工程部")).toBe(true);
    expect(readableDepartment("研发中心")).toBe(true);
    expect(readableDepartment("研发")).toBe(false);
    expect(readableDepartment("engineering")).toBe(false);
  });

  it("uses the company's own departments and people", () => {
    const examples = secretaryExamples(fixedOrg(), false);
    expect(examples[0]).toEqual({ key: "hire", values: { department: "Engineering" } });
    expect(examples[2]).toEqual({ key: "move", values: { name: "Alan Turing", department: "Frontend" } });
    expect(examples[3]).toEqual({ key: "createDepartment", values: { name: "Research" } });
  });

  it("suggests nobody and no department a company does not have", () => {
    // Nothing at all: a hire that needs no department, the budget, a department to create.
    expect(secretaryExamples(org([]), false)).toEqual([
      { key: "hireAnywhere" },
      { key: "status" },
      { key: "budget" },
      { key: "createDepartment", values: { name: "Research" } },
    ]);
    // A department and one person who cannot move anywhere: ask about them instead.
    const one = org([department(5, "研发", null), department(6, "Research", null)], [employee(51, "张伟", 5)]);
    const examples = secretaryExamples(one, true);
    expect(examples[0]).toEqual({ key: "hire", values: { department: "Research" } });
    expect(examples[2]).toEqual({ key: "move", values: { name: "张伟", department: "Research" } });
    expect(examples[3]).toEqual({ key: "createDepartment", values: { name: "研究部" } });
    const alone = org([department(5, "研发", null)], [employee(51, "张伟", 5)]);
    expect(secretaryExamples(alone, true)).toEqual([
      { key: "hireAnywhere" },
      { key: "status" },
      { key: "personStatus", values: { name: "张伟" } },
      { key: "createDepartment", values: { name: "研究部" } },
    ]);
    // A department to create is one the company does not have yet.
    const taken = org([department(1, "Research", null), department(2, "design", null)]);
    expect(secretaryExamples(taken, false)[3]).toEqual({ key: "createDepartment", values: { name: "Growth" } });
  });
});
