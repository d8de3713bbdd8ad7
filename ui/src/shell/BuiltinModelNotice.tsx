import { useTranslation } from "react-i18next";
import type { ThoughtModelDto } from "../bindings/ThoughtModelDto";
import { ChipIcon } from "../components/icons";
import { currentLanguage } from "../i18n";
import { useThoughtModel } from "../ipc/queries";
import { routeHref } from "./route";

/** Which employees a notice speaks for: the whole company, or the members of one chat. */
export type NoticeScope = { kind: "company" } | { kind: "chat"; memberIds: readonly number[]; nameOf: (id: number) => string };

/**
 * One quiet line where the boss reads employee output, when the small bundled model does the thinking:
 * what that means, and where to get a better model. Nothing while the answer is loading or failed
 * (it is a hint; the pages' own states say what is wrong), and nothing once a better model thinks.
 */
export function BuiltinModelNotice({ scope, className = "" }: { scope: NoticeScope; className?: string }) {
  const { t } = useTranslation();
  const thoughtModel = useThoughtModel();
  if (!thoughtModel.data) return null;
  const text = noticeText(thoughtModel.data, scope, t);
  if (text === null) return null;
  return (
    <aside
      data-testid="builtin-model-notice"
      aria-label={t("modelNotice.label")}
      className={`flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-amber-900 ${className}`}
    >
      <span className="flex min-w-0 items-center gap-1.5">
        <ChipIcon className="size-3.5 shrink-0 text-amber-600" />
        <span>
          {text}
          {currentLanguage() === "zh-CN" && !thoughtModel.data.bundledWritesChinese && <> {t("modelNotice.poorChinese")}</>}
        </span>
      </span>
      <span className="flex shrink-0 items-center gap-3 font-medium">
        <a data-testid="builtin-model-notice-download" href={routeHref({ page: "settings", section: "local-models" })} className="text-amber-800 underline-offset-2 hover:underline">
          {t("modelNotice.download")}
        </a>
        <a data-testid="builtin-model-notice-provider" href={routeHref({ page: "settings", section: "add-provider" })} className="text-amber-800/80 underline-offset-2 hover:underline">
          {t("modelNotice.provider")}
        </a>
      </span>
    </aside>
  );
}

type T = ReturnType<typeof useTranslation>["t"];

/** The sentence for a scope, or null when nobody in it thinks with the bundled model. */
export function noticeText(m: ThoughtModelDto, scope: NoticeScope, t: T): string | null {
  const onBundled = new Set(m.bundledEmployeeIds);
  const model = m.bundledModel;
  if (scope.kind === "company") {
    // The company's route covers every new hire too, so it speaks for "employees" at large.
    if (m.company.kind === "bundled") return t("modelNotice.company", { model });
    return onBundled.size > 0 ? t("modelNotice.companySome", { count: onBundled.size, model }) : null;
  }
  const here = scope.memberIds.filter((id) => onBundled.has(id));
  if (here.length === 0) return null;
  if (here.length === scope.memberIds.length && here.length > 1) return t("modelNotice.chatAll", { model });
  const names = new Intl.ListFormat(currentLanguage(), { type: "conjunction" }).format(here.map(scope.nameOf));
  return t("modelNotice.chatSome", { count: here.length, names, model });
}
