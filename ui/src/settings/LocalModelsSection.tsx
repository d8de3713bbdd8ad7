import { useEffect, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DownloadFailureKind } from "../bindings/DownloadFailureKind";
import type { LocalModelDto } from "../bindings/LocalModelDto";
import type { LocalServerDto } from "../bindings/LocalServerDto";
import { AlertIcon, CheckIcon, ChipIcon, PlugIcon, PlusIcon } from "../components/icons";
import { Badge, Button, ErrorState, InlineError, LoadingState, Spinner } from "../components/ui";
import { api } from "../ipc/api";
import { errorDetail } from "../ipc/errors";
import { PROVIDER_KEYS, queryKeys, useInvalidatingMutation, useLocalModels, useLocalServers, useRoutes } from "../ipc/queries";
import { currentLanguage } from "../i18n";
import { formatRate, formatSize, progressPercent } from "./format";
import { SettingsSection } from "./SettingsSection";

/** The section's anchor: `#settings/local-models` scrolls here (the first-run wizard links to it). */
export const LOCAL_MODELS_SECTION = "local-models";

/**
 * Settings → Local models: the catalogue of downloadable GGUFs (download with progress, pause,
 * resume, cancel, use as the built-in model) and model servers already running on this computer.
 */
export function LocalModelsSection() {
  const { t } = useTranslation();
  return (
    <SettingsSection id={LOCAL_MODELS_SECTION} title={t("settings.localModels.title")} description={t("settings.localModels.description")}>
      <DetectedServers />
      <Catalogue />
    </SettingsSection>
  );
}

function Catalogue() {
  const { t } = useTranslation();
  const models = useLocalModels();
  if (models.isPending) return <LoadingState className="py-10" />;
  if (models.isError) return <ErrorState error={models.error} onRetry={() => void models.refetch()} />;
  if (models.data.length === 0) {
    return <p className="px-5 py-8 text-center text-sm text-slate-500">{t("settings.localModels.empty")}</p>;
  }
  return (
    <ul data-testid="local-model-list" className="divide-y divide-slate-100">
      {models.data.map((m) => (
        <ModelRow key={m.id} model={m} />
      ))}
    </ul>
  );
}

function ModelRow({ model: m }: { model: LocalModelDto }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  return (
    <li data-testid={`local-model-${m.id}`} className="px-5 py-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h4 className="text-sm font-semibold text-slate-900">{m.name}</h4>
            <Badge>
              {m.params} · {m.quantization}
            </Badge>
            {m.writesChinese && <Badge tone="green">{t("settings.localModels.writesChinese")}</Badge>}
            {m.recommendedForZh && (
              <Badge tone="indigo" data-testid="local-model-recommended-zh">
                {t("settings.localModels.recommendedZh")}
              </Badge>
            )}
          </div>
          <dl className="mt-1.5 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <dt className="text-slate-400">{t("settings.localModels.size")}</dt>
            <dd className="text-slate-600">{formatSize(m.sizeBytes, lang)}</dd>
            <dt className="text-slate-400">{t("settings.localModels.ram")}</dt>
            <dd className="text-slate-600">{t("settings.localModels.ramValue", { size: formatSize(m.ramBytes, lang) })}</dd>
            <dt className="text-slate-400">{t("settings.localModels.languages")}</dt>
            <dd className="text-slate-600">{m.languages.join(", ")}</dd>
            <dt className="text-slate-400">{t("settings.localModels.licence")}</dt>
            <dd className="text-slate-600">
              <a href={m.licenceUrl} target="_blank" rel="noreferrer" className="underline decoration-slate-300 hover:text-slate-900">
                {m.licence}
              </a>
            </dd>
          </dl>
        </div>
        <ModelActions model={m} />
      </div>
      <ModelProgress model={m} />
    </li>
  );
}

/** The buttons for where a model stands; every command's failure shows under the row. */
function ModelActions({ model: m }: { model: LocalModelDto }) {
  const { t } = useTranslation();
  const keys = [queryKeys.localModels];
  const start = useInvalidatingMutation(api.startModelDownload, keys);
  const pause = useInvalidatingMutation(api.pauseModelDownload, keys);
  const cancel = useInvalidatingMutation(api.cancelModelDownload, keys);
  const use = useInvalidatingMutation(api.useLocalModel, [...PROVIDER_KEYS]);
  const useForThoughts = useInvalidatingMutation(api.useLocalModelFor, [...PROVIDER_KEYS]);
  const routes = useRoutes();
  const thinks = routes.data?.some((r) => r.purpose === "thought" && r.providerId === "builtin" && r.model === m.id) ?? false;
  const ref = { modelId: m.id };
  const busy = start.isPending || pause.isPending || cancel.isPending || use.isPending || useForThoughts.isPending;
  const error = start.error ?? pause.error ?? cancel.error ?? use.error ?? useForThoughts.error;
  const s = m.state;

  const cancelButton = (
    <Button variant="ghost" data-testid={`local-model-cancel-${m.id}`} disabled={busy} onClick={() => cancel.mutate(ref)}>
      {t("settings.localModels.cancel")}
    </Button>
  );
  return (
    <div className="flex shrink-0 flex-col items-end gap-2">
      <div className="flex items-center gap-1.5">
        {s.status === "not_installed" && (
          <Button variant="primary" data-testid={`local-model-download-${m.id}`} disabled={busy} onClick={() => start.mutate(ref)}>
            {t("settings.localModels.download")}
          </Button>
        )}
        {s.status === "downloading" && (
          <>
            <Button data-testid={`local-model-pause-${m.id}`} disabled={busy} onClick={() => pause.mutate(ref)}>
              {t("settings.localModels.pause")}
            </Button>
            {cancelButton}
          </>
        )}
        {(s.status === "paused" || s.status === "failed") && (
          <>
            <Button variant="primary" data-testid={`local-model-resume-${m.id}`} disabled={busy} onClick={() => start.mutate(ref)}>
              {s.status === "paused" || s.received > 0 ? t("settings.localModels.resume") : t("settings.localModels.retry")}
            </Button>
            {(s.status === "paused" || s.received > 0) && cancelButton}
          </>
        )}
        {s.status === "verifying" && (
          <span className="flex items-center gap-2 text-xs text-slate-500">
            <Spinner className="size-3.5" />
            {t("settings.localModels.verifying")}
          </span>
        )}
        {s.status === "installed" &&
          (s.inUse ? (
            <Badge tone="green" data-testid={`local-model-in-use-${m.id}`}>
              <CheckIcon />
              {t("settings.localModels.inUse")}
            </Badge>
          ) : (
            <>
              <Badge tone="green">{t("settings.localModels.installed")}</Badge>
              <Button variant="primary" data-testid={`local-model-use-${m.id}`} disabled={busy} onClick={() => use.mutate(ref)}>
                <ChipIcon />
                {t("settings.localModels.use")}
              </Button>
            </>
          ))}
        {s.status === "installed" &&
          !s.inUse &&
          (thinks ? (
            <Badge tone="indigo" data-testid={`local-model-thinks-${m.id}`}>
              <CheckIcon />
              {t("settings.localModels.thinks")}
            </Badge>
          ) : (
            <Button
              data-testid={`local-model-use-for-thoughts-${m.id}`}
              disabled={busy || routes.isLoading}
              title={t("settings.localModels.useForThoughtsHint")}
              onClick={() => useForThoughts.mutate({ modelId: m.id, purpose: "thought" })}
            >
              {t("settings.localModels.useForThoughts")}
            </Button>
          ))}
      </div>
      {error !== null && <InlineError error={error} />}
    </div>
  );
}

function ModelProgress({ model: m }: { model: LocalModelDto }) {
  const { t } = useTranslation();
  const lang = currentLanguage();
  const s = m.state;
  if (s.status === "failed") {
    const g = s.gaveUp;
    return (
      <div role="alert" data-testid={`local-model-error-${m.id}`} data-kind={g?.kind} className="mt-3 flex items-start gap-2 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-inset ring-rose-200">
        <AlertIcon className="mt-0.5 shrink-0" />
        {g ? (
          // The network stack's own words are English: a tooltip, not the text.
          <div className="min-w-0" title={g.detail}>
            <p>
              {t(s.received > 0 ? "settings.localModels.gaveUp" : "settings.localModels.gaveUpNothing", {
                attempts: g.attempts,
                seconds: g.seconds,
                reason: reasonText(t, g),
              })}
            </p>
            <p className="mt-0.5 text-xs break-words text-rose-600/80">{t(`settings.localModels.fix.${g.kind}`)}</p>
          </div>
        ) : (
          <div className="min-w-0">
            <p>{t(`settings.localModels.failed.${s.error.code}`, { defaultValue: t(`errors.${s.error.code}`) })}</p>
            <p className="mt-0.5 text-xs break-words text-rose-600/80">{errorDetail(s.error)}</p>
          </div>
        )}
      </div>
    );
  }
  if (s.status !== "downloading" && s.status !== "paused") return null;
  const percent = progressPercent(s.received, s.total);
  const amounts = { received: formatSize(s.received, lang), total: formatSize(s.total, lang), percent };
  const retry = s.status === "downloading" ? s.retry : null;
  const line =
    s.status === "paused" ? (
      t("settings.localModels.pausedAt", amounts)
    ) : retry ? (
      <RetryLine amounts={amounts} retry={retry} />
    ) : s.reconnecting ? (
      t("settings.localModels.reconnecting", amounts)
    ) : (
      t("settings.localModels.progress", { ...amounts, rate: formatRate(s.bytesPerSec, lang) })
    );
  return (
    <div className="mt-3 space-y-1">
      <div
        role="progressbar"
        aria-label={t("settings.localModels.progressLabel", { name: m.name })}
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        data-testid={`local-model-progress-${m.id}`}
        className="h-2 overflow-hidden rounded-full bg-slate-100"
      >
        <div className={`h-full rounded-full ${s.status === "paused" ? "bg-slate-400" : "bg-indigo-500"}`} style={{ width: `${percent}%` }} />
      </div>
      <p data-testid={`local-model-status-${m.id}`} data-kind={retry?.kind} className="text-xs text-slate-500" aria-live="polite" title={retry?.detail}>
        {line}
      </p>
    </div>
  );
}

type Translate = ReturnType<typeof useTranslation>["t"];

/** "could not resolve huggingface.co": why an attempt failed, in the boss's language. */
function reasonText(t: Translate, f: { kind: DownloadFailureKind; host: string; status: number | null }): string {
  return t(`settings.localModels.why.${f.kind}`, { host: f.host, status: f.status ?? "" });
}

/** Whole seconds until `atMs`, re-rendered every second while it counts down. */
function useSecondsUntil(atMs: number): number {
  const [, setTick] = useState(0);
  useEffect(() => {
    const timer = setInterval(() => setTick((n) => n + 1), 1000);
    return () => clearInterval(timer);
  }, [atMs]);
  // Read the clock on every render, so a new retry time shows at once.
  return Math.max(0, Math.ceil((atMs - Date.now()) / 1000));
}

/** "attempt 2 of 5 · next try in 8 s · could not resolve huggingface.co". */
function RetryLine({
  amounts,
  retry,
}: {
  amounts: { received: string; total: string; percent: number };
  retry: NonNullable<Extract<LocalModelDto["state"], { status: "downloading" }>["retry"]>;
}) {
  const { t } = useTranslation();
  const seconds = useSecondsUntil(retry.nextTryAtMs);
  const values = { ...amounts, attempt: retry.nextAttempt, max: retry.maxAttempts, seconds, reason: reasonText(t, retry) };
  return <>{seconds > 0 ? t("settings.localModels.retrying", values) : t("settings.localModels.retryingNow", values)}</>;
}

function DetectedServers() {
  const { t } = useTranslation();
  const servers = useLocalServers();
  return (
    <div data-testid="local-servers" className="border-b border-slate-100 px-5 py-4">
      <div className="flex items-center justify-between gap-3">
        <h4 className="flex items-center gap-2 text-sm font-semibold text-slate-900">
          <PlugIcon />
          {t("settings.localModels.servers.title")}
        </h4>
        <Button variant="ghost" data-testid="local-servers-rescan" disabled={servers.isFetching} onClick={() => void servers.refetch()}>
          {servers.isFetching ? <Spinner className="size-3.5" /> : null}
          {t("settings.localModels.servers.rescan")}
        </Button>
      </div>
      {servers.isPending ? (
        <p className="mt-2 flex items-center gap-2 text-xs text-slate-500">
          <Spinner className="size-3.5" />
          {t("settings.localModels.servers.looking")}
        </p>
      ) : servers.isError ? (
        <ErrorState error={servers.error} onRetry={() => void servers.refetch()} />
      ) : servers.data.length === 0 ? (
        <p data-testid="local-servers-empty" className="mt-2 text-xs text-slate-500">
          {t("settings.localModels.servers.none")}
        </p>
      ) : (
        <ul className="mt-2 space-y-2">
          {servers.data.map((s) => (
            <ServerRow key={s.baseUrl} server={s} />
          ))}
        </ul>
      )}
    </div>
  );
}

function ServerRow({ server: s }: { server: LocalServerDto }) {
  const { t } = useTranslation();
  const add = useInvalidatingMutation(api.addLocalServer, [...PROVIDER_KEYS]);
  return (
    <li data-testid={`local-server-${s.kind}`} className="flex flex-wrap items-center justify-between gap-2 rounded-lg bg-slate-50 px-3 py-2">
      <div className="min-w-0 text-sm">
        <span className="font-medium text-slate-900">{s.name}</span> <span className="font-mono text-xs text-slate-500">{s.baseUrl}</span>
        <p className="truncate text-xs text-slate-500" title={s.models.join(", ")}>
          {s.models.length === 0 ? t("settings.localModels.servers.noModels") : t("settings.localModels.servers.models", { models: s.models.join(", ") })}
        </p>
        {add.isError && <InlineError error={add.error} />}
      </div>
      {s.added || add.isSuccess ? (
        <Badge tone="green">{t("settings.localModels.servers.added")}</Badge>
      ) : (
        <Button
          data-testid={`local-server-add-${s.kind}`}
          disabled={add.isPending}
          onClick={() => add.mutate({ kind: s.kind, baseUrl: s.baseUrl, model: null })}
        >
          {add.isPending ? <Spinner className="size-3.5" /> : <PlusIcon />}
          {t("settings.localModels.servers.add")}
        </Button>
      )}
    </li>
  );
}
