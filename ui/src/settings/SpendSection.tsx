import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { SpendDay } from "../bindings/SpendDay";
import type { SpendReport } from "../bindings/SpendReport";
import { ErrorState, LoadingState } from "../components/ui";
import { currentLanguage } from "../i18n";
import { useSpend } from "../ipc/queries";
import { budgetLevel, formatCompact, formatCount, formatDay, formatUsd, isSpendEmpty } from "./format";
import { SettingsSection } from "./SettingsSection";

export function SpendSection() {
  const { t } = useTranslation();
  const spend = useSpend();
  return (
    <SettingsSection id="spend" title={t("settings.spend.title")} description={t("settings.spend.description")}>
      {spend.isPending ? (
        <LoadingState className="py-10" />
      ) : spend.isError ? (
        <ErrorState error={spend.error} onRetry={() => void spend.refetch()} />
      ) : (
        <SpendView report={spend.data} />
      )}
    </SettingsSection>
  );
}

function SpendView({ report }: { report: SpendReport }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const level = budgetLevel(report.todayUsd, report.budgetUsd);
  const todayTone = level === "spent" ? "text-rose-700" : level === "fallback" ? "text-amber-700" : "text-slate-900";

  return (
    <div>
      <dl className="grid grid-cols-1 divide-y divide-slate-100 border-b border-slate-100 sm:grid-cols-3 sm:divide-x sm:divide-y-0">
        <Stat label={t("settings.spend.today")}>
          <span data-testid="spend-today" className={todayTone}>
            {formatUsd(report.todayUsd, lang)}
            <span className="ml-1.5 text-sm font-normal text-slate-500">
              {t("settings.spend.ofBudget", { budget: formatUsd(report.budgetUsd, lang) })}
            </span>
          </span>
        </Stat>
        <Stat label={t("settings.spend.callsToday")}>
          <span data-testid="spend-calls">{formatCount(report.callsToday, lang)}</span>
        </Stat>
        <Stat label={t("settings.spend.refusedToday")} hint={t("settings.spend.refusedHint")}>
          <span data-testid="spend-refused" className={report.refusedToday > 0 ? "text-rose-700" : undefined}>
            {formatCount(report.refusedToday, lang)}
          </span>
        </Stat>
      </dl>

      {isSpendEmpty(report) ? (
        <div data-testid="spend-empty" className="px-5 py-10 text-center">
          <p className="text-sm font-medium text-slate-700">{t("settings.spend.emptyTitle")}</p>
          <p className="mt-1 text-sm text-slate-500">{t("settings.spend.emptyBody")}</p>
        </div>
      ) : (
        <div className="space-y-6 px-5 py-5">
          <SpendChart days={report.days} budget={report.budgetUsd} />
          <div className="grid gap-6 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
            <ByEmployeeTable report={report} />
            <ByModelTable report={report} />
          </div>
        </div>
      )}
    </div>
  );
}

function Stat({ label, hint, children }: { label: string; hint?: string; children: ReactNode }) {
  return (
    <div className="px-5 py-4">
      <dt className="text-xs font-medium text-slate-500" title={hint}>
        {label}
      </dt>
      <dd className="mt-1 text-xl font-semibold tracking-tight text-slate-900 tabular-nums">{children}</dd>
    </div>
  );
}

/** Seven plain bars (no chart library). Today's bar is the last, drawn darker; a dashed line marks the budget. */
function SpendChart({ days, budget }: { days: SpendDay[]; budget: number }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const max = Math.max(...days.map((d) => d.costUsd), 0);
  // Scale to the busiest day, or to the budget when that is close, so the budget line is meaningful.
  const scale = Math.max(max, budget <= max * 1.5 ? budget : 0) * 1.1 || 1;
  const budgetPct = budget > 0 && budget <= scale ? (budget / scale) * 100 : null;

  return (
    <figure>
      <figcaption className="mb-3 flex items-center justify-between text-xs font-medium text-slate-500">
        <span>{t("settings.spend.last7Days")}</span>
        {budgetPct !== null && (
          <span className="flex items-center gap-1.5 font-normal">
            <span aria-hidden="true" className="inline-block w-4 border-t border-dashed border-rose-400" />
            {t("settings.spend.budgetLine")}
          </span>
        )}
      </figcaption>
      <div data-testid="spend-chart" role="list" aria-label={t("settings.spend.chartLabel")} className="relative flex h-40 items-end gap-3 border-b border-slate-200 px-1">
        {budgetPct !== null && (
          <div
            aria-hidden="true"
            className="pointer-events-none absolute inset-x-0 border-t border-dashed border-rose-400"
            style={{ bottom: `${budgetPct}%` }}
          />
        )}
        {days.map((d, i) => {
          const today = i === days.length - 1;
          const pct = (d.costUsd / scale) * 100;
          const amount = formatUsd(d.costUsd, lang);
          const label = t("settings.spend.barLabel", { date: d.date, amount, calls: d.calls });
          return (
            <div key={d.date} role="listitem" aria-label={label} title={label} className="group flex h-full min-w-0 flex-1 flex-col items-center justify-end">
              <span className="mb-1 text-[11px] text-slate-500 tabular-nums opacity-80 group-hover:opacity-100">
                {d.costUsd > 0 ? amount : ""}
              </span>
              <div
                data-testid="spend-bar"
                data-date={d.date}
                className={`w-full max-w-12 rounded-t-md ${today ? "bg-indigo-500" : "bg-indigo-200 group-hover:bg-indigo-300"}`}
                style={{ height: `${d.costUsd > 0 ? Math.max(pct, 1.5) : 0}%` }}
              />
            </div>
          );
        })}
      </div>
      <div aria-hidden="true" className="mt-1.5 flex gap-3 px-1">
        {days.map((d, i) => {
          const { weekday, day } = formatDay(d.date, lang);
          const today = i === days.length - 1;
          return (
            <div key={d.date} className={`min-w-0 flex-1 text-center text-[11px] leading-tight ${today ? "font-semibold text-slate-700" : "text-slate-400"}`}>
              <div className="truncate">{today ? t("settings.spend.todayShort") : weekday}</div>
              <div className="truncate">{day}</div>
            </div>
          );
        })}
      </div>
    </figure>
  );
}

const th = "px-3 py-2 text-left text-xs font-medium whitespace-nowrap text-slate-500";
const thNum = "px-3 py-2 text-right text-xs font-medium whitespace-nowrap text-slate-500";
const td = "px-3 py-2 text-sm text-slate-700";
const tdNum = "px-3 py-2 text-right text-sm text-slate-700 tabular-nums";

function ByEmployeeTable({ report }: { report: SpendReport }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const rows = [...report.byEmployee].sort((a, b) => b.costUsd - a.costUsd);
  return (
    <div className="min-w-0">
      <h4 className="mb-2 text-sm font-medium text-slate-900">{t("settings.spend.byEmployee")}</h4>
      <div className="overflow-x-auto rounded-lg ring-1 ring-slate-200">
        <table data-testid="spend-by-employee" className="w-full">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={th}>{t("settings.spend.employee")}</th>
              <th scope="col" className={thNum}>{t("settings.spend.cost")}</th>
              <th scope="col" className={thNum}>{t("settings.spend.calls")}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={3} className={`${td} text-center text-slate-400`}>{t("settings.spend.noRows")}</td>
              </tr>
            ) : (
              rows.map((r) => (
                <tr key={r.employeeId ?? "company"}>
                  <td className={td}>
                    {r.name ?? <span className="text-slate-500 italic">{t("settings.spend.companyItself")}</span>}
                  </td>
                  <td className={tdNum}>{formatUsd(r.costUsd, lang)}</td>
                  <td className={tdNum}>{formatCount(r.calls, lang)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}

function ByModelTable({ report }: { report: SpendReport }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const rows = [...report.byModel].sort((a, b) => b.costUsd - a.costUsd);
  return (
    <div className="min-w-0">
      <h4 className="mb-2 text-sm font-medium text-slate-900">{t("settings.spend.byModel")}</h4>
      <div className="overflow-x-auto rounded-lg ring-1 ring-slate-200">
        <table data-testid="spend-by-model" className="w-full">
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className={th}>{t("settings.spend.model")}</th>
              <th scope="col" className={thNum}>{t("settings.spend.cost")}</th>
              <th scope="col" className={thNum}>{t("settings.spend.calls")}</th>
              <th scope="col" className={thNum} title={t("settings.spend.tokensHint")}>{t("settings.spend.tokens")}</th>
              <th scope="col" className={thNum} title={t("settings.spend.fallbackHint")}>{t("settings.spend.fallback")}</th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.length === 0 ? (
              <tr>
                <td colSpan={5} className={`${td} text-center text-slate-400`}>{t("settings.spend.noRows")}</td>
              </tr>
            ) : (
              rows.map((r) => (
                <tr key={`${r.providerId}/${r.model}`}>
                  <td className={`${td} max-w-48`}>
                    <div className="truncate font-mono text-xs" title={`${r.providerId} / ${r.model}`}>
                      {r.model}
                    </div>
                    <div className="truncate text-xs text-slate-400">{r.providerId}</div>
                  </td>
                  <td className={tdNum}>{formatUsd(r.costUsd, lang)}</td>
                  <td className={tdNum}>{formatCount(r.calls, lang)}</td>
                  <td
                    className={`${tdNum} text-xs whitespace-nowrap`}
                    title={`${formatCount(r.inputTokens, lang)} / ${formatCount(r.outputTokens, lang)}`}
                  >
                    {formatCompact(r.inputTokens, lang)} / {formatCompact(r.outputTokens, lang)}
                  </td>
                  <td className={tdNum}>{formatCount(r.fallbackCalls, lang)}</td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </div>
  );
}
