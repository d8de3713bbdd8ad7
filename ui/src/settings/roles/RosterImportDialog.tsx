import { useQuery } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { RoleImport } from "../../bindings/RoleImport";
import type { RosterFile } from "../../bindings/RosterFile";
import { Badge, Button, DialogActions, InlineError, Modal, Spinner, type Tone } from "../../components/ui";
import { api } from "../../ipc/api";
import { errorDetail } from "../../ipc/errors";
import { queryKeys, useInvalidatingMutation } from "../../ipc/queries";

/** A list of card keys under a heading, when there are any. */
function Keys({ testId, title, keys, tone }: { testId: string; title: string; keys: string[]; tone: Tone }) {
  if (keys.length === 0) return null;
  return (
    <div data-testid={testId} className="space-y-1">
      <h4 className="text-sm font-medium text-slate-800">{title}</h4>
      <div className="flex flex-wrap gap-1">
        {keys.map((k) => (
          <Badge key={k} tone={tone} className="font-mono">
            {k}
          </Badge>
        ))}
      </div>
    </div>
  );
}

const COUNT_TONES: Record<Tone, string> = {
  green: "text-emerald-700",
  indigo: "text-indigo-700",
  slate: "text-slate-700",
  rose: "text-rose-700",
  amber: "text-amber-800",
};

/** What the roster holds against the library: new, changed, unchanged, unreadable (where and why), not cards. */
function Preview({ report }: { report: RoleImport }) {
  const { t } = useTranslation();
  const counts: [string, number, Tone][] = [
    ["new", report.new.length, "green"],
    ["changed", report.changed.length, "indigo"],
    ["unchanged", report.unchanged.length, "slate"],
    ["unreadable", report.unreadable.length, "rose"],
  ];
  return (
    <div className="space-y-4">
      <dl data-testid="roster-counts" className="grid grid-cols-4 gap-2">
        {counts.map(([name, n, tone]) => (
          <div key={name} className="rounded-lg bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
            <dt className="text-xs text-slate-500">{t(`settings.roles.preview.${name}`)}</dt>
            <dd data-testid={`roster-count-${name}`} className={`text-xl font-semibold tabular-nums ${n > 0 ? COUNT_TONES[tone] : "text-slate-400"}`}>
              {n}
            </dd>
          </div>
        ))}
      </dl>
      <Keys testId="roster-new-keys" title={t("settings.roles.preview.newCards")} keys={report.new} tone="green" />
      <Keys testId="roster-changed-keys" title={t("settings.roles.preview.changedCards")} keys={report.changed} tone="indigo" />
      {report.unreadable.length > 0 && (
        <div data-testid="roster-unreadable" className="space-y-1">
          <h4 className="text-sm font-medium text-slate-800">{t("settings.roles.preview.unreadableCards")}</h4>
          <ul className="space-y-1 text-xs">
            {report.unreadable.map((e) => (
              <li key={`${e.file}:${e.line}`} className="font-mono break-words text-rose-700">
                {e.file}
                {e.line > 0 && `:${e.line}`}
                {e.key && ` (${e.key})`}: {e.reason}
              </li>
            ))}
          </ul>
        </div>
      )}
      {report.unknownTools.length > 0 && (
        <div data-testid="roster-unknown-tools" className="space-y-1">
          <h4 className="text-sm font-medium text-slate-800">{t("settings.roles.preview.unknownTools")}</h4>
          <ul className="space-y-0.5 text-xs text-amber-800">
            {report.unknownTools.map((u) => (
              <li key={u.key}>
                <span className="font-mono">{u.key}</span>
                {t("common.colon")}
                {u.tools.join(t("settings.roles.separator"))}
              </li>
            ))}
          </ul>
        </div>
      )}
      {report.skipped.length > 0 && <p className="text-xs text-slate-500">{t("settings.roles.preview.skipped", { count: report.skipped.length, files: report.skipped.join(", ") })}</p>}
    </div>
  );
}

/**
 * The import in two steps: what the picked roster would do (nothing written), then the import itself,
 * all or nothing. Unreadable cards are left out with where and why; unknown tools are never granted.
 */
export function RosterImportDialog({ files, onClose }: { files: RosterFile[]; onClose: () => void }) {
  const { t } = useTranslation();
  const preview = useQuery({
    queryKey: ["roster-preview", files],
    queryFn: () => api.previewRoster({ files }),
    gcTime: 0,
    retry: false,
  });
  const run = useInvalidatingMutation(api.importRoster, [queryKeys.roleTemplates]);
  const report = run.data ?? preview.data;
  const writes = preview.data ? preview.data.new.length + preview.data.changed.length : 0;
  const names = files.map((f) => f.name).join(", ");
  return (
    <Modal wide title={t("settings.roles.preview.title")} description={names} onClose={onClose} testId="roster-import-dialog">
      {preview.isPending && (
        <div role="status" className="flex items-center gap-2 text-sm text-slate-500">
          <Spinner />
          {t("settings.roles.preview.reading")}
        </div>
      )}
      {preview.isError && (
        <div className="space-y-1">
          <InlineError error={preview.error} />
          <p data-testid="roster-refusal" className="font-mono text-xs break-words text-rose-700">
            {t("settings.roles.where", { detail: errorDetail(preview.error) })}
          </p>
        </div>
      )}
      {report && <Preview report={report} />}
      {run.isError && (
        <div className="mt-3">
          <InlineError error={run.error} />
        </div>
      )}
      {run.isSuccess && (
        <p role="status" data-testid="roster-imported" className="mt-4 text-sm text-emerald-700">
          {t("settings.roles.preview.done", { added: run.data.new.length, changed: run.data.changed.length })}
        </p>
      )}
      <DialogActions>
        <Button onClick={onClose}>{run.isSuccess ? t("common.close") : t("common.cancel")}</Button>
        {!run.isSuccess && (
          <Button variant="primary" data-testid="roster-import-confirm" disabled={writes === 0 || run.isPending} onClick={() => run.mutate({ files })}>
            {run.isPending
              ? t("settings.roles.preview.importing")
              : writes === 0 && preview.isSuccess
                ? t("settings.roles.preview.nothing")
                : t("settings.roles.preview.confirm", { count: writes })}
          </Button>
        )}
      </DialogActions>
    </Modal>
  );
}
