// Inline icons (no icon font, nothing fetched). 20×20 grid, stroke follows currentColor.
import type { SVGProps } from "react";

type IconProps = SVGProps<SVGSVGElement>;

function Svg(props: IconProps) {
  return (
    <svg
      viewBox="0 0 20 20"
      fill="none"
      stroke="currentColor"
      strokeWidth={1.6}
      strokeLinecap="round"
      strokeLinejoin="round"
      aria-hidden="true"
      width={16}
      height={16}
      {...props}
    />
  );
}

export const OrgIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="7.5" y="2.5" width="5" height="4" rx="1" />
    <rect x="2.5" y="13.5" width="5" height="4" rx="1" />
    <rect x="12.5" y="13.5" width="5" height="4" rx="1" />
    <path d="M10 6.5v3.5M5 13.5V10h10v3.5" />
  </Svg>
);

export const PlusIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M10 4v12M4 10h12" />
  </Svg>
);

export const MinusIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 10h12" />
  </Svg>
);

export const FitIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3 7V3h4M13 3h4v4M17 13v4h-4M7 17H3v-4" />
  </Svg>
);

export const UserPlusIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="8" cy="7" r="3" />
    <path d="M2.5 17c.8-3 3-4.5 5.5-4.5s4.7 1.5 5.5 4.5M15.5 6v5M13 8.5h5" />
  </Svg>
);

export const FolderPlusIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M2.5 5.5a1 1 0 0 1 1-1h4l1.5 2h7.5a1 1 0 0 1 1 1v8a1 1 0 0 1-1 1h-13a1 1 0 0 1-1-1z" />
    <path d="M10 9v5M7.5 11.5h5" />
  </Svg>
);

export const CloseIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M5 5l10 10M15 5L5 15" />
  </Svg>
);

export const AlertIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="10" cy="10" r="7.5" />
    <path d="M10 6.2v4.6M10 13.6v.1" />
  </Svg>
);

export const GlobeIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="10" cy="10" r="7.5" />
    <path d="M2.5 10h15M10 2.5c2 2.2 3 4.7 3 7.5s-1 5.3-3 7.5c-2-2.2-3-4.7-3-7.5s1-5.3 3-7.5z" />
  </Svg>
);

export const SettingsIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="10" cy="10" r="2.5" />
    <path d="M10 2.5v2M10 15.5v2M17.5 10h-2M4.5 10h-2M15.3 4.7l-1.4 1.4M6.1 13.9l-1.4 1.4M15.3 15.3l-1.4-1.4M6.1 6.1L4.7 4.7" />
  </Svg>
);

export const KeyIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="6.5" cy="13.5" r="3" />
    <path d="M8.6 11.4L16 4M13.5 6.5l2 2M11.5 8.5l1.5 1.5" />
  </Svg>
);

export const PlugIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M7 2.5v4M13 2.5v4M5 6.5h10v3a5 5 0 0 1-10 0zM10 14.5v3" />
  </Svg>
);

export const PencilIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12.5 4.5l3 3L7 16H4v-3z" />
  </Svg>
);

export const TrashIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3.5 5.5h13M8 5.5V3.5h4v2M5.5 5.5l.8 11h7.4l.8-11M8.5 8.5v5M11.5 8.5v5" />
  </Svg>
);

export const CheckIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4 10.5l3.5 3.5L16 5.5" />
  </Svg>
);

export const ChatIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3.5 5a1.5 1.5 0 0 1 1.5-1.5h10A1.5 1.5 0 0 1 16.5 5v7a1.5 1.5 0 0 1-1.5 1.5H9l-3.5 3v-3H5A1.5 1.5 0 0 1 3.5 12z" />
    <path d="M7 7.5h6M7 10h4" />
  </Svg>
);

export const SendIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M3.5 10L16.5 3.5 12 16.5l-2.5-5z" />
    <path d="M9.5 11.5L16.5 3.5" />
  </Svg>
);

export const UndoIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M7 5.5L3.5 9 7 12.5" />
    <path d="M3.5 9H12a4.5 4.5 0 0 1 0 9h-2" />
  </Svg>
);

export const WarningIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M10 3l7.5 13h-15z" />
    <path d="M10 8v3.5M10 13.8v.1" />
  </Svg>
);

/** Two speech bubbles: the chats page, and a DM between two employees. */
export const ChatsIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M2.5 4.5a1.5 1.5 0 0 1 1.5-1.5h7a1.5 1.5 0 0 1 1.5 1.5v4.5a1.5 1.5 0 0 1-1.5 1.5H7l-2.5 2v-2H4A1.5 1.5 0 0 1 2.5 9z" />
    <path d="M14.5 7.5H16a1.5 1.5 0 0 1 1.5 1.5v4.5A1.5 1.5 0 0 1 16 15h-.5v2L13 15h-3a1.5 1.5 0 0 1-1.5-1.5v-1" />
  </Svg>
);

/** People joined by lines: the relationship graph. */
export const GraphIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="5" cy="5.5" r="2.2" />
    <circle cx="15" cy="7" r="2.2" />
    <circle cx="8.5" cy="15" r="2.2" />
    <path d="M7.1 6l5.8.9M6 7.5l1.7 5.5M13.6 8.8l-3.7 4.6" />
  </Svg>
);

export const UserIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="10" cy="7" r="3.2" />
    <path d="M3.5 17c.9-3.2 3.4-5 6.5-5s5.6 1.8 6.5 5" />
  </Svg>
);

export const UsersIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="7.5" cy="7" r="2.8" />
    <path d="M2.5 16.5c.7-2.8 2.6-4.3 5-4.3s4.3 1.5 5 4.3" />
    <path d="M12.5 4.5a2.8 2.8 0 0 1 0 5.2M14.5 12.5c1.4.6 2.4 1.9 3 4" />
  </Svg>
);

export const BuildingIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="4" y="2.5" width="12" height="15" rx="1" />
    <path d="M7.5 6h1.5M11 6h1.5M7.5 9h1.5M11 9h1.5M7.5 12h1.5M11 12h1.5M8.5 17.5v-2.5h3v2.5" />
  </Svg>
);

export const ClipboardIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="4.5" y="3.5" width="11" height="14" rx="1.5" />
    <path d="M7.5 3.5V2.5h5v1M7.5 8.5h5M7.5 11.5h5M7.5 14.5h3" />
  </Svg>
);

export const CalendarIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="3" y="4" width="14" height="13" rx="1.5" />
    <path d="M3 8h14M7 2.5v3M13 2.5v3M6.5 11h2M11.5 11h2M6.5 14h2" />
  </Svg>
);

/** A thought bubble: inner thoughts, never posted. */
export const ThoughtIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M6 12.5a3.5 3.5 0 0 1-.6-6.9A4 4 0 0 1 13 4.6a3.3 3.3 0 0 1 1.5 6.3 2.7 2.7 0 0 1-3.5 1.6 3.5 3.5 0 0 1-5 0z" />
    <circle cx="5" cy="15.5" r="1.1" />
    <circle cx="3" cy="18" r="0.6" />
  </Svg>
);

export const SearchIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="8.5" cy="8.5" r="5" />
    <path d="M12.2 12.2L16.5 16.5" />
  </Svg>
);

export const ChevronLeftIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12 4.5L6.5 10l5.5 5.5" />
  </Svg>
);

/** An envelope: the mailbox. */
export const MailIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="2.5" y="4.5" width="15" height="11" rx="1.5" />
    <path d="M3 5.5l7 5.5 7-5.5" />
  </Svg>
);

/** A page with a tick: an employee's report on a finished task. */
export const ReportIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M5.5 2.5h6l3 3v11a1 1 0 0 1-1 1h-8a1 1 0 0 1-1-1v-13a1 1 0 0 1 1-1z" />
    <path d="M11.5 2.5v3h3M7.5 12l1.8 1.8 3.4-3.6" />
  </Svg>
);

/** A clock with an alert mark: a task running late, escalated to the boss. */
export const ClockAlertIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M16.8 11.5A7 7 0 1 1 11.5 3.2" />
    <path d="M9.5 6v4.5l2.5 1.5M16 3v4M16 9.6v.1" />
  </Svg>
);

/** A coin: money, the daily budget. */
export const CoinIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="10" cy="10" r="7.5" />
    <path d="M12.3 7.3c-.4-.8-1.3-1.3-2.3-1.3-1.3 0-2.3.8-2.3 1.9 0 2.6 4.7 1.4 4.7 4.1 0 1.1-1.1 2-2.4 2-1.1 0-2-.5-2.4-1.4M10 4.5V6M10 14v1.5" />
  </Svg>
);

/** A folded newspaper: a digest. */
export const DigestIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4.5 4.5h10v11a1.5 1.5 0 0 1-1.5 1.5H4a1.5 1.5 0 0 1-1.5-1.5V8h2" />
    <path d="M14.5 17a1.5 1.5 0 0 0 1.5-1.5V7.5h-1.5M7 7.5h5M7 10.5h5M7 13.5h3" />
  </Svg>
);

/** A box with a lid: archive. */
export const ArchiveIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="2.5" y="3.5" width="15" height="4" rx="1" />
    <path d="M4 7.5v8a1 1 0 0 0 1 1h10a1 1 0 0 0 1-1v-8M8 10.5h4" />
  </Svg>
);

/** A tray with an arrow into it: back to the inbox. */
export const InboxIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M2.5 11.5l2-7h11l2 7v4a1 1 0 0 1-1 1h-13a1 1 0 0 1-1-1z" />
    <path d="M2.5 11.5h4l1 2h5l1-2h4" />
  </Svg>
);

/** An envelope with a dot: mark as unread. */
export const MailDotIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M12.5 4.5h-9A1 1 0 0 0 2.5 5.5v9a1 1 0 0 0 1 1h13a1 1 0 0 0 1-1V10" />
    <path d="M3 5.5l7 5.5 3-2.4" />
    <circle cx="16" cy="5" r="2" />
  </Svg>
);

/** An open envelope: mark as read. */
export const MailOpenIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M2.5 8.5l7.5-5 7.5 5v7a1 1 0 0 1-1 1h-13a1 1 0 0 1-1-1z" />
    <path d="M2.5 8.5l7.5 5 7.5-5" />
  </Svg>
);

export const DashboardIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="2.5" y="2.5" width="6.5" height="8" rx="1" />
    <rect x="11" y="2.5" width="6.5" height="4.5" rx="1" />
    <rect x="2.5" y="12.5" width="6.5" height="5" rx="1" />
    <rect x="11" y="9" width="6.5" height="8.5" rx="1" />
  </Svg>
);

/** Three columns of cards: the requirements board. */
export const BoardIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="2.5" y="3" width="4.2" height="9" rx="1" />
    <rect x="7.9" y="3" width="4.2" height="14" rx="1" />
    <rect x="13.3" y="3" width="4.2" height="6" rx="1" />
  </Svg>
);

/** A path through three stops: one instruction's trace. */
export const TraceIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="4.5" cy="4.5" r="2" />
    <circle cx="15.5" cy="10" r="2" />
    <circle cx="4.5" cy="15.5" r="2" />
    <path d="M6.5 4.5h4a3 3 0 0 1 0 6h-6M6.5 15.5h3a3 3 0 0 0 3-3" />
  </Svg>
);

/** A chip: a model call. */
export const ChipIcon = (p: IconProps) => (
  <Svg {...p}>
    <rect x="5" y="5" width="10" height="10" rx="1.5" />
    <rect x="8" y="8" width="4" height="4" rx="0.5" />
    <path d="M8 2.5V5M12 2.5V5M8 15v2.5M12 15v2.5M2.5 8H5M2.5 12H5M15 8h2.5M15 12h2.5" />
  </Svg>
);

/** A flag: where an instruction starts. */
export const FlagIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M4.5 17.5v-14M4.5 3.5h9l-2 3.5 2 3.5h-9" />
  </Svg>
);

export const ChevronRightIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M8 4.5l5.5 5.5L8 15.5" />
  </Svg>
);

/** An X in a circle: something failed. */
export const XCircleIcon = (p: IconProps) => (
  <Svg {...p}>
    <circle cx="10" cy="10" r="7.5" />
    <path d="M7.5 7.5l5 5M12.5 7.5l-5 5" />
  </Svg>
);

/** A shield with a check: an action that waits for the boss's approval. */
export const ShieldIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M10 2.5l6 2.2v4.6c0 3.8-2.6 6.9-6 8.2-3.4-1.3-6-4.4-6-8.2V4.7l6-2.2z" />
    <path d="M7.3 10l2 2 3.6-3.8" />
  </Svg>
);

/** A gavel: a meeting's ruling on conflicting opinions. */
export const GavelIcon = (p: IconProps) => (
  <Svg {...p}>
    <path d="M8.2 3.8l4.6 4.6M5.6 6.4l4.6 4.6M6.9 5.1l4.6 4.6" />
    <path d="M10.6 9.4l5.4 5.4a1.1 1.1 0 0 1-1.6 1.6L9 11" />
    <path d="M3 17.5h7" />
  </Svg>
);
