// The approvals half of the in-memory Cubicle (see fakeBackend.ts): actions an employee asked for that
// wait for the boss, with the same order, error codes and domain events as the Rust side
// (crates/core/src/approvals.rs): the first decision wins, deciding again the same way returns the
// approval unchanged, the other way is `already_decided`, and a waiting approval past its time is
// `approval_expired`.
import type { ApprovalDto } from "../../bindings/ApprovalDto";
import type { ApprovalFilter } from "../../bindings/ApprovalFilter";
import type { DecideApproval } from "../../bindings/DecideApproval";
import type { DecisionResult } from "../../bindings/DecisionResult";
import type { DecidedVia } from "../../bindings/DecidedVia";
import type { Decision } from "../../bindings/Decision";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { ToolName } from "../../bindings/ToolName";
import type { TraceEventDto } from "../../bindings/TraceEventDto";
import type { WebhookDestinations } from "../../bindings/WebhookDestinations";
import { destinationOf } from "../../settings/webhooks";
import type { CommandPart } from "./commandTable";
import { FakeMeetings } from "./fakeMeetings";
import { TOOL_RISK } from "./fakeToolCatalogue";

/** As on the Rust side (LIST_LIMIT). */
const APPROVAL_LIST_LIMIT = 200;
/** How long an approval waits unless seeded otherwise (the Rust default is a day). */
const DEFAULT_EXPIRY_MS = 24 * 60 * 60 * 1000;


/** What seeding an approval may set; the rest has defaults (waiting, now, a day to decide). */
export type NewApproval = Partial<Omit<ApprovalDto, "id" | "employeeId" | "requesterName" | "tool">>;

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

/** A stand-in for the SHA-256 of the canonical arguments: 64 hex digits, the same for the same arguments. */
export function fakeArgsHash(args: unknown): string {
  const text = JSON.stringify(args) ?? "";
  let out = "";
  for (let round = 0; round < 8; round++) {
    let h = 0x811c9dc5 ^ round;
    for (let i = 0; i < text.length; i++) {
      h ^= text.charCodeAt(i);
      h = Math.imul(h, 0x01000193) >>> 0;
    }
    out += h.toString(16).padStart(8, "0");
  }
  return out;
}

/** Approvals on top of the meetings; FakeBackend adds the rest. */
export abstract class FakeApprovals extends FakeMeetings {
  approvals: ApprovalDto[] = [];
  /** The boss's webhook allowlist. */
  webhookHosts: string[] = [];
  private nextApproval = 1;
  /** What approving runs into, by approval id: a result, or an error (the decision still stands). */
  actionOutcomes = new Map<number, { result: unknown } | { error: string }>();

  /** The approval and webhook commands. */
  protected approvalCommands() {
    return {
      list_approvals: ({ input }) => this.listApprovals(input),
      decide_approval: ({ input }) => this.decideApproval(input, "ui"),
      decide_approvals: ({ input }) => input.decisions.map((d) => this.decideOneOfMany(d)),
      webhook_destinations: () => ({ hosts: [...this.webhookHosts] }),
      set_webhook_destinations: ({ input }) => this.setWebhookDestinations(input),
    } satisfies CommandPart;
  }

  private approvalAt(offsetMs = 0): string {
    return new Date(this.now() + offsetMs).toISOString().replace(/\.\d{3}Z$/, "Z");
  }

  private requester(id: number): string {
    return this.employees.find((e) => e.id === id)?.name ?? "";
  }

  /** As the Rust side: every entry normalised and kept once, or nothing changes. */
  private setWebhookDestinations(input: WebhookDestinations): WebhookDestinations {
    const out: string[] = [];
    for (const raw of input.hosts.filter((h) => h.trim() !== "")) {
      const host = destinationOf(raw) ?? fail("invalid_input", `${JSON.stringify(raw)} is not a host name, host:port or http(s) URL`);
      if (!out.includes(host)) out.push(host);
    }
    this.webhookHosts = out;
    return { hosts: [...out] };
  }

  /** Approvals still waiting for the boss (the dashboard figure and the nav badge). */
  protected pendingApprovalCount(): number {
    return this.approvals.filter((a) => a.status === "waiting").length;
  }

  // ---- Seeding ----

  /** An approval, for seeding: waiting, now, a day to decide, proposed by its requester. No event. */
  addApproval(employeeId: number, tool: string, fields: NewApproval = {}): ApprovalDto {
    const requesterName = this.requester(employeeId);
    const args = fields.args ?? {};
    const reason = fields.reason ?? "";
    const createdAt = fields.createdAt ?? this.approvalAt();
    const approval: ApprovalDto = {
      id: this.nextApproval++,
      employeeId,
      requesterName,
      tool,
      risk: TOOL_RISK[tool as ToolName] ?? "high",
      args,
      argsHash: fakeArgsHash(args),
      summary: tool,
      reason,
      costEstimateUsd: 0,
      traceId: null,
      chatId: null,
      status: "waiting",
      authorizationChain: [{ who: requesterName, employeeId, role: "proposed", rule: reason, weight: null }],
      decidedVia: null,
      note: null,
      createdAt,
      expiresAt: new Date(Date.parse(createdAt) + DEFAULT_EXPIRY_MS).toISOString().replace(/\.\d{3}Z$/, "Z"),
      decidedAt: null,
      result: null,
      error: null,
      executedAt: null,
      runStartedAt: null,
      approverId: null,
      decidedBy: null,
      ...fields,
    };
    this.approvals.push(approval);
    return approval;
  }

  /** An employee asks for an action while the app runs: the approval, and the events the Rust side sends. */
  requestApproval(employeeId: number, tool: string, fields: NewApproval = {}): ApprovalDto {
    const approval = this.addApproval(employeeId, tool, fields);
    this.emit({ type: "approval_requested", approvalId: approval.id });
    this.emit({ type: "employee_updated", employeeId });
    return structuredClone(approval);
  }

  /** Someone else decides first (a notification button, the CLI, a policy), as the Rust side records it. */
  decideElsewhere(approvalId: number, decision: Decision, via: DecidedVia, note: string | null = null): ApprovalDto {
    const argsHash = this.approvals.find((x) => x.id === approvalId)?.argsHash ?? "";
    return this.decideApproval({ approvalId, decision, note, argsHash }, via);
  }

  // ---- Commands ----

  private listApprovals(filter: ApprovalFilter): ApprovalDto[] {
    const byAge = (a: ApprovalDto, b: ApprovalDto) => a.createdAt.localeCompare(b.createdAt) || a.id - b.id;
    if (filter.kind === "pending") {
      // Oldest first: what has waited longest comes first.
      return structuredClone(this.approvals.filter((a) => a.status === "waiting").sort(byAge).slice(0, APPROVAL_LIST_LIMIT));
    }
    return structuredClone(
      this.approvals
        .filter((a) => a.status !== "waiting")
        .filter((a) => filter.status === null || a.status === filter.status)
        .filter((a) => filter.employeeId === null || a.employeeId === filter.employeeId)
        .sort((a, b) => byAge(b, a))
        .slice(0, APPROVAL_LIST_LIMIT),
    );
  }

  /** As core's `decide_all`: one refused or settled elsewhere does not stop the rest. */
  private decideOneOfMany(input: DecideApproval): DecisionResult {
    try {
      return { kind: "decided", approval: this.decideApproval(input, "ui") };
    } catch (e) {
      const error = e as IpcError;
      const now = this.approvals.find((x) => x.id === input.approvalId);
      if (now && (error.code === "already_decided" || error.code === "approval_expired")) {
        return { kind: "settled_elsewhere", approval: structuredClone(now) };
      }
      return { kind: "failed", approvalId: input.approvalId, error };
    }
  }

  private decideApproval(input: DecideApproval, via: DecidedVia): ApprovalDto {
    const a = this.approvals.find((x) => x.id === input.approvalId) ?? fail("not_found", `approval ${input.approvalId} does not exist`);
    const now = this.now();
    if (a.status === "waiting" && Date.parse(a.expiresAt) <= now) {
      a.status = "expired";
      a.decidedAt = this.approvalAt();
      this.emit({ type: "approval_decided", approvalId: a.id });
    }
    const wanted = input.decision === "approve" ? "approved" : "rejected";
    // As core: approving is bound to the action the deciding screen showed.
    if (a.status === "waiting" && input.decision === "approve" && input.argsHash !== a.argsHash) {
      fail("approval_changed", `approval ${a.id} changed after it was shown to you; nothing was run`);
    }
    if (a.status !== "waiting") {
      if (a.status === wanted) return structuredClone(a);
      if (a.status === "expired") fail("approval_expired", `approval ${a.id} expired`);
      fail("already_decided", `approval ${a.id} was already ${a.status}`);
    }
    const note = input.note !== null && input.note.trim() !== "" ? input.note.trim() : null;
    a.status = wanted;
    a.decidedVia = via;
    a.decidedAt = this.approvalAt();
    a.note = note;
    a.authorizationChain = [
      ...a.authorizationChain,
      { who: via === "policy" ? "policy" : "boss", employeeId: null, role: "decided", rule: `${wanted} via ${via}${note ? `: ${note}` : ""}`, weight: null },
    ];
    if (wanted === "approved") {
      const outcome = this.actionOutcomes.get(a.id) ?? { result: "done" };
      a.runStartedAt = a.executedAt = this.approvalAt();
      if ("error" in outcome) a.error = outcome.error;
      else a.result = outcome.result;
    }
    this.emit({ type: "approval_decided", approvalId: a.id });
    this.emit({ type: "employee_updated", employeeId: a.employeeId });
    return structuredClone(a);
  }

  // ---- Traces ----

  /** An approval is a line of its instruction's trace: "tool: reason", with its status (trace.rs). */
  protected override traceApprovals(traceId: string): TraceEventDto[] {
    return this.approvals
      .filter((a) => a.traceId === traceId)
      .map((a) => ({
        at: a.createdAt,
        kind: "approval" as const,
        employeeId: a.employeeId,
        actor: this.requester(a.employeeId),
        text: `${a.tool}: ${a.reason}`,
        chatId: a.chatId,
        chatName: a.chatId === null ? null : (this.chats.find((c) => c.id === a.chatId)?.name ?? null),
        taskId: null,
        mailId: null,
        approvalId: a.id,
        costUsd: null,
        tokens: null,
        outcome: a.status,
      }));
  }
}
