import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { CompanyDto } from "../bindings/CompanyDto";
import { BoardIcon, ChatIcon, ChatsIcon, DashboardIcon, GraphIcon, MailIcon, OrgIcon, SettingsIcon, ShieldIcon, TraceIcon, UsersIcon } from "../components/icons";
import { useChats, useDeskUser, usePendingApprovalCount, usePeople, useUnreadMail } from "../ipc/queries";
import { LanguageSwitch } from "./LanguageSwitch";
import { WhoIsHere } from "./WhoIsHere";
import { ServerBadge, useServerRefresh } from "./ServerBadge";
import { pageStart, routeHref, type AppRoute, type NavPage } from "./route";

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

function NavItem({
  page,
  active,
  testId,
  icon,
  label,
  badge,
}: {
  page: NavPage;
  active: AppRoute;
  testId: string;
  icon: ReactNode;
  label: string;
  badge?: ReactNode;
}) {
  const current = page === active.page;
  // The nav goes to a page's start: the chats page without a chat picked, and so on.
  const href = routeHref(pageStart(page));
  return (
    <li>
      <a
        href={href}
        aria-current={current ? "page" : undefined}
        data-testid={testId}
        className={`flex items-center gap-2.5 rounded-lg px-3 py-2 text-sm font-medium transition-colors ${
          current ? "bg-slate-100 text-slate-900" : "text-slate-600 hover:bg-slate-50 hover:text-slate-900"
        }`}
      >
        <span className={current ? "text-slate-600" : "text-slate-400"}>{icon}</span>
        <span className="flex-1">{label}</span>
        {badge}
      </a>
    </li>
  );
}

/** A count in the navigation (hidden when 0): what it counts is said to screen readers. */
function CountBadge({ count, label, testId }: { count: number; label: string; testId: string }) {
  if (count === 0) return null;
  return (
    <span
      data-testid={testId}
      className="inline-flex h-[18px] min-w-[18px] items-center justify-center rounded-full bg-indigo-600 px-1.5 text-[11px] font-semibold text-white tabular-nums"
    >
      <span aria-hidden="true">{count > 99 ? "99+" : count}</span>
      <span className="sr-only">{label}</span>
    </span>
  );
}

/** How many chat messages the boss has not read, across all chats (hidden when none). */
function UnreadBadge() {
  const { t } = useTranslation();
  const chats = useChats();
  const unread = (chats.data ?? []).reduce((sum, c) => sum + c.unread, 0);
  return <CountBadge count={unread} label={t("chats.unread", { count: unread })} testId="nav-chats-unread" />;
}

/** How many items in the mailbox the boss has not opened (hidden when none). */
function UnreadMailBadge() {
  const { t } = useTranslation();
  const unread = useUnreadMail();
  return <CountBadge count={unread} label={t("mailbox.unread", { count: unread })} testId="nav-mailbox-unread" />;
}

/** How many approvals wait for the boss (hidden when none). */
/** People's proxies: only where there are people besides the boss, or this desktop is a person's. */
function ProxyNavItem({ route }: { route: AppRoute }) {
  const { t } = useTranslation();
  const people = usePeople();
  const mine = useDeskUser().data?.personId != null;
  if (!mine && !(people.data && people.data.length > 0)) return null;
  return <NavItem page="proxy" active={route} testId="nav-proxy" icon={<UsersIcon />} label={t(mine ? "nav.myProxy" : "nav.proxies")} />;
}

function PendingApprovalsBadge() {
  const { t } = useTranslation();
  const waiting = usePendingApprovalCount();
  return <CountBadge count={waiting} label={t("approvals.waitingCount", { count: waiting })} testId="nav-approvals-waiting" />;
}

export function AppShell({ company, route, children }: { company: CompanyDto; route: AppRoute; children: ReactNode }) {
  const { t } = useTranslation();
  useServerRefresh();
  return (
    <div className="flex h-full min-h-0">
      <nav aria-label={t("nav.label")} className="flex w-56 shrink-0 flex-col border-r border-slate-200 bg-white">
        <div className="flex h-16 items-center gap-2.5 px-5">
          <Logo />
          <span className="text-[15px] font-semibold tracking-tight text-slate-900">{t("app.name")}</span>
        </div>
        <ul className="mt-2 space-y-0.5 px-3">
          <NavItem page="secretary" active={route} testId="nav-secretary" icon={<ChatIcon />} label={t("nav.secretary")} />
          <ProxyNavItem route={route} />
          <NavItem page="dashboard" active={route} testId="nav-dashboard" icon={<DashboardIcon />} label={t("nav.dashboard")} />
          <NavItem page="org" active={route} testId="nav-org-chart" icon={<OrgIcon />} label={t("nav.orgChart")} />
          <NavItem
            page="chats"
            active={route}
            testId="nav-chats"
            icon={<ChatsIcon />}
            label={t("nav.chats")}
            badge={<UnreadBadge />}
          />
          <NavItem
            page="mailbox"
            active={route}
            testId="nav-mailbox"
            icon={<MailIcon />}
            label={t("nav.mailbox")}
            badge={<UnreadMailBadge />}
          />
          <NavItem
            page="approvals"
            active={route}
            testId="nav-approvals"
            icon={<ShieldIcon />}
            label={t("nav.approvals")}
            badge={<PendingApprovalsBadge />}
          />
          <NavItem page="work" active={route} testId="nav-work" icon={<BoardIcon />} label={t("nav.work")} />
          <NavItem page="traces" active={route} testId="nav-traces" icon={<TraceIcon />} label={t("nav.traces")} />
          <NavItem page="relationships" active={route} testId="nav-relationships" icon={<GraphIcon />} label={t("nav.relationships")} />
          <NavItem page="settings" active={route} testId="nav-settings" icon={<SettingsIcon />} label={t("nav.settings")} />
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
            <ServerBadge />
            <LanguageSwitch company={company} />
            <WhoIsHere company={company} />
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
