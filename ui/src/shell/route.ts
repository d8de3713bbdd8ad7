import { useSyncExternalStore } from "react";

/** The app's pages, the first one the default. The address is `#<page>`, so reloads and the dev mock (`/mock.html#settings`) land on it. */
export const ROUTES = ["secretary", "org", "settings"] as const;
export type Route = (typeof ROUTES)[number];

/** Where the app opens: the boss runs the company by talking to the secretary. */
export const DEFAULT_ROUTE: Route = "secretary";

function isRoute(value: string): value is Route {
  return (ROUTES as readonly string[]).includes(value);
}

export function currentRoute(): Route {
  const hash = typeof window === "undefined" ? "" : window.location.hash.replace(/^#\/?/, "");
  return isRoute(hash) ? hash : DEFAULT_ROUTE;
}

function subscribe(onChange: () => void): () => void {
  window.addEventListener("hashchange", onChange);
  return () => window.removeEventListener("hashchange", onChange);
}

/** A tiny hash router: which page is showing. Navigate with `<a href="#settings">`. */
export function useRoute(): Route {
  return useSyncExternalStore(subscribe, currentRoute, () => DEFAULT_ROUTE);
}
