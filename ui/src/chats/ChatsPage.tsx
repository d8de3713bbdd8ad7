import { useMemo, useState } from "react";
import { useTranslation } from "react-i18next";
import type { ChatDto } from "../bindings/ChatDto";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { ChatsIcon, PlusIcon } from "../components/icons";
import { Button, ErrorState, LoadingState } from "../components/ui";
import { useChats, useOrg } from "../ipc/queries";
import { chatHref, navigate, routeHref } from "../shell/route";
import { ChatKindTile } from "./ChatKindTile";
import { ChatView } from "./ChatView";
import { firstName, formatListTime, preview } from "./format";
import { MIN_GROUP_MEMBERS, NewGroupDialog } from "./NewGroupDialog";

/** Everyone the boss can see in a chat, by id (fired people are not in the snapshot). */
export function useEmployeeMap(snapshot: OrgSnapshot | undefined): ReadonlyMap<number, EmployeeDto> {
  return useMemo(() => new Map((snapshot?.employees ?? []).map((e) => [e.id, e])), [snapshot]);
}

/** Every chat of the company on the left; the one picked (`#chats/<id>`) on the right. */
export function ChatsPage({ chatId }: { chatId: number | null }) {
  const { t } = useTranslation();
  const chats = useChats();
  const org = useOrg();
  const employees = useEmployeeMap(org.data);
  const [creating, setCreating] = useState(false);
  // One switch for the whole page: reading another chat keeps the thoughts shown or hidden.
  const [showThoughts, setShowThoughts] = useState(false);

  if (chats.isPending) return <LoadingState className="h-full" />;
  if (chats.isError) return <ErrorState className="h-full" error={chats.error} onRetry={() => void chats.refetch()} />;

  const canCreateGroup = (org.data?.employees.length ?? 0) >= MIN_GROUP_MEMBERS;
  const list = chats.data;

  return (
    <div data-testid="chats-page" className="flex h-full min-h-0">
      <aside aria-labelledby="chats-heading" className="flex w-80 shrink-0 flex-col border-r border-slate-200 bg-white">
        <div className="flex h-[68px] shrink-0 items-center justify-between gap-3 border-b border-slate-200 px-4">
          <div className="min-w-0">
            <h2 id="chats-heading" className="text-lg font-semibold tracking-tight text-slate-900">
              {t("chats.title")}
            </h2>
            <p className="truncate text-xs text-slate-500" data-testid="chats-summary">
              {t("chats.count", { count: list.length })}
            </p>
          </div>
          <Button
            data-testid="new-group-button"
            className="h-8 px-2.5"
            disabled={!canCreateGroup}
            title={canCreateGroup ? undefined : t("chats.newGroupNeedsPeople")}
            onClick={() => setCreating(true)}
          >
            <PlusIcon />
            {t("chats.newGroup")}
          </Button>
        </div>
        {list.length === 0 ? (
          <p className="px-5 py-6 text-sm text-slate-500">{t("chats.emptyList")}</p>
        ) : (
          <ul className="min-h-0 flex-1 space-y-0.5 overflow-y-auto p-2" data-testid="chat-list">
            {list.map((c) => (
              <ChatListItem key={c.id} chat={c} employees={employees} selected={c.id === chatId} />
            ))}
          </ul>
        )}
      </aside>

      <section className="relative min-w-0 flex-1">
        {list.length === 0 ? (
          <NoChats />
        ) : chatId === null ? (
          <NoSelection />
        ) : (
          <ChatView
            key={chatId}
            chatId={chatId}
            employees={employees}
            showThoughts={showThoughts}
            onToggleThoughts={() => setShowThoughts((on) => !on)}
          />
        )}
      </section>

      {creating && org.data && (
        <NewGroupDialog
          snapshot={org.data}
          onClose={() => setCreating(false)}
          onCreated={(chat) => navigate({ page: "chats", chatId: chat.id })}
        />
      )}
    </div>
  );
}

/** "You: …", "Alice: …", or the bare text (system notes, and the other side of a 1:1 chat). */
function lastLine(chat: ChatDto, employees: ReadonlyMap<number, EmployeeDto>, t: (key: string, o?: Record<string, unknown>) => string) {
  const m = chat.lastMessage;
  if (!m) return null;
  const text = preview(m.text);
  if (m.senderKind === "boss") return t("chats.previewFrom", { name: t("chats.you"), text });
  if (m.senderKind === "person" || m.senderKind === "proxy") return t("chats.previewFrom", { name: firstName(m.senderName), text });
  if (m.senderKind !== "employee" || chat.kind === "boss") return text;
  const sender = m.senderEmployeeId === null ? undefined : employees.get(m.senderEmployeeId);
  const name = sender?.name ?? (m.senderName || undefined);
  return t("chats.previewFrom", { name: name ? firstName(name) : t("chats.formerEmployee"), text });
}

function ChatListItem({
  chat,
  employees,
  selected,
}: {
  chat: ChatDto;
  employees: ReadonlyMap<number, EmployeeDto>;
  selected: boolean;
}) {
  const { t, i18n } = useTranslation();
  const at = chat.lastMessage?.createdAt ?? chat.createdAt;
  const line = lastLine(chat, employees, t);
  const unread = chat.unread > 0;
  return (
    <li>
      <a
        href={chatHref(chat.id)}
        data-testid={`chat-item-${chat.id}`}
        aria-current={selected ? "page" : undefined}
        className={`flex items-center gap-3 rounded-lg px-2.5 py-2.5 transition-colors focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-500 ${
          selected ? "bg-slate-100" : "hover:bg-slate-50"
        }`}
      >
        <ChatKindTile chat={chat} employees={employees} />
        <span className="min-w-0 flex-1">
          <span className="flex items-baseline justify-between gap-2">
            <span className={`truncate text-sm ${unread ? "font-semibold text-slate-900" : "font-medium text-slate-800"}`}>
              {chat.name}
            </span>
            <time dateTime={at} className={`shrink-0 text-[11px] tabular-nums ${unread ? "font-medium text-indigo-600" : "text-slate-400"}`}>
              {formatListTime(at, Date.now(), i18n.language)}
            </time>
          </span>
          <span className="mt-0.5 flex items-center justify-between gap-2">
            <span className={`truncate text-xs ${unread ? "text-slate-700" : "text-slate-500"}`}>
              <span className="font-medium text-slate-400" data-testid={`chat-kind-${chat.id}`}>
                {t(`chats.kind.${chat.kind}`)}
              </span>
              <span aria-hidden="true" className="text-slate-300">
                {" · "}
              </span>
              {line ?? <span className="text-slate-400 italic">{t("chats.noMessages")}</span>}
            </span>
            {unread && (
              <span
                data-testid={`chat-unread-${chat.id}`}
                className="inline-flex h-[18px] min-w-[18px] shrink-0 items-center justify-center rounded-full bg-indigo-600 px-1.5 text-[11px] font-semibold text-white tabular-nums"
              >
                <span aria-hidden="true">{chat.unread > 99 ? "99+" : chat.unread}</span>
                <span className="sr-only">{t("chats.unread", { count: chat.unread })}</span>
              </span>
            )}
          </span>
        </span>
      </a>
    </li>
  );
}

function NoChats() {
  const { t } = useTranslation();
  return (
    <div data-testid="chats-empty" className="flex h-full items-center justify-center p-8">
      <div className="max-w-sm text-center">
        <div className="mx-auto flex size-12 items-center justify-center rounded-xl bg-white text-slate-500 shadow-sm ring-1 ring-slate-200">
          <ChatsIcon width={24} height={24} />
        </div>
        <h3 className="mt-4 text-base font-semibold text-slate-900">{t("chats.empty.title")}</h3>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{t("chats.empty.body")}</p>
        <a
          href={routeHref({ page: "secretary" })}
          className="mt-5 inline-flex h-9 items-center justify-center rounded-lg bg-slate-900 px-3.5 text-sm font-medium text-white shadow-sm transition-colors hover:bg-slate-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500"
        >
          {t("chats.empty.action")}
        </a>
      </div>
    </div>
  );
}

function NoSelection() {
  const { t } = useTranslation();
  return (
    <div data-testid="chats-no-selection" className="flex h-full items-center justify-center p-8">
      <div className="max-w-sm text-center">
        <div className="mx-auto flex size-12 items-center justify-center rounded-xl bg-white text-slate-400 shadow-sm ring-1 ring-slate-200">
          <ChatsIcon width={24} height={24} />
        </div>
        <h3 className="mt-4 text-base font-semibold text-slate-900">{t("chats.noSelection.title")}</h3>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{t("chats.noSelection.body")}</p>
      </div>
    </div>
  );
}
