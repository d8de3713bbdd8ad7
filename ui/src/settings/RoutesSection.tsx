import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { ProviderDto } from "../bindings/ProviderDto";
import type { Purpose } from "../bindings/Purpose";
import type { RouteDto } from "../bindings/RouteDto";
import { CheckIcon } from "../components/icons";
import { ErrorState, LoadingState, Spinner, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { queryKeys, useInvalidatingMutation, useProviders, useRoutes } from "../ipc/queries";
import { ROUTABLE_PURPOSES } from "./format";
import { SettingsSection } from "./SettingsSection";

/** Which provider and model does each kind of work. Saved as soon as it changes. */
export function RoutesSection() {
  const { t } = useTranslation();
  const routes = useRoutes();
  const providers = useProviders();

  let body;
  if (routes.isPending || providers.isPending) body = <LoadingState className="py-10" />;
  else if (routes.isError) body = <ErrorState error={routes.error} onRetry={() => void routes.refetch()} />;
  else if (providers.isError) body = <ErrorState error={providers.error} onRetry={() => void providers.refetch()} />;
  else {
    const byPurpose = new Map(routes.data.map((r) => [r.purpose, r]));
    body = (
      <ul className="divide-y divide-slate-100">
        {ROUTABLE_PURPOSES.map((purpose) => (
          <RouteRow key={purpose} purpose={purpose} route={byPurpose.get(purpose)} providers={providers.data} />
        ))}
      </ul>
    );
  }

  return (
    <SettingsSection id="routes" title={t("settings.routes.title")} description={t("settings.routes.description")}>
      {body}
    </SettingsSection>
  );
}

function RouteRow({ purpose, route, providers }: { purpose: Purpose; route: RouteDto | undefined; providers: ProviderDto[] }) {
  const { t } = useTranslation();
  const save = useInvalidatingMutation(api.setRoute, [queryKeys.routes]);
  const providerId = route?.providerId ?? "";
  const current = providers.find((p) => p.id === providerId);
  // Privacy reads a person's own words: only a model on this computer, or none (the rules alone).
  const privacy = purpose === "privacy";
  // Disabled providers are not offered, except the one in use (so the select still shows it).
  const choices = providers.filter((p) => (p.enabled || p.id === providerId) && (!privacy || p.onThisComputer));
  const listId = `route-models-${purpose}`;
  const label = (p: ProviderDto) => (p.builtin ? t("settings.routes.builtinOption", { name: p.name }) : p.name);

  return (
    // The provider column is as wide as its longest choice ("Built-in (SmolLM2-135M) · free"): a
    // select cannot wrap its label, so the column gives way instead of cutting it.
    <li data-testid={`route-row-${purpose}`} className="grid grid-cols-1 items-center gap-3 px-5 py-3.5 md:grid-cols-[minmax(10rem,1fr)_auto_minmax(9rem,14rem)_1.25rem]">
      <div className="min-w-0">
        <p className="text-sm font-medium text-slate-900">{t(`settings.routes.purpose.${purpose}`)}</p>
        <p className="text-xs text-slate-500">{t(`settings.routes.hint.${purpose}`)}</p>
        {save.isError && (
          <p role="alert" className="mt-1 text-xs text-rose-600">
            {t("settings.routes.failed", { message: t(errorKey(save.error)) })}
          </p>
        )}
      </div>
      <select
        data-testid={`route-provider-${purpose}`}
        aria-label={t("settings.routes.providerLabel", { purpose: t(`settings.routes.purpose.${purpose}`) })}
        className={`${inputClass} md:min-w-max`}
        title={current ? label(current) : undefined}
        value={providerId}
        disabled={save.isPending}
        onChange={(e) => {
          const next = providers.find((p) => p.id === e.target.value);
          if (next) save.mutate({ purpose, providerId: next.id, model: next.defaultModel });
          else if (privacy && e.target.value === "") save.mutate({ purpose, providerId: "", model: "" });
        }}
      >
        {privacy && <option value="">{t("settings.routes.rulesOnly")}</option>}
        {!current && !(privacy && providerId === "") && <option value={providerId}>{providerId || t("settings.routes.none")}</option>}
        {choices.map((p) => (
          <option key={p.id} value={p.id}>
            {label(p)}
          </option>
        ))}
      </select>
      {/* Remount when the saved route changes, so the draft starts from what the backend has. */}
      <ModelInput
        key={`${providerId}/${route?.model ?? ""}`}
        purpose={purpose}
        listId={listId}
        saved={route?.model ?? ""}
        disabled={save.isPending || !route || providerId === ""}
        onCommit={(model) => save.mutate({ purpose, providerId, model })}
      />
      <datalist id={listId}>
        {(current?.models.length ? current.models : current ? [current.defaultModel] : []).map((m) => (
          <option key={m} value={m} />
        ))}
      </datalist>
      <span className="hidden items-center justify-center md:flex" aria-live="polite">
        {save.isPending ? (
          <Spinner className="size-3.5" />
        ) : save.isSuccess ? (
          <CheckIcon className="text-emerald-600" aria-label={t("settings.routes.saved")} role="img" aria-hidden={false} />
        ) : null}
      </span>
    </li>
  );
}

function ModelInput({
  purpose,
  listId,
  saved,
  disabled,
  onCommit,
}: {
  purpose: Purpose;
  listId: string;
  saved: string;
  disabled: boolean;
  onCommit: (model: string) => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(saved);
  const commit = () => {
    const model = draft.trim();
    if (model === "") setDraft(saved);
    else if (model !== saved) onCommit(model);
  };
  return (
    <input
      data-testid={`route-model-${purpose}`}
      aria-label={t("settings.routes.modelLabel", { purpose: t(`settings.routes.purpose.${purpose}`) })}
      className={`${inputClass} font-mono`}
      list={listId}
      value={draft}
      spellCheck={false}
      disabled={disabled}
      placeholder={t("settings.routes.modelPlaceholder")}
      onChange={(e) => setDraft(e.target.value)}
      onBlur={commit}
      onKeyDown={(e) => {
        if (e.key === "Enter") {
          e.preventDefault();
          commit();
        } else if (e.key === "Escape") {
          setDraft(saved);
        }
      }}
    />
  );
}
