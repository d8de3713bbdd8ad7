import type { ReactNode } from "react";
import { TraceIcon } from "../components/icons";

/** The right pane when there is no trace to show: nothing picked, nothing yet, or an unknown id. */
export function Placeholder({ testId, title, body, action }: { testId: string; title: string; body: string; action?: ReactNode }) {
  return (
    <div data-testid={testId} className="flex h-full items-center justify-center p-8">
      <div className="max-w-sm text-center">
        <div className="mx-auto flex size-12 items-center justify-center rounded-xl bg-white text-slate-400 shadow-sm ring-1 ring-slate-200">
          <TraceIcon width={24} height={24} />
        </div>
        <h3 className="mt-4 text-base font-semibold text-slate-900">{title}</h3>
        <p className="mt-1.5 text-sm leading-relaxed text-slate-500">{body}</p>
        {action}
      </div>
    </div>
  );
}
