import { useQuery } from "@tanstack/react-query";
import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { PresetDto } from "../bindings/PresetDto";
import type { ProviderDto } from "../bindings/ProviderDto";
import { CheckIcon, CloseIcon, KeyIcon } from "../components/icons";
import { Button, ConfirmDialog, DialogActions, ErrorState, Field, InlineError, LoadingState, Modal, Spinner, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { errorCode } from "../ipc/errors";
import { PROVIDER_KEYS, useInvalidatingMutation, usePresets } from "../ipc/queries";
import { envVarFor, isHttpUrl, normaliseModels } from "./format";
import { useSetProviderKey } from "./useProviderKey";

/** A preset's name, or "Name 2", "Name 3"… when a provider already has it. */
export function uniqueName(base: string, taken: readonly string[]): string {
  const lower = new Set(taken.map((n) => n.trim().toLowerCase()));
  if (!lower.has(base.toLowerCase())) return base;
  for (let i = 2; ; i++) {
    const candidate = `${base} ${i}`;
    if (!lower.has(candidate.toLowerCase())) return candidate;
  }
}

/** Add a provider from a preset, or edit one. */
export function ProviderDialog({
  provider,
  existing,
  onClose,
}: {
  provider?: ProviderDto;
  existing: readonly ProviderDto[];
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const presets = usePresets();
  // One hook for the dialog's life: the key's (redacted) error outlives the form.
  const setKey = useSetProviderKey();
  const [added, setAdded] = useState<{ provider: ProviderDto; keySaved: boolean } | null>(null);
  if (added) {
    return (
      <Modal
        title={t("settings.providerDialog.addedTitle", { name: added.provider.name })}
        description={t("settings.providerDialog.addedDescription")}
        onClose={onClose}
        testId="provider-dialog"
      >
        <AddedStep provider={added.provider} keySaved={added.keySaved} keyError={setKey.error} onClose={onClose} />
      </Modal>
    );
  }
  const title = provider ? t("settings.providerDialog.editTitle", { name: provider.name }) : t("settings.providerDialog.addTitle");
  return (
    <Modal title={title} description={t("settings.providerDialog.description")} onClose={onClose} testId="provider-dialog">
      {presets.isPending ? (
        <LoadingState className="py-8" />
      ) : presets.isError ? (
        <ErrorState error={presets.error} onRetry={() => void presets.refetch()} className="p-0" />
      ) : (
        <ProviderForm
          presets={presets.data.filter((p) => p.dialect !== "builtin")}
          provider={provider}
          takenNames={existing.filter((p) => p.id !== provider?.id).map((p) => p.name)}
          usedPresets={existing.map((p) => p.preset)}
          onClose={onClose}
          onAdded={(p, keySaved) => setAdded({ provider: p, keySaved })}
          saveKey={setKey.submit}
          savingKey={setKey.pending}
        />
      )}
    </Modal>
  );
}

function ProviderForm({
  presets,
  provider,
  takenNames,
  usedPresets,
  onClose,
  onAdded,
  saveKey,
  savingKey,
}: {
  presets: readonly PresetDto[];
  provider?: ProviderDto;
  takenNames: readonly string[];
  usedPresets: readonly string[];
  onClose: () => void;
  onAdded: (p: ProviderDto, keySaved: boolean) => void;
  saveKey: (providerId: string, key: string) => Promise<boolean>;
  savingKey: boolean;
}) {
  const { t } = useTranslation();
  // Start from the first preset not configured yet: that is most likely what the boss adds next.
  const first = presets.find((p) => !usedPresets.includes(p.id)) ?? presets[0];
  const [presetId, setPresetId] = useState(provider?.preset ?? first?.id ?? "");
  const [name, setName] = useState(provider?.name ?? (first ? uniqueName(first.name, takenNames) : ""));
  const [baseUrl, setBaseUrl] = useState(provider?.baseUrl ?? first?.baseUrl ?? "");
  const [defaultModel, setDefaultModel] = useState(provider?.defaultModel ?? first?.defaultModel ?? "");
  const [models, setModels] = useState<string[]>(
    provider ? provider.models.filter((m) => m !== provider.defaultModel) : [],
  );
  const [modelText, setModelText] = useState("");
  const [enabled, setEnabled] = useState(provider?.enabled ?? true);
  const [submitted, setSubmitted] = useState(false);
  const save = useInvalidatingMutation(api.saveProvider, PROVIDER_KEYS);
  // Uncontrolled: the key is read from the element on submit and the element cleared at
  // once; it is never in React state, the mutation cache or the DOM after that.
  const keyInput = useRef<HTMLInputElement>(null);

  const preset = presets.find((p) => p.id === presetId);

  const pickPreset = (id: string) => {
    setPresetId(id);
    const p = presets.find((x) => x.id === id);
    if (!p) return;
    setName(uniqueName(p.name, takenNames));
    setBaseUrl(p.baseUrl);
    setDefaultModel(p.defaultModel);
    setModels([]);
    setModelText("");
  };

  const addModels = (text: string) => {
    const added = normaliseModels([text]);
    if (added.length > 0) setModels((m) => normaliseModels([...m, ...added]));
    setModelText("");
  };

  const onModelKey = (e: KeyboardEvent<HTMLInputElement>) => {
    if (e.key === "Enter" || e.key === ",") {
      e.preventDefault();
      addModels(modelText);
    } else if (e.key === "Backspace" && modelText === "" && models.length > 0) {
      setModels((m) => m.slice(0, -1));
    }
  };

  const nameError = submitted && name.trim() === "" ? t("settings.providerDialog.nameRequired") : null;
  const urlError =
    submitted && baseUrl.trim() === ""
      ? t("settings.providerDialog.baseUrlRequired")
      : submitted && !isHttpUrl(baseUrl)
        ? t("settings.providerDialog.baseUrlInvalid")
        : null;
  const modelError = submitted && defaultModel.trim() === "" ? t("settings.providerDialog.modelRequired") : null;
  const presetError = submitted && !preset && !provider ? t("settings.providerDialog.presetRequired") : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (name.trim() === "" || !isHttpUrl(baseUrl) || defaultModel.trim() === "" || (!preset && !provider)) return;
    const model = defaultModel.trim();
    const el = keyInput.current;
    const key = el ? el.value.trim() : "";
    if (el) el.value = "";
    save.mutate(
      {
        id: provider?.id ?? null,
        name: name.trim(),
        preset: presetId,
        baseUrl: baseUrl.trim(),
        defaultModel: model,
        // The default model is always one of the provider's models; pending chip text counts too.
        models: normaliseModels([model, ...models, modelText]),
        enabled,
      },
      {
        onSuccess: (saved) => {
          if (provider) return onClose();
          // The key goes to the keychain in its own call; its failure shows on the next step.
          void (key === "" ? Promise.resolve(false) : saveKey(saved.id, key)).then((ok) => onAdded(saved, ok));
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate className="space-y-4">
      <Field
        label={t("settings.providerDialog.preset")}
        error={presetError}
        hint={
          preset
            ? preset.keyRequired
              ? t("settings.providerDialog.presetNeedsKey")
              : t("settings.providerDialog.presetLocal")
            : undefined
        }
      >
        {({ id, describedBy, invalid }) => (
          <select
            id={id}
            data-testid="provider-preset-select"
            className={inputClass}
            value={presetId}
            disabled={Boolean(provider)}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => pickPreset(e.target.value)}
          >
            {!preset && <option value={presetId}>{presetId || t("settings.providerDialog.presetPlaceholder")}</option>}
            {presets.map((p) => (
              <option key={p.id} value={p.id}>
                {p.name}
              </option>
            ))}
          </select>
        )}
      </Field>

      <Field label={t("settings.providerDialog.name")} error={nameError}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            data-testid="provider-name-input"
            className={inputClass}
            value={name}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => setName(e.target.value)}
          />
        )}
      </Field>

      <Field label={t("settings.providerDialog.baseUrl")} error={urlError} hint={t("settings.providerDialog.baseUrlHint")}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            data-testid="provider-base-url-input"
            className={`${inputClass} font-mono`}
            value={baseUrl}
            spellCheck={false}
            inputMode="url"
            placeholder="https://…/v1"
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => setBaseUrl(e.target.value)}
          />
        )}
      </Field>

      <Field label={t("settings.providerDialog.defaultModel")} error={modelError}>
        {({ id, describedBy, invalid }) => (
          <input
            id={id}
            data-testid="provider-model-input"
            className={`${inputClass} font-mono`}
            value={defaultModel}
            spellCheck={false}
            aria-describedby={describedBy}
            aria-invalid={invalid}
            onChange={(e) => setDefaultModel(e.target.value)}
          />
        )}
      </Field>

      <Field label={t("settings.providerDialog.models")} hint={t("settings.providerDialog.modelsHint")} optional>
        {({ id, describedBy }) => (
          <div className="flex min-h-9 flex-wrap items-center gap-1.5 rounded-lg bg-white px-2 py-1.5 shadow-sm ring-1 ring-slate-300 ring-inset focus-within:ring-2 focus-within:ring-indigo-500">
            {models.map((m) => (
              <span
                key={m}
                data-testid="provider-model-chip"
                className="inline-flex items-center gap-1 rounded-md bg-slate-100 py-0.5 pr-1 pl-2 font-mono text-xs text-slate-700"
              >
                {m}
                <button
                  type="button"
                  className="rounded p-0.5 text-slate-400 hover:bg-slate-200 hover:text-slate-700"
                  aria-label={t("settings.providerDialog.removeModel", { model: m })}
                  onClick={() => setModels((list) => list.filter((x) => x !== m))}
                >
                  <CloseIcon width={12} height={12} />
                </button>
              </span>
            ))}
            <input
              id={id}
              data-testid="provider-models-input"
              className="min-w-32 flex-1 border-0 bg-transparent px-1 py-0.5 font-mono text-sm text-slate-900 placeholder:font-sans placeholder:text-slate-400 focus:outline-none"
              value={modelText}
              spellCheck={false}
              placeholder={models.length === 0 ? t("settings.providerDialog.modelsPlaceholder") : ""}
              aria-describedby={describedBy}
              onChange={(e) => {
                const v = e.target.value;
                // A pasted "a, b, c" becomes chips at once; a trailing comma commits what came before.
                if (v.includes(",")) {
                  const parts = v.split(",");
                  const rest = parts.pop() ?? "";
                  setModels((m) => normaliseModels([...m, ...parts]));
                  setModelText(rest);
                } else {
                  setModelText(v);
                }
              }}
              onKeyDown={onModelKey}
              onBlur={() => modelText.trim() && addModels(modelText)}
            />
          </div>
        )}
      </Field>

      {!provider && (
        <Field
          label={t("settings.providerDialog.apiKey")}
          optional={!preset?.keyRequired}
          hint={preset?.keyRequired ? t("settings.providerDialog.apiKeyHint") : t("settings.providerDialog.apiKeyOptional")}
        >
          {({ id, describedBy }) => (
            <div className="relative">
              <KeyIcon className="pointer-events-none absolute top-1/2 left-2.5 -translate-y-1/2 text-slate-400" />
              <input
                ref={keyInput}
                id={id}
                type="password"
                autoComplete="off"
                spellCheck={false}
                data-testid="provider-key-field"
                className={`${inputClass} pl-8 font-mono placeholder:font-sans`}
                placeholder={t("settings.keys.placeholder")}
                aria-describedby={describedBy}
              />
            </div>
          )}
        </Field>
      )}

      <label className="flex items-center gap-2.5 text-sm text-slate-700">
        <input
          type="checkbox"
          data-testid="provider-enabled-toggle"
          className="size-4 rounded border-slate-300 text-slate-900 focus:ring-indigo-500"
          checked={enabled}
          onChange={(e) => setEnabled(e.target.checked)}
        />
        {t("settings.providerDialog.enabled")}
      </label>

      {save.isError && <InlineError error={save.error} />}

      <DialogActions>
        <Button onClick={onClose}>{t("common.cancel")}</Button>
        <Button type="submit" variant="primary" data-testid="provider-submit" disabled={save.isPending || savingKey}>
          {save.isPending || savingKey ? t("common.saving") : provider ? t("common.save") : t("settings.providerDialog.submitAdd")}
        </Button>
      </DialogActions>
    </form>
  );
}

/**
 * After adding: the key's fate, and the one-click offer to give the new provider every purpose
 * still on the built-in model. With nothing to offer and nothing to say, it closes by itself.
 */
function AddedStep({
  provider: p,
  keySaved,
  keyError,
  onClose,
}: {
  provider: ProviderDto;
  keySaved: boolean;
  keyError: unknown;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const purposes = useQuery({
    queryKey: ["routes", "builtin-purposes", p.id],
    queryFn: () => api.listBuiltinPurposes({ providerId: p.id }),
    enabled: p.enabled,
  });
  const adopt = useInvalidatingMutation(api.useProviderForBuiltinPurposes, PROVIDER_KEYS);
  const offer = purposes.data ?? [];
  const nothing = !p.enabled || purposes.isError || (purposes.isSuccess && offer.length === 0);
  useEffect(() => {
    if (nothing && keyError === null) onClose();
  }, [nothing, keyError, onClose]);

  return (
    <div className="space-y-4" data-testid="provider-added">
      {keyError !== null ? (
        <div data-testid="provider-added-key-error">
          <InlineError error={keyError} />
          <p className="mt-1.5 text-xs text-slate-600">
            {errorCode(keyError) === "secret_unavailable"
              ? t("settings.keys.unavailableHint", { envVar: envVarFor(p.id) })
              : t("settings.providerDialog.keyLater")}
          </p>
        </div>
      ) : keySaved ? (
        <p role="status" className="flex items-center gap-1.5 text-sm text-emerald-700" data-testid="provider-added-key-saved">
          <CheckIcon width={14} height={14} />
          {t("settings.providerDialog.keySaved")}
        </p>
      ) : null}

      {purposes.isPending && p.enabled ? (
        <p className="flex items-center gap-2 text-xs text-slate-500">
          <Spinner className="size-3.5" />
          {t("common.loading")}
        </p>
      ) : offer.length > 0 ? (
        <div data-testid="provider-offer" className="rounded-lg bg-indigo-50 px-4 py-3 ring-1 ring-indigo-200 ring-inset">
          <p className="text-sm font-medium text-indigo-950">{t("settings.providerDialog.offerTitle", { name: p.name, count: offer.length })}</p>
          <ul className="mt-2 space-y-0.5 text-sm text-indigo-900" data-testid="provider-offer-purposes">
            {offer.map((purpose) => (
              <li key={purpose} data-purpose={purpose}>
                · {t(`settings.routes.purpose.${purpose}`)}
              </li>
            ))}
          </ul>
          <p className="mt-2 text-xs text-indigo-800">{t("settings.providerDialog.offerHint", { model: p.defaultModel })}</p>
        </div>
      ) : null}

      {adopt.isError && <InlineError error={adopt.error} />}

      <DialogActions>
        <Button data-testid="provider-offer-skip" onClick={onClose}>
          {offer.length > 0 ? t("settings.providerDialog.offerSkip") : t("common.close")}
        </Button>
        {offer.length > 0 && (
          <Button
            variant="primary"
            data-testid="provider-offer-accept"
            disabled={adopt.isPending}
            onClick={() => adopt.mutate({ providerId: p.id }, { onSuccess: onClose })}
          >
            {adopt.isPending && <Spinner className="size-3.5" />}
            {t("settings.providerDialog.offerAccept", { name: p.name, count: offer.length })}
          </Button>
        )}
      </DialogActions>
    </div>
  );
}

export function DeleteProviderDialog({ provider, onClose }: { provider: ProviderDto; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useInvalidatingMutation(api.deleteProvider, PROVIDER_KEYS);
  return (
    <ConfirmDialog
      title={t("settings.providerDialog.deleteTitle", { name: provider.name })}
      description={t("settings.providerDialog.deleteBody")}
      testId="delete-provider-dialog"
      confirmLabel={t("settings.providerDialog.deleteConfirm")}
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onConfirm={() => remove.mutate({ providerId: provider.id }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
