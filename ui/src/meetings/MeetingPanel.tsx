import { useId, useState } from "react";
import { useTranslation } from "react-i18next";
import type { DecisionDto } from "../bindings/DecisionDto";
import type { Link } from "../bindings/Link";
import type { MeetingViewDto } from "../bindings/MeetingViewDto";
import type { ModeratorNoteDto } from "../bindings/ModeratorNoteDto";
import { ChevronRightIcon, MailIcon, UsersIcon } from "../components/icons";
import { Badge, Button, ConfirmDialog, InlineError, LoadingState, type Tone } from "../components/ui";
import { api } from "../ipc/api";
import { meetingKeys, useInvalidatingMutation, useMeeting } from "../ipc/queries";
import { Avatar } from "../org/Avatar";
import { profileHref, routeHref } from "../shell/route";
import { TraceLink } from "../traces/TraceLink";
import {
  chainActor,
  formatMeetingTime,
  formatWeight,
  isDecidedBy,
  isDecisionOutcome,
  isDecisionType,
  isLinkRole,
  isNoteKind,
  isOpen,
  isStrategy,
  isWaiting,
  orderDecisions,
} from "./format";

type T = (key: string, options?: Record<string, unknown>) => string;

const OUTCOME_TONE: Record<"approved" | "rejected" | "escalated", Tone> = { approved: "green", rejected: "rose", escalated: "amber" };

const strategyLabel = (m: MeetingViewDto, t: T) => (isStrategy(m.strategy) ? t(`meeting.strategy.${m.strategy}`) : m.strategy);

/** Who holds the floor, or when the meeting ended: one line. */
function floorLine(m: MeetingViewDto, t: T, language: string): string {
  if (!isOpen(m)) return m.closedAt ? t("meeting.closedAt", { time: formatMeetingTime(m.closedAt, Date.now(), language) }) : t("meeting.status.closed");
  return m.speakerName ? t("meeting.hasFloor", { name: m.speakerName }) : t("meeting.nobodyHasFloor");
}

/**
 * Beside a meeting's conversation (SPEC §9): its topic, how the moderator picks speakers and who has
 * the floor, the decisions ruled in it (those waiting for the boss first), the minutes once it is
 * closed, and — folded away — the moderator's reasons, which only the boss sees. A side panel on wide
 * windows; on narrow ones a strip above the messages that opens on demand.
 */
export function MeetingPanel({ chatId }: { chatId: number }) {
  const { t, i18n } = useTranslation();
  const meeting = useMeeting(chatId);
  const [open, setOpen] = useState(false);
  const bodyId = useId();
  const m = meeting.data;
  const summary = m ? [t("meeting.label"), strategyLabel(m, t), floorLine(m, t, i18n.language)].join(" · ") : t("meeting.label");
  return (
    <aside
      data-testid="meeting-panel"
      data-status={m?.status}
      aria-label={t("meeting.panelLabel")}
      className="flex shrink-0 flex-col border-b border-slate-200 bg-slate-50/60 xl:order-last xl:w-96 xl:border-b-0 xl:border-l"
    >
      <button
        type="button"
        data-testid="meeting-panel-toggle"
        aria-expanded={open}
        aria-controls={bodyId}
        title={open ? t("meeting.hide") : t("meeting.show")}
        onClick={() => setOpen((o) => !o)}
        className="flex h-10 w-full items-center gap-2 px-6 text-left text-xs font-medium text-slate-600 hover:bg-slate-100 focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 xl:hidden"
      >
        <ChevronRightIcon className={`shrink-0 transition-transform ${open ? "rotate-90" : ""}`} width={14} height={14} />
        <UsersIcon className="shrink-0 text-slate-400" width={14} height={14} />
        <span className="truncate">{summary}</span>
      </button>
      <div id={bodyId} className={`${open ? "block" : "hidden"} max-h-[55vh] min-h-0 overflow-y-auto border-t border-slate-200 xl:block xl:max-h-none xl:flex-1 xl:border-t-0`}>
        {meeting.isPending ? (
          <LoadingState className="py-10" />
        ) : meeting.isError ? (
          <div data-testid="meeting-error" className="space-y-3 p-5">
            <InlineError error={meeting.error} />
            <Button data-testid="meeting-retry" onClick={() => void meeting.refetch()}>
              {t("common.retry")}
            </Button>
          </div>
        ) : (
          <MeetingDetails meeting={meeting.data} />
        )}
      </div>
    </aside>
  );
}

function MeetingDetails({ meeting: m }: { meeting: MeetingViewDto }) {
  const { t, i18n } = useTranslation();
  const [ending, setEnding] = useState(false);
  const open = isOpen(m);
  return (
    <div className="space-y-6 p-5">
      <section>
        <div className="flex items-center justify-between gap-2">
          <p className="text-[11px] font-semibold tracking-wide text-slate-500 uppercase">{t("meeting.label")}</p>
          <Badge tone={open ? "green" : "slate"} data-testid="meeting-status">
            {open ? t("meeting.status.open") : t("meeting.status.closed")}
          </Badge>
        </div>
        <h3 data-testid="meeting-topic" className="mt-1 text-base font-semibold break-words text-slate-900">
          {m.topic}
        </h3>
        <p
          data-testid={open ? "meeting-floor" : "meeting-closed-at"}
          className="mt-2 flex items-center gap-2 text-sm text-slate-700"
        >
          {open && m.speakerName && <Avatar name={m.speakerName} size={22} />}
          <span>{floorLine(m, t, i18n.language)}</span>
        </p>
        <dl className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-xs">
          <dt className="text-slate-500">{t("meeting.moderator")}</dt>
          <dd data-testid="meeting-strategy" className="font-medium text-slate-800" title={isStrategy(m.strategy) ? t(`meeting.strategyHint.${m.strategy}`) : undefined}>
            {strategyLabel(m, t)}
          </dd>
          <dt className="text-slate-500">{t("meeting.turns")}</dt>
          <dd data-testid="meeting-max-turns" className="font-medium text-slate-800 tabular-nums">
            {t("meeting.maxTurns", { count: m.maxTurns })}
          </dd>
        </dl>
        {open && (
          <Button data-testid="meeting-end" className="mt-4 w-full" onClick={() => setEnding(true)}>
            {t("meeting.end")}
          </Button>
        )}
      </section>

      {!open && (
        <section aria-labelledby="meeting-minutes-title">
          <h4 id="meeting-minutes-title" className="text-sm font-semibold text-slate-900">
            {t("meeting.minutes")}
          </h4>
          <p
            data-testid="meeting-minutes"
            className="mt-2 rounded-lg bg-white px-3 py-2.5 text-sm leading-relaxed break-words whitespace-pre-wrap text-slate-700 ring-1 ring-slate-200"
          >
            {m.minutes?.trim() ? m.minutes : <span className="text-slate-400 italic">{t("meeting.noMinutes")}</span>}
          </p>
        </section>
      )}

      <Decisions decisions={m.decisions} />
      <ModeratorNotes notes={m.notes} />

      {ending && <EndMeetingDialog meeting={m} onClose={() => setEnding(false)} />}
    </div>
  );
}

function EndMeetingDialog({ meeting, onClose }: { meeting: MeetingViewDto; onClose: () => void }) {
  const { t } = useTranslation();
  const end = useInvalidatingMutation(api.closeMeeting, meetingKeys(meeting.chatId));
  return (
    <ConfirmDialog
      title={t("meeting.endTitle")}
      description={t("meeting.endBody", { topic: meeting.topic })}
      testId="meeting-end-dialog"
      confirmLabel={t("meeting.endConfirm")}
      pending={end.isPending}
      error={end.isError ? end.error : null}
      onConfirm={() => end.mutate({ chatId: meeting.chatId }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}

function Decisions({ decisions }: { decisions: DecisionDto[] }) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <section aria-labelledby={titleId}>
      <h4 id={titleId} className="flex items-center gap-2 text-sm font-semibold text-slate-900">
        {t("meeting.decisions")}
        {decisions.length > 0 && (
          <span data-testid="meeting-decisions-count" className="rounded-full bg-white px-1.5 text-xs font-medium text-slate-500 tabular-nums ring-1 ring-slate-200">
            {decisions.length}
          </span>
        )}
      </h4>
      {decisions.length === 0 ? (
        <p data-testid="meeting-decisions-empty" className="mt-2 text-xs leading-relaxed text-slate-500">
          {t("meeting.noDecisions")}
        </p>
      ) : (
        <ul data-testid="meeting-decisions" className="mt-2 space-y-2">
          {orderDecisions(decisions).map((d) => (
            <Decision key={d.id} decision={d} />
          ))}
        </ul>
      )}
    </section>
  );
}

/** "Decided by Grace Hopper", "Decided by vote", "Decided by you". */
function decidedBy(d: DecisionDto, t: T): string {
  if (!isDecidedBy(d.decidedByKind)) return d.decidedByName ?? d.decidedByKind;
  if (d.decidedByKind === "lead") return t("meeting.decidedBy.lead", { name: d.decidedByName ?? t("chats.formerEmployee") });
  return t(`meeting.decidedBy.${d.decidedByKind}`);
}

function Decision({ decision: d }: { decision: DecisionDto }) {
  const { t } = useTranslation();
  const [showChain, setShowChain] = useState(false);
  const waiting = isWaiting(d);
  const testId = `meeting-decision-${d.id}`;
  const outcome = waiting ? "escalated" : isDecisionOutcome(d.outcome) ? d.outcome : null;
  return (
    <li
      data-testid={testId}
      data-status={d.status}
      className={`rounded-xl p-3 ${waiting ? "bg-amber-50 ring-1 ring-amber-300" : "bg-white ring-1 ring-slate-200"}`}
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <Badge tone="slate" data-testid={`${testId}-type`}>
          {isDecisionType(d.decisionType) ? t(`meeting.decisionType.${d.decisionType}`) : d.decisionType}
        </Badge>
        <Badge tone={outcome ? OUTCOME_TONE[outcome] : "slate"} data-testid={`${testId}-outcome`}>
          {outcome ? t(`meeting.outcome.${outcome}`) : d.outcome}
        </Badge>
        {d.traceId !== null && <TraceLink traceId={d.traceId} testId={`${testId}-trace`} label={t("meeting.traceLabel")} className="ml-auto" />}
      </div>
      <p data-testid={`${testId}-question`} className="mt-1.5 text-sm font-medium break-words text-slate-900">
        {d.question}
      </p>
      {waiting ? (
        <p className="mt-1 text-xs leading-relaxed text-amber-900">
          {t("meeting.waitingHint")}{" "}
          <a
            href={routeHref({ page: "mailbox", mailId: null })}
            data-testid={`${testId}-mailbox`}
            className="inline-flex items-center gap-1 font-medium text-amber-900 underline decoration-amber-400 underline-offset-2 hover:text-amber-700"
          >
            <MailIcon width={12} height={12} />
            {t("meeting.openMailbox")}
          </a>
        </p>
      ) : (
        <p data-testid={`${testId}-decided-by`} className="mt-1 text-xs text-slate-500">
          {decidedBy(d, t)}
        </p>
      )}
      {d.authorizationChain.length > 0 && (
        <>
          <button
            type="button"
            data-testid={`${testId}-toggle`}
            aria-expanded={showChain}
            aria-controls={`${testId}-chain`}
            onClick={() => setShowChain((s) => !s)}
            className="-ml-1 mt-1.5 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-[11px] font-medium text-slate-500 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500"
          >
            <ChevronRightIcon className={`transition-transform ${showChain ? "rotate-90" : ""}`} width={12} height={12} />
            {showChain ? t("meeting.hideChain") : t("meeting.showChain")}
          </button>
          {showChain && (
            <ol id={`${testId}-chain`} data-testid={`${testId}-chain`} aria-label={t("meeting.chainLabel")} className="mt-1.5 space-y-0">
              {d.authorizationChain.map((link, i) => (
                <ChainLink key={i} link={link} last={i === d.authorizationChain.length - 1} testId={`${testId}-link-${i}`} />
              ))}
            </ol>
          )}
        </>
      )}
    </li>
  );
}

/** One link of a chain: who → what they did → under which rule (and the weight of their vote). */
export function ChainLink({ link, last, testId }: { link: Link; last: boolean; testId: string }) {
  const { t } = useTranslation();
  const actor = chainActor(link);
  const who = actor ? t(`meeting.who.${actor}`) : link.who;
  const decisive = link.role === "decided" || link.role === "escalated";
  return (
    <li data-testid={testId} data-role={link.role} className="relative flex gap-2.5 pb-2 last:pb-0">
      {!last && <span aria-hidden="true" className="absolute top-3 bottom-0 left-[3px] w-px bg-slate-200" />}
      <span aria-hidden="true" className={`mt-1.5 size-[7px] shrink-0 rounded-full ${decisive ? "bg-indigo-500" : "bg-slate-300"}`} />
      <div className="min-w-0 text-xs">
        <p className="flex flex-wrap items-baseline gap-x-1.5">
          {link.employeeId !== null ? (
            <a href={profileHref(link.employeeId)} className="font-medium text-slate-800 hover:underline">
              {who}
            </a>
          ) : (
            <span className="font-medium text-slate-800">{who}</span>
          )}
          <span aria-hidden="true" className="text-slate-300">
            →
          </span>
          <span className={decisive ? "font-medium text-indigo-700" : "text-slate-600"}>
            {isLinkRole(link.role) ? t(`meeting.role.${link.role}`) : link.role}
          </span>
          {link.weight !== null && (
            <span data-testid={`${testId}-weight`} className="rounded bg-slate-100 px-1 text-[11px] text-slate-500 tabular-nums">
              {t("meeting.weight", { weight: formatWeight(link.weight) })}
            </span>
          )}
        </p>
        <p className="mt-0.5 break-words text-[11px] text-slate-500">{link.rule}</p>
      </div>
    </li>
  );
}

function ModeratorNotes({ notes }: { notes: ModeratorNoteDto[] }) {
  const { t, i18n } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <section>
      <button
        type="button"
        data-testid="meeting-notes-toggle"
        aria-expanded={open}
        aria-controls="meeting-notes"
        onClick={() => setOpen((o) => !o)}
        className="-ml-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-sm font-semibold text-slate-900 hover:text-slate-700 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <ChevronRightIcon className={`transition-transform ${open ? "rotate-90" : ""}`} width={14} height={14} />
        {t("meeting.notesToggle", { count: notes.length })}
      </button>
      {open && (
        <div id="meeting-notes" data-testid="meeting-notes" className="mt-2">
          <p className="text-xs leading-relaxed text-slate-500">{t("meeting.notesHint")}</p>
          {notes.length === 0 ? (
            <p data-testid="meeting-notes-empty" className="mt-2 text-xs text-slate-400 italic">
              {t("meeting.noNotes")}
            </p>
          ) : (
            <ol className="mt-2 space-y-2">
              {notes.map((n, i) => (
                <li
                  key={i}
                  data-testid={`meeting-note-${i}`}
                  data-kind={n.kind}
                  className="rounded-lg border border-dashed border-slate-300 bg-white/70 px-3 py-2 text-xs"
                >
                  <p className="flex items-baseline justify-between gap-2">
                    <span className="font-medium text-slate-700">
                      {isNoteKind(n.kind) ? t(`meeting.noteKind.${n.kind}`, { name: n.employeeName || t("chats.formerEmployee") }) : n.kind}
                    </span>
                    <time dateTime={n.at} className="shrink-0 text-[11px] text-slate-400 tabular-nums">
                      {formatMeetingTime(n.at, Date.now(), i18n.language)}
                    </time>
                  </p>
                  {n.reason.trim() !== "" && <p className="mt-0.5 break-words text-slate-500 italic">{n.reason}</p>}
                </li>
              ))}
            </ol>
          )}
        </div>
      )}
    </section>
  );
}
