import { useTranslation } from "react-i18next";
import type { CompanyDto } from "../bindings/CompanyDto";
import { GlobeIcon } from "../components/icons";
import { LANGUAGES, isLanguage } from "../domain";
import { setLanguage } from "../i18n";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { useOrgMutation } from "../ipc/queries";
import { WithCode } from "../components/WithCode";

/** The company's language: changing it here changes it for the app and for the employees. */
export function LanguageSwitch({ company, testId = "language-switch" }: { company: CompanyDto; testId?: string }) {
  const { t } = useTranslation();
  const update = useOrgMutation(api.updateCompany);
  return (
    <div className="flex items-center gap-2">
      <label className="flex items-center gap-1.5 rounded-lg px-2 py-1 text-sm text-slate-600 ring-1 ring-slate-200 ring-inset focus-within:ring-indigo-500 hover:bg-slate-50">
        <GlobeIcon className="text-slate-400" />
        <span className="sr-only">{t("shell.languageLabel")}</span>
        <select
          data-testid={testId}
          className="cursor-pointer appearance-none bg-transparent pr-1 text-sm font-medium text-slate-700 focus:outline-none"
          value={company.language}
          disabled={update.isPending}
          onChange={(e) => {
            const language = e.target.value;
            if (!isLanguage(language)) return;
            update.mutate(
              { name: null, mission: null, bossName: null, language },
              { onSuccess: (saved) => void setLanguage(saved.language) },
            );
          }}
        >
          {LANGUAGES.map((l) => (
            <option key={l} value={l}>
              {t(`language.${l}`)}
            </option>
          ))}
        </select>
      </label>
      {update.isError && (
        <span role="alert" className="text-xs text-rose-600">
          <WithCode text={t("shell.languageFailed", { message: t(errorKey(update.error)) })} />
        </span>
      )}
    </div>
  );
}
