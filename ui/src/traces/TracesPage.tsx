import { useTranslation } from "react-i18next";
import type { Origin } from "../bindings/Origin";
import type { TraceSummaryDto } from "../bindings/TraceSummaryDto";
import { ChatIcon, ChatsIcon, UserIcon } from "../components/icons";
import { ErrorState, LoadingState } from "../components/ui";
import { formatListTime, preview } from "../chats/format";
import { useTraces } from "../ipc/queries";
import { formatUsd } from "../settings/format";
import { routeHref, traceHref } from "../shell/route";
import { Placeholder } from "./Placeholder";
import { TraceView } from "./TraceView";

/** Where the instruction was given: to the secretary, in a chat, or by a person through their proxy. */
export const ORIGIN_ICON: Record<Origin, typeof ChatIcon> = { secretary: ChatIcon, chat: ChatsIcon, proxy: UserIcon };

/**
 * `#traces/<id>`: every instruction the boss gave, newest first, on the left; one instruction's whole
 * story (who did what, what it cost) on the right.
 */
export function TracesPage({ traceId }: { traceId: string | null }) {
  const { t } = useTranslation();
  const traces = useTraces();
  const empty = traces.isSuccess && traces.data.length === 0;
  return (
    <div data-testid="traces-page" className="flex h-full min-h-0">
      <aside aria-labelledby="traces-heading" className="flex w-96 shrink-0 flex-col border-r border-slate-200 bg-white">
        <div className="flex h-[68px] shrink-0 flex-col justify-center border-b border-slate-200 px-4">
          <h2 id="traces-heading" className="text-lg font-semibold tracking-tight text-slate-900">
            {t("traces.title")}
          </h2>
          <p className="truncate text-xs text-slate-500" data-testid="traces-summary">
            {traces.isSuccess ? t("traces.count", { count: traces.data.length }) : "\u00a0"}
          </p>
        </div>
        {/* Absolute fill: percentage heights inside flex items are unreliable in WebKitGTK. */}
        <div className="relative min-h-0 flex-1">
          <div className="absolute inset-0 overflow-y-auto">
            {traces.isPending ? (
              <LoadingState className="h-full" />
            ) : traces.isError ? (
              <ErrorState className="h-full" error={traces.error} onRetry={() => void traces.refetch()} />
            ) : traces.data.length === 0 ? (
              <p data-testid="trace-list-empty" className="px-5 py-6 text-sm text-slate-500">
                {t("traces.listEmpty")}
              </p>
            ) : (
              <TraceList traces={traces.data} selectedId={traceId} />
            )}
          </div>
        </div>
      </aside>
      <section className="relative min-w-0 flex-1">
        {traceId !== null ? (
          <TraceView key={traceId} traceId={traceId} />
        ) : empty ? (
          <Placeholder
            testId="traces-empty"
            title={t("traces.empty.title")}
            body={t("traces.empty.body")}
            action={
              <a
                href={routeHref({ page: "secretary" })}
                className="mt-5 inline-flex h-9 items-center justify-center rounded-lg bg-white px-3.5 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
              >
                {t("traces.empty.action")}
              </a>
            }
          />
        ) : traces.isSuccess ? (
          <Placeholder testId="traces-no-selection" title={t("traces.noSelection.title")} body={t("traces.noSelection.body")} />
        ) : null}
      </section>
    </div>
  );
}

function TraceList({ traces, selectedId }: { traces: TraceSummaryDto[]; selectedId: string | null }) {
  const { t, i18n } = useTranslation();
  const now = Date.now();
  return (
    <ul data-testid="trace-list" aria-label={t("traces.title")} className="space-y-0.5 p-2">
      {traces.map((trace) => {
        const Icon = ORIGIN_ICON[trace.origin];
        const selected = trace.id === selectedId;
        return (
          <li
            key={trace.id}
            data-testid={`trace-item-${trace.id}`}
            data-origin={trace.origin}
            className={`relative flex gap-3 rounded-lg px-2.5 py-2.5 transition-colors ${selected ? "bg-slate-100" : "hover:bg-slate-50"}`}
          >
            <span
              aria-hidden="true"
              className={`mt-0.5 flex size-8 shrink-0 items-center justify-center rounded-lg ring-1 ring-inset ${
                trace.origin === "secretary" ? "bg-slate-900 text-white ring-slate-900" : "bg-indigo-50 text-indigo-600 ring-indigo-600/15"
              }`}
            >
              <Icon />
            </span>
            <div className="min-w-0 flex-1">
              <div className="flex items-baseline justify-between gap-2">
                <a
                  href={traceHref(trace.id)}
                  data-testid={`trace-link-${trace.id}`}
                  aria-current={selected ? "page" : undefined}
                  className="line-clamp-2 text-sm font-medium text-slate-900 after:absolute after:inset-0 after:rounded-lg focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-indigo-500"
                >
                  {preview(trace.instruction, 160)}
                </a>
                <time dateTime={trace.createdAt} className="shrink-0 text-[11px] text-slate-400 tabular-nums">
                  {formatListTime(trace.createdAt, now, i18n.language)}
                </time>
              </div>
              <p className="mt-1 flex flex-wrap items-center gap-x-1.5 text-xs text-slate-500">
                <span data-testid={`trace-origin-${trace.id}`}>{t(`traces.origin.${trace.origin}`)}</span>
                <span aria-hidden="true" className="text-slate-300">
                  ·
                </span>
                <span data-testid={`trace-calls-${trace.id}`} className="tabular-nums">
                  {t("traces.calls", { count: trace.calls })}
                </span>
                <span aria-hidden="true" className="text-slate-300">
                  ·
                </span>
                <span data-testid={`trace-cost-${trace.id}`} className="font-medium text-slate-700 tabular-nums">
                  {formatUsd(trace.costUsd, i18n.language)}
                </span>
              </p>
            </div>
          </li>
        );
      })}
    </ul>
  );
}
