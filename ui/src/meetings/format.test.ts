import { describe, expect, it } from "vitest";
import type { DecisionDto } from "../bindings/DecisionDto";
import { chainActor, formatWeight, orderDecisions } from "./format";

const decision = (id: number, fields: Partial<DecisionDto> = {}): DecisionDto => ({
  id,
  question: `Question ${id}`,
  decisionType: "tech",
  outcome: "approved",
  decidedByKind: "lead",
  decidedByName: "Grace Hopper",
  status: "decided",
  authorizationChain: [],
  traceId: null,
  createdAt: "2025-03-01T10:00:00Z",
  ...fields,
});

describe("meeting format", () => {
  it("puts what waits for the boss first, then the newest, the later id first at the same instant", () => {
    const ordered = orderDecisions([
      decision(1, { createdAt: "2025-03-01T10:00:00Z" }),
      decision(2, { createdAt: "2025-03-01T09:00:00Z", status: "escalated", outcome: "escalated" }),
      decision(3, { createdAt: "2025-03-01T11:00:00Z" }),
      decision(4, { createdAt: "2025-03-01T11:00:00Z" }),
    ]);
    expect(ordered.map((d) => d.id)).toEqual([2, 4, 3, 1]);
  });

  it("writes a vote's weight plainly", () => {
    expect(formatWeight(2)).toBe("2");
    expect(formatWeight(1.5)).toBe("1.5");
    expect(formatWeight(1.0000001)).toBe("1");
    expect(formatWeight(2.345)).toBe("2.35");
  });

  it("tells the boss, the secretary and the vote apart from people", () => {
    const link = { role: "decided" as const, rule: "", weight: null };
    expect(chainActor({ ...link, who: "secretary", employeeId: null })).toBe("secretary");
    expect(chainActor({ ...link, who: "vote", employeeId: null })).toBe("vote");
    expect(chainActor({ ...link, who: "boss", employeeId: null })).toBe("boss");
    expect(chainActor({ ...link, who: "Grace Hopper", employeeId: 11 })).toBeNull();
    // Someone who happens to be called "vote" is still a person.
    expect(chainActor({ ...link, who: "vote", employeeId: 7 })).toBeNull();
  });
});
