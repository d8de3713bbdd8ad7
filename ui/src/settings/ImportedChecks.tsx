import { useTranslation } from "react-i18next";
import type { ConfirmImported } from "../bindings/ConfirmImported";
import { AlertIcon, CheckIcon } from "../components/icons";
import { Button, ErrorState, InlineError, LoadingState, Spinner } from "../components/ui";
import { api } from "../ipc/api";
import { queryKeys, useImportedToConfirm, useInvalidatingMutation } from "../ipc/queries";
import { WithCode } from "../components/WithCode";

/** Confirms one imported URL or command exactly as shown; refreshes whatever shows it. */
export function useConfirmImported() {
  return useInvalidatingMutation((input: ConfirmImported) => api.confirmImported(input), [queryKeys.providers, queryKeys.employeeTools]);
}

/**
 * What an imported company brought that is not used until the boss confirms it: providers' base URLs and CLI
 * employees' commands, each shown exactly as it would be used, with its own Confirm button.
 */
export function ImportedChecks() {
  const { t } = useTranslation();
  const waiting = useImportedToConfirm();
  const confirm = useConfirmImported();

  if (waiting.isPending) return <LoadingState className="py-4" />;
  if (waiting.isError) return <ErrorState error={waiting.error} onRetry={() => void waiting.refetch()} />;
  const { providers, cliCommands } = waiting.data;
  const busy = confirm.isPending;

  return (
    <div data-testid="imported-checks" className="space-y-2">
      <p className="text-sm text-slate-500"><WithCode text={t("settings.bundle.imported.hint")} /></p>
      {providers.length === 0 && cliCommands.length === 0 ? (
        <p data-testid="imported-checks-empty" className="flex items-center gap-1.5 text-sm text-emerald-700">
          <CheckIcon width={14} height={14} />
          {t("settings.bundle.imported.empty")}
        </p>
      ) : (
        <ul className="space-y-2">
          {providers.map((p) => (
            <ImportedItem
              key={`provider-${p.providerId}`}
              testId={`imported-provider-${p.providerId}`}
              label={t("settings.bundle.imported.provider", { name: p.name })}
              value={p.baseUrl}
              name={p.name}
              busy={busy}
              onConfirm={() => confirm.mutate({ kind: "provider_url", providerId: p.providerId, baseUrl: p.baseUrl })}
            />
          ))}
          {cliCommands.map((c) => (
            <ImportedItem
              key={`cli-${c.employeeId}`}
              testId={`imported-cli-${c.employeeId}`}
              label={t("settings.bundle.imported.cli", { name: c.employeeName })}
              value={c.command}
              name={c.employeeName}
              busy={busy}
              onConfirm={() => confirm.mutate({ kind: "cli_command", employeeId: c.employeeId, command: c.command })}
            />
          ))}
        </ul>
      )}
      {confirm.isError && <InlineError error={confirm.error} />}
    </div>
  );
}

function ImportedItem(props: { testId: string; label: string; value: string; name: string; busy: boolean; onConfirm: () => void }) {
  const { t } = useTranslation();
  return (
    <li data-testid={props.testId} className="flex flex-wrap items-start gap-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-200 ring-inset">
      <AlertIcon className="mt-0.5 shrink-0" />
      <div className="min-w-0 flex-1">
        <p>{props.label}</p>
        {/* Exactly what would be used: never shortened, never styled away. */}
        <code data-testid={`${props.testId}-value`} className="mt-1 block rounded bg-white/70 px-1.5 py-1 font-mono text-xs break-all whitespace-pre-wrap text-amber-950">
          {props.value}
        </code>
      </div>
      <Button
        data-testid={`${props.testId}-confirm`}
        disabled={props.busy}
        aria-label={t("settings.bundle.imported.confirmNamed", { name: props.name })}
        onClick={props.onConfirm}
      >
        {props.busy && <Spinner className="size-3.5" />}
        {props.busy ? t("settings.bundle.imported.confirming") : t("settings.bundle.imported.confirm")}
      </Button>
    </li>
  );
}
