import { useMutation } from "@tanstack/react-query";
import { useTranslation } from "react-i18next";
import type { CompanyDto } from "../bindings/CompanyDto";
import { bundleFileName } from "../bundle/bundleFile";
import { ImportBundle } from "../bundle/ImportBundle";
import { Button, InlineError, Spinner } from "../components/ui";
import { api } from "../ipc/api";
import { formatBytes } from "./format";
import { ImportedChecks } from "./ImportedChecks";
import { SettingsSection } from "./SettingsSection";

/**
 * Export / import. Export saves the whole company (no API keys) as one JSON file in Downloads. Import only works
 * in an empty Cubicle, and Settings always has a company, so here it is shown switched off with the
 * way to do it: the first-run screen of a fresh Cubicle (or `cubicle-cli --db NEW import FILE`).
 */
export function BundleSection({ company }: { company: CompanyDto }) {
  const { t, i18n } = useTranslation();
  const exported = useMutation({
    // Saved by the app itself, in the Downloads folder: a webview download would land wherever
    // Cubicle happened to be started.
    mutationFn: () => api.saveCompanyBundle(bundleFileName(company.name)),
  });
  return (
    <SettingsSection id="bundle" title={t("settings.bundle.title")} description={t("settings.bundle.description")} padded>
      <div className="space-y-5">
        <div className="space-y-2">
          <h4 className="text-sm font-medium text-slate-900">{t("settings.bundle.exportTitle")}</h4>
          <p className="text-sm text-slate-500">{t("settings.bundle.exportHint")}</p>
          <Button data-testid="export-company" disabled={exported.isPending} onClick={() => exported.mutate()}>
            {exported.isPending && <Spinner />}
            {exported.isPending ? t("settings.bundle.exporting") : t("settings.bundle.export")}
          </Button>
          {exported.isError && <InlineError error={exported.error} />}
          {exported.isSuccess && (
            <p role="status" data-testid="export-done" className="text-sm text-emerald-700">
              {t("settings.bundle.exported", { file: exported.data.path, size: formatBytes(exported.data.bytes, i18n.language) })}
            </p>
          )}
        </div>
        <div className="space-y-2 border-t border-slate-100 pt-4">
          <h4 className="text-sm font-medium text-slate-900">{t("settings.bundle.importTitle")}</h4>
          <ImportBundle testId="settings-import" disabledReason={t("settings.bundle.importOnlyEmpty")} />
        </div>
        <div className="space-y-2 border-t border-slate-100 pt-4">
          <h4 className="text-sm font-medium text-slate-900">{t("settings.bundle.imported.title")}</h4>
          <ImportedChecks />
        </div>
      </div>
    </SettingsSection>
  );
}
