import { useState, type ComponentType, type ReactNode, type SVGProps } from "react";
import { useTranslation } from "react-i18next";
import type { TraceDto } from "../bindings/TraceDto";
import type { TraceEventDto } from "../bindings/TraceEventDto";
import type { TraceEventKind } from "../bindings/TraceEventKind";
import { AlertIcon, CheckIcon, ChatsIcon, ChipIcon, ClipboardIcon, FlagIcon, GavelIcon, MailIcon, PlugIcon, ShieldIcon, ThoughtIcon, WarningIcon, XCircleIcon } from "../components/icons";
import { Badge, ErrorState, LoadingState } from "../components/ui";
import { SILENCE_REASONS, THOUGHT_FAILURES, formatClock } from "../chats/format";
import { formatDateTime } from "../employee/format";
import { errorCode } from "../ipc/errors";
import { useTrace } from "../ipc/queries";
import { Avatar } from "../org/Avatar";
import { formatUsd } from "../settings/format";
import { profileHref, routeHref } from "../shell/route";
import { Placeholder } from "./Placeholder";
import { ApprovalStatusChip } from "../approvals/ApprovalStatusChip";
import { isApprovalStatus } from "../approvals/format";
import {
  MAX_TRACE_STEPS,
  eventHref,
  formatTokens,
  groupByMinute,
  isCallOutcome,
  isFailedCall,
  isFailedToolCall,
  isQuiet,
  isToolCallOutcome,
  isRulingOutcome,
  stoppedAtStepCap,
  visibleEvents,
  withoutEcho,
} from "./format";

/** Each kind's icon and colours: the instruction dark, tasks amber, results green / red, messages indigo, thoughts violet, calls slate, mail sky, approvals orange, tool calls cyan, rulings teal. */
const KIND_STYLE: Record<TraceEventKind, { icon: ComponentType<SVGProps<SVGSVGElement>>; tile: string }> = {
  instruction: { icon: FlagIcon, tile: "bg-slate-900 text-white ring-slate-900" },
  task_created: { icon: ClipboardIcon, tile: "bg-amber-50 text-amber-700 ring-amber-600/20" },
  task_resolved: { icon: CheckIcon, tile: "bg-emerald-50 text-emerald-700 ring-emerald-600/20" },
  task_failed: { icon: XCircleIcon, tile: "bg-rose-50 text-rose-700 ring-rose-600/25" },
  message: { icon: ChatsIcon, tile: "bg-indigo-50 text-indigo-600 ring-indigo-600/15" },
  thought: { icon: ThoughtIcon, tile: "bg-violet-50 text-violet-600 ring-violet-600/15" },
  model_call: { icon: ChipIcon, tile: "bg-slate-100 text-slate-500 ring-slate-500/15" },
  mail: { icon: MailIcon, tile: "bg-sky-50 text-sky-700 ring-sky-600/20" },
  approval: { icon: ShieldIcon, tile: "bg-orange-50 text-orange-700 ring-orange-600/20" },
  tool_call: { icon: PlugIcon, tile: "bg-cyan-50 text-cyan-700 ring-cyan-600/20" },
  ruling: { icon: GavelIcon, tile: "bg-teal-50 text-teal-700 ring-teal-600/20" },
};

/** One instruction's whole story: the header with what it cost, then the timeline by minute. */
export function TraceView({ traceId }: { traceId: string }) {
  const { t } = useTranslation();
  const trace = useTrace(traceId);
  if (trace.isPending) return <LoadingState className="h-full" />;
  if (trace.isError) {
    if (errorCode(trace.error) === "not_found") {
      return (
        <Placeholder
          testId="trace-not-found"
          title={t("traces.notFound.title")}
          body={t("traces.notFound.body")}
          action={
            <a href={routeHref({ page: "traces", traceId: null })} className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline">
              {t("traces.notFound.action")}
            </a>
          }
        />
      );
    }
    return <ErrorState className="h-full" error={trace.error} onRetry={() => void trace.refetch()} />;
  }
  return <Trace trace={trace.data} />;
}

function Trace({ trace }: { trace: TraceDto }) {
  const { t } = useTranslation();
  const [showQuiet, setShowQuiet] = useState(false);
  const all = withoutEcho(trace.events);
  const shown = visibleEvents(all, showQuiet);
  const hidden = all.length - shown.length;
  const failedCalls = trace.events.filter(isFailedCall).length;
  return (
    <article data-testid="trace-view" data-trace-id={trace.summary.id} aria-labelledby="trace-instruction" className="flex h-full min-h-0 flex-col">
      <div className="relative min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto max-w-3xl px-6 py-6">
          <Header trace={trace} />
          <div className="mt-6 flex flex-wrap items-center justify-between gap-3">
            <h3 className="text-sm font-semibold text-slate-900">{t("traces.timeline")}</h3>
            <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-600 select-none">
              <input
                type="checkbox"
                data-testid="trace-show-quiet"
                checked={showQuiet}
                onChange={(e) => setShowQuiet(e.target.checked)}
                className="size-4 rounded border-slate-300 accent-slate-900"
              />
              {t("traces.showQuiet")}
              {!showQuiet && hidden > 0 && (
                <span data-testid="trace-hidden-count" className="rounded-full bg-slate-100 px-1.5 text-xs text-slate-500 tabular-nums">
                  {hidden}
                </span>
              )}
            </label>
          </div>
          {!showQuiet && failedCalls > 0 && (
            <p data-testid="trace-failed-calls" className="mt-2 flex items-center gap-1.5 text-xs text-rose-700">
              <AlertIcon className="shrink-0" />
              {t("traces.failedCalls", { count: failedCalls })}
            </p>
          )}
          <Timeline events={shown} />
        </div>
      </div>
    </article>
  );
}

function Header({ trace }: { trace: TraceDto }) {
  const { t, i18n } = useTranslation();
  const s = trace.summary;
  const stopped = stoppedAtStepCap(trace);
  // Stopped before its steps ran out: a run of held-back lines (the mail says which).
  const banner = trace.steps >= MAX_TRACE_STEPS ? "stepCap" : "guardStop";
  return (
    <header>
      <div className="flex items-center gap-2 text-xs text-slate-500">
        <Badge tone={s.origin === "secretary" ? "slate" : "indigo"} data-testid="trace-origin">
          {t(`traces.origin.${s.origin}`)}
        </Badge>
        <time dateTime={s.createdAt} data-testid="trace-time">
          {formatDateTime(s.createdAt, i18n.language)}
        </time>
        <span aria-hidden="true" className="text-slate-300">
          ·
        </span>
        <code className="font-mono text-[11px] text-slate-400">{s.id}</code>
      </div>
      <h2 id="trace-instruction" data-testid="trace-instruction" className="mt-2 text-xl font-semibold tracking-tight break-words whitespace-pre-wrap text-slate-900">
        {s.instruction}
      </h2>
      <dl className="mt-4 grid grid-cols-2 gap-3 sm:grid-cols-5">
        <Stat label={t("traces.stat.cost")} testId="trace-cost">
          {formatUsd(s.costUsd, i18n.language)}
        </Stat>
        <Stat label={t("traces.stat.calls")} testId="trace-calls">
          {s.calls}
        </Stat>
        <Stat label={t("traces.stat.tokens")} testId="trace-tokens">
          {formatTokens(trace.tokens, i18n.language)}
        </Stat>
        <Stat label={t("traces.stat.steps")} testId="trace-steps" warn={stopped}>
          {t("traces.stepsOf", { steps: trace.steps, max: MAX_TRACE_STEPS })}
        </Stat>
        <Stat label={t("traces.stat.pending")} testId="trace-pending">
          {trace.tasksPending}
        </Stat>
      </dl>
      {stopped && (
        <div data-testid="trace-step-cap" className="mt-4 flex items-start gap-3 rounded-xl bg-amber-50 px-4 py-3 text-amber-900 ring-1 ring-amber-600/20 ring-inset">
          <WarningIcon className="mt-0.5 shrink-0 text-amber-600" width={18} height={18} />
          <div>
            <p className="text-sm font-semibold">{t(`traces.${banner}.title`)}</p>
            <p className="mt-0.5 text-sm leading-relaxed opacity-90">{t(`traces.${banner}.body`, { max: MAX_TRACE_STEPS })}</p>
          </div>
        </div>
      )}
    </header>
  );
}

function Stat({ label, testId, warn = false, children }: { label: string; testId: string; warn?: boolean; children: ReactNode }) {
  return (
    <div className="rounded-xl bg-white px-3 py-2.5 shadow-sm ring-1 ring-slate-200">
      <dt className="text-[11px] font-medium tracking-wide text-slate-500 uppercase">{label}</dt>
      <dd data-testid={testId} className={`mt-0.5 text-base font-semibold tabular-nums ${warn ? "text-amber-700" : "text-slate-900"}`}>
        {children}
      </dd>
    </div>
  );
}

function Timeline({ events }: { events: TraceEventDto[] }) {
  const { t, i18n } = useTranslation();
  if (events.length === 0) {
    return (
      <p data-testid="trace-timeline-empty" className="mt-4 text-sm text-slate-500">
        {t("traces.timelineEmpty")}
      </p>
    );
  }
  const groups = groupByMinute(events);
  let index = 0;
  return (
    <ol data-testid="trace-timeline" aria-label={t("traces.timeline")} className="mt-4 space-y-4">
      {groups.map((g) => (
        <li key={g.key} data-testid="trace-minute">
          <div className="mb-1.5 flex items-center gap-3 text-[11px] font-medium text-slate-400 tabular-nums">
            <time dateTime={g.at}>{formatClock(g.at, i18n.language)}</time>
            <span aria-hidden="true" className="h-px flex-1 bg-slate-200" />
          </div>
          <ol className="relative space-y-1 before:absolute before:top-2 before:bottom-2 before:left-[15px] before:w-px before:bg-slate-200">
            {g.events.map((e) => (
              <EventLine key={index} event={e} index={index++} />
            ))}
          </ol>
        </li>
      ))}
    </ol>
  );
}

function EventLine({ event: e, index }: { event: TraceEventDto; index: number }) {
  const { t } = useTranslation();
  const { icon: Icon, tile } = KIND_STYLE[e.kind];
  const href = eventHref(e);
  const failed = isFailedCall(e) || isFailedToolCall(e);
  const quiet = isQuiet(e.kind);
  // A ruling nobody signed was made by the weighted vote.
  const actor = e.actor || (e.kind === "ruling" ? t("meeting.who.vote") : t("traces.system"));
  return (
    <li
      data-testid={`trace-event-${index}`}
      data-kind={e.kind}
      data-failed={failed ? "true" : undefined}
      className={`relative flex items-start gap-3 rounded-lg py-1.5 pr-2 transition-colors ${href ? "hover:bg-white" : ""} ${
        failed ? "bg-rose-50/70" : ""
      }`}
    >
      <span
        aria-hidden="true"
        className={`relative z-[1] flex size-8 shrink-0 items-center justify-center rounded-lg ring-1 ring-inset ${failed ? "bg-rose-100 text-rose-700 ring-rose-600/30" : tile}`}
      >
        <Icon />
      </span>
      <div className="min-w-0 flex-1">
        <div className="flex flex-wrap items-baseline gap-x-2 text-xs">
          {e.employeeId !== null ? (
            <a
              href={profileHref(e.employeeId)}
              data-testid={`trace-actor-${index}`}
              className="relative z-10 inline-flex items-center gap-1.5 rounded font-medium text-slate-800 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
            >
              <Avatar name={actor} size={16} />
              {actor}
            </a>
          ) : (
            <span className="font-medium text-slate-800">{actor}</span>
          )}
          <span className={failed ? "font-medium text-rose-700" : "text-slate-500"}>{t(`traces.kind.${e.kind}`)}</span>
          {e.chatName && <span className="text-slate-400">{t("traces.inChat", { chat: e.chatName })}</span>}
        </div>
        <p className={`mt-0.5 text-sm break-words ${quiet ? "text-slate-500 italic" : "text-slate-800"} ${failed ? "text-rose-800 not-italic" : ""}`}>
          {href ? (
            <a
              href={href}
              data-testid={`trace-event-link-${index}`}
              className="after:absolute after:inset-0 after:rounded-lg hover:underline focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:outline-indigo-500"
            >
              {e.text}
            </a>
          ) : (
            e.text
          )}
        </p>
        <Details event={e} />
      </div>
    </li>
  );
}

/** A model call's cost, tokens and outcome; why a thought said nothing; where an approval stands; what became of a tool call; what a ruling decided. */
function Details({ event: e }: { event: TraceEventDto }) {
  const { t, i18n } = useTranslation();
  if (e.kind === "ruling" && isRulingOutcome(e.outcome)) {
    const tone = e.outcome === "approved" ? "text-emerald-700" : e.outcome === "rejected" ? "text-rose-700" : "text-amber-700";
    return (
      <p data-testid="trace-ruling-outcome" className={`mt-0.5 text-xs font-medium ${tone}`}>
        {t(`meeting.outcome.${e.outcome}`)}
      </p>
    );
  }
  if (e.kind === "approval" && isApprovalStatus(e.outcome)) {
    return (
      <p className="mt-1">
        <ApprovalStatusChip status={e.outcome} testId="trace-approval-status" />
      </p>
    );
  }
  if (e.kind === "tool_call" && isToolCallOutcome(e.outcome)) {
    const tone =
      e.outcome === "ok" ? "text-emerald-700" : e.outcome === "waiting_approval" ? "text-amber-700" : "text-rose-700";
    return (
      <p data-testid="trace-tool-outcome" data-outcome={e.outcome} className={`mt-0.5 text-xs font-medium ${tone}`}>
        {t(`traces.toolOutcome.${e.outcome}`)}
      </p>
    );
  }
  if (e.kind === "model_call") {
    const outcome = isCallOutcome(e.outcome) ? t(`traces.outcome.${e.outcome}`) : e.outcome;
    return (
      <p className="mt-0.5 flex flex-wrap gap-x-2 text-xs text-slate-500 tabular-nums">
        {e.costUsd !== null && <span data-testid="trace-call-cost">{formatUsd(e.costUsd, i18n.language)}</span>}
        {e.tokens !== null && <span>{t("traces.tokens", { count: e.tokens })}</span>}
        {outcome && e.outcome !== "ok" && (
          <span data-testid="trace-call-outcome" className="font-medium text-rose-700">
            {outcome}
          </span>
        )}
      </p>
    );
  }
  if (e.kind === "thought" && e.outcome) {
    const reason = (SILENCE_REASONS as readonly string[]).includes(e.outcome)
      ? t(`chats.silence.${e.outcome}`)
      : (THOUGHT_FAILURES as readonly string[]).includes(e.outcome)
        ? t(`chats.failure.${e.outcome}`)
        : e.outcome === "step_cap"
          ? t("traces.stepCapReason", { max: MAX_TRACE_STEPS })
          : e.outcome.replace(/_/g, " ");
    return (
      <p data-testid="trace-thought-outcome" className="mt-0.5 text-xs text-slate-400">
        {t("traces.silent", { reason })}
      </p>
    );
  }
  return null;
}
