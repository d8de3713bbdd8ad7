// From the backend's relationship graph to xyflow nodes and edges: filtered by department, laid out
// by forceLayout, coloured by department (people) and affinity (edges). Pure: no React, no DOM.
import { MarkerType, type Edge, type Node } from "@xyflow/react";
import type { GraphEdgeDto } from "../bindings/GraphEdgeDto";
import type { GraphNodeDto } from "../bindings/GraphNodeDto";
import type { RelationshipGraphDto } from "../bindings/RelationshipGraphDto";
import { TONE_COLOUR, affinityTone, clampAffinity, edgeWidth } from "./affinity";
import { forceLayout } from "./forceLayout";

/** A person on the graph: the avatar's centre is the layout point, the name and title hang below. */
export const NODE_W = 136;
export const NODE_H = 92;
/** Avatar (40) + white gap (2×2) + department ring (2×3). */
export const AVATAR_BOX = 50;
export const AVATAR_CENTRE = { x: NODE_W / 2, y: AVATAR_BOX / 2 };
/** Edges stop this far from an avatar's centre, so arrowheads land on the ring. */
export const EDGE_INSET = AVATAR_BOX / 2 + 3;

/** Ring colours per department (by department id order), clear of the edges' red, grey and green. */
export const DEPARTMENT_PALETTE = ["#6366f1", "#0ea5e9", "#f59e0b", "#8b5cf6", "#ec4899", "#14b8a6", "#f97316", "#06b6d4", "#a855f7", "#84cc16"];
export const NO_DEPARTMENT_COLOUR = "#cbd5e1";

export type DepartmentFilter = "all" | "none" | number;

export interface DepartmentEntry {
  id: number | null;
  name: string | null;
  colour: string;
  people: number;
}

/** The departments the graph's people belong to, by id (no department last), each with its colour. */
export function departmentsOf(nodes: readonly GraphNodeDto[]): DepartmentEntry[] {
  const ids = [...new Set(nodes.map((n) => n.departmentId).filter((d): d is number => d !== null))].sort((a, b) => a - b);
  const entries: DepartmentEntry[] = ids.map((id, i) => ({
    id,
    name: nodes.find((n) => n.departmentId === id)?.departmentName ?? null,
    colour: DEPARTMENT_PALETTE[i % DEPARTMENT_PALETTE.length] ?? NO_DEPARTMENT_COLOUR,
    people: nodes.filter((n) => n.departmentId === id).length,
  }));
  const unassigned = nodes.filter((n) => n.departmentId === null).length;
  if (unassigned > 0) entries.push({ id: null, name: null, colour: NO_DEPARTMENT_COLOUR, people: unassigned });
  return entries;
}

export type PersonNodeData = { person: GraphNodeDto; colour: string };
export type PersonNode = Node<PersonNodeData, "person">;

export type AffinityEdgeData = {
  affinity: number;
  impression: string;
  fromName: string;
  toName: string;
  /** The other direction is drawn too: bend this one to its own side. */
  mutual: boolean;
};
export type AffinityEdge = Edge<AffinityEdgeData, "affinity">;

export const personNodeId = (id: number): string => `person-${id}`;

export function matchesFilter(node: GraphNodeDto, filter: DepartmentFilter): boolean {
  if (filter === "all") return true;
  if (filter === "none") return node.departmentId === null;
  return node.departmentId === filter;
}

export interface GraphLayout {
  nodes: PersonNode[];
  edges: AffinityEdge[];
}

/** What a screen reader says for one view ("Alice about Bob: affinity 82. Reliable."). */
export type DescribeView = (view: { fromName: string; toName: string; affinity: number; impression: string }) => string;

/** The graph as xyflow draws it: the people the filter keeps, and the opinions among them. */
export function buildGraph(graph: RelationshipGraphDto, filter: DepartmentFilter, describe: DescribeView): GraphLayout {
  const colours = new Map(departmentsOf(graph.nodes).map((d) => [d.id, d.colour]));
  const people = graph.nodes.filter((n) => matchesFilter(n, filter));
  const ids = new Set(people.map((p) => p.id));
  const byId = new Map(people.map((p) => [p.id, p]));
  const views: GraphEdgeDto[] = graph.edges.filter((e) => e.from !== e.to && ids.has(e.from) && ids.has(e.to));
  const positions = new Map(forceLayout(people, views).map((p) => [p.id, p]));

  const nodes: PersonNode[] = [...people]
    .sort((a, b) => a.id - b.id)
    .map((person) => {
      const at = positions.get(person.id) ?? { x: 0, y: 0 };
      return {
        id: personNodeId(person.id),
        type: "person",
        position: { x: at.x - AVATAR_CENTRE.x, y: at.y - AVATAR_CENTRE.y },
        width: NODE_W,
        height: NODE_H,
        draggable: false,
        connectable: false,
        data: { person, colour: colours.get(person.departmentId) ?? NO_DEPARTMENT_COLOUR },
      };
    });

  const has = new Set(views.map((e) => `${e.from}:${e.to}`));
  const edges: AffinityEdge[] = [...views]
    // Strong feelings are drawn last, on top of the indifferent ones.
    .sort((a, b) => Math.abs(a.affinity - 50) - Math.abs(b.affinity - 50) || a.from - b.from || a.to - b.to)
    .map((e) => {
      const affinity = clampAffinity(e.affinity);
      const colour = TONE_COLOUR[affinityTone(affinity)];
      const fromName = byId.get(e.from)?.name ?? "";
      const toName = byId.get(e.to)?.name ?? "";
      return {
        id: `view-${e.from}-${e.to}`,
        type: "affinity",
        source: personNodeId(e.from),
        target: personNodeId(e.to),
        focusable: true,
        ariaLabel: describe({ fromName, toName, affinity, impression: e.impression }),
        markerEnd: { type: MarkerType.ArrowClosed, color: colour, width: 11, height: 11 },
        style: { stroke: colour, strokeWidth: edgeWidth(affinity) },
        data: { affinity, impression: e.impression, fromName, toName, mutual: has.has(`${e.to}:${e.from}`) },
      };
    });

  return { nodes, edges };
}

export interface EdgeGeometry {
  path: string;
  labelX: number;
  labelY: number;
}

/**
 * A view from one avatar to another: a straight line between the rings, or, when the other
 * person's view is drawn too, a gentle curve to its own right so the two never overlap.
 */
export function edgeGeometry(sx: number, sy: number, tx: number, ty: number, mutual: boolean): EdgeGeometry {
  const dx = tx - sx;
  const dy = ty - sy;
  const length = Math.hypot(dx, dy) || 1;
  const ux = dx / length;
  const uy = dy / length;
  // Right-hand normal (screen coordinates, y down); the reverse edge's right is the other side.
  const nx = -uy;
  const ny = ux;
  const inset = Math.min(EDGE_INSET, length / 3);
  const bend = mutual ? Math.min(18, length / 6) : 0;
  const x1 = sx + ux * inset + nx * bend * 0.6;
  const y1 = sy + uy * inset + ny * bend * 0.6;
  const x2 = tx - ux * inset + nx * bend * 0.6;
  const y2 = ty - uy * inset + ny * bend * 0.6;
  const cx = (sx + tx) / 2 + nx * bend * 2;
  const cy = (sy + ty) / 2 + ny * bend * 2;
  const r = (v: number) => Math.round(v * 10) / 10;
  if (bend === 0) return { path: `M${r(x1)},${r(y1)} L${r(x2)},${r(y2)}`, labelX: r((x1 + x2) / 2), labelY: r((y1 + y2) / 2) };
  return {
    path: `M${r(x1)},${r(y1)} Q${r(cx)},${r(cy)} ${r(x2)},${r(y2)}`,
    // The curve's midpoint (t = ½) of a quadratic Bézier.
    labelX: r((x1 + 2 * cx + x2) / 4),
    labelY: r((y1 + 2 * cy + y2) / 4),
  };
}
