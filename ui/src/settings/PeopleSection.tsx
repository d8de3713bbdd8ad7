import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { CompanyDto } from "../bindings/CompanyDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { PersonDto } from "../bindings/PersonDto";
import { Badge, Button, ConfirmDialog, Spinner } from "../components/ui";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { queryKeys, useInvalidatingMutation, useOrg, usePeople } from "../ipc/queries";
import { PersonDialog } from "./PersonDialog";
import { dutiesOf } from "./people";
import { SettingsSection } from "./SettingsSection";
import { WithCode } from "../components/WithCode";

/** Whom the boss shares the company with, and what each of them answers for. */
export function PeopleSection({ company }: { company: CompanyDto }) {
  const { t } = useTranslation();
  const org = useOrg();
  const [inviting, setInviting] = useState(false);
  return (
    <SettingsSection
      id="people"
      title={t("settings.people.title")}
      description={t("settings.people.description")}
      actions={
        <Button variant="primary" data-testid="person-invite" disabled={!org.data} onClick={() => setInviting(true)}>
          {t("settings.people.invite")}
        </Button>
      }
    >
      <PeopleBody company={company} org={org.data} />
      {inviting && org.data && <PersonDialog company={company} org={org.data} person={null} onClose={() => setInviting(false)} />}
    </SettingsSection>
  );
}

function PeopleBody({ company, org }: { company: CompanyDto; org: OrgSnapshot | undefined }) {
  const { t } = useTranslation();
  const people = usePeople();
  const [editing, setEditing] = useState<PersonDto | null>(null);
  const [removing, setRemoving] = useState<PersonDto | null>(null);

  if (people.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 px-5 py-4 text-sm text-slate-500">
        <Spinner />
        {t("common.loading")}
      </div>
    );
  }
  if (people.isError) {
    return (
      <p role="alert" className="px-5 py-4 text-sm text-rose-600">
        <WithCode text={t("settings.people.failed", { message: t(errorKey(people.error)) })} />
      </p>
    );
  }
  return (
    <>
      <ul data-testid="people-list" className="divide-y divide-slate-100">
        <li data-testid="person-boss" className="flex flex-wrap items-baseline gap-x-3 gap-y-1 px-5 py-3">
          <span className="font-medium text-slate-900">{company.bossName}</span>
          <Badge tone="indigo">{t("settings.people.boss")}</Badge>
          <span className="text-sm text-slate-500">{t("settings.people.bossDuties")}</span>
        </li>
        {people.data.map((p) => (
          <PersonRow key={p.id} person={p} org={org} onEdit={() => setEditing(p)} onRemove={() => setRemoving(p)} />
        ))}
      </ul>
      {people.data.length === 0 && (
        <p data-testid="people-empty" className="border-t border-slate-100 px-5 py-4 text-sm text-slate-500">
          {t("settings.people.empty")}
        </p>
      )}
      {editing && org && <PersonDialog company={company} org={org} person={editing} onClose={() => setEditing(null)} />}
      {removing && <RemovePersonDialog person={removing} onClose={() => setRemoving(null)} />}
    </>
  );
}

function PersonRow({ person, org, onEdit, onRemove }: { person: PersonDto; org: OrgSnapshot | undefined; onEdit: () => void; onRemove: () => void }) {
  const { t } = useTranslation();
  const duties = dutiesOf(person, org);
  const nothing = duties.departments.length === 0 && duties.employees.length === 0;
  return (
    <li data-testid={`person-${person.id}`} className="flex flex-wrap items-start justify-between gap-3 px-5 py-3">
      <div className="min-w-0 space-y-1">
        <div className="flex flex-wrap items-baseline gap-x-3 gap-y-1">
          <span className="font-medium text-slate-900">{person.name}</span>
          {person.role && <span className="text-sm text-slate-600">{person.role}</span>}
          <Badge>{t(`language.${person.language}`)}</Badge>
          <Badge tone={person.approvalPolicy === "auto" ? "amber" : "slate"}>
            {t("settings.people.policyBadge", { policy: t(`profile.tools.policy.${person.approvalPolicy}`) })}
          </Badge>
        </div>
        {nothing ? (
          <p className="text-sm text-slate-500">{t("settings.people.answersForNothing")}</p>
        ) : (
          <dl className="space-y-0.5 text-sm">
            {duties.departments.length > 0 && (
              <div className="flex gap-2">
                <dt className="shrink-0 text-slate-500">{t("settings.people.departments")}</dt>
                <dd data-testid={`person-${person.id}-departments`} className="text-slate-800">
                  {duties.departments.join(t("settings.people.separator"))}
                </dd>
              </div>
            )}
            {duties.employees.length > 0 && (
              <div className="flex gap-2">
                <dt className="shrink-0 text-slate-500">{t("settings.people.employees")}</dt>
                <dd data-testid={`person-${person.id}-employees`} className="text-slate-800">
                  {duties.employees.join(t("settings.people.separator"))}
                </dd>
              </div>
            )}
          </dl>
        )}
      </div>
      <div className="flex shrink-0 gap-1">
        <Button variant="ghost" aria-label={t("settings.people.editLabel", { name: person.name })} disabled={!org} onClick={onEdit}>
          {t("settings.people.edit")}
        </Button>
        <Button variant="ghost" aria-label={t("settings.people.removeLabel", { name: person.name })} onClick={onRemove}>
          {t("settings.people.remove")}
        </Button>
      </div>
    </li>
  );
}

function RemovePersonDialog({ person, onClose }: { person: PersonDto; onClose: () => void }) {
  const { t } = useTranslation();
  const remove = useInvalidatingMutation(api.removePerson, [queryKeys.people]);
  return (
    <ConfirmDialog
      title={t("settings.people.removeTitle", { name: person.name })}
      description={t("settings.people.removeBody", { name: person.name })}
      testId="remove-person-dialog"
      confirmLabel={t("settings.people.removeConfirm", { name: person.name })}
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onConfirm={() => remove.mutate({ personId: person.id }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
