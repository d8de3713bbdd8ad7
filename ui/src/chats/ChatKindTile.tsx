import type { ComponentType, SVGProps } from "react";
import type { ChatDto } from "../bindings/ChatDto";
import type { ChatKind } from "../bindings/ChatKind";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import { BuildingIcon, CalendarIcon, ChatsIcon, ClipboardIcon, UserIcon, UsersIcon } from "../components/icons";
import { Avatar } from "../org/Avatar";

const KIND_STYLE: Record<ChatKind, { icon: ComponentType<SVGProps<SVGSVGElement>>; className: string }> = {
  department: { icon: BuildingIcon, className: "bg-sky-50 text-sky-700 ring-sky-600/15" },
  requirement: { icon: ClipboardIcon, className: "bg-violet-50 text-violet-700 ring-violet-600/15" },
  meeting: { icon: CalendarIcon, className: "bg-amber-50 text-amber-700 ring-amber-600/20" },
  boss: { icon: UserIcon, className: "bg-indigo-50 text-indigo-700 ring-indigo-600/15" },
  dm: { icon: ChatsIcon, className: "bg-slate-100 text-slate-600 ring-slate-500/15" },
  group: { icon: UsersIcon, className: "bg-emerald-50 text-emerald-700 ring-emerald-600/15" },
  people: { icon: ChatsIcon, className: "bg-rose-50 text-rose-700 ring-rose-600/15" },
};

/**
 * A chat's picture: the employee's avatar for the boss's 1:1 chats, an icon of the chat's kind
 * for every other chat. Decorative: the kind is also written next to it.
 */
export function ChatKindTile({
  chat,
  employees,
  size = 40,
}: {
  chat: Pick<ChatDto, "kind" | "memberIds" | "name">;
  employees: ReadonlyMap<number, EmployeeDto>;
  size?: number;
}) {
  if (chat.kind === "boss") {
    const person = chat.memberIds.map((id) => employees.get(id)).find((e) => e !== undefined);
    return <Avatar name={person?.name ?? chat.name} size={size} />;
  }
  const { icon: Icon, className } = KIND_STYLE[chat.kind];
  const iconSize = Math.round(size * 0.48);
  return (
    <span
      aria-hidden="true"
      data-kind={chat.kind}
      className={`inline-flex shrink-0 items-center justify-center rounded-xl ring-1 ring-inset ${className}`}
      style={{ width: size, height: size }}
    >
      <Icon width={iconSize} height={iconSize} />
    </span>
  );
}
