import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { CompanyDto } from "../bindings/CompanyDto";
import { ChatIcon, OrgIcon, SettingsIcon } from "../components/icons";
import { Avatar } from "../org/Avatar";
import { LanguageSwitch } from "./LanguageSwitch";
import type { Route } from "./route";

export function Logo({ className = "" }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`flex size-8 items-center justify-center rounded-lg bg-slate-900 text-sm font-bold text-white shadow-sm ${className}`}
    >
      C
    </span>
  );
}

function NavItem({ route, active, testId, icon, label }: { route: Route; active: Route; testId: string; icon: ReactNode; label: string }) {
  const current = route === active;
  return (
    <li>
      <a
        href={`#${route}`}
        aria-current={current ? "page" : undefined}
        data-testid={testId}
        className={`flex items-center gap-2.5 rounded-lg px-3 py-2 text-sm font-medium transition-colors ${
          current ? "bg-slate-100 text-slate-900" : "text-slate-600 hover:bg-slate-50 hover:text-slate-900"
        }`}
      >
        <span className={current ? "text-slate-600" : "text-slate-400"}>{icon}</span>
        {label}
      </a>
    </li>
  );
}

export function AppShell({ company, route, children }: { company: CompanyDto; route: Route; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <div className="flex h-full min-h-0">
      <nav aria-label={t("nav.label")} className="flex w-56 shrink-0 flex-col border-r border-slate-200 bg-white">
        <div className="flex h-16 items-center gap-2.5 px-5">
          <Logo />
          <span className="text-[15px] font-semibold tracking-tight text-slate-900">{t("app.name")}</span>
        </div>
        <ul className="mt-2 space-y-0.5 px-3">
          <NavItem route="secretary" active={route} testId="nav-secretary" icon={<ChatIcon />} label={t("nav.secretary")} />
          <NavItem route="org" active={route} testId="nav-org-chart" icon={<OrgIcon />} label={t("nav.orgChart")} />
          <NavItem route="settings" active={route} testId="nav-settings" icon={<SettingsIcon />} label={t("nav.settings")} />
        </ul>
        <div className="mt-auto border-t border-slate-100 px-5 py-4">
          <p className="text-xs leading-relaxed text-slate-400">{t("app.tagline")}</p>
        </div>
      </nav>
      <div className="flex min-w-0 flex-1 flex-col">
        <header className="flex h-16 shrink-0 items-center justify-between gap-4 border-b border-slate-200 bg-white px-6">
          <div className="min-w-0">
            <h1 data-testid="company-name" className="truncate text-base font-semibold text-slate-900">
              {company.name}
            </h1>
            {company.mission && <p className="truncate text-xs text-slate-500">{company.mission}</p>}
          </div>
          <div className="flex shrink-0 items-center gap-4">
            <LanguageSwitch company={company} />
            <div className="flex items-center gap-2.5 border-l border-slate-200 pl-4">
              <Avatar name={company.bossName} size={32} />
              <div className="leading-tight">
                <div data-testid="boss-name" className="text-sm font-medium text-slate-900">
                  {company.bossName}
                </div>
                <div className="text-xs text-slate-500">{t("shell.boss")}</div>
              </div>
            </div>
          </div>
        </header>
        {/* Absolute fill: percentage heights inside flex items are unreliable in WebKitGTK. */}
        <main className="relative min-h-0 flex-1 overflow-hidden">
          <div className="absolute inset-0 overflow-hidden">{children}</div>
        </main>
      </div>
    </div>
  );
}
