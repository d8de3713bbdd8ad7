import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { RoleCardDto } from "../../bindings/RoleCardDto";
import { Button, DialogActions, Field, InlineError, Modal, inputClass } from "../../components/ui";
import { api } from "../../ipc/api";
import { errorCode, errorDetail } from "../../ipc/errors";
import { queryKeys, useInvalidatingMutation } from "../../ipc/queries";
import { newCardText } from "./roster";

/** Words and folders, as card keys are (`marketing/growth-hacker`): checked again by the backend. */
const KEY_SHAPE = /^[^/\\:.][^/\\:]*(\/[^/\\:.][^/\\:]*)*$/;

/** A card's key: words and folders, also its path when exported. */
function KeyField({ label, value, error, testId, onChange }: { label: string; value: string; error: string | null; testId: string; onChange: (key: string) => void }) {
  const { t } = useTranslation();
  return (
    <Field label={label} hint={t("settings.roles.keyHint")} error={error}>
      {({ id, describedBy, invalid }) => (
        <input
          id={id}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          value={value}
          onChange={(e) => onChange(e.target.value)}
          data-testid={testId}
          className={`${inputClass} font-mono`}
          placeholder="marketing/growth-hacker"
        />
      )}
    </Field>
  );
}

/** Why a save was refused, as the backend says it (the file, line and header key at fault). */
function CardRefusal({ error }: { error: unknown }) {
  const { t } = useTranslation();
  return (
    <div className="space-y-1">
      <InlineError error={error} />
      {errorCode(error) === "invalid_input" && (
        <p data-testid="role-card-refusal" className="font-mono text-xs break-words text-rose-700">
          {t("settings.roles.where", { detail: errorDetail(error) })}
        </p>
      )}
    </div>
  );
}

/** Writes a new card (`card` null) or edits one: the whole file, header and persona. */
export function RoleCardDialog({ card, onClose }: { card: RoleCardDto | null; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const [key, setKey] = useState(card?.key ?? "");
  const [text, setText] = useState(card?.text ?? newCardText(i18n.language));
  const [keyError, setKeyError] = useState<string | null>(null);
  const save = useInvalidatingMutation(api.saveRoleCard, [queryKeys.roleTemplates]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const k = key.trim();
    if (!KEY_SHAPE.test(k)) return setKeyError(t("settings.roles.keyInvalid"));
    save.mutate({ key: k, text }, { onSuccess: onClose });
  };
  return (
    <Modal
      wide
      title={card === null ? t("settings.roles.newTitle") : t("settings.roles.editTitle", { key: card.key })}
      description={card?.builtin ? t("settings.roles.editBuiltinHint") : t("settings.roles.editHint")}
      onClose={onClose}
      testId="role-card-dialog"
    >
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        {card === null && (
          <KeyField
            label={t("settings.roles.key")}
            value={key}
            error={keyError}
            testId="role-card-key"
            onChange={(k) => {
              setKey(k);
              setKeyError(null);
            }}
          />
        )}
        <Field label={t("settings.roles.text")} hint={t("settings.roles.textHint")}>
          {({ id, describedBy }) => (
            <textarea
              id={id}
              aria-describedby={describedBy}
              value={text}
              onChange={(e) => {
                setText(e.target.value);
                save.reset();
              }}
              rows={18}
              spellCheck={false}
              data-testid="role-card-text"
              className={`${inputClass} font-mono text-xs leading-relaxed`}
            />
          )}
        </Field>
        {save.isError && <CardRefusal error={save.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="role-card-save" disabled={save.isPending}>
            {save.isPending ? t("common.saving") : t("common.save")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}

/** A copy of a card under a new key, to edit into a new role. */
export function DuplicateRoleDialog({ card, onClose }: { card: RoleCardDto; onClose: () => void }) {
  const { t } = useTranslation();
  const [key, setKey] = useState(`${card.key}-copy`);
  const [keyError, setKeyError] = useState<string | null>(null);
  const copy = useInvalidatingMutation(api.duplicateRoleCard, [queryKeys.roleTemplates]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const k = key.trim();
    if (!KEY_SHAPE.test(k)) return setKeyError(t("settings.roles.keyInvalid"));
    copy.mutate({ key: card.key, newKey: k }, { onSuccess: onClose });
  };
  return (
    <Modal title={t("settings.roles.duplicateTitle", { key: card.key })} onClose={onClose} testId="duplicate-role-dialog">
      <form onSubmit={onSubmit} noValidate className="space-y-4">
        <KeyField
          label={t("settings.roles.newKey")}
          value={key}
          error={keyError}
          testId="duplicate-role-key"
          onChange={(k) => {
            setKey(k);
            setKeyError(null);
            copy.reset();
          }}
        />
        {copy.isError && <CardRefusal error={copy.error} />}
        <DialogActions>
          <Button onClick={onClose}>{t("common.cancel")}</Button>
          <Button type="submit" variant="primary" data-testid="duplicate-role-save" disabled={copy.isPending}>
            {copy.isPending ? t("common.saving") : t("settings.roles.duplicate")}
          </Button>
        </DialogActions>
      </form>
    </Modal>
  );
}
