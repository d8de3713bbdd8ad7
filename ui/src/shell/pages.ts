import { lazy, type ComponentType, type LazyExoticComponent } from "react";

/**
 * A page whose code loads when it is first shown, not with the app: the window paints
 * sooner and an idle app holds only the code of what it shows (the org chart's graph
 * library, for one, is not parsed until the org chart opens).
 */
export interface LazyPage<P extends object> {
  Component: LazyExoticComponent<ComponentType<P>>;
  /** Loads the page's code now (once); after it, the page renders without suspending. */
  preload: () => Promise<void>;
}

// A `.then` that calls back at once: `React.lazy` then takes a loaded page synchronously
// instead of suspending for a tick.
function resolved<T>(value: T): Promise<T> {
  const thenable = { then: (onLoaded: (v: T) => unknown) => onLoaded(value) };
  return thenable as unknown as Promise<T>;
}

export function lazyPage<P extends object>(load: () => Promise<ComponentType<P>>): LazyPage<P> {
  let ready: ComponentType<P> | undefined;
  let loading: Promise<void> | undefined;
  const preload = () =>
    (loading ??= load().then((component) => {
      ready = component;
    }));
  const Component = lazy(() =>
    ready ? resolved({ default: ready }) : preload().then(() => ({ default: ready as ComponentType<P> })),
  );
  return { Component, preload };
}

export const pages = {
  wizard: lazyPage(() => import("../wizard/SetupWizard").then((m) => m.SetupWizard)),
  settings: lazyPage(() => import("../settings/SettingsPage").then((m) => m.SettingsPage)),
  org: lazyPage(() => import("../org/OrgChartPage").then((m) => m.OrgChartPage)),
  chats: lazyPage(() => import("../chats/ChatsPage").then((m) => m.ChatsPage)),
  mailbox: lazyPage(() => import("../mailbox/MailboxPage").then((m) => m.MailboxPage)),
  approvals: lazyPage(() => import("../approvals/ApprovalsPage").then((m) => m.ApprovalsPage)),
  relationships: lazyPage(() => import("../relationships/RelationshipsPage").then((m) => m.RelationshipsPage)),
  proxy: lazyPage(() => import("../proxy/ProxyPage").then((m) => m.ProxyPage)),
  employee: lazyPage(() => import("../employee/ProfilePage").then((m) => m.ProfilePage)),
  secretary: lazyPage(() => import("../secretary/SecretaryPage").then((m) => m.SecretaryPage)),
  dashboard: lazyPage(() => import("../dashboard/DashboardPage").then((m) => m.DashboardPage)),
  work: lazyPage(() => import("../work/WorkPage").then((m) => m.WorkPage)),
  traces: lazyPage(() => import("../traces/TracesPage").then((m) => m.TracesPage)),
};

/** Every page's code, loaded (the unit tests render pages as if they were in the bundle). */
export async function preloadAllPages(): Promise<void> {
  await Promise.all(Object.values(pages).map((p) => p.preload()));
}
