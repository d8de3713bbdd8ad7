import { useId } from "react";
import { useTranslation } from "react-i18next";
import { Button, InlineError, LoadingState, Spinner } from "../components/ui";
import { api } from "../ipc/api";
import { queryKeys, useEmployeeNetwork, useInvalidatingMutation } from "../ipc/queries";

/**
 * Whether the sandbox an employee's commands (shell and CLI runs) start in has the network. It is
 * off by default and saved the moment it is switched, apart from the card's Save, because it is
 * one setting with one effect; the words say what switching it on risks.
 */
export function NetworkToggle({ employeeId, name, fired }: { employeeId: number; name: string; fired: boolean }) {
  const { t } = useTranslation();
  const ids = useId();
  const query = useEmployeeNetwork(employeeId);
  const save = useInvalidatingMutation(api.setEmployeeNetworkAccess, [queryKeys.employeeNetworkOf(employeeId)]);

  if (query.isPending) return <LoadingState className="py-3" />;
  if (query.isError) {
    return (
      <div data-testid="network-load-error" className="space-y-2">
        <InlineError error={query.error} />
        <Button variant="ghost" className="h-8 text-xs" onClick={() => void query.refetch()}>
          {t("common.retry")}
        </Button>
      </div>
    );
  }

  const on = query.data;
  const busy = save.isPending || query.isFetching;
  return (
    <div data-testid="network-access" className="space-y-2">
      <div className="flex items-start gap-3">
        <button
          type="button"
          role="switch"
          id={`${ids}-switch`}
          aria-checked={on}
          aria-labelledby={`${ids}-label`}
          aria-describedby={`${ids}-hint`}
          data-testid="network-toggle"
          disabled={fired || busy}
          onClick={() => save.mutate({ employeeId, allowed: !on })}
          className="mt-0.5 shrink-0 rounded-full focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed disabled:opacity-60"
        >
          <span aria-hidden="true" className={`relative inline-flex h-5 w-9 rounded-full transition-colors ${on ? "bg-rose-600" : "bg-slate-300"}`}>
            <span className={`absolute top-0.5 size-4 rounded-full bg-white shadow-sm transition-transform ${on ? "translate-x-4.5" : "translate-x-0.5"}`} />
          </span>
        </button>
        <div className="min-w-0 flex-1">
          <p className="flex flex-wrap items-center gap-x-2 text-sm font-medium text-slate-700">
            <label id={`${ids}-label`} htmlFor={`${ids}-switch`} className={fired ? "" : "cursor-pointer"}>
              {t("profile.tools.network.label", { name })}
            </label>
            <span data-testid="network-state" className={on ? "text-rose-700" : "text-slate-500"}>
              {on ? t("profile.tools.network.on") : t("profile.tools.network.off")}
            </span>
            {busy && <Spinner />}
          </p>
          <p id={`${ids}-hint`} data-testid="network-hint" className="text-xs leading-relaxed text-slate-500">
            {t("profile.tools.network.hint")}
          </p>
        </div>
      </div>
      {save.isError && (
        <div data-testid="network-save-error">
          <InlineError error={save.error} />
        </div>
      )}
    </div>
  );
}
