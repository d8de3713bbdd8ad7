// The chats and minds half of the in-memory Cubicle (see fakeBackend.ts): chats with unread counts
// and @mentions, inner thoughts, memories, relationships, stamina, tasks and spend, with the same
// error codes and domain events as the Rust side (crates/core/src/chat.rs, mind/profile.rs).
import type { ChatDto } from "../../bindings/ChatDto";
import type { ChatKind } from "../../bindings/ChatKind";
import type { ChatMessageDto } from "../../bindings/ChatMessageDto";
import type { ChatMode } from "../../bindings/ChatMode";
import type { ChatViewDto } from "../../bindings/ChatViewDto";
import type { CompanyDto } from "../../bindings/CompanyDto";
import type { CreateGroup } from "../../bindings/CreateGroup";
import type { DepartmentDto } from "../../bindings/DepartmentDto";
import type { DomainEvent } from "../../bindings/DomainEvent";
import type { EmployeeDto } from "../../bindings/EmployeeDto";
import type { EmployeeProfileDto } from "../../bindings/EmployeeProfileDto";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { MemoryDto } from "../../bindings/MemoryDto";
import type { PostMessage } from "../../bindings/PostMessage";
import type { RelationshipGraphDto } from "../../bindings/RelationshipGraphDto";
import type { ResetRelationships } from "../../bindings/ResetRelationships";
import type { ThoughtDto } from "../../bindings/ThoughtDto";
import type { Zone } from "../../bindings/Zone";
import { findMentions } from "../../chats/mentions";
import type { ChatRef, EmployeeRef, MemoryRef } from "../../ipc/api";
import { CREATED } from "../../test/fakeFixtures";
import type { CommandPart } from "./commandTable";

/** As on the Rust side: the boss's messages are at most this long; a chat view shows this many. */
const MAX_MESSAGE_CHARS = 4000;
const VIEW_LIMIT = 200;

/** A chat as the fake keeps it; the DTO's unread count and last message are worked out on reading. */
export interface FakeChat {
  id: number;
  kind: ChatKind;
  mode: ChatMode;
  name: string;
  topic: string | null;
  departmentId: number | null;
  memberIds: number[];
  createdAt: string;
  /** The last message the boss has read (null: none yet). */
  bossReadId: number | null;
}

/** One employee's view of another. */
export interface FakeRelationship {
  employeeId: number;
  otherId: number;
  impression: string;
  affinity: number;
  interactions: number;
  updatedAt: string;
}

export interface FakeTask {
  id: number;
  ownerId: number;
  description: string;
  createdAt: string;
}

export interface FakeStamina {
  patience: number;
  fatigue: number;
  stress: number;
}

/** A new hire's stamina (comfort 80, green), as on the Rust side. */
export const DEFAULT_STAMINA: FakeStamina = { patience: 90, fatigue: 10, stress: 10 };

/** Who posts a seeded message: the boss, a system note, or an employee (by id). */
export type Sender = "boss" | "system" | number;

/** SPEC §4: department groups are casual; everything else starts as work. */
const modeOf = (kind: ChatKind): ChatMode => (kind === "department" || kind === "group" ? "casual" : "work");

/** SPEC §7. */
export function comfortOf(s: FakeStamina): number {
  return s.patience - (s.fatigue * 0.4 + s.stress * 0.6);
}

function zoneOf(comfort: number): Zone {
  if (comfort > 70) return "green";
  if (comfort >= 40) return "yellow";
  return "red";
}

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

/** Chat and mind state and commands; FakeBackend adds the company, org, settings and secretary. */
export abstract class FakeChatsAndMinds {
  abstract company: CompanyDto | null;
  abstract departments: DepartmentDto[];
  abstract employees: EmployeeDto[];
  /** The fake's clock. */
  abstract now: () => number;
  /** Send a domain event to the UI, as the Rust side does after each change. */
  abstract emit(event: DomainEvent): void;
  /** Ids for everything the fake creates (departments, employees, messages, memories …). */
  protected nextId = 1000;

  // Seed with the helpers below (addChat, addChatMessage, addThought, addMemory, relate, addTask …).
  chats: FakeChat[] = [];
  chatMessages: ChatMessageDto[] = [];
  thoughts: ThoughtDto[] = [];
  memories: Array<MemoryDto & { employeeId: number }> = [];
  relationships: FakeRelationship[] = [];
  tasks: FakeTask[] = [];
  stamina = new Map<number, FakeStamina>();
  employeeSpend = new Map<number, { todayUsd: number; totalUsd: number }>();
  private nextChatId = 1;

  /** Everyone already on staff sits in their department's group chat, as after their hire. */
  protected seedDepartmentChats(): void {
    for (const d of [...this.departments].sort((a, b) => a.id - b.id)) {
      const members = this.employees.filter((e) => e.departmentId === d.id && e.status !== "fired").map((e) => e.id);
      if (members.length > 0) this.addChat("department", d.name, members, { departmentId: d.id });
    }
  }

  /** The chat and mind commands. */
  protected chatCommands() {
    return {
      list_chats: () => this.listChats(),
      chat_view: ({ input }) => this.chatView(input),
      post_message: ({ input }) => this.postMessage(input),
      mark_chat_read: ({ input }) => this.markChatRead(input),
      open_boss_chat: ({ input }) => this.openBossChat(input),
      create_group: ({ input }) => this.createGroup(input),
      employee_profile: ({ input }) => this.profile(input),
      delete_memory: ({ input }) => this.deleteMemory(input),
      reset_relationships: ({ input }) => this.resetRelationships(input),
      relationship_graph: () => this.graph(),
    } satisfies CommandPart;
  }

  private at(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  /** A chat, for seeding (no event: the UI has not started yet). */
  addChat(
    kind: ChatKind,
    name: string,
    memberIds: number[],
    options: Partial<Pick<FakeChat, "mode" | "topic" | "departmentId" | "createdAt">> = {},
  ): FakeChat {
    const chat: FakeChat = {
      id: this.nextChatId++,
      kind,
      mode: options.mode ?? modeOf(kind),
      name,
      topic: options.topic ?? null,
      departmentId: options.departmentId ?? null,
      memberIds: [...new Set(memberIds)].sort((a, b) => a - b),
      createdAt: options.createdAt ?? CREATED,
      bossReadId: null,
    };
    this.chats.push(chat);
    return chat;
  }

  /** The department's group chat, if it has one. */
  departmentChat(departmentId: number): FakeChat | undefined {
    return this.chats.find((c) => c.kind === "department" && c.departmentId === departmentId);
  }

  /** A message in a chat, for seeding or to play someone speaking (then `emit` chat_message_posted). */
  addChatMessage(chatId: number, from: Sender, text: string, createdAt: string = this.at()): ChatMessageDto {
    const chat = this.chat(chatId);
    const message: ChatMessageDto = {
      id: this.nextId++,
      chatId,
      senderKind: from === "boss" ? "boss" : from === "system" ? "system" : "employee",
      senderEmployeeId: typeof from === "number" ? from : null,
      senderPersonId: null,
      senderName: typeof from === "number" ? (this.employees.find((e) => e.id === from)?.name ?? "") : from === "boss" ? (this.company?.bossName ?? "") : "",
      text,
      mentions: findMentions(text, this.memberNames(chat)),
      traceId: null,
      createdAt,
      correctsId: null,
    };
    this.chatMessages.push(message);
    if (from === "boss") chat.bossReadId = message.id;
    return message;
  }

  /** An employee speaks in a chat while the UI is open: the message, then the event the engine sends. */
  say(chatId: number, employeeId: number, text: string): ChatMessageDto {
    const message = this.addChatMessage(chatId, employeeId, text);
    this.emit({ type: "chat_message_posted", chatId, messageId: message.id });
    return message;
  }

  /** An inner thought, for seeding. By default a silent one the model chose. */
  addThought(employeeId: number, chatId: number | null, fields: Partial<Omit<ThoughtDto, "id" | "employeeId" | "chatId">> = {}): ThoughtDto {
    const thought: ThoughtDto = {
      id: this.nextId++,
      employeeId,
      employeeName: this.employees.find((e) => e.id === employeeId)?.name ?? "",
      chatId,
      innerThoughts: "",
      reason: "",
      shouldSpeak: false,
      spoke: false,
      silencedBy: null,
      interest: null,
      saturation: null,
      perspectiveSeed: "ask about a specific detail",
      promptTokens: 1200,
      createdAt: this.at(),
      ...fields,
    };
    this.thoughts.push(thought);
    return thought;
  }

  private chat(id: number): FakeChat {
    return this.chats.find((c) => c.id === id) ?? fail("not_found", `chat ${id} does not exist`);
  }

  private memberNames(chat: FakeChat): Array<{ id: number; name: string }> {
    return chat.memberIds.flatMap((id) => {
      const e = this.employees.find((x) => x.id === id);
      return e ? [{ id, name: e.name }] : [];
    });
  }

  protected joinDepartmentChat(departmentId: number, employeeId: number): void {
    const d = this.departments.find((x) => x.id === departmentId);
    if (!d) return;
    let chat = this.departmentChat(departmentId);
    if (!chat) chat = this.addChat("department", d.name, [], { departmentId, createdAt: this.at() });
    if (!chat.memberIds.includes(employeeId)) chat.memberIds = [...chat.memberIds, employeeId].sort((a, b) => a - b);
    this.emit({ type: "chat_changed", chatId: chat.id });
  }

  private chatDto(chat: FakeChat): ChatDto {
    const messages = this.chatMessages.filter((m) => m.chatId === chat.id);
    const unread = messages.filter((m) => m.senderKind !== "boss" && (chat.bossReadId === null || m.id > chat.bossReadId)).length;
    return structuredClone({
      id: chat.id,
      kind: chat.kind,
      mode: chat.mode,
      name: chat.name,
      topic: chat.topic,
      departmentId: chat.departmentId,
      memberIds: chat.memberIds,
      unread,
      lastMessage: messages.at(-1) ?? null,
      createdAt: chat.createdAt,
    });
  }

  /** Most recently active first (the last message, else the chat's creation), then the newest chat. */
  private listChats(): ChatDto[] {
    const dtos = this.chats.map((c) => this.chatDto(c));
    const activeAt = (c: ChatDto) => c.lastMessage?.createdAt ?? c.createdAt;
    return dtos.sort((a, b) => (activeAt(a) < activeAt(b) ? 1 : activeAt(a) > activeAt(b) ? -1 : b.id - a.id));
  }

  private chatView(input: ChatRef): ChatViewDto {
    const chat = this.chat(input.chatId);
    return structuredClone({
      chat: this.chatDto(chat),
      messages: this.chatMessages.filter((m) => m.chatId === chat.id).slice(-VIEW_LIMIT),
      thoughts: this.thoughts.filter((t) => t.chatId === chat.id).slice(-VIEW_LIMIT),
    });
  }

  private postMessage(input: PostMessage): ChatMessageDto {
    const text = input.text.trim();
    if (text === "") fail("invalid_input", "the message is empty");
    if (Array.from(text).length > MAX_MESSAGE_CHARS) fail("invalid_input", `a message can be at most ${MAX_MESSAGE_CHARS} characters`);
    this.chat(input.chatId);
    const message = this.addChatMessage(input.chatId, "boss", text);
    this.emit({ type: "chat_message_posted", chatId: input.chatId, messageId: message.id });
    return structuredClone(message);
  }

  private markChatRead(input: ChatRef): null {
    const chat = this.chat(input.chatId);
    const last = this.chatMessages.filter((m) => m.chatId === chat.id).at(-1);
    if (last) chat.bossReadId = last.id;
    this.emit({ type: "chat_read", chatId: chat.id });
    return null;
  }

  /** Like the Rust side: a fired (or unknown) employee is not_found, and the chat is made once. */
  private openBossChat(input: EmployeeRef): ChatDto {
    const existing = this.chats.find((c) => c.kind === "boss" && c.memberIds.includes(input.employeeId));
    if (existing) return this.chatDto(existing);
    const e = this.employees.find((x) => x.id === input.employeeId && x.status !== "fired");
    if (!e) return fail("not_found", `employee ${input.employeeId} does not exist`);
    const chat = this.addChat("boss", e.name, [e.id], { createdAt: this.at() });
    this.emit({ type: "chat_changed", chatId: chat.id });
    return this.chatDto(chat);
  }

  private createGroup(input: CreateGroup): ChatDto {
    const name = input.name.trim();
    if (name === "") fail("invalid_input", "the group needs a name");
    const members = [...new Set(input.memberIds)];
    if (members.length < 2) fail("invalid_input", "a group needs at least two people");
    for (const id of members) {
      if (!this.employees.some((e) => e.id === id && e.status !== "fired")) fail("not_found", `employee ${id} does not exist`);
    }
    const chat = this.addChat("group", name, members, { mode: input.mode, createdAt: this.at() });
    this.emit({ type: "chat_changed", chatId: chat.id });
    return this.chatDto(chat);
  }

  // ---- Minds ----

  /** A memory, for seeding: long-term, importance 5, private, unless told otherwise. */
  addMemory(employeeId: number, content: string, fields: Partial<Omit<MemoryDto, "id" | "content">> = {}): MemoryDto {
    const memory = {
      id: this.nextId++,
      employeeId,
      kind: "long_term" as const,
      content,
      importance: 5,
      visibility: "private" as const,
      expiresAt: null,
      createdAt: this.at(),
      ...fields,
    };
    this.memories.push(memory);
    return memory;
  }

  /** What `employeeId` thinks of `otherId` (one direction), for seeding. */
  relate(employeeId: number, otherId: number, affinity: number, impression = "", interactions = 3): FakeRelationship {
    this.relationships = this.relationships.filter((r) => !(r.employeeId === employeeId && r.otherId === otherId));
    const r: FakeRelationship = { employeeId, otherId, impression, affinity, interactions, updatedAt: this.at() };
    this.relationships.push(r);
    return r;
  }

  addTask(ownerId: number, description: string, createdAt: string = this.at()): FakeTask {
    const task: FakeTask = { id: this.nextId++, ownerId, description, createdAt };
    this.tasks.push(task);
    return task;
  }

  private profile(input: EmployeeRef): EmployeeProfileDto {
    // Like the Rust side, a fired employee's profile still opens.
    const e = this.employees.find((x) => x.id === input.employeeId) ?? fail("not_found", `employee ${input.employeeId} does not exist`);
    const s = this.stamina.get(e.id) ?? DEFAULT_STAMINA;
    const comfort = comfortOf(s);
    const spend = this.employeeSpend.get(e.id) ?? { todayUsd: 0, totalUsd: 0 };
    return structuredClone({
      employee: e,
      departmentName: this.departments.find((d) => d.id === e.departmentId)?.name ?? null,
      managerName: this.employees.find((m) => m.id === e.managerId)?.name ?? null,
      persona: `Personality: ${e.archetype.replace(/_/g, " ")}. Calm, experienced and hard to rattle. Tone: dry, economical.`,
      stamina: { ...s, comfort, zone: zoneOf(comfort) },
      // Newest first, as the Rust side sends them.
      memories: this.memories
        .filter((m) => m.employeeId === e.id)
        .reverse()
        .map(({ employeeId: _, ...m }) => m),
      relationships: this.relationships
        .filter((r) => r.employeeId === e.id)
        .sort((a, b) => a.otherId - b.otherId)
        .map((r) => ({
          otherId: r.otherId,
          otherName: this.employees.find((o) => o.id === r.otherId)?.name ?? "",
          impression: r.impression,
          affinity: r.affinity,
          interactions: r.interactions,
          updatedAt: r.updatedAt,
        })),
      pendingTasks: this.tasks.filter((t) => t.ownerId === e.id).map(({ ownerId: _, ...t }) => t),
      spendTodayUsd: spend.todayUsd,
      spendTotalUsd: spend.totalUsd,
      thoughts: this.thoughts.filter((t) => t.employeeId === e.id).slice(-30).reverse(),
    });
  }

  private deleteMemory(input: MemoryRef): null {
    const m = this.memories.find((x) => x.id === input.memoryId) ?? fail("not_found", `memory ${input.memoryId} does not exist`);
    this.memories = this.memories.filter((x) => x.id !== m.id);
    this.emit({ type: "mind_changed", employeeId: m.employeeId });
    return null;
  }

  private resetRelationships(input: ResetRelationships): null {
    this.relationships = this.relationships.filter(
      (r) => !(r.employeeId === input.employeeId && (input.otherId === null || r.otherId === input.otherId)),
    );
    this.emit({ type: "mind_changed", employeeId: input.employeeId });
    return null;
  }

  /** Current staff only, and only relationships between them. */
  private graph(): RelationshipGraphDto {
    if (!this.company) return { nodes: [], edges: [] };
    const staff = this.employees.filter((e) => e.status !== "fired");
    const current = new Set(staff.map((e) => e.id));
    return structuredClone({
      nodes: staff.map((e) => ({
        id: e.id,
        name: e.name,
        title: e.title,
        departmentId: e.departmentId,
        departmentName: this.departments.find((d) => d.id === e.departmentId)?.name ?? null,
      })),
      edges: this.relationships
        .filter((r) => current.has(r.employeeId) && current.has(r.otherId))
        .map((r) => ({ from: r.employeeId, to: r.otherId, affinity: r.affinity, impression: r.impression })),
    });
  }
}
