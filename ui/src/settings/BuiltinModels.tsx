import { useTranslation } from "react-i18next";
import type { BuiltinModelDto } from "../bindings/BuiltinModelDto";
import type { BuiltinStatus } from "../bindings/BuiltinStatus";
import { Badge, Button, InlineError } from "../components/ui";
import { api } from "../ipc/api";
import { BUILTIN_MODEL_KEYS, useInvalidatingMutation } from "../ipc/queries";
import { currentLanguage } from "../i18n";
import { formatBytes } from "./format";

/**
 * Which built-in model serves this company and why (the default for its language, a fallback, the
 * boss's choice, the environment), and the built-in models with their licence and provenance; an
 * installed one that does not serve can be picked. Picking this language's default again clears the
 * choice, so the model follows the company's language once more.
 */
export function BuiltinModels({ status }: { status: BuiltinStatus }) {
  const { t } = useTranslation();
  const save = useInvalidatingMutation(api.setBuiltinModel, BUILTIN_MODEL_KEYS);
  const language = t(`settings.builtin.languageName.${status.language}`);
  const nameOf = (id: string | null) => status.models.find((m) => m.id === id)?.name ?? t("settings.builtin.otherFile");
  const serving = nameOf(status.model);
  const reason = t(`settings.builtin.reason.${status.reason}`, {
    language,
    model: serving,
    preferred: nameOf(status.languageDefault),
  });

  const use = (m: BuiltinModelDto) =>
    // Back to this language's default: no choice of the boss's left, the language decides again.
    save.mutate({ path: m.languageDefault && status.reason === "chosen" ? null : m.path });

  return (
    <div className="space-y-2 text-xs" data-testid="builtin-models">
      <p data-testid="builtin-serving" data-model={status.model ?? ""} data-reason={status.reason} className="text-slate-600">
        <span className="text-slate-400">{t("settings.builtin.serving")}: </span>
        <span className="font-medium text-slate-800">{serving}</span>
        <span className="mt-0.5 block" data-testid="builtin-reason">
          {reason}
        </span>
      </p>

      <div>
        <p className="text-slate-400">{t("settings.builtin.models")}</p>
        <ul className="mt-1 space-y-1.5">
          {status.models.map((m) => (
            <li key={m.id} data-testid={`builtin-model-${m.id}`} className="rounded-lg px-3 py-2 ring-1 ring-slate-200 ring-inset">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span className="font-medium text-slate-800">{m.name}</span>
                {m.serving && <Badge tone="green">{t("settings.builtin.servingBadge")}</Badge>}
                {m.languageDefault && <Badge tone="indigo">{t("settings.builtin.languageDefaultBadge", { language })}</Badge>}
                {!m.installed && <Badge tone="amber">{t("settings.builtin.notInstalledBadge")}</Badge>}
                {m.installed && !m.serving && (
                  <Button className="ml-auto h-7 px-2 text-xs" data-testid={`builtin-use-${m.id}`} disabled={save.isPending} onClick={() => use(m)}>
                    {m.languageDefault && status.reason === "chosen" ? t("settings.builtin.useDefault") : t("settings.builtin.useThis")}
                  </Button>
                )}
              </div>
              <p className="mt-0.5 text-slate-500">
                {t("settings.builtin.facts", { licence: m.licence, size: formatBytes(m.sizeBytes, currentLanguage()), memory: m.peakRssMb })}
              </p>
              <p className="mt-0.5 break-all text-slate-500" data-testid={`builtin-provenance-${m.id}`}>
                {t("settings.builtin.provenance", { packages: m.packages, sha: m.sha256 })}
                {m.repackaged && <> {t("settings.builtin.repackaged")}</>}
              </p>
            </li>
          ))}
        </ul>
      </div>
      {save.isError && (
        <div data-testid="builtin-models-error">
          <InlineError error={save.error} />
        </div>
      )}
    </div>
  );
}
