import { useState, type FormEvent, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import type { Language } from "../bindings/Language";
import type { SetupCompany } from "../bindings/SetupCompany";
import { Button, Field, InlineError, inputClass } from "../components/ui";
import { LANGUAGES, isLanguage } from "../domain";
import { currentLanguage, setLanguage } from "../i18n";
import { ImportBundle } from "../bundle/ImportBundle";
import { ServerPanel } from "../server/ServerSignIn";
import { api } from "../ipc/api";
import { useOrgMutation } from "../ipc/queries";
import { Logo } from "../shell/AppShell";
import { navigate } from "../shell/route";
import { ThinkingStep } from "./ThinkingStep";
import { pathTarget, recommendedPath, type ThinkingPath } from "./paths";

type Step = "company" | "thinking";

/**
 * First run: shown while `get_org` reports no company. Two steps: the company, then how its employees
 * think (the built-in model, a better local model, or a provider key), said honestly.
 */
export function SetupWizard() {
  const { t } = useTranslation();
  const [step, setStep] = useState<Step>("company");
  const [draft, setDraft] = useState<CompanyDraft>(() => ({ name: "", bossName: "", language: currentLanguage(), mission: "" }));
  const { name, bossName, language, mission } = draft;
  const [submitted, setSubmitted] = useState(false);
  // Null until the boss picks one: the language's recommendation (or the built-in model) stands.
  const [picked, setPicked] = useState<ThinkingPath | null>(null);
  const path = picked ?? recommendedPath(language) ?? "builtin";

  // Go where the chosen path is set up as soon as the company exists, before the app leaves the wizard.
  const setup = useOrgMutation(async (input: SetupCompany) => {
    const company = await api.setupCompany(input);
    const target = pathTarget(path);
    if (target) navigate(target);
    return company;
  });

  const nameError = submitted && name.trim() === "" ? t("wizard.companyNameRequired") : null;
  const bossError = submitted && bossName.trim() === "" ? t("wizard.bossNameRequired") : null;

  const onNext = (e: FormEvent) => {
    e.preventDefault();
    setSubmitted(true);
    if (name.trim() === "" || bossName.trim() === "") return;
    setStep("thinking");
  };

  const onCreate = (e: FormEvent) => {
    e.preventDefault();
    setup.mutate({
      name: name.trim(),
      bossName: bossName.trim(),
      language,
      mission: mission.trim() === "" ? null : mission.trim(),
    });
  };

  return (
    <WizardFrame step={step}>
      {step === "company" ? (
        <>
          <WizardCard onSubmit={onNext}>
            <h1 id="wizard-title" className="text-xl font-semibold tracking-tight text-slate-900">
              {t("wizard.title")}
            </h1>
            <p className="mt-1 text-sm text-slate-500">{t("wizard.subtitle")}</p>
            <button
              type="button"
              data-testid="wizard-to-join"
              className="mt-2 text-sm font-medium text-slate-700 underline-offset-2 hover:underline"
              onClick={() => document.getElementById("wizard-join")?.scrollIntoView?.({ behavior: "smooth", block: "start" })}
            >
              {t("wizard.toJoin")}
            </button>
            <CompanyFields
              draft={draft}
              nameError={nameError}
              bossError={bossError}
              onChange={(patch) => {
                setDraft((d) => ({ ...d, ...patch }));
                // Preview a language at once: the rest of the wizard switches language too.
                if (patch.language) void setLanguage(patch.language);
              }}
            />
            <Button type="submit" variant="primary" data-testid="wizard-next" className="mt-8 h-10 w-full">
              {t("wizard.next")}
            </Button>
          </WizardCard>
          <ImportSection />
          <JoinSection />
        </>
      ) : (
        <WizardCard onSubmit={onCreate}>
          <ThinkingStep language={language} path={path} onPick={setPicked} />
          {setup.isError && (
            <div className="mt-5">
              <InlineError error={setup.error} />
            </div>
          )}
          <div className="mt-8 flex gap-3">
            <Button data-testid="wizard-back" className="h-10" disabled={setup.isPending} onClick={() => setStep("company")}>
              {t("wizard.back")}
            </Button>
            <Button type="submit" variant="primary" data-testid="wizard-submit" disabled={setup.isPending} className="h-10 flex-1">
              {setup.isPending ? t("wizard.submitting") : t("wizard.submit")}
            </Button>
          </div>
        </WizardCard>
      )}
    </WizardFrame>
  );
}

/** The page around both steps: the logo, which step this is, and a column as wide as the step needs. */
function WizardFrame({ step, children }: { step: Step; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    // The document never scrolls (index.css): the wizard is its own pane, so every part of it
    // (the import and join sections below the first card) is reachable on a small window.
    <div data-testid="wizard-scroll" className="h-full overflow-y-auto bg-gradient-to-b from-slate-50 to-slate-100">
      <div className="flex min-h-full items-center justify-center px-4 py-12">
        <div className={`w-full ${step === "company" ? "max-w-lg" : "max-w-2xl"}`}>
          <div className="mb-6 flex items-center justify-between gap-3">
            <div className="flex items-center gap-2.5">
              <Logo />
              <span className="text-[15px] font-semibold tracking-tight text-slate-900">{t("app.name")}</span>
            </div>
            <span data-testid="wizard-step" className="text-xs font-medium text-slate-500">
              {t("wizard.stepOf", { step: step === "company" ? 1 : 2, total: 2 })}
            </span>
          </div>
          {children}
        </div>
      </div>
    </div>
  );
}

function WizardCard({ onSubmit, children }: { onSubmit: (e: FormEvent) => void; children: ReactNode }) {
  return (
    <form noValidate onSubmit={onSubmit} aria-labelledby="wizard-title" className="rounded-2xl bg-white p-8 shadow-sm ring-1 ring-slate-200">
      {children}
    </form>
  );
}

/** What the first step asks, as typed (trimmed on submit). */
type CompanyDraft = { name: string; bossName: string; language: Language; mission: string };

function CompanyFields({
  draft,
  nameError,
  bossError,
  onChange,
}: {
  draft: CompanyDraft;
  nameError: string | null;
  bossError: string | null;
  onChange: (patch: Partial<CompanyDraft>) => void;
}) {
  const { t } = useTranslation();
  const { name, bossName, language, mission } = draft;
  return (
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
            onChange={(e) => onChange({ name: e.target.value })}
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
            onChange={(e) => onChange({ bossName: e.target.value })}
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
              if (isLanguage(next)) onChange({ language: next });
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
            onChange={(e) => onChange({ mission: e.target.value })}
          />
        )}
      </Field>
    </div>
  );
}

function ImportSection() {
  const { t } = useTranslation();
  return (
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
  );
}

/** A person whose company runs on a server joins it here, with the sign-in the boss gave them. */
function JoinSection() {
  const { t } = useTranslation();
  return (
    <section id="wizard-join" aria-labelledby="wizard-join-title" data-testid="wizard-join" className="mt-4 rounded-2xl bg-white/70 px-8 py-5 ring-1 ring-slate-200">
      <h2 id="wizard-join-title" className="text-sm font-semibold text-slate-900">
        {t("wizard.joinTitle")}
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-500">{t("wizard.joinHint")}</p>
      <ServerPanel />
    </section>
  );
}
