import { useEffect, useId, useRef, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { useQueryClient } from "@tanstack/react-query";
import type { ApprovalDto } from "../bindings/ApprovalDto";
import type { Decision } from "../bindings/Decision";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import { ChatsIcon, CheckIcon, ChevronRightIcon, CloseIcon, ShieldIcon } from "../components/icons";
import { Badge, Button, ConfirmDialog, EmployeeFilter, ErrorState, InlineError, LoadingState, inputClass, type Tone } from "../components/ui";
import { useEmployeeMap } from "../chats/ChatsPage";
import { isToolName } from "../domain";
import { formatDateTime, formatRelative } from "../employee/format";
import { api } from "../ipc/api";
import { errorCode } from "../ipc/errors";
import { APPROVAL_KEYS, queryKeys, useApprovals, useOrg } from "../ipc/queries";
import { ChainLink } from "../meetings/MeetingPanel";
import { Avatar } from "../org/Avatar";
import { formatUsd } from "../settings/format";
import { chatHref, profileHref } from "../shell/route";
import { TraceLink } from "../traces/TraceLink";
import { ApprovalStatusChip } from "./ApprovalStatusChip";
import {
  ALL_HISTORY,
  APPROVAL_STATUSES,
  chainRule,
  outcomeOf,
  type ApprovalOutcome,
  APPROVAL_VIEWS,
  NO_HISTORY_FILTERS,
  PENDING,
  canDecide,
  historyFilter,
  isApprovalStatus,
  isDecidedVia,
  isLiteralSummary,
  isNarrowed,
  isRisk,
  prettyArgs,
  resultText,
  shortHash,
  type ApprovalView,
  type HistoryFilters,
} from "./format";

type T = (key: string, options?: Record<string, unknown>) => string;
type Employees = ReadonlyMap<number, EmployeeDto>;

const RISK_TONE: Record<"read_only" | "write" | "high", Tone> = { read_only: "slate", write: "indigo", high: "rose" };
const OUTCOME_TONE: Record<ApprovalOutcome, Tone> = { running: "indigo", queued: "amber", done: "green", failed: "rose", not_run: "slate" };

export const toolLabel = (tool: string, t: T): string => (isToolName(tool) ? t(`tool.${tool}.action`) : tool.replace(/_/g, " "));
const viaLabel = (via: string | null, t: T): string => (isDecidedVia(via) ? t(`approvals.via.${via}`) : (via ?? ""));

/** The time now, moving on every half minute: expiries count down, and a card whose time ran out loses its buttons. */
function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    const timer = window.setInterval(() => setNow(Date.now()), 30_000);
    return () => window.clearInterval(timer);
  }, []);
  return now;
}

/** The boss's answer to one approval, or to several at once; the same key everywhere. */
function useDecide() {
  const client = useQueryClient();
  const refresh = () => Promise.all(APPROVAL_KEYS.map((queryKey) => client.invalidateQueries({ queryKey })));
  return { client, refresh };
}

/**
 * `#approvals/<id>`: what the employees asked to do that waits for the boss, oldest first, each with
 * exactly what would happen; and the history of what was decided, by whom, and what came of it.
 */
export function ApprovalsPage({ approvalId }: { approvalId: number | null }) {
  const { t } = useTranslation();
  const [view, setView] = useState<ApprovalView>("waiting");
  const [filters, setFilters] = useState<HistoryFilters>(NO_HISTORY_FILTERS);
  const pending = useApprovals(PENDING);
  const history = useApprovals(historyFilter(filters), { enabled: view === "history" });
  const org = useOrg();
  const employees = useEmployeeMap(org.data);
  // Approvals someone else decided while the boss was looking at them: shown where they were, as they stand now.
  const [settledElsewhere, setSettledElsewhere] = useState<ApprovalDto[]>([]);
  // What the boss just decided here: kept in the queue a while with what came of it (running → done / failed).
  const [justDecided, setJustDecided] = useState<JustDecided[]>([]);
  const recent = useApprovals(ALL_HISTORY, { enabled: justDecided.length > 0 });

  // A link to an approval that no longer waits opens the history on it.
  const loaded = pending.data !== undefined;
  useEffect(() => {
    if (approvalId === null || pending.data === undefined) return;
    if (pending.data.some((a) => a.id === approvalId)) setView("waiting");
    else if (!settledElsewhere.some((a) => a.id === approvalId)) {
      setFilters(NO_HISTORY_FILTERS);
      setView("history");
    }
    // Only a new link (or the first answer) decides the view; later refreshes leave the boss's choice alone.
  }, [approvalId, loaded]);

  const waitingCount = pending.data?.length ?? null;
  return (
    <div data-testid="approvals-page" className="flex h-full min-h-0 flex-col">
      {/* Flush left like every other page's header (not centred over the cards). */}
      <div data-testid="approvals-header" className="shrink-0 border-b border-slate-200 bg-white px-6 py-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <div className="min-w-0">
            <h2 className="text-lg font-semibold tracking-tight text-slate-900">{t("approvals.title")}</h2>
            <p data-testid="approvals-summary" className="truncate text-xs text-slate-500">
              {waitingCount !== null && waitingCount > 0 ? t("approvals.waitingCount", { count: waitingCount }) : t("approvals.subtitle")}
            </p>
          </div>
          <div role="group" aria-label={t("approvals.views")} className="flex rounded-lg bg-slate-100 p-0.5">
            {APPROVAL_VIEWS.map((v) => (
              <button
                key={v}
                type="button"
                aria-pressed={view === v}
                data-testid={`approvals-view-${v}`}
                onClick={() => setView(v)}
                className={`flex items-center gap-1.5 rounded-md px-3 py-1 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                  view === v ? "bg-white text-slate-900 shadow-sm" : "text-slate-500 hover:text-slate-800"
                }`}
              >
                {t(`approvals.view.${v}`)}
                {v === "waiting" && waitingCount !== null && waitingCount > 0 && <span className="text-amber-600 tabular-nums">{waitingCount}</span>}
              </button>
            ))}
          </div>
        </div>
      </div>
      {/* Absolute fill: percentage heights inside flex items are unreliable in WebKitGTK. */}
      <div className="relative min-h-0 flex-1">
        <div className="absolute inset-0 overflow-y-auto">
          <div className="mx-auto max-w-3xl px-6 py-5">
            {view === "waiting" ? (
              pending.isPending ? (
                <LoadingState className="py-16" />
              ) : pending.isError ? (
                <ErrorState error={pending.error} onRetry={() => void pending.refetch()} />
              ) : (
                <WaitingList
                  approvals={pending.data}
                  justDecided={latest(justDecided, recent.data)}
                  onDecided={(a) => setJustDecided((list) => [...list.filter((x) => x.approval.id !== a.id), { approval: a, at: Date.now() }])}
                  onClearDecided={() => setJustDecided([])}
                  settledElsewhere={settledElsewhere}
                  onSettledElsewhere={(a) => setSettledElsewhere((list) => [...list.filter((x) => x.id !== a.id), a])}
                  selectedId={approvalId}
                  employees={employees}
                />
              )
            ) : (
              <>
                <HistoryFiltersBar filters={filters} onChange={setFilters} employees={org.data?.employees ?? []} />
                {history.isPending ? (
                  <LoadingState className="py-16" />
                ) : history.isError ? (
                  <ErrorState error={history.error} onRetry={() => void history.refetch()} />
                ) : (
                  <>
                    {approvalId !== null &&
                      !isNarrowed(filters) &&
                      !history.isPlaceholderData &&
                      !history.data.some((a) => a.id === approvalId) &&
                      !(pending.data ?? []).some((a) => a.id === approvalId) && (
                        <p data-testid="approvals-not-found" role="status" className="mb-3 rounded-lg bg-slate-100 px-3 py-2 text-sm text-slate-600">
                          {t("approvals.notFound")}
                        </p>
                      )}
                    <HistoryList
                    approvals={history.data}
                    narrowed={isNarrowed(filters)}
                    stale={history.isPlaceholderData}
                    selectedId={approvalId}
                    employees={employees}
                    onClearFilters={() => setFilters(NO_HISTORY_FILTERS)}
                    />
                  </>
                )}
              </>
            )}
          </div>
        </div>
      </div>
    </div>
  );
}

/** An approval the boss decided here, and when: it stays in the queue with its outcome for {@link JUST_DECIDED_MS}. */
interface JustDecided {
  approval: ApprovalDto;
  at: number;
}

/** How long a card the boss decided stays in the queue with its outcome. */
const JUST_DECIDED_MS = 10 * 60_000;

/** The cards just decided, each as the latest listing has it (its run may have ended since). */
function latest(list: JustDecided[], history: ApprovalDto[] | undefined): JustDecided[] {
  return list.map((d) => ({ ...d, approval: history?.find((a) => a.id === d.approval.id) ?? d.approval }));
}

function WaitingList({
  approvals,
  justDecided,
  onDecided,
  onClearDecided,
  settledElsewhere,
  onSettledElsewhere,
  selectedId,
  employees,
}: {
  approvals: ApprovalDto[];
  justDecided: JustDecided[];
  onDecided: (a: ApprovalDto) => void;
  onClearDecided: () => void;
  settledElsewhere: ApprovalDto[];
  onSettledElsewhere: (a: ApprovalDto) => void;
  selectedId: number | null;
  employees: Employees;
}) {
  const { t } = useTranslation();
  const [checked, setChecked] = useState<ReadonlySet<number>>(new Set());
  const [confirming, setConfirming] = useState(false);
  const now = useNow();
  const decidable = approvals.filter((a) => canDecide(a, now));
  // Only what is still on the list and can be decided stays selected.
  const selected = decidable.filter((a) => checked.has(a.id));
  const allChecked = decidable.length > 0 && selected.length === decidable.length;
  const toggle = (id: number, on: boolean) =>
    setChecked((s) => {
      const next = new Set(s);
      if (on) next.add(id);
      else next.delete(id);
      return next;
    });

  const decidedHere = justDecided.filter((d) => now - d.at < JUST_DECIDED_MS && !approvals.some((a) => a.id === d.approval.id));
  const elsewhere = settledElsewhere.filter((s) => !approvals.some((a) => a.id === s.id) && !decidedHere.some((d) => d.approval.id === s.id));
  const recent =
    decidedHere.length > 0 ? (
      <section data-testid="approvals-just-decided" aria-labelledby="approvals-just-decided-title" className={approvals.length > 0 || elsewhere.length > 0 ? "mt-6" : undefined}>
        <div className="mb-2 flex items-center justify-between gap-3">
          <h3 id="approvals-just-decided-title" className="text-xs font-semibold tracking-wide text-slate-500 uppercase">
            {t("approvals.justDecided")}
          </h3>
          <Button variant="ghost" className="h-7 px-2 text-xs" data-testid="approvals-just-decided-clear" onClick={onClearDecided}>
            {t("approvals.clearDecided")}
          </Button>
        </div>
        <ul className="space-y-3">
          {decidedHere.map((d) => (
            <ApprovalCard key={d.approval.id} approval={d.approval} now={now} selected={d.approval.id === selectedId} employees={employees} justDecided />
          ))}
        </ul>
      </section>
    ) : null;
  if (approvals.length === 0 && elsewhere.length === 0) {
    return (
      <>
        {recent === null ? <EmptyQueue /> : <p data-testid="approvals-empty" className="mb-4 text-sm text-slate-500">{t("approvals.nothingElse")}</p>}
        {recent}
      </>
    );
  }
  return (
    <>
      {decidable.length > 1 && (
        <div data-testid="approvals-batch-bar" className="mb-3 flex flex-wrap items-center justify-between gap-3 rounded-xl bg-white px-4 py-2.5 shadow-sm ring-1 ring-slate-200">
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm text-slate-600 select-none">
            <input
              type="checkbox"
              data-testid="approvals-select-all"
              checked={allChecked}
              onChange={(e) => setChecked(e.target.checked ? new Set(decidable.map((a) => a.id)) : new Set())}
              className="size-4 rounded border-slate-300 accent-slate-900"
            />
            {t("approvals.selectAll")}
          </label>
          <Button variant="primary" data-testid="approvals-approve-selected" disabled={selected.length === 0} onClick={() => setConfirming(true)}>
            <CheckIcon />
            {t("approvals.approveSelected", { count: selected.length })}
          </Button>
        </div>
      )}
      <ul data-testid="approvals-waiting-list" aria-label={t("approvals.view.waiting")} className="space-y-3">
        {elsewhere.map((a) => (
          <ApprovalCard key={a.id} approval={a} now={now} selected={a.id === selectedId} employees={employees} alreadyDecided />
        ))}
        {approvals.map((a) => (
          <ApprovalCard
            key={a.id}
            approval={a}
            now={now}
            selected={a.id === selectedId}
            employees={employees}
            checked={decidable.length > 1 && canDecide(a, now) ? checked.has(a.id) : undefined}
            onCheck={(on) => toggle(a.id, on)}
            onSettledElsewhere={onSettledElsewhere}
            onDecided={onDecided}
          />
        ))}
      </ul>
      {recent}
      {confirming && (
        <BatchApproveDialog
          approvals={selected}
          onSettledElsewhere={onSettledElsewhere}
          onDecided={onDecided}
          onClose={() => setConfirming(false)}
          onDone={() => {
            setConfirming(false);
            setChecked(new Set());
          }}
        />
      )}
    </>
  );
}

/** Approves each selected item in turn; what someone else decided meanwhile is shown as it stands. */
function BatchApproveDialog({
  approvals,
  onSettledElsewhere,
  onDecided,
  onClose,
  onDone,
}: {
  approvals: ApprovalDto[];
  onSettledElsewhere: (a: ApprovalDto) => void;
  onDecided: (a: ApprovalDto) => void;
  onClose: () => void;
  onDone: () => void;
}) {
  const { t } = useTranslation();
  const { refresh } = useDecide();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const run = async () => {
    setPending(true);
    setError(null);
    let failure: unknown = null;
    try {
      // One call: core decides each in turn and says what came of it.
      const results = await api.decideApprovals({
        decisions: approvals.map((a) => ({ approvalId: a.id, decision: "approve", note: null, argsHash: a.argsHash })),
      });
      for (const r of results) {
        if (r.kind === "settled_elsewhere") onSettledElsewhere(r.approval);
        else if (r.kind === "decided") onDecided(r.approval);
        else if (r.kind === "failed") failure ??= r.error;
      }
    } catch (e) {
      failure = e;
    }
    await refresh();
    setPending(false);
    if (failure !== null) setError(failure);
    else onDone();
  };
  return (
    <ConfirmDialog
      title={t("approvals.batch.title", { count: approvals.length })}
      description={t("approvals.batch.body")}
      testId="approvals-batch-dialog"
      confirmLabel={t("approvals.batch.confirm", { count: approvals.length })}
      pending={pending}
      error={error}
      onConfirm={() => void run()}
      onClose={onClose}
    >
      <ul data-testid="approvals-batch-list" className="max-h-64 space-y-2 overflow-y-auto">
        {approvals.map((a) => (
          <li key={a.id} className="rounded-lg bg-slate-50 px-3 py-2 text-sm ring-1 ring-slate-200 ring-inset">
            <p className="text-xs text-slate-500">
              {a.requesterName} · {toolLabel(a.tool, t)}
            </p>
            <p className={`mt-0.5 break-words text-slate-900 ${isLiteralSummary(a.tool) ? "font-mono text-[13px]" : ""}`}>{a.summary}</p>
          </li>
        ))}
      </ul>
    </ConfirmDialog>
  );
}

/** The approval as it stands now (after someone else decided it), from the full history. */
async function currentState(client: ReturnType<typeof useQueryClient>, id: number): Promise<ApprovalDto | null> {
  try {
    const all = await client.fetchQuery({ queryKey: queryKeys.approvalList(ALL_HISTORY), queryFn: () => api.listApprovals(ALL_HISTORY), staleTime: 0 });
    return all.find((a) => a.id === id) ?? null;
  } catch {
    return null;
  }
}

function ApprovalCard({
  approval: a,
  now,
  selected,
  employees,
  checked,
  onCheck,
  onSettledElsewhere,
  onDecided,
  alreadyDecided = false,
  justDecided = false,
}: {
  approval: ApprovalDto;
  now: number;
  selected: boolean;
  employees: Employees;
  /** undefined: no checkbox (a single item, or one that cannot be decided). */
  checked?: boolean;
  onCheck?: (on: boolean) => void;
  onSettledElsewhere?: (a: ApprovalDto) => void;
  onDecided?: (a: ApprovalDto) => void;
  alreadyDecided?: boolean;
  /** Decided by the boss here a moment ago: still in the queue, with its outcome. */
  justDecided?: boolean;
}) {
  const { t, i18n } = useTranslation();
  const waiting = a.status === "waiting";
  // In the queue (also when someone else just decided it there), or in the history.
  const testId = waiting || alreadyDecided || justDecided ? `approval-${a.id}` : `approval-history-${a.id}`;
  const outcome = outcomeOf(a);
  const name = employees.get(a.employeeId)?.name ?? (a.requesterName || t("chats.formerEmployee"));
  const runOut = waiting && !canDecide(a, now);
  // The card a link points at comes into view once, when it is picked (not on every keystroke of a note).
  const ref = useRef<HTMLLIElement>(null);
  useEffect(() => {
    if (selected) ref.current?.scrollIntoView?.({ block: "nearest" });
  }, [selected]);
  return (
    <li
      ref={ref}
      data-testid={testId}
      data-status={a.status}
      aria-current={selected ? "true" : undefined}
      className={`rounded-xl bg-white p-4 shadow-sm ring-1 transition-shadow ${selected ? "ring-2 ring-indigo-500" : "ring-slate-200"}`}
    >
      <div className="flex items-start gap-3">
        {checked !== undefined && (
          <input
            type="checkbox"
            data-testid={`approval-check-${a.id}`}
            aria-label={t("approvals.select", { summary: a.summary })}
            checked={checked}
            onChange={(e) => onCheck?.(e.target.checked)}
            className="mt-2.5 size-4 shrink-0 rounded border-slate-300 accent-slate-900"
          />
        )}
        <a href={profileHref(a.employeeId)} className="shrink-0 rounded-full focus-visible:outline-2 focus-visible:outline-indigo-500" aria-label={name}>
          <Avatar name={name} size={36} />
        </a>
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-x-2 gap-y-1 text-xs">
            <a href={profileHref(a.employeeId)} data-testid={`${testId}-requester`} className="text-sm font-medium text-slate-900 hover:underline">
              {name}
            </a>
            <span className="text-slate-500">{t("approvals.wantsTo")}</span>
            <span data-testid={`${testId}-tool`} className="font-medium text-slate-700">
              {toolLabel(a.tool, t)}
            </span>
            {isRisk(a.risk) && (
              <Badge tone={RISK_TONE[a.risk]} data-testid={`${testId}-risk`} data-risk={a.risk}>
                {t(`approvals.risk.${a.risk}`)}
              </Badge>
            )}
            {/* The decision and what came of it are two things: "Approved" beside "Failed", each its own chip. */}
            {!waiting && isApprovalStatus(a.status) && <ApprovalStatusChip status={a.status} testId={`${testId}-status`} />}
            {outcome !== null && (
              <Badge tone={OUTCOME_TONE[outcome]} data-testid={`${testId}-outcome-chip`} data-outcome={outcome}>
                {t(`approvals.outcome.${outcome}`)}
              </Badge>
            )}
            <time dateTime={a.createdAt} className="ml-auto text-[11px] text-slate-400 tabular-nums">
              {formatDateTime(a.createdAt, i18n.language)}
            </time>
          </div>
          <p
            data-testid={`${testId}-summary`}
            className={`mt-2 rounded-lg bg-slate-50 px-3 py-2 break-words whitespace-pre-wrap text-slate-900 ring-1 ring-slate-200 ring-inset ${
              isLiteralSummary(a.tool) ? "font-mono text-[13px]" : "text-[15px] font-medium"
            }`}
          >
            {a.summary}
          </p>
          {a.reason.trim() !== "" && (
            <p data-testid={`${testId}-reason`} className="mt-2 text-sm leading-relaxed text-slate-600">
              <span className="font-medium text-slate-700">{t("approvals.reason")} </span>
              {a.reason}
            </p>
          )}
          <p className="mt-2 flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-slate-500">
            {waiting && (
              <span data-testid={`${testId}-expires`} className={runOut ? "font-medium text-rose-700" : undefined}>
                {runOut ? t("approvals.ranOut") : t("approvals.expiresIn", { when: formatRelative(a.expiresAt, now, i18n.language) })}
              </span>
            )}
            {a.costEstimateUsd > 0 && (
              <span data-testid={`${testId}-cost`} className="font-medium text-amber-700">
                {t("approvals.cost", { amount: formatUsd(a.costEstimateUsd, i18n.language) })}
              </span>
            )}
            {a.traceId !== null && <TraceLink traceId={a.traceId} testId={`${testId}-trace`} className="-ml-1" />}
            {a.chatId !== null && (
              <a href={chatHref(a.chatId)} data-testid={`${testId}-chat`} className="inline-flex items-center gap-1 font-medium text-slate-400 hover:text-indigo-600">
                <ChatsIcon width={12} height={12} />
                {t("approvals.chat")}
              </a>
            )}
          </p>
          <RawArgs approval={a} testId={testId} />
          {alreadyDecided && (
            <p data-testid={`${testId}-already`} role="status" className="mt-3 rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-900 ring-1 ring-amber-600/20 ring-inset">
              {a.status === "expired" ? t("approvals.alreadyExpired") : t("approvals.alreadyDecided", { via: viaLabel(a.decidedVia, t) })}
            </p>
          )}
          {waiting && !alreadyDecided && !runOut && <DecideForm approval={a} testId={testId} onSettledElsewhere={onSettledElsewhere} onDecided={onDecided} />}
          {!waiting && <Outcome approval={a} testId={testId} />}
        </div>
      </div>
    </li>
  );
}

/** The exact arguments the decision is bound to, folded away. */
function RawArgs({ approval: a, testId }: { approval: ApprovalDto; testId: string }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <div className="mt-2">
      <button
        type="button"
        data-testid={`${testId}-args-toggle`}
        aria-expanded={open}
        aria-controls={id}
        onClick={() => setOpen((o) => !o)}
        className="-ml-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-[11px] font-medium text-slate-500 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <ChevronRightIcon className={`transition-transform ${open ? "rotate-90" : ""}`} width={12} height={12} />
        {open ? t("approvals.hideArgs") : t("approvals.showArgs")}
      </button>
      {open && (
        <div id={id} className="mt-1.5">
          <pre data-testid={`${testId}-args`} className="max-h-64 overflow-auto rounded-lg bg-slate-900 px-3 py-2 font-mono text-xs leading-relaxed text-slate-100">
            {prettyArgs(a.args)}
          </pre>
          <p className="mt-1.5 text-[11px] text-slate-500">
            <code data-testid={`${testId}-hash`} title={a.argsHash} className="rounded bg-slate-100 px-1 font-mono text-slate-700">
              {shortHash(a.argsHash)}
            </code>{" "}
            {t("approvals.hashHint")}
          </p>
        </div>
      )}
    </div>
  );
}

/** An optional note, Approve and Reject. Someone deciding first is not a failure: the card says who. */
function DecideForm({
  approval: a,
  testId,
  onSettledElsewhere,
  onDecided,
}: {
  approval: ApprovalDto;
  testId: string;
  onSettledElsewhere?: (a: ApprovalDto) => void;
  onDecided?: (a: ApprovalDto) => void;
}) {
  const { t } = useTranslation();
  const { client, refresh } = useDecide();
  const noteId = useId();
  const [note, setNote] = useState("");
  const [pending, setPending] = useState<Decision | null>(null);
  const [error, setError] = useState<unknown>(null);
  const decide = async (decision: Decision) => {
    setPending(decision);
    setError(null);
    try {
      const decided = await api.decideApproval({
        approvalId: a.id,
        decision,
        note: note.trim() === "" ? null : note.trim(),
        // What this screen shows: an action changed since is refused, not approved.
        argsHash: a.argsHash,
      });
      // The card stays in the queue with what came of it.
      onDecided?.(decided);
      await refresh();
    } catch (e) {
      const code = errorCode(e);
      if (code === "already_decided" || code === "approval_expired") {
        const now = await currentState(client, a.id);
        if (now) onSettledElsewhere?.(now);
        else setError(e);
        await refresh();
      } else {
        setError(e);
        // Show what it is now, so the boss decides on that.
        if (code === "approval_changed") await refresh();
      }
    } finally {
      setPending(null);
    }
  };
  return (
    <div className="mt-3 border-t border-slate-100 pt-3">
      <label htmlFor={noteId} className="sr-only">
        {t("approvals.note")}
      </label>
      <input
        id={noteId}
        data-testid={`${testId}-note`}
        value={note}
        maxLength={500}
        onChange={(e) => setNote(e.target.value)}
        placeholder={t("approvals.notePlaceholder")}
        className={`${inputClass} text-[13px]`}
      />
      {error !== null && (
        <div className="mt-2">
          <InlineError error={error} />
        </div>
      )}
      <div className="mt-2.5 flex justify-end gap-2">
        <Button data-testid={`${testId}-reject`} disabled={pending !== null} onClick={() => void decide("reject")}>
          <CloseIcon />
          {pending === "reject" ? t("common.saving") : t("approvals.reject")}
        </Button>
        <Button variant="primary" data-testid={`${testId}-approve`} disabled={pending !== null} onClick={() => void decide("approve")}>
          <CheckIcon />
          {pending === "approve" ? t("common.saving") : t("approvals.approve")}
        </Button>
      </div>
      {pending === "approve" && (
        // Approving runs the action: the card says so until it is done or failed.
        <p data-testid={`${testId}-running`} role="status" className="mt-2 rounded-lg bg-sky-50 px-3 py-2 text-xs text-sky-900 ring-1 ring-sky-600/20 ring-inset">
          {t("approvals.runningNow")}
        </p>
      )}
    </div>
  );
}

/**
 * Two things, each on its own line: the decision (who, how, when, the note) and its outcome (running, done with the
 * result, failed with the error, not run); then the authorization chain.
 */
function Outcome({ approval: a, testId }: { approval: ApprovalDto; testId: string }) {
  const { t, i18n } = useTranslation();
  const result = resultText(a.result);
  const outcome = outcomeOf(a);
  const when = a.decidedAt ? formatDateTime(a.decidedAt, i18n.language) : "";
  return (
    <div className="mt-3 space-y-2 border-t border-slate-100 pt-3 text-xs">
      <p data-testid={`${testId}-decided`} data-decision={a.status} className="text-slate-600">
        {t("approvals.decisionLabel", {
          decision:
            a.status === "expired"
              ? t("approvals.expiredAt", { when: formatDateTime(a.decidedAt ?? a.expiresAt, i18n.language) })
              : t(`approvals.decided.${a.status === "rejected" ? "rejected" : "approved"}`, { via: viaLabel(a.decidedVia, t), when }),
        })}
      </p>
      {a.note && (
        <p data-testid={`${testId}-note-text`} className="text-slate-700">
          <span className="font-medium">{t("approvals.noteLabel")} </span>
          {a.note}
        </p>
      )}
      <div data-testid={`${testId}-outcome`} data-outcome={outcome ?? undefined}>
        {outcome === "failed" ? (
          <p data-testid={`${testId}-error`} className="rounded-lg bg-rose-50 px-3 py-2 break-words text-rose-800 ring-1 ring-rose-600/20 ring-inset">
            <span className="font-medium">{t("approvals.failed")} </span>
            {a.error}
          </p>
        ) : outcome === "done" ? (
          <div data-testid={`${testId}-result`} className="rounded-lg bg-emerald-50 px-3 py-2 text-emerald-900 ring-1 ring-emerald-600/20 ring-inset">
            <span className="font-medium">{t("approvals.result")} </span>
            <span className="font-mono break-words whitespace-pre-wrap">{result ?? t("approvals.doneNoOutput")}</span>
          </div>
        ) : outcome === "running" ? (
          <p data-testid={`${testId}-running`} className="rounded-lg bg-sky-50 px-3 py-2 text-sky-900 ring-1 ring-sky-600/20 ring-inset">
            {t("approvals.running", { when: formatDateTime(a.runStartedAt ?? a.decidedAt ?? a.createdAt, i18n.language) })}
          </p>
        ) : outcome === "queued" ? (
          // Approved on a desktop attached to a company server: the server's engine runs it.
          <p data-testid={`${testId}-queued`} className="rounded-lg bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-amber-600/20 ring-inset">
            {t("approvals.queued")}
          </p>
        ) : outcome === "not_run" ? (
          <p data-testid={`${testId}-not-run`} className="text-slate-500">
            {t("approvals.outcomeLabel", { outcome: t("approvals.nothingDone") })}
          </p>
        ) : null}
      </div>
      {a.authorizationChain.length > 0 && (
        <ol data-testid={`${testId}-chain`} aria-label={t("meeting.chainLabel")} className="pt-1">
          {a.authorizationChain.map((link, i) => (
            <ChainLink key={i} link={{ ...link, rule: chainRuleText(link.rule, t) }} last={i === a.authorizationChain.length - 1} testId={`${testId}-link-${i}`} />
          ))}
        </ol>
      )}
    </div>
  );
}

/** A chain link's rule in the boss's language where it is one the app wrote. */
function chainRuleText(rule: string, t: T): string {
  const known = chainRule(rule);
  if (known === null) return rule;
  return t(known.key, { ...known.options, via: viaLabel(known.options.via ?? null, t) });
}

function HistoryFiltersBar({ filters, onChange, employees }: { filters: HistoryFilters; onChange: (f: HistoryFilters) => void; employees: EmployeeDto[] }) {
  const { t } = useTranslation();
  const statusId = useId();
  const select = `${inputClass} min-w-0 flex-1 text-[13px]`;
  return (
    <div className="mb-3 flex items-center gap-2">
      <label htmlFor={statusId} className="sr-only">
        {t("approvals.filter.status")}
      </label>
      <select
        id={statusId}
        data-testid="approvals-status-filter"
        className={select}
        value={filters.status ?? ""}
        onChange={(e) => onChange({ ...filters, status: isApprovalStatus(e.target.value) ? e.target.value : null })}
      >
        <option value="">{t("approvals.filter.allDecided")}</option>
        {APPROVAL_STATUSES.filter((s) => s !== "waiting").map((s) => (
          <option key={s} value={s}>
            {t(`approvals.status.${s}`)}
          </option>
        ))}
      </select>
      <EmployeeFilter
        employees={employees}
        value={filters.employeeId}
        onChange={(employeeId) => onChange({ ...filters, employeeId })}
        label={t("approvals.filter.employee")}
        everyone={t("approvals.filter.everyone")}
        testId="approvals-employee-filter"
        className={select}
      />
    </div>
  );
}

function HistoryList({
  approvals,
  narrowed,
  stale,
  selectedId,
  employees,
  onClearFilters,
}: {
  approvals: ApprovalDto[];
  narrowed: boolean;
  stale: boolean;
  selectedId: number | null;
  employees: Employees;
  onClearFilters: () => void;
}) {
  const { t } = useTranslation();
  if (approvals.length === 0) {
    return (
      <div data-testid="approvals-history-empty" className="py-6 text-sm text-slate-500">
        <p>{narrowed ? t("approvals.historyEmptyFiltered") : t("approvals.historyEmpty")}</p>
        {narrowed && (
          <Button variant="ghost" className="mt-2 -ml-2 h-8 px-2 text-sm" data-testid="approvals-clear-filters" onClick={onClearFilters}>
            {t("mailbox.clearFilters")}
          </Button>
        )}
      </div>
    );
  }
  return (
    <ul
      data-testid="approvals-history-list"
      aria-label={t("approvals.view.history")}
      aria-busy={stale || undefined}
      className={`space-y-3 transition-opacity ${stale ? "opacity-60" : ""}`}
    >
      {approvals.map((a) => (
        <ApprovalCard key={a.id} approval={a} now={Date.now()} selected={a.id === selectedId} employees={employees} />
      ))}
    </ul>
  );
}

function EmptyQueue(): ReactNode {
  const { t } = useTranslation();
  return (
    <div data-testid="approvals-empty" className="flex justify-center py-16">
      <div className="max-w-sm text-center">
        <div className="mx-auto flex size-12 items-center justify-center rounded-xl bg-white text-slate-400 shadow-sm ring-1 ring-slate-200">
          <ShieldIcon width={24} height={24} />
        </div>
        <h3 className="mt-4 text-base font-semibold text-slate-900">{t("approvals.empty.title")}</h3>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{t("approvals.empty.body")}</p>
      </div>
    </div>
  );
}
