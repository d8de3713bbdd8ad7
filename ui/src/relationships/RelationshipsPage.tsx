import {
  Background,
  BackgroundVariant,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useEdgesState,
  type NodeMouseHandler,
} from "@xyflow/react";
import { useEffect, useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { RelationshipGraphDto } from "../bindings/RelationshipGraphDto";
import { GraphIcon } from "../components/icons";
import { ErrorState, LoadingState, inputClass } from "../components/ui";
import { useRelationshipGraph } from "../ipc/queries";
import { ZoomControls } from "../org/OrgChart";
import { navigate, routeHref } from "../shell/route";
import { AFFINITY_TONES, TONE_COLOUR } from "./affinity";
import { GraphFocusContext, edgeTypes, nodeTypes, type GraphFocus } from "./elements";
import { useFlowAriaLabels } from "../components/flowLabels";
import {
  buildGraph,
  departmentsOf,
  matchesFilter,
  personNodeId,
  type AffinityEdge,
  type DepartmentEntry,
  type DepartmentFilter,
  type PersonNode,
} from "./graph";

const FIT_VIEW = { padding: 0.15, maxZoom: 1.1, minZoom: 0.3 } as const;

/** `#relationships`: people as nodes, what each thinks of the others as arrows coloured by affinity. */
export function RelationshipsPage() {
  const graph = useRelationshipGraph();
  if (graph.isPending) return <LoadingState className="h-full" />;
  if (graph.isError) return <ErrorState className="h-full" error={graph.error} onRetry={() => void graph.refetch()} />;
  return <GraphView graph={graph.data} />;
}

const filterValue = (f: DepartmentFilter): string => String(f);
const parseFilter = (v: string): DepartmentFilter => (v === "all" || v === "none" ? v : Number(v));
const entryFilter = (d: DepartmentEntry): DepartmentFilter => d.id ?? "none";

function GraphView({ graph }: { graph: RelationshipGraphDto }) {
  const { t } = useTranslation();
  const selectId = useId();
  const [chosen, setChosen] = useState<DepartmentFilter>("all");
  const departments = useMemo(() => departmentsOf(graph.nodes), [graph.nodes]);
  // A department that is gone (deleted, emptied) falls back to everyone.
  const filter = chosen === "all" || departments.some((d) => entryFilter(d) === chosen) ? chosen : "all";
  const departmentName = (d: DepartmentEntry) => d.name ?? t("org.unassigned");

  const layout = useMemo(
    () =>
      buildGraph(graph, filter, ({ fromName, toName, affinity, impression }) =>
        impression
          ? t("graph.viewLabelWithImpression", { from: fromName, to: toName, affinity, impression })
          : t("graph.viewLabel", { from: fromName, to: toName, affinity }),
      ),
    [graph, filter, t],
  );

  const people = graph.nodes.filter((n) => matchesFilter(n, filter)).length;
  const noRelationships = graph.edges.length === 0;

  return (
    <div data-testid="relationships-page" className="flex h-full min-h-0 flex-col">
      <div className="flex shrink-0 flex-wrap items-center justify-between gap-4 border-b border-slate-200 bg-white/60 px-6 py-3">
        <div>
          <h2 className="text-lg font-semibold tracking-tight text-slate-900">{t("graph.title")}</h2>
          <p data-testid="graph-summary" className="text-xs text-slate-500">
            {t("org.peopleCount", { count: people })} · {t("graph.viewCount", { count: layout.edges.length })}
          </p>
        </div>
        {!noRelationships && departments.length > 0 && (
          <div className="flex items-center gap-2">
            <label htmlFor={selectId} className="text-sm font-medium whitespace-nowrap text-slate-600">
              {t("graph.department")}
            </label>
            <select
              id={selectId}
              data-testid="graph-department-filter"
              className={`${inputClass} w-56`}
              value={filterValue(filter)}
              onChange={(e) => setChosen(parseFilter(e.target.value))}
            >
              <option value="all">{t("graph.allDepartments")}</option>
              {departments.map((d) => (
                <option key={filterValue(entryFilter(d))} value={filterValue(entryFilter(d))}>
                  {departmentName(d)}
                </option>
              ))}
            </select>
          </div>
        )}
      </div>

      <div className="relative min-h-0 flex-1">
        {noRelationships ? (
          <EmptyGraph hasPeople={graph.nodes.length > 0} />
        ) : (
          // A new department is a new picture: a fresh chart, framed to fit.
          <ReactFlowProvider key={filterValue(filter)}>
            <Graph layout={layout} departments={departments} departmentName={departmentName} />
            {layout.edges.length === 0 && (
              <div className="pointer-events-none absolute inset-x-0 top-10 flex justify-center">
                <p
                  data-testid="graph-filter-empty"
                  className="rounded-xl bg-white px-4 py-2.5 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200"
                >
                  {t("graph.noneInDepartment")}
                </p>
              </div>
            )}
          </ReactFlowProvider>
        )}
      </div>
    </div>
  );
}

function Graph({
  layout,
  departments,
  departmentName,
}: {
  layout: ReturnType<typeof buildGraph>;
  departments: DepartmentEntry[];
  departmentName: (d: DepartmentEntry) => string;
}) {
  const { t } = useTranslation();
  const flowLabels = useFlowAriaLabels();
  const [edges, setEdges, onEdgesChange] = useEdgesState(layout.edges);
  const [hovered, setHovered] = useState<number | null>(null);

  // New data (a relationship changed): new edges; a click-selected edge stays shown only if it still exists.
  useEffect(() => setEdges(layout.edges), [layout, setEdges]);

  const focus = useMemo<GraphFocus>(() => {
    if (hovered === null) return { personId: null, neighbours: new Set() };
    const neighbours = new Set<number>();
    const me = personNodeId(hovered);
    for (const n of layout.nodes) {
      const them = n.id;
      if (layout.edges.some((e) => (e.source === me && e.target === them) || (e.target === me && e.source === them))) {
        neighbours.add(n.data.person.id);
      }
    }
    return { personId: hovered, neighbours };
  }, [hovered, layout.edges]);

  const onNodeClick: NodeMouseHandler<PersonNode> = (_, node) => navigate({ page: "employee", employeeId: node.data.person.id });

  return (
    <GraphFocusContext.Provider value={focus}>
      <div data-testid="relationship-graph" role="region" aria-label={t("graph.chartLabel")} className="h-full w-full">
        <ReactFlow<PersonNode, AffinityEdge>
          nodes={layout.nodes}
          edges={edges}
          nodeTypes={nodeTypes}
          edgeTypes={edgeTypes}
          onEdgesChange={onEdgesChange}
          onNodeClick={onNodeClick}
          onNodeMouseEnter={(_, node) => setHovered(node.data.person.id)}
          onNodeMouseLeave={() => setHovered(null)}
          nodesDraggable={false}
          nodesConnectable={false}
          nodesFocusable={false}
          edgesFocusable
          elementsSelectable
          fitView
          fitViewOptions={FIT_VIEW}
          minZoom={0.2}
          maxZoom={1.75}
          attributionPosition="top-right"
          ariaLabelConfig={flowLabels}
        >
          <Background variant={BackgroundVariant.Dots} gap={20} size={1} color="#cbd5e1" />
          <Panel position="bottom-left">
            <ZoomControls fitViewOptions={FIT_VIEW} />
          </Panel>
          <Panel position="bottom-right">
            <Legend departments={departments} departmentName={departmentName} />
          </Panel>
          <Panel position="bottom-center">
            <p className="rounded-full bg-white/85 px-3 py-1 text-xs whitespace-nowrap text-slate-500 shadow-sm ring-1 ring-slate-200 backdrop-blur">
              {t("graph.hint")}
            </p>
          </Panel>
        </ReactFlow>
      </div>
    </GraphFocusContext.Provider>
  );
}

function Legend({ departments, departmentName }: { departments: DepartmentEntry[]; departmentName: (d: DepartmentEntry) => string }) {
  const { t } = useTranslation();
  return (
    <div data-testid="graph-legend" className="w-52 rounded-lg bg-white/95 px-3 py-2.5 text-xs shadow-sm ring-1 ring-slate-200 backdrop-blur">
      <p className="font-semibold text-slate-700">{t("graph.legend.affinity")}</p>
      <ul className="mt-1.5 space-y-1">
        {AFFINITY_TONES.map((tone) => (
          <li key={tone} className="flex items-center gap-2 text-slate-600">
            <svg width="22" height="8" aria-hidden="true" className="shrink-0">
              <line x1="1" y1="4" x2="21" y2="4" stroke={TONE_COLOUR[tone]} strokeWidth={tone === "neutral" ? 1.5 : 3} strokeLinecap="round" />
            </svg>
            {t(`graph.legend.${tone}`)}
          </li>
        ))}
      </ul>
      <p className="mt-1.5 text-[11px] leading-snug text-slate-400">{t("graph.legend.arrow")}</p>
      {departments.length > 0 && (
        <>
          <p className="mt-2.5 font-semibold text-slate-700">{t("graph.legend.departments")}</p>
          <ul className="mt-1.5 max-h-32 space-y-1 overflow-y-auto">
            {departments.map((d) => (
              <li key={d.id ?? "none"} className="flex items-center gap-2 text-slate-600">
                <span aria-hidden="true" className="size-2.5 shrink-0 rounded-full" style={{ backgroundColor: d.colour }} />
                <span className="truncate">{departmentName(d)}</span>
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

function EmptyGraph({ hasPeople }: { hasPeople: boolean }) {
  const { t } = useTranslation();
  return (
    <div data-testid="graph-empty" className="flex h-full items-center justify-center p-8">
      <div className="max-w-sm text-center">
        <div className="mx-auto flex size-12 items-center justify-center rounded-xl bg-white text-slate-500 shadow-sm ring-1 ring-slate-200">
          <GraphIcon width={24} height={24} />
        </div>
        <h3 className="mt-4 text-base font-semibold text-slate-900">{t("graph.empty.title")}</h3>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-500">
          {hasPeople ? t("graph.empty.body") : t("graph.empty.bodyNoPeople")}
        </p>
        <a
          href={hasPeople ? routeHref({ page: "chats", chatId: null }) : routeHref({ page: "secretary" })}
          className="mt-5 inline-flex h-9 items-center justify-center rounded-lg bg-white px-3.5 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-300 transition-colors ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          {hasPeople ? t("graph.empty.openChats") : t("graph.empty.hire")}
        </a>
      </div>
    </div>
  );
}
