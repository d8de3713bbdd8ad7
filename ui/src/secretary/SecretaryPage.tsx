import { useEffect, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { SecretaryMessageDto } from "../bindings/SecretaryMessageDto";
import { ChatIcon, SendIcon } from "../components/icons";
import { Button, ErrorState, LoadingState, Spinner } from "../components/ui";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { useSecretaryReplyStream } from "../ipc/events";
import { SECRETARY_ACTION_KEYS, useInvalidatingMutation, useOrg, useSecretaryHistory } from "../ipc/queries";
import { ActionCard } from "./ActionCard";
import { secretaryExamples } from "./format";

export function SecretaryAvatar({ size = 32 }: { size?: number }) {
  return (
    <span
      aria-hidden="true"
      className="inline-flex shrink-0 items-center justify-center rounded-full bg-indigo-600 text-white shadow-sm"
      style={{ width: size, height: size }}
    >
      <ChatIcon width={size * 0.55} height={size * 0.55} />
    </span>
  );
}

/** The boss runs the company from here: say what is needed, confirm what the secretary proposes. */
export function SecretaryPage() {
  const { t } = useTranslation();
  const history = useSecretaryHistory();
  const org = useOrg();
  // A typed "yes" confirms a card as its button would: what that changes is refreshed too.
  const say = useInvalidatingMutation(api.secretarySay, SECRETARY_ACTION_KEYS);
  const [text, setText] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);
  const end = useRef<HTMLDivElement>(null);

  const messages = history.data ?? [];
  const pendingText = say.isPending ? say.variables?.text : undefined;
  const streamed = useSecretaryReplyStream(say.isPending);

  // Keep the newest message in view: on load, on each new message and while a reply is on its way.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [messages.length, pendingText, streamed]);

  // The composer is disabled while sending; hand the focus back once the reply is in.
  useEffect(() => {
    if (!say.isPending) input.current?.focus();
  }, [say.isPending]);

  const send = () => {
    const message = text.trim();
    if (message === "" || say.isPending) return;
    setText("");
    say.mutate(
      { text: message },
      // Not sent: give the words back so nothing the boss typed is lost.
      { onError: () => setText((current) => (current === "" ? message : current)) },
    );
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Enter sends, Shift+Enter is a new line; never while an input method is composing (Chinese, Japanese…).
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  const fillExample = (example: string) => {
    setText(example);
    input.current?.focus();
  };

  return (
    <div data-testid="secretary-page" className="flex h-full min-h-0 flex-col">
      <div className="flex shrink-0 items-center gap-3 border-b border-slate-200 bg-white/60 px-6 py-3">
        <SecretaryAvatar size={36} />
        <div>
          <h2 className="text-lg font-semibold tracking-tight text-slate-900">{t("secretary.title")}</h2>
          <p className="text-xs text-slate-500">{t("secretary.subtitle")}</p>
        </div>
      </div>

      <div className="relative min-h-0 flex-1 overflow-y-auto" data-testid="secretary-conversation">
        {history.isPending ? (
          <LoadingState className="h-full" />
        ) : history.isError ? (
          <ErrorState className="h-full" error={history.error} onRetry={() => void history.refetch()} />
        ) : messages.length === 0 && pendingText === undefined ? (
          <EmptyConversation snapshot={org.data} onPick={fillExample} />
        ) : (
          <ol className="mx-auto max-w-3xl space-y-5 px-6 py-6" aria-label={t("secretary.conversation")} aria-live="polite">
            {messages.map((m) => (
              <Message key={m.id} message={m} snapshot={org.data} />
            ))}
            {pendingText !== undefined && (
              <>
                <li className="flex justify-end" data-testid="secretary-pending">
                  <div className="max-w-[80%] rounded-2xl rounded-br-md bg-slate-900 px-4 py-2.5 text-sm whitespace-pre-wrap text-white opacity-70 shadow-sm">
                    <span className="sr-only">{t("secretary.you")}: </span>
                    {pendingText}
                  </div>
                </li>
                <li className="flex items-end gap-2.5" role="status">
                  <SecretaryAvatar />
                  {streamed === null ? (
                    <div className="flex items-center gap-2 rounded-2xl rounded-bl-md bg-white px-4 py-2.5 text-sm text-slate-500 shadow-sm ring-1 ring-slate-200">
                      <Spinner className="size-3" />
                      {t("secretary.thinking")}
                    </div>
                  ) : (
                    <div
                      data-testid="secretary-streaming"
                      className="max-w-[80%] rounded-2xl rounded-bl-md bg-white px-4 py-2.5 text-sm whitespace-pre-wrap text-slate-800 shadow-sm ring-1 ring-slate-200"
                    >
                      {streamed}
                      <span aria-hidden="true" className="ml-0.5 inline-block h-3.5 w-1.5 animate-pulse rounded-sm bg-slate-400 align-middle" />
                    </div>
                  )}
                </li>
              </>
            )}
          </ol>
        )}
        <div ref={end} />
      </div>

      <form onSubmit={onSubmit} className="shrink-0 border-t border-slate-200 bg-white px-6 py-4">
        <div className="mx-auto max-w-3xl">
          {say.isError && (
            <div role="alert" className="mb-3 flex items-center justify-between gap-3 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700">
              <span>{t("secretary.sendFailed", { message: t(errorKey(say.error)) })}</span>
              <button type="button" className="text-xs font-medium underline" onClick={() => say.reset()}>
                {t("common.close")}
              </button>
            </div>
          )}
          <div className="flex items-end gap-2 rounded-xl bg-white p-1.5 shadow-sm ring-1 ring-slate-300 focus-within:ring-2 focus-within:ring-indigo-500">
            <label htmlFor="secretary-input" className="sr-only">
              {t("secretary.inputLabel")}
            </label>
            <textarea
              id="secretary-input"
              ref={input}
              data-testid="secretary-input"
              rows={Math.min(6, Math.max(1, text.split("\n").length))}
              className="block max-h-40 min-h-9 flex-1 resize-none border-0 bg-transparent px-2.5 py-1.5 text-sm text-slate-900 placeholder:text-slate-400 focus:outline-none disabled:text-slate-400"
              placeholder={t("secretary.placeholder")}
              value={text}
              disabled={say.isPending}
              onChange={(e) => setText(e.target.value)}
              onKeyDown={onKeyDown}
            />
            <Button type="submit" variant="primary" data-testid="secretary-send" disabled={say.isPending || text.trim() === ""}>
              {say.isPending ? <Spinner className="border-slate-500 border-t-white" /> : <SendIcon />}
              {t("secretary.send")}
            </Button>
          </div>
          <p className="mt-1.5 text-xs text-slate-400">{t("secretary.hint")}</p>
        </div>
      </form>
    </div>
  );
}

function Message({ message, snapshot }: { message: SecretaryMessageDto; snapshot: OrgSnapshot | undefined }) {
  const { t, i18n } = useTranslation();
  const at = new Date(message.at);
  const time = Number.isNaN(at.getTime())
    ? null
    : new Intl.DateTimeFormat(i18n.language, { hour: "2-digit", minute: "2-digit" }).format(at);

  if (message.role === "boss") {
    return (
      <li className="flex flex-col items-end" data-testid={`secretary-message-${message.id}`} data-role="boss">
        <div className="max-w-[80%] rounded-2xl rounded-br-md bg-slate-900 px-4 py-2.5 text-sm whitespace-pre-wrap text-white shadow-sm">
          <span className="sr-only">{t("secretary.you")}: </span>
          {message.text}
        </div>
        {time && (
          <time dateTime={message.at} className="mt-1 text-[11px] text-slate-400">
            {time}
          </time>
        )}
      </li>
    );
  }
  return (
    <li className="flex items-start gap-2.5" data-testid={`secretary-message-${message.id}`} data-role="secretary">
      <SecretaryAvatar />
      <div className="min-w-0 max-w-[85%] flex-1">
        <div className="inline-block max-w-full rounded-2xl rounded-tl-md bg-white px-4 py-2.5 text-sm whitespace-pre-wrap text-slate-800 shadow-sm ring-1 ring-slate-200">
          <span className="sr-only">{t("secretary.name")}: </span>
          {message.text}
        </div>
        {message.actions.map((a) => (
          <ActionCard key={a.id} action={a} snapshot={snapshot} traceId={message.traceId} />
        ))}
        {time && (
          <time dateTime={message.at} className="mt-1 block text-[11px] text-slate-400">
            {time}
          </time>
        )}
      </div>
    </li>
  );
}

/** Four things to say, in the current language, that work in the company as it is (its own names only). */
function useExamples(snapshot: OrgSnapshot | undefined): string[] {
  const { t, i18n } = useTranslation();
  return secretaryExamples(snapshot, i18n.language.startsWith("zh")).map(({ key, values }) => t(`secretary.examples.${key}`, values));
}

function EmptyConversation({ snapshot, onPick }: { snapshot: OrgSnapshot | undefined; onPick: (text: string) => void }) {
  const { t } = useTranslation();
  const examples = useExamples(snapshot);
  const boss = snapshot?.company?.bossName;
  return (
    <div data-testid="secretary-empty" className="flex min-h-full items-center justify-center p-8">
      <div className="w-full max-w-lg text-center">
        <div className="flex justify-center">
          <SecretaryAvatar size={48} />
        </div>
        <h3 className="mt-4 text-base font-semibold text-slate-900">
          {boss ? t("secretary.empty.titleNamed", { name: boss }) : t("secretary.empty.title")}
        </h3>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{t("secretary.empty.body")}</p>
        <p className="mt-5 text-xs font-medium tracking-wide text-slate-400 uppercase">{t("secretary.empty.tryOne")}</p>
        <ul className="mt-2 grid gap-2 sm:grid-cols-2">
          {examples.map((example, n) => (
            <li key={n}>
              <button
                type="button"
                data-testid={`secretary-example-${n}`}
                className="h-full w-full rounded-xl bg-white px-4 py-3 text-left text-sm text-slate-700 shadow-sm ring-1 ring-slate-200 transition-colors hover:bg-slate-50 hover:ring-slate-300"
                onClick={() => onPick(example)}
              >
                {example}
              </button>
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}
