import { useTranslation } from "react-i18next";
import { AlertIcon } from "../components/icons";
import { useImportedToConfirm } from "../ipc/queries";
import { routeHref } from "./route";

/**
 * One line on the dashboard while an imported company's provider URLs or CLI commands wait for the boss: they are
 * not used until confirmed, so calls to them fail until then. Nothing while loading, on error, or when none wait
 * (it is a pointer; Settings → Export / import has the list, its states and the buttons).
 */
export function ImportedNotice({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  const waiting = useImportedToConfirm();
  const count = waiting.data ? waiting.data.providers.length + waiting.data.cliCommands.length : 0;
  if (count === 0) return null;
  return (
    <aside data-testid="imported-notice" aria-label={t("importedNotice.label")} className={`flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-amber-900 ${className}`}>
      <span className="flex min-w-0 items-center gap-1.5">
        <AlertIcon className="size-3.5 shrink-0 text-amber-600" />
        <span>{t("importedNotice.text", { count })}</span>
      </span>
      <a data-testid="imported-notice-check" href={routeHref({ page: "settings", section: "bundle" })} className="shrink-0 font-medium text-amber-800 underline-offset-2 hover:underline">
        {t("importedNotice.check")}
      </a>
    </aside>
  );
}
