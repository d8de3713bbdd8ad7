// Pure, deterministic layout of the relationship graph (d3-force): people who like each other
// sit close, people who don't drift apart. No React, no DOM, no Math.random: the same people and
// relationships always give the same picture, whatever order they come in.
import {
  forceCollide,
  forceLink,
  forceManyBody,
  forceSimulation,
  forceX,
  forceY,
  type SimulationLinkDatum,
  type SimulationNodeDatum,
} from "d3-force";
import { clampAffinity } from "./affinity";

/** Link length for the warmest pair (affinity 100) and the coldest (affinity 1). */
export const LINK_MIN = 170;
export const LINK_MAX = 440;
/** No two people closer than this (centre to centre): room for an avatar and a name under it. */
export const COLLIDE_RADIUS = 78;
/** How hard everyone pushes everyone else away (d3's many-body strength). */
export const CHARGE = -650;
/** A gentle pull to the middle, so people without relationships stay in the picture. */
export const CENTRE_PULL = 0.06;
/** Ticks run synchronously; d3's default cooling reaches its floor (alpha 0.001) at 300. */
export const TICKS = 300;
export const DEFAULT_SEED = 0x2f6b_1d3a;

export interface ForceNodeInput {
  id: number;
}

/** One employee's view of another (directed), as the backend sends it. */
export interface ForceEdgeInput {
  from: number;
  to: number;
  affinity: number;
}

export interface ForcePosition {
  id: number;
  /** Centre of the person's avatar, in graph coordinates; the top-left of the layout is (0, 0). */
  x: number;
  y: number;
}

/** An undirected pair with the mean of the affinities each holds of the other. */
export interface PairLink {
  a: number;
  b: number;
  affinity: number;
}

/** High affinity → short link: 100 → LINK_MIN, 1 → LINK_MAX, linear in between. */
export function linkDistance(affinity: number): number {
  const a = clampAffinity(affinity);
  return LINK_MIN + ((100 - a) / 99) * (LINK_MAX - LINK_MIN);
}

/** High affinity → a stiff link that holds the pair together; a cold one barely pulls. */
export function linkStrength(affinity: number): number {
  const a = clampAffinity(affinity);
  return 0.08 + (a / 100) * 0.72;
}

/**
 * Directed edges folded into undirected pairs (a < b) with their mean affinity, sorted. Edges
 * to people not in `ids`, and anyone's view of themselves, are left out.
 */
export function pairLinks(edges: readonly ForceEdgeInput[], ids: ReadonlySet<number>): PairLink[] {
  const sums = new Map<string, { a: number; b: number; total: number; n: number }>();
  for (const e of edges) {
    if (e.from === e.to || !ids.has(e.from) || !ids.has(e.to)) continue;
    const a = Math.min(e.from, e.to);
    const b = Math.max(e.from, e.to);
    const key = `${a}:${b}`;
    const entry = sums.get(key) ?? { a, b, total: 0, n: 0 };
    entry.total += clampAffinity(e.affinity);
    entry.n += 1;
    sums.set(key, entry);
  }
  return [...sums.values()]
    .map(({ a, b, total, n }) => ({ a, b, affinity: total / n }))
    .sort((x, y) => x.a - y.a || x.b - y.b);
}

/** A 32-bit linear congruential generator (Numerical Recipes constants): d3's jiggle, made repeatable. */
export function lcg(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 4294967296;
  };
}

interface SimNode extends SimulationNodeDatum {
  id: number;
}

type SimLink = SimulationLinkDatum<SimNode> & { affinity: number };

const round = (v: number) => Math.round(v * 10) / 10;

/**
 * Positions for every node: a seeded sunflower spiral to start (by id), then `ticks` steps of
 * links (length and stiffness from affinity), repulsion, collision and a pull to the centre.
 */
export function forceLayout(
  nodes: readonly ForceNodeInput[],
  edges: readonly ForceEdgeInput[],
  options: { ticks?: number; seed?: number } = {},
): ForcePosition[] {
  const ticks = options.ticks ?? TICKS;
  const ids = [...new Set(nodes.map((n) => n.id))].sort((a, b) => a - b);
  if (ids.length === 0) return [];

  // Sunflower (phyllotaxis) placement: evenly spread, no two people on the same spot.
  const golden = Math.PI * (3 - Math.sqrt(5));
  const simNodes: SimNode[] = ids.map((id, i) => {
    const r = 40 * Math.sqrt(i + 0.5);
    return { id, x: r * Math.cos(i * golden), y: r * Math.sin(i * golden) };
  });
  const links: SimLink[] = pairLinks(edges, new Set(ids)).map((p) => ({ source: p.a, target: p.b, affinity: p.affinity }));

  const simulation = forceSimulation<SimNode>(simNodes)
    .randomSource(lcg(options.seed ?? DEFAULT_SEED))
    .force(
      "link",
      forceLink<SimNode, SimLink>(links)
        .id((d) => d.id)
        .distance((l) => linkDistance(l.affinity))
        .strength((l) => linkStrength(l.affinity)),
    )
    .force("charge", forceManyBody<SimNode>().strength(CHARGE).distanceMax(LINK_MAX * 2))
    .force("collide", forceCollide<SimNode>(COLLIDE_RADIUS).iterations(2))
    .force("x", forceX<SimNode>(0).strength(CENTRE_PULL))
    .force("y", forceY<SimNode>(0).strength(CENTRE_PULL))
    // Never on a timer: the caller gets the finished layout.
    .stop();
  simulation.tick(ticks);

  const minX = Math.min(...simNodes.map((n) => n.x ?? 0));
  const minY = Math.min(...simNodes.map((n) => n.y ?? 0));
  return simNodes.map((n) => ({ id: n.id, x: round((n.x ?? 0) - minX), y: round((n.y ?? 0) - minY) }));
}

/** Distance between two laid-out people. */
export function distanceBetween(positions: readonly ForcePosition[], a: number, b: number): number {
  const p = positions.find((x) => x.id === a);
  const q = positions.find((x) => x.id === b);
  if (!p || !q) return Number.NaN;
  return Math.hypot(p.x - q.x, p.y - q.y);
}
