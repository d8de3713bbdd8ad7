import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import { useQueryClient, type QueryClient, type QueryKey } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { DomainEvent } from "../bindings/DomainEvent";
import { queryKeys } from "./queries";
import { navigate, parseRoute } from "../shell/route";

export const DOMAIN_EVENT = "domain-event";
/** A desktop notification's body was clicked: open the approval it was about (or the queue, for a summary). */
export const OPEN_APPROVAL_EVENT = "open_approval";

export interface OpenApproval {
  approvalId: number | null;
}

/** A refusal's or a budget stop's desktop notification was clicked: open the place that fixes it (`#settings/webhooks/<host>`). */
export const OPEN_ROUTE_EVENT = "open_route";

export interface OpenRoute {
  href: string;
}

/** Subscribe to backend domain events. Resolves to the function that unsubscribes. */
export function onDomainEvent(cb: (event: DomainEvent) => void): Promise<UnlistenFn> {
  return listen<DomainEvent>(DOMAIN_EVENT, (e) => cb(e.payload));
}

/** Which cached queries an event makes stale. The UI never patches cached data by hand. */
export function keysFor(event: DomainEvent): ReadonlyArray<QueryKey> {
  switch (event.type) {
    case "company_updated":
      // The company carries the daily budget, which the spend report compares against, and the
      // approval policy that people without their own follow.
      // An import is announced this way: what it brought may wait for the boss's confirmation.
      return [queryKeys.org, queryKeys.company, queryKeys.spend, queryKeys.employeeTools, queryKeys.importedToConfirm];
    case "department_created":
    case "department_updated":
    case "department_deleted":
    case "employee_hired":
    case "employee_updated":
    case "employee_fired":
      // Profiles show department and manager names; the graph shows who is still here, and where.
      // The dashboard shows owners' names and counts people.
      // The board shows departments, owners and reviewers by name.
      // Their tools-and-approvals card too; and who thinks with the bundled model (a hire, a firing, a backend).
      return [
        queryKeys.org,
        queryKeys.profiles,
        queryKeys.relationshipGraph,
        queryKeys.dashboard,
        queryKeys.board,
        queryKeys.employeeTools,
        queryKeys.thoughtModel,
        // A CLI command confirmed or replaced no longer waits.
        queryKeys.importedToConfirm,
      ];
    case "people_changed":
      // A proxy's card names its person's duties.
      return [queryKeys.people, queryKeys.proxies];
    case "proxy_conversation":
      // A line for a person from their proxy (what came in, a reply); what it wrote in their name too.
      return [queryKeys.proxy(event.personId)];
    case "work_changed":
      // Tasks and requirements: profiles list each person's pending tasks.
      // The dashboard lists pending tasks and their activity; the board and traces show them too.
      return [queryKeys.profiles, queryKeys.dashboard, queryKeys.board, queryKeys.traces];
    case "chat_message_posted":
      // A new message is also a line of the dashboard's activity feed, and of its instruction's trace
      // (a boss message starts one). In a meeting, a turn moves the floor and may bring a ruling.
      // A correction of what a proxy wrote is a new message too.
      return [queryKeys.chatList, queryKeys.chat(event.chatId), queryKeys.meeting(event.chatId), queryKeys.dashboard, queryKeys.traces, queryKeys.proxies];
    case "chat_changed":
      // Also sent when a chat's members change or a meeting is taken back (its messages leave the feed),
      // and when a meeting is invited to or closed.
      return [queryKeys.chatList, queryKeys.chat(event.chatId), queryKeys.meeting(event.chatId), queryKeys.dashboard, queryKeys.traces];
    case "chat_read":
      // Only the unread counts change, and only the list shows them.
      return [queryKeys.chatList];
    case "thought_recorded":
      // A thought may come with work done (a task resolved or failed), which the dashboard shows.
      // Thoughts are lines of their trace.
      return event.chatId === null
        ? [queryKeys.profile(event.employeeId), queryKeys.dashboard, queryKeys.traces]
        : [queryKeys.profile(event.employeeId), queryKeys.chat(event.chatId), queryKeys.dashboard, queryKeys.traces];
    case "mind_changed":
      // Memories, relationships or stamina: the profile, and the graph's edges.
      return [queryKeys.profile(event.employeeId), queryKeys.relationshipGraph];
    case "mail_changed":
      // An item filed, read or archived: every listing (and the unread count of the navigation).
      // Mail filed under an instruction is a line of its trace. An escalation the boss settles is a
      // meeting's decision.
      return [queryKeys.mailbox, queryKeys.dashboard, queryKeys.traces, queryKeys.meetings];
    case "secretary_reply_delta":
      // Streamed text of a reply on its way; the finished turn invalidates the history itself.
      return [];
    case "providers_changed":
      // A new or removed provider changes the routes (fallbacks) and the price list too.
      return [queryKeys.providers, queryKeys.routes, queryKeys.prices];
    case "spend_recorded":
      // Profiles show each person's spend; a trace shows its model calls and their cost.
      return [queryKeys.spend, queryKeys.profiles, queryKeys.dashboard, queryKeys.traces];
    case "budget_exceeded":
      return [queryKeys.spend, queryKeys.org, queryKeys.company, queryKeys.dashboard];
    case "fix_needed":
      // Its mail is announced by mail_changed; this one raises the desktop notification.
      return [];
    case "approval_requested":
    case "approval_decided":
      // Every listing of the queue (and the navigation badge), the dashboard's figure. The requester's
      // status (waiting_approval and back) shows on the org chart and profiles; an approval is part of
      // its instruction's trace. Deciding also tells the requester in a chat and may file mail.
      return [queryKeys.approvals, queryKeys.dashboard, queryKeys.org, queryKeys.profiles, queryKeys.traces, queryKeys.mailbox, queryKeys.chats];
    case "local_model_changed":
      // A download moved on (at most four times a second), ended, or a model was put to use.
      return [queryKeys.localModels];
  }
}

export function invalidateFor(client: QueryClient, event: DomainEvent): void {
  for (const queryKey of keysFor(event)) {
    void client.invalidateQueries({ queryKey });
  }
}

/** Mount once near the root: keeps every query in step with what the backend reports. */
export function useDomainEvents(): void {
  const client = useQueryClient();
  useEffect(() => {
    let disposed = false;
    let unlisten: UnlistenFn | undefined;
    onDomainEvent((event) => invalidateFor(client, event))
      .then((fn) => {
        if (disposed) fn();
        else unlisten = fn;
      })
      .catch((err: unknown) => {
        // Outside the desktop shell (plain browser) there is no event bus; queries still work on demand.
        console.warn("domain events unavailable", err);
      });
    return () => {
      disposed = true;
      unlisten?.();
    };
  }, [client]);
}

/** Subscribe to notification clicks that ask to open an approval. Resolves to the function that unsubscribes. */
export function onOpenApproval(cb: (approvalId: number | null) => void): Promise<UnlistenFn> {
  return listen<OpenApproval | null>(OPEN_APPROVAL_EVENT, (e) => {
    const id = e.payload?.approvalId;
    cb(typeof id === "number" && Number.isInteger(id) && id > 0 ? id : null);
  });
}

/** Subscribe to notification clicks that ask to open a route of the app. Resolves to the function that unsubscribes. */
export function onOpenRoute(cb: (href: string) => void): Promise<UnlistenFn> {
  return listen<OpenRoute | null>(OPEN_ROUTE_EVENT, (e) => {
    const href = e.payload?.href;
    if (typeof href === "string" && href.startsWith("#")) cb(href);
  });
}

/**
 * Mount once near the root: a click on an approval's notification brings its card up; a click on a
 * refusal's or a budget stop's brings up the place that fixes it, read by the app's own route parser.
 */
export function useOpenApprovalEvents(): void {
  useEffect(() => {
    let disposed = false;
    const unlisteners: UnlistenFn[] = [];
    const keep = (fn: UnlistenFn) => {
      if (disposed) fn();
      else unlisteners.push(fn);
    };
    const none = () => {
      // No event bus (plain browser): there are no notifications to click either.
    };
    onOpenApproval((approvalId) => navigate({ page: "approvals", approvalId }))
      .then(keep)
      .catch(none);
    onOpenRoute((href) => navigate(parseRoute(href)))
      .then(keep)
      .catch(none);
    return () => {
      disposed = true;
      for (const fn of unlisteners) fn();
    };
  }, []);
}

/**
 * While a secretary turn is on its way (`active`): the reply its model has written so far, or
 * null before the first words (and for replies the rules write at once, which never stream).
 */
export function useSecretaryReplyStream(active: boolean): string | null {
  const [latest, setLatest] = useState<{ id: number; text: string } | null>(null);
  useEffect(() => {
    if (!active) {
      setLatest(null);
      return;
    }
    let disposed = false;
    let unlisten: UnlistenFn | undefined;
    onDomainEvent((event) => {
      if (event.type !== "secretary_reply_delta") return;
      // A newer stream replaces an older one; within one stream each event carries all the text so far.
      setLatest((prev) => (prev === null || event.streamId >= prev.id ? { id: event.streamId, text: event.text } : prev));
    })
      .then((fn) => {
        if (disposed) fn();
        else unlisten = fn;
      })
      .catch(() => {
        // No event bus (plain browser): the reply still arrives whole when the turn ends.
      });
    return () => {
      disposed = true;
      unlisten?.();
    };
  }, [active]);
  return latest?.text ?? null;
}
