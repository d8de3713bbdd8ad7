import { describe, expect, it } from "vitest";
import { DEFAULT_ROUTE, NAV_PAGES, approvalHref, pageStart, parseRoute, routeHref, traceHref, type AppRoute } from "./route";

describe("routes", () => {
  it("reads every page from the hash, with ids where a page takes one", () => {
    expect(parseRoute("")).toEqual(DEFAULT_ROUTE);
    expect(parseRoute("#secretary")).toEqual({ page: "secretary" });
    expect(parseRoute("#dashboard")).toEqual({ page: "dashboard" });
    expect(parseRoute("#org")).toEqual({ page: "org" });
    expect(parseRoute("#/settings")).toEqual({ page: "settings" });
    expect(parseRoute("#relationships")).toEqual({ page: "relationships" });
    expect(parseRoute("#chats")).toEqual({ page: "chats", chatId: null });
    expect(parseRoute("#chats/12")).toEqual({ page: "chats", chatId: 12 });
    expect(parseRoute("#employee/7")).toEqual({ page: "employee", employeeId: 7 });
    expect(parseRoute("#mailbox")).toEqual({ page: "mailbox", mailId: null });
    expect(parseRoute("#mailbox/3")).toEqual({ page: "mailbox", mailId: 3 });
    expect(parseRoute("#work")).toEqual({ page: "work" });
    expect(parseRoute("#proxy")).toEqual({ page: "proxy", personId: null });
    expect(parseRoute("#proxy/7")).toEqual({ page: "proxy", personId: 7 });
    expect(routeHref({ page: "proxy", personId: 7 })).toBe("#proxy/7");
    expect(parseRoute("#traces")).toEqual({ page: "traces", traceId: null });
    expect(parseRoute("#traces/tr-0a1b2c3d4e5f")).toEqual({ page: "traces", traceId: "tr-0a1b2c3d4e5f" });
    expect(parseRoute("#/traces/tr-0a1b2c3d4e5f")).toEqual({ page: "traces", traceId: "tr-0a1b2c3d4e5f" });
  });

  it("takes trace ids as strings, and only well-formed ones", () => {
    expect(parseRoute("#traces/tr_1-A")).toEqual({ page: "traces", traceId: "tr_1-A" });
    // Not a number: leading zeros and letters stay as they are.
    expect(parseRoute("#traces/007")).toEqual({ page: "traces", traceId: "007" });
    expect(parseRoute("#traces/")).toEqual({ page: "traces", traceId: null });
    expect(parseRoute("#traces/tr%20x")).toEqual({ page: "traces", traceId: null });
    expect(parseRoute("#traces/%E0%A4%A")).toEqual({ page: "traces", traceId: null });
    expect(parseRoute("#traces/a.b")).toEqual({ page: "traces", traceId: null });
    expect(parseRoute(`#traces/${"x".repeat(65)}`)).toEqual({ page: "traces", traceId: null });
    expect(parseRoute("#work/3")).toEqual({ page: "work" });
  });

  it("lands in a known part of Settings, and on Settings' top for anything else", () => {
    expect(parseRoute("#settings/local-models")).toEqual({ page: "settings", section: "local-models" });
    expect(parseRoute("#settings/providers")).toEqual({ page: "settings", section: "providers" });
    expect(parseRoute("#settings/add-provider")).toEqual({ page: "settings", section: "add-provider" });
    expect(parseRoute("#settings/budget%20x")).toEqual({ page: "settings" });
    expect(parseRoute("#settings/")).toEqual({ page: "settings" });
  });

  it("falls back on anything it does not know", () => {
    expect(parseRoute("#nowhere")).toEqual(DEFAULT_ROUTE);
    expect(parseRoute("#chats/abc")).toEqual({ page: "chats", chatId: null });
    expect(parseRoute("#chats/0")).toEqual({ page: "chats", chatId: null });
    expect(parseRoute("#mailbox/x")).toEqual({ page: "mailbox", mailId: null });
    expect(parseRoute("#employee/-3")).toEqual(DEFAULT_ROUTE);
    expect(parseRoute("#employee/1.5")).toEqual(DEFAULT_ROUTE);
    expect(parseRoute("#employee")).toEqual(DEFAULT_ROUTE);
  });

  it("writes the hash a route is read back from", () => {
    const routes: AppRoute[] = [
      { page: "secretary" },
      { page: "dashboard" },
      { page: "org" },
      { page: "chats", chatId: null },
      { page: "chats", chatId: 3 },
      { page: "mailbox", mailId: null },
      { page: "mailbox", mailId: 8 },
      { page: "approvals", approvalId: null },
      { page: "approvals", approvalId: 4 },
      { page: "relationships" },
      { page: "settings" },
      { page: "settings", section: "local-models" },
      { page: "settings", section: "add-provider" },
      { page: "settings", section: "bundle" },
      { page: "employee", employeeId: 42 },
      { page: "work" },
      { page: "traces", traceId: null },
      { page: "traces", traceId: "tr-0a1b2c3d4e5f" },
    ];
    for (const r of routes) expect(parseRoute(routeHref(r))).toEqual(r);
    expect(routeHref({ page: "chats", chatId: 3 })).toBe("#chats/3");
    expect(routeHref({ page: "employee", employeeId: 42 })).toBe("#employee/42");
    expect(routeHref({ page: "mailbox", mailId: 8 })).toBe("#mailbox/8");
    expect(routeHref({ page: "traces", traceId: "tr-0a1b2c3d4e5f" })).toBe("#traces/tr-0a1b2c3d4e5f");
    expect(traceHref("tr-1")).toBe("#traces/tr-1");
    expect(routeHref({ page: "work" })).toBe("#work");
    expect(routeHref({ page: "settings", section: "local-models" })).toBe("#settings/local-models");
    expect(approvalHref(4)).toBe("#approvals/4");
    expect(parseRoute("#approvals/x")).toEqual({ page: "approvals", approvalId: null });
  });

  it("sends each navigation entry to its page's start", () => {
    for (const page of NAV_PAGES) expect(pageStart(page).page).toBe(page);
    expect(routeHref(pageStart("chats"))).toBe("#chats");
    expect(routeHref(pageStart("mailbox"))).toBe("#mailbox");
    expect(routeHref(pageStart("traces"))).toBe("#traces");
    expect(routeHref(pageStart("approvals"))).toBe("#approvals");
  });

  it("lists Approvals right after the mailbox, then Work and Traces, and the proxies right after the secretary", () => {
    // The proxy entry shows only when there are people besides the boss (AppShell).
    expect(NAV_PAGES.slice(0, 4)).toEqual(["secretary", "proxy", "dashboard", "org"]);
    expect(NAV_PAGES.indexOf("approvals")).toBe(NAV_PAGES.indexOf("mailbox") + 1);
    expect(NAV_PAGES.indexOf("work")).toBe(NAV_PAGES.indexOf("approvals") + 1);
    expect(NAV_PAGES.indexOf("traces")).toBe(NAV_PAGES.indexOf("work") + 1);
  });
});
