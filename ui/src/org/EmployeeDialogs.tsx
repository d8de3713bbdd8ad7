import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Archetype } from "../bindings/Archetype";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { RoleTemplateDto } from "../bindings/RoleTemplateDto";
import { Button, ConfirmDialog, DialogActions, Field, InlineError, Modal, inputClass } from "../components/ui";
import { ARCHETYPES } from "../domain";
import { currentLanguage } from "../i18n";
import { api } from "../ipc/api";
import { useOrgMutation, useProviders, useRoleTemplates } from "../ipc/queries";
import { departmentOptions, indent } from "./tree";

/** A role template's title in the current UI language. */
export function templateTitle(template: RoleTemplateDto, language: string): string {
  return language === "zh-CN" ? template.titleZh : template.title;
}

function DepartmentSelect({
  snapshot,
  value,
  onChange,
  testId,
  id,
}: {
  snapshot: OrgSnapshot;
  value: number | null;
  onChange: (value: number | null) => void;
  testId: string;
  id: string;
}) {
  const { t } = useTranslation();
  return (
    <select
      id={id}
      data-testid={testId}
      className={inputClass}
      value={value ?? ""}
      onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}
    >
      <option value="">{t("org.unassigned")}</option>
      {departmentOptions(snapshot.departments).map((o) => (
        <option key={o.id} value={o.id}>
          {indent(o.depth) + o.name}
        </option>
      ))}
    </select>
  );
}

export function AddEmployeeDialog({
  snapshot,
  defaultDepartmentId,
  onClose,
  onHired,
}: {
  snapshot: OrgSnapshot;
  defaultDepartmentId: number | null;
  onClose: () => void;
  onHired?: (employee: EmployeeDto) => void;
}) {
  const { t } = useTranslation();
  const hire = useOrgMutation(api.hireEmployee);
  const templates = useRoleTemplates();
  const language = currentLanguage();
  const suggestionsId = useId();
  const [name, setName] = useState("");
  const [title, setTitle] = useState("");
  const [departmentId, setDepartmentId] = useState<number | null>(defaultDepartmentId);
  const [managerId, setManagerId] = useState<number | null>(null);
  const [archetype, setArchetype] = useState<Archetype | null>(null);
  const [archetypeTouched, setArchetypeTouched] = useState(false);
  const [submitted, setSubmitted] = useState(false);

  const nameError = submitted && name.trim() === "" ? t("employee.nameRequired") : null;
  const titleError = submitted && title.trim() === "" ? t("employee.titleRequired") : null;
  const managers = [...snapshot.employees].sort((a, b) => a.name.localeCompare(b.name));

  const onTitleChange = (value: string) => {
    setTitle(value);
    // Picking a known role suggests its usual personality, unless the boss already chose one.
    const template = templates.data?.find((tpl) => templateTitle(tpl, language) === value || tpl.title === value);
    if (template && !archetypeTouched) setArchetype(template.archetype);
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (name.trim() === "" || title.trim() === "") return;
    hire.mutate(
      { name: name.trim(), title: title.trim(), departmentId, managerId, archetype },
      {
        onSuccess: (employee) => {
          onHired?.(employee);
          onClose();
        },
      },
    );
  };

  return (
    <Modal title={t("employee.addTitle")} onClose={onClose} testId="add-employee-dialog">
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <Field label={t("employee.name")} error={nameError}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              data-testid="employee-name-input"
              className={inputClass}
              value={name}
              placeholder={t("employee.namePlaceholder")}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>
        <Field label={t("employee.titleLabel")} hint={t("employee.titleHint")} error={titleError}>
          {({ id, describedBy, invalid }) => (
            <>
              <input
                id={id}
                data-testid="employee-title-input"
                className={inputClass}
                value={title}
                list={suggestionsId}
                autoComplete="off"
                placeholder={t("employee.titlePlaceholder")}
                aria-invalid={invalid}
                aria-describedby={describedBy}
                onChange={(e) => onTitleChange(e.target.value)}
              />
              <datalist id={suggestionsId} data-testid="employee-title-suggestions">
                {(templates.data ?? []).map((tpl) => (
                  <option key={tpl.key} value={templateTitle(tpl, language)} />
                ))}
              </datalist>
            </>
          )}
        </Field>
        <div className="grid grid-cols-2 gap-3">
          <Field label={t("employee.department")}>
            {({ id }) => (
              <DepartmentSelect
                id={id}
                snapshot={snapshot}
                value={departmentId}
                onChange={setDepartmentId}
                testId="employee-department-select"
              />
            )}
          </Field>
          <Field label={t("employee.manager")}>
            {({ id }) => (
              <select
                id={id}
                data-testid="employee-manager-select"
                className={inputClass}
                value={managerId ?? ""}
                onChange={(e) => setManagerId(e.target.value === "" ? null : Number(e.target.value))}
              >
                <option value="">{t("employee.noManager")}</option>
                {managers.map((m) => (
                  <option key={m.id} value={m.id}>
                    {m.name}
                  </option>
                ))}
              </select>
            )}
          </Field>
        </div>
        <Field label={t("employee.archetype")}>
          {({ id }) => (
            <select
              id={id}
              data-testid="employee-archetype-select"
              className={inputClass}
              value={archetype ?? ""}
              onChange={(e) => {
                setArchetypeTouched(true);
                const value = e.target.value;
                setArchetype(ARCHETYPES.find((a) => a === value) ?? null);
              }}
            >
              <option value="">{t("employee.archetypeAuto")}</option>
              {ARCHETYPES.map((a) => (
                <option key={a} value={a}>
                  {t(`archetype.${a}`)}
                </option>
              ))}
            </select>
          )}
        </Field>
        {hire.isError && <InlineError error={hire.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="employee-submit" disabled={hire.isPending}>
            {hire.isPending ? t("common.saving") : t("employee.submit")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}

export function MoveEmployeeDialog({
  snapshot,
  employee,
  onClose,
}: {
  snapshot: OrgSnapshot;
  employee: EmployeeDto;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const move = useOrgMutation(api.moveEmployee);
  const [departmentId, setDepartmentId] = useState<number | null>(employee.departmentId);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (departmentId === employee.departmentId) return onClose();
    move.mutate({ employeeId: employee.id, departmentId }, { onSuccess: onClose });
  };
  return (
    <Modal title={t("employee.moveTitle", { name: employee.name })} onClose={onClose} testId="move-employee-dialog">
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <Field label={t("employee.moveTarget")}>
          {({ id }) => (
            <DepartmentSelect
              id={id}
              snapshot={snapshot}
              value={departmentId}
              onChange={setDepartmentId}
              testId="move-employee-select"
            />
          )}
        </Field>
        {move.isError && <InlineError error={move.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="move-employee-submit" disabled={move.isPending}>
            {move.isPending ? t("common.saving") : t("employee.moveSubmit")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}

export function SetManagerDialog({
  snapshot,
  employee,
  onClose,
}: {
  snapshot: OrgSnapshot;
  employee: EmployeeDto;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const setManager = useOrgMutation(api.setManager);
  const [managerId, setManagerId] = useState<number | null>(employee.managerId);
  const candidates = snapshot.employees.filter((e) => e.id !== employee.id).sort((a, b) => a.name.localeCompare(b.name));
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (managerId === employee.managerId) return onClose();
    setManager.mutate({ employeeId: employee.id, managerId }, { onSuccess: onClose });
  };
  return (
    <Modal title={t("employee.managerTitle", { name: employee.name })} onClose={onClose} testId="set-manager-dialog">
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <Field label={t("employee.manager")}>
          {({ id }) => (
            <select
              id={id}
              data-testid="set-manager-select"
              className={inputClass}
              value={managerId ?? ""}
              onChange={(e) => setManagerId(e.target.value === "" ? null : Number(e.target.value))}
            >
              <option value="">{t("employee.noManager")}</option>
              {candidates.map((m) => (
                <option key={m.id} value={m.id}>
                  {m.name} · {m.title}
                </option>
              ))}
            </select>
          )}
        </Field>
        {setManager.isError && <InlineError error={setManager.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="set-manager-submit" disabled={setManager.isPending}>
            {setManager.isPending ? t("common.saving") : t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}

/**
 * The employee's model backend: the company default (empty provider, i.e. Settings → Default models)
 * or a provider of their own with a model. Memory and persona are untouched either way.
 */
export function ChangeModelDialog({ employee, onClose }: { employee: EmployeeDto; onClose: () => void }) {
  const { t } = useTranslation();
  const providers = useProviders();
  const setBackend = useOrgMutation(api.setEmployeeBackend);
  const suggestionsId = useId();
  const [providerId, setProviderId] = useState(employee.backend.provider);
  const [model, setModel] = useState(employee.backend.model);

  // The built-in model first, then the backend's order. Disabled providers are not offered,
  // except the one the employee uses now (so the select still shows it).
  const choices = (providers.data ?? [])
    .filter((p) => p.enabled || p.id === employee.backend.provider)
    .sort((a, b) => Number(b.builtin) - Number(a.builtin));
  const selected = choices.find((p) => p.id === providerId);
  const suggestions = selected ? (selected.models.length > 0 ? selected.models : [selected.defaultModel]) : [];

  const onProviderChange = (id: string) => {
    setProviderId(id);
    setModel(choices.find((p) => p.id === id)?.defaultModel ?? "");
    setBackend.reset();
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const provider = providerId === "" ? null : providerId;
    const name = provider === null || model.trim() === "" ? null : model.trim();
    if ((provider ?? "") === employee.backend.provider && (name ?? "") === employee.backend.model) return onClose();
    setBackend.mutate({ employeeId: employee.id, provider, model: name }, { onSuccess: onClose });
  };

  return (
    <Modal
      title={t("employee.modelTitle", { name: employee.name })}
      description={t("employee.modelDescription", { name: employee.name })}
      onClose={onClose}
      testId="change-model-dialog"
    >
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <Field label={t("employee.modelProvider")}>
          {({ id }) => (
            <select
              id={id}
              data-testid="employee-backend-provider-select"
              className={inputClass}
              value={providerId}
              onChange={(e) => onProviderChange(e.target.value)}
            >
              <option value="">{t("employee.backendCompanyDefault")}</option>
              {/* Still loading, or no longer configured: keep the current value visible. */}
              {providerId !== "" && !selected && <option value={providerId}>{providerId}</option>}
              {choices.map((p) => (
                <option key={p.id} value={p.id}>
                  {p.enabled ? p.name : t("employee.modelProviderDisabled", { name: p.name })}
                </option>
              ))}
            </select>
          )}
        </Field>
        {providerId === "" ? (
          <p data-testid="employee-backend-default-explain" className="text-sm text-slate-500">
            {t("employee.modelCompanyDefaultExplain", { name: employee.name })}
          </p>
        ) : (
          <Field label={t("employee.modelName")} hint={t("employee.modelNameHint")}>
            {({ id, describedBy }) => (
              <>
                <input
                  id={id}
                  data-testid="employee-backend-model-input"
                  className={`${inputClass} font-mono placeholder:font-sans`}
                  value={model}
                  list={suggestionsId}
                  autoComplete="off"
                  spellCheck={false}
                  autoCapitalize="off"
                  placeholder={selected?.defaultModel ?? t("employee.modelNamePlaceholder")}
                  aria-describedby={describedBy}
                  onChange={(e) => setModel(e.target.value)}
                />
                <datalist id={suggestionsId} data-testid="employee-backend-model-suggestions">
                  {suggestions.map((m) => (
                    <option key={m} value={m} />
                  ))}
                </datalist>
              </>
            )}
          </Field>
        )}
        {providers.isError && <InlineError error={providers.error} />}
        {setBackend.isError && <InlineError error={setBackend.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="employee-backend-submit" disabled={setBackend.isPending}>
            {setBackend.isPending ? t("common.saving") : t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}

export function FireEmployeeDialog({
  employee,
  onClose,
  onFired,
}: {
  employee: EmployeeDto;
  onClose: () => void;
  onFired: () => void;
}) {
  const { t } = useTranslation();
  const fire = useOrgMutation(api.fireEmployee);
  return (
    <ConfirmDialog
      title={t("employee.fireTitle", { name: employee.name })}
      description={t("employee.fireBody", { name: employee.name })}
      testId="fire-employee-dialog"
      confirmLabel={t("employee.fireConfirm", { name: employee.name })}
      pending={fire.isPending}
      error={fire.isError ? fire.error : null}
      onConfirm={() => fire.mutate({ employeeId: employee.id }, { onSuccess: onFired })}
      onClose={onClose}
    />
  );
}
