import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useId, useState, type ChangeEvent } from "react";
import { useTranslation } from "react-i18next";
import { InlineError, Spinner } from "../components/ui";
import { api } from "../ipc/api";
import { readFileText } from "./bundleFile";
import { WithCode } from "../components/WithCode";

/**
 * Pick a company bundle file and import it. Only an empty Cubicle accepts one: `disabledReason`
 * turns the control off with that sentence (Settings, where a company always exists); the backend
 * refuses a busy database anyway (`database_not_empty`).
 */
export function ImportBundle({ disabledReason, testId = "import-bundle" }: { disabledReason?: string; testId?: string }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const inputId = useId();
  const [fileName, setFileName] = useState<string | null>(null);
  const imported = useMutation({
    mutationFn: async (file: File) => api.importCompany(await readFileText(file)),
    // A whole company arrived: everything the UI has cached is stale.
    onSuccess: () => client.invalidateQueries(),
  });
  const disabled = disabledReason !== undefined || imported.isPending;

  const onChange = (e: ChangeEvent<HTMLInputElement>) => {
    const file = e.target.files?.[0];
    // Let the same file be chosen again after an error.
    e.target.value = "";
    if (!file) return;
    setFileName(file.name);
    imported.mutate(file);
  };

  return (
    <div className="space-y-2" data-testid={testId}>
      <label
        htmlFor={inputId}
        aria-disabled={disabled}
        className={`inline-flex h-9 items-center gap-1.5 rounded-lg px-3.5 text-sm font-medium shadow-sm ring-1 ring-inset ${
          disabled
            ? "cursor-not-allowed bg-slate-50 text-slate-400 ring-slate-200"
            : "cursor-pointer bg-white text-slate-700 ring-slate-300 hover:bg-slate-50"
        }`}
      >
        {imported.isPending ? <Spinner /> : null}
        {imported.isPending ? t("bundle.importing") : t("bundle.chooseFile")}
      </label>
      <input
        id={inputId}
        data-testid={`${testId}-file`}
        type="file"
        accept="application/json,.json"
        className="sr-only"
        disabled={disabled}
        onChange={onChange}
      />
      {disabledReason !== undefined && (
        <p data-testid={`${testId}-disabled`} className="text-sm text-slate-500">
          <WithCode text={disabledReason} />
        </p>
      )}
      {fileName && imported.isPending && <p className="text-xs text-slate-500">{fileName}</p>}
      {imported.isError && <InlineError error={imported.error} />}
      {imported.isSuccess && (
        <p role="status" data-testid={`${testId}-done`} className="text-sm text-emerald-700">
          {t("bundle.imported", { name: imported.data.companyName, count: imported.data.employees })}
        </p>
      )}
    </div>
  );
}
