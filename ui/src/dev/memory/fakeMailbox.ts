// The mailbox half of the in-memory Cubicle (see fakeBackend.ts): reports, escalations and budget
// stops addressed to the boss, unread → read → archived, with the same filters, order, error codes
// and domain event as the Rust side (crates/core/src/mailbox.rs).
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { MailboxDto } from "../../bindings/MailboxDto";
import type { MailDto } from "../../bindings/MailDto";
import type { MailFilter } from "../../bindings/MailFilter";
import type { MailKind } from "../../bindings/MailKind";
import type { MailStatus } from "../../bindings/MailStatus";
import type { SetMailStatus } from "../../bindings/SetMailStatus";
import type { CommandPart } from "./commandTable";
import { FakeChatsAndMinds } from "./fakeChats";

/** As on the Rust side: a listing returns the newest 500; titles and bodies are cut to these lengths. */
const LIST_LIMIT = 500;
const TITLE_MAX_CHARS = 200;
const BODY_MAX_CHARS = 4000;

const MAIL_KINDS: readonly MailKind[] = ["report", "escalation", "budget", "digest"];
const MAIL_STATUSES: readonly MailStatus[] = ["unread", "read", "archived"];

/** An item as the fake keeps it: the sender's name is looked up on reading (the one filed is the fallback). */
export type FakeMail = MailDto;

/** What seeding an item may set; everything else has a default (unread, now, no chat or task). */
export type NewMail = Partial<Omit<MailDto, "id" | "kind" | "employeeName">> & { title: string; body?: string };

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

const cut = (text: string, max: number) => Array.from(text).slice(0, max).join("");

/** Mailbox state and commands on top of the chats and minds; FakeBackend adds the rest. */
export abstract class FakeMailbox extends FakeChatsAndMinds {
  /** Seed with addMail (or the helpers after it); `fileMail` files one while the UI is open. */
  mail: FakeMail[] = [];
  /** While set, the mailbox cannot be read: every list_mail fails with it (failures fail one call only). */
  mailError: IpcError | null = null;

  /** The mailbox commands. */
  protected mailCommands() {
    return {
      list_mail: ({ input }) => this.listMail(input),
      set_mail_status: ({ input }) => this.setMailStatus(input),
    } satisfies CommandPart;
  }

  private mailAt(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  /** An item in the mailbox, for seeding (no event: the UI has not started yet). Unread unless told otherwise. */
  addMail(kind: MailKind, fields: NewMail): FakeMail {
    const employeeId = fields.employeeId ?? null;
    const item: FakeMail = {
      id: this.nextId++,
      kind,
      employeeId,
      employeeName: employeeId === null ? "" : (this.employees.find((e) => e.id === employeeId)?.name ?? ""),
      chatId: fields.chatId ?? null,
      taskId: fields.taskId ?? null,
      title: cut(fields.title, TITLE_MAX_CHARS),
      body: cut(fields.body ?? "", BODY_MAX_CHARS),
      status: fields.status ?? "unread",
      createdAt: fields.createdAt ?? this.mailAt(),
      traceId: fields.traceId ?? null,
    };
    this.mail.push(item);
    return item;
  }

  /** An employee's report on a finished task, in their own words (SPEC §6: a copy of what they told the boss). */
  addReport(employeeId: number, title: string, body: string, fields: Omit<NewMail, "title" | "body" | "employeeId"> = {}): FakeMail {
    return this.addMail("report", { ...fields, employeeId, title, body });
  }

  /** A task that runs late, escalated to the boss. */
  addEscalation(employeeId: number, title: string, body: string, fields: Omit<NewMail, "title" | "body" | "employeeId"> = {}): FakeMail {
    return this.addMail("escalation", { ...fields, employeeId, title, body });
  }

  /** Today's budget is spent and new work has stopped: filed once a day, from no one in particular. */
  addBudgetStop(fields: Partial<NewMail> = {}): FakeMail {
    const budget = (this.company?.dailyBudgetUsd ?? 10).toFixed(2);
    return this.addMail("budget", {
      title: "Work stopped: today's budget is spent",
      body: `Today's model spend reached the daily budget of $${budget}, so no new work starts. Work resumes tomorrow, or as soon as the budget is raised.`,
      ...fields,
    });
  }

  /** An item filed while the UI is open: the item, then the event the engine sends. */
  fileMail(kind: MailKind, fields: NewMail): FakeMail {
    const item = this.addMail(kind, fields);
    this.emit({ type: "mail_changed" });
    return item;
  }

  private mailDto(m: FakeMail): MailDto {
    const name = m.employeeId === null ? "" : (this.employees.find((e) => e.id === m.employeeId)?.name ?? m.employeeName);
    return structuredClone({ ...m, employeeName: name });
  }

  /** Newest first (by time, then the newer id); `status: null` is everything but the archive. */
  private listMail(filter: MailFilter): MailboxDto {
    if (this.mailError) throw structuredClone(this.mailError);
    if (filter.status !== null && !MAIL_STATUSES.includes(filter.status)) fail("invalid_input", `unknown status ${filter.status}`);
    if (filter.kind !== null && !MAIL_KINDS.includes(filter.kind)) fail("invalid_input", `unknown kind ${filter.kind}`);
    const items = this.mail
      .filter((m) => (filter.status === null ? m.status !== "archived" : m.status === filter.status))
      .filter((m) => filter.kind === null || m.kind === filter.kind)
      .filter((m) => filter.employeeId === null || m.employeeId === filter.employeeId)
      .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id))
      .slice(0, LIST_LIMIT)
      .map((m) => this.mailDto(m));
    return { items, unread: this.mail.filter((m) => m.status === "unread").length };
  }

  private setMailStatus(input: SetMailStatus): null {
    if (!MAIL_STATUSES.includes(input.status)) fail("invalid_input", `unknown status ${input.status}`);
    const item = this.mail.find((m) => m.id === input.mailId) ?? fail("not_found", `mail ${input.mailId} does not exist`);
    item.status = input.status;
    this.emit({ type: "mail_changed" });
    return null;
  }
}
