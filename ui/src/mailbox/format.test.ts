import { describe, expect, it } from "vitest";
import { INBOX, isMailKind, isNarrowed, toMailFilter } from "./format";

describe("mailbox filters", () => {
  it("asks list_mail for the inbox as status null (everything but the archive), and each view by its status", () => {
    expect(toMailFilter(INBOX)).toEqual({ status: null, kind: null, employeeId: null });
    expect(toMailFilter({ view: "unread", kind: "report", employeeId: 12 })).toEqual({ status: "unread", kind: "report", employeeId: 12 });
    expect(toMailFilter({ ...INBOX, view: "archived" })).toEqual({ status: "archived", kind: null, employeeId: null });
  });

  it("counts only the kind and the employee as narrowing the list", () => {
    expect(isNarrowed(INBOX)).toBe(false);
    expect(isNarrowed({ ...INBOX, view: "archived" })).toBe(false);
    expect(isNarrowed({ ...INBOX, kind: "budget" })).toBe(true);
    expect(isNarrowed({ ...INBOX, employeeId: 3 })).toBe(true);
  });

  it("knows the kinds", () => {
    expect(isMailKind("escalation")).toBe(true);
    expect(isMailKind("")).toBe(false);
    expect(isMailKind("spam")).toBe(false);
  });
});
