import { describe, expect, it } from "vitest";
import {
  LINK_MAX,
  LINK_MIN,
  distanceBetween,
  forceLayout,
  lcg,
  linkDistance,
  linkStrength,
  pairLinks,
  type ForceEdgeInput,
} from "./forceLayout";

/** The fixed company's people (ids as in test/fixtures fixedOrg) and what some of them think of each other. */
const people = [11, 12, 13, 21, 22, 31, 32, 41].map((id) => ({ id }));
const views: ForceEdgeInput[] = [
  { from: 11, to: 12, affinity: 82 },
  { from: 12, to: 11, affinity: 76 },
  { from: 11, to: 13, affinity: 35 },
  { from: 13, to: 11, affinity: 28 },
  { from: 12, to: 21, affinity: 64 },
  { from: 21, to: 22, affinity: 91 },
  { from: 22, to: 21, affinity: 88 },
  { from: 31, to: 32, affinity: 55 },
  { from: 32, to: 31, affinity: 47 },
  { from: 22, to: 31, affinity: 12 },
];

describe("forceLayout", () => {
  it("lays out the fixed company as recorded", () => {
    const lines = forceLayout(people, views).map((p) => `${p.id} @ ${p.x},${p.y}`);
    expect(lines).toMatchSnapshot();
  });

  it("is deterministic: the same result on every run and whatever the input order", () => {
    const first = forceLayout(people, views);
    expect(forceLayout(people, views)).toEqual(first);
    expect(forceLayout([...people].reverse(), [...views].reverse())).toEqual(first);
  });

  it("puts a warm pair closer together than a cold one, link lengths following affinity", () => {
    // Two separate pairs, alike in everything but how they feel about each other.
    const positions = forceLayout(
      [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }],
      [
        { from: 1, to: 2, affinity: 95 },
        { from: 2, to: 1, affinity: 95 },
        { from: 3, to: 4, affinity: 10 },
        { from: 4, to: 3, affinity: 10 },
      ],
    );
    const warm = distanceBetween(positions, 1, 2);
    const cold = distanceBetween(positions, 3, 4);
    expect(warm).toBeLessThan(cold);
    expect(cold - warm).toBeGreaterThan(100);
    // Close to the link lengths their affinities ask for (the other pair's push stretches them a little).
    expect(warm).toBeGreaterThan(linkDistance(95) - 10);
    expect(warm).toBeLessThan(linkDistance(95) + 60);
  });

  it("orders a star's spokes by affinity: the warmest nearest the centre", () => {
    const positions = forceLayout(
      [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }],
      [
        { from: 1, to: 2, affinity: 90 },
        { from: 1, to: 3, affinity: 50 },
        { from: 1, to: 4, affinity: 5 },
      ],
    );
    const toWarm = distanceBetween(positions, 1, 2);
    const toNeutral = distanceBetween(positions, 1, 3);
    const toCold = distanceBetween(positions, 1, 4);
    expect(toWarm).toBeLessThan(toNeutral);
    expect(toNeutral).toBeLessThan(toCold);
  });

  it("keeps people apart and the layout's top-left at the origin", () => {
    const positions = forceLayout(people, views);
    expect(positions.map((p) => p.id)).toEqual([11, 12, 13, 21, 22, 31, 32, 41]);
    expect(Math.min(...positions.map((p) => p.x))).toBe(0);
    expect(Math.min(...positions.map((p) => p.y))).toBe(0);
    for (const a of positions)
      for (const b of positions) if (a !== b) expect(distanceBetween(positions, a.id, b.id), `${a.id}–${b.id}`).toBeGreaterThan(100);
  });

  it("handles nobody, one person, and edges to people who are not there", () => {
    expect(forceLayout([], views)).toEqual([]);
    expect(forceLayout([{ id: 5 }], [{ from: 5, to: 6, affinity: 90 }])).toEqual([{ id: 5, x: 0, y: 0 }]);
  });
});

describe("link rules", () => {
  it("maps affinity onto length (short when warm) and stiffness (strong when warm)", () => {
    expect(linkDistance(100)).toBe(LINK_MIN);
    expect(linkDistance(1)).toBe(LINK_MAX);
    expect(linkDistance(80)).toBeLessThan(linkDistance(50));
    expect(linkDistance(50)).toBeLessThan(linkDistance(20));
    expect(linkStrength(90)).toBeGreaterThan(linkStrength(50));
    expect(linkStrength(50)).toBeGreaterThan(linkStrength(10));
    // Out-of-range values count as the scale's ends.
    expect(linkDistance(500)).toBe(LINK_MIN);
    expect(linkDistance(-20)).toBe(LINK_MAX);
  });

  it("folds the two directions of a pair into one link with their mean affinity", () => {
    expect(pairLinks(views, new Set([11, 12, 13]))).toEqual([
      { a: 11, b: 12, affinity: 79 },
      { a: 11, b: 13, affinity: 31.5 },
    ]);
    expect(pairLinks([{ from: 3, to: 3, affinity: 90 }], new Set([3]))).toEqual([]);
  });

  it("draws the same numbers from the same seed", () => {
    const a = lcg(42);
    const b = lcg(42);
    const first = [a(), a(), a()];
    expect([b(), b(), b()]).toEqual(first);
    for (const v of first) expect(v >= 0 && v < 1).toBe(true);
    expect(lcg(43)()).not.toBe(first[0]);
  });
});
