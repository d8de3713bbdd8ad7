import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { Button, DialogActions, Field, InlineError, Modal, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { useOrgMutation } from "../ipc/queries";
import { childDepartments, departmentOptions, indent, peopleIn, subtreeIds } from "./tree";

export function CreateDepartmentDialog({
  snapshot,
  defaultParentId,
  onClose,
  onCreated,
}: {
  snapshot: OrgSnapshot;
  defaultParentId: number | null;
  onClose: () => void;
  onCreated?: (dept: DepartmentDto) => void;
}) {
  const { t } = useTranslation();
  const create = useOrgMutation(api.createDepartment);
  const [name, setName] = useState("");
  const [parentId, setParentId] = useState<number | null>(defaultParentId);
  const [mission, setMission] = useState("");
  const [submitted, setSubmitted] = useState(false);
  const nameError = submitted && name.trim() === "" ? t("department.nameRequired") : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (name.trim() === "") return;
    create.mutate(
      { name: name.trim(), parentId, mission: mission.trim() === "" ? null : mission.trim() },
      {
        onSuccess: (dept) => {
          onCreated?.(dept);
          onClose();
        },
      },
    );
  };

  return (
    <Modal title={t("department.createTitle")} onClose={onClose} testId="create-department-dialog">
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <Field label={t("department.name")} error={nameError}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              data-testid="department-name-input"
              className={inputClass}
              value={name}
              placeholder={t("department.namePlaceholder")}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field label={t("department.parent")}>
          {({ id }) => (
            <select
              id={id}
              data-testid="department-parent-select"
              className={inputClass}
              value={parentId ?? ""}
              onChange={(e) => setParentId(e.target.value === "" ? null : Number(e.target.value))}
            >
              <option value="">{t("department.parentNone")}</option>
              {departmentOptions(snapshot.departments).map((o) => (
                <option key={o.id} value={o.id}>
                  {indent(o.depth) + o.name}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t("department.mission")} optional>
          {({ id }) => (
            <textarea
              id={id}
              data-testid="department-mission-input"
              className={`${inputClass} min-h-16 resize-y`}
              value={mission}
              placeholder={t("department.missionPlaceholder")}
              onChange={(e) => setMission(e.target.value)}
            />
          )}
        </Field>
        {create.isError && <InlineError error={create.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="department-submit" disabled={create.isPending}>
            {create.isPending ? t("common.saving") : t("department.create")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}

export function RenameDepartmentDialog({ department, onClose }: { department: DepartmentDto; onClose: () => void }) {
  const { t } = useTranslation();
  const rename = useOrgMutation(api.renameDepartment);
  const [name, setName] = useState(department.name);
  const [submitted, setSubmitted] = useState(false);
  const nameError = submitted && name.trim() === "" ? t("department.nameRequired") : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (name.trim() === "") return;
    if (name.trim() === department.name) return onClose();
    rename.mutate({ id: department.id, name: name.trim() }, { onSuccess: onClose });
  };

  return (
    <Modal title={t("department.renameTitle")} onClose={onClose} testId="rename-department-dialog">
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <Field label={t("department.name")} error={nameError}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              data-testid="department-rename-input"
              className={inputClass}
              value={name}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        {rename.isError && <InlineError error={rename.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="department-rename-submit" disabled={rename.isPending}>
            {rename.isPending ? t("common.saving") : t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}

/**
 * Deleting a department that still holds people or sub-departments requires a destination for
 * them (`reassignTo`); the backend refuses with `department_not_empty` otherwise, and so do we.
 */
export function DeleteDepartmentDialog({
  snapshot,
  department,
  onClose,
  onDeleted,
}: {
  snapshot: OrgSnapshot;
  department: DepartmentDto;
  onClose: () => void;
  onDeleted: () => void;
}) {
  const { t } = useTranslation();
  const remove = useOrgMutation(api.deleteDepartment);
  const people = peopleIn(snapshot.employees, department.id).length;
  const subs = childDepartments(snapshot.departments, department.id).length;
  const nonEmpty = people > 0 || subs > 0;
  const excluded = subtreeIds(snapshot.departments, department.id);
  const targets = departmentOptions(snapshot.departments).filter((o) => !excluded.has(o.id));
  const [target, setTarget] = useState<number | null>(null);
  const [missingTarget, setMissingTarget] = useState(false);

  const contents =
    people > 0 && subs > 0
      ? t("department.contentsBoth", {
          people: t("org.peopleCount", { count: people }),
          subs: t("org.subDepartmentCount", { count: subs }),
        })
      : people > 0
        ? t("org.peopleCount", { count: people })
        : t("org.subDepartmentCount", { count: subs });

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (nonEmpty && target === null) {
      setMissingTarget(true);
      return;
    }
    remove.mutate({ id: department.id, reassignTo: nonEmpty ? target : null }, { onSuccess: onDeleted });
  };

  return (
    <Modal
      title={t("department.deleteTitle", { name: department.name })}
      onClose={onClose}
      testId="delete-department-dialog"
      description={
        nonEmpty
          ? t("department.deleteNonEmptyBody", { name: department.name, contents })
          : t("department.deleteEmptyBody")
      }
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        {nonEmpty &&
          (targets.length > 0 ? (
            <Field label={t("department.deleteTarget")}>
              {({ id }) => (
                <select
                  id={id}
                  data-testid="delete-department-target"
                  className={inputClass}
                  value={target ?? ""}
                  aria-invalid={missingTarget && target === null}
                  onChange={(e) => {
                    setTarget(e.target.value === "" ? null : Number(e.target.value));
                    setMissingTarget(false);
                  }}
                >
                  <option value="">{t("department.deleteTargetPlaceholder")}</option>
                  {targets.map((o) => (
                    <option key={o.id} value={o.id}>
                      {indent(o.depth) + o.name}
                    </option>
                  ))}
                </select>
              )}
            </Field>
          ) : (
            <p className="rounded-lg bg-amber-50 px-3 py-2 text-sm text-amber-800 ring-1 ring-amber-200 ring-inset">
              {t("department.deleteNoTarget")}
            </p>
          ))}
        {missingTarget && <InlineError error={{ code: "department_not_empty", message: "" }} />}
        {remove.isError && <InlineError error={remove.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button
            type="submit"
            variant="danger"
            data-testid="delete-department-confirm"
            disabled={remove.isPending || (nonEmpty && targets.length === 0)}
          >
            {remove.isPending ? t("common.saving") : t("department.deleteConfirm")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}
