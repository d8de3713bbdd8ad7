import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import { Button, InlineError, Spinner, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { queryKeys, useInvalidatingMutation, useWebhookDestinations } from "../ipc/queries";
import { useRoute } from "../shell/route";
import { SettingsSection } from "./SettingsSection";
import { destinationOf } from "./webhooks";

/** The hosts employees' webhooks may reach; everything else, and every private address, is refused. */
export function WebhooksSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection id="webhooks" title={t("settings.webhooks.title")} description={t("settings.webhooks.description")} padded>
      <WebhooksBody />
    </SettingsSection>
  );
}

/** The host a refusal's fix link carries (`#settings/webhooks/<host>`), to be filled in for the boss to allow. */
function usePrefill(): string | null {
  const route = useRoute();
  return route.page === "settings" && route.section === "webhooks" ? (route.host ?? null) : null;
}

function WebhooksBody() {
  const { t } = useTranslation();
  const list = useWebhookDestinations();
  const save = useInvalidatingMutation(api.setWebhookDestinations, [queryKeys.webhookDestinations]);
  const prefill = usePrefill();
  const [text, setText] = useState(prefill ?? "");
  const [error, setError] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  // A fix link fills the host in (also when the page was already open) and puts the cursor there: one click allows it.
  useEffect(() => {
    if (prefill === null) return;
    setText(prefill);
    setError(null);
    input.current?.focus({ preventScroll: true });
  }, [prefill, list.isPending]);

  if (list.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 text-sm text-slate-500">
        <Spinner />
        {t("common.loading")}
      </div>
    );
  }
  if (list.isError) {
    return (
      <p role="alert" className="text-sm text-rose-600">
        {t("settings.webhooks.failed", { message: t(errorKey(list.error)) })}
      </p>
    );
  }
  const hosts = list.data.hosts;

  const onAdd = (e: FormEvent) => {
    e.preventDefault();
    const host = destinationOf(text);
    if (host === null) return setError(t("settings.webhooks.notAHost", { input: text.trim() }));
    if (hosts.includes(host)) return setError(t("settings.webhooks.already", { host }));
    setError(null);
    save.mutate({ hosts: [...hosts, host] }, { onSuccess: () => setText("") });
  };

  return (
    <div className="space-y-3">
      {hosts.length === 0 ? (
        <p data-testid="webhooks-empty" className="text-sm text-slate-500">
          {t("settings.webhooks.empty")}
        </p>
      ) : (
        <ul data-testid="webhooks-list" className="divide-y divide-slate-100 rounded-lg ring-1 ring-slate-200">
          {hosts.map((host) => (
            <li key={host} className="flex items-center justify-between gap-3 px-3 py-2">
              <span className="font-mono text-sm text-slate-800">{host}</span>
              <Button
                variant="ghost"
                disabled={save.isPending}
                aria-label={t("settings.webhooks.removeLabel", { host })}
                onClick={() => save.mutate({ hosts: hosts.filter((h) => h !== host) })}
              >
                {t("settings.webhooks.remove")}
              </Button>
            </li>
          ))}
        </ul>
      )}
      <form onSubmit={onAdd} noValidate className="space-y-2">
        <label htmlFor="webhook-host" className="block text-sm font-medium text-slate-700">
          {t("settings.webhooks.label")}
        </label>
        <div className="flex gap-2">
          <input
            ref={input}
            id="webhook-host"
            data-testid="webhook-host"
            className={`${inputClass} flex-1 font-mono`}
            placeholder="hooks.slack.com"
            value={text}
            aria-invalid={Boolean(error)}
            aria-describedby={error ? "webhook-error" : "webhook-hint"}
            onChange={(e) => {
              setText(e.target.value);
              setError(null);
              save.reset();
            }}
          />
          <Button type="submit" variant="primary" data-testid="webhook-add" disabled={save.isPending}>
            {save.isPending ? t("common.saving") : t("settings.webhooks.add")}
          </Button>
        </div>
        {prefill !== null && text === prefill && !hosts.includes(prefill) && !error && (
          <p data-testid="webhook-prefilled" role="status" className="text-xs font-medium text-amber-700">
            {t("settings.webhooks.prefilled", { host: prefill })}
          </p>
        )}
        {error ? (
          <p id="webhook-error" role="alert" className="text-xs text-rose-600">
            {error}
          </p>
        ) : (
          <p id="webhook-hint" className="text-xs text-slate-500">
            {t("settings.webhooks.hint")}
          </p>
        )}
        {save.isError && <InlineError error={save.error} />}
      </form>
    </div>
  );
}
