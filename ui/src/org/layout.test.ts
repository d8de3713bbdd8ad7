import { describe, expect, it } from "vitest";
import { fixedOrg, department, employee } from "../test/fakeFixtures";
import {
  CARD_H,
  CARD_W,
  UNASSIGNED_NODE_ID,
  boxAt,
  dropTarget,
  layoutOrg,
  type DeptBox,
  type EmployeeNode,
  type OrgLayout,
} from "./layout";

/** A readable picture of a layout: one line per box and per card, then the edges. */
function describeLayout(layout: OrgLayout): string[] {
  const lines: string[] = [];
  for (const n of layout.nodes) {
    const where = `${n.position.x},${n.position.y} ${n.width}x${n.height}`;
    if (n.data.kind === "department") lines.push(`box  ${n.id} @ ${where} people=${n.data.headcount}`);
    else lines.push(`card ${n.id} in ${n.parentId} @ ${where} (${n.data.employee.name})`);
  }
  for (const e of layout.edges) lines.push(`edge ${e.source} -> ${e.target}`);
  return lines;
}

const overlaps = (a: DeptBox, b: DeptBox) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

const employeeNodes = (layout: OrgLayout) =>
  layout.nodes.filter((n): n is EmployeeNode => n.data.kind === "employee");

describe("layoutOrg", () => {
  it("lays out the fixed company as recorded", () => {
    expect(describeLayout(layoutOrg(fixedOrg()))).toMatchSnapshot();
  });

  it("draws one box per department plus the Unassigned group, and an edge per parent link", () => {
    const layout = layoutOrg(fixedOrg());
    expect(layout.boxes.map((b) => b.nodeId).sort()).toEqual(["dept-1", "dept-2", "dept-3", UNASSIGNED_NODE_ID].sort());
    expect(layout.edges.map((e) => [e.source, e.target])).toEqual([["dept-1", "dept-2"]]);
    expect(employeeNodes(layout)).toHaveLength(8);
  });

  it("never lets department boxes overlap", () => {
    const { boxes } = layoutOrg(fixedOrg());
    for (const a of boxes) for (const b of boxes) if (a !== b) expect(overlaps(a, b), `${a.nodeId} vs ${b.nodeId}`).toBe(false);
  });

  it("never overlaps boxes in a wide, deep company either", () => {
    const departments = [
      department(1, "A"),
      department(2, "B", 1),
      department(3, "C", 1),
      department(4, "D", 2),
      department(5, "E", 2),
      department(6, "F", 3),
      department(7, "G"),
      department(8, "H", 7),
    ];
    const employees = Array.from({ length: 40 }, (_, i) => employee(100 + i, `P${i}`, (i % 8) + 1));
    const { boxes } = layoutOrg({ departments, employees });
    for (const a of boxes) for (const b of boxes) if (a !== b) expect(overlaps(a, b), `${a.nodeId} vs ${b.nodeId}`).toBe(false);
  });

  it("puts every employee inside their own department's box, cards not overlapping", () => {
    const snapshot = fixedOrg();
    const layout = layoutOrg(snapshot);
    const cards = employeeNodes(layout);
    for (const card of cards) {
      const box = layout.boxes.find((b) => b.nodeId === card.parentId);
      expect(box).toBeDefined();
      if (!box) continue;
      expect(box.departmentId).toBe(card.data.employee.departmentId);
      expect(card.position.x).toBeGreaterThanOrEqual(0);
      expect(card.position.y).toBeGreaterThanOrEqual(0);
      expect(card.position.x + CARD_W).toBeLessThanOrEqual(box.width);
      expect(card.position.y + CARD_H).toBeLessThanOrEqual(box.height);
    }
    for (const a of cards)
      for (const b of cards)
        if (a !== b && a.parentId === b.parentId)
          expect(a.position.x === b.position.x && a.position.y === b.position.y).toBe(false);
  });

  it("is deterministic: same result on every run and whatever the input order", () => {
    const snapshot = fixedOrg();
    const first = layoutOrg(snapshot);
    expect(layoutOrg(snapshot)).toEqual(first);
    const shuffled = {
      departments: [...snapshot.departments].reverse(),
      employees: [snapshot.employees[5]!, ...snapshot.employees.slice(0, 5), ...snapshot.employees.slice(6)].reverse(),
    };
    expect(layoutOrg(shuffled)).toEqual(first);
  });

  it("lists parents before children, as xyflow requires", () => {
    const layout = layoutOrg(fixedOrg());
    const index = new Map(layout.nodes.map((n, i) => [n.id, i]));
    for (const n of layout.nodes) if (n.parentId) expect(index.get(n.parentId)!).toBeLessThan(index.get(n.id)!);
  });

  it("puts the department lead first", () => {
    const layout = layoutOrg(fixedOrg());
    const first = employeeNodes(layout).find((c) => c.parentId === "dept-1");
    expect(first?.data.employee.id).toBe(11);
    expect(first?.data.isLead).toBe(true);
  });

  it("returns nothing for an empty company", () => {
    expect(layoutOrg({ departments: [], employees: [] })).toEqual({ nodes: [], edges: [], boxes: [] });
  });

  it("still shows departments caught in a parent cycle", () => {
    const layout = layoutOrg({ departments: [department(1, "A", 2), department(2, "B", 1)], employees: [] });
    expect(layout.boxes).toHaveLength(2);
  });
});

describe("drop targets", () => {
  const layout = layoutOrg(fixedOrg());
  const box = (id: string) => layout.boxes.find((b) => b.nodeId === id)!;

  it("finds the box under a point", () => {
    const marketing = box("dept-3");
    expect(boxAt(layout.boxes, { x: marketing.x + 5, y: marketing.y + 5 })?.nodeId).toBe("dept-3");
    expect(boxAt(layout.boxes, { x: -1000, y: -1000 })).toBeNull();
  });

  it("maps a card dragged from Engineering onto Marketing to Marketing", () => {
    const from = box("dept-1");
    const to = box("dept-3");
    const relative = { x: to.x - from.x + 20, y: to.y - from.y + 70 };
    expect(dropTarget(layout.boxes, "dept-1", relative)?.departmentId).toBe(3);
  });

  it("maps a drop onto the Unassigned group to a null department", () => {
    const from = box("dept-1");
    const to = box(UNASSIGNED_NODE_ID);
    expect(dropTarget(layout.boxes, "dept-1", { x: to.x - from.x + 16, y: to.y - from.y + 60 })?.departmentId).toBeNull();
  });

  it("returns null for a drop on empty canvas", () => {
    expect(dropTarget(layout.boxes, "dept-1", { x: 0, y: -5000 })).toBeNull();
  });
});
