import type { ReactNode } from "react";

/** One card of the settings page: a title, a sentence about it, optional actions, then its body. */
export function SettingsSection({
  id,
  title,
  description,
  actions,
  children,
  padded = false,
}: {
  id: string;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  /** Pad the body (forms); lists and tables run edge to edge. */
  padded?: boolean;
}) {
  const headingId = `settings-${id}-title`;
  return (
    <section
      id={`settings-${id}`}
      aria-labelledby={headingId}
      data-testid={`settings-section-${id}`}
      className="scroll-mt-4 rounded-xl bg-white shadow-sm ring-1 ring-slate-200"
    >
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-4">
        <div className="min-w-0">
          <h3 id={headingId} className="text-[15px] font-semibold text-slate-900">
            {title}
          </h3>
          {description && <p className="mt-0.5 max-w-2xl text-sm leading-relaxed text-slate-500">{description}</p>}
        </div>
        {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
      </header>
      <div className={padded ? "px-5 py-4" : ""}>{children}</div>
    </section>
  );
}
