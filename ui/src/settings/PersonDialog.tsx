import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ApprovalPolicy } from "../bindings/ApprovalPolicy";
import type { CompanyDto } from "../bindings/CompanyDto";
import type { Language } from "../bindings/Language";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { PersonDto } from "../bindings/PersonDto";
import { Button, DialogActions, Field, InlineError, Modal, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { queryKeys, useInvalidatingMutation } from "../ipc/queries";
import { departmentTree } from "./people";

const LANGUAGES: Language[] = ["en", "zh-CN"];
export const POLICIES: ApprovalPolicy[] = ["auto", "key_steps", "manual"];

interface Draft {
  name: string;
  role: string;
  language: Language;
  approvalPolicy: ApprovalPolicy;
  departments: number[];
  employees: number[];
}

function draftOf(company: CompanyDto, org: OrgSnapshot, person: PersonDto | null): Draft {
  if (person === null) {
    // Key steps is core's default for a new person; the company's language is theirs until changed.
    return { name: "", role: "", language: company.language, approvalPolicy: "key_steps", departments: [], employees: [] };
  }
  // Only duties the org still holds: a department or employee that is gone cannot be chosen again.
  const departments = person.departments.filter((id) => org.departments.some((d) => d.id === id));
  const employees = person.employees.filter((id) => org.employees.some((e) => e.id === id));
  return { name: person.name, role: person.role, language: person.language, approvalPolicy: person.approvalPolicy, departments, employees };
}

const toggle = (ids: number[], id: number, on: boolean) => (on ? [...ids, id] : ids.filter((x) => x !== id));

/** Invites a person (`person` null) or changes one's role, language, policy and duties. */
export function PersonDialog({
  company,
  org,
  person,
  onClose,
}: {
  company: CompanyDto;
  org: OrgSnapshot;
  person: PersonDto | null;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState<Draft>(() => draftOf(company, org, person));
  const [nameError, setNameError] = useState<string | null>(null);
  const invite = useInvalidatingMutation(api.invitePerson, [queryKeys.people]);
  const update = useInvalidatingMutation(api.updatePerson, [queryKeys.people]);
  const save = person === null ? invite : update;
  const set = (patch: Partial<Draft>) => {
    setDraft((d) => ({ ...d, ...patch }));
    save.reset();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const { name, role, language, approvalPolicy, departments, employees } = draft;
    if (person !== null) {
      update.mutate({ id: person.id, role: role.trim(), language, approvalPolicy, departments, employees }, { onSuccess: onClose });
      return;
    }
    if (name.trim() === "") return setNameError(t("settings.people.nameRequired"));
    invite.mutate({ name: name.trim(), role: role.trim(), language, approvalPolicy, departments, employees }, { onSuccess: onClose });
  };

  return (
    <Modal
      title={person === null ? t("settings.people.inviteTitle") : t("settings.people.editTitle", { name: person.name })}
      description={t("settings.people.dialogDescription")}
      onClose={onClose}
      testId="person-dialog"
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {person === null && (
          <Field label={t("settings.people.name")} error={nameError}>
            {({ id, describedBy, invalid }) => (
              <input
                id={id}
                data-testid="person-name"
                className={inputClass}
                value={draft.name}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => {
                  set({ name: e.target.value });
                  setNameError(null);
                }}
              />
            )}
          </Field>
        )}
        <PersonFields draft={draft} set={set} />
        <DutyPicker org={org} departments={draft.departments} employees={draft.employees} onChange={set} />
        {save.isError && <InlineError error={save.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="person-save" disabled={save.isPending}>
            {save.isPending ? t("common.saving") : person === null ? t("settings.people.inviteSubmit") : t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}

/** Role, language and approval policy: what both inviting and editing set. */
function PersonFields({ draft, set }: { draft: Draft; set: (patch: Partial<Draft>) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Field label={t("settings.people.role")} optional>
        {({ id }) => (
          <input
            id={id}
            data-testid="person-role"
            className={inputClass}
            placeholder={t("settings.people.rolePlaceholder")}
            value={draft.role}
            onChange={(e) => set({ role: e.target.value })}
          />
        )}
      </Field>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label={t("settings.people.language")}>
          {({ id }) => (
            <select id={id} data-testid="person-language" className={inputClass} value={draft.language} onChange={(e) => set({ language: e.target.value as Language })}>
              {LANGUAGES.map((l) => (
                <option key={l} value={l}>
                  {t(`language.${l}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t("settings.people.policy")}>
          {({ id }) => (
            <select
              id={id}
              data-testid="person-policy"
              className={inputClass}
              value={draft.approvalPolicy}
              onChange={(e) => set({ approvalPolicy: e.target.value as ApprovalPolicy })}
            >
              {POLICIES.map((p) => (
                <option key={p} value={p}>
                  {t(`profile.tools.policy.${p}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
    </>
  );
}

/** The departments (nested by indentation) and the employees a person answers for. */
function DutyPicker({
  org,
  departments,
  employees,
  onChange,
}: {
  org: OrgSnapshot;
  departments: number[];
  employees: number[];
  onChange: (patch: { departments?: number[]; employees?: number[] }) => void;
}) {
  const { t } = useTranslation();
  const tree = departmentTree(org.departments);
  const departmentName = (id: number | null) => org.departments.find((d) => d.id === id)?.name;
  const staff = [...org.employees].sort((a, b) => a.name.localeCompare(b.name));
  return (
    <div className="space-y-4">
      <fieldset data-testid="person-departments" className="min-w-0">
        <legend className="text-sm font-medium text-slate-700">{t("settings.people.departments")}</legend>
        <p className="mb-1.5 text-xs text-slate-500">{t("settings.people.departmentsHint")}</p>
        {tree.length === 0 ? (
          <p className="text-sm text-slate-500">{t("settings.people.noDepartments")}</p>
        ) : (
          <div className="max-h-40 space-y-1 overflow-y-auto rounded-lg p-2 ring-1 ring-slate-200">
            {tree.map(({ department: d, depth }) => (
              <label key={d.id} className="flex items-center gap-2 text-sm text-slate-800" style={{ paddingLeft: `${depth * 1.25}rem` }}>
                <input type="checkbox" checked={departments.includes(d.id)} onChange={(e) => onChange({ departments: toggle(departments, d.id, e.target.checked) })} />
                <span className="truncate">{d.name}</span>
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <fieldset data-testid="person-employees" className="min-w-0">
        <legend className="text-sm font-medium text-slate-700">{t("settings.people.employees")}</legend>
        <p className="mb-1.5 text-xs text-slate-500">{t("settings.people.employeesHint")}</p>
        {staff.length === 0 ? (
          <p className="text-sm text-slate-500">{t("settings.people.noEmployees")}</p>
        ) : (
          <div className="max-h-40 space-y-1 overflow-y-auto rounded-lg p-2 ring-1 ring-slate-200">
            {staff.map((e) => (
              <label key={e.id} className="flex items-center gap-2 text-sm text-slate-800">
                <input type="checkbox" checked={employees.includes(e.id)} onChange={(ev) => onChange({ employees: toggle(employees, e.id, ev.target.checked) })} />
                <span className="min-w-0 truncate">{e.name}</span>
                {departmentName(e.departmentId) && <span className="ml-auto shrink-0 text-xs text-slate-400">{departmentName(e.departmentId)}</span>}
              </label>
            ))}
          </div>
        )}
      </fieldset>
    </div>
  );
}
