import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { BuiltinModelNotice } from "../shell/BuiltinModelNotice";
import { ImportedNotice } from "../shell/ImportedNotice";
import { SignInFailedNotice } from "../server/ServerSignIn";
import type { ActivityItem } from "../bindings/ActivityItem";
import type { DashboardDto } from "../bindings/DashboardDto";
import type { DashboardTask } from "../bindings/DashboardTask";
import type { Urgency } from "../bindings/Urgency";
import { ChatsIcon, ClipboardIcon, MailIcon } from "../components/icons";
import { ErrorState, LoadingState } from "../components/ui";
import { formatDateTime, formatRelative, URGENCIES } from "../employee/format";
import { useChats, useDashboard, useOrg, useSpend, useUnreadMail } from "../ipc/queries";
import { Avatar } from "../org/Avatar";
import { budgetLevel, formatUsd, percentOf } from "../settings/format";
import { chatHref, mailHref, profileHref, routeHref } from "../shell/route";

/** Urgency colours: normal slate, aging amber, overdue orange, critical rose. */
export const URGENCY_PILL: Record<Urgency, string> = {
  normal: "bg-slate-100 text-slate-700 ring-slate-500/20",
  aging: "bg-amber-50 text-amber-800 ring-amber-600/20",
  overdue: "bg-orange-50 text-orange-800 ring-orange-600/25",
  critical: "bg-rose-50 text-rose-700 ring-rose-600/25",
};
const URGENCY_DOT: Record<Urgency, string> = {
  normal: "bg-slate-400",
  aging: "bg-amber-500",
  overdue: "bg-orange-500",
  critical: "bg-rose-500",
};

const DAY_MS = 24 * 60 * 60 * 1000;

/** `#dashboard`: the company at a glance — people, work in progress, today's spend, what is unread, and what just happened. */
export function DashboardPage() {
  const { t } = useTranslation();
  const dashboard = useDashboard();
  return (
    <div className="h-full overflow-y-auto bg-slate-50">
      <div className="mx-auto max-w-6xl space-y-6 px-6 py-6">
        <div>
          <h2 className="text-lg font-semibold text-slate-900">{t("dashboard.title")}</h2>
          <p className="text-sm text-slate-500">{t("dashboard.subtitle")}</p>
        </div>
        <SignInFailedNotice className="rounded-lg bg-amber-50 px-4 py-2.5 ring-1 ring-amber-200 ring-inset" />
        <ImportedNotice className="rounded-lg bg-amber-50 px-4 py-2.5 ring-1 ring-amber-200 ring-inset" />
        <BuiltinModelNotice scope={{ kind: "company" }} className="rounded-lg bg-amber-50 px-4 py-2.5 ring-1 ring-amber-200 ring-inset" />
        <Figures dashboard={dashboard.data} />
        {dashboard.isPending ? (
          <LoadingState className="py-16" />
        ) : dashboard.isError ? (
          <ErrorState error={dashboard.error} onRetry={() => void dashboard.refetch()} />
        ) : dashboard.data.tasks.length === 0 && dashboard.data.activity.length === 0 ? (
          <EmptyState />
        ) : (
          <div className="grid gap-6 lg:grid-cols-2">
            <TasksPanel tasks={dashboard.data.tasks} />
            <ActivityPanel activity={dashboard.data.activity} />
          </div>
        )}
      </div>
    </div>
  );
}

// ---- Figures ----

function Figures({ dashboard }: { dashboard: DashboardDto | undefined }) {
  return (
    <div data-testid="dashboard-figures" className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3 xl:grid-cols-5">
      <HeadcountCard />
      <TasksCard tasks={dashboard?.tasks} />
      <ApprovalsCard pending={dashboard?.pendingApprovals} />
      <SpendCard />
      <UnreadCard />
    </div>
  );
}

function FigureCard({
  label,
  testId,
  href,
  emphasis = false,
  children,
}: {
  label: string;
  testId: string;
  href?: string;
  /** Something waits for the boss: the card stands out. */
  emphasis?: boolean;
  children: ReactNode;
}) {
  const body = (
    <>
      <div className="text-xs font-medium tracking-wide text-slate-500 uppercase">{label}</div>
      <div className="mt-2">{children}</div>
    </>
  );
  const className = `block rounded-xl p-4 shadow-sm ring-1 ${emphasis ? "bg-amber-50 ring-amber-300" : "bg-white ring-slate-200"}`;
  return href ? (
    <a
      href={href}
      data-testid={testId}
      data-emphasis={emphasis ? "true" : undefined}
      className={`${className} transition-shadow hover:shadow-md ${emphasis ? "hover:ring-amber-400" : "hover:ring-slate-300"}`}
    >
      {body}
    </a>
  ) : (
    <section data-testid={testId} aria-label={label} className={className}>
      {body}
    </section>
  );
}

const Big = ({ children, testId, className = "" }: { children: ReactNode; testId: string; className?: string }) => (
  <div data-testid={testId} className={`text-2xl font-semibold tracking-tight text-slate-900 tabular-nums ${className}`}>
    {children}
  </div>
);

/** A figure not known yet (loading) or not readable (error). */
const Unknown = ({ testId }: { testId: string }) => (
  <Big testId={testId} className="text-slate-300">
    —
  </Big>
);

function HeadcountCard() {
  const { t } = useTranslation();
  const org = useOrg();
  const employees = org.data?.employees.length;
  const departments = org.data?.departments.length;
  return (
    <FigureCard label={t("dashboard.figures.headcount")} testId="figure-headcount" href={routeHref({ page: "org" })}>
      {employees === undefined ? (
        <Unknown testId="headcount-value" />
      ) : (
        <>
          <Big testId="headcount-value">{employees}</Big>
          <p data-testid="headcount-detail" className="mt-1 text-sm text-slate-500">
            {t("dashboard.figures.people", { count: employees })} · {t("dashboard.figures.departments", { count: departments ?? 0 })}
          </p>
        </>
      )}
    </FigureCard>
  );
}

function TasksCard({ tasks }: { tasks: DashboardTask[] | undefined }) {
  const { t } = useTranslation();
  return (
    <FigureCard label={t("dashboard.figures.tasks")} testId="figure-tasks">
      {tasks === undefined ? (
        <Unknown testId="tasks-value" />
      ) : (
        <>
          <Big testId="tasks-value">{tasks.length}</Big>
          <ul className="mt-1 flex flex-wrap gap-x-3 gap-y-1 text-sm text-slate-500">
            {URGENCIES.map((u) => {
              const count = tasks.filter((task) => task.urgency === u).length;
              return (
                <li key={u} data-testid={`tasks-${u}`} data-count={count} className="flex items-center gap-1.5">
                  <span aria-hidden="true" className={`size-2 rounded-full ${URGENCY_DOT[u]}`} />
                  <span className="tabular-nums">{count}</span>
                  <span>{t(`profile.tasks.urgency.${u}`)}</span>
                </li>
              );
            })}
          </ul>
        </>
      )}
    </FigureCard>
  );
}

const BAR_TONE = { ok: "bg-emerald-500", fallback: "bg-amber-500", spent: "bg-rose-500" } as const;

function SpendCard() {
  const { t, i18n } = useTranslation();
  const spend = useSpend();
  const report = spend.data;
  const level = report ? budgetLevel(report.todayUsd, report.budgetUsd) : "ok";
  const pct = report ? percentOf(report.todayUsd, report.budgetUsd) : 0;
  return (
    <FigureCard label={t("dashboard.figures.spend")} testId="figure-spend" href={routeHref({ page: "settings" })}>
      {report === undefined ? (
        <Unknown testId="spend-value" />
      ) : (
        <>
          <Big testId="spend-value" className={level === "spent" ? "text-rose-700" : level === "fallback" ? "text-amber-700" : ""}>
            {formatUsd(report.todayUsd, i18n.language)}
          </Big>
          <div
            role="progressbar"
            aria-label={t("dashboard.figures.spendBar")}
            aria-valuemin={0}
            aria-valuemax={100}
            aria-valuenow={Math.round(pct)}
            data-testid="spend-bar"
            data-level={level}
            className="mt-2 h-1.5 overflow-hidden rounded-full bg-slate-100"
          >
            <div className={`h-full rounded-full ${BAR_TONE[level]}`} style={{ width: `${pct}%` }} />
          </div>
          <p data-testid="spend-detail" className="mt-1.5 text-sm text-slate-500">
            {t("dashboard.figures.ofBudget", { budget: formatUsd(report.budgetUsd, i18n.language) })}
          </p>
        </>
      )}
    </FigureCard>
  );
}

/** SPEC §11: actions waiting for the boss's approval; stands out while any wait. */
function ApprovalsCard({ pending }: { pending: number | undefined }) {
  const { t } = useTranslation();
  const waiting = pending ?? 0;
  return (
    <FigureCard label={t("dashboard.figures.approvals")} testId="figure-approvals" href={routeHref({ page: "approvals", approvalId: null })} emphasis={waiting > 0}>
      {pending === undefined ? (
        <Unknown testId="approvals-value" />
      ) : (
        <>
          <Big testId="approvals-value" className={waiting > 0 ? "text-amber-800" : ""}>
            {pending}
          </Big>
          <p data-testid="approvals-detail" className={`mt-1 text-sm ${waiting > 0 ? "font-medium text-amber-800" : "text-slate-500"}`}>
            {waiting > 0 ? t("dashboard.figures.approvalsWaiting", { count: waiting }) : t("dashboard.figures.approvalsNone")}
          </p>
        </>
      )}
    </FigureCard>
  );
}

function UnreadCard() {
  const { t } = useTranslation();
  const mail = useUnreadMail();
  const chats = useChats();
  const chat = (chats.data ?? []).reduce((sum, c) => sum + c.unread, 0);
  const row = "flex items-center gap-2 rounded-md px-1.5 py-1 -mx-1.5 text-sm text-slate-600 hover:bg-slate-50 hover:text-slate-900";
  return (
    <FigureCard label={t("dashboard.figures.unread")} testId="figure-unread">
      <Big testId="unread-value">{mail + chat}</Big>
      <div className="mt-1 flex flex-wrap gap-x-3">
        <a href={routeHref({ page: "mailbox", mailId: null })} data-testid="unread-mail" className={row}>
          <MailIcon className="text-slate-400" />
          {t("dashboard.figures.unreadMail", { count: mail })}
        </a>
        <a href={routeHref({ page: "chats", chatId: null })} data-testid="unread-chats" className={row}>
          <ChatsIcon className="text-slate-400" />
          {t("dashboard.figures.unreadChats", { count: chat })}
        </a>
      </div>
    </FigureCard>
  );
}

// ---- Lists ----

function Panel({ title, testId, count, children }: { title: string; testId: string; count: number; children: ReactNode }) {
  return (
    <section data-testid={testId} aria-label={title} className="min-w-0 overflow-hidden rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <header className="flex items-center justify-between border-b border-slate-100 px-4 py-3">
        <h3 className="text-sm font-semibold text-slate-900">{title}</h3>
        <span className="text-xs text-slate-400 tabular-nums">{count}</span>
      </header>
      {children}
    </section>
  );
}

export function UrgencyPill({ urgency }: { urgency: Urgency }) {
  const { t } = useTranslation();
  return (
    <span
      data-testid="urgency-pill"
      data-urgency={urgency}
      className={`inline-flex shrink-0 items-center rounded-md px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${URGENCY_PILL[urgency]}`}
    >
      {t(`profile.tasks.urgency.${urgency}`)}
    </span>
  );
}

/** 7 → "7 min", 95 → "1 h", 3000 → "2 d". */
function useAge() {
  const { t } = useTranslation();
  return (ageMinutes: number) => {
    const minutes = Math.max(0, ageMinutes);
    if (minutes < 60) return t("dashboard.age.minutes", { count: minutes });
    if (minutes < 24 * 60) return t("dashboard.age.hours", { count: Math.floor(minutes / 60) });
    return t("dashboard.age.days", { count: Math.floor(minutes / (24 * 60)) });
  };
}

function TasksPanel({ tasks }: { tasks: DashboardTask[] }) {
  const { t } = useTranslation();
  const age = useAge();
  return (
    <Panel title={t("dashboard.tasks.title")} testId="dashboard-tasks" count={tasks.length}>
      {tasks.length === 0 ? (
        <p data-testid="tasks-empty" className="px-4 py-8 text-center text-sm text-slate-500">
          {t("dashboard.tasks.empty")}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {tasks.map((task) => (
            <li key={task.id} data-testid={`task-${task.id}`} className="flex items-start gap-3 px-4 py-3">
              <UrgencyPill urgency={task.urgency} />
              <div className="min-w-0 flex-1">
                <p className="text-sm text-slate-900">{task.description}</p>
                <a
                  href={profileHref(task.ownerId)}
                  data-testid={`task-owner-${task.id}`}
                  className="mt-1 inline-flex items-center gap-1.5 text-xs text-slate-500 hover:text-slate-900"
                >
                  <Avatar name={task.ownerName} size={18} />
                  {task.ownerName}
                </a>
              </div>
              <span className="shrink-0 text-xs text-slate-400 tabular-nums" title={t("dashboard.tasks.ageHint")}>
                {age(task.ageMinutes)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

/** Where an activity line leads: the chat, the mail item, or the task owner's profile. */
export function activityHref(item: ActivityItem): string | null {
  switch (item.kind) {
    case "message":
      return item.chatId === null ? null : chatHref(item.chatId);
    case "mail":
      return item.mailId === null ? null : mailHref(item.mailId);
    case "task":
      return item.employeeId === null ? null : profileHref(item.employeeId);
  }
}

const KIND_ICON = { message: ChatsIcon, task: ClipboardIcon, mail: MailIcon } as const;
const KIND_TILE = {
  message: "bg-indigo-50 text-indigo-600",
  task: "bg-amber-50 text-amber-700",
  mail: "bg-sky-50 text-sky-700",
} as const;
const TASK_STATUSES = ["pending", "resolved", "failed"] as const;

function ActivityPanel({ activity }: { activity: ActivityItem[] }) {
  const { t, i18n } = useTranslation();
  const now = Date.now();
  const when = (iso: string) => {
    const at = Date.parse(iso);
    return !Number.isNaN(at) && Math.abs(now - at) < DAY_MS ? formatRelative(iso, now, i18n.language) : formatDateTime(iso, i18n.language);
  };
  return (
    <Panel title={t("dashboard.activity.title")} testId="dashboard-activity" count={activity.length}>
      {activity.length === 0 ? (
        <p data-testid="activity-empty" className="px-4 py-8 text-center text-sm text-slate-500">
          {t("dashboard.activity.empty")}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100">
          {activity.map((item, i) => {
            const Icon = KIND_ICON[item.kind];
            const href = activityHref(item);
            // A task resolved with a deliverable that does not address it reads "needs review", not "finished".
            const status = item.status === "needs_review" ? item.status : TASK_STATUSES.find((s) => s === item.status);
            const content = (
              <>
                <span className={`mt-0.5 flex size-7 shrink-0 items-center justify-center rounded-lg ${KIND_TILE[item.kind]}`}>
                  <Icon aria-label={t(`dashboard.activity.kind.${item.kind}`)} role="img" />
                </span>
                <span className="min-w-0 flex-1">
                  <span className="flex items-baseline justify-between gap-2">
                    <span className="truncate text-sm font-medium text-slate-900">{item.actor || t("dashboard.activity.system")}</span>
                    <time dateTime={item.at} className="shrink-0 text-xs text-slate-400">
                      {when(item.at)}
                    </time>
                  </span>
                  <span className="mt-0.5 line-clamp-2 block text-sm text-slate-600">
                    {item.kind === "task" && status ? `${t(`dashboard.activity.task.${status}`)} ` : ""}
                    {item.text}
                  </span>
                </span>
              </>
            );
            const key = `${item.kind}-${item.chatId ?? ""}-${item.taskId ?? ""}-${item.mailId ?? ""}-${item.at}-${i}`;
            return (
              <li key={key} data-testid="activity-item" data-kind={item.kind}>
                {href ? (
                  <a href={href} className="flex items-start gap-3 px-4 py-3 hover:bg-slate-50">
                    {content}
                  </a>
                ) : (
                  <div className="flex items-start gap-3 px-4 py-3">{content}</div>
                )}
              </li>
            );
          })}
        </ul>
      )}
    </Panel>
  );
}

function EmptyState() {
  const { t } = useTranslation();
  const link = "font-medium text-indigo-600 hover:text-indigo-800";
  return (
    <div data-testid="dashboard-empty" className="rounded-xl bg-white px-6 py-14 text-center shadow-sm ring-1 ring-slate-200">
      <p className="text-sm font-medium text-slate-800">{t("dashboard.empty.title")}</p>
      <p className="mt-2 flex flex-wrap items-center justify-center gap-x-4 gap-y-1 text-sm">
        <a href={routeHref({ page: "secretary" })} data-testid="empty-secretary" className={link}>
          {t("dashboard.empty.secretary")}
        </a>
        <a href={routeHref({ page: "org" })} data-testid="empty-org" className={link}>
          {t("dashboard.empty.org")}
        </a>
      </p>
    </div>
  );
}
