import { useTranslation } from "react-i18next";
import { TraceIcon } from "../components/icons";
import { traceHref } from "../shell/route";

/**
 * A small "trace" link beside something that happened under an instruction (a chat message, an
 * action card). Quiet by default: `reveal` keeps it hidden until its row (a `group`) is hovered or
 * the link itself is focused, so a busy chat is not cluttered with links.
 */
export function TraceLink({
  traceId,
  testId,
  label,
  reveal = false,
  className = "",
}: {
  traceId: string;
  testId: string;
  label?: string;
  reveal?: boolean;
  className?: string;
}) {
  const { t } = useTranslation();
  return (
    <a
      href={traceHref(traceId)}
      data-testid={testId}
      aria-label={label ?? t("traces.link.open")}
      title={label ?? t("traces.link.open")}
      className={`inline-flex items-center gap-1 rounded px-1 text-[11px] font-medium text-slate-400 transition-opacity hover:text-indigo-600 focus-visible:opacity-100 focus-visible:outline-2 focus-visible:outline-indigo-500 ${
        reveal ? "opacity-0 group-hover:opacity-100" : ""
      } ${className}`}
    >
      <TraceIcon width={12} height={12} />
      <span aria-hidden="true">{t("traces.link.short")}</span>
    </a>
  );
}
