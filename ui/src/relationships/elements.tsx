import { BaseEdge, EdgeLabelRenderer, Handle, Position, type EdgeProps, type NodeProps } from "@xyflow/react";
import { createContext, useContext, useState, type CSSProperties } from "react";
import { useTranslation } from "react-i18next";
import { Avatar } from "../org/Avatar";
import { profileHref } from "../shell/route";
import { affinityTone } from "./affinity";
import { AVATAR_CENTRE, NODE_W, edgeGeometry, personNodeId, type AffinityEdge, type PersonNode } from "./graph";

/** Who the pointer is on (an employee id), to bring their relationships forward and fade the rest. */
export interface GraphFocus {
  personId: number | null;
  neighbours: ReadonlySet<number>;
}

export const GraphFocusContext = createContext<GraphFocus>({ personId: null, neighbours: new Set() });

// Both handles sit on the avatar's centre: edges run centre to centre, then stop at the ring.
const HANDLE_STYLE: CSSProperties = {
  top: AVATAR_CENTRE.y,
  left: AVATAR_CENTRE.x,
  width: 1,
  height: 1,
  minWidth: 0,
  minHeight: 0,
  border: 0,
  background: "transparent",
  opacity: 0,
  pointerEvents: "none",
};

export function PersonNodeView({ data }: NodeProps<PersonNode>) {
  const { t } = useTranslation();
  const focus = useContext(GraphFocusContext);
  const p = data.person;
  const faded = focus.personId !== null && focus.personId !== p.id && !focus.neighbours.has(p.id);
  return (
    <a
      href={profileHref(p.id)}
      data-testid={`graph-node-${p.id}`}
      aria-label={t("graph.openProfile", { name: p.name, title: p.title })}
      className="group flex flex-col items-center text-center transition-opacity duration-150 focus-visible:outline-none"
      style={{ width: NODE_W, opacity: faded ? 0.3 : 1 }}
    >
      <Handle type="target" position={Position.Top} isConnectable={false} style={HANDLE_STYLE} />
      <Handle type="source" position={Position.Top} isConnectable={false} style={HANDLE_STYLE} />
      <span
        className="rounded-full p-[3px] shadow-sm transition-transform group-hover:scale-105 group-focus-visible:outline-2 group-focus-visible:outline-offset-2 group-focus-visible:outline-indigo-500"
        style={{ backgroundColor: data.colour }}
      >
        <span className="block rounded-full bg-white p-[2px]">
          <Avatar name={p.name} size={40} />
        </span>
      </span>
      <span className="mt-1.5 max-w-full truncate rounded-md bg-white/90 px-1.5 text-xs font-semibold text-slate-900 ring-1 ring-slate-200/80">
        {p.name}
      </span>
      <span className="mt-0.5 max-w-full truncate rounded bg-white/80 px-1 text-[11px] leading-4 text-slate-500">{p.title}</span>
    </a>
  );
}

const TONE_TEXT = { warm: "text-emerald-700", neutral: "text-slate-600", cold: "text-rose-700" } as const;

/** One person's view of another: colour and width from affinity; the impression on hover, focus or click. */
export function AffinityEdgeView({ id, source, target, sourceX, sourceY, targetX, targetY, data, markerEnd, style, selected }: EdgeProps<AffinityEdge>) {
  const { t } = useTranslation();
  const focus = useContext(GraphFocusContext);
  const [hovered, setHovered] = useState(false);
  if (!data) return null;
  const { path, labelX, labelY } = edgeGeometry(sourceX, sourceY, targetX, targetY, data.mutual);
  const involved = focus.personId !== null && (source === personNodeId(focus.personId) || target === personNodeId(focus.personId));
  const faded = focus.personId !== null && !involved;
  const tone = affinityTone(data.affinity);
  const showLabel = hovered || selected;
  return (
    <>
      <g onMouseEnter={() => setHovered(true)} onMouseLeave={() => setHovered(false)} data-testid={`graph-edge-${id}`}>
        <BaseEdge
          id={id}
          path={path}
          markerEnd={markerEnd}
          interactionWidth={14}
          style={{ ...style, opacity: faded ? 0.12 : showLabel || involved ? 1 : 0.75, transition: "opacity 150ms" }}
        />
      </g>
      {showLabel && (
        <EdgeLabelRenderer>
          <div
            role="tooltip"
            data-testid={`graph-edge-label-${id}`}
            className="pointer-events-none absolute z-10 w-max max-w-[260px] rounded-lg bg-white px-3 py-2 text-xs shadow-lg ring-1 ring-slate-900/10"
            style={{ transform: `translate(-50%, -100%) translate(${labelX}px, ${labelY - 8}px)` }}
          >
            <div className="flex items-baseline justify-between gap-3">
              <span className="font-medium text-slate-900">{t("graph.view", { from: data.fromName, to: data.toName })}</span>
              <span className={`font-semibold tabular-nums ${TONE_TEXT[tone]}`}>{data.affinity}</span>
            </div>
            <p className="mt-1 leading-relaxed text-slate-600">
              {data.impression ? <q className="italic">{data.impression}</q> : <span className="text-slate-400">{t("graph.noImpression")}</span>}
            </p>
          </div>
        </EdgeLabelRenderer>
      )}
    </>
  );
}

export const nodeTypes = { person: PersonNodeView };
export const edgeTypes = { affinity: AffinityEdgeView };
