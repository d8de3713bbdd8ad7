import { useId, useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { BoardColumnDto } from "../bindings/BoardColumnDto";
import type { BoardItemDto } from "../bindings/BoardItemDto";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { RequirementStatus } from "../bindings/RequirementStatus";
import type { TaskDto } from "../bindings/TaskDto";
import type { TaskNodeDto } from "../bindings/TaskNodeDto";
import { BoardIcon, ChatsIcon, ChevronRightIcon, TraceIcon } from "../components/icons";
import { Badge, ErrorState, LoadingState, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { BOARD_KEYS, useBoard, useInvalidatingMutation, useOrg } from "../ipc/queries";
import { Avatar } from "../org/Avatar";
import { chatHref, profileHref, routeHref, traceHref } from "../shell/route";
import { TaskStatusChip } from "../dashboard/TaskStatusChip";
import { COLUMN_DOT, REQUIREMENT_STATUSES, countTasks, flattenTree, isRequirementStatus } from "./format";

/** `#work`: every requirement by status, with its reviewer, its progress and the tree of tasks under it. */
export function WorkPage() {
  const { t } = useTranslation();
  const board = useBoard();
  const org = useOrg();
  const people = useMemo(() => [...(org.data?.employees ?? [])].sort((a, b) => a.name.localeCompare(b.name)), [org.data]);
  const total = board.data?.columns.reduce((sum, c) => sum + c.items.length, 0);
  return (
    <div data-testid="work-page" className="flex h-full min-h-0 flex-col">
      <div className="flex h-[68px] shrink-0 flex-col justify-center border-b border-slate-200 bg-white px-6">
        <h2 className="text-lg font-semibold tracking-tight text-slate-900">{t("work.title")}</h2>
        <p className="truncate text-xs text-slate-500" data-testid="work-summary">
          {total === undefined ? "\u00a0" : t("work.count", { count: total })}
        </p>
      </div>
      <div className="relative min-h-0 flex-1">
        <div className="absolute inset-0 overflow-auto">
          {board.isPending ? (
            <LoadingState className="h-full" />
          ) : board.isError ? (
            <ErrorState className="h-full" error={board.error} onRetry={() => void board.refetch()} />
          ) : total === 0 ? (
            <EmptyBoard />
          ) : (
            <div data-testid="board" className="flex min-h-full gap-4 p-6">
              {REQUIREMENT_STATUSES.map((status) => (
                <Column key={status} status={status} column={board.data.columns.find((c) => c.status === status)} people={people} />
              ))}
            </div>
          )}
        </div>
      </div>
    </div>
  );
}

function Column({ status, column, people }: { status: RequirementStatus; column: BoardColumnDto | undefined; people: EmployeeDto[] }) {
  const { t } = useTranslation();
  const items = column?.items ?? [];
  return (
    <section
      data-testid={`board-column-${status}`}
      aria-labelledby={`board-column-${status}-title`}
      className="flex min-w-64 flex-1 basis-0 flex-col rounded-2xl bg-slate-100/70 p-3 ring-1 ring-slate-200/70"
    >
      <header className="mb-3 flex items-center gap-2 px-1">
        <span aria-hidden="true" className={`size-2 rounded-full ${COLUMN_DOT[status]}`} />
        <h3 id={`board-column-${status}-title`} className="text-sm font-semibold text-slate-800">
          {t(`work.status.${status}`)}
        </h3>
        <span data-testid={`board-count-${status}`} className="ml-auto rounded-full bg-white px-2 text-xs font-medium text-slate-500 tabular-nums ring-1 ring-slate-200">
          {items.length}
        </span>
      </header>
      {items.length === 0 ? (
        <p className="px-1 py-6 text-center text-xs text-slate-400">{t("work.columnEmpty")}</p>
      ) : (
        <ul className="space-y-3">
          {items.map((item) => (
            <li key={item.requirement.id}>
              <RequirementCard item={item} people={people} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

function RequirementCard({ item, people }: { item: BoardItemDto; people: EmployeeDto[] }) {
  const { t } = useTranslation();
  const r = item.requirement;
  const reviewerId = useId();
  const statusId = useId();
  const [open, setOpen] = useState(false);
  const setReviewer = useInvalidatingMutation(api.setReviewer, BOARD_KEYS);
  const setStatus = useInvalidatingMutation(api.setRequirementStatus, BOARD_KEYS);
  const error = setReviewer.error ?? setStatus.error;
  const tasks = countTasks(item.tree);
  const busy = setReviewer.isPending || setStatus.isPending;
  // A reviewer who has left still shows (by name) until someone else is picked.
  const reviewerGone = item.reviewerId !== null && !people.some((p) => p.id === item.reviewerId);
  // No fixed height: WebKitGTK draws native selects taller than h-8 and clips the text.
  const select = inputClass;
  return (
    <article
      data-testid={`requirement-${r.id}`}
      data-status={r.status}
      aria-labelledby={`requirement-${r.id}-name`}
      className={`rounded-xl bg-white p-3.5 shadow-sm ring-1 ring-slate-200 ${r.status === "cancelled" ? "opacity-70" : ""}`}
    >
      <div className="flex items-start justify-between gap-2">
        <h4 id={`requirement-${r.id}-name`} data-testid={`requirement-name-${r.id}`} className="text-sm font-semibold break-words text-slate-900">
          {r.name}
        </h4>
        {item.departmentName && (
          <Badge tone="indigo" data-testid={`requirement-department-${r.id}`} className="shrink-0">
            {item.departmentName}
          </Badge>
        )}
      </div>
      {/* The secretary often names a requirement by its description: say it once. */}
      {r.description.trim() !== "" && r.description.trim() !== r.name.trim() && <p className="mt-1 line-clamp-3 text-xs leading-relaxed text-slate-600">{r.description}</p>}

      <p data-testid={`requirement-progress-${r.id}`} className="mt-2 flex items-center gap-2 text-xs text-slate-500 tabular-nums">
        <span>{t("work.pending", { count: item.tasksPending })}</span>
        <span aria-hidden="true" className="text-slate-300">
          ·
        </span>
        <span>{t("work.done", { count: item.tasksDone })}</span>
      </p>

      {r.status === "waiting_for_boss" && (
        <p role="status" data-testid={`requirement-waiting-${r.id}`} className="mt-2 rounded-md bg-rose-50 px-2 py-1.5 text-xs text-rose-800 ring-1 ring-rose-200">
          {t("work.waitingHint")}
        </p>
      )}
      {r.status === "open" && r.ownerId === null && (
        <p data-testid={`requirement-unowned-${r.id}`} className="mt-2 text-xs text-slate-500">
          {t("work.openHint")}
        </p>
      )}

      <div className="mt-3 grid grid-cols-[auto_minmax(0,1fr)] items-center gap-x-2 gap-y-1.5">
        <span className="text-[11px] font-medium text-slate-500">{t("work.owner")}</span>
        {r.ownerId !== null ? (
          <a
            href={profileHref(r.ownerId)}
            data-testid={`requirement-owner-${r.id}`}
            className="inline-flex min-w-0 items-center gap-1 text-xs text-slate-700 hover:text-slate-900 hover:underline"
          >
            <Avatar name={item.ownerName || "?"} size={16} />
            <span className="truncate">{item.ownerName || t("chats.formerEmployee")}</span>
          </a>
        ) : (
          <span data-testid={`requirement-owner-${r.id}`} className="text-xs text-slate-400">
            {t("work.noOwner")}
          </span>
        )}
        <label htmlFor={reviewerId} className="text-[11px] font-medium text-slate-500">
          {t("work.reviewer")}
        </label>
        <select
          id={reviewerId}
          data-testid={`requirement-reviewer-${r.id}`}
          className={select}
          disabled={busy}
          value={item.reviewerId ?? ""}
          onChange={(e) => setReviewer.mutate({ requirementId: r.id, reviewerId: e.target.value === "" ? null : Number(e.target.value) })}
        >
          <option value="">{t("work.noReviewer")}</option>
          {reviewerGone && item.reviewerId !== null && <option value={item.reviewerId}>{item.reviewerName ?? t("chats.formerEmployee")}</option>}
          {people.map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <label htmlFor={statusId} className="text-[11px] font-medium text-slate-500">
          {t("work.statusLabel")}
        </label>
        <select
          id={statusId}
          data-testid={`requirement-status-${r.id}`}
          className={select}
          disabled={busy}
          value={r.status}
          onChange={(e) => {
            if (isRequirementStatus(e.target.value)) setStatus.mutate({ requirementId: r.id, status: e.target.value });
          }}
        >
          {REQUIREMENT_STATUSES.map((s) => (
            <option key={s} value={s}>
              {t(`work.status.${s}`)}
            </option>
          ))}
        </select>
      </div>

      {error != null && (
        <p role="alert" data-testid={`requirement-error-${r.id}`} className="mt-2 text-xs text-rose-700">
          {t("work.changeFailed", { message: t(errorKey(error)) })}
        </p>
      )}

      <div className="mt-3 flex items-center justify-between gap-2 border-t border-slate-100 pt-2.5">
        <button
          type="button"
          data-testid={`requirement-toggle-${r.id}`}
          aria-expanded={open}
          aria-controls={`requirement-tree-${r.id}`}
          disabled={tasks === 0}
          onClick={() => setOpen((o) => !o)}
          className="-ml-1 inline-flex items-center gap-1 rounded-md px-1 py-0.5 text-xs font-medium text-slate-600 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-500 disabled:cursor-default disabled:text-slate-400"
        >
          <ChevronRightIcon className={`transition-transform ${open ? "rotate-90" : ""}`} width={14} height={14} />
          {tasks === 0 ? t("work.noTasks") : t("work.tasks", { count: tasks })}
        </button>
        {r.chatId !== null && (
          <a
            href={chatHref(r.chatId)}
            data-testid={`requirement-chat-${r.id}`}
            className="inline-flex items-center gap-1 text-xs font-medium text-indigo-600 hover:text-indigo-800 hover:underline"
          >
            <ChatsIcon width={14} height={14} />
            {t("work.openChat")}
          </a>
        )}
      </div>
      {open && tasks > 0 && <TaskTree id={`requirement-tree-${r.id}`} nodes={item.tree} />}
    </article>
  );
}

function TaskTree({ id, nodes }: { id: string; nodes: TaskNodeDto[] }) {
  const { t } = useTranslation();
  return (
    <ul id={id} data-testid={id} aria-label={t("work.treeLabel")} className="mt-2 space-y-1">
      {flattenTree(nodes).map(({ node, depth }) => (
        <TaskLine key={node.task.id} node={node} depth={depth} />
      ))}
    </ul>
  );
}

function TaskLine({ node, depth }: { node: TaskNodeDto; depth: number }) {
  const { t } = useTranslation();
  const task = node.task;
  const [showResult, setShowResult] = useState(false);
  const review = task.reviewOf !== null;
  return (
    <li
      data-testid={`task-node-${task.id}`}
      data-depth={depth}
      data-status={task.status}
      className={`rounded-lg py-1.5 pr-1.5 ${depth > 0 ? "border-l-2 border-slate-200" : ""}`}
      style={{ marginLeft: depth * 14, paddingLeft: depth > 0 ? 8 : 0 }}
    >
      <div className="flex flex-wrap items-center gap-1.5">
        <TaskStatusChip task={task} />
        {task.attempt >= 1 && (
          <Badge tone="rose" data-testid={`task-rework-${task.id}`}>
            {t("work.rework", { n: task.attempt })}
          </Badge>
        )}
        {review && (
          <Badge tone="indigo" data-testid={`task-review-${task.id}`}>
            {t("work.review")}
          </Badge>
        )}
        <TaskKindBadge task={task} />
        <a
          href={profileHref(task.ownerId)}
          data-testid={`task-owner-${task.id}`}
          className="inline-flex min-w-0 items-center gap-1 text-xs text-slate-600 hover:text-slate-900 hover:underline"
        >
          <Avatar name={node.ownerName || "?"} size={16} />
          <span className="truncate">{node.ownerName || t("chats.formerEmployee")}</span>
        </a>
        {task.traceId !== null && (
          <a
            href={traceHref(task.traceId)}
            data-testid={`task-trace-${task.id}`}
            aria-label={t("traces.link.open")}
            title={t("traces.link.open")}
            className="ml-auto rounded p-0.5 text-slate-400 hover:text-indigo-600 focus-visible:outline-2 focus-visible:outline-indigo-500"
          >
            <TraceIcon width={14} height={14} />
          </a>
        )}
      </div>
      <p className="mt-1 text-xs leading-relaxed text-slate-800" title={task.result ?? undefined}>
        {task.description}
      </p>
      {task.result && (
        <>
          <button
            type="button"
            data-testid={`task-result-toggle-${task.id}`}
            aria-expanded={showResult}
            onClick={() => setShowResult((s) => !s)}
            className="mt-0.5 text-[11px] font-medium text-slate-500 hover:text-slate-800"
          >
            {showResult ? t("work.hideResult") : t("work.showResult")}
          </button>
          {showResult && (
            <p data-testid={`task-result-${task.id}`} className="mt-1 rounded-md bg-slate-50 px-2 py-1.5 text-xs leading-relaxed whitespace-pre-wrap text-slate-700 ring-1 ring-slate-200 ring-inset">
              {task.result}
            </p>
          )}
        </>
      )}
    </li>
  );
}

/** Long-running and conditional tasks never age into urgency (SPEC §6): say which, and on what condition. */
function TaskKindBadge({ task }: { task: TaskDto }) {
  const { t } = useTranslation();
  if (task.kind === "long_running") {
    return (
      <Badge tone="slate" data-testid={`task-kind-${task.id}`} data-kind={task.kind} title={t("work.taskKind.ongoingHint")}>
        {t("work.taskKind.ongoing")}
      </Badge>
    );
  }
  if (task.kind === "conditional") {
    const condition = task.condition?.trim();
    return (
      <Badge
        tone="slate"
        data-testid={`task-kind-${task.id}`}
        data-kind={task.kind}
        className="max-w-full min-w-0"
        title={condition ? t("work.taskKind.whenHint", { condition }) : undefined}
      >
        <span className="truncate">{condition ? t("work.taskKind.when", { condition }) : t("work.taskKind.conditional")}</span>
      </Badge>
    );
  }
  return null;
}

function EmptyBoard() {
  const { t } = useTranslation();
  return (
    <div data-testid="work-empty" className="flex h-full items-center justify-center p-8">
      <div className="max-w-md text-center">
        <div className="mx-auto flex size-12 items-center justify-center rounded-xl bg-white text-slate-400 shadow-sm ring-1 ring-slate-200">
          <BoardIcon width={24} height={24} />
        </div>
        <h3 className="mt-4 text-base font-semibold text-slate-900">{t("work.empty.title")}</h3>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{t("work.empty.body")}</p>
        <a
          href={routeHref({ page: "secretary" })}
          data-testid="work-empty-secretary"
          className="mt-5 inline-flex h-9 items-center justify-center rounded-lg bg-white px-3.5 text-sm font-medium text-slate-700 shadow-sm ring-1 ring-slate-300 ring-inset transition-colors hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          {t("work.empty.action")}
        </a>
      </div>
    </div>
  );
}
