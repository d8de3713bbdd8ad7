import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { Fake } from "../test/fake";
import { fixedOrg, graphOf, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";
import { TONE_COLOUR } from "./affinity";
import { buildGraph, departmentsOf, edgeGeometry } from "./graph";

/**
 * The fixed company with opinions inside Engineering (11, 12, 13), inside Frontend (21, 22), and
 * across departments (22 → 31).
 */
function withRelationships() {
  const org = fixedOrg();
  const graph = graphOf(org, [
    [11, 12, 82, "Sharp and thorough."],
    [12, 11, 76, "Decisive lead."],
    [11, 13, 35, "Dismissive in reviews."],
    [21, 22, 91, "Fast and careful."],
    [22, 31, 12, "Promised a date without asking us."],
  ]);
  return new Fake(world(org)).answer("relationshipGraph", graph);
}

/** Chart nodes are clicked with a bare click event (see OrgChartPage.test.tsx: d3-zoom needs a view). */
const clickNode = (element: HTMLElement) => fireEvent.click(element);

describe("relationship graph page", () => {
  beforeEach(() => window.history.replaceState(null, "", "#relationships"));

  it("is in the navigation and draws every current employee as a node", async () => {
    withRelationships().install();
    renderApp();
    expect(await screen.findByTestId("relationship-graph")).toBeInTheDocument();
    expect(screen.getByTestId("nav-relationships")).toHaveAttribute("aria-current", "page");
    expect(screen.getByTestId("nav-relationships")).toHaveAttribute("href", "#relationships");
    for (const e of fixedOrg().employees) {
      const node = screen.getByTestId(`graph-node-${e.id}`);
      expect(node).toHaveTextContent(e.name);
      expect(node).toHaveTextContent(e.title);
    }
    expect(screen.getByTestId("graph-summary")).toHaveTextContent("8 people · 5 opinions");
    expect(screen.getByTestId("graph-legend")).toHaveTextContent("Warm (over 70)");
    expect(screen.getByTestId("graph-legend")).toHaveTextContent("Marketing");
  });

  it("filters by department: only its people and the opinions among them", async () => {
    withRelationships().install();
    const { user } = renderApp();
    const select = await screen.findByTestId("graph-department-filter");
    expect(within(select).getAllByRole("option").map((o) => o.textContent)).toEqual([
      "All departments",
      "Engineering",
      "Frontend",
      "Marketing",
      "Unassigned",
    ]);

    await user.selectOptions(select, "1");
    await waitFor(() => expect(screen.queryByTestId("graph-node-21")).not.toBeInTheDocument());
    for (const id of [11, 12, 13]) expect(screen.getByTestId(`graph-node-${id}`)).toBeInTheDocument();
    for (const id of [21, 22, 31, 32, 41]) expect(screen.queryByTestId(`graph-node-${id}`)).not.toBeInTheDocument();
    expect(screen.getByTestId("graph-summary")).toHaveTextContent("3 people · 3 opinions");

    await user.selectOptions(select, "3");
    expect(await screen.findByTestId("graph-node-31")).toBeInTheDocument();
    expect(screen.getByTestId("graph-summary")).toHaveTextContent("2 people · 0 opinions");
    expect(screen.getByTestId("graph-filter-empty")).toHaveTextContent("No relationships inside this department yet.");

    await user.selectOptions(select, "all");
    expect(await screen.findByTestId("graph-node-21")).toBeInTheDocument();
  });

  it("opens a person's profile on click", async () => {
    withRelationships().install();
    renderApp();
    clickNode(await screen.findByTestId("graph-node-12"));
    await waitFor(() => expect(window.location.hash).toBe("#employee/12"));
    expect(await screen.findByTestId("profile-name")).toHaveTextContent("Alan Turing");
  });

  it("makes each person a link to their profile, for the keyboard", async () => {
    withRelationships().install();
    renderApp();
    const node = await screen.findByTestId("graph-node-22");
    expect(node.tagName).toBe("A");
    expect(node).toHaveAttribute("href", "#employee/22");
    expect(node).toHaveAccessibleName("张伟, 前端工程师: open profile");
  });

  it("says relationships form as people talk when there are none yet", async () => {
    new Fake(world()).install();
    renderApp();
    const empty = await screen.findByTestId("graph-empty");
    expect(empty).toHaveTextContent("Relationships form as people talk");
    expect(screen.queryByTestId("relationship-graph")).not.toBeInTheDocument();
  });

  it("redraws when an employee's mind changes (domain event)", async () => {
    const org = fixedOrg();
    const backend = new Fake(world(org)).install();
    renderApp();
    await screen.findByTestId("graph-empty");
    backend.answer("relationshipGraph", graphOf(org, [[31, 32, 55, "Talented."]]));
    backend.emit({ type: "mind_changed", employeeId: 31 });
    expect(await screen.findByTestId("graph-node-31")).toBeInTheDocument();
    expect(screen.getByTestId("graph-summary")).toHaveTextContent("8 people · 1 opinion");
  });
});

describe("graph elements", () => {
  const graph = {
    nodes: fixedOrg().employees.map((e) => ({
      id: e.id,
      name: e.name,
      title: e.title,
      departmentId: e.departmentId,
      departmentName: fixedOrg().departments.find((d) => d.id === e.departmentId)?.name ?? null,
    })),
    edges: [
      { from: 11, to: 12, affinity: 82, impression: "Sharp." },
      { from: 12, to: 11, affinity: 50, impression: "" },
      { from: 11, to: 13, affinity: 20, impression: "Rude." },
    ],
  };
  const describeView = ({ fromName, toName, affinity }: { fromName: string; toName: string; affinity: number }) =>
    `${fromName}→${toName} ${affinity}`;

  it("colours and sizes each view by affinity: green and thick when warm, grey and thin when neutral, red when cold", () => {
    const { edges } = buildGraph(graph, "all", describeView);
    const byId = new Map(edges.map((e) => [e.id, e]));
    expect(byId.get("view-11-12")?.style).toEqual({ stroke: TONE_COLOUR.warm, strokeWidth: 1 + (32 / 50) * 3 });
    expect(byId.get("view-12-11")?.style).toEqual({ stroke: TONE_COLOUR.neutral, strokeWidth: 1 });
    expect(byId.get("view-11-13")?.style).toEqual({ stroke: TONE_COLOUR.cold, strokeWidth: 1 + (30 / 50) * 3 });
    expect(byId.get("view-11-12")?.data?.mutual).toBe(true);
    expect(byId.get("view-11-13")?.data?.mutual).toBe(false);
    expect(byId.get("view-11-12")?.ariaLabel).toBe("Grace Hopper→Alan Turing 82");
    // Strong feelings are drawn last, on top.
    expect(edges.map((e) => e.id)).toEqual(["view-12-11", "view-11-13", "view-11-12"]);
  });

  it("gives every department its own colour, no department last", () => {
    const departments = departmentsOf(graph.nodes);
    expect(departments.map((d) => [d.id, d.name, d.people])).toEqual([
      [1, "Engineering", 3],
      [2, "Frontend", 2],
      [3, "Marketing", 2],
      [null, null, 1],
    ]);
    expect(new Set(departments.map((d) => d.colour)).size).toBe(4);
  });

  it("runs an edge from ring to ring, bending the two directions of a pair apart", () => {
    const straight = edgeGeometry(0, 0, 200, 0, false);
    expect(straight.path).toBe("M28,0 L172,0");
    const there = edgeGeometry(0, 0, 200, 0, true);
    const back = edgeGeometry(200, 0, 0, 0, true);
    expect(there.labelY).toBeGreaterThan(0);
    expect(back.labelY).toBeLessThan(0);
  });
});
