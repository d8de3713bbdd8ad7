import { useMutation } from "@tanstack/react-query";
import { useId, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ConnectionDto } from "../bindings/ConnectionDto";
import type { SignedIn } from "../bindings/SignedIn";
import { AlertIcon } from "../components/icons";
import { Button, InlineError, LoadingState, Spinner, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { errorCode, toIpcError } from "../ipc/errors";
import { useConnection, useDeskPerson } from "../ipc/queries";
import { routeHref } from "../shell/route";
import { WithCode } from "../components/WithCode";

/**
 * Joining a company that runs on a server, with the sign-in the boss gave a person (docs/people.md).
 * The sign-in is checked by the backend and kept in the OS keychain; it is never shown again. The app
 * then starts again on that company.
 */
export function SignInForm() {
  const { t } = useTranslation();
  const id = useId();
  const [url, setUrl] = useState("");
  // The pasted text leaves the page's state as soon as the backend has it.
  const signIn = useMutation({ mutationFn: api.signInToServer, onSettled: () => setUrl("") });
  if (signIn.isSuccess) return <SignedInNotice who={signIn.data} />;
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    if (url.trim() !== "") signIn.mutate({ url });
  };
  return (
    <form onSubmit={onSubmit} noValidate data-testid="server-sign-in" className="space-y-2">
      <label htmlFor={id} className="block text-sm font-medium text-slate-700">
        {t("server.label")}
      </label>
      <div className="flex gap-2">
        <input
          id={id}
          type="password"
          autoComplete="off"
          spellCheck={false}
          data-testid="server-sign-in-url"
          className={`${inputClass} font-mono`}
          placeholder="postgres://…"
          value={url}
          disabled={signIn.isPending}
          onChange={(e) => setUrl(e.target.value)}
        />
        <Button type="submit" variant="primary" data-testid="server-sign-in-submit" disabled={signIn.isPending || url.trim() === ""}>
          {signIn.isPending ? (
            <span className="inline-flex items-center gap-2">
              <Spinner />
              {t("server.checking")}
            </span>
          ) : (
            t("server.signIn")
          )}
        </Button>
      </div>
      <p className="text-xs text-slate-500">{t("server.hint")}</p>
      {signIn.isError && <SignInError error={signIn.error} />}
    </form>
  );
}

/** Why a sign-in was not kept, in the person's language; the server's own words under it. */
function SignInError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  const code = errorCode(error);
  const lead = {
    invalid_input: "server.notAServer",
    sign_in_refused: "server.refused",
    company_missing: "server.noCompany",
    secret_unavailable: "server.keychain",
  }[code as string];
  if (lead === undefined) return <InlineError error={error} />;
  const detail = code === "sign_in_refused" ? (toIpcError(error)?.message ?? null) : null;
  return (
    <div role="alert" data-testid="server-sign-in-error" className="rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-inset ring-rose-200">
      <div className="flex items-start gap-2">
        <AlertIcon className="mt-0.5 shrink-0" />
        <span>
          <WithCode text={t(lead)} />
        </span>
      </div>
      {detail && <p className="mt-1 pl-6 font-mono text-xs break-all text-rose-600">{detail}</p>}
    </div>
  );
}

/** Kept: whom it opens the company as, and the way there (the app starts again). */
function SignedInNotice({ who }: { who: SignedIn }) {
  const { t } = useTranslation();
  return (
    <div data-testid="server-signed-in" className="space-y-3 rounded-lg bg-emerald-50 px-4 py-3 text-sm text-emerald-800 ring-1 ring-inset ring-emerald-200">
      <p>
        {who.person === null
          ? t("server.signedInAsBoss", { company: who.company, server: who.server })
          : t("server.signedInAs", { company: who.company, server: who.server, person: who.person })}
      </p>
      <RestartButton label={t("server.openNow")} testId="server-restart" />
    </div>
  );
}

function RestartButton({ label, testId, variant = "primary" }: { label: string; testId: string; variant?: "primary" | "secondary" }) {
  const { t } = useTranslation();
  const restart = useMutation({ mutationFn: api.restartApp });
  return (
    <div className="space-y-2">
      <Button variant={variant} data-testid={testId} disabled={restart.isPending} onClick={() => restart.mutate()}>
        {restart.isPending ? t("server.restarting") : label}
      </Button>
      {restart.isError && <InlineError error={restart.error} />}
    </div>
  );
}

/** The saved sign-in did not open its company at start: why, try again, or forget it. */
function SignInFailed({ why }: { why: string }) {
  const { t } = useTranslation();
  const forget = useMutation({ mutationFn: api.signOutOfServer });
  if (forget.isSuccess) return <SignInForm />;
  return (
    <div role="alert" data-testid="server-sign-in-failed" className="space-y-3 rounded-lg bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-inset ring-amber-200">
      <p>{t("server.failedAtStart")}</p>
      <p className="font-mono text-xs break-all text-amber-800">{why}</p>
      <div className="flex flex-wrap items-start gap-2">
        <RestartButton label={t("server.tryAgain")} testId="server-try-again" />
        <Button data-testid="server-forget" disabled={forget.isPending} onClick={() => forget.mutate()}>
          {t("server.forget")}
        </Button>
      </div>
      {forget.isError && <InlineError error={forget.error} />}
    </div>
  );
}

/** Signed in: where, as whom, and signing out (the app then opens this computer's company). */
function SignedInHere({ server }: { server: string | null }) {
  const { t } = useTranslation();
  const name = useDeskPerson()?.name ?? null;
  const signOut = useMutation({ mutationFn: api.signOutOfServer });
  if (signOut.isSuccess) {
    return (
      <div data-testid="server-signed-out" className="space-y-3 text-sm text-slate-700">
        <p>{t("server.signedOut")}</p>
        <RestartButton label={t("server.restartNow")} testId="server-restart" />
      </div>
    );
  }
  return (
    <div data-testid="server-connected" className="space-y-3 text-sm text-slate-700">
      <p>{name === null ? t("server.connectedAsBoss", { server }) : t("server.connectedAs", { server, person: name })}</p>
      <Button data-testid="server-sign-out" disabled={signOut.isPending} onClick={() => signOut.mutate()}>
        {t("server.signOut")}
      </Button>
      {signOut.isError && <InlineError error={signOut.error} />}
    </div>
  );
}

/** What this app opened, and what a person can do about it from here. */
export function ServerStatus({ connection }: { connection: ConnectionDto }) {
  const { t } = useTranslation();
  switch (connection.source) {
    case "environment":
      return (
        <p data-testid="server-from-environment" className="text-sm text-slate-600">
          {connection.server === null ? t("server.fromEnvironmentFile") : t("server.fromEnvironment", { server: connection.server })}
        </p>
      );
    case "sign_in":
      return <SignedInHere server={connection.server} />;
    case "local":
      return connection.signInFailed === null ? <SignInForm /> : <SignInFailed why={connection.signInFailed} />;
  }
}

/** The connection, loaded; loading and error states included. */
export function ServerPanel() {
  const connection = useConnection();
  if (connection.isPending) return <LoadingState className="justify-start" />;
  if (connection.isError) return <InlineError error={connection.error} />;
  return <ServerStatus connection={connection.data} />;
}

/**
 * One line on the dashboard when the saved sign-in did not open its company at start, so a person who
 * sees this computer's own company knows why; Settings → Company server has the reason and the buttons.
 */
export function SignInFailedNotice({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  const connection = useConnection();
  if (!connection.data?.signInFailed) return null;
  return (
    <aside data-testid="sign-in-failed-notice" aria-label={t("server.noticeLabel")} className={`flex flex-wrap items-center gap-x-3 gap-y-1 text-xs text-amber-900 ${className}`}>
      <span className="flex min-w-0 items-center gap-1.5">
        <AlertIcon className="size-3.5 shrink-0 text-amber-600" />
        <span>{t("server.notice")}</span>
      </span>
      <a href={routeHref({ page: "settings", section: "server" })} className="shrink-0 font-medium text-amber-800 underline-offset-2 hover:underline">
        {t("server.noticeLink")}
      </a>
    </aside>
  );
}
