import { useState } from "react";
import { useTranslation } from "react-i18next";
import type { MemoryDto } from "../bindings/MemoryDto";
import { TrashIcon } from "../components/icons";
import { Badge, ConfirmDialog } from "../components/ui";
import { api } from "../ipc/api";
import { mindKeys, useInvalidatingMutation } from "../ipc/queries";
import { Card, CardEmpty } from "./Card";
import { MEMORY_CAPS, MEMORY_KINDS, filterMemories, formatDate, formatRelative, type MemoryFilter } from "./format";

const FILTERS: MemoryFilter[] = ["all", ...MEMORY_KINDS];

const VISIBILITY_TONE = { private: "slate", team: "indigo", public: "green" } as const;

/** Importance 1–10 as a small square, darker the more it matters. */
function Importance({ value }: { value: number }) {
  const { t } = useTranslation();
  const tone = value >= 8 ? "bg-slate-900 text-white" : value >= 5 ? "bg-slate-200 text-slate-800" : "bg-slate-100 text-slate-500";
  return (
    <span
      title={t("profile.memories.importance", { value })}
      className={`inline-flex size-7 shrink-0 items-center justify-center rounded-md text-xs font-semibold tabular-nums ${tone}`}
    >
      <span aria-hidden="true">{value}</span>
      <span className="sr-only">{t("profile.memories.importance", { value })}</span>
    </span>
  );
}

export function MemoriesCard({ employeeId, name, memories }: { employeeId: number; name: string; memories: MemoryDto[] }) {
  const { t, i18n } = useTranslation();
  const [filter, setFilter] = useState<MemoryFilter>("all");
  const [deleting, setDeleting] = useState<MemoryDto | null>(null);
  const shown = filterMemories(memories, filter);
  const count = (f: MemoryFilter) => (f === "all" ? memories.length : memories.filter((m) => m.kind === f).length);
  const now = Date.now();

  return (
    <Card
      title={t("profile.memories.title")}
      description={t("profile.memories.description", {
        longTerm: count("long_term"),
        longTermCap: MEMORY_CAPS.long_term,
        shortTerm: count("short_term"),
        shortTermCap: MEMORY_CAPS.short_term,
      })}
      testId="profile-memories"
      padded={false}
      actions={
        <div role="group" aria-label={t("profile.memories.filter")} className="flex rounded-lg bg-slate-100 p-0.5">
          {FILTERS.map((f) => (
            <button
              key={f}
              type="button"
              aria-pressed={filter === f}
              data-testid={`memory-filter-${f}`}
              onClick={() => setFilter(f)}
              className={`rounded-md px-2.5 py-1 text-xs font-medium transition-colors focus-visible:outline-2 focus-visible:outline-indigo-500 ${
                filter === f ? "bg-white text-slate-900 shadow-sm" : "text-slate-500 hover:text-slate-800"
              }`}
            >
              {t(`profile.memories.filters.${f}`)} <span className="text-slate-400 tabular-nums">{count(f)}</span>
            </button>
          ))}
        </div>
      }
    >
      {shown.length === 0 ? (
        <CardEmpty testId="memories-empty">
          {memories.length === 0 ? t("profile.memories.empty", { name }) : t("profile.memories.emptyFiltered")}
        </CardEmpty>
      ) : (
        <ul className="divide-y divide-slate-100" data-testid="memory-list">
          {shown.map((m) => (
            <li key={m.id} data-testid={`memory-${m.id}`} data-kind={m.kind} className="group flex items-start gap-3 px-5 py-3">
              <Importance value={m.importance} />
              <div className="min-w-0 flex-1">
                <p className="text-sm break-words whitespace-pre-wrap text-slate-800">{m.content}</p>
                <p className="mt-1 flex flex-wrap items-center gap-x-2 gap-y-1 text-xs text-slate-500">
                  <span>{t(`profile.memories.kind.${m.kind}`)}</span>
                  <Badge tone={VISIBILITY_TONE[m.visibility]} title={t(`profile.memories.visibilityHint.${m.visibility}`)}>
                    {t(`profile.memories.visibility.${m.visibility}`)}
                  </Badge>
                  {m.expiresAt ? (
                    <span data-testid={`memory-${m.id}-expiry`}>
                      {t("profile.memories.expires", { when: formatRelative(m.expiresAt, now, i18n.language) })}
                    </span>
                  ) : (
                    <span>{t("profile.memories.remembered", { date: formatDate(m.createdAt, i18n.language) })}</span>
                  )}
                </p>
              </div>
              <button
                type="button"
                data-testid={`memory-${m.id}-delete`}
                aria-label={t("profile.memories.deleteLabel", { content: m.content.slice(0, 60) })}
                title={t("profile.memories.delete")}
                onClick={() => setDeleting(m)}
                className="rounded-md p-1.5 text-slate-400 transition-colors hover:bg-rose-50 hover:text-rose-600 focus-visible:outline-2 focus-visible:outline-indigo-500"
              >
                <TrashIcon />
              </button>
            </li>
          ))}
        </ul>
      )}
      {deleting && (
        <DeleteMemoryDialog employeeId={employeeId} name={name} memory={deleting} onClose={() => setDeleting(null)} />
      )}
    </Card>
  );
}

function DeleteMemoryDialog({
  employeeId,
  name,
  memory,
  onClose,
}: {
  employeeId: number;
  name: string;
  memory: MemoryDto;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const remove = useInvalidatingMutation(api.deleteMemory, mindKeys(employeeId));
  return (
    <ConfirmDialog
      title={t("profile.memories.deleteTitle")}
      description={t("profile.memories.deleteBody", { name })}
      testId="delete-memory-dialog"
      confirmLabel={t("profile.memories.deleteConfirm")}
      pending={remove.isPending}
      error={remove.isError ? remove.error : null}
      onConfirm={() => remove.mutate({ memoryId: memory.id }, { onSuccess: onClose })}
      onClose={onClose}
    >
      <blockquote className="rounded-lg bg-slate-50 px-3 py-2 text-sm break-words whitespace-pre-wrap text-slate-700 ring-1 ring-slate-200 ring-inset">
        {memory.content}
      </blockquote>
    </ConfirmDialog>
  );
}
