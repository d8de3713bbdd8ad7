import { useEffect, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { ApprovalPolicy } from "../bindings/ApprovalPolicy";
import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { useMessageEmployee } from "../chats/useMessageEmployee";
import { ChatIcon, CloseIcon, UserIcon } from "../components/icons";
import { Button, InlineError, Spinner } from "../components/ui";
import { profileHref } from "../shell/route";
import { Avatar } from "./Avatar";
import { StatusDot } from "./nodes";
import { childDepartments, peopleIn } from "./tree";

function formatDate(iso: string, language: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  return new Intl.DateTimeFormat(language, { year: "numeric", month: "short", day: "numeric" }).format(date);
}

function Row({ label, children, testId }: { label: string; children: ReactNode; testId?: string }) {
  return (
    <div className="grid grid-cols-[7rem_1fr] gap-3 py-2 text-sm">
      <dt className="text-slate-500">{label}</dt>
      <dd data-testid={testId} className="min-w-0 break-words text-slate-900">
        {children}
      </dd>
    </div>
  );
}

function PanelFrame({ title, onClose, children, testId }: { title: string; onClose: () => void; children: ReactNode; testId: string }) {
  const { t } = useTranslation();
  return (
    <aside
      data-testid={testId}
      aria-label={title}
      className="flex w-80 shrink-0 flex-col overflow-y-auto border-l border-slate-200 bg-white"
    >
      <div className="flex h-12 shrink-0 items-center justify-between border-b border-slate-100 px-5">
        <span className="text-xs font-semibold tracking-wider text-slate-400 uppercase">{title}</span>
        <button
          type="button"
          onClick={onClose}
          aria-label={t("employee.closePanel")}
          className="-mr-2 rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-600"
        >
          <CloseIcon />
        </button>
      </div>
      {children}
    </aside>
  );
}

/** The employee's model: their own `provider / model`, or the company default (empty provider). */
function BackendSummary({ employee }: { employee: EmployeeDto }) {
  const { t } = useTranslation();
  const { provider, model } = employee.backend;
  if (provider === "") {
    return (
      <>
        <span data-testid="employee-backend" data-company-default="true" className="block text-slate-500">
          {t("employee.backendCompanyDefault")}
        </span>
        <span className="mt-0.5 block text-xs text-slate-400">{t("employee.backendCompanyDefaultHint")}</span>
      </>
    );
  }
  return (
    <span data-testid="employee-backend" data-company-default="false" className="block font-mono text-xs">
      {provider} / {model || <span className="font-sans text-slate-400">{t("employee.backendDefaultModel")}</span>}
    </span>
  );
}

/** Whose approval policy applies and how many tools: the profile's "Tools & approvals" card edits them. */
function ToolsSummary({ employee, companyPolicy }: { employee: EmployeeDto; companyPolicy: ApprovalPolicy | null }) {
  const { t } = useTranslation();
  const own = employee.approvalPolicy;
  const count = employee.toolWhitelist.length;
  return (
    <>
      <span data-testid="employee-tools-policy" data-own-policy={own !== null} className="block">
        {own !== null
          ? t("employee.toolsOwnPolicy", { policy: t(`profile.tools.policy.${own}`) })
          : companyPolicy !== null
            ? t("employee.toolsCompanyPolicy", { policy: t(`profile.tools.policy.${companyPolicy}`) })
            : t("employee.backendCompanyDefault")}
      </span>
      <span data-testid="employee-tools-count" className="mt-0.5 block text-xs text-slate-500">
        {count === 0 ? t("employee.toolsNone") : t("employee.toolsCount", { count })}
      </span>
      <a
        href={profileHref(employee.id)}
        data-testid="employee-tools-edit"
        className="mt-1 -ml-2 inline-flex h-7 items-center rounded-md px-2 text-xs font-medium text-slate-600 hover:bg-slate-100 hover:text-slate-900"
      >
        {t("employee.toolsEdit")}
      </a>
    </>
  );
}

export function EmployeePanel({
  snapshot,
  employee,
  onClose,
  onMove,
  onSetManager,
  onFire,
  onChangeModel,
  onToggleLead,
  leadPending,
}: {
  snapshot: OrgSnapshot;
  employee: EmployeeDto;
  onClose: () => void;
  onMove: () => void;
  onSetManager: () => void;
  onFire: () => void;
  onChangeModel: () => void;
  onToggleLead: (departmentId: number, makeLead: boolean) => void;
  leadPending: boolean;
}) {
  const { t, i18n } = useTranslation();
  const department = snapshot.departments.find((d) => d.id === employee.departmentId);
  const isLead = department?.leadId === employee.id;
  const manager = snapshot.employees.find((e) => e.id === employee.managerId);
  const message = useMessageEmployee();
  const resetMessage = message.reset;
  // The panel stays mounted when another person is picked: a failed "Message" belongs to the last one.
  useEffect(() => resetMessage(), [employee.id, resetMessage]);
  return (
    <PanelFrame title={t("employee.panelTitle")} onClose={onClose} testId="employee-panel">
      <div className="flex flex-col items-center px-5 pt-6 pb-5 text-center">
        <Avatar name={employee.name} size={64} />
        <h2 data-testid="employee-panel-name" className="mt-3 text-lg font-semibold text-slate-900">
          {employee.name}
        </h2>
        <p className="text-sm text-slate-500">{employee.title}</p>
        <span className="mt-2 inline-flex items-center gap-1.5 rounded-full bg-slate-50 px-2.5 py-1 text-xs text-slate-600 ring-1 ring-slate-200 ring-inset">
          <StatusDot status={employee.status} />
          {t(`status.${employee.status}`)}
        </span>
      </div>
      <div className="grid grid-cols-2 gap-2 px-5 pb-3">
        <Button
          variant="primary"
          className="px-2.5"
          onClick={() => message.start(employee.id)}
          disabled={message.isPending}
          data-testid="employee-message-button"
        >
          {message.isPending ? <Spinner className="border-slate-500 border-t-white" /> : <ChatIcon />}
          {t("employee.message")}
        </Button>
        <a
          href={profileHref(employee.id)}
          data-testid="employee-profile-link"
          className="inline-flex h-9 items-center justify-center gap-1.5 rounded-lg bg-white px-2.5 text-sm font-medium whitespace-nowrap text-slate-700 shadow-sm ring-1 ring-slate-300 transition-colors ring-inset hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          <UserIcon />
          {t("employee.openProfile")}
        </a>
      </div>
      {message.error !== null && (
        <div className="px-5 pb-3">
          <InlineError error={message.error} />
        </div>
      )}
      <div className="flex gap-2 px-5 pb-5">
        <Button className="flex-1 px-2.5" onClick={onMove} data-testid="employee-move-button">
          {t("employee.move")}
        </Button>
        <Button className="flex-1 px-2.5" onClick={onSetManager} data-testid="employee-set-manager-button">
          {t("employee.setManager")}
        </Button>
        <Button
          variant="ghost"
          className="px-2.5 text-rose-600 hover:bg-rose-50 hover:text-rose-700"
          onClick={onFire}
          data-testid="employee-fire-button"
        >
          {t("employee.fire")}
        </Button>
      </div>
      {department && (
        <div className="px-5 pb-5">
          <Button
            className="w-full"
            variant={isLead ? "ghost" : "secondary"}
            disabled={leadPending}
            onClick={() => onToggleLead(department.id, !isLead)}
            data-testid="employee-lead-button"
          >
            {isLead
              ? t("employee.removeLead", { department: department.name })
              : t("employee.makeLead", { department: department.name })}
          </Button>
        </div>
      )}
      <dl className="divide-y divide-slate-100 border-t border-slate-100 px-5">
        <Row label={t("employee.titleLabel")}>{employee.title}</Row>
        <Row label={t("employee.department")} testId="employee-panel-department">
          {department ? department.name : t("org.unassigned")}
        </Row>
        <Row label={t("employee.manager")} testId="employee-panel-manager">
          {manager ? manager.name : <span className="text-slate-400">{t("employee.noManager")}</span>}
        </Row>
        <Row label={t("employee.archetype")}>{t(`archetype.${employee.archetype}`)}</Row>
        <Row label={t("employee.skills")}>
          {employee.skills.length === 0 ? (
            <span className="text-slate-400">{t("employee.noSkills")}</span>
          ) : (
            <ul className="flex flex-wrap gap-1">
              {employee.skills.map((s) => (
                <li key={s} className="rounded-md bg-slate-100 px-1.5 py-0.5 text-xs text-slate-700">
                  {s}
                </li>
              ))}
            </ul>
          )}
        </Row>
        <Row label={t("employee.backend")}>
          <BackendSummary employee={employee} />
          <Button
            variant="ghost"
            className="mt-1 -ml-2 h-7 px-2 text-xs"
            onClick={onChangeModel}
            data-testid="employee-change-model-button"
          >
            {t("employee.changeModel")}
          </Button>
        </Row>
        <Row label={t("employee.toolsLabel")}>
          <ToolsSummary employee={employee} companyPolicy={snapshot.company?.approvalPolicy ?? null} />
        </Row>
        <Row label={t("employee.status")}>{t(`status.${employee.status}`)}</Row>
        <Row label={t("employee.hired")}>{formatDate(employee.hiredAt, i18n.language)}</Row>
      </dl>
    </PanelFrame>
  );
}

export function DepartmentPanel({
  snapshot,
  department,
  onClose,
  onRename,
  onDelete,
  onAddPerson,
  onAddSub,
  onSelectEmployee,
}: {
  snapshot: OrgSnapshot;
  department: DepartmentDto;
  onClose: () => void;
  onRename: () => void;
  onDelete: () => void;
  onAddPerson: () => void;
  onAddSub: () => void;
  onSelectEmployee: (id: number) => void;
}) {
  const { t, i18n } = useTranslation();
  const people = peopleIn(snapshot.employees, department.id);
  const subs = childDepartments(snapshot.departments, department.id);
  const parent = snapshot.departments.find((d) => d.id === department.parentId);
  const lead = snapshot.employees.find((e) => e.id === department.leadId);
  return (
    <PanelFrame title={t("department.panelTitle")} onClose={onClose} testId="department-panel">
      <div className="px-5 pt-5 pb-4">
        <h2 data-testid="department-panel-name" className="text-lg font-semibold text-slate-900">
          {department.name}
        </h2>
        <p className="mt-1 text-sm text-slate-500">{department.mission || t("department.noMission")}</p>
        <p className="mt-2 text-xs text-slate-400">
          {t("org.peopleCount", { count: people.length })} · {t("org.subDepartmentCount", { count: subs.length })}
        </p>
      </div>
      <div className="grid grid-cols-2 gap-2 px-5 pb-5">
        <Button onClick={onAddPerson} data-testid="department-add-person">
          {t("department.addPerson")}
        </Button>
        <Button onClick={onAddSub} data-testid="department-add-sub">
          {t("department.addSub")}
        </Button>
        <Button onClick={onRename} data-testid="department-rename-button">
          {t("department.rename")}
        </Button>
        <Button
          variant="ghost"
          className="text-rose-600 hover:bg-rose-50 hover:text-rose-700"
          onClick={onDelete}
          data-testid="department-delete-button"
        >
          {t("department.delete")}
        </Button>
      </div>
      <dl className="divide-y divide-slate-100 border-t border-slate-100 px-5">
        <Row label={t("department.parent")}>{parent ? parent.name : t("department.parentNone")}</Row>
        <Row label={t("department.lead")}>
          {lead ? lead.name : <span className="text-slate-400">{t("department.noLead")}</span>}
        </Row>
        <Row label={t("department.created")}>{formatDate(department.createdAt, i18n.language)}</Row>
      </dl>
      {people.length > 0 && (
        <div className="border-t border-slate-100 px-5 py-4">
          <h3 className="mb-2 text-xs font-semibold tracking-wider text-slate-400 uppercase">{t("department.people")}</h3>
          <ul className="space-y-1">
            {people.map((p) => (
              <li key={p.id}>
                <button
                  type="button"
                  onClick={() => onSelectEmployee(p.id)}
                  className="flex w-full items-center gap-2.5 rounded-lg px-2 py-1.5 text-left hover:bg-slate-50"
                >
                  <Avatar name={p.name} size={28} />
                  <span className="min-w-0 flex-1">
                    <span className="block truncate text-sm text-slate-900">{p.name}</span>
                    <span className="block truncate text-xs text-slate-500">{p.title}</span>
                  </span>
                  <StatusDot status={p.status} />
                </button>
              </li>
            ))}
          </ul>
        </div>
      )}
    </PanelFrame>
  );
}
