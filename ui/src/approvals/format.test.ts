import { describe, expect, it } from "vitest";
import type { ApprovalDto } from "../bindings/ApprovalDto";
import { FakeBackend } from "../test/fakeBackend";
import { fixedOrg } from "../test/fakeFixtures";
import { canDecide, historyFilter, isLiteralSummary, minutesLeft, prettyArgs, resultText, shortHash } from "./format";

const NOW = Date.parse("2025-03-01T12:00:00Z");

describe("approval helpers", () => {
  it("lets only a waiting approval that has not run out be decided", () => {
    const a = { status: "waiting", expiresAt: "2025-03-01T12:30:00Z" } as ApprovalDto;
    expect(canDecide(a, NOW)).toBe(true);
    expect(canDecide({ ...a, expiresAt: "2025-03-01T11:59:00Z" }, NOW)).toBe(false);
    expect(canDecide({ ...a, status: "approved" }, NOW)).toBe(false);
    expect(minutesLeft("2025-03-01T12:30:00Z", NOW)).toBe(30);
    expect(minutesLeft("2025-03-01T11:00:00Z", NOW)).toBe(0);
  });

  it("shows arguments, results and hashes readably", () => {
    expect(prettyArgs({ command: "ls", cwd: "w" })).toBe('{\n  "command": "ls",\n  "cwd": "w"\n}');
    expect(prettyArgs("raw")).toBe("raw");
    expect(resultText(null)).toBeNull();
    expect(resultText("  ")).toBeNull();
    expect(resultText({ status: 200 })).toContain('"status": 200');
    expect(shortHash("0123456789abcdef0123")).toBe("0123456789ab");
    expect(isLiteralSummary("run_shell")).toBe(true);
    expect(isLiteralSummary("raise_budget")).toBe(false);
    expect(historyFilter({ status: "expired", employeeId: 3 })).toEqual({ kind: "history", status: "expired", employeeId: 3 });
  });
});

describe("the fake backend decides like the Rust side", () => {
  const decide = (b: FakeBackend, approvalId: number, decision: "approve" | "reject", seen?: string) => {
    const argsHash = seen ?? b.approvals.find((a) => a.id === approvalId)?.argsHash ?? "";
    return b.handle("decide_approval", { input: { approvalId, decision, note: null, argsHash } }) as ApprovalDto;
  };

  it("refuses to approve an action that is not the one the screen showed, and it keeps waiting", () => {
    const b = new FakeBackend(fixedOrg()).install();
    const a = b.addApproval(13, "run_shell", { args: { command: "ls" } });
    expect(() => decide(b, a.id, "approve", "stale")).toThrow(expect.objectContaining({ code: "approval_changed" }));
    expect(b.approvals[0]!.status).toBe("waiting");
    expect(decide(b, a.id, "approve").status).toBe("approved");
  });

  it("lets the first decision win: the same again is unchanged, the other way is already_decided", () => {
    const b = new FakeBackend(fixedOrg()).install();
    const a = b.addApproval(13, "post_webhook", { args: { url: "https://x" } });
    const first = decide(b, a.id, "approve");
    expect(first.status).toBe("approved");
    expect(first.decidedVia).toBe("ui");
    expect(decide(b, a.id, "approve")).toEqual(first);
    expect(() => decide(b, a.id, "reject")).toThrow(expect.objectContaining({ code: "already_decided" }));
    expect(() => decide(b, 999, "approve")).toThrow(expect.objectContaining({ code: "not_found" }));
  });

  it("refuses an approval past its time, and it stays expired", () => {
    const b = new FakeBackend(fixedOrg()).install();
    const a = b.addApproval(13, "run_shell", { expiresAt: "2000-01-01T00:00:00Z" });
    expect(() => decide(b, a.id, "approve")).toThrow(expect.objectContaining({ code: "approval_expired" }));
    expect(b.approvals[0]!.status).toBe("expired");
    expect(b.approvals[0]!.executedAt).toBeNull();
  });

  it("lists the waiting oldest first and the history newest first, filtered", () => {
    const b = new FakeBackend(fixedOrg()).install();
    const older = b.addApproval(13, "run_shell", { createdAt: "2025-03-01T10:00:00Z" });
    const newer = b.addApproval(11, "run_shell", { createdAt: "2025-03-01T11:00:00Z" });
    const done = b.addApproval(11, "hire", { createdAt: "2025-03-01T09:00:00Z", status: "approved" });
    const no = b.addApproval(13, "fire", { createdAt: "2025-03-01T09:30:00Z", status: "rejected" });
    const ids = (input: unknown) => (b.handle("list_approvals", { input }) as ApprovalDto[]).map((a) => a.id);
    expect(ids({ kind: "pending" })).toEqual([older.id, newer.id]);
    expect(ids({ kind: "history", status: null, employeeId: null })).toEqual([no.id, done.id]);
    expect(ids({ kind: "history", status: "approved", employeeId: null })).toEqual([done.id]);
    expect(ids({ kind: "history", status: null, employeeId: 13 })).toEqual([no.id]);
  });
});
