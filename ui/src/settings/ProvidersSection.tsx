import { useEffect, useId, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { BuiltinStatus } from "../bindings/BuiltinStatus";
import type { ProviderDto } from "../bindings/ProviderDto";
import type { TestResult } from "../bindings/TestResult";
import { AlertIcon, CheckIcon, KeyIcon, PencilIcon, PlugIcon, PlusIcon, TrashIcon } from "../components/icons";
import { Badge, Button, ErrorState, InlineError, LoadingState, Spinner, inputClass, type Tone } from "../components/ui";
import { api } from "../ipc/api";
import { errorCode, errorDetail, errorKey } from "../ipc/errors";
import { BUILTIN_MODEL_KEYS, PROVIDER_KEYS, useBuiltinStatus, useInvalidatingMutation, useProviders } from "../ipc/queries";
import { currentLanguage } from "../i18n";
import { envVarFor, formatBytes, isAbsolutePath, keyStatus, type KeyStatus } from "./format";
import { BuiltinModels } from "./BuiltinModels";
import { useConfirmImported } from "./ImportedChecks";
import { DeleteProviderDialog, ProviderDialog } from "./ProviderDialog";
import { SettingsSection } from "./SettingsSection";
import { useSetProviderKey } from "./useProviderKey";

type Dialog = { kind: "add" } | { kind: "edit"; provider: ProviderDto } | { kind: "delete"; provider: ProviderDto } | null;

/** `startAdding`: open the add-provider dialog at once (the first run's "use a provider key"). */
export function ProvidersSection({ startAdding = false }: { startAdding?: boolean }) {
  const { t } = useTranslation();
  const providers = useProviders();
  const [dialog, setDialog] = useState<Dialog>(null);
  // On arrival and on each new link here (the page stays mounted when only the hash's section changes).
  useEffect(() => {
    if (startAdding) setDialog({ kind: "add" });
  }, [startAdding]);
  const close = () => setDialog(null);

  // The built-in model first, then the rest in the backend's order.
  const list = providers.data ? [...providers.data].sort((a, b) => Number(b.builtin) - Number(a.builtin)) : [];

  return (
    <SettingsSection
      id="providers"
      title={t("settings.providers.title")}
      description={t("settings.providers.description")}
      actions={
        <Button variant="primary" data-testid="add-provider-button" onClick={() => setDialog({ kind: "add" })}>
          <PlusIcon />
          {t("settings.providers.add")}
        </Button>
      }
    >
      {providers.isPending ? (
        <LoadingState className="py-10" />
      ) : providers.isError ? (
        <ErrorState error={providers.error} onRetry={() => void providers.refetch()} />
      ) : list.length === 0 ? (
        <p className="px-5 py-8 text-center text-sm text-slate-500">{t("settings.providers.empty")}</p>
      ) : (
        <ul data-testid="provider-list" className="divide-y divide-slate-100">
          {list.map((p) => (
            <ProviderRow
              key={p.id}
              provider={p}
              onEdit={() => setDialog({ kind: "edit", provider: p })}
              onDelete={() => setDialog({ kind: "delete", provider: p })}
            />
          ))}
        </ul>
      )}

      {dialog?.kind === "add" && <ProviderDialog existing={list} onClose={close} />}
      {dialog?.kind === "edit" && <ProviderDialog existing={list} provider={dialog.provider} onClose={close} />}
      {dialog?.kind === "delete" && <DeleteProviderDialog provider={dialog.provider} onClose={close} />}
    </SettingsSection>
  );
}

function ProviderRow({ provider: p, onEdit, onDelete }: { provider: ProviderDto; onEdit: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const test = useInvalidatingMutation(api.testProvider, []);

  return (
    <li data-testid={`provider-row-${p.id}`} className="px-5 py-4">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h3 data-testid={`provider-name-${p.id}`} className="text-sm font-semibold text-slate-900">
              {p.name}
            </h3>
            {p.builtin ? (
              <Badge tone="indigo" data-testid="provider-builtin-badge">
                {t("settings.providers.builtinBadge")}
              </Badge>
            ) : (
              <Badge>{p.preset}</Badge>
            )}
            {!p.enabled && <Badge tone="amber">{t("settings.providers.disabled")}</Badge>}
            {p.importedUnconfirmed && (
              <Badge tone="amber" data-testid={`provider-imported-${p.id}`}>
                {t("settings.providers.importedBadge")}
              </Badge>
            )}
            {!p.builtin && <KeyBadge provider={p} />}
          </div>
          <dl className="mt-1.5 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            {!p.builtin && (
              <>
                <dt className="text-slate-400">{t("settings.providers.baseUrl")}</dt>
                <dd className="truncate font-mono text-slate-600" title={p.baseUrl}>
                  {p.baseUrl}
                </dd>
              </>
            )}
            <dt className="text-slate-400">{t("settings.providers.defaultModel")}</dt>
            <dd className="truncate font-mono text-slate-600">{p.defaultModel}</dd>
            {p.models.filter((m) => m !== p.defaultModel).length > 0 && (
              <>
                <dt className="text-slate-400">{t("settings.providers.otherModels")}</dt>
                <dd className="truncate font-mono text-slate-600" title={p.models.join(", ")}>
                  {p.models.filter((m) => m !== p.defaultModel).join(", ")}
                </dd>
              </>
            )}
          </dl>
        </div>
        <div className="flex shrink-0 items-center gap-1.5">
          <Button
            data-testid={`provider-test-${p.id}`}
            disabled={test.isPending}
            onClick={() => test.mutate({ providerId: p.id, model: null })}
          >
            {test.isPending ? <Spinner className="size-3.5" /> : <PlugIcon />}
            {test.isPending ? t("settings.test.running") : t("settings.test.button")}
          </Button>
          {!p.builtin && (
            <>
              <Button variant="ghost" data-testid={`provider-edit-${p.id}`} onClick={onEdit} aria-label={t("settings.providers.editNamed", { name: p.name })}>
                <PencilIcon />
                {t("settings.providers.edit")}
              </Button>
              <Button
                variant="ghost"
                className="hover:bg-rose-50! hover:text-rose-700!"
                data-testid={`provider-delete-${p.id}`}
                onClick={onDelete}
                aria-label={t("settings.providers.deleteNamed", { name: p.name })}
              >
                <TrashIcon />
              </Button>
            </>
          )}
        </div>
      </div>

      {p.importedUnconfirmed && <ConfirmImportedUrl provider={p} />}

      {p.builtin ? <BuiltinInstall /> : <KeyForm provider={p} />}

      {(test.isPending || test.isSuccess || test.isError) && (
        <div data-testid={`provider-test-result-${p.id}`} aria-live="polite" className="mt-3">
          {test.isPending ? (
            <p className="flex items-center gap-2 text-xs text-slate-500">
              <Spinner className="size-3.5" />
              {t("settings.test.runningLong")}
            </p>
          ) : test.isError ? (
            <TestFailure code={t(errorKey(test.error))} detail={errorDetail(test.error)} />
          ) : test.data ? (
            <TestOutcome result={test.data} />
          ) : null}
        </div>
      )}
    </li>
  );
}

/** An imported provider's base URL, shown whole, with the one button that lets calls go there. */
function ConfirmImportedUrl({ provider: p }: { provider: ProviderDto }) {
  const { t } = useTranslation();
  const confirm = useConfirmImported();
  return (
    <div data-testid={`provider-confirm-box-${p.id}`} className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900 ring-1 ring-amber-200 ring-inset">
      <p>{t("settings.providers.importedHint")}</p>
      <div className="mt-1.5 flex flex-wrap items-center gap-2">
        <code className="min-w-0 flex-1 rounded bg-white/70 px-1.5 py-1 font-mono break-all text-amber-950">{p.baseUrl}</code>
        <Button
          data-testid={`provider-confirm-${p.id}`}
          disabled={confirm.isPending}
          onClick={() => confirm.mutate({ kind: "provider_url", providerId: p.id, baseUrl: p.baseUrl })}
        >
          {confirm.isPending && <Spinner className="size-3.5" />}
          {confirm.isPending ? t("settings.providers.confirming") : t("settings.providers.confirmUrl")}
        </Button>
      </div>
      {confirm.isError && (
        <div className="mt-2">
          <InlineError error={confirm.error} />
        </div>
      )}
    </div>
  );
}

const KEY_TONES: Record<KeyStatus, Tone> = { keychain: "green", environment: "green", missing: "amber", not_needed: "slate" };

function KeyBadge({ provider }: { provider: ProviderDto }) {
  const { t } = useTranslation();
  const status = keyStatus(provider);
  return (
    <Badge tone={KEY_TONES[status]} data-testid={`provider-key-status-${provider.id}`} data-status={status}>
      <KeyIcon width={12} height={12} />
      {t(`settings.keys.status.${status}`)}
    </Badge>
  );
}

function TestOutcome({ result }: { result: TestResult }) {
  const { t } = useTranslation();
  if (!result.ok) {
    return (
      <TestFailure
        code={result.error ? t(errorKey(result.error)) : t("settings.test.failedNoDetail")}
        detail={result.error?.message ?? ""}
        codeName={result.error?.code}
      />
    );
  }
  return (
    <div className="flex items-start gap-2 rounded-lg bg-emerald-50 px-3 py-2 text-sm text-emerald-800 ring-1 ring-emerald-200 ring-inset" data-ok="true">
      <CheckIcon className="mt-0.5 shrink-0" />
      <div className="min-w-0">
        <p className="font-medium">{t("settings.test.ok", { latency: result.latencyMs, model: result.model })}</p>
        {result.reply !== null && result.reply.trim() !== "" && (
          <p className="mt-0.5 line-clamp-2 text-xs text-emerald-700" title={result.reply}>
            {t("settings.test.reply", { reply: result.reply.trim() })}
          </p>
        )}
      </div>
    </div>
  );
}

function TestFailure({ code, detail, codeName }: { code: string; detail: string; codeName?: string }) {
  return (
    <div role="alert" data-ok="false" className="flex items-start gap-2 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200 ring-inset">
      <AlertIcon className="mt-0.5 shrink-0" />
      <div className="min-w-0">
        <p className="font-medium">
          {code}
          {codeName && <span className="ml-1.5 font-mono text-xs font-normal text-rose-500">({codeName})</span>}
        </p>
        {detail && <p className="mt-0.5 text-xs break-words text-rose-600">{detail}</p>}
      </div>
    </div>
  );
}

function BuiltinInstall() {
  const { t } = useTranslation();
  const status = useBuiltinStatus();
  if (status.isPending) {
    return (
      <p className="mt-3 flex items-center gap-2 text-xs text-slate-500">
        <Spinner className="size-3.5" />
        {t("settings.builtin.checking")}
      </p>
    );
  }
  if (status.isError) {
    return (
      <p role="alert" className="mt-3 text-xs text-rose-600">
        {t("settings.builtin.statusFailed", { message: t(errorKey(status.error)) })}
      </p>
    );
  }
  return <BuiltinInstallStatus status={status.data} />;
}

function BuiltinInstallStatus({ status }: { status: BuiltinStatus }) {
  const { t } = useTranslation();
  return (
    <div className="mt-3 space-y-2">
      {status.installed ? (
        <p data-testid="builtin-status" data-installed="true" className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
          <Badge tone="green">
            <CheckIcon width={12} height={12} />
            {t("settings.builtin.installed")}
          </Badge>
          {status.sizeBytes !== null && <span>{formatBytes(status.sizeBytes, currentLanguage())}</span>}
        </p>
      ) : (
        <div data-testid="builtin-status" data-installed="false" className="rounded-lg bg-amber-50 px-3 py-2 text-xs text-amber-900 ring-1 ring-amber-200 ring-inset">
          <p className="font-medium">{status.custom ? t("settings.builtin.customMissing") : t("settings.builtin.notInstalled")}</p>
          <p className="mt-1">
            {status.custom ? t("settings.builtin.installBundledHow") : t("settings.builtin.installHow")}{" "}
            <code className="rounded bg-white/70 px-1 py-0.5 font-mono text-[11px] text-amber-950">scripts/install-model.sh</code>
          </p>
          {status.defaultPath && <p className="mt-1 break-all text-amber-800">{t("settings.builtin.expectedAt", { path: status.defaultPath })}</p>}
        </div>
      )}
      <BuiltinModels status={status} />
      <BuiltinModelFile status={status} />
    </div>
  );
}

/** Which GGUF file the built-in model loads: the bundled one, or one the boss points at. */
function BuiltinModelFile({ status }: { status: BuiltinStatus }) {
  const { t } = useTranslation();
  const [editing, setEditing] = useState(false);
  const [path, setPath] = useState("");
  const [invalid, setInvalid] = useState(false);
  const save = useInvalidatingMutation(api.setBuiltinModel, BUILTIN_MODEL_KEYS);
  const inputId = useId();
  const hintId = `${inputId}-hint`;

  const close = () => {
    setEditing(false);
    setPath("");
    setInvalid(false);
    save.reset();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const value = path.trim();
    if (!isAbsolutePath(value)) {
      setInvalid(true);
      return;
    }
    setInvalid(false);
    save.mutate({ path: value }, { onSuccess: close });
  };

  const reset = () => {
    setEditing(false);
    setPath("");
    setInvalid(false);
    save.mutate({ path: null });
  };

  return (
    <div className="text-xs">
      <div className="flex flex-wrap items-center gap-x-2 gap-y-1.5">
        <span className="text-slate-400">{t("settings.builtin.modelFile")}</span>
        <span data-testid="builtin-model-path" className="min-w-0 max-w-full truncate font-mono text-slate-600" title={status.path}>
          {status.path}
        </span>
        {status.custom && (
          <Badge tone="indigo" data-testid="builtin-model-custom">
            {t("settings.builtin.custom")}
          </Badge>
        )}
      </div>

      {editing ? (
        <form onSubmit={onSubmit} className="mt-2" autoComplete="off" noValidate>
          <label htmlFor={inputId} className="sr-only">
            {t("settings.builtin.pathLabel")}
          </label>
          <div className="flex flex-wrap items-center gap-2">
            <div className="w-96 max-w-full">
              <input
                id={inputId}
                data-testid="builtin-model-input"
                className={`${inputClass} h-9 font-mono placeholder:font-sans`}
                placeholder={t("settings.builtin.pathPlaceholder")}
                spellCheck={false}
                autoCapitalize="off"
                autoFocus
                value={path}
                aria-invalid={invalid}
                aria-describedby={hintId}
                disabled={save.isPending}
                onChange={(e) => {
                  setPath(e.target.value);
                  setInvalid(false);
                }}
                onKeyDown={(e) => e.key === "Escape" && close()}
              />
            </div>
            <Button type="submit" variant="primary" data-testid="builtin-model-submit" disabled={path.trim() === "" || save.isPending}>
              {save.isPending ? t("common.saving") : t("settings.builtin.use")}
            </Button>
            <Button variant="ghost" onClick={close} disabled={save.isPending}>
              {t("common.cancel")}
            </Button>
          </div>
          <p id={hintId} className={`mt-1.5 ${invalid ? "text-rose-600" : "text-slate-500"}`} role={invalid ? "alert" : undefined}>
            {invalid ? t("settings.builtin.pathNotAbsolute") : t("settings.builtin.pathHint")}
          </p>
        </form>
      ) : (
        <div className="mt-2 flex flex-wrap items-center gap-1.5">
          <Button
            className="h-8 px-2.5 text-xs"
            data-testid="builtin-model-change"
            disabled={save.isPending}
            onClick={() => {
              save.reset();
              setEditing(true);
            }}
          >
            {t("settings.builtin.change")}
          </Button>
          {status.custom && (
            <Button variant="ghost" className="h-8 px-2.5 text-xs" data-testid="builtin-model-reset" disabled={save.isPending} onClick={reset}>
              {save.isPending ? t("common.saving") : t("settings.builtin.reset")}
            </Button>
          )}
        </div>
      )}

      {save.isError && (
        <div className="mt-2" data-testid="builtin-model-error">
          <TestFailure code={t(errorKey(save.error))} detail={errorDetail(save.error)} />
        </div>
      )}
    </div>
  );
}

/**
 * Set / replace / remove the provider's API key. The field is uncontrolled: the key is read from
 * the element on submit, the element is cleared at once, and the key goes to the backend in one
 * call. It is never in React state, a query cache, or a log, and is never shown again.
 */
function KeyForm({ provider: p }: { provider: ProviderDto }) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const [hasText, setHasText] = useState(false);
  const [saved, setSaved] = useState(false);
  const setKey = useSetProviderKey();
  const removeKey = useInvalidatingMutation(api.deleteProviderKey, PROVIDER_KEYS);
  const status = keyStatus(p);
  const envVar = envVarFor(p.id);

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const el = input.current;
    if (!el) return;
    const key = el.value.trim();
    el.value = "";
    setHasText(false);
    setSaved(false);
    removeKey.reset();
    if (key === "") return;
    void setKey.submit(p.id, key).then((ok) => setSaved(ok));
  };

  const error = setKey.error ?? (removeKey.isError ? removeKey.error : null);

  return (
    <div className="mt-3">
      <form onSubmit={onSubmit} className="flex flex-wrap items-center gap-2" autoComplete="off">
        <label htmlFor={`key-${p.id}`} className="sr-only">
          {t("settings.keys.label", { name: p.name })}
        </label>
        <div className="relative w-80 max-w-full">
          <KeyIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-slate-400" />
          <input
            ref={input}
            id={`key-${p.id}`}
            type="password"
            autoComplete="off"
            spellCheck={false}
            data-testid={`provider-key-input-${p.id}`}
            className={`${inputClass} h-9 pl-8 font-mono placeholder:font-sans`}
            placeholder={p.hasKey ? t("settings.keys.placeholderReplace") : t("settings.keys.placeholder")}
            disabled={setKey.pending}
            onChange={(e) => {
              setHasText(e.target.value !== "");
              setSaved(false);
            }}
          />
        </div>
        <Button type="submit" data-testid={`provider-key-submit-${p.id}`} disabled={!hasText || setKey.pending}>
          {setKey.pending ? t("common.saving") : p.hasKey ? t("settings.keys.replace") : t("settings.keys.set")}
        </Button>
        {p.hasKey && p.keySource === "keychain" && (
          <Button
            variant="ghost"
            data-testid={`provider-key-remove-${p.id}`}
            disabled={removeKey.isPending || setKey.pending}
            onClick={() => {
              setKey.reset();
              setSaved(false);
              removeKey.mutate({ providerId: p.id });
            }}
          >
            {t("settings.keys.remove")}
          </Button>
        )}
        {saved && !setKey.pending && (
          <span role="status" className="flex items-center gap-1 text-xs text-emerald-700">
            <CheckIcon width={14} height={14} />
            {t("settings.keys.saved")}
          </span>
        )}
      </form>
      <p className="mt-1.5 text-xs text-slate-500">
        {status === "environment"
          ? t("settings.keys.fromEnvironment", { envVar })
          : status === "not_needed"
            ? t("settings.keys.optional")
            : t("settings.keys.storedInKeychain")}
      </p>
      {error !== null && (
        <div className="mt-2" data-testid={`provider-key-error-${p.id}`}>
          <InlineError error={error} />
          {errorCode(error) === "secret_unavailable" && (
            <p className="mt-1.5 text-xs text-slate-600">{t("settings.keys.unavailableHint", { envVar })}</p>
          )}
        </div>
      )}
    </div>
  );
}
