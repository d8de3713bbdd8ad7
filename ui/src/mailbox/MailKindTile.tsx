import type { ComponentType, SVGProps } from "react";
import type { MailKind } from "../bindings/MailKind";
import { ClockAlertIcon, CoinIcon, DigestIcon, ReportIcon } from "../components/icons";

/** Each kind's icon and colours (the tones of KIND_TONE: green, amber, rose, slate, indigo). */
export const MAIL_KIND_STYLE: Record<MailKind, { icon: ComponentType<SVGProps<SVGSVGElement>>; tile: string; text: string }> = {
  report: { icon: ReportIcon, tile: "bg-emerald-50 text-emerald-700 ring-emerald-600/15", text: "text-emerald-700" },
  escalation: { icon: ClockAlertIcon, tile: "bg-amber-50 text-amber-700 ring-amber-600/20", text: "text-amber-700" },
  budget: { icon: CoinIcon, tile: "bg-rose-50 text-rose-700 ring-rose-600/20", text: "text-rose-700" },
  digest: { icon: DigestIcon, tile: "bg-slate-100 text-slate-600 ring-slate-500/15", text: "text-slate-500" },
  // A meeting's minutes read like a report of the whole room: the report's icon in their own colour.
  minutes: { icon: ReportIcon, tile: "bg-indigo-50 text-indigo-700 ring-indigo-600/15", text: "text-indigo-700" },
};

/** An item's picture: the icon of its kind. Decorative: the kind is also written next to it. */
export function MailKindTile({ kind, size = 40 }: { kind: MailKind; size?: number }) {
  const { icon: Icon, tile } = MAIL_KIND_STYLE[kind];
  const iconSize = Math.round(size * 0.5);
  return (
    <span
      aria-hidden="true"
      data-kind={kind}
      className={`inline-flex shrink-0 items-center justify-center rounded-xl ring-1 ring-inset ${tile}`}
      style={{ width: size, height: size }}
    >
      <Icon width={iconSize} height={iconSize} />
    </span>
  );
}
