import { useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { Language } from "../bindings/Language";
import { Button, Field, InlineError, inputClass } from "../components/ui";
import { LANGUAGES, isLanguage } from "../domain";
import { currentLanguage, setLanguage } from "../i18n";
import { ImportBundle } from "../bundle/ImportBundle";
import { api } from "../ipc/api";
import { useOrgMutation } from "../ipc/queries";
import { Logo } from "../shell/AppShell";

/** First run: shown while `get_org` reports no company. */
export function SetupWizard() {
  const { t } = useTranslation();
  const setup = useOrgMutation(api.setupCompany);
  const [name, setName] = useState("");
  const [bossName, setBossName] = useState("");
  const [language, setLanguageChoice] = useState<Language>(currentLanguage());
  const [mission, setMission] = useState("");
  const [submitted, setSubmitted] = useState(false);

  const nameError = submitted && name.trim() === "" ? t("wizard.companyNameRequired") : null;
  const bossError = submitted && bossName.trim() === "" ? t("wizard.bossNameRequired") : null;

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (name.trim() === "" || bossName.trim() === "") return;
    setup.mutate({
      name: name.trim(),
      bossName: bossName.trim(),
      language,
      mission: mission.trim() === "" ? null : mission.trim(),
    });
  };

  return (
    <div className="flex min-h-full items-center justify-center bg-gradient-to-b from-slate-50 to-slate-100 px-4 py-12">
      <div className="w-full max-w-lg">
        <div className="mb-6 flex items-center gap-2.5">
          <Logo />
          <span className="text-[15px] font-semibold tracking-tight text-slate-900">{t("app.name")}</span>
        </div>
        <form
          noValidate
          onSubmit={onSubmit}
          aria-labelledby="wizard-title"
          className="rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200"
        >
          <h1 id="wizard-title" className="text-xl font-semibold tracking-tight text-slate-900">
            {t("wizard.title")}
          </h1>
          <p className="mt-1 text-sm text-slate-500">{t("wizard.subtitle")}</p>

          <div className="mt-7 space-y-5">
            <Field label={t("wizard.companyName")} error={nameError}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  data-testid="wizard-company-name"
                  className={inputClass}
                  value={name}
                  autoFocus
                  autoComplete="organization"
                  placeholder={t("wizard.companyNamePlaceholder")}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) => setName(e.target.value)}
                />
              )}
            </Field>
            <Field label={t("wizard.bossName")} hint={t("wizard.bossNameHint")} error={bossError}>
              {({ id, describedBy, invalid }) => (
                <input
                  id={id}
                  data-testid="wizard-boss-name"
                  className={inputClass}
                  value={bossName}
                  autoComplete="name"
                  placeholder={t("wizard.bossNamePlaceholder")}
                  aria-invalid={invalid}
                  aria-describedby={describedBy}
                  onChange={(e) => setBossName(e.target.value)}
                />
              )}
            </Field>
            <Field label={t("wizard.language")} hint={t("wizard.languageHint")}>
              {({ id, describedBy }) => (
                <select
                  id={id}
                  data-testid="wizard-language"
                  className={inputClass}
                  value={language}
                  aria-describedby={describedBy}
                  onChange={(e) => {
                    const next = e.target.value;
                    if (!isLanguage(next)) return;
                    setLanguageChoice(next);
                    // Preview the choice at once: the rest of the wizard switches language too.
                    void setLanguage(next);
                  }}
                >
                  {LANGUAGES.map((l) => (
                    <option key={l} value={l}>
                      {t(`language.${l}`)}
                    </option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t("wizard.mission")} optional>
              {({ id }) => (
                <textarea
                  id={id}
                  data-testid="wizard-mission"
                  className={`${inputClass} min-h-20 resize-y`}
                  value={mission}
                  placeholder={t("wizard.missionPlaceholder")}
                  onChange={(e) => setMission(e.target.value)}
                />
              )}
            </Field>
            {setup.isError && <InlineError error={setup.error} />}
          </div>

          <Button
            type="submit"
            variant="primary"
            data-testid="wizard-submit"
            disabled={setup.isPending}
            className="mt-8 h-10 w-full"
          >
            {setup.isPending ? t("wizard.submitting") : t("wizard.submit")}
          </Button>
        </form>
        <section
          aria-labelledby="wizard-import-title"
          data-testid="wizard-import"
          className="mt-4 rounded-2xl bg-white/70 px-8 py-5 ring-1 ring-slate-200"
        >
          <h2 id="wizard-import-title" className="text-sm font-semibold text-slate-900">
            {t("wizard.importTitle")}
          </h2>
          <p className="mt-1 mb-3 text-sm text-slate-500">{t("wizard.importHint")}</p>
          <ImportBundle testId="wizard-import-bundle" />
        </section>
      </div>
    </div>
  );
}
