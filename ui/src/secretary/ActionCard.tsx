import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useEffect, useState, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ActionDto } from "../bindings/ActionDto";
import type { ActionStatus } from "../bindings/ActionStatus";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { CheckIcon, CloseIcon, PencilIcon, UndoIcon, WarningIcon } from "../components/icons";
import { TraceLink } from "../traces/TraceLink";
import { Badge, Button, Field, Spinner, inputClass, type Tone } from "../components/ui";
import { ARCHETYPES } from "../domain";
import { api } from "../ipc/api";
import { errorCode, errorKey } from "../ipc/errors";
import { SECRETARY_ACTION_KEYS } from "../ipc/queries";
import { Avatar } from "../org/Avatar";
import { departmentOptions, indent } from "../org/tree";
import { draftOf, formatCountdown, hireEdits, msUntil, type HireDraft, type HireProposal } from "./format";

const STATUS_TONE: Record<ActionStatus, Tone> = {
  proposed: "indigo",
  in_progress: "amber",
  applied: "green",
  cancelled: "slate",
  undone: "slate",
  failed: "rose",
};

type Op = { kind: "confirm"; draft: HireDraft | null } | { kind: "cancel" } | { kind: "undo" };

/** Milliseconds left until `until`, re-rendering on each second boundary until it is 0. */
function useRemaining(until: string | null): number {
  const [now, setNow] = useState(() => Date.now());
  const [seen, setSeen] = useState(until);
  if (seen !== until) {
    // A new deadline (the action was just applied): count from the present, not from when the card mounted.
    setSeen(until);
    setNow(Date.now());
  }
  const remaining = msUntil(until, now);
  useEffect(() => {
    if (remaining <= 0) return;
    const id = setTimeout(() => setNow(Date.now()), remaining % 1000 || 1000);
    return () => clearTimeout(id);
  }, [remaining]);
  return remaining;
}

/** One proposed change to the company, as a card under the secretary's message. */
export function ActionCard({
  action: fromHistory,
  snapshot,
  traceId = null,
}: {
  action: ActionDto;
  snapshot: OrgSnapshot | undefined;
  /** The instruction the turn that proposed this card started: the card links to its trace. */
  traceId?: string | null;
}) {
  const { t } = useTranslation();
  const client = useQueryClient();
  // The ActionDto a command returned, shown until the history itself moves on (its refetch gives a new object).
  const [returned, setReturned] = useState<{ base: ActionDto; dto: ActionDto } | null>(null);
  const action = returned && returned.base === fromHistory ? returned.dto : fromHistory;
  const [draft, setDraft] = useState<HireDraft | null>(null);
  const [draftError, setDraftError] = useState(false);

  const run = useMutation({
    mutationFn: (op: Op) => {
      switch (op.kind) {
        case "confirm": {
          const p = action.proposal;
          const edits = op.draft && p.type === "hire" ? hireEdits(p, op.draft) : null;
          return api.secretaryConfirm({ actionId: action.id, edits });
        }
        case "cancel":
          return api.secretaryCancel({ actionId: action.id });
        case "undo":
          return api.secretaryUndo({ actionId: action.id });
      }
    },
    onSuccess: async (dto) => {
      setReturned({ base: fromHistory, dto });
      setDraft(null);
      await Promise.all(SECRETARY_ACTION_KEYS.map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });

  const remaining = useRemaining(action.status === "applied" ? action.undoUntil : null);
  const p = action.proposal;
  // Which actions are destructive is decided once, in core (`secretary::actions::is_destructive`).
  const destructive = action.destructive;
  const muted = action.status === "cancelled" || action.status === "undone";
  const busy = run.isPending;

  const confirm = () => {
    if (draft && (draft.name.trim() === "" || draft.title.trim() === "")) {
      setDraftError(true);
      return;
    }
    run.mutate({ kind: "confirm", draft });
  };

  const runError = run.isError
    ? run.variables?.kind === "undo" && errorCode(run.error) === "invalid_input"
      ? t("secretary.action.undoUnavailable")
      : t(`secretary.action.failed.${run.variables?.kind ?? "confirm"}`, { message: t(errorKey(run.error)) })
    : null;

  return (
    <article
      data-testid={`action-card-${action.id}`}
      data-status={action.status}
      data-destructive={destructive ? "true" : "false"}
      aria-label={t(`secretary.kind.${p.type}`)}
      className={`mt-2 rounded-xl p-4 shadow-sm ring-1 transition-opacity ${
        destructive && action.status === "proposed" ? "bg-rose-50/60 ring-rose-300" : "bg-white ring-slate-200"
      } ${muted ? "opacity-60" : ""}`}
    >
      <div className="flex items-center justify-between gap-3">
        <span className={`text-xs font-semibold tracking-wide uppercase ${destructive ? "text-rose-700" : "text-slate-500"}`}>
          {t(`secretary.kind.${p.type}`)}
        </span>
        <span className="flex items-center gap-1.5">
          {traceId !== null && <TraceLink traceId={traceId} testId={`action-trace-${action.id}`} />}
          <Badge tone={STATUS_TONE[action.status]} data-testid={`action-status-${action.id}`}>
            {t(`secretary.status.${action.status}`)}
          </Badge>
        </span>
      </div>

      <div className="mt-3">
        {draft && p.type === "hire" ? (
          <HireEditForm
            id={action.id}
            proposal={p}
            snapshot={snapshot}
            draft={draft}
            showErrors={draftError}
            onChange={setDraft}
          />
        ) : (
          <Summary action={action} snapshot={snapshot} />
        )}
      </div>

      {destructive && action.status === "proposed" && (
        <p className="mt-3 flex items-start gap-2 rounded-lg bg-rose-100/70 px-3 py-2 text-sm text-rose-800" data-testid={`action-warning-${action.id}`}>
          <WarningIcon className="mt-0.5 shrink-0" />
          <span>{t(p.type === "delete_department" ? "secretary.action.deleteDepartmentWarning" : "secretary.action.destructiveWarning")}</span>
        </p>
      )}

      {action.status === "failed" && (
        <p role="alert" className="mt-3 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-rose-200 ring-inset">
          {t("secretary.action.failedBecause", { error: action.error ?? t("errors.unknown") })}
        </p>
      )}

      {action.status === "applied" && (
        <div className="mt-3 flex flex-wrap items-center justify-between gap-2 border-t border-slate-100 pt-3">
          {action.diff && (
            <code data-testid={`action-diff-${action.id}`} className="rounded-md bg-emerald-50 px-2 py-1 font-mono text-xs text-emerald-800">
              {action.diff}
            </code>
          )}
          {remaining > 0 && (
            <Button variant="ghost" data-testid={`action-undo-${action.id}`} disabled={busy} onClick={() => run.mutate({ kind: "undo" })}>
              {busy ? <Spinner /> : <UndoIcon />}
              {t("secretary.action.undo")}
              <span className="font-mono text-xs text-slate-400 tabular-nums" data-testid={`action-undo-countdown-${action.id}`}>
                {t("secretary.action.undoLeft", { time: formatCountdown(remaining) })}
              </span>
            </Button>
          )}
        </div>
      )}

      {action.status === "proposed" && (
        <div className="mt-4 flex flex-wrap items-center gap-2">
          <Button
            variant={destructive ? "danger" : "primary"}
            data-testid={`action-confirm-${action.id}`}
            disabled={busy}
            onClick={confirm}
          >
            {busy && run.variables?.kind === "confirm" ? <Spinner /> : <CheckIcon />}
            {draft ? t("secretary.action.confirmEdited") : t("secretary.action.confirm")}
          </Button>
          {p.type === "hire" && (
            <Button
              data-testid={`action-edit-${action.id}`}
              disabled={busy}
              aria-pressed={draft !== null}
              onClick={() => {
                setDraftError(false);
                setDraft(draft ? null : draftOf(p));
              }}
            >
              <PencilIcon />
              {draft ? t("secretary.action.discardEdits") : t("secretary.action.edit")}
            </Button>
          )}
          <Button variant="ghost" data-testid={`action-cancel-${action.id}`} disabled={busy} onClick={() => run.mutate({ kind: "cancel" })}>
            <CloseIcon />
            {t("secretary.action.cancel")}
          </Button>
        </div>
      )}

      {runError && (
        <p role="alert" className="mt-3 text-sm text-rose-700">
          {runError}
        </p>
      )}
    </article>
  );
}

function Detail({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="flex gap-2 text-sm">
      <dt className="w-24 shrink-0 text-slate-500">{label}</dt>
      <dd className="min-w-0 text-slate-800">{children}</dd>
    </div>
  );
}

function Person({ name, subtitle }: { name: string; subtitle?: string | null }) {
  return (
    <div className="flex items-center gap-3">
      <Avatar name={name} size={40} />
      <div className="min-w-0">
        <div className="truncate font-semibold text-slate-900">{name}</div>
        {subtitle && <div className="truncate text-sm text-slate-500">{subtitle}</div>}
      </div>
    </div>
  );
}

function Summary({ action, snapshot }: { action: ActionDto; snapshot: OrgSnapshot | undefined }) {
  const { t } = useTranslation();
  const p = action.proposal;
  const departmentName = (id: number | null | undefined) =>
    id == null ? t("org.unassigned") : (snapshot?.departments.find((d) => d.id === id)?.name ?? t("org.unassigned"));
  switch (p.type) {
    case "hire":
      return (
        <div className="space-y-3">
          <Person name={p.name} subtitle={p.title} />
          <dl className="space-y-1">
            <Detail label={t("secretary.hire.department")}>{p.departmentName ?? t("org.unassigned")}</Detail>
            <Detail label={t("secretary.hire.reportsTo")}>{p.managerName ?? t("employee.noManager")}</Detail>
            <Detail label={t("secretary.hire.archetype")}>{t(`archetype.${p.archetype}`)}</Detail>
          </dl>
          {p.skills.length > 0 && (
            <ul className="flex flex-wrap gap-1.5" aria-label={t("employee.skills")}>
              {p.skills.map((s) => (
                <li key={s} className="rounded-full bg-slate-100 px-2 py-0.5 text-xs text-slate-700">
                  {s}
                </li>
              ))}
            </ul>
          )}
        </div>
      );
    case "fire": {
      const person = snapshot?.employees.find((e) => e.id === p.employeeId);
      return <Person name={p.name} subtitle={person?.title} />;
    }
    case "transfer": {
      const person = snapshot?.employees.find((e) => e.id === p.employeeId);
      return (
        <div className="space-y-2">
          <Person name={p.name} subtitle={person?.title} />
          <p className="text-sm text-slate-700" data-testid={`transfer-route-${action.id}`}>
            {action.status === "proposed" && person
              ? t("secretary.transfer.fromTo", { from: departmentName(person.departmentId), to: p.departmentName })
              : t("secretary.transfer.to", { to: p.departmentName })}
          </p>
        </div>
      );
    }
    case "create_department":
      return (
        <dl className="space-y-1">
          <Detail label={t("department.name")}>
            <span className="font-semibold">{p.name}</span>
          </Detail>
          <Detail label={t("department.parent")}>{p.parentName ?? t("department.parentNone")}</Detail>
        </dl>
      );
    case "rename_department":
      return <p className="text-sm text-slate-800">{t("secretary.rename.fromTo", { from: p.oldName, to: p.newName })}</p>;
    case "assign_task":
      return (
        <div className="space-y-2">
          <Person name={p.name} subtitle={snapshot?.employees.find((e) => e.id === p.employeeId)?.title} />
          <Detail label={t("secretary.task.description")}>{p.description}</Detail>
          {p.participantNames && p.participantNames.length > 0 && (
            <Detail label={t("secretary.task.with")}>{p.participantNames.join(", ")}</Detail>
          )}
          {p.requirementName && <Detail label={t("secretary.task.requirement")}>{p.requirementName}</Detail>}
        </div>
      );
    case "create_requirement":
      return (
        <dl className="space-y-1">
          <Detail label={t("secretary.requirement.name")}>
            <span className="font-semibold">{p.name}</span>
          </Detail>
          <Detail label={t("secretary.hire.department")}>{p.departmentName ?? t("org.unassigned")}</Detail>
          {p.reviewerName && <Detail label={t("secretary.requirement.reviewer")}>{p.reviewerName}</Detail>}
          <p className="text-xs text-slate-500">{t("secretary.requirement.chatNote")}</p>
        </dl>
      );
    case "set_reviewer":
      return (
        <dl className="space-y-1">
          <Detail label={t("secretary.requirement.name")}>
            <span className="font-semibold">{p.requirementName}</span>
          </Detail>
          <Detail label={t("secretary.requirement.reviewer")}>{p.name}</Detail>
        </dl>
      );
    case "invite_person":
      return (
        <dl className="space-y-1">
          <Person name={p.name} subtitle={p.role || undefined} />
          <Detail label={t("secretary.invite.answersFor")}>{p.departmentName ?? t("secretary.invite.nothingYet")}</Detail>
          <Detail label={t("secretary.policy.level")}>
            {p.policy ? t(`secretary.policy.${p.policy}`) : t("secretary.invite.policyDefault")}
          </Detail>
          {p.departmentName && <p className="text-xs text-slate-500">{t("secretary.invite.note")}</p>}
        </dl>
      );
    case "delete_department":
      return (
        <dl className="space-y-1">
          <Detail label={t("department.name")}>
            <span className="font-semibold">{p.name}</span>
          </Detail>
          <p className="text-sm text-slate-700">
            {p.destinationName && p.headcount > 0
              ? t("secretary.deleteDepartment.moveTo", { count: p.headcount, to: p.destinationName })
              : t("secretary.deleteDepartment.empty")}
          </p>
        </dl>
      );
    case "convene_meeting":
      return (
        <dl className="space-y-1">
          <Detail label={t("secretary.meeting.topic")}>
            <span className="font-semibold">{p.topic}</span>
          </Detail>
          <Detail label={t("secretary.meeting.participants")}>{p.participantNames.join(", ")}</Detail>
          <p className="text-xs text-slate-500">{t("secretary.meeting.chatNote")}</p>
        </dl>
      );
    case "set_policy":
      return (
        <dl className="space-y-1">
          {p.level && <Detail label={t("secretary.policy.level")}>{t(`secretary.policy.${p.level}`)}</Detail>}
          {p.dailyBudgetUsd !== null && (
            <Detail label={t("secretary.policy.budget")}>
              {t("secretary.policy.perDay", { amount: `$${p.dailyBudgetUsd.toFixed(2)}` })}
            </Detail>
          )}
        </dl>
      );
  }
}

function HireEditForm({
  id,
  proposal,
  snapshot,
  draft,
  showErrors,
  onChange,
}: {
  id: number;
  proposal: HireProposal;
  snapshot: OrgSnapshot | undefined;
  draft: HireDraft;
  showErrors: boolean;
  onChange: (draft: HireDraft) => void;
}) {
  const { t } = useTranslation();
  const [managerTouched, setManagerTouched] = useState(false);
  const departments = departmentOptions(snapshot?.departments ?? []);
  const people = [...(snapshot?.employees ?? [])].sort((a, b) => a.name.localeCompare(b.name));
  // The proposed department or manager may be gone from the snapshot; keep them selectable.
  const knownDepartment = draft.departmentId === null || departments.some((d) => d.id === draft.departmentId);
  const knownManager = draft.managerId === null || people.some((e) => e.id === draft.managerId);

  const onDepartment = (departmentId: number | null) => {
    // A new department suggests its lead as the manager, unless the boss picked one already.
    const lead = snapshot?.departments.find((d) => d.id === departmentId)?.leadId ?? null;
    onChange({ ...draft, departmentId, managerId: !managerTouched && lead !== null ? lead : draft.managerId });
  };

  return (
    <div className="grid gap-3 sm:grid-cols-2" data-testid={`hire-edit-${id}`}>
      <Field label={t("employee.name")} error={showErrors && draft.name.trim() === "" ? t("employee.nameRequired") : null}>
        {({ id: fieldId, describedBy, invalid }) => (
          <input
            id={fieldId}
            data-testid={`hire-edit-name-${id}`}
            className={inputClass}
            value={draft.name}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => onChange({ ...draft, name: e.target.value })}
          />
        )}
      </Field>
      <Field label={t("employee.titleLabel")} error={showErrors && draft.title.trim() === "" ? t("employee.titleRequired") : null}>
        {({ id: fieldId, describedBy, invalid }) => (
          <input
            id={fieldId}
            data-testid={`hire-edit-title-${id}`}
            className={inputClass}
            value={draft.title}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            onChange={(e) => onChange({ ...draft, title: e.target.value })}
          />
        )}
      </Field>
      <Field label={t("employee.department")}>
        {({ id: fieldId }) => (
          <select
            id={fieldId}
            data-testid={`hire-edit-department-${id}`}
            className={inputClass}
            value={draft.departmentId ?? ""}
            onChange={(e) => onDepartment(e.target.value === "" ? null : Number(e.target.value))}
          >
            {/* Confirm's edits can change a department but not take it away: "unassigned" only when proposed. */}
            {proposal.departmentId === null && <option value="">{t("org.unassigned")}</option>}
            {!knownDepartment && <option value={draft.departmentId ?? ""}>{proposal.departmentName}</option>}
            {departments.map((o) => (
              <option key={o.id} value={o.id}>
                {indent(o.depth) + o.name}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t("employee.manager")}>
        {({ id: fieldId }) => (
          <select
            id={fieldId}
            data-testid={`hire-edit-manager-${id}`}
            className={inputClass}
            value={draft.managerId ?? ""}
            onChange={(e) => {
              setManagerTouched(true);
              onChange({ ...draft, managerId: e.target.value === "" ? null : Number(e.target.value) });
            }}
          >
            {proposal.managerId === null && <option value="">{t("employee.noManager")}</option>}
            {!knownManager && <option value={draft.managerId ?? ""}>{proposal.managerName}</option>}
            {people.map((e) => (
              <option key={e.id} value={e.id}>
                {e.name} · {e.title}
              </option>
            ))}
          </select>
        )}
      </Field>
      <Field label={t("employee.archetype")}>
        {({ id: fieldId }) => (
          <select
            id={fieldId}
            data-testid={`hire-edit-archetype-${id}`}
            className={inputClass}
            value={draft.archetype}
            onChange={(e) => {
              const archetype = ARCHETYPES.find((a) => a === e.target.value);
              if (archetype) onChange({ ...draft, archetype });
            }}
          >
            {ARCHETYPES.map((a) => (
              <option key={a} value={a}>
                {t(`archetype.${a}`)}
              </option>
            ))}
          </select>
        )}
      </Field>
    </div>
  );
}
