import { useMutation } from "@tanstack/react-query";
import { useMemo, useRef, useState } from "react";
import { useTranslation } from "react-i18next";
import type { RoleCardDto } from "../../bindings/RoleCardDto";
import type { RosterFile } from "../../bindings/RosterFile";
import { Badge, Button, ConfirmDialog, InlineError, Spinner, inputClass } from "../../components/ui";
import { api } from "../../ipc/api";
import { errorKey } from "../../ipc/errors";
import { queryKeys, useInvalidatingMutation, useRoleCards } from "../../ipc/queries";
import { SettingsSection } from "../SettingsSection";
import { DuplicateRoleDialog, RoleCardDialog } from "./RoleCardDialog";
import { ROSTER_ACCEPT, rosterFiles } from "./roster";
import { RosterImportDialog } from "./RosterImportDialog";

/** A card's title in the app's language: the Chinese name when the card gives one. */
export function cardTitle(dto: RoleCardDto, language: string): string {
  return language.startsWith("zh") && dto.card.nameZh ? dto.card.nameZh : dto.card.name;
}

/**
 * The role cards a hire starts from (SPEC §2): the built-in ones and the boss's own, which can be
 * edited, duplicated, deleted, imported as a roster (folder files or an archive) and exported.
 */
export function RolesSection() {
  const { t } = useTranslation();
  const picker = useRef<HTMLInputElement>(null);
  const [creating, setCreating] = useState(false);
  const [upload, setUpload] = useState<RosterFile[] | null>(null);
  const [readError, setReadError] = useState<unknown>(null);
  const exported = useMutation({ mutationFn: () => api.exportRoleCards() });
  const pick = async (files: FileList | null) => {
    setReadError(null);
    if (!files || files.length === 0) return;
    try {
      setUpload(await rosterFiles(files));
    } catch (e) {
      setReadError(e);
    }
  };
  return (
    <SettingsSection
      id="roles"
      title={t("settings.roles.title")}
      description={t("settings.roles.description")}
      actions={
        <>
          <input
            ref={picker}
            type="file"
            multiple
            accept={ROSTER_ACCEPT}
            className="hidden"
            data-testid="roles-import-input"
            onChange={(e) => {
              void pick(e.target.files);
              e.target.value = "";
            }}
          />
          <Button data-testid="roles-import" onClick={() => picker.current?.click()}>
            {t("settings.roles.import")}
          </Button>
          <Button data-testid="roles-export" disabled={exported.isPending} onClick={() => exported.mutate()}>
            {exported.isPending && <Spinner />}
            {t("settings.roles.export")}
          </Button>
          <Button variant="primary" data-testid="roles-new" onClick={() => setCreating(true)}>
            {t("settings.roles.new")}
          </Button>
        </>
      }
    >
      {readError != null && (
        <div className="px-5 pt-4">
          <InlineError error={readError} />
        </div>
      )}
      {exported.isError && (
        <div className="px-5 pt-4">
          <InlineError error={exported.error} />
        </div>
      )}
      {exported.isSuccess && (
        <p role="status" data-testid="roles-exported" className="px-5 pt-4 text-sm text-emerald-700">
          {t("settings.roles.exported", { count: exported.data.files.length, dir: exported.data.dir })}
        </p>
      )}
      <RolesBody />
      {creating && <RoleCardDialog card={null} onClose={() => setCreating(false)} />}
      {upload && <RosterImportDialog files={upload} onClose={() => setUpload(null)} />}
    </SettingsSection>
  );
}

function RolesBody() {
  const { t, i18n } = useTranslation();
  const cards = useRoleCards();
  const [filter, setFilter] = useState("");
  const [editing, setEditing] = useState<RoleCardDto | null>(null);
  const [copying, setCopying] = useState<RoleCardDto | null>(null);
  const [deleting, setDeleting] = useState<RoleCardDto | null>(null);
  const shown = useMemo(() => {
    const words = filter.trim().toLowerCase();
    const all = cards.data ?? [];
    if (words === "") return all;
    return all.filter((c) => [c.key, c.card.name, c.card.nameZh ?? "", c.card.description, ...c.card.skills].join(" ").toLowerCase().includes(words));
  }, [cards.data, filter]);

  if (cards.isPending) {
    return (
      <div role="status" className="flex items-center gap-2 px-5 py-4 text-sm text-slate-500">
        <Spinner />
        {t("common.loading")}
      </div>
    );
  }
  if (cards.isError) {
    return (
      <p role="alert" className="px-5 py-4 text-sm text-rose-600">
        {t("settings.roles.failed", { message: t(errorKey(cards.error)) })}
      </p>
    );
  }
  const own = shown.filter((c) => !c.builtin);
  const builtin = shown.filter((c) => c.builtin);
  const row = (c: RoleCardDto) => (
    <RoleRow key={c.key} dto={c} language={i18n.language} onEdit={() => setEditing(c)} onCopy={() => setCopying(c)} onDelete={() => setDeleting(c)} />
  );
  return (
    <>
      <div className="border-b border-slate-100 px-5 py-3">
        <input
          type="search"
          value={filter}
          onChange={(e) => setFilter(e.target.value)}
          placeholder={t("settings.roles.filter")}
          aria-label={t("settings.roles.filter")}
          data-testid="roles-filter"
          className={`${inputClass} max-w-sm`}
        />
      </div>
      <h4 className="bg-slate-50 px-5 py-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {t("settings.roles.own", { count: own.length })}
      </h4>
      {own.length > 0 ? (
        <ul data-testid="roles-own" className="divide-y divide-slate-100">
          {own.map(row)}
        </ul>
      ) : (
        <p data-testid="roles-own-empty" className="px-5 py-4 text-sm text-slate-500">
          {filter.trim() === "" ? t("settings.roles.ownEmpty") : t("settings.roles.noMatch")}
        </p>
      )}
      <h4 className="border-t border-slate-100 bg-slate-50 px-5 py-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        {t("settings.roles.builtin", { count: builtin.length })}
      </h4>
      {builtin.length > 0 ? (
        <ul data-testid="roles-builtin" className="divide-y divide-slate-100">
          {builtin.map(row)}
        </ul>
      ) : (
        <p className="px-5 py-4 text-sm text-slate-500">{t("settings.roles.noMatch")}</p>
      )}
      {editing && <RoleCardDialog card={editing} onClose={() => setEditing(null)} />}
      {copying && <DuplicateRoleDialog card={copying} onClose={() => setCopying(null)} />}
      {deleting && <DeleteRoleDialog card={deleting} onClose={() => setDeleting(null)} />}
    </>
  );
}

function RoleRow({ dto, language, onEdit, onCopy, onDelete }: { dto: RoleCardDto; language: string; onEdit: () => void; onCopy: () => void; onDelete: () => void }) {
  const { t } = useTranslation();
  const title = cardTitle(dto, language);
  const { card } = dto;
  return (
    <li data-testid={`role-${dto.key}`} className="flex flex-wrap items-start justify-between gap-3 px-5 py-3">
      <div className="min-w-0 flex-1 space-y-1">
        <div className="flex flex-wrap items-baseline gap-x-2 gap-y-1">
          <span className="font-medium text-slate-900">{title}</span>
          <span className="font-mono text-xs text-slate-400">{dto.key}</span>
          {card.temperature !== null && <Badge>{t("settings.roles.temperature", { value: card.temperature })}</Badge>}
          {card.model && card.model !== "inherit" && <Badge tone="indigo">{card.model}</Badge>}
          {card.tools.length > 0 && <Badge>{t("settings.roles.tools", { count: card.tools.length })}</Badge>}
        </div>
        <p className="line-clamp-2 text-sm text-slate-600">{card.description}</p>
        {dto.unknownTools.length > 0 && (
          <p data-testid={`role-${dto.key}-unknown`} className="text-xs text-amber-800">
            {t("settings.roles.unknownTools", { tools: dto.unknownTools.join(t("settings.roles.separator")) })}
          </p>
        )}
      </div>
      <div className="flex shrink-0 gap-1">
        <Button variant="ghost" aria-label={t("settings.roles.editLabel", { name: title })} onClick={onEdit}>
          {t("settings.roles.edit")}
        </Button>
        <Button variant="ghost" aria-label={t("settings.roles.duplicateLabel", { name: title })} onClick={onCopy}>
          {t("settings.roles.duplicate")}
        </Button>
        {!dto.builtin && (
          <Button variant="ghost" aria-label={t(dto.shipped ? "settings.roles.restoreLabel" : "settings.roles.deleteLabel", { name: title })} onClick={onDelete}>
            {t(dto.shipped ? "settings.roles.restore" : "settings.roles.delete")}
          </Button>
        )}
      </div>
    </li>
  );
}

function DeleteRoleDialog({ card, onClose }: { card: RoleCardDto; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const remove = useInvalidatingMutation(api.deleteRoleCard, [queryKeys.roleTemplates]);
  const name = cardTitle(card, i18n.language);
  // An edited built-in card is not deleted: the shipped text comes back.
  const verb = card.shipped ? "restore" : "delete";
  return (
    <ConfirmDialog
      title={t(`settings.roles.${verb}Title`, { name })}
      description={t(`settings.roles.${verb}Body`, { name })}
      testId="delete-role-dialog"
      confirmLabel={t(`settings.roles.${verb}Confirm`)}
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onConfirm={() => remove.mutate({ key: card.key }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
