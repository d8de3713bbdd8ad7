import { useCallback, useState } from "react";
import { useTranslation } from "react-i18next";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { FolderPlusIcon, OrgIcon, UserPlusIcon } from "../components/icons";
import { Button, ErrorState, LoadingState } from "../components/ui";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { useOrg, useOrgMutation } from "../ipc/queries";
import { CreateDepartmentDialog, DeleteDepartmentDialog, RenameDepartmentDialog } from "./DepartmentDialogs";
import {
  AddEmployeeDialog,
  ChangeModelDialog,
  FireEmployeeDialog,
  MoveEmployeeDialog,
  SetManagerDialog,
} from "./EmployeeDialogs";
import { departmentNodeId, employeeNodeId } from "./layout";
import { OrgChart } from "./OrgChart";
import { DepartmentPanel, EmployeePanel } from "./SidePanel";
import { WithCode } from "../components/WithCode";

type Selection = { kind: "employee"; id: number } | { kind: "department"; id: number } | null;

type Dialog =
  | { kind: "createDepartment"; parentId: number | null }
  | { kind: "renameDepartment"; id: number }
  | { kind: "deleteDepartment"; id: number }
  | { kind: "addEmployee"; departmentId: number | null }
  | { kind: "moveEmployee"; id: number }
  | { kind: "setManager"; id: number }
  | { kind: "fireEmployee"; id: number }
  | { kind: "changeModel"; id: number }
  | null;

export function OrgChartPage() {
  const org = useOrg();
  if (org.isPending) return <LoadingState className="h-full" />;
  if (org.isError) return <ErrorState className="h-full" error={org.error} onRetry={() => void org.refetch()} />;
  return <OrgChartView snapshot={org.data} />;
}

function OrgChartView({ snapshot }: { snapshot: OrgSnapshot }) {
  const { t } = useTranslation();
  const [selection, setSelection] = useState<Selection>(null);
  const [dialog, setDialog] = useState<Dialog>(null);
  const move = useOrgMutation(api.moveEmployee);
  const lead = useOrgMutation(api.setDepartmentLead);

  const selectEmployee = useCallback((id: number) => setSelection({ kind: "employee", id }), []);
  const selectDepartment = useCallback((id: number) => setSelection({ kind: "department", id }), []);
  const clearSelection = useCallback(() => setSelection(null), []);
  const closeDialog = () => setDialog(null);

  // Selections and dialogs refer to ids; anything that vanished from the snapshot is simply not shown.
  const selectedEmployee =
    selection?.kind === "employee" ? snapshot.employees.find((e) => e.id === selection.id) : undefined;
  const selectedDepartment =
    selection?.kind === "department" ? snapshot.departments.find((d) => d.id === selection.id) : undefined;
  const selectedNodeId = selectedEmployee
    ? employeeNodeId(selectedEmployee.id)
    : selectedDepartment
      ? departmentNodeId(selectedDepartment.id)
      : null;

  const employeeById = (id: number) => snapshot.employees.find((e) => e.id === id);
  const departmentById = (id: number) => snapshot.departments.find((d) => d.id === id);
  const movingName = move.variables ? employeeById(move.variables.employeeId)?.name ?? "" : "";

  const hasDepartments = snapshot.departments.length > 0;
  const isEmpty = !hasDepartments && snapshot.employees.length === 0;

  return (
    <div className="flex h-full min-h-0 flex-col">
      <div className="flex shrink-0 items-center justify-between gap-4 border-b border-slate-200 bg-white/60 px-6 py-3">
        <div>
          <h2 className="text-lg font-semibold tracking-tight text-slate-900">{t("org.title")}</h2>
          <p data-testid="org-summary" className="text-xs text-slate-500">
            {t("org.departmentCount", { count: snapshot.departments.length })} ·{" "}
            {t("org.peopleCount", { count: snapshot.employees.length })}
          </p>
        </div>
        <div className="flex items-center gap-2">
          <Button data-testid="new-department-button" onClick={() => setDialog({ kind: "createDepartment", parentId: null })}>
            <FolderPlusIcon />
            {t("org.newDepartment")}
          </Button>
          <Button
            variant="primary"
            data-testid="add-employee-button"
            onClick={() =>
              setDialog({ kind: "addEmployee", departmentId: selectedDepartment?.id ?? snapshot.departments[0]?.id ?? null })
            }
          >
            <UserPlusIcon />
            {t("org.addEmployee")}
          </Button>
        </div>
      </div>

      {move.isError && (
        <div role="alert" className="flex items-center justify-between gap-3 bg-rose-50 px-6 py-2 text-sm text-rose-700">
          <span><WithCode text={t("org.moveFailed", { name: movingName, message: t(errorKey(move.error)) })} /></span>
          <button type="button" className="text-xs font-medium underline" onClick={() => move.reset()}>
            {t("common.close")}
          </button>
        </div>
      )}

      {lead.isError && (
        <div role="alert" className="flex items-center justify-between gap-3 bg-rose-50 px-6 py-2 text-sm text-rose-700">
          <span><WithCode text={t("org.leadFailed", { message: t(errorKey(lead.error)) })} /></span>
          <button type="button" className="text-xs font-medium underline" onClick={() => lead.reset()}>
            {t("common.close")}
          </button>
        </div>
      )}

      <div className="flex min-h-0 flex-1">
        <div className="relative min-w-0 flex-1">
          {isEmpty ? (
            <div data-testid="org-empty" className="flex h-full items-center justify-center p-8">
              <div className="max-w-sm text-center">
                <div className="mx-auto flex size-12 items-center justify-center rounded-xl bg-white text-slate-500 shadow-sm ring-1 ring-slate-200">
                  <OrgIcon width={24} height={24} />
                </div>
                <h3 className="mt-4 text-base font-semibold text-slate-900">{t("org.empty.title")}</h3>
                <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{t("org.empty.body")}</p>
                <Button
                  variant="primary"
                  className="mt-5"
                  data-testid="empty-new-department-button"
                  onClick={() => setDialog({ kind: "createDepartment", parentId: null })}
                >
                  <FolderPlusIcon />
                  {t("org.empty.action")}
                </Button>
              </div>
            </div>
          ) : (
            <>
              <OrgChart
                snapshot={snapshot}
                selectedNodeId={selectedNodeId}
                onSelectEmployee={selectEmployee}
                onSelectDepartment={selectDepartment}
                onClearSelection={clearSelection}
                onMoveEmployee={(employeeId, departmentId) => move.mutate({ employeeId, departmentId })}
              />
              {!hasDepartments && (
                <div className="pointer-events-none absolute inset-x-0 top-12 flex justify-center">
                  <div className="pointer-events-auto flex items-center gap-3 rounded-xl bg-white px-4 py-2.5 text-sm text-slate-600 shadow-sm ring-1 ring-slate-200">
                    <span>{t("org.noDepartmentsHint")}</span>
                    <Button
                      variant="primary"
                      data-testid="empty-new-department-button"
                      onClick={() => setDialog({ kind: "createDepartment", parentId: null })}
                    >
                      {t("org.empty.action")}
                    </Button>
                  </div>
                </div>
              )}
            </>
          )}
        </div>

        {selectedEmployee && (
          <EmployeePanel
            snapshot={snapshot}
            employee={selectedEmployee}
            onClose={clearSelection}
            onMove={() => setDialog({ kind: "moveEmployee", id: selectedEmployee.id })}
            onSetManager={() => setDialog({ kind: "setManager", id: selectedEmployee.id })}
            onFire={() => setDialog({ kind: "fireEmployee", id: selectedEmployee.id })}
            onChangeModel={() => setDialog({ kind: "changeModel", id: selectedEmployee.id })}
            onToggleLead={(departmentId, makeLead) =>
              lead.mutate({ departmentId, employeeId: makeLead ? selectedEmployee.id : null })
            }
            leadPending={lead.isPending}
          />
        )}
        {selectedDepartment && (
          <DepartmentPanel
            snapshot={snapshot}
            department={selectedDepartment}
            onClose={clearSelection}
            onRename={() => setDialog({ kind: "renameDepartment", id: selectedDepartment.id })}
            onDelete={() => setDialog({ kind: "deleteDepartment", id: selectedDepartment.id })}
            onAddPerson={() => setDialog({ kind: "addEmployee", departmentId: selectedDepartment.id })}
            onAddSub={() => setDialog({ kind: "createDepartment", parentId: selectedDepartment.id })}
            onSelectEmployee={selectEmployee}
          />
        )}
      </div>

      {dialog?.kind === "createDepartment" && (
        <CreateDepartmentDialog
          snapshot={snapshot}
          defaultParentId={dialog.parentId}
          onClose={closeDialog}
          onCreated={(d) => selectDepartment(d.id)}
        />
      )}
      {dialog?.kind === "renameDepartment" && departmentById(dialog.id) && (
        <RenameDepartmentDialog department={departmentById(dialog.id)!} onClose={closeDialog} />
      )}
      {dialog?.kind === "deleteDepartment" && departmentById(dialog.id) && (
        <DeleteDepartmentDialog
          snapshot={snapshot}
          department={departmentById(dialog.id)!}
          onClose={closeDialog}
          onDeleted={() => {
            closeDialog();
            clearSelection();
          }}
        />
      )}
      {dialog?.kind === "addEmployee" && (
        <AddEmployeeDialog
          snapshot={snapshot}
          defaultDepartmentId={dialog.departmentId}
          onClose={closeDialog}
          onHired={(e) => selectEmployee(e.id)}
        />
      )}
      {dialog?.kind === "moveEmployee" && employeeById(dialog.id) && (
        <MoveEmployeeDialog snapshot={snapshot} employee={employeeById(dialog.id)!} onClose={closeDialog} />
      )}
      {dialog?.kind === "setManager" && employeeById(dialog.id) && (
        <SetManagerDialog snapshot={snapshot} employee={employeeById(dialog.id)!} onClose={closeDialog} />
      )}
      {dialog?.kind === "changeModel" && employeeById(dialog.id) && (
        <ChangeModelDialog employee={employeeById(dialog.id)!} onClose={closeDialog} />
      )}
      {dialog?.kind === "fireEmployee" && employeeById(dialog.id) && (
        <FireEmployeeDialog
          employee={employeeById(dialog.id)!}
          onClose={closeDialog}
          onFired={() => {
            closeDialog();
            clearSelection();
          }}
        />
      )}
    </div>
  );
}
