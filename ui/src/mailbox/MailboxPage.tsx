import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { MailDto } from "../bindings/MailDto";
import type { MailStatus } from "../bindings/MailStatus";
import { MailIcon } from "../components/icons";
import { Button, EmployeeFilter, ErrorState, LoadingState, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { queryKeys, useInvalidatingMutation, useMailbox, useOrg } from "../ipc/queries";
import { Avatar } from "../org/Avatar";
import { formatListTime, preview } from "../chats/format";
import { useEmployeeMap } from "../chats/ChatsPage";
import { mailHref, profileHref, routeHref } from "../shell/route";
import { INBOX, MAIL_KINDS, MAIL_VIEWS, isMailKind, isNarrowed, toMailFilter, type MailFilters, type MailView } from "./format";
import { MAIL_KIND_STYLE, MailKindTile } from "./MailKindTile";
import { MailDetail } from "./MailDetail";

type Employees = ReadonlyMap<number, EmployeeDto>;

const ARCHIVE = toMailFilter({ ...INBOX, view: "archived" });

/**
 * `#mailbox/<id>`: what the employees report, what runs late and when the budget stops the work,
 * newest first on the left; the item picked on the right. Opening an unread item reads it.
 */
export function MailboxPage({ mailId }: { mailId: number | null }) {
  const [filters, setFilters] = useState<MailFilters>(INBOX);
  const filter = useMemo(() => toMailFilter(filters), [filters]);
  const mailbox = useMailbox(filter);
  const org = useOrg();
  const employees = useEmployeeMap(org.data);
  const setStatus = useInvalidatingMutation(api.setMailStatus, [queryKeys.mailbox]);

  const items = mailbox.data?.items;
  const listed = items?.find((m) => m.id === mailId);
  // The item on the right stays there when it leaves the list (read in "Unread", archived in the
  // inbox): the last copy seen, with the status the boss gave it since.
  const [kept, setKept] = useState<MailDto | null>(null);
  useEffect(() => {
    if (listed) setKept(listed);
  }, [listed]);
  const selected = listed ?? (kept !== null && kept.id === mailId ? kept : null);

  const change = (mail: MailDto, status: MailStatus) => {
    setKept({ ...mail, status });
    setStatus.mutate(
      { mailId: mail.id, status },
      { onError: () => setKept((k) => (k !== null && k.id === mail.id ? mail : k)) },
    );
  };

  // Opening an unread item reads it, once per opening: "Mark unread" on the open item stays unread.
  const opened = useRef<number | null>(null);
  useEffect(() => {
    const id = selected?.id ?? null;
    if (id === opened.current) return;
    opened.current = id;
    if (selected !== null && selected.status === "unread") change(selected, "read");
    // Only a newly opened item counts (`change` is a fresh closure every render, and need not be a dependency).
  }, [selected]);

  return (
    <div data-testid="mailbox-page" className="flex h-full min-h-0">
      <aside aria-labelledby="mailbox-heading" className="flex w-96 shrink-0 flex-col border-r border-slate-200 bg-white">
        <MailboxHeader unread={mailbox.data?.unread ?? null} />
        <Filters filters={filters} onChange={setFilters} employees={org.data?.employees ?? []} unread={mailbox.data?.unread ?? 0} />
        {/* Absolute fill: percentage heights inside flex items are unreliable in WebKitGTK. */}
        <div className="relative min-h-0 flex-1">
          <div className="absolute inset-0 overflow-y-auto">
            {mailbox.isPending ? (
              <LoadingState className="h-full" />
            ) : mailbox.isError ? (
              <ErrorState className="h-full" error={mailbox.error} onRetry={() => void mailbox.refetch()} />
            ) : (
              <MailList
                items={mailbox.data.items}
                filters={filters}
                selectedId={mailId}
                employees={employees}
                stale={mailbox.isPlaceholderData}
                onClearFilters={() => setFilters((f) => ({ ...f, kind: null, employeeId: null }))}
              />
            )}
          </div>
        </div>
      </aside>

      <section className="relative min-w-0 flex-1">
        {selected !== null ? (
          <MailDetail
            key={selected.id}
            mail={selected}
            employees={employees}
            pending={setStatus.isPending}
            error={setStatus.error}
            onDismissError={() => setStatus.reset()}
            onChange={(status) => change(selected, status)}
          />
        ) : mailbox.isPending || mailbox.isError ? null : mailId !== null ? (
          <NotInView />
        ) : filters.view === "inbox" && !isNarrowed(filters) && mailbox.data.items.length === 0 ? (
          <EmptyInbox onShowArchive={() => setFilters({ ...INBOX, view: "archived" })} />
        ) : (
          <NoSelection />
        )}
      </section>
    </div>
  );
}

function MailboxHeader({ unread }: { unread: number | null }) {
  const { t } = useTranslation();
  return (
    <div className="flex h-[68px] shrink-0 items-center justify-between gap-3 border-b border-slate-200 px-4">
      <div className="min-w-0">
        <h2 id="mailbox-heading" className="text-lg font-semibold tracking-tight text-slate-900">
          {t("mailbox.title")}
        </h2>
        <p className="truncate text-xs text-slate-500" data-testid="mailbox-summary">
          {unread === null ? "\u00a0" : unread > 0 ? t("mailbox.unread", { count: unread }) : t("mailbox.allRead")}
        </p>
      </div>
    </div>
  );
}

function Filters({
  filters,
  onChange,
  employees,
  unread,
}: {
  filters: MailFilters;
  onChange: (f: MailFilters) => void;
  employees: EmployeeDto[];
  unread: number;
}) {
  const { t } = useTranslation();
  const kindId = useId();
  const select = `${inputClass} min-w-0 flex-1 text-[13px]`;
  return (
    <div className="shrink-0 space-y-2.5 border-b border-slate-100 px-4 py-3">
      <div role="group" aria-label={t("mailbox.views")} className="flex rounded-lg bg-slate-100 p-0.5">
        {MAIL_VIEWS.map((view: MailView) => (
          <button
            key={view}
            type="button"
            aria-pressed={filters.view === view}
            data-testid={`mail-view-${view}`}
            onClick={() => onChange({ ...filters, view })}
            className={`flex flex-1 items-center justify-center gap-1.5 rounded-md px-2.5 py-1 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-500 ${
              filters.view === view ? "bg-white text-slate-900 shadow-sm" : "text-slate-500 hover:text-slate-800"
            }`}
          >
            {t(`mailbox.view.${view}`)}
            {view === "unread" && unread > 0 && <span className="text-indigo-600 tabular-nums">{unread > 99 ? "99+" : unread}</span>}
          </button>
        ))}
      </div>
      <div className="flex items-center gap-2">
        <label htmlFor={kindId} className="sr-only">
          {t("mailbox.filter.kind")}
        </label>
        <select
          id={kindId}
          data-testid="mail-kind-filter"
          className={select}
          value={filters.kind ?? ""}
          onChange={(e) => onChange({ ...filters, kind: isMailKind(e.target.value) ? e.target.value : null })}
        >
          <option value="">{t("mailbox.filter.allKinds")}</option>
          {MAIL_KINDS.map((k) => (
            <option key={k} value={k}>
              {t(`mailbox.kind.${k}`)}
            </option>
          ))}
        </select>
        <EmployeeFilter
          employees={employees}
          value={filters.employeeId}
          onChange={(employeeId) => onChange({ ...filters, employeeId })}
          label={t("mailbox.filter.employee")}
          everyone={t("mailbox.filter.everyone")}
          testId="mail-employee-filter"
          className={select}
        />
      </div>
    </div>
  );
}

function MailList({
  items,
  filters,
  selectedId,
  employees,
  stale,
  onClearFilters,
}: {
  items: MailDto[];
  filters: MailFilters;
  selectedId: number | null;
  employees: Employees;
  stale: boolean;
  onClearFilters: () => void;
}) {
  const { t } = useTranslation();
  if (items.length === 0) {
    const narrowed = isNarrowed(filters);
    return (
      <div data-testid="mail-list-empty" className="px-5 py-6 text-sm text-slate-500">
        <p>{narrowed ? t("mailbox.emptyFiltered") : t(`mailbox.emptyView.${filters.view}`)}</p>
        {narrowed && (
          <Button variant="ghost" className="mt-2 -ml-2 h-8 px-2 text-sm" data-testid="mail-clear-filters" onClick={onClearFilters}>
            {t("mailbox.clearFilters")}
          </Button>
        )}
      </div>
    );
  }
  return (
    <ul
      data-testid="mail-list"
      aria-label={t(`mailbox.view.${filters.view}`)}
      aria-busy={stale || undefined}
      className={`space-y-0.5 p-2 transition-opacity ${stale ? "opacity-60" : ""}`}
    >
      {items.map((m) => (
        <MailListItem key={m.id} mail={m} selected={m.id === selectedId} employees={employees} />
      ))}
    </ul>
  );
}

function MailListItem({ mail, selected, employees }: { mail: MailDto; selected: boolean; employees: Employees }) {
  const { t, i18n } = useTranslation();
  const unread = mail.status === "unread";
  const name = mail.employeeId === null ? null : (employees.get(mail.employeeId)?.name ?? (mail.employeeName || t("chats.formerEmployee")));
  return (
    <li
      data-testid={`mail-item-${mail.id}`}
      data-kind={mail.kind}
      data-status={mail.status}
      className={`relative flex gap-3 rounded-lg px-2.5 py-2.5 transition-colors ${selected ? "bg-slate-100" : "hover:bg-slate-50"}`}
    >
      <MailKindTile kind={mail.kind} size={36} />
      <div className="min-w-0 flex-1">
        <div className="flex items-baseline justify-between gap-2">
          {/* The whole row opens the item (the link stretches over it); the sender's link sits above. */}
          <a
            href={mailHref(mail.id)}
            data-testid={`mail-link-${mail.id}`}
            aria-current={selected ? "page" : undefined}
            className={`truncate text-sm after:absolute after:inset-0 after:rounded-lg focus-visible:outline-none focus-visible:after:outline-2 focus-visible:after:-outline-offset-2 focus-visible:after:outline-indigo-500 ${
              unread ? "font-semibold text-slate-900" : "font-medium text-slate-700"
            }`}
          >
            {unread && <span className="sr-only">{t("mailbox.unreadItem")} </span>}
            {mail.title}
          </a>
          <time
            dateTime={mail.createdAt}
            className={`shrink-0 text-[11px] tabular-nums ${unread ? "font-medium text-indigo-600" : "text-slate-400"}`}
          >
            {formatListTime(mail.createdAt, Date.now(), i18n.language)}
          </time>
        </div>
        <div className="mt-0.5 flex min-w-0 items-center gap-1.5 text-xs">
          <span data-testid={`mail-kind-${mail.id}`} className={`shrink-0 font-medium ${MAIL_KIND_STYLE[mail.kind].text}`}>
            {t(`mailbox.kind.${mail.kind}`)}
          </span>
          <span aria-hidden="true" className="text-slate-300">
            ·
          </span>
          {mail.employeeId !== null && name !== null ? (
            <a
              href={profileHref(mail.employeeId)}
              data-testid={`mail-employee-${mail.id}`}
              className="relative z-10 inline-flex min-w-0 items-center gap-1.5 rounded text-slate-600 hover:text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
            >
              <Avatar name={name} size={16} />
              <span className="truncate">{name}</span>
            </a>
          ) : (
            <span className="truncate text-slate-500">{t("mailbox.system")}</span>
          )}
          {unread && <span aria-hidden="true" className="ml-auto size-2 shrink-0 rounded-full bg-indigo-600" />}
        </div>
        {mail.body.trim() !== "" && (
          <p data-testid={`mail-preview-${mail.id}`} className={`mt-1 line-clamp-2 text-xs leading-relaxed ${unread ? "text-slate-600" : "text-slate-500"}`}>
            {preview(mail.body, 160)}
          </p>
        )}
      </div>
    </li>
  );
}

function Placeholder({ testId, title, body, action }: { testId: string; title: string; body: string; action?: ReactNode }) {
  return (
    <div data-testid={testId} className="flex h-full items-center justify-center p-8">
      <div className="max-w-sm text-center">
        <div className="mx-auto flex size-12 items-center justify-center rounded-xl bg-white text-slate-400 shadow-sm ring-1 ring-slate-200">
          <MailIcon width={24} height={24} />
        </div>
        <h3 className="mt-4 text-base font-semibold text-slate-900">{title}</h3>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{body}</p>
        {action}
      </div>
    </div>
  );
}

/**
 * Nothing in the inbox: a mailbox that never got anything says where mail comes from; one whose
 * items are all archived says the boss is done, and where the rest went.
 */
function EmptyInbox({ onShowArchive }: { onShowArchive: () => void }) {
  const { t } = useTranslation();
  const archive = useMailbox(ARCHIVE);
  const archived = archive.data?.items.length ?? 0;
  if (archived > 0) {
    return (
      <Placeholder
        testId="mailbox-caught-up"
        title={t("mailbox.caughtUp.title")}
        body={t("mailbox.caughtUp.body", { count: archived })}
        action={
          <Button className="mt-5" data-testid="mail-show-archive" onClick={onShowArchive}>
            {t("mailbox.caughtUp.action")}
          </Button>
        }
      />
    );
  }
  return (
    <Placeholder
      testId="mailbox-empty"
      title={t("mailbox.empty.title")}
      body={t("mailbox.empty.body")}
      action={
        <a
          href={routeHref({ page: "secretary" })}
          className="mt-5 inline-flex h-9 items-center justify-center rounded-lg bg-white px-3.5 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          {t("mailbox.empty.action")}
        </a>
      }
    />
  );
}

function NoSelection() {
  const { t } = useTranslation();
  return <Placeholder testId="mailbox-no-selection" title={t("mailbox.noSelection.title")} body={t("mailbox.noSelection.body")} />;
}

function NotInView() {
  const { t } = useTranslation();
  return (
    <Placeholder
      testId="mailbox-not-in-view"
      title={t("mailbox.notInView.title")}
      body={t("mailbox.notInView.body")}
      action={
        <a href={routeHref({ page: "mailbox", mailId: null })} className="mt-4 inline-block text-sm font-medium text-indigo-600 hover:underline">
          {t("mailbox.notInView.action")}
        </a>
      }
    />
  );
}
