import { useId, type ReactNode } from "react";

/** One card of the profile: a title, an optional line about it and actions, then its body. */
export function Card({
  title,
  description,
  actions,
  children,
  testId,
  padded = true,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  testId?: string;
  /** Pad the body; lists run edge to edge. */
  padded?: boolean;
}) {
  const headingId = useId();
  return (
    <section aria-labelledby={headingId} data-testid={testId} className="rounded-xl bg-white shadow-sm ring-1 ring-slate-200">
      <header className="flex flex-wrap items-start justify-between gap-3 border-b border-slate-100 px-5 py-3.5">
        <div className="min-w-0">
          <h3 id={headingId} className="text-[15px] font-semibold text-slate-900">
            {title}
          </h3>
          {description && <p className="mt-0.5 text-xs leading-relaxed text-slate-500">{description}</p>}
        </div>
        {actions && <div className="flex shrink-0 items-center gap-2">{actions}</div>}
      </header>
      <div className={padded ? "px-5 py-4" : ""}>{children}</div>
    </section>
  );
}

/** A quiet line for a card with nothing to list. */
export function CardEmpty({ children, testId }: { children: ReactNode; testId?: string }) {
  return (
    <p data-testid={testId} className="px-5 py-6 text-center text-sm text-slate-500">
      {children}
    </p>
  );
}
