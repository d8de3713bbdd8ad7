import type { ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { MailDto } from "../bindings/MailDto";
import type { MailStatus } from "../bindings/MailStatus";
import { ArchiveIcon, ChatsIcon, ClockAlertIcon, CoinIcon, InboxIcon, MailDotIcon, MailOpenIcon, SettingsIcon, TraceIcon } from "../components/icons";
import { Badge, Button } from "../components/ui";
import { errorKey } from "../ipc/errors";
import { Avatar } from "../org/Avatar";
import { chatHref, profileHref, routeHref, traceHref } from "../shell/route";
import { fixTarget } from "../approvals/format";
import { KIND_TONE, formatMailTime } from "./format";
import { MailKindTile } from "./MailKindTile";
import { DeliverableLine, parseDeliverableLine } from "../chats/Deliverable";

const linkButton =
  "inline-flex h-9 items-center justify-center gap-1.5 rounded-lg px-3.5 text-sm font-medium whitespace-nowrap transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500";

/** One item in full: who it is from (or about), when, its whole text, and what the boss can do with it. */
export function MailDetail({
  mail,
  employees,
  pending,
  error,
  onDismissError,
  onChange,
}: {
  mail: MailDto;
  employees: ReadonlyMap<number, EmployeeDto>;
  pending: boolean;
  error: unknown;
  onDismissError: () => void;
  onChange: (status: MailStatus) => void;
}) {
  const { t, i18n } = useTranslation();
  const archived = mail.status === "archived";
  const person = mail.employeeId === null ? undefined : employees.get(mail.employeeId);
  const name = person?.name ?? (mail.employeeName || (mail.employeeId === null ? null : t("chats.formerEmployee")));
  // A refusal names the one place that fixes it (a budget stop has its own note below).
  const fix = mail.kind === "budget" ? null : fixTarget(mail.fixHref);

  return (
    <article
      data-testid="mail-detail"
      data-mail-id={mail.id}
      data-kind={mail.kind}
      data-status={mail.status}
      aria-labelledby={`mail-title-${mail.id}`}
      className="flex h-full min-h-0 flex-col"
    >
      <div className="flex h-[68px] shrink-0 items-center justify-between gap-4 border-b border-slate-200 bg-white/60 px-6">
        <div className="flex min-w-0 items-center gap-2">
          <Badge tone={KIND_TONE[mail.kind]} data-testid="mail-detail-kind">
            {t(`mailbox.kind.${mail.kind}`)}
          </Badge>
          {mail.status !== "read" && (
            <Badge tone={archived ? "slate" : "indigo"} data-testid="mail-detail-status">
              {t(`mailbox.status.${mail.status}`)}
            </Badge>
          )}
        </div>
        <div className="flex shrink-0 items-center gap-2">
          {!archived &&
            (mail.status === "unread" ? (
              <Button variant="ghost" data-testid="mail-mark-read" disabled={pending} onClick={() => onChange("read")}>
                <MailOpenIcon />
                {t("mailbox.action.markRead")}
              </Button>
            ) : (
              <Button variant="ghost" data-testid="mail-mark-unread" disabled={pending} onClick={() => onChange("unread")}>
                <MailDotIcon />
                {t("mailbox.action.markUnread")}
              </Button>
            ))}
          {archived ? (
            <Button data-testid="mail-unarchive" disabled={pending} onClick={() => onChange("read")}>
              <InboxIcon />
              {t("mailbox.action.unarchive")}
            </Button>
          ) : (
            <Button data-testid="mail-archive" disabled={pending} onClick={() => onChange("archived")}>
              <ArchiveIcon />
              {t("mailbox.action.archive")}
            </Button>
          )}
          {mail.traceId !== null && (
            <a
              href={traceHref(mail.traceId)}
              data-testid="mail-open-trace"
              className={`${linkButton} bg-white text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset hover:bg-slate-50`}
            >
              <TraceIcon />
              {t("mailbox.action.openTrace")}
            </a>
          )}
          {mail.chatId !== null && (
            <a href={chatHref(mail.chatId)} data-testid="mail-open-chat" className={`${linkButton} bg-slate-900 text-white shadow-sm hover:bg-slate-700`}>
              <ChatsIcon />
              {t("mailbox.action.openChat")}
            </a>
          )}
        </div>
      </div>

      {error != null && (
        <div role="alert" className="flex shrink-0 items-center justify-between gap-3 bg-rose-50 px-6 py-2 text-sm text-rose-700">
          <span data-testid="mail-action-error">{t("mailbox.actionFailed", { message: t(errorKey(error)) })}</span>
          <button type="button" className="text-xs font-medium underline" onClick={onDismissError}>
            {t("common.close")}
          </button>
        </div>
      )}

      <div className="relative min-h-0 flex-1 overflow-y-auto">
        <div className="mx-auto max-w-3xl px-6 py-6">
          <div className="flex items-start gap-4">
            <MailKindTile kind={mail.kind} size={44} />
            <div className="min-w-0">
              <h2 id={`mail-title-${mail.id}`} data-testid="mail-title" className="text-xl font-semibold tracking-tight break-words text-slate-900">
                {mail.title}
              </h2>
              <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
                <Sender mail={mail} name={name} jobTitle={person?.title ?? null} />
                <span aria-hidden="true" className="text-slate-300">
                  ·
                </span>
                <time dateTime={mail.createdAt} data-testid="mail-time">
                  {formatMailTime(mail.createdAt, i18n.language)}
                </time>
              </p>
            </div>
          </div>

          {fix !== null && mail.fixHref ? (
            <Callout
              testId="mail-fix-note"
              className="bg-rose-50 text-rose-900 ring-rose-600/20"
              icon={<SettingsIcon className="text-rose-600" width={18} height={18} />}
              title={t("mailbox.fix.title")}
              body={t(`mailbox.fix.body.${fix.kind}`, { name: name ?? "", host: fix.kind === "webhooks" ? (fix.host ?? "") : "" })}
              action={
                <a
                  href={mail.fixHref}
                  data-testid="mail-fix"
                  className={`${linkButton} mt-3 h-8 bg-white px-3 text-rose-700 shadow-sm ring-1 ring-rose-200 ring-inset hover:bg-rose-50`}
                >
                  <SettingsIcon />
                  {t(`mailbox.fix.action.${fix.kind}`, { name: name ?? "", host: fix.kind === "webhooks" ? (fix.host ?? "") : "" })}
                </a>
              }
            />
          ) : mail.kind === "escalation" && (
            <Callout
              testId="mail-escalation-note"
              className="bg-amber-50 text-amber-900 ring-amber-600/20"
              icon={<ClockAlertIcon className="text-amber-600" width={18} height={18} />}
              title={t("mailbox.escalation.title")}
              body={name ? t("mailbox.escalation.bodyNamed", { name }) : t("mailbox.escalation.body")}
            />
          )}
          {mail.kind === "budget" && (
            <Callout
              testId="mail-budget-note"
              className="bg-rose-50 text-rose-900 ring-rose-600/20"
              icon={<CoinIcon className="text-rose-600" width={18} height={18} />}
              title={t("mailbox.budget.title")}
              body={t("mailbox.budget.body")}
              action={
                <a
                  href={routeHref({ page: "settings", section: "budget" })}
                  data-testid="mail-open-settings"
                  className={`${linkButton} mt-3 h-8 bg-white px-3 text-rose-700 shadow-sm ring-1 ring-rose-200 ring-inset hover:bg-rose-50`}
                >
                  <SettingsIcon />
                  {t("mailbox.budget.action")}
                </a>
              }
            />
          )}

          <Body mail={mail} name={name} />
        </div>
      </div>
    </article>
  );
}

/** "From Alan Turing, Backend engineer" (a link to the profile), "Task owner …" for an escalation, or Cubicle itself. */
function Sender({ mail, name, jobTitle }: { mail: MailDto; name: string | null; jobTitle: string | null }) {
  const { t } = useTranslation();
  if (mail.employeeId === null || name === null) {
    return (
      <span className="inline-flex items-center gap-1.5" data-testid="mail-sender">
        <span aria-hidden="true" className="flex size-5 items-center justify-center rounded-md bg-slate-900 text-[10px] font-bold text-white">
          C
        </span>
        <span className="font-medium text-slate-700">{t("mailbox.system")}</span>
      </span>
    );
  }
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5" data-testid="mail-sender">
      <span>{mail.kind === "escalation" ? t("mailbox.owner") : t("mailbox.from")}</span>
      <a
        href={profileHref(mail.employeeId)}
        data-testid="mail-sender-link"
        className="inline-flex items-center gap-1.5 rounded font-medium text-slate-700 hover:text-slate-900 hover:underline focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <Avatar name={name} size={20} />
        {name}
      </a>
      {jobTitle && <span className="text-slate-400">{jobTitle}</span>}
    </span>
  );
}

/**
 * The text. A report is the employee speaking, in their own words: it reads like a message from
 * them; everything else is a note from Cubicle.
 */
function Body({ mail, name }: { mail: MailDto; name: string | null }) {
  const { t } = useTranslation();
  const text = mail.body.trim();
  if (text === "") {
    return (
      <p data-testid="mail-body" className="mt-6 text-sm text-slate-400 italic">
        {t("mailbox.noBody")}
      </p>
    );
  }
  if (mail.kind === "report" && name !== null) {
    return (
      <div className="mt-6 flex items-start gap-3">
        <Avatar name={name} size={36} />
        <div
          data-testid="mail-body"
          className="min-w-0 flex-1 rounded-2xl rounded-tl-md bg-white px-4 py-3 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800 shadow-sm ring-1 ring-slate-200"
        >
          <ReportText text={text} />
        </div>
      </div>
    );
  }
  return (
    <div
      data-testid="mail-body"
      className="mt-6 rounded-xl bg-white px-5 py-4 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-800 shadow-sm ring-1 ring-slate-200"
    >
      {text}
    </div>
  );
}

/** A report's text; its last line, when it names the deliverable, opens the document as it does in the chat. */
function ReportText({ text }: { text: string }) {
  const lastBreak = text.lastIndexOf("\n");
  const link = parseDeliverableLine(text.slice(lastBreak + 1));
  if (!link) return <>{text}</>;
  return (
    <>
      {text.slice(0, lastBreak + 1)}
      <DeliverableLine {...link} onDark={false} />
    </>
  );
}

function Callout({
  testId,
  className,
  icon,
  title,
  body,
  action,
}: {
  testId: string;
  className: string;
  icon: ReactNode;
  title: string;
  body: string;
  action?: ReactNode;
}) {
  return (
    <div data-testid={testId} className={`mt-5 flex items-start gap-3 rounded-xl px-4 py-3 ring-1 ring-inset ${className}`}>
      <span className="mt-0.5 shrink-0">{icon}</span>
      <div className="min-w-0">
        <p className="text-sm font-semibold">{title}</p>
        <p className="mt-0.5 text-sm leading-relaxed opacity-90">{body}</p>
        {action}
      </div>
    </div>
  );
}
