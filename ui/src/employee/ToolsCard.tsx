import { useEffect, useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { EmployeeToolsDto } from "../bindings/EmployeeToolsDto";
import type { Risk } from "../bindings/Risk";
import type { ToolSpec } from "../bindings/ToolSpec";
import { AlertIcon } from "../components/icons";
import { Badge, Button, InlineError, LoadingState, Spinner, TechnicalDetail, inputClass, type Tone } from "../components/ui";
import { isToolName } from "../domain";
import { errorDetail } from "../ipc/errors";
import { employeeToolsKeys, useEmployeeTools, useInvalidatingMutation } from "../ipc/queries";
import { api } from "../ipc/api";
import { Card } from "./Card";
import { NetworkToggle } from "./NetworkToggle";
import {
  POLICY_CHOICES,
  RUN_CLI,
  byRisk,
  draftOf,
  effectivePolicy,
  needsCommand,
  sameDraft,
  toInput,
  toggleTool,
  type PolicyChoice,
  type ToolsDraft,
} from "./tools";

const RISK_TONE: Record<Risk, Tone> = { read_only: "slate", write: "indigo", high: "rose" };

/** How long "Saved" stays after a save. */
const SAVED_NOTICE_MS = 4000;

/**
 * SPEC §8, per employee: their own approval policy (or the company's), the tools they may ask for,
 * grouped by risk, and the command `run_cli` runs for a CLI employee. Saved as one edit.
 */
export function ToolsCard({ employeeId, name, fired }: { employeeId: number; name: string; fired: boolean }) {
  const { t } = useTranslation();
  const networkHeading = useId();
  const query = useEmployeeTools(employeeId);
  return (
    <Card title={t("profile.tools.title")} description={t("profile.tools.description", { name })} testId="profile-tools">
      {query.isPending ? (
        <LoadingState className="py-6" />
      ) : query.isError ? (
        <div className="space-y-2">
          <InlineError error={query.error} />
          <Button variant="ghost" className="h-8 text-xs" onClick={() => void query.refetch()}>
            {t("common.retry")}
          </Button>
        </div>
      ) : (
        <>
          <ToolsForm key={employeeId} data={query.data} name={name} fired={fired} />
          <section aria-labelledby={networkHeading} className="mt-5 space-y-2 border-t border-slate-100 pt-4">
            <h4 id={networkHeading} className="text-sm font-medium text-slate-700">
              {t("profile.tools.network.title")}
            </h4>
            <NetworkToggle employeeId={employeeId} name={name} fired={fired} />
          </section>
        </>
      )}
    </Card>
  );
}

function ToolsForm({ data, name, fired }: { data: EmployeeToolsDto; name: string; fired: boolean }) {
  const { t } = useTranslation();
  const ids = useId();
  // null: nothing edited, the card shows what is saved (and follows it when it changes elsewhere).
  const [edit, setEdit] = useState<ToolsDraft | null>(null);
  const [saved, setSaved] = useState(false);
  const [commandError, setCommandError] = useState(false);
  const save = useInvalidatingMutation(api.setEmployeeTools, employeeToolsKeys(data.employeeId));
  const stored = draftOf(data);
  const draft = edit ?? stored;
  const dirty = edit !== null && !sameDraft(edit, stored);
  const effective = effectivePolicy(draft.policy, data.companyPolicy);
  const cli = draft.tools.includes(RUN_CLI);

  useEffect(() => {
    if (!saved) return;
    const timer = setTimeout(() => setSaved(false), SAVED_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [saved]);

  const change = (next: Partial<ToolsDraft>) => {
    setEdit({ ...draft, ...next });
    setSaved(false);
    setCommandError(false);
    save.reset();
  };

  const onSave = () => {
    if (needsCommand(draft)) {
      setCommandError(true);
      return;
    }
    save.mutate(toInput(data.employeeId, draft), {
      onSuccess: () => {
        setEdit(null);
        setSaved(true);
      },
    });
  };

  const policyLabel = (p: PolicyChoice) =>
    p === "company"
      ? t("profile.tools.policy.companyDefault", { policy: t(`profile.tools.policy.${data.companyPolicy}`) })
      : t(`profile.tools.policy.${p}`);
  const disabled = fired || save.isPending;

  return (
    <form
      className="space-y-5"
      onSubmit={(e) => {
        e.preventDefault();
        onSave();
      }}
    >
      {fired && <p className="rounded-lg bg-slate-50 px-3 py-2 text-xs text-slate-500">{t("profile.tools.fired", { name })}</p>}

      <div className="space-y-1.5">
        <label htmlFor={`${ids}-policy`} className="text-sm font-medium text-slate-700">
          {t("profile.tools.policyLabel")}
        </label>
        <select
          id={`${ids}-policy`}
          data-testid="tools-policy"
          className={`${inputClass} sm:max-w-xs`}
          value={draft.policy}
          disabled={disabled}
          aria-describedby={`${ids}-policy-hint`}
          onChange={(e) => change({ policy: e.target.value as PolicyChoice })}
        >
          {POLICY_CHOICES.map((p) => (
            <option key={p} value={p}>
              {policyLabel(p)}
            </option>
          ))}
        </select>
        <p id={`${ids}-policy-hint`} data-testid="tools-policy-hint" className="text-xs leading-relaxed text-slate-500">
          {draft.policy === "company" && `${t("profile.tools.policy.followsCompany")} `}
          {t(`profile.tools.policyHint.${effective}`)}
        </p>
        {effective === "auto" && <AutoWarning />}
      </div>

      <fieldset className="space-y-3" disabled={disabled}>
        <legend className="text-sm font-medium text-slate-700">{t("profile.tools.whitelist")}</legend>
        <p data-testid="tools-count" className="-mt-1 text-xs text-slate-500">
          {draft.tools.length === 0 ? t("profile.tools.noneAllowed", { name }) : t("profile.tools.allowed", { count: draft.tools.length })}
        </p>
        {data.catalogue.length === 0 ? (
          <p data-testid="tools-empty" className="py-2 text-center text-sm text-slate-500">
            {t("profile.tools.noCatalogue")}
          </p>
        ) : (
          byRisk(data.catalogue).map((group) => (
            <div key={group.risk} data-testid={`tools-group-${group.risk}`} className="rounded-lg ring-1 ring-slate-200">
              <div className="flex items-center gap-2 border-b border-slate-100 bg-slate-50/60 px-3 py-1.5">
                <Badge tone={RISK_TONE[group.risk]}>{t(`approvals.risk.${group.risk}`)}</Badge>
                <span className="text-xs text-slate-500">{t(`profile.tools.riskHint.${group.risk}`)}</span>
              </div>
              <ul className="divide-y divide-slate-100">
                {group.tools.map((tool) => (
                  <ToolRow
                    key={tool.name}
                    tool={tool}
                    checked={draft.tools.includes(tool.name)}
                    onChange={(on) => change({ tools: toggleTool(draft.tools, tool.name, on, data.catalogue) })}
                  />
                ))}
              </ul>
            </div>
          ))
        )}
      </fieldset>

      {cli && (
        <div className="space-y-1.5">
          <label htmlFor={`${ids}-cli`} className="text-sm font-medium text-slate-700">
            {t("profile.tools.cliLabel")}
          </label>
          <input
            id={`${ids}-cli`}
            data-testid="tools-cli-command"
            className={`${inputClass} font-mono`}
            value={draft.cliCommand}
            disabled={disabled}
            placeholder={t("profile.tools.cliPlaceholder")}
            spellCheck={false}
            autoComplete="off"
            aria-invalid={commandError}
            aria-describedby={`${ids}-cli-hint`}
            onChange={(e) => change({ cliCommand: e.target.value })}
          />
          {commandError && (
            <p role="alert" data-testid="tools-cli-error" className="text-xs text-rose-600">
              {t("profile.tools.cliRequired")}
            </p>
          )}
          <p id={`${ids}-cli-hint`} className="text-xs leading-relaxed text-slate-500">
            {t("profile.tools.cliHint")}
          </p>
          <p className="flex flex-wrap items-baseline gap-x-2 gap-y-1 text-xs text-slate-500">
            <span className="font-medium text-slate-600">{t("profile.tools.cliFolder")}</span>
            <code data-testid="tools-working-dir" className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-[11px] break-all text-slate-700">
              {data.workingDir}
            </code>
          </p>
        </div>
      )}

      {save.isError && (
        <div data-testid="tools-save-error" className="space-y-1">
          <InlineError error={save.error} />
          {errorDetail(save.error) && <TechnicalDetail detail={errorDetail(save.error)} />}
        </div>
      )}

      {!fired && (
        <div className="flex flex-wrap items-center justify-end gap-2 border-t border-slate-100 pt-4">
          {saved && !dirty && (
            <span role="status" data-testid="tools-saved" className="mr-auto text-sm text-emerald-700">
              {t("profile.tools.saved")}
            </span>
          )}
          {dirty && !save.isPending && (
            <Button
              variant="ghost"
              data-testid="tools-discard"
              onClick={() => {
                setEdit(null);
                setCommandError(false);
                save.reset();
              }}
            >
              {t("profile.tools.discard")}
            </Button>
          )}
          <Button type="submit" variant="primary" data-testid="tools-save" disabled={!dirty || save.isPending}>
            {save.isPending && <Spinner className="border-slate-500 border-t-white" />}
            {save.isPending ? t("common.saving") : t("common.save")}
          </Button>
        </div>
      )}
    </form>
  );
}

function ToolRow({ tool, checked, onChange }: { tool: ToolSpec; checked: boolean; onChange: (on: boolean) => void }) {
  const { t } = useTranslation();
  const id = useId();
  const known = isToolName(tool.name);
  return (
    <li className="flex items-start gap-3 px-3 py-2">
      <input
        id={id}
        type="checkbox"
        data-testid={`tool-${tool.name}`}
        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 accent-slate-900"
        checked={checked}
        onChange={(e) => onChange(e.target.checked)}
        aria-describedby={`${id}-hint`}
      />
      <label htmlFor={id} className="min-w-0 flex-1 cursor-pointer">
        <span className="flex flex-wrap items-baseline gap-x-2 text-sm text-slate-800">
          {known ? t(`tool.${tool.name}.ability`) : tool.name}
          <code className="font-mono text-[11px] text-slate-400">{tool.name}</code>
        </span>
        <span id={`${id}-hint`} className="block text-xs leading-relaxed text-slate-500">
          {known ? t(`tool.${tool.name}.hint`) : tool.description}
        </span>
      </label>
    </li>
  );
}

function AutoWarning() {
  const { t } = useTranslation();
  return (
    <div
      role="note"
      data-testid="tools-auto-warning"
      className="flex items-start gap-2 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-800 ring-1 ring-amber-600/20 ring-inset"
    >
      <AlertIcon className="mt-0.5 shrink-0" />
      <span>{t("profile.tools.autoWarning")}</span>
    </div>
  );
}

