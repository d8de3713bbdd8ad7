import { useEffect, useId, useMemo, useRef, useState, type FormEvent, type KeyboardEvent } from "react";
import { useTranslation } from "react-i18next";
import type { ChatDto } from "../bindings/ChatDto";
import type { ChatMessageDto } from "../bindings/ChatMessageDto";
import type { ChatViewDto } from "../bindings/ChatViewDto";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import { SendIcon, ThoughtIcon } from "../components/icons";
import { Button, ErrorState, LoadingState, Spinner } from "../components/ui";
import { api } from "../ipc/api";
import { errorKey } from "../ipc/errors";
import { MeetingPanel } from "../meetings/MeetingPanel";
import { queryKeys, useChatView, useInvalidatingMutation } from "../ipc/queries";
import { Avatar } from "../org/Avatar";
import { BuiltinModelNotice } from "../shell/BuiltinModelNotice";
import { profileHref } from "../shell/route";
import { TraceLink } from "../traces/TraceLink";
import { ChatKindTile } from "./ChatKindTile";
import {
  COUNTER_FROM,
  MAX_MESSAGE_CHARS,
  charCount,
  continuesBlock,
  entryKey,
  formatClock,
  formatDay,
  sameDay,
  timeline,
  type TimelineEntry,
} from "./format";
import { DeliverableLine, parseDeliverableLine } from "./Deliverable";
import { splitMentions, type MentionMember } from "./mentions";
import { FailedThoughts, ThoughtCard } from "./ThoughtCard";

type Employees = ReadonlyMap<number, EmployeeDto>;

export function ChatView({
  chatId,
  employees,
  showThoughts,
  onToggleThoughts,
}: {
  chatId: number;
  employees: Employees;
  showThoughts: boolean;
  onToggleThoughts: () => void;
}) {
  const view = useChatView(chatId);
  if (view.isPending) return <LoadingState className="h-full" />;
  if (view.isError) return <ErrorState className="h-full" error={view.error} onRetry={() => void view.refetch()} />;
  return (
    <Conversation view={view.data} employees={employees} showThoughts={showThoughts} onToggleThoughts={onToggleThoughts} />
  );
}

function Conversation({
  view,
  employees,
  showThoughts,
  onToggleThoughts,
}: {
  view: ChatViewDto;
  employees: Employees;
  showThoughts: boolean;
  onToggleThoughts: () => void;
}) {
  const { t } = useTranslation();
  const { chat, messages, thoughts } = view;
  const end = useRef<HTMLDivElement>(null);
  const { mutate: markRead } = useInvalidatingMutation(api.markChatRead, [queryKeys.chatList]);

  // Read on opening, and again whenever something new arrives while the chat is open.
  const lastId = messages.at(-1)?.id ?? null;
  useEffect(() => {
    if (chat.unread > 0) markRead({ chatId: chat.id });
  }, [chat.id, chat.unread, lastId, markRead]);

  const entries = useMemo(() => timeline(messages, showThoughts ? thoughts : []), [messages, thoughts, showThoughts]);

  // Keep the newest entry in view: on opening, on each new message and when thoughts appear.
  useEffect(() => {
    end.current?.scrollIntoView?.({ block: "end" });
  }, [entries.length]);

  // Someone no longer on the org chart (they left) keeps the name the backend recorded.
  const recorded = useMemo(() => {
    const names = new Map<number, string>();
    for (const m of messages) if (m.senderEmployeeId !== null && m.senderName) names.set(m.senderEmployeeId, m.senderName);
    for (const th of thoughts) if (th.employeeName) names.set(th.employeeId, th.employeeName);
    return names;
  }, [messages, thoughts]);
  const nameOf = (id: number | null) =>
    (id === null ? undefined : (employees.get(id)?.name ?? recorded.get(id))) ?? t("chats.formerEmployee");
  // Who can be @mentioned here: the members, and anyone who has spoken (they may have left the chat since).
  const mentionable = useMemo<MentionMember[]>(() => {
    const ids = new Set(chat.memberIds);
    for (const m of messages) if (m.senderEmployeeId !== null) ids.add(m.senderEmployeeId);
    return [...ids].flatMap((id) => {
      const e = employees.get(id);
      return e ? [{ id, name: e.name }] : [];
    });
  }, [chat.memberIds, messages, employees]);

  return (
    <div data-testid="chat-view" data-chat-id={chat.id} className="flex h-full min-h-0 flex-col">
      <ChatHeader
        chat={chat}
        employees={employees}
        thoughtCount={thoughts.length}
        showThoughts={showThoughts}
        onToggleThoughts={onToggleThoughts}
      />
      <BuiltinModelNotice
        scope={{ kind: "chat", memberIds: chat.memberIds, nameOf: (id) => employees.get(id)?.name ?? `#${id}` }}
        className="shrink-0 border-b border-amber-200/70 bg-amber-50 px-6 py-1.5"
      />

      <div className="flex min-h-0 flex-1 flex-col xl:flex-row">
        {chat.kind === "meeting" && <MeetingPanel chatId={chat.id} />}
        <div className="flex min-h-0 min-w-0 flex-1 flex-col">
          <div className="relative min-h-0 flex-1 overflow-y-auto" data-testid="chat-messages">
            {entries.length === 0 ? (
              <div data-testid="chat-empty" className="flex min-h-full items-center justify-center p-8">
                <div className="max-w-sm text-center">
                  <div className="flex justify-center">
                    <ChatKindTile chat={chat} employees={employees} size={48} />
                  </div>
                  <h3 className="mt-4 text-base font-semibold text-slate-900">{t("chats.emptyChat.title")}</h3>
                  <p className="mt-1.5 text-sm leading-relaxed text-slate-500">
                    {chat.kind === "boss" ? t("chats.emptyChat.bodyBoss", { name: chat.name }) : t("chats.emptyChat.body")}
                  </p>
                </div>
              </div>
            ) : (
              <ol className="mx-auto max-w-3xl px-6 py-6" aria-label={t("chats.conversation", { name: chat.name })} aria-live="polite">
                {entries.map((entry, i) => {
                  const previous = entries[i - 1];
                  const newDay = !previous || !sameDay(previous.at, entry.at);
                  return (
                    <Entry
                      key={entryKey(entry)}
                      entry={entry}
                      first={i === 0}
                      newDay={newDay}
                      continued={!newDay && continuesBlock(previous, entry)}
                      nameOf={nameOf}
                      mentionable={mentionable}
                    />
                  );
                })}
              </ol>
            )}
            <div ref={end} />
          </div>

          <Composer chat={chat} />
        </div>
      </div>
    </div>
  );
}

function ChatHeader({
  chat,
  employees,
  thoughtCount,
  showThoughts,
  onToggleThoughts,
}: {
  chat: ChatDto;
  employees: Employees;
  thoughtCount: number;
  showThoughts: boolean;
  onToggleThoughts: () => void;
}) {
  const { t } = useTranslation();
  const details = [t(`chats.kind.${chat.kind}`), t(`chats.mode.${chat.mode}`)];
  if (chat.topic && chat.topic !== chat.name) details.push(chat.topic);
  return (
    <div className="flex h-[68px] shrink-0 items-center justify-between gap-4 border-b border-slate-200 bg-white/60 px-6">
      <div className="flex min-w-0 items-center gap-3">
        <ChatKindTile chat={chat} employees={employees} size={36} />
        <div className="min-w-0">
          <h2 data-testid="chat-title" className="truncate text-lg font-semibold tracking-tight text-slate-900">
            {chat.name}
          </h2>
          <p data-testid="chat-details" className="truncate text-xs text-slate-500" title={chat.topic ?? undefined}>
            {details.join(" · ")}
          </p>
        </div>
      </div>
      <div className="flex shrink-0 items-center gap-4">
        <Members chat={chat} employees={employees} />
        <button
          type="button"
          role="switch"
          aria-checked={showThoughts}
          data-testid="thoughts-toggle"
          onClick={onToggleThoughts}
          title={t("chats.thoughtsHint")}
          className="inline-flex h-8 items-center gap-2 rounded-lg px-2.5 text-sm font-medium text-slate-600 ring-1 ring-slate-200 ring-inset transition-colors hover:bg-slate-50 hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          <span
            aria-hidden="true"
            className={`relative inline-flex h-4 w-7 shrink-0 rounded-full transition-colors ${showThoughts ? "bg-indigo-600" : "bg-slate-300"}`}
          >
            <span
              className={`absolute top-0.5 size-3 rounded-full bg-white shadow-sm transition-transform ${showThoughts ? "translate-x-3.5" : "translate-x-0.5"}`}
            />
          </span>
          <ThoughtIcon className="text-slate-400" />
          {t("chats.showThoughts")}
          {thoughtCount > 0 && (
            <span className="rounded-full bg-slate-100 px-1.5 text-xs text-slate-500 tabular-nums">{thoughtCount}</span>
          )}
        </button>
      </div>
    </div>
  );
}

/** How many member avatars the header shows before folding the rest into "+N". */
const SHOWN_MEMBERS = 5;

function MemberLink({ id, employees, withName = false }: { id: number; employees: Employees; withName?: boolean }) {
  const { t } = useTranslation();
  const name = employees.get(id)?.name;
  if (name === undefined) return null;
  if (withName) {
    return (
      <a
        href={profileHref(id)}
        className="flex items-center gap-2 rounded-md px-2 py-1.5 text-sm text-slate-700 hover:bg-slate-50 focus-visible:outline-2 focus-visible:outline-indigo-500"
      >
        <Avatar name={name} size={24} />
        <span className="truncate">{name}</span>
      </a>
    );
  }
  return (
    <a
      href={profileHref(id)}
      title={name}
      aria-label={t("chats.openProfile", { name })}
      data-testid={`chat-member-${id}`}
      className="block rounded-full ring-2 ring-white transition-transform hover:z-10 hover:-translate-y-0.5 focus-visible:z-10 focus-visible:outline-2 focus-visible:outline-offset-1 focus-visible:outline-indigo-500"
    >
      <Avatar name={name} size={28} />
    </a>
  );
}

function Members({ chat, employees }: { chat: ChatDto; employees: Employees }) {
  const { t } = useTranslation();
  const known = chat.memberIds.filter((id) => employees.has(id));
  if (known.length === 0) return null;
  const shown = known.slice(0, SHOWN_MEMBERS);
  const rest = known.slice(SHOWN_MEMBERS);
  return (
    <div className="flex items-center gap-2">
      <ul className="flex items-center -space-x-1.5" aria-label={t("chats.membersLabel")} data-testid="chat-members">
        {shown.map((id) => (
          <li key={id}>
            <MemberLink id={id} employees={employees} />
          </li>
        ))}
      </ul>
      {rest.length > 0 && (
        <details className="relative">
          <summary
            className="flex size-7 cursor-pointer list-none items-center justify-center rounded-full bg-slate-100 text-[11px] font-semibold text-slate-600 ring-2 ring-white hover:bg-slate-200 [&::-webkit-details-marker]:hidden"
            aria-label={t("chats.moreMembersLabel", { count: rest.length })}
          >
            +{rest.length}
          </summary>
          <div className="absolute right-0 z-20 mt-2 max-h-72 w-56 overflow-y-auto rounded-lg bg-white p-1 shadow-lg ring-1 ring-slate-900/10">
            {rest.map((id) => (
              <MemberLink key={id} id={id} employees={employees} withName />
            ))}
          </div>
        </details>
      )}
      <span className="hidden text-xs text-slate-500 xl:inline">{t("chats.members", { count: chat.memberIds.length })}</span>
    </div>
  );
}

function Entry({
  entry,
  first,
  newDay,
  continued,
  nameOf,
  mentionable,
}: {
  entry: TimelineEntry;
  first: boolean;
  newDay: boolean;
  continued: boolean;
  nameOf: (id: number | null) => string;
  mentionable: MentionMember[];
}) {
  const { i18n } = useTranslation();
  const spacing = first ? "" : continued ? "mt-1" : "mt-4";
  return (
    <>
      {newDay && (
        <li aria-hidden="true" className={`flex items-center gap-3 text-[11px] font-medium text-slate-400 ${first ? "mb-4" : "my-5"}`}>
          <span className="h-px flex-1 bg-slate-200" />
          {formatDay(entry.at, i18n.language)}
          <span className="h-px flex-1 bg-slate-200" />
        </li>
      )}
      {entry.kind === "failures" ? (
        <li className={`flex items-start gap-3 ${newDay ? "" : spacing}`}>
          <span className="w-9 shrink-0" />
          <div className="min-w-0 max-w-[75%]">
            <FailedThoughts thoughts={entry.thoughts} failure={entry.failure} nameOf={nameOf} />
          </div>
        </li>
      ) : entry.kind === "thought" ? (
        <li className={`flex items-start gap-3 ${newDay ? "" : spacing}`}>
          <span className="flex w-9 shrink-0 justify-center pt-1 opacity-60">
            <Avatar name={nameOf(entry.thought.employeeId)} size={24} />
          </span>
          <div className="min-w-0 max-w-[75%]">
            <ThoughtCard
              thought={entry.thought}
              name={nameOf(entry.thought.employeeId)}
              testId={`chat-thought-${entry.thought.id}`}
            />
          </div>
        </li>
      ) : (
        <Message message={entry.message} className={newDay ? "" : spacing} continued={continued} nameOf={nameOf} mentionable={mentionable} />
      )}
    </>
  );
}

function MessageText({ message, mentionable, onDark }: { message: ChatMessageDto; mentionable: MentionMember[]; onDark: boolean }) {
  // A report's last line may link the deliverable it wrote: that line opens the document.
  const lastBreak = message.text.lastIndexOf("\n");
  const link = message.senderKind === "employee" ? parseDeliverableLine(message.text.slice(lastBreak + 1)) : null;
  if (link) {
    return (
      <>
        <MentionedText message={{ ...message, text: message.text.slice(0, lastBreak + 1) }} mentionable={mentionable} onDark={onDark} />
        <DeliverableLine {...link} onDark={onDark} />
      </>
    );
  }
  return <MentionedText message={message} mentionable={mentionable} onDark={onDark} />;
}

function MentionedText({ message, mentionable, onDark }: { message: ChatMessageDto; mentionable: MentionMember[]; onDark: boolean }) {
  // Only who the backend recorded as mentioned is highlighted: the same rule, the same people.
  const members = mentionable.filter((m) => message.mentions.includes(m.id));
  const segments = members.length === 0 ? [{ text: message.text, mentionId: null }] : splitMentions(message.text, members);
  return (
    <>
      {segments.map((s, i) =>
        s.mentionId === null ? (
          <span key={i}>{s.text}</span>
        ) : (
          <span
            key={i}
            data-mention={s.mentionId}
            className={`rounded px-0.5 font-medium ${onDark ? "bg-white/15 text-white" : "bg-indigo-50 text-indigo-700"}`}
          >
            {s.text}
          </span>
        ),
      )}
    </>
  );
}

function Message({
  message,
  className,
  continued,
  nameOf,
  mentionable,
}: {
  message: ChatMessageDto;
  className: string;
  continued: boolean;
  nameOf: (id: number | null) => string;
  mentionable: MentionMember[];
}) {
  const { t, i18n } = useTranslation();
  const clock = formatClock(message.createdAt, i18n.language);
  const testId = `chat-message-${message.id}`;

  if (message.senderKind === "system") {
    return (
      <li data-testid={testId} data-sender="system" className={`flex justify-center ${className}`}>
        <p className="max-w-[85%] rounded-full bg-slate-100 px-3 py-1 text-center text-xs break-words text-slate-500">
          {message.text}
          {clock && <span className="ml-2 text-slate-400">{clock}</span>}
        </p>
      </li>
    );
  }

  if (message.senderKind === "boss") {
    return (
      <li data-testid={testId} data-sender="boss" className={`group flex flex-col items-end ${className}`}>
        {!continued && (
          <div className="mb-1 flex items-baseline gap-2 text-xs">
            {clock && (
              <time dateTime={message.createdAt} className="text-[11px] text-slate-400">
                {clock}
              </time>
            )}
            <span className="font-medium text-slate-700">{t("chats.you")}</span>
          </div>
        )}
        <div
          title={clock ?? undefined}
          className="max-w-[75%] rounded-2xl rounded-tr-md bg-slate-900 px-3.5 py-2 text-sm break-words whitespace-pre-wrap text-white shadow-sm"
        >
          <span className="sr-only">{t("chats.you")}: </span>
          <MessageText message={message} mentionable={mentionable} onDark />
        </div>
        {message.traceId !== null && (
          <TraceLink traceId={message.traceId} testId={`${testId}-trace`} label={t("traces.link.message")} reveal className="mt-0.5" />
        )}
      </li>
    );
  }

  const senderId = message.senderEmployeeId;
  // A person of the company, or their proxy writing in their name: named as the server names them.
  const human = message.senderKind === "person" || message.senderKind === "proxy";
  const name = human ? message.senderName : nameOf(senderId);
  return (
    <li data-testid={testId} data-sender={message.senderKind} className={`group flex items-start gap-3 ${className}`}>
      {continued ? (
        <span className="w-9 shrink-0" />
      ) : senderId !== null ? (
        <a href={profileHref(senderId)} tabIndex={-1} aria-hidden="true" className="shrink-0">
          <Avatar name={name} size={36} />
        </a>
      ) : (
        <Avatar name={name} size={36} />
      )}
      <div className="min-w-0 max-w-[75%]">
        {!continued && (
          <div className="mb-1 flex items-baseline gap-2">
            {senderId !== null ? (
              <a href={profileHref(senderId)} className="text-sm font-medium text-slate-900 hover:underline" data-testid={`${testId}-sender`}>
                {name}
              </a>
            ) : (
              <span className="text-sm font-medium text-slate-900">{name}</span>
            )}
            {message.senderKind === "proxy" && (
              <span data-testid={`${testId}-proxy`} className="rounded-full bg-rose-50 px-1.5 text-[11px] font-medium text-rose-700 ring-1 ring-rose-600/15 ring-inset">
                {t("chats.viaProxy")}
              </span>
            )}
            {message.correctsId !== null && (
              <span data-testid={`${testId}-correction`} className="rounded-full bg-amber-50 px-1.5 text-[11px] font-medium text-amber-700 ring-1 ring-amber-600/20 ring-inset">
                {t("chats.correction")}
              </span>
            )}
            {clock && (
              <time dateTime={message.createdAt} className="text-[11px] text-slate-400">
                {clock}
              </time>
            )}
          </div>
        )}
        <div
          title={clock ?? undefined}
          className="inline-block max-w-full rounded-2xl rounded-tl-md bg-white px-3.5 py-2 text-sm break-words whitespace-pre-wrap text-slate-800 shadow-sm ring-1 ring-slate-200"
        >
          {continued && <span className="sr-only">{name}: </span>}
          <MessageText message={message} mentionable={mentionable} onDark={false} />
        </div>
        {message.traceId !== null && (
          <TraceLink traceId={message.traceId} testId={`${testId}-trace`} label={t("traces.link.message")} reveal className="ml-1 align-bottom" />
        )}
      </div>
    </li>
  );
}

/** The boss's composer: Enter sends, Shift+Enter is a new line; the text stays until it is sent. */
function Composer({ chat }: { chat: ChatDto }) {
  const { t } = useTranslation();
  const hintId = useId();
  const inputId = useId();
  const post = useInvalidatingMutation(api.postMessage, [queryKeys.chat(chat.id), queryKeys.chatList]);
  const [text, setText] = useState("");
  const input = useRef<HTMLTextAreaElement>(null);

  const count = charCount(text);
  const over = count - MAX_MESSAGE_CHARS;
  const canSend = text.trim() !== "" && over <= 0 && !post.isPending;

  // The composer is disabled while sending; hand the focus back once the message is in (and on opening).
  useEffect(() => {
    if (!post.isPending) input.current?.focus();
  }, [post.isPending]);

  const send = () => {
    if (!canSend) return;
    post.mutate({ chatId: chat.id, text: text.trim() }, { onSuccess: () => setText("") });
  };

  const onSubmit = (e: FormEvent) => {
    e.preventDefault();
    send();
  };

  const onKeyDown = (e: KeyboardEvent<HTMLTextAreaElement>) => {
    // Never while an input method is composing (Chinese, Japanese…): Enter picks the characters there.
    if (e.key === "Enter" && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault();
      send();
    }
  };

  return (
    <form onSubmit={onSubmit} className="shrink-0 border-t border-slate-200 bg-white px-6 py-4">
      <div className="mx-auto max-w-3xl">
        {post.isError && (
          <div role="alert" className="mb-3 flex items-center justify-between gap-3 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700">
            <span data-testid="chat-send-error">{t("chats.composer.sendFailed", { message: t(errorKey(post.error)) })}</span>
            <button type="button" className="text-xs font-medium underline" onClick={() => post.reset()}>
              {t("common.close")}
            </button>
          </div>
        )}
        <div className="flex items-end gap-2 rounded-xl bg-white p-1.5 shadow-sm ring-1 ring-slate-300 focus-within:ring-2 focus-within:ring-indigo-500">
          <label htmlFor={inputId} className="sr-only">
            {t("chats.composer.label", { name: chat.name })}
          </label>
          <textarea
            id={inputId}
            ref={input}
            data-testid="chat-input"
            aria-describedby={hintId}
            aria-invalid={over > 0}
            rows={Math.min(6, Math.max(1, text.split("\n").length))}
            className="block max-h-40 min-h-9 flex-1 resize-none border-0 bg-transparent px-2.5 py-1.5 text-sm text-slate-900 placeholder:text-slate-400 focus:outline-none disabled:text-slate-400"
            placeholder={t("chats.composer.placeholder", { name: chat.name })}
            value={text}
            disabled={post.isPending}
            onChange={(e) => setText(e.target.value)}
            onKeyDown={onKeyDown}
          />
          <Button type="submit" variant="primary" data-testid="chat-send" disabled={!canSend}>
            {post.isPending ? <Spinner className="border-slate-500 border-t-white" /> : <SendIcon />}
            {t("chats.composer.send")}
          </Button>
        </div>
        <p id={hintId} className="mt-1.5 flex justify-between gap-3 text-xs text-slate-400">
          <span>{t("chats.composer.hint")}</span>
          {count >= COUNTER_FROM && (
            <span data-testid="chat-char-count" className={over > 0 ? "font-medium text-rose-600" : "tabular-nums"}>
              {over > 0 ? t("chats.composer.tooLong", { count: over }) : t("chats.composer.left", { count: -over })}
            </span>
          )}
        </p>
      </div>
    </form>
  );
}
