import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { RelationshipDto } from "../bindings/RelationshipDto";
import { UndoIcon } from "../components/icons";
import { Button, ConfirmDialog } from "../components/ui";
import { api } from "../ipc/api";
import { mindKeys, useInvalidatingMutation } from "../ipc/queries";
import { Avatar } from "../org/Avatar";
import { TONE_BAR, affinityTone, clampAffinity } from "../relationships/affinity";
import { profileHref } from "../shell/route";
import { Card, CardEmpty } from "./Card";
import { formatDate } from "./format";

type Resetting = { kind: "one"; relationship: RelationshipDto } | { kind: "all" } | null;

const TONE_TEXT = { warm: "text-emerald-700", neutral: "text-slate-600", cold: "text-rose-700" } as const;

/** What one employee thinks of each colleague (relationships are one-way), with the boss's resets. */
export function RelationshipsCard({
  employeeId,
  name,
  relationships,
}: {
  employeeId: number;
  name: string;
  relationships: RelationshipDto[];
}) {
  const { t, i18n } = useTranslation();
  const [resetting, setResetting] = useState<Resetting>(null);
  const sorted = [...relationships].sort((a, b) => b.affinity - a.affinity || a.otherName.localeCompare(b.otherName));

  return (
    <Card
      title={t("profile.relationships.title")}
      description={t("profile.relationships.description", { name })}
      testId="profile-relationships"
      padded={false}
      actions={
        relationships.length > 0 ? (
          <Button
            variant="ghost"
            className="h-8 px-2.5 text-rose-600 hover:bg-rose-50 hover:text-rose-700"
            data-testid="relationships-reset-all"
            onClick={() => setResetting({ kind: "all" })}
          >
            <UndoIcon />
            {t("profile.relationships.resetAll")}
          </Button>
        ) : undefined
      }
    >
      {sorted.length === 0 ? (
        <CardEmpty testId="relationships-empty">{t("profile.relationships.empty", { name })}</CardEmpty>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="relationship-list">
          {sorted.map((r) => {
            const affinity = clampAffinity(r.affinity);
            const tone = affinityTone(affinity);
            const other = r.otherName || t("chats.formerEmployee");
            return (
              <li key={r.otherId} data-testid={`relationship-${r.otherId}`} className="flex items-start gap-3 px-5 py-3">
                <a href={profileHref(r.otherId)} tabIndex={-1} aria-hidden="true" className="shrink-0">
                  <Avatar name={other} size={32} />
                </a>
                <div className="min-w-0 flex-1">
                  <div className="flex items-center justify-between gap-3">
                    <a
                      href={profileHref(r.otherId)}
                      data-testid={`relationship-${r.otherId}-link`}
                      className="truncate text-sm font-medium text-slate-900 hover:underline"
                    >
                      {other}
                    </a>
                    <span className={`shrink-0 text-xs font-medium tabular-nums ${TONE_TEXT[tone]}`}>
                      {t(`profile.relationships.tone.${tone}`)} · {affinity}
                    </span>
                  </div>
                  <div
                    role="meter"
                    aria-label={t("profile.relationships.affinityLabel", { name, other })}
                    aria-valuemin={1}
                    aria-valuemax={100}
                    aria-valuenow={affinity}
                    data-testid={`relationship-${r.otherId}-affinity`}
                    data-tone={tone}
                    className="mt-1.5 h-1.5 overflow-hidden rounded-full bg-slate-100"
                  >
                    <div className={`h-full rounded-full ${TONE_BAR[tone]}`} style={{ width: `${affinity}%` }} />
                  </div>
                  <p className="mt-1.5 text-sm break-words text-slate-600">
                    {r.impression ? (
                      <q className="italic">{r.impression}</q>
                    ) : (
                      <span className="text-slate-400">{t("profile.relationships.noImpression")}</span>
                    )}
                  </p>
                  <p className="mt-1 text-xs text-slate-400">
                    {t("profile.relationships.interactions", { count: r.interactions })} ·{" "}
                    {t("profile.relationships.updated", { date: formatDate(r.updatedAt, i18n.language) })}
                  </p>
                </div>
                <Button
                  variant="ghost"
                  className="h-7 shrink-0 px-2 text-xs"
                  data-testid={`relationship-${r.otherId}-reset`}
                  aria-label={t("profile.relationships.resetLabel", { name, other })}
                  onClick={() => setResetting({ kind: "one", relationship: r })}
                >
                  {t("profile.relationships.reset")}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      {resetting && (
        <ResetDialog
          employeeId={employeeId}
          name={name}
          count={relationships.length}
          resetting={resetting}
          onClose={() => setResetting(null)}
        />
      )}
    </Card>
  );
}

function ResetDialog({
  employeeId,
  name,
  count,
  resetting,
  onClose,
}: {
  employeeId: number;
  name: string;
  count: number;
  resetting: NonNullable<Resetting>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const reset = useInvalidatingMutation(api.resetRelationships, mindKeys(employeeId));
  const one = resetting.kind === "one" ? resetting.relationship : null;
  const other = one?.otherName || t("chats.formerEmployee");
  return (
    <ConfirmDialog
      title={one ? t("profile.relationships.resetTitle", { name, other }) : t("profile.relationships.resetAllTitle", { name })}
      description={
        one ? t("profile.relationships.resetBody", { name, other }) : t("profile.relationships.resetAllBody", { name, count })
      }
      testId="reset-relationships-dialog"
      confirmLabel={one ? t("profile.relationships.resetConfirm") : t("profile.relationships.resetAllConfirm")}
      pending={reset.isPending}
      error={reset.isError ? reset.error : null}
      onConfirm={() => reset.mutate({ employeeId, otherId: one ? one.otherId : null }, { onSuccess: onClose })}
      onClose={onClose}
    />
  );
}
