import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { CompanyDto } from "../bindings/CompanyDto";
import { LanguageSwitch } from "../shell/LanguageSwitch";
import { BudgetSection } from "./BudgetSection";
import { BundleSection } from "./BundleSection";
import { LocalModelsSection } from "./LocalModelsSection";
import { PricesSection } from "./PricesSection";
import { ProvidersSection } from "./ProvidersSection";
import { RoutesSection } from "./RoutesSection";
import { SettingsSection } from "./SettingsSection";
import { SpendSection } from "./SpendSection";

const SECTIONS = ["providers", "local-models", "routes", "budget", "spend", "prices", "language", "bundle"] as const;

/** `local-models` → `localModels`: section ids are anchors, their i18n keys camelCase. */
const titleKey = (section: string) => `settings.${section.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}.title`;

/** `#settings/<section>` (a link from elsewhere, e.g. the first-run wizard) opens the page at that section. */
function useSectionFromHash() {
  useEffect(() => {
    const section = window.location.hash.replace(/^#\/?/, "").split("/")[1];
    if (section && (SECTIONS as readonly string[]).includes(section)) {
      document.getElementById(`settings-${section}`)?.scrollIntoView?.({ block: "start" });
    }
  }, []);
}

export function SettingsPage({ company }: { company: CompanyDto }) {
  const { t } = useTranslation();
  useSectionFromHash();
  return (
    <div data-testid="settings-page" className="flex h-full min-h-0 flex-col">
      <div className="flex shrink-0 flex-wrap items-center justify-between gap-x-6 gap-y-2 border-b border-slate-200 bg-white/60 px-6 py-3">
        <div>
          <h2 className="text-lg font-semibold tracking-tight text-slate-900">{t("settings.title")}</h2>
          <p className="text-xs text-slate-500">{t("settings.subtitle")}</p>
        </div>
        <nav aria-label={t("settings.jumpTo")} className="flex flex-wrap gap-1">
          {SECTIONS.map((s) => (
            <button
              key={s}
              type="button"
              className="rounded-md px-2.5 py-1 text-xs font-medium text-slate-500 hover:bg-slate-100 hover:text-slate-900"
              onClick={() => document.getElementById(`settings-${s}`)?.scrollIntoView?.({ behavior: "smooth", block: "start" })}
            >
              {t(titleKey(s))}
            </button>
          ))}
        </nav>
      </div>
      <div className="relative min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto max-w-5xl space-y-6 px-6 py-6">
          <ProvidersSection />
          <LocalModelsSection />
          <RoutesSection />
          <BudgetSection company={company} />
          <SpendSection />
          <PricesSection />
          <SettingsSection id="language" title={t("settings.language.title")} description={t("settings.language.description")} padded>
            <LanguageSwitch company={company} testId="settings-language-switch" />
          </SettingsSection>
          <BundleSection company={company} />
        </div>
      </div>
    </div>
  );
}
