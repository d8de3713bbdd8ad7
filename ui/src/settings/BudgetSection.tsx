import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { CompanyDto } from "../bindings/CompanyDto";
import { CheckIcon } from "../components/icons";
import { Button, InlineError, Spinner, inputClass } from "../components/ui";
import { currentLanguage } from "../i18n";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { queryKeys, useInvalidatingMutation, useSpend } from "../ipc/queries";
import { FALLBACK_AT, budgetLevel, formatUsd, parseAmount, percentOf, type BudgetLevel } from "./format";
import { SettingsSection } from "./SettingsSection";

const BAR: Record<BudgetLevel, string> = { ok: "bg-emerald-500", fallback: "bg-amber-500", spent: "bg-rose-500" };

export function BudgetSection({ company }: { company: CompanyDto }) {
  const { t } = useTranslation();
  return (
    <SettingsSection id="budget" title={t("settings.budget.title")} description={t("settings.budget.description")} padded>
      <div className="grid gap-6 md:grid-cols-[18rem_minmax(0,1fr)]">
        {/* Remount when the saved budget changes (here or elsewhere), so the field shows it. */}
        <BudgetForm key={company.dailyBudgetUsd} budget={company.dailyBudgetUsd} />
        <BudgetProgress budget={company.dailyBudgetUsd} />
      </div>
    </SettingsSection>
  );
}

function BudgetForm({ budget }: { budget: number }) {
  const { t } = useTranslation();
  const [text, setText] = useState(String(budget));
  const [error, setError] = useState<string | null>(null);
  const save = useInvalidatingMutation(api.setBudget, [queryKeys.org, queryKeys.company, queryKeys.spend]);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = parseAmount(text);
    if (value === null) return setError(t("settings.budget.notANumber"));
    if (value <= 0) return setError(t("settings.budget.mustBePositive"));
    setError(null);
    save.mutate({ dailyBudgetUsd: value });
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-2">
      <label htmlFor="budget-input" className="block text-sm font-medium text-slate-700">
        {t("settings.budget.label")}
      </label>
      <div className="flex gap-2">
        <div className="relative flex-1">
          <span className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-sm text-slate-400">$</span>
          <input
            id="budget-input"
            data-testid="budget-input"
            inputMode="decimal"
            className={`${inputClass} pl-6 tabular-nums`}
            value={text}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? "budget-error" : "budget-hint"}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
              save.reset();
            }}
          />
        </div>
        <Button type="submit" variant="primary" data-testid="budget-submit" disabled={save.isPending}>
          {save.isPending ? t("common.saving") : t("common.save")}
        </Button>
      </div>
      {error ? (
        <p id="budget-error" role="alert" className="text-xs text-rose-600">
          {error}
        </p>
      ) : (
        <p id="budget-hint" className="text-xs text-slate-500">
          {t("settings.budget.hint")}
        </p>
      )}
      {save.isSuccess && (
        <p role="status" className="flex items-center gap-1 text-xs text-emerald-700">
          <CheckIcon width={14} height={14} />
          {t("settings.budget.saved")}
        </p>
      )}
      {save.isError && <InlineError error={save.error} />}
    </form>
  );
}

function BudgetProgress({ budget }: { budget: number }) {
  const { t } = useTranslation();
  const spend = useSpend();
  const lang = currentLanguage();

  if (spend.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 text-sm text-slate-500">
        <Spinner />
        {t("common.loading")}
      </div>
    );
  }
  if (spend.isError) {
    return (
      <p role="alert" className="text-sm text-rose-600">
        {t("settings.spend.failed", { message: t(errorKey(spend.error)) })}
      </p>
    );
  }

  const spent = spend.data.todayUsd;
  const level = budgetLevel(spent, budget);
  const pct = percentOf(spent, budget);
  return (
    <div className="space-y-2.5">
      <div className="flex items-baseline justify-between gap-3">
        <span className="text-sm font-medium text-slate-700">{t("settings.budget.today")}</span>
        <span data-testid="budget-today" className="text-sm text-slate-600 tabular-nums">
          {t("settings.budget.spentOf", { spent: formatUsd(spent, lang), budget: formatUsd(budget, lang) })}
        </span>
      </div>
      <div
        role="progressbar"
        data-testid="budget-progress"
        data-level={level}
        aria-label={t("settings.budget.progressLabel")}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={Math.round(pct)}
        className="relative h-2.5 overflow-hidden rounded-full bg-slate-100"
      >
        <div className={`h-full rounded-full transition-[width] ${BAR[level]}`} style={{ width: `${pct}%` }} />
        {/* Where calls start falling back to the built-in model. */}
        <div aria-hidden="true" className="absolute inset-y-0 w-px bg-slate-400/70" style={{ left: `${FALLBACK_AT * 100}%` }} />
      </div>
      <p
        className={`text-xs leading-relaxed ${level === "spent" ? "text-rose-700" : level === "fallback" ? "text-amber-800" : "text-slate-500"}`}
        data-testid="budget-note"
      >
        {level === "spent"
          ? t("settings.budget.noteSpent")
          : level === "fallback"
            ? t("settings.budget.noteFallback")
            : t("settings.budget.noteOk")}
      </p>
    </div>
  );
}
