import {
  Background,
  BackgroundVariant,
  MiniMap,
  Panel,
  ReactFlow,
  ReactFlowProvider,
  useNodesState,
  useReactFlow,
  type FitViewOptions,
  type NodeMouseHandler,
  type OnNodeDrag,
} from "@xyflow/react";
import { useEffect, useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { FitIcon, MinusIcon, PlusIcon } from "../components/icons";
import { dropTarget, layoutOrg, type OrgNode } from "./layout";
import { ChartContext, nodeTypes, type ChartState } from "./nodes";
import { useFlowAriaLabels } from "../components/flowLabels";

// Never shrink text below readable size when framing; a bigger company pans instead.
const FIT_VIEW = { padding: 0.1, maxZoom: 1, minZoom: 0.7 } as const;

export interface OrgChartProps {
  snapshot: OrgSnapshot;
  selectedNodeId: string | null;
  onSelectEmployee: (id: number) => void;
  onSelectDepartment: (id: number) => void;
  onClearSelection: () => void;
  /** A card was dropped on another department (null: the Unassigned group). */
  onMoveEmployee: (employeeId: number, departmentId: number | null) => void;
}

export function OrgChart(props: OrgChartProps) {
  return (
    <ReactFlowProvider>
      <Chart {...props} />
    </ReactFlowProvider>
  );
}

/** Zoom in, out and fit: for any xyflow chart (inside its ReactFlowProvider). */
export function ZoomControls({ fitViewOptions = FIT_VIEW }: { fitViewOptions?: FitViewOptions }) {
  const { t } = useTranslation();
  const flow = useReactFlow();
  const button =
    "flex size-8 items-center justify-center text-slate-600 hover:bg-slate-50 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500";
  return (
    <div className="flex flex-col divide-y divide-slate-200 overflow-hidden rounded-lg bg-white shadow-sm ring-1 ring-slate-200">
      <button type="button" className={button} aria-label={t("org.zoomIn")} title={t("org.zoomIn")} onClick={() => void flow.zoomIn({ duration: 150 })}>
        <PlusIcon />
      </button>
      <button type="button" className={button} aria-label={t("org.zoomOut")} title={t("org.zoomOut")} onClick={() => void flow.zoomOut({ duration: 150 })}>
        <MinusIcon />
      </button>
      <button
        type="button"
        className={button}
        aria-label={t("org.fitView")}
        title={t("org.fitView")}
        onClick={() => void flow.fitView({ ...fitViewOptions, duration: 200 })}
      >
        <FitIcon />
      </button>
    </div>
  );
}

function Chart({
  snapshot,
  selectedNodeId,
  onSelectEmployee,
  onSelectDepartment,
  onClearSelection,
  onMoveEmployee,
}: OrgChartProps) {
  const { t } = useTranslation();
  const flowLabels = useFlowAriaLabels();
  const flow = useReactFlow();
  const layout = useMemo(() => layoutOrg(snapshot), [snapshot]);
  const [nodes, setNodes, onNodesChange] = useNodesState<OrgNode>(layout.nodes);
  const [dropTargetNodeId, setDropTargetNodeId] = useState<string | null>(null);

  // The layout is the truth: whenever the org changes, every card goes back to its place.
  useEffect(() => setNodes(layout.nodes), [layout, setNodes]);

  // Re-frame when boxes come, go or change size, so nothing new ends up off screen. The first
  // frame is handled by the `fitView` prop once the nodes are measured.
  const shape = layout.boxes.map((b) => `${b.nodeId}:${b.x},${b.y},${b.width},${b.height}`).join(";");
  const firstShape = useRef(shape);
  useEffect(() => {
    if (shape === firstShape.current) return;
    firstShape.current = "";
    const frame = requestAnimationFrame(() => void flow.fitView({ ...FIT_VIEW, duration: 250 }));
    return () => cancelAnimationFrame(frame);
  }, [shape, flow]);

  const chartState: ChartState = useMemo(
    () => ({ selectedNodeId, dropTargetNodeId, selectEmployee: onSelectEmployee, selectDepartment: onSelectDepartment }),
    [selectedNodeId, dropTargetNodeId, onSelectEmployee, onSelectDepartment],
  );

  const onNodeClick: NodeMouseHandler<OrgNode> = (_, node) => {
    if (node.data.kind === "employee") onSelectEmployee(node.data.employee.id);
    else if (node.data.department) onSelectDepartment(node.data.department.id);
  };

  const targetOf = (node: OrgNode) => {
    if (node.data.kind !== "employee" || !node.parentId) return null;
    const target = dropTarget(layout.boxes, node.parentId, node.position);
    return target && target.nodeId !== node.parentId ? target : null;
  };

  // The card being dragged floats above every box and every other card.
  const onNodeDragStart: OnNodeDrag<OrgNode> = (_, node) =>
    setNodes((current) => current.map((n) => (n.id === node.id ? { ...n, zIndex: 1000 } : n)));

  const onNodeDrag: OnNodeDrag<OrgNode> = (_, node) => setDropTargetNodeId(targetOf(node)?.nodeId ?? null);

  const onNodeDragStop: OnNodeDrag<OrgNode> = (_, node) => {
    setDropTargetNodeId(null);
    const target = targetOf(node);
    setNodes(layout.nodes);
    if (target && node.data.kind === "employee") onMoveEmployee(node.data.employee.id, target.departmentId);
  };

  return (
    <ChartContext.Provider value={chartState}>
      <div data-testid="org-chart" aria-label={t("org.chartLabel")} role="region" className="h-full w-full">
        <ReactFlow<OrgNode>
          nodes={nodes}
          edges={layout.edges}
          nodeTypes={nodeTypes}
          onNodesChange={onNodesChange}
          onNodeClick={onNodeClick}
          onNodeDragStart={onNodeDragStart}
          onNodeDrag={onNodeDrag}
          onNodeDragStop={onNodeDragStop}
          onPaneClick={onClearSelection}
          nodesConnectable={false}
          elementsSelectable={false}
          nodesFocusable={false}
          edgesFocusable={false}
          fitView
          fitViewOptions={FIT_VIEW}
          minZoom={0.2}
          maxZoom={1.75}
          attributionPosition="top-right"
          ariaLabelConfig={flowLabels}
        >
          <Background variant={BackgroundVariant.Dots} gap={20} size={1} color="#cbd5e1" />
          <Panel position="bottom-left">
            <ZoomControls />
          </Panel>
          <Panel position="bottom-center">
            <p className="rounded-full bg-white/85 px-3 py-1 text-xs whitespace-nowrap text-slate-500 shadow-sm ring-1 ring-slate-200 backdrop-blur">
              {t("org.dragHint")}
            </p>
          </Panel>
          <MiniMap<OrgNode>
            pannable
            zoomable
            className="!rounded-lg !shadow-sm ring-1 ring-slate-200"
            style={{ width: 168, height: 112 }}
            nodeColor={(n) => (n.data.kind === "department" ? "#e2e8f0" : "#94a3b8")}
            nodeStrokeWidth={0}
            maskColor="rgba(248, 250, 252, 0.7)"
          />
        </ReactFlow>
      </div>
    </ChartContext.Provider>
  );
}
