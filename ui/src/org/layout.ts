// Pure, deterministic layout of the org chart: departments as a tree of boxes (d3-hierarchy),
// each box sized by its people, who sit in a grid inside it. No React, no DOM, no randomness.
import { hierarchy, tree, type HierarchyPointNode } from "d3-hierarchy";
import type { Edge, Node } from "@xyflow/react";
import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";

export const CARD_W = 208;
export const CARD_H = 68;
export const CARD_GAP = 12;
export const DEPT_PAD = 16;
export const DEPT_HEADER = 60;
export const DEPT_EMPTY_BODY = 52;
export const DEPT_MIN_W = 2 * DEPT_PAD + CARD_W;
export const MAX_COLS = 3;
/** Horizontal gap between sibling boxes; cousins get a little more so subtrees read as groups. */
export const H_GAP = 48;
export const V_GAP = 80;

export const UNASSIGNED_NODE_ID = "dept-unassigned";

export type DepartmentNodeData = {
  kind: "department";
  /** null for the "Unassigned" group. */
  department: DepartmentDto | null;
  headcount: number;
  subDepartments: number;
};

export type EmployeeNodeData = {
  kind: "employee";
  employee: EmployeeDto;
  isLead: boolean;
};

export type DepartmentNode = Node<DepartmentNodeData, "department">;
export type EmployeeNode = Node<EmployeeNodeData, "employee">;
export type OrgNode = DepartmentNode | EmployeeNode;

/** A department box in absolute chart coordinates. */
export interface DeptBox {
  nodeId: string;
  departmentId: number | null;
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface OrgLayout {
  nodes: OrgNode[];
  edges: Edge[];
  boxes: DeptBox[];
}

export const departmentNodeId = (id: number): string => `dept-${id}`;
export const employeeNodeId = (id: number): string => `emp-${id}`;

interface BoxSpec {
  nodeId: string;
  department: DepartmentDto | null;
  people: EmployeeDto[];
  cols: number;
  width: number;
  height: number;
  children: BoxSpec[];
}

/** Roughly square grids keep boxes compact, so the chart stays readable without zooming far out. */
export function gridColumns(count: number): number {
  if (count <= 1) return 1;
  return Math.min(MAX_COLS, Math.ceil(Math.sqrt(count)));
}

export function boxSize(count: number): { cols: number; width: number; height: number } {
  const cols = gridColumns(count);
  const rows = count === 0 ? 0 : Math.ceil(count / cols);
  const width = Math.max(DEPT_MIN_W, 2 * DEPT_PAD + cols * CARD_W + (cols - 1) * CARD_GAP);
  const body = rows === 0 ? DEPT_EMPTY_BODY : rows * CARD_H + (rows - 1) * CARD_GAP;
  return { cols, width, height: DEPT_HEADER + body + DEPT_PAD };
}

/** Position of the i-th card relative to its department box. */
export function cardPosition(index: number, cols: number): { x: number; y: number } {
  const col = index % cols;
  const row = Math.floor(index / cols);
  return { x: DEPT_PAD + col * (CARD_W + CARD_GAP), y: DEPT_HEADER + row * (CARD_H + CARD_GAP) };
}

const byId = <T extends { id: number }>(a: T, b: T): number => a.id - b.id;

function orderPeople(people: EmployeeDto[], leadId: number | null): EmployeeDto[] {
  return [...people].sort((a, b) => {
    if (a.id === leadId) return -1;
    if (b.id === leadId) return 1;
    return a.id - b.id;
  });
}

export function layoutOrg(snapshot: Pick<OrgSnapshot, "departments" | "employees">): OrgLayout {
  const departments = [...snapshot.departments].sort(byId);
  const known = new Set(departments.map((d) => d.id));

  const peopleByDept = new Map<number | null, EmployeeDto[]>();
  for (const e of [...snapshot.employees].sort(byId)) {
    const key = e.departmentId !== null && known.has(e.departmentId) ? e.departmentId : null;
    const list = peopleByDept.get(key) ?? [];
    list.push(e);
    peopleByDept.set(key, list);
  }

  const childrenOf = new Map<number | null, DepartmentDto[]>();
  for (const d of departments) {
    const parent = d.parentId !== null && known.has(d.parentId) && d.parentId !== d.id ? d.parentId : null;
    const list = childrenOf.get(parent) ?? [];
    list.push(d);
    childrenOf.set(parent, list);
  }

  const visited = new Set<number>();
  const build = (d: DepartmentDto): BoxSpec => {
    visited.add(d.id);
    const people = orderPeople(peopleByDept.get(d.id) ?? [], d.leadId);
    const children = (childrenOf.get(d.id) ?? []).filter((c) => !visited.has(c.id)).map(build);
    return { nodeId: departmentNodeId(d.id), department: d, people, ...boxSize(people.length), children };
  };

  const roots: BoxSpec[] = (childrenOf.get(null) ?? []).map(build);
  // A parent cycle (which the backend forbids) must still not hide departments: show them as roots.
  for (const d of departments) if (!visited.has(d.id)) roots.push(build(d));
  const unassigned = peopleByDept.get(null) ?? [];
  if (unassigned.length > 0) {
    roots.push({
      nodeId: UNASSIGNED_NODE_ID,
      department: null,
      people: unassigned,
      ...boxSize(unassigned.length),
      children: [],
    });
  }

  const nodes: OrgNode[] = [];
  const employeeNodes: EmployeeNode[] = [];
  const edges: Edge[] = [];
  const boxes: DeptBox[] = [];
  if (roots.length === 0) return { nodes, edges, boxes };

  const virtualRoot: BoxSpec = {
    nodeId: "root",
    department: null,
    people: [],
    cols: 1,
    width: 0,
    height: 0,
    children: roots,
  };
  const root = hierarchy(virtualRoot, (b) => b.children);
  const placed = tree<BoxSpec>()
    .nodeSize([1, 1])
    .separation((a, b) => (a.data.width + b.data.width) / 2 + (a.parent === b.parent ? H_GAP : H_GAP * 1.5))(root);

  // Rows by depth: each row is as tall as its tallest box, so boxes of different depths never meet.
  const rowHeight = new Map<number, number>();
  placed.each((n) => rowHeight.set(n.depth, Math.max(rowHeight.get(n.depth) ?? 0, n.data.height)));
  const rowTop = new Map<number, number>();
  let top = 0;
  for (let depth = 1; rowHeight.has(depth); depth++) {
    rowTop.set(depth, top);
    top += (rowHeight.get(depth) ?? 0) + V_GAP;
  }

  const real: HierarchyPointNode<BoxSpec>[] = placed.descendants().filter((n) => n.depth > 0);
  const minLeft = Math.min(...real.map((n) => n.x - n.data.width / 2));

  for (const n of real) {
    const spec = n.data;
    const x = Math.round(n.x - spec.width / 2 - minLeft);
    const y = rowTop.get(n.depth) ?? 0;
    boxes.push({
      nodeId: spec.nodeId,
      departmentId: spec.department?.id ?? null,
      x,
      y,
      width: spec.width,
      height: spec.height,
    });
    nodes.push({
      id: spec.nodeId,
      type: "department",
      position: { x, y },
      width: spec.width,
      height: spec.height,
      draggable: false,
      data: {
        kind: "department",
        department: spec.department,
        headcount: spec.people.length,
        subDepartments: spec.children.length,
      },
    });
    spec.people.forEach((employee, index) => {
      employeeNodes.push({
        id: employeeNodeId(employee.id),
        type: "employee",
        parentId: spec.nodeId,
        position: cardPosition(index, spec.cols),
        width: CARD_W,
        height: CARD_H,
        draggable: true,
        data: { kind: "employee", employee, isLead: spec.department?.leadId === employee.id },
      });
    });
    if (n.parent && n.parent.depth > 0) {
      edges.push({
        id: `edge-${n.parent.data.nodeId}-${spec.nodeId}`,
        source: n.parent.data.nodeId,
        target: spec.nodeId,
        type: "smoothstep",
        selectable: false,
        focusable: false,
      });
    }
  }

  // xyflow wants parents before their children.
  return { nodes: [...nodes, ...employeeNodes], edges, boxes };
}

/** The department box under a point (absolute chart coordinates), if any. */
export function boxAt(boxes: readonly DeptBox[], point: { x: number; y: number }): DeptBox | null {
  return (
    boxes.find(
      (b) => point.x >= b.x && point.x <= b.x + b.width && point.y >= b.y && point.y <= b.y + b.height,
    ) ?? null
  );
}

/**
 * Where a dragged card was dropped: the box under the card's centre, or null when it was
 * dropped on empty canvas. `position` is the card's position relative to `fromNodeId`'s box.
 */
export function dropTarget(
  boxes: readonly DeptBox[],
  fromNodeId: string,
  position: { x: number; y: number },
): DeptBox | null {
  const from = boxes.find((b) => b.nodeId === fromNodeId);
  if (!from) return null;
  return boxAt(boxes, { x: from.x + position.x + CARD_W / 2, y: from.y + position.y + CARD_H / 2 });
}
