import { describe, expect, it } from "vitest";
import type { ApprovalDto } from "../bindings/ApprovalDto";
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
