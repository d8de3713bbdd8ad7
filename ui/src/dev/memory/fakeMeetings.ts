// The meetings half of the in-memory Cubicle (see fakeBackend.ts): a meeting is a chat of kind
// `meeting` with a moderator (its strategy, who has the floor, its notes on why) and the decisions
// ruled in it, with the same error codes, closing steps and domain events as the Rust side
// (crates/core/src/meeting/view.rs, minutes.rs).
import type { DecisionDto } from "../../bindings/DecisionDto";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { MeetingRef } from "../../bindings/MeetingRef";
import type { MeetingViewDto } from "../../bindings/MeetingViewDto";
import type { ModeratorNoteDto } from "../../bindings/ModeratorNoteDto";
import type { MoveKind } from "../../bindings/MoveKind";
import type { Strategy } from "../../bindings/Strategy";
import type { CommandPart } from "./commandTable";
import { FakeWork } from "./fakeWork";

/** As on the Rust side (DEFAULT_MAX_TURNS): a meeting's turn cap unless told otherwise. */
const DEFAULT_MAX_TURNS = 12;
/** As on the Rust side (MINUTES_QUOTE_CHARS): characters of one turn quoted in the extractive minutes. */
const MINUTES_QUOTE_CHARS = 160;

/** A meeting as the fake keeps it; names (speaker, note takers) are looked up on reading. */
export interface FakeMeeting {
  chatId: number;
  topic: string;
  strategy: Strategy;
  status: "open" | "closed";
  maxTurns: number;
  speakerId: number | null;
  minutes: string | null;
  notes: Array<Omit<ModeratorNoteDto, "employeeName">>;
  decisions: DecisionDto[];
  createdAt: string;
  closedAt: string | null;
}

/** What seeding a decision may set; everything else has a default (an approved "other" question, by vote, now). */
export type NewDecision = Partial<Omit<DecisionDto, "id" | "question">>;

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

const cut = (text: string, max: number) => {
  const chars = Array.from(text);
  return chars.length <= max ? text : `${chars.slice(0, max).join("")}…`;
};

/** Meetings on top of the work; FakeBackend adds the rest. */
export abstract class FakeMeetings extends FakeWork {
  meetings: FakeMeeting[] = [];

  /** The meeting commands. */
  protected meetingCommands() {
    return {
      meeting_view: ({ input }) => this.meetingView(input),
      close_meeting: ({ input }) => this.closeMeeting(input),
    } satisfies CommandPart;
  }

  private meetingAt(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  private personName(id: number | null): string {
    return id === null ? "" : (this.employees.find((e) => e.id === id)?.name ?? "");
  }

  // ---- Seeding ----

  /** A meeting and its chat (named after the topic), for seeding: open, rule-based, nobody on the floor yet. */
  addMeeting(topic: string, memberIds: number[], fields: Partial<Omit<FakeMeeting, "chatId" | "topic" | "notes" | "decisions">> = {}): FakeMeeting {
    const createdAt = fields.createdAt ?? this.meetingAt();
    const chat = this.addChat("meeting", topic, memberIds, { topic, createdAt });
    const meeting: FakeMeeting = {
      chatId: chat.id,
      topic,
      strategy: "rule_based",
      status: "open",
      maxTurns: DEFAULT_MAX_TURNS,
      speakerId: null,
      minutes: null,
      closedAt: null,
      ...fields,
      createdAt,
      notes: [],
      decisions: [],
    };
    this.meetings.push(meeting);
    return meeting;
  }

  /** A decision ruled (or escalated) in a meeting, for seeding. */
  addDecision(chatId: number, question: string, fields: NewDecision = {}): DecisionDto {
    const decision: DecisionDto = {
      id: this.nextId++,
      question,
      decisionType: "other",
      outcome: "approved",
      decidedByKind: "vote",
      decidedByName: null,
      status: "decided",
      authorizationChain: [],
      traceId: null,
      createdAt: this.meetingAt(),
      ...fields,
    };
    this.meeting(chatId).decisions.push(decision);
    return decision;
  }

  /** One of the moderator's moves and its reason, for seeding (oldest first, as they happen). */
  addModeratorNote(chatId: number, kind: MoveKind, employeeId: number | null, reason: string, at: string = this.meetingAt()): void {
    this.meeting(chatId).notes.push({ kind, employeeId, reason, at });
  }

  meeting(chatId: number): FakeMeeting {
    return this.meetings.find((m) => m.chatId === chatId) ?? fail("not_found", `chat ${chatId} is not a meeting`);
  }

  // ---- Commands ----

  private view(m: FakeMeeting): MeetingViewDto {
    return structuredClone({
      chatId: m.chatId,
      topic: m.topic,
      strategy: m.strategy,
      status: m.status,
      maxTurns: m.maxTurns,
      speakerId: m.speakerId,
      speakerName: m.speakerId === null ? null : this.personName(m.speakerId) || null,
      minutes: m.minutes,
      notes: m.notes.map((n) => ({ ...n, employeeName: this.personName(n.employeeId) })),
      decisions: m.decisions,
      createdAt: m.createdAt,
      closedAt: m.closedAt,
    });
  }

  private meetingView(input: MeetingRef): MeetingViewDto {
    return this.view(this.meeting(input.chatId));
  }

  /**
   * The boss ends the meeting: minutes quoted from the turns (the fake has no summary model), filed in
   * the mailbox, and a closing note in the chat — as at a natural close.
   */
  private closeMeeting(input: MeetingRef): MeetingViewDto {
    const m = this.meeting(input.chatId);
    if (m.status !== "open") fail("invalid_input", "this meeting is already closed");
    const zh = this.company?.language === "zh-CN";
    const turns = this.chatMessages
      .filter((msg) => msg.chatId === m.chatId && msg.senderKind !== "system")
      .map((msg) => `${msg.senderKind === "boss" ? (this.company?.bossName ?? "") : this.personName(msg.senderEmployeeId) || msg.senderName}: ${cut(msg.text, MINUTES_QUOTE_CHARS)}`);
    const ruled = m.decisions.map((d) => `${d.question} — ${d.status === "escalated" ? (zh ? "待老板决定" : "for the boss") : d.outcome}`);
    m.minutes = [...turns, ...ruled].join("\n") || (zh ? "会上没有人发言。" : "Nobody spoke.");
    m.status = "closed";
    m.closedAt = this.meetingAt();
    m.speakerId = null;
    this.addMail("minutes", { title: zh ? `会议纪要：${m.topic}` : `Minutes: ${m.topic}`, body: m.minutes, chatId: m.chatId });
    const note = this.addChatMessage(
      m.chatId,
      "system",
      zh
        ? "会议结束，纪要已存入每位成员的记忆并发到老板的邮箱。"
        : "The meeting is closed; the minutes went to every member's memory and the boss's mailbox.",
    );
    this.emit({ type: "chat_message_posted", chatId: m.chatId, messageId: note.id });
    this.emit({ type: "mail_changed" });
    return this.view(m);
  }
}
