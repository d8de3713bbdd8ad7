// The work half of the in-memory Cubicle (see fakeBackend.ts): requirements with their reviewer and
// task trees (the requirements board), and traces — each boss instruction and everything done under
// it — with the same order, error codes and domain events as the Rust side (crates/core/src/work.rs,
// trace.rs). A trace's messages and mail are the fake's own chat messages and mail carrying its id;
// its tasks are the board's tasks carrying it; thoughts and model calls are seeded onto the trace.
import type { BoardDto } from "../../bindings/BoardDto";
import type { BoardItemDto } from "../../bindings/BoardItemDto";
import type { DeliverableDto } from "../../bindings/DeliverableDto";
import type { DeliverableRef } from "../../bindings/DeliverableRef";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { Origin } from "../../bindings/Origin";
import type { RequirementDto } from "../../bindings/RequirementDto";
import type { RequirementStatus } from "../../bindings/RequirementStatus";
import type { SetRequirementStatus } from "../../bindings/SetRequirementStatus";
import type { SetReviewer } from "../../bindings/SetReviewer";
import type { TaskDto } from "../../bindings/TaskDto";
import type { TaskNodeDto } from "../../bindings/TaskNodeDto";
import type { TraceDto } from "../../bindings/TraceDto";
import type { TraceEventDto } from "../../bindings/TraceEventDto";
import type { TraceRef } from "../../bindings/TraceRef";
import type { TraceSummaryDto } from "../../bindings/TraceSummaryDto";
import type { ChatMessageDto } from "../../bindings/ChatMessageDto";
import type { CommandPart } from "./commandTable";
import type { Sender } from "./fakeChats";
import { FakeMailbox } from "./fakeMailbox";

const REQUIREMENT_STATUSES: readonly RequirementStatus[] = ["open", "in_progress", "in_review", "waiting_for_boss", "done", "cancelled"];
/** As on the Rust side: list_traces returns the latest 200. */
const TRACE_LIST_LIMIT = 200;

/** A trace as the fake keeps it: the instruction, plus the lines that are not messages, mail or tasks. */
export interface FakeTrace {
  id: string;
  origin: Origin;
  instruction: string;
  chatId: number | null;
  createdAt: string;
  /** Thoughts and model calls (and anything else seeded by hand), in any order. */
  events: TraceEventDto[];
}

/** A line of a trace as seeded: kind and time at least; the rest defaults to empty. */
export type NewTraceEvent = Partial<TraceEventDto> & Pick<TraceEventDto, "kind" | "at">;

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

/** Same instant: the instruction, then tasks, calls, thoughts, results, approvals and tool calls, messages, rulings and mail (trace.rs). */
const RANK: Record<TraceEventDto["kind"], number> = {
  instruction: 0,
  task_created: 1,
  model_call: 2,
  thought: 3,
  task_resolved: 4,
  task_failed: 4,
  approval: 4,
  tool_call: 4,
  message: 5,
  ruling: 6,
  mail: 7,
};

const blankEvent = (at: string, kind: TraceEventDto["kind"]): TraceEventDto => ({
  at,
  kind,
  employeeId: null,
  actor: "",
  text: "",
  chatId: null,
  chatName: null,
  taskId: null,
  mailId: null,
  approvalId: null,
  costUsd: null,
  tokens: null,
  outcome: null,
});

/** Requirements, their tasks and traces on top of the mailbox; FakeBackend adds the rest. */
export abstract class FakeWork extends FakeMailbox {
  requirements: RequirementDto[] = [];
  /** Every task of every requirement (and any other task a trace needs), as the board shows them. */
  workTasks: TaskDto[] = [];
  traces: FakeTrace[] = [];
  /** Saved deliverables by task id, as `get_deliverable` returns them. */
  deliverables = new Map<number, DeliverableDto>();
  private nextTrace = 1;

  /** The requirement, deliverable and trace commands. */
  protected workCommands() {
    return {
      list_traces: () => this.listTraces(),
      get_trace: ({ input }) => this.getTrace(input),
      requirements_board: () => this.board(),
      set_requirement_status: ({ input }) => this.setRequirementStatus(input),
      set_reviewer: ({ input }) => this.setReviewer(input),
      get_deliverable: ({ input }) => this.getDeliverable(input),
    } satisfies CommandPart;
  }

  private workAt(): string {
    return new Date(this.now()).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  // ---- Seeding ----

  /** A requirement, for seeding: open, no reviewer, now, unless told otherwise. */
  addRequirement(name: string, fields: Partial<Omit<RequirementDto, "id" | "name">> = {}): RequirementDto {
    const r: RequirementDto = {
      id: this.nextId++,
      name,
      description: "",
      departmentId: null,
      status: "open",
      chatId: null,
      createdAt: this.workAt(),
      reviewerId: null,
      ownerId: null,
      ...fields,
    };
    this.requirements.push(r);
    return r;
  }

  /**
   * A task, for seeding: pending, attempt 0, created by the boss, now, unless told otherwise. A pending
   * one is also on its owner's list (profile, dashboard), as on the Rust side.
   */
  addWorkTask(ownerId: number, description: string, fields: Partial<Omit<TaskDto, "id" | "ownerId" | "description">> = {}): TaskDto {
    const task: TaskDto = {
      id: this.nextId++,
      ownerId,
      description,
      status: "pending",
      requirementId: null,
      createdBy: "boss",
      createdAt: this.workAt(),
      result: null,
      resolvedAt: null,
      parentTaskId: null,
      traceId: null,
      attempt: 0,
      reviewOf: null,
      kind: "oneshot",
      condition: null,
      needsReview: null,
      ...fields,
    };
    this.workTasks.push(task);
    if (task.status === "pending") this.tasks.push({ id: task.id, ownerId, description, createdAt: task.createdAt });
    return task;
  }

  /** A boss instruction, for seeding. Ids look like the backend's (`tr-` and 12 hex digits). */
  addTrace(instruction: string, fields: Partial<Omit<FakeTrace, "instruction" | "events">> = {}): FakeTrace {
    const trace: FakeTrace = {
      id: fields.id ?? `tr-${(0xa1b2c3d4e500 + this.nextTrace++).toString(16)}`,
      origin: fields.origin ?? "chat",
      instruction,
      chatId: fields.chatId ?? null,
      createdAt: fields.createdAt ?? this.workAt(),
      events: [],
    };
    this.traces.push(trace);
    return trace;
  }

  /** A thought, a model call or any other line of a trace, for seeding. */
  addTraceEvent(traceId: string, event: NewTraceEvent): TraceEventDto {
    const trace = this.traces.find((t) => t.id === traceId) ?? fail("not_found", `trace ${traceId}`);
    const full: TraceEventDto = { ...blankEvent(event.at, event.kind), ...event };
    if (full.employeeId !== null && full.actor === "") full.actor = this.nameOf(full.employeeId);
    if (full.chatId !== null && full.chatName === null) full.chatName = this.chats.find((c) => c.id === full.chatId)?.name ?? null;
    trace.events.push(full);
    return full;
  }

  /** A chat message under a trace, for seeding (a boss message starts one; employees work under it). */
  addTracedMessage(traceId: string, chatId: number, from: Sender, text: string, createdAt?: string): ChatMessageDto {
    const message = this.addChatMessage(chatId, from, text, createdAt);
    message.traceId = traceId;
    return message;
  }

  /** The approvals asked for under a trace, as its lines (FakeApprovals fills this in). */
  protected traceApprovals(_traceId: string): TraceEventDto[] {
    return [];
  }

  private nameOf(employeeId: number | null): string {
    return employeeId === null ? "" : (this.employees.find((e) => e.id === employeeId)?.name ?? "");
  }

  // ---- Traces ----

  private traceTasks(id: string): TaskDto[] {
    return this.workTasks.filter((t) => t.traceId === id);
  }

  private summary(trace: FakeTrace): TraceSummaryDto {
    const calls = trace.events.filter((e) => e.kind === "model_call");
    return {
      id: trace.id,
      origin: trace.origin,
      instruction: trace.instruction,
      chatId: trace.chatId,
      createdAt: trace.createdAt,
      calls: calls.length,
      costUsd: calls.reduce((sum, e) => sum + (e.costUsd ?? 0), 0),
    };
  }

  /** Newest first (by time, then the later id). */
  private listTraces(): TraceSummaryDto[] {
    return structuredClone(
      [...this.traces]
        .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : this.traces.indexOf(b) - this.traces.indexOf(a)))
        .slice(0, TRACE_LIST_LIMIT)
        .map((t) => this.summary(t)),
    );
  }

  private getTrace(input: TraceRef): TraceDto {
    const trace = this.traces.find((t) => t.id === input.id) ?? fail("not_found", `trace ${input.id} does not exist`);
    const chatName = (id: number | null) => (id === null ? null : (this.chats.find((c) => c.id === id)?.name ?? null));
    const boss = this.company?.bossName ?? "";
    const events: TraceEventDto[] = [
      { ...blankEvent(trace.createdAt, "instruction"), actor: boss, text: trace.instruction, chatId: trace.chatId, chatName: chatName(trace.chatId) },
      ...trace.events,
    ];
    const tasks = this.traceTasks(trace.id);
    for (const task of tasks) {
      const base = { ...blankEvent(task.createdAt, "task_created"), employeeId: task.ownerId, actor: this.nameOf(task.ownerId), taskId: task.id };
      events.push({ ...base, text: task.description });
      if (task.resolvedAt !== null) {
        events.push({ ...base, at: task.resolvedAt, kind: task.status === "failed" ? "task_failed" : "task_resolved", text: task.result ?? task.description });
      }
    }
    for (const m of this.chatMessages.filter((x) => x.traceId === trace.id)) {
      events.push({
        ...blankEvent(m.createdAt, "message"),
        employeeId: m.senderEmployeeId,
        actor: m.senderKind === "boss" ? boss : m.senderKind === "system" ? "" : this.nameOf(m.senderEmployeeId) || m.senderName,
        text: m.text,
        chatId: m.chatId,
        chatName: chatName(m.chatId),
      });
    }
    for (const m of this.mail.filter((x) => x.traceId === trace.id)) {
      events.push({
        ...blankEvent(m.createdAt, "mail"),
        employeeId: m.employeeId,
        actor: this.nameOf(m.employeeId),
        text: m.title,
        chatId: m.chatId,
        chatName: chatName(m.chatId),
        taskId: m.taskId,
        mailId: m.id,
        outcome: m.kind,
      });
    }
    events.push(...this.traceApprovals(trace.id));
    const indexed = events.map((e, i) => ({ e, i }));
    indexed.sort((a, b) => Date.parse(a.e.at) - Date.parse(b.e.at) || RANK[a.e.kind] - RANK[b.e.kind] || a.i - b.i);
    const calls = trace.events.filter((e) => e.kind === "model_call");
    return structuredClone({
      summary: this.summary(trace),
      events: indexed.map(({ e }) => e),
      // Thoughts that said something: each is one message an employee posted under the trace.
      steps: this.chatMessages.filter((m) => m.traceId === trace.id && m.senderKind === "employee").length,
      tokens: calls.reduce((sum, e) => sum + (e.tokens ?? 0), 0),
      tasksPending: tasks.filter((t) => t.status === "pending").length,
    });
  }

  // ---- The board ----

  private requirement(id: number): RequirementDto {
    return this.requirements.find((r) => r.id === id) ?? fail("not_found", `requirement ${id} does not exist`);
  }

  /** Reworks hang under the work they redo, reviews under the work they review; the oldest first. */
  private tree(requirementId: number): TaskNodeDto[] {
    const tasks = this.workTasks.filter((t) => t.requirementId === requirementId).sort((a, b) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id);
    const ids = new Set(tasks.map((t) => t.id));
    const parentOf = (t: TaskDto) => {
      const p = t.reviewOf ?? t.parentTaskId;
      return p !== null && ids.has(p) ? p : null;
    };
    const node = (t: TaskDto): TaskNodeDto => ({
      task: t,
      ownerName: this.nameOf(t.ownerId),
      children: tasks.filter((c) => parentOf(c) === t.id).map(node),
    });
    return tasks.filter((t) => parentOf(t) === null).map(node);
  }

  private item(r: RequirementDto): BoardItemDto {
    const tasks = this.workTasks.filter((t) => t.requirementId === r.id);
    return {
      requirement: r,
      departmentName: this.departments.find((d) => d.id === r.departmentId)?.name ?? null,
      reviewerId: r.reviewerId,
      reviewerName: r.reviewerId === null ? null : this.nameOf(r.reviewerId) || null,
      ownerName: r.ownerId === null ? null : this.nameOf(r.ownerId) || null,
      tasksPending: tasks.filter((t) => t.status === "pending").length,
      tasksDone: tasks.filter((t) => t.status === "resolved").length,
      tree: this.tree(r.id),
    };
  }

  private board(): BoardDto {
    return structuredClone({
      columns: REQUIREMENT_STATUSES.map((status) => ({
        status,
        items: this.requirements
          .filter((r) => r.status === status)
          .sort((a, b) => (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : b.id - a.id))
          .map((r) => this.item(r)),
      })),
    });
  }

  private setRequirementStatus(input: SetRequirementStatus): RequirementDto {
    if (!REQUIREMENT_STATUSES.includes(input.status)) fail("invalid_input", `unknown status ${input.status}`);
    const r = this.requirement(input.requirementId);
    r.status = input.status;
    this.emit({ type: "work_changed" });
    return structuredClone(r);
  }

  private getDeliverable(input: DeliverableRef): DeliverableDto {
    return this.deliverables.get(input.taskId) ?? fail("not_found", `task #${input.taskId} has no saved deliverable`);
  }

  private setReviewer(input: SetReviewer): RequirementDto {
    const r = this.requirement(input.requirementId);
    if (input.reviewerId !== null && !this.employees.some((e) => e.id === input.reviewerId && e.status !== "fired")) {
      fail("not_found", `employee ${input.reviewerId} does not exist`);
    }
    r.reviewerId = input.reviewerId;
    this.emit({ type: "work_changed" });
    return structuredClone(r);
  }
}
