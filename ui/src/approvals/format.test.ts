import { describe, expect, it } from "vitest";
import type { ApprovalDto } from "../bindings/ApprovalDto";
import { parseRoute, routeHref } from "../shell/route";
import { canDecide, chainRule, fixTarget, historyFilter, isLiteralSummary, minutesLeft, outcomeOf, prettyArgs, resultText, shortHash } from "./format";

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

describe("what came of an approval, and a refusal's fix", () => {
  const base = { status: "approved", executedAt: null, runStartedAt: null, error: null } as unknown as ApprovalDto;
  it("tells the outcome apart from the decision", () => {
    expect(outcomeOf({ ...base, status: "waiting" })).toBeNull();
    expect(outcomeOf({ ...base, runStartedAt: "2026-01-01T00:00:00Z" })).toBe("running");
    expect(outcomeOf(base)).toBe("queued");
    expect(outcomeOf({ ...base, executedAt: "2026-01-01T00:00:01Z" })).toBe("done");
    expect(outcomeOf({ ...base, executedAt: "2026-01-01T00:00:01Z", error: "dns" })).toBe("failed");
    expect(outcomeOf({ ...base, status: "rejected" })).toBe("not_run");
    expect(outcomeOf({ ...base, status: "expired" })).toBe("not_run");
  });

  it("reads the chain's decision lines the backend writes, and leaves a reason as written", () => {
    expect(chainRule("approved via ui")).toEqual({ key: "approvals.chainRule.approved", options: { via: "ui", note: "" } });
    expect(chainRule("rejected via notification: not now")).toEqual({ key: "approvals.chainRule.rejectedNote", options: { via: "notification", note: "not now" } });
    expect(chainRule("backed the request")?.key).toBe("approvals.chainRule.backed");
    expect(chainRule("You asked me to post it")).toBeNull();
  });

  it("knows the places that fix a refusal, and the route carries the host to fill in", () => {
    expect(fixTarget("#settings/webhooks/127.0.0.1%3A8080")).toEqual({ kind: "webhooks", host: "127.0.0.1:8080" });
    expect(fixTarget("#settings/budget")).toEqual({ kind: "budget" });
    expect(fixTarget("#employee/7")).toEqual({ kind: "tools", employeeId: 7 });
    expect(fixTarget("#chats/1")).toBeNull();
    expect(fixTarget(undefined)).toBeNull();
    expect(parseRoute("#settings/webhooks/hooks.example.com")).toEqual({ page: "settings", section: "webhooks", host: "hooks.example.com" });
    expect(parseRoute("#settings/webhooks/127.0.0.1:8080")).toEqual({ page: "settings", section: "webhooks", host: "127.0.0.1:8080" });
    expect(parseRoute("#settings/webhooks/a%20b")).toEqual({ page: "settings", section: "webhooks" });
    expect(routeHref({ page: "settings", section: "webhooks", host: "127.0.0.1:8080" })).toBe("#settings/webhooks/127.0.0.1%3A8080");
    expect(parseRoute("#settings/budget")).toEqual({ page: "settings", section: "budget" });
  });
});
