import { describe, expect, it } from "vitest";
import { DEFAULT_ROUTE, NAV_PAGES, pageStart, parseRoute, routeHref, type AppRoute } from "./route";

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
      { page: "relationships" },
      { page: "settings" },
      { page: "employee", employeeId: 42 },
    ];
    for (const r of routes) expect(parseRoute(routeHref(r))).toEqual(r);
    expect(routeHref({ page: "chats", chatId: 3 })).toBe("#chats/3");
    expect(routeHref({ page: "employee", employeeId: 42 })).toBe("#employee/42");
    expect(routeHref({ page: "mailbox", mailId: 8 })).toBe("#mailbox/8");
  });

  it("sends each navigation entry to its page's start", () => {
    for (const page of NAV_PAGES) expect(pageStart(page).page).toBe(page);
    expect(routeHref(pageStart("chats"))).toBe("#chats");
    expect(routeHref(pageStart("mailbox"))).toBe("#mailbox");
  });
});
