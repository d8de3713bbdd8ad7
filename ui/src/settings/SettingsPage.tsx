import { useEffect } from "react";
import { useTranslation } from "react-i18next";
import type { CompanyDto } from "../bindings/CompanyDto";
import { LanguageSwitch } from "../shell/LanguageSwitch";
import type { SettingsTarget } from "../shell/route";
import { BudgetSection } from "./BudgetSection";
import { BundleSection } from "./BundleSection";
import { LocalModelsSection } from "./LocalModelsSection";
import { PeopleSection } from "./PeopleSection";
import { PricesSection } from "./PricesSection";
import { RolesSection } from "./roles/RolesSection";
import { ProvidersSection } from "./ProvidersSection";
import { RoutesSection } from "./RoutesSection";
import { ServerPanel } from "../server/ServerSignIn";
import { SettingsSection } from "./SettingsSection";
import { SpendSection } from "./SpendSection";
import { WebhooksSection } from "./WebhooksSection";

const SECTIONS = ["providers", "local-models", "routes", "budget", "people", "server", "roles", "spend", "prices", "webhooks", "language", "bundle"] as const;

/** `local-models` → `localModels`: section ids are anchors, their i18n keys camelCase. */
const titleKey = (section: string) => `settings.${section.replace(/-(\w)/g, (_, c: string) => c.toUpperCase())}.title`;

/** `section`: where a link landed (`#settings/local-models`): scrolled into view; `add-provider` also opens that dialog. */
export function SettingsPage({ company, section }: { company: CompanyDto; section?: SettingsTarget }) {
  const { t } = useTranslation();
  useEffect(() => {
    if (section === undefined) return;
    const anchor = section === "add-provider" ? "providers" : section;
    // Sections are `settings-<id>` (SettingsSection); a bare id is accepted too.
    const target = document.getElementById(`settings-${anchor}`) ?? document.getElementById(anchor);
    target?.scrollIntoView?.({ behavior: "smooth", block: "start" });
  }, [section]);
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
          <ProvidersSection startAdding={section === "add-provider"} />
          <LocalModelsSection />
          <RoutesSection />
          <BudgetSection company={company} />
          <PeopleSection company={company} />
          <SettingsSection id="server" title={t("settings.server.title")} description={t("settings.server.description")} padded>
            <ServerPanel />
          </SettingsSection>
          <RolesSection />
          <SpendSection />
          <PricesSection />
          <WebhooksSection />
          <SettingsSection id="language" title={t("settings.language.title")} description={t("settings.language.description")} padded>
            <LanguageSwitch company={company} testId="settings-language-switch" />
          </SettingsSection>
          <BundleSection company={company} />
        </div>
      </div>
    </div>
  );
}
