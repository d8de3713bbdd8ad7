import { Handle, Position, type NodeProps } from "@xyflow/react";
import { createContext, useContext, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { EmployeeStatus } from "../bindings/EmployeeStatus";
import { Avatar } from "./Avatar";
import type { DepartmentNode, EmployeeNode } from "./layout";

export interface ChartState {
  selectedNodeId: string | null;
  dropTargetNodeId: string | null;
  selectEmployee: (id: number) => void;
  selectDepartment: (id: number) => void;
}

export const ChartContext = createContext<ChartState>({
  selectedNodeId: null,
  dropTargetNodeId: null,
  selectEmployee: () => {},
  selectDepartment: () => {},
});

export const STATUS_DOT: Record<EmployeeStatus, string> = {
  idle: "bg-slate-300",
  receiving: "bg-sky-400",
  planning: "bg-indigo-400",
  acting: "bg-emerald-500",
  reporting: "bg-violet-500",
  waiting_approval: "bg-amber-400",
  fired: "bg-rose-400",
};

export function StatusDot({ status }: { status: EmployeeStatus }) {
  const { t } = useTranslation();
  return (
    <span
      role="img"
      aria-label={t(`status.${status}`)}
      title={t(`status.${status}`)}
      data-status={status}
      className={`inline-block size-2.5 shrink-0 rounded-full ring-2 ring-white ${STATUS_DOT[status]}`}
    />
  );
}

const onActivate = (action: () => void) => (e: KeyboardEvent) => {
  if (e.key === "Enter" || e.key === " ") {
    e.preventDefault();
    action();
  }
};

export function DepartmentNodeView({ id, data }: NodeProps<DepartmentNode>) {
  const { t } = useTranslation();
  const chart = useContext(ChartContext);
  const dept = data.department;
  const selected = chart.selectedNodeId === id;
  const dropTarget = chart.dropTargetNodeId === id;
  // One class set per state: mixing ring/background utilities lets CSS order pick the winner.
  const frame = dropTarget
    ? "bg-indigo-50/80 ring-2 ring-indigo-400"
    : selected
      ? "bg-white/70 ring-2 ring-slate-800/60"
      : dept
        ? "bg-white/70 ring-1 ring-slate-200"
        : "bg-slate-100/70 ring-1 ring-slate-300";
  return (
    <div
      data-testid={`department-node-${dept ? dept.id : "unassigned"}`}
      className={`h-full w-full rounded-xl shadow-[0_1px_2px_rgba(15,23,42,0.04)] transition-colors ${frame} ${dept ? "" : "border border-dashed border-slate-300"}`}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} />
      <div
        role={dept ? "button" : undefined}
        tabIndex={dept ? 0 : undefined}
        aria-pressed={dept ? selected : undefined}
        onKeyDown={dept ? onActivate(() => chart.selectDepartment(dept.id)) : undefined}
        className={`flex h-[60px] items-center justify-between gap-3 rounded-t-xl px-4 ${dept ? "cursor-pointer" : ""}`}
      >
        <div className="min-w-0" title={dept ? undefined : t("org.unassignedHint")}>
          <div className="truncate text-[15px] font-semibold text-slate-800">
            {dept ? dept.name : t("org.unassigned")}
          </div>
          {dept?.mission && (
            <div className="truncate text-xs text-slate-500" title={dept.mission}>
              {dept.mission}
            </div>
          )}
        </div>
        <span className="shrink-0 rounded-full bg-slate-100 px-2 py-0.5 text-xs font-medium text-slate-600 tabular-nums">
          {t("org.peopleCount", { count: data.headcount })}
        </span>
      </div>
      {data.headcount === 0 && (
        <div className="mx-4 flex h-[40px] items-center justify-center rounded-lg border border-dashed border-slate-200 text-xs text-slate-400">
          {t("org.emptyDepartment")}
        </div>
      )}
      <Handle type="source" position={Position.Bottom} isConnectable={false} />
    </div>
  );
}

export function EmployeeNodeView({ id, data }: NodeProps<EmployeeNode>) {
  const { t } = useTranslation();
  const chart = useContext(ChartContext);
  const e = data.employee;
  const selected = chart.selectedNodeId === id;
  return (
    <div
      data-testid={`employee-card-${e.id}`}
      role="button"
      tabIndex={0}
      aria-pressed={selected}
      onKeyDown={onActivate(() => chart.selectEmployee(e.id))}
      className={`flex h-full w-full items-center gap-3 rounded-lg bg-white px-3 shadow-sm ring-1 transition hover:shadow-md ${
        selected ? "ring-2 ring-indigo-500" : "ring-slate-200 hover:ring-slate-300"
      }`}
    >
      <div className="relative">
        <Avatar name={e.name} size={36} />
        <span className="absolute -right-0.5 -bottom-0.5 flex">
          <StatusDot status={e.status} />
        </span>
      </div>
      <div className="min-w-0 flex-1 leading-tight">
        <div className="flex items-center gap-1.5">
          <span className="truncate text-sm font-medium text-slate-900">{e.name}</span>
          {data.isLead && (
            <span className="shrink-0 rounded bg-amber-50 px-1 text-[10px] font-medium text-amber-700 ring-1 ring-amber-200 ring-inset">
              {t("org.lead")}
            </span>
          )}
        </div>
        <div className="mt-0.5 truncate text-xs text-slate-500">{e.title}</div>
        <div className="mt-1 truncate text-[11px] font-medium text-slate-400">
          {t(`archetype.${e.archetype}`)}
        </div>
      </div>
    </div>
  );
}

export const nodeTypes = { department: DepartmentNodeView, employee: EmployeeNodeView };
