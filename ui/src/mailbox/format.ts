// Pure helpers of the mailbox page: the kinds and views translated per value, the filter the
// backend takes, times. No React here.
import type { MailFilter } from "../bindings/MailFilter";
import type { MailKind } from "../bindings/MailKind";
import type { MailStatus } from "../bindings/MailStatus";
import type { Tone } from "../components/ui";

export const MAIL_KINDS = ["report", "escalation", "budget", "digest", "minutes"] as const satisfies readonly MailKind[];
export const MAIL_STATUSES = ["unread", "read", "archived"] as const satisfies readonly MailStatus[];

// Compile-time checks that the lists above cover the generated unions (each value has its translation).
const allKinds: Exclude<MailKind, (typeof MAIL_KINDS)[number]> extends never ? true : false = true;
const allStatuses: Exclude<MailStatus, (typeof MAIL_STATUSES)[number]> extends never ? true : false = true;
void [allKinds, allStatuses];

/** The views of the mailbox: the inbox (unread and read), only the unread, the archive. */
export const MAIL_VIEWS = ["inbox", "unread", "archived"] as const;
export type MailView = (typeof MAIL_VIEWS)[number];

const VIEW_STATUS: Record<MailView, MailStatus | null> = { inbox: null, unread: "unread", archived: "archived" };

/** What the boss narrowed the list to. */
export interface MailFilters {
  view: MailView;
  kind: MailKind | null;
  employeeId: number | null;
}

export const INBOX: MailFilters = { view: "inbox", kind: null, employeeId: null };

/** The filter `list_mail` takes (the inbox is `status: null`: everything but the archive). */
export function toMailFilter(f: MailFilters): MailFilter {
  return { status: VIEW_STATUS[f.view], kind: f.kind, employeeId: f.employeeId };
}

/** Whether anything beyond the view narrows the list. */
export const isNarrowed = (f: MailFilters): boolean => f.kind !== null || f.employeeId !== null;

/** The colour of each kind: reports are routine, escalations want attention, a budget stop is an alarm, minutes are a record. */
export const KIND_TONE: Record<MailKind, Tone> = {
  report: "green",
  escalation: "amber",
  budget: "rose",
  digest: "slate",
  minutes: "indigo",
};

export function isMailKind(value: string): value is MailKind {
  return (MAIL_KINDS as readonly string[]).includes(value);
}

/** An item's time in full: "Sat, Mar 1, 2025, 10:05". */
export function formatMailTime(iso: string, language: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return new Intl.DateTimeFormat(language, {
    weekday: "short",
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "2-digit",
    minute: "2-digit",
  }).format(new Date(at));
}
