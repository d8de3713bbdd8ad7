import { useMemo, useSyncExternalStore } from "react";

/**
 * Where the app is. The address is the URL hash (`#settings`, `#chats/12`, `#mailbox/3`, `#approvals/4`, `#employee/7`,
 * `#traces/tr-0a1b2c3d4e5f`, `#work`, `#settings/local-models`),
 * so reloads and the dev mock (`/mock.html#chats`) land on the same page.
 */
export type AppRoute =
  | { page: "secretary" }
  | { page: "dashboard" }
  | { page: "org" }
  | { page: "chats"; chatId: number | null }
  | { page: "mailbox"; mailId: number | null }
  | { page: "approvals"; approvalId: number | null }
  | { page: "work" }
  | { page: "traces"; traceId: string | null }
  | { page: "relationships" }
  | { page: "proxy"; personId: number | null }
  | { page: "settings"; section?: SettingsTarget; host?: string }
  | { page: "employee"; employeeId: number };

/**
 * Where in Settings a link lands: a section (`providers`, `local-models`, `people`, `server`, `bundle`) or the
 * add-provider dialog (`add-provider`), for the first run, the built-in model's notice, the imported-company notice and
 * a sign-in that did not open its company; `webhooks` (with the host a refused post wanted, `#settings/webhooks/<host>`)
 * and `budget`, for a refusal's fix in the mailbox.
 */
export const SETTINGS_TARGETS = ["providers", "add-provider", "local-models", "people", "server", "bundle", "webhooks", "budget"] as const;
export type SettingsTarget = (typeof SETTINGS_TARGETS)[number];

function parseSettingsTarget(text: string | undefined): SettingsTarget | undefined {
  return SETTINGS_TARGETS.find((s) => s === text);
}

export type Page = AppRoute["page"];

/** The pages the navigation lists, in its order (an employee's profile is reached from elsewhere). */
export const NAV_PAGES = ["secretary", "proxy", "dashboard", "org", "chats", "mailbox", "approvals", "work", "traces", "relationships", "settings"] as const satisfies readonly Page[];
export type NavPage = (typeof NAV_PAGES)[number];

/** Where the navigation goes for a page: its start (the chats page without a chat picked, and so on). */
export function pageStart(page: NavPage): AppRoute {
  switch (page) {
    case "chats":
      return { page, chatId: null };
    case "mailbox":
      return { page, mailId: null };
    case "approvals":
      return { page, approvalId: null };
    case "traces":
      return { page, traceId: null };
    case "proxy":
      return { page, personId: null };
    default:
      return { page };
  }
}

/** Where the app opens: the boss runs the company by talking to the secretary. */
export const DEFAULT_ROUTE: AppRoute = { page: "secretary" };

/** A positive integer id, or null for anything else ("", "abc", "1.5", "-3"). */
function parseId(text: string | undefined): number | null {
  if (text === undefined || !/^\d{1,9}$/.test(text)) return null;
  const id = Number(text);
  return id > 0 ? id : null;
}

/**
 * A trace id as the backend makes them (`tr-0a1b2c3d4e5f`): letters, digits, `-` and `_`, at most 64;
 * null for anything else (so a hash can never smuggle a path or a query into a command).
 */
export function parseTraceId(text: string | undefined): string | null {
  if (text === undefined) return null;
  let id: string;
  try {
    id = decodeURIComponent(text);
  } catch {
    return null;
  }
  return /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : null;
}

/** A webhook host as a link may carry it (`hooks.slack.com`, `127.0.0.1:8080`, `[::1]:80`); undefined for anything else. */
function parseHost(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  try {
    const host = decodeURIComponent(text);
    return /^[A-Za-z0-9.\-[\]:]{1,255}$/.test(host) ? host : undefined;
  } catch {
    return undefined;
  }
}

/** The route a hash stands for; anything unknown is the default page. */
export function parseRoute(hash: string): AppRoute {
  const [head = "", id, sub] = hash.replace(/^#\/?/, "").split("/");
  switch (head) {
    case "secretary":
    case "dashboard":
    case "org":
    case "relationships":
    case "work":
      return { page: head };
    case "settings": {
      const section = parseSettingsTarget(id);
      const host = section === "webhooks" ? parseHost(sub) : undefined;
      if (host !== undefined) return { page: head, section, host };
      return section === undefined ? { page: head } : { page: head, section };
    }
    case "traces":
      return { page: "traces", traceId: parseTraceId(id) };
    case "chats":
      return { page: "chats", chatId: parseId(id) };
    case "mailbox":
      return { page: "mailbox", mailId: parseId(id) };
    case "proxy":
      return { page: "proxy", personId: parseId(id) };
    case "approvals":
      return { page: "approvals", approvalId: parseId(id) };
    case "employee": {
      const employeeId = parseId(id);
      return employeeId === null ? DEFAULT_ROUTE : { page: "employee", employeeId };
    }
    default:
      return DEFAULT_ROUTE;
  }
}

/** The `href` of a route: `#chats/12`. */
export function routeHref(route: AppRoute): string {
  switch (route.page) {
    case "chats":
      return route.chatId === null ? "#chats" : `#chats/${route.chatId}`;
    case "mailbox":
      return route.mailId === null ? "#mailbox" : `#mailbox/${route.mailId}`;
    case "approvals":
      return route.approvalId === null ? "#approvals" : `#approvals/${route.approvalId}`;
    case "employee":
      return `#employee/${route.employeeId}`;
    case "proxy":
      return route.personId === null ? "#proxy" : `#proxy/${route.personId}`;
    case "traces":
      return route.traceId === null ? "#traces" : `#traces/${encodeURIComponent(route.traceId)}`;
    case "settings":
      if (route.section === "webhooks" && route.host) return `#settings/webhooks/${encodeURIComponent(route.host)}`;
      return route.section === undefined ? "#settings" : `#settings/${route.section}`;
    default:
      return `#${route.page}`;
  }
}

export const chatHref = (chatId: number): string => routeHref({ page: "chats", chatId });
export const mailHref = (mailId: number): string => routeHref({ page: "mailbox", mailId });
export const approvalHref = (approvalId: number): string => routeHref({ page: "approvals", approvalId });
export const profileHref = (employeeId: number): string => routeHref({ page: "employee", employeeId });
export const traceHref = (traceId: string): string => routeHref({ page: "traces", traceId });

/** Goes to a route from code (after a command succeeded); links use `href` instead. */
export function navigate(route: AppRoute): void {
  window.location.hash = routeHref(route);
}

export function currentRoute(): AppRoute {
  return parseRoute(typeof window === "undefined" ? "" : window.location.hash);
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
}

const currentHash = () => window.location.hash;

/** A tiny hash router: which page is showing. Navigate with `<a href={routeHref(…)}>`. */
export function useRoute(): AppRoute {
  // The snapshot must be a stable value: subscribe to the hash string, parse it once per change.
  const hash = useSyncExternalStore(subscribe, currentHash, () => "");
  return useMemo(() => parseRoute(hash), [hash]);
}
