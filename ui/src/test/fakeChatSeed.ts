// Seeded chats, messages and thoughts, and the reads that show them; builders of traces and meetings.
// Nothing is computed: unread counts and the order of the list are what the test sets; a chat's last
// message is its last seeded one.
import type { ChatDto } from "../bindings/ChatDto";
import type { ChatKind } from "../bindings/ChatKind";
import type { ChatMessageDto } from "../bindings/ChatMessageDto";
import type { DecisionDto } from "../bindings/DecisionDto";
import type { MeetingViewDto } from "../bindings/MeetingViewDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { ThoughtDto } from "../bindings/ThoughtDto";
import type { TraceDto } from "../bindings/TraceDto";
import type { TraceEventDto } from "../bindings/TraceEventDto";
import type { TraceSummaryDto } from "../bindings/TraceSummaryDto";
import { ipcError, type Handlers } from "./fake";
import { CREATED, seedId } from "./fakeFixtures";

export type Sender = "boss" | "system" | number;

export class ChatSeed {
  chats: ChatDto[] = [];
  messages: ChatMessageDto[] = [];
  thoughts: ThoughtDto[] = [];

  /** Each department with people gets its chat, as the app makes them. */
  constructor(private readonly org: OrgSnapshot) {
    for (const d of org.departments) {
      const members = org.employees.filter((e) => e.departmentId === d.id).map((e) => e.id);
      if (members.length > 0) this.add("department", d.name, members, { departmentId: d.id });
    }
  }

  add(kind: ChatKind, name: string, memberIds: number[], overrides: Partial<ChatDto> = {}): ChatDto {
    const mode = kind === "department" || kind === "group" ? "casual" : "work";
    const chat: ChatDto = { id: seedId(), kind, mode, name, topic: null, departmentId: null, memberIds, unread: 0, lastMessage: null, createdAt: CREATED, ...overrides };
    this.chats.push(chat);
    return chat;
  }

  department(departmentId: number): ChatDto {
    return this.chats.find((c) => c.kind === "department" && c.departmentId === departmentId)!;
  }

  message(chatId: number, from: Sender, text: string, overrides: Partial<ChatMessageDto> = {}): ChatMessageDto {
    const name = typeof from === "number" ? this.name(from) : from === "boss" ? (this.org.company?.bossName ?? "") : "";
    const message: ChatMessageDto = {
      id: seedId(),
      chatId,
      senderKind: typeof from === "number" ? "employee" : from,
      senderEmployeeId: typeof from === "number" ? from : null,
      senderPersonId: null,
      senderName: name,
      text,
      mentions: [],
      traceId: null,
      createdAt: CREATED,
      correctsId: null,
      ...overrides,
    };
    this.messages.push(message);
    return message;
  }

  /** An inner thought; by default a silent one the model chose. */
  thought(employeeId: number, chatId: number | null, fields: Partial<ThoughtDto> = {}): ThoughtDto {
    const thought: ThoughtDto = {
      id: seedId(),
      employeeId,
      employeeName: this.name(employeeId),
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
      createdAt: CREATED,
      ...fields,
    };
    this.thoughts.push(thought);
    return thought;
  }

  private name(employeeId: number): string {
    return this.org.employees.find((e) => e.id === employeeId)?.name ?? "";
  }

  private dto(chat: ChatDto): ChatDto {
    return { ...chat, lastMessage: this.messages.filter((m) => m.chatId === chat.id).at(-1) ?? chat.lastMessage };
  }

  handlers(): Handlers {
    return {
      listChats: () => this.chats.map((c) => this.dto(c)),
      chatView: ({ chatId }) => {
        const chat = this.chats.find((c) => c.id === chatId) ?? ipcError("not_found", `chat ${chatId} does not exist`);
        return {
          chat: this.dto(chat),
          messages: this.messages.filter((m) => m.chatId === chatId),
          thoughts: this.thoughts.filter((t) => t.chatId === chatId),
        };
      },
      markChatRead: () => null,
    };
  }
}

// ---- Traces ----

let nextTrace = 0;

/** A line of a trace: kind and time at least; the rest empty. */
export function traceEvent(event: Partial<TraceEventDto> & Pick<TraceEventDto, "kind" | "at">): TraceEventDto {
  const blank = { employeeId: null, actor: "", text: "", chatId: null, chatName: null, taskId: null, mailId: null, approvalId: null };
  return { ...blank, costUsd: null, tokens: null, outcome: null, ...event };
}

/** A boss instruction's trace as get_trace answers it; ids look like the backend's (`tr-` and 12 hex digits). */
export function traceOf(instruction: string, summary: Partial<TraceSummaryDto> = {}, rest: Partial<Omit<TraceDto, "summary">> = {}): TraceDto {
  const id = `tr-${(0xa1b2c3d4e500 + nextTrace++).toString(16)}`;
  const s: TraceSummaryDto = { id, origin: "chat", instruction, chatId: null, createdAt: CREATED, calls: 0, costUsd: 0, ...summary };
  const events = [traceEvent({ kind: "instruction", at: s.createdAt, text: instruction, chatId: s.chatId })];
  return { summary: s, events, steps: 0, tokens: 0, tasksPending: 0, ...rest };
}

// ---- Meetings ----

/** A meeting as meeting_view answers it: open, rule-based, nobody on the floor yet, no decisions. */
export function meetingOf(chat: ChatDto, fields: Partial<MeetingViewDto> = {}): MeetingViewDto {
  const base = { chatId: chat.id, topic: chat.topic ?? chat.name, strategy: "rule_based" as const, status: "open" as const, maxTurns: 12 };
  return { ...base, speakerId: null, speakerName: null, minutes: null, notes: [], decisions: [], createdAt: chat.createdAt, closedAt: null, ...fields };
}

/** A decision ruled in a meeting (by vote, approved) unless told otherwise. */
export function decision(question: string, fields: Partial<DecisionDto> = {}): DecisionDto {
  const base = { id: seedId(), question, decisionType: "other" as const, outcome: "approved" as const, decidedByKind: "vote" as const, decidedByName: null };
  return { ...base, status: "decided", authorizationChain: [], traceId: null, createdAt: CREATED, ...fields };
}
