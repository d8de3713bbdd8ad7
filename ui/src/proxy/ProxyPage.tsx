import { useEffect, useRef, useState, type FormEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ChatMessageDto } from "../bindings/ChatMessageDto";
import type { PersonDto } from "../bindings/PersonDto";
import type { ProxyCard } from "../bindings/ProxyCard";
import type { ProxyLineDto } from "../bindings/ProxyLineDto";
import type { WrittenLine } from "../bindings/WrittenLine";
import { formatListTime } from "../chats/format";
import { Badge, Button, ErrorState, InlineError, LoadingState, inputClass } from "../components/ui";
import { api } from "../ipc/api";
import { queryKeys, useDeskUser, useInvalidatingMutation, usePeople, useProxy } from "../ipc/queries";
import { chatHref, navigate } from "../shell/route";

/** The longest request a proxy takes at once (core's `MAX_REQUEST_CHARS`). */
const MAX_REQUEST_CHARS = 2000;

/**
 * A person's proxy (SPEC §12): the person tells it what they want, it acts in their name and reports
 * back. On a person's desktop (signed in to the company server, or said so on a shared computer) the
 * page is that person's and no other; on the boss's it asks whose proxy.
 */
export function ProxyPage({ personId }: { personId: number | null }) {
  const { t } = useTranslation();
  const people = usePeople();
  const desk = useDeskUser();
  if (people.isPending || desk.isPending) return <LoadingState className="h-full" />;
  if (people.isError) return <ErrorState className="h-full" error={people.error} onRetry={() => void people.refetch()} />;
  if (desk.isError) return <ErrorState className="h-full" error={desk.error} />;
  const me = desk.data.personId;
  const chosen = me ?? personId ?? people.data[0]?.id ?? null;
  return (
    <div data-testid="proxy-page" className="flex h-full min-h-0 flex-col">
      <div className="flex shrink-0 flex-wrap items-center justify-between gap-x-6 gap-y-2 border-b border-slate-200 bg-white/60 px-6 py-3">
        <div>
          <h2 className="text-lg font-semibold tracking-tight text-slate-900">{me === null ? t("proxy.title") : t("nav.myProxy")}</h2>
          <p className="text-xs text-slate-500">{me === null ? t("proxy.subtitle") : t("proxy.mySubtitle")}</p>
        </div>
        {me === null && people.data.length > 0 && <WhoseProxy people={people.data} value={chosen} />}
      </div>
      {chosen === null ? (
        <p data-testid="proxy-empty" className="mx-auto mt-16 max-w-md px-6 text-center text-sm text-slate-500">
          {t("proxy.noPeople")}{" "}
          <a className="font-medium text-indigo-600 hover:underline" href="#settings/people">
            {t("proxy.invite")}
          </a>
        </p>
      ) : (
        <ProxyView key={chosen} personId={chosen} />
      )}
    </div>
  );
}

/** On the boss's desktop (or a single computer shared by the people): who is using the proxy now. */
function WhoseProxy({ people, value }: { people: PersonDto[]; value: number | null }) {
  const { t } = useTranslation();
  return (
    <label className="flex items-center gap-2 text-sm text-slate-600">
      <span>{t("proxy.whose")}</span>
      <select
        data-testid="proxy-person"
        className={`${inputClass} w-auto`}
        value={value ?? ""}
        onChange={(e) => navigate({ page: "proxy", personId: Number(e.target.value) })}
      >
        {people.map((p) => (
          <option key={p.id} value={p.id}>
            {p.role ? t("proxy.personWithRole", { name: p.name, role: p.role }) : p.name}
          </option>
        ))}
      </select>
    </label>
  );
}

function ProxyView({ personId }: { personId: number }) {
  const { card, conversation, written } = useProxy(personId);
  if (card.isPending || conversation.isPending) return <LoadingState className="flex-1" />;
  if (card.isError) return <ErrorState className="flex-1" error={card.error} onRetry={() => void card.refetch()} />;
  if (conversation.isError) return <ErrorState className="flex-1" error={conversation.error} onRetry={() => void conversation.refetch()} />;
  return (
    <div className="flex min-h-0 flex-1">
      <section className="flex min-w-0 flex-1 flex-col">
        <Conversation lines={conversation.data} card={card.data} />
        <Composer personId={personId} />
      </section>
      <aside className="hidden w-80 shrink-0 overflow-y-auto border-l border-slate-200 bg-white/60 lg:block">
        <CardPanel card={card.data} />
        <Written personId={personId} lines={written.data} pending={written.isPending} error={written.isError ? written.error : null} />
      </aside>
    </div>
  );
}

function Conversation({ lines, card }: { lines: ProxyLineDto[]; card: ProxyCard }) {
  const { t, i18n } = useTranslation();
  const end = useRef<HTMLDivElement>(null);
  useEffect(() => end.current?.scrollIntoView?.({ block: "end" }), [lines.length]);
  if (lines.length === 0) {
    return (
      <div data-testid="proxy-conversation-empty" className="flex flex-1 items-center justify-center px-6">
        <div className="max-w-md text-center text-sm text-slate-500">
          <p className="font-medium text-slate-700">{t("proxy.emptyTitle", { name: card.name })}</p>
          <p className="mt-1">{t("proxy.emptyHint")}</p>
        </div>
      </div>
    );
  }
  const now = Date.now();
  return (
    <ol data-testid="proxy-conversation" aria-label={t("proxy.conversation")} className="min-h-0 flex-1 space-y-3 overflow-y-auto px-6 py-5">
      {lines.map((l) => {
        const mine = l.speaker === "person";
        return (
          <li key={l.id} data-testid={`proxy-line-${l.id}`} data-speaker={l.speaker} className={`flex ${mine ? "justify-end" : "justify-start"}`}>
            <div className={`max-w-[75%] rounded-2xl px-4 py-2.5 text-sm shadow-sm ${mine ? "bg-slate-900 text-white" : "bg-white text-slate-800 ring-1 ring-slate-200"}`}>
              <div className={`mb-0.5 text-xs ${mine ? "text-slate-300" : "text-slate-500"}`}>
                {mine ? card.person.name : card.name} · {formatListTime(l.at, now, i18n.language)}
              </div>
              <p className="whitespace-pre-wrap">{l.text}</p>
            </div>
          </li>
        );
      })}
      <div ref={end} />
    </ol>
  );
}

function Composer({ personId }: { personId: number }) {
  const { t } = useTranslation();
  const [text, setText] = useState("");
  const say = useInvalidatingMutation(api.sayToProxy, [queryKeys.proxy(personId), queryKeys.chatList]);
  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    const said = text.trim();
    if (said === "" || said.length > MAX_REQUEST_CHARS) return;
    say.mutate({ personId, text: said }, { onSuccess: () => setText("") });
  };
  return (
    <form onSubmit={onSubmit} className="shrink-0 space-y-2 border-t border-slate-200 bg-white px-6 py-4">
      {say.isError && <InlineError error={say.error} />}
      <div className="flex items-end gap-2">
        <textarea
          data-testid="proxy-input"
          aria-label={t("proxy.inputLabel")}
          value={text}
          rows={2}
          maxLength={MAX_REQUEST_CHARS}
          placeholder={t("proxy.placeholder")}
          onChange={(e) => setText(e.target.value)}
          onKeyDown={(e) => {
            if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) onSubmit(e);
          }}
          className={`${inputClass} resize-none`}
        />
        <Button type="submit" variant="primary" data-testid="proxy-send" disabled={say.isPending || text.trim() === ""}>
          {say.isPending ? t("proxy.sending") : t("proxy.send")}
        </Button>
      </div>
    </form>
  );
}

function CardPanel({ card }: { card: ProxyCard }) {
  const { t } = useTranslation();
  const list = (items: string[], testId: string) => (
    <ul data-testid={testId} className="mt-1 list-disc space-y-0.5 pl-5 text-sm text-slate-700">
      {items.map((x) => (
        <li key={x}>{x}</li>
      ))}
    </ul>
  );
  return (
    <div data-testid="proxy-card" className="space-y-3 border-b border-slate-200 px-5 py-4">
      <div>
        <h3 className="text-[15px] font-semibold text-slate-900">{card.name}</h3>
        <p className="text-xs text-slate-500">{t("proxy.represents", { name: card.person.name })}</p>
      </div>
      <div>
        <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{t("proxy.answersFor")}</h4>
        {card.answersFor.length > 0 ? list(card.answersFor, "proxy-answers-for") : <p className="mt-1 text-sm text-slate-500">{t("proxy.answersForNothing")}</p>}
      </div>
      <div>
        <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{t("proxy.may")}</h4>
        {list(card.may, "proxy-may")}
      </div>
      <div>
        <h4 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{t("proxy.mayNot")}</h4>
        {list(card.mayNot, "proxy-may-not")}
      </div>
    </div>
  );
}

/** What the proxy wrote in its person's name: each can be replaced by the person's own words. */
function Written({ personId, lines, pending, error }: { personId: number; lines: WrittenLine[] | undefined; pending: boolean; error: unknown }) {
  const { t, i18n } = useTranslation();
  const [correcting, setCorrecting] = useState<number | null>(null);
  const now = Date.now();
  return (
    <div className="px-5 py-4">
      <h3 className="text-sm font-semibold text-slate-900">{t("proxy.written")}</h3>
      <p className="text-xs text-slate-500">{t("proxy.writtenHint")}</p>
      {pending && <LoadingState />}
      {error != null && <InlineError error={error} />}
      {lines && lines.length === 0 && (
        <p data-testid="proxy-written-empty" className="mt-2 text-sm text-slate-500">
          {t("proxy.writtenEmpty")}
        </p>
      )}
      <ul data-testid="proxy-written" className="mt-2 space-y-2">
        {(lines ?? []).map(({ message: m, correctedBy }) => (
          <li key={m.id} data-testid={`proxy-written-${m.id}`} className="rounded-lg bg-white p-3 text-sm ring-1 ring-slate-200">
            <div className="mb-1 flex items-center justify-between gap-2 text-xs text-slate-500">
              <span>{formatListTime(m.createdAt, now, i18n.language)}</span>
              {correctedBy !== null ? <Badge tone="green">{t("proxy.corrected")}</Badge> : <Badge tone="amber">{t("proxy.proxyWritten")}</Badge>}
            </div>
            <p className="whitespace-pre-wrap text-slate-800">{m.text}</p>
            <div className="mt-2 flex gap-2">
              <a className="text-xs font-medium text-indigo-600 hover:underline" href={chatHref(m.chatId)}>
                {t("proxy.openChat")}
              </a>
              {correctedBy === null && correcting !== m.id && (
                <button type="button" className="text-xs font-medium text-slate-600 hover:underline" onClick={() => setCorrecting(m.id)}>
                  {t("proxy.correct")}
                </button>
              )}
            </div>
            {correcting === m.id && <Correction personId={personId} message={m} onDone={() => setCorrecting(null)} />}
          </li>
        ))}
      </ul>
    </div>
  );
}

function Correction({ personId, message, onDone }: { personId: number; message: ChatMessageDto; onDone: () => void }) {
  const { t } = useTranslation();
  const [text, setText] = useState(message.text);
  const correct = useInvalidatingMutation(api.correctProxyLine, [queryKeys.proxy(personId), queryKeys.chat(message.chatId)]);
  return (
    <form
      className="mt-2 space-y-2"
      onSubmit={(e) => {
        e.preventDefault();
        if (text.trim() !== "") correct.mutate({ personId, messageId: message.id, text: text.trim() }, { onSuccess: onDone });
      }}
    >
      <textarea
        data-testid="proxy-correction"
        aria-label={t("proxy.correctionLabel")}
        value={text}
        rows={3}
        maxLength={MAX_REQUEST_CHARS}
        onChange={(e) => setText(e.target.value)}
        className={`${inputClass} text-sm`}
      />
      {correct.isError && <InlineError error={correct.error} />}
      <div className="flex justify-end gap-2">
        <Button onClick={onDone}>{t("common.cancel")}</Button>
        <Button type="submit" variant="primary" data-testid="proxy-correction-save" disabled={correct.isPending || text.trim() === ""}>
          {correct.isPending ? t("common.saving") : t("proxy.postCorrection")}
        </Button>
      </div>
    </form>
  );
}
