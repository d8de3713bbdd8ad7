import { useTranslation } from "react-i18next";
import type { Language } from "../bindings/Language";
import { ChipIcon, KeyIcon, PlugIcon } from "../components/icons";
import { Badge } from "../components/ui";
import { THINKING_PATHS, recommendedPath, type ThinkingPath } from "./paths";

const ICONS: Record<ThinkingPath, typeof ChipIcon> = {
  builtin: ChipIcon,
  download: PlugIcon,
  provider: KeyIcon,
};

/** The wizard's second step: three ways for the employees to think, each with one honest line. */
export function ThinkingStep({ language, path, onPick }: { language: Language; path: ThinkingPath; onPick: (p: ThinkingPath) => void }) {
  const { t } = useTranslation();
  const recommended = recommendedPath(language);
  return (
    <>
      <h1 id="wizard-title" className="text-xl font-semibold tracking-tight text-slate-900">
        {t("wizard.thinking.title")}
      </h1>
      <p className="mt-1 text-sm text-slate-500">{t("wizard.thinking.subtitle")}</p>
      {language === "zh-CN" && (
        <p data-testid="wizard-zh-advice" className="mt-5 rounded-lg bg-amber-50 px-4 py-3 text-sm leading-relaxed text-amber-900 ring-1 ring-amber-200 ring-inset">
          {t("wizard.thinking.zhAdvice")}
        </p>
      )}
      <fieldset className="mt-6">
        <legend className="sr-only">{t("wizard.thinking.title")}</legend>
        <div className="space-y-3">
          {THINKING_PATHS.map((p) => (
            <PathOption key={p} path={p} checked={p === path} recommended={p === recommended} onPick={onPick} />
          ))}
        </div>
      </fieldset>
      <p data-testid="wizard-path-next" className="mt-4 text-sm text-slate-500">
        {t(`wizard.thinking.next.${path}`)}
      </p>
    </>
  );
}

function PathOption({
  path,
  checked,
  recommended,
  onPick,
}: {
  path: ThinkingPath;
  checked: boolean;
  recommended: boolean;
  onPick: (p: ThinkingPath) => void;
}) {
  const { t } = useTranslation();
  const Icon = ICONS[path];
  const lineId = `wizard-path-${path}-line`;
  return (
    <label
      data-testid={`wizard-path-${path}`}
      className={`flex cursor-pointer items-start gap-3.5 rounded-xl px-4 py-3.5 ring-1 ring-inset transition-colors ${
        checked ? "bg-indigo-50/60 ring-2 ring-indigo-500" : "bg-white ring-slate-200 hover:bg-slate-50"
      }`}
    >
      <input
        type="radio"
        name="wizard-thinking-path"
        value={path}
        checked={checked}
        aria-describedby={lineId}
        className="mt-1 size-4 shrink-0 accent-indigo-600"
        onChange={() => onPick(path)}
      />
      <span className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-slate-100 text-slate-600">
        <Icon />
      </span>
      <span className="min-w-0 flex-1">
        <span className="flex flex-wrap items-center gap-2">
          <span className="text-sm font-semibold text-slate-900">{t(`wizard.thinking.path.${path}.title`)}</span>
          {recommended && (
            <Badge tone="indigo" data-testid="wizard-recommended">
              {t("wizard.thinking.recommended")}
            </Badge>
          )}
        </span>
        <span id={lineId} className="mt-0.5 block text-sm leading-relaxed text-slate-500">
          {t(`wizard.thinking.path.${path}.line`)}
        </span>
      </span>
    </label>
  );
}
