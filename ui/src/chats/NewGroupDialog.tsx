import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ChatDto } from "../bindings/ChatDto";
import type { ChatMode } from "../bindings/ChatMode";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { SearchIcon } from "../components/icons";
import { Button, DialogActions, Field, InlineError, Modal, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { queryKeys, useInvalidatingMutation } from "../ipc/queries";
import { Avatar } from "../org/Avatar";
import { CHAT_MODES } from "./format";

/** Fewer people than this is a 1:1 chat, not a group (as on the Rust side). */
export const MIN_GROUP_MEMBERS = 2;
/** From this many people on, the picker gets a search box. */
const SEARCH_FROM = 8;

/** A group chat of the boss's choosing: a name, at least two current employees, work or casual. */
export function NewGroupDialog({
  snapshot,
  onClose,
  onCreated,
}: {
  snapshot: OrgSnapshot;
  onClose: () => void;
  onCreated: (chat: ChatDto) => void;
}) {
  const { t } = useTranslation();
  const create = useInvalidatingMutation(api.createGroup, [queryKeys.chatList]);
  const membersId = useId();
  const [name, setName] = useState("");
  const [memberIds, setMemberIds] = useState<number[]>([]);
  const [mode, setMode] = useState<ChatMode>("casual");
  const [query, setQuery] = useState("");
  const [submitted, setSubmitted] = useState(false);

  const departments = new Map(snapshot.departments.map((d) => [d.id, d.name]));
  const people = [...snapshot.employees].sort((a, b) => a.name.localeCompare(b.name));
  const needle = query.trim().toLowerCase();
  const shown = needle
    ? people.filter((p) =>
        [p.name, p.title, p.departmentId === null ? "" : (departments.get(p.departmentId) ?? "")].some((s) =>
          s.toLowerCase().includes(needle),
        ),
      )
    : people;

  const nameError = submitted && name.trim() === "" ? t("chats.group.nameRequired") : null;
  const membersError = submitted && memberIds.length < MIN_GROUP_MEMBERS ? t("chats.group.membersRequired") : null;

  const toggle = (id: number) =>
    setMemberIds((current) => (current.includes(id) ? current.filter((x) => x !== id) : [...current, id]));

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (name.trim() === "" || memberIds.length < MIN_GROUP_MEMBERS) return;
    create.mutate(
      { name: name.trim(), memberIds: [...memberIds].sort((a, b) => a - b), mode },
      {
        onSuccess: (chat) => {
          onCreated(chat);
          onClose();
        },
      },
    );
  };

  return (
    <Modal title={t("chats.group.title")} description={t("chats.group.description")} onClose={onClose} testId="new-group-dialog">
      <form noValidate onSubmit={onSubmit} className="space-y-4">
        <Field label={t("chats.group.name")} error={nameError}>
          {({ id, describedBy, invalid }) => (
            <input
              id={id}
              data-testid="group-name-input"
              className={inputClass}
              value={name}
              maxLength={100}
              placeholder={t("chats.group.namePlaceholder")}
              aria-invalid={invalid}
              aria-describedby={describedBy}
              onChange={(e) => setName(e.target.value)}
            />
          )}
        </Field>

        <fieldset aria-describedby={`${membersId}-status`}>
          <legend className="flex w-full items-baseline justify-between text-sm font-medium text-slate-700">
            <span>{t("chats.group.members")}</span>
            <span id={`${membersId}-status`} className="text-xs font-normal text-slate-500" data-testid="group-selected-count">
              {t("chats.group.selected", { count: memberIds.length })}
            </span>
          </legend>
          {people.length >= SEARCH_FROM && (
            <label className="relative mt-1.5 block">
              <span className="sr-only">{t("chats.group.search")}</span>
              <SearchIcon className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-slate-400" />
              <input
                type="search"
                data-testid="group-member-search"
                className={`${inputClass} pl-9`}
                placeholder={t("chats.group.search")}
                value={query}
                onChange={(e) => setQuery(e.target.value)}
              />
            </label>
          )}
          <ul
            className={`mt-1.5 max-h-56 divide-y divide-slate-100 overflow-y-auto rounded-lg ring-1 ring-inset ${
              membersError ? "ring-rose-400" : "ring-slate-200"
            }`}
          >
            {shown.map((p) => {
              const checked = memberIds.includes(p.id);
              const department = p.departmentId === null ? null : departments.get(p.departmentId);
              return (
                <li key={p.id}>
                  <label
                    className={`flex cursor-pointer items-center gap-3 px-3 py-2 text-sm transition-colors ${checked ? "bg-indigo-50/60" : "hover:bg-slate-50"}`}
                  >
                    <input
                      type="checkbox"
                      data-testid={`group-member-${p.id}`}
                      className="size-4 rounded border-slate-300 accent-indigo-600"
                      checked={checked}
                      onChange={() => toggle(p.id)}
                    />
                    <Avatar name={p.name} size={28} />
                    <span className="min-w-0 flex-1">
                      <span className="block truncate font-medium text-slate-900">{p.name}</span>
                      <span className="block truncate text-xs text-slate-500">
                        {department ? `${p.title} · ${department}` : p.title}
                      </span>
                    </span>
                  </label>
                </li>
              );
            })}
            {shown.length === 0 && (
              <li className="px-3 py-4 text-center text-sm text-slate-500">
                {people.length === 0 ? t("chats.group.noPeople") : t("chats.group.noMatches", { query: query.trim() })}
              </li>
            )}
          </ul>
          {membersError && (
            <p role="alert" className="mt-1.5 text-xs text-rose-600">
              {membersError}
            </p>
          )}
        </fieldset>

        <fieldset>
          <legend className="text-sm font-medium text-slate-700">{t("chats.group.mode")}</legend>
          <div className="mt-1.5 grid grid-cols-2 gap-2">
            {CHAT_MODES.map((m) => (
              <label
                key={m}
                className={`flex cursor-pointer flex-col rounded-lg px-3 py-2.5 ring-1 ring-inset transition-colors has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-indigo-500 ${
                  mode === m ? "bg-indigo-50/60 ring-indigo-300" : "ring-slate-200 hover:bg-slate-50"
                }`}
              >
                <span className="flex items-center gap-2 text-sm font-medium text-slate-900">
                  <input
                    type="radio"
                    name="group-mode"
                    value={m}
                    data-testid={`group-mode-${m}`}
                    className="size-4 accent-indigo-600"
                    checked={mode === m}
                    onChange={() => setMode(m)}
                  />
                  {t(`chats.mode.${m}`)}
                </span>
                <span className="mt-1 text-xs leading-snug text-slate-500">{t(`chats.modeHint.${m}`)}</span>
              </label>
            ))}
          </div>
        </fieldset>

        {create.isError && <InlineError error={create.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="group-submit" disabled={create.isPending}>
            {create.isPending ? t("common.saving") : t("chats.group.create")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}
