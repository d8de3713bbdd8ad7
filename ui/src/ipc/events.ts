import { listen, type UnlistenFn } from "@tauri-apps/api/event";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import { useEffect, useState } from "react";
import type { DomainEvent } from "../bindings/DomainEvent";
import { queryKeys } from "./queries";

export const DOMAIN_EVENT = "domain-event";

/** Subscribe to backend domain events. Resolves to the function that unsubscribes. */
export function onDomainEvent(cb: (event: DomainEvent) => void): Promise<UnlistenFn> {
  return listen<DomainEvent>(DOMAIN_EVENT, (e) => cb(e.payload));
}

/** Which cached queries an event makes stale. The UI never patches cached data by hand. */
export function keysFor(event: DomainEvent): ReadonlyArray<readonly string[]> {
  switch (event.type) {
    case "company_updated":
      // The company carries the daily budget, which the spend report compares against.
      return [queryKeys.org, queryKeys.company, queryKeys.spend];
    case "department_created":
    case "department_updated":
    case "department_deleted":
    case "employee_hired":
    case "employee_updated":
    case "employee_fired":
      return [queryKeys.org];
    case "work_changed":
      // Tasks and requirements: the secretary's answers read them fresh; no page lists them yet.
      return [];
    case "chat_message_posted":
      // Department group chats (a new hire's introduction): no page shows them yet.
      return [];
    case "secretary_reply_delta":
      // Streamed text of a reply on its way; the finished turn invalidates the history itself.
      return [];
    case "providers_changed":
      // A new or removed provider changes the routes (fallbacks) and the price list too.
      return [queryKeys.providers, queryKeys.routes, queryKeys.prices];
    case "spend_recorded":
      return [queryKeys.spend];
    case "budget_exceeded":
      return [queryKeys.spend, queryKeys.org, queryKeys.company];
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
