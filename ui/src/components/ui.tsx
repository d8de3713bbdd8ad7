import { useEffect, useId, useMemo, useRef, type ButtonHTMLAttributes, type HTMLAttributes, type ReactNode } from "react";
import { useTranslation } from "react-i18next";
import { errorDetail, errorKey } from "../ipc/errors";
import { AlertIcon, CloseIcon } from "./icons";
import { WithCode } from "./WithCode";

type Variant = "primary" | "secondary" | "danger" | "ghost";

const VARIANTS: Record<Variant, string> = {
  primary: "bg-slate-900 text-white hover:bg-slate-700 disabled:bg-slate-400 shadow-sm",
  secondary: "bg-white text-slate-700 ring-1 ring-inset ring-slate-300 hover:bg-slate-50 disabled:text-slate-400 shadow-sm",
  danger: "bg-rose-600 text-white hover:bg-rose-500 disabled:bg-rose-300 shadow-sm",
  ghost: "text-slate-600 hover:bg-slate-100 hover:text-slate-900 disabled:text-slate-300",
};

export function Button({
  variant = "secondary",
  className = "",
  type = "button",
  ...rest
}: ButtonHTMLAttributes<HTMLButtonElement> & { variant?: Variant }) {
  return (
    <button
      type={type}
      className={`inline-flex h-9 items-center justify-center gap-1.5 rounded-lg px-3.5 text-sm whitespace-nowrap font-medium transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-500 disabled:cursor-not-allowed ${VARIANTS[variant]} ${className}`}
      {...rest}
    />
  );
}

export const inputClass =
  "block w-full rounded-lg border-0 bg-white px-3 py-2 text-sm text-slate-900 shadow-sm ring-1 ring-inset ring-slate-300 placeholder:text-slate-400 focus:ring-2 focus:ring-inset focus:ring-indigo-500 focus:outline-none aria-[invalid=true]:ring-rose-400";

/** A labelled form control. The child must carry `id={id}` (passed through the render prop). */
export function Field({
  label,
  hint,
  error,
  optional,
  children,
}: {
  label: string;
  hint?: string;
  error?: string | null;
  optional?: boolean;
  children: (ids: { id: string; describedBy: string | undefined; invalid: boolean }) => ReactNode;
}) {
  const { t } = useTranslation();
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  const describedBy = error ? errorId : hint ? hintId : undefined;
  return (
    <div className="space-y-1.5">
      <label htmlFor={id} className="flex items-baseline justify-between text-sm font-medium text-slate-700">
        <span>{label}</span>
        {optional && <span className="text-xs font-normal text-slate-400">{t("common.optional")}</span>}
      </label>
      {children({ id, describedBy, invalid: Boolean(error) })}
      {error ? (
        <p id={errorId} role="alert" className="text-xs text-rose-600">
          {error}
        </p>
      ) : hint ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
    </div>
  );
}

export function Spinner({ className = "" }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={`inline-block size-4 animate-spin rounded-full border-2 border-slate-300 border-t-slate-700 ${className}`}
    />
  );
}

export function LoadingState({ className = "" }: { className?: string }) {
  const { t } = useTranslation();
  return (
    <div role="status" className={`flex items-center justify-center gap-3 text-sm text-slate-500 ${className}`}>
      <Spinner />
      <span>{t("common.loading")}</span>
    </div>
  );
}

export function ErrorState({ error, onRetry, className = "" }: { error: unknown; onRetry?: () => void; className?: string }) {
  const { t } = useTranslation();
  const detail = errorDetail(error);
  return (
    <div role="alert" data-testid="error-state" className={`flex items-center justify-center p-8 ${className}`}>
      <div className="max-w-md rounded-xl bg-white p-6 text-center shadow-sm ring-1 ring-slate-200">
        <div className="mx-auto mb-3 flex size-10 items-center justify-center rounded-full bg-rose-50 text-rose-600">
          <AlertIcon width={20} height={20} />
        </div>
        <h2 className="text-base font-semibold text-slate-900">{t("errors.title")}</h2>
        <p className="mt-1 text-sm text-slate-600">
          <WithCode text={t(errorKey(error))} />
        </p>
        {detail && <TechnicalDetail detail={detail} />}
        {onRetry && (
          <Button variant="primary" className="mt-4" onClick={onRetry} data-testid="retry-button">
            {t("common.retry")}
          </Button>
        )}
      </div>
    </div>
  );
}

/**
 * What the program said, word for word, for whoever fixes it: under a closed "Technical details",
 * as code — it is not translated, so it is not shown as a sentence of the app's.
 */
export function TechnicalDetail({ detail }: { detail: string }) {
  const { t } = useTranslation();
  return (
    <details data-testid="error-detail" className="mt-2 text-left text-xs text-slate-400">
      <summary className="cursor-pointer select-none">{t("common.technicalDetails")}</summary>
      <code className="mt-1 block font-mono break-words whitespace-pre-wrap text-slate-500">{detail}</code>
    </details>
  );
}

/** The translated error of a failed command, shown inside a form or dialog. */
export function InlineError({ error }: { error: unknown }) {
  const { t } = useTranslation();
  if (error === null || error === undefined) return null;
  return (
    <div role="alert" className="flex items-start gap-2 rounded-lg bg-rose-50 px-3 py-2 text-sm text-rose-700 ring-1 ring-inset ring-rose-200">
      <AlertIcon className="mt-0.5 shrink-0" />
      <span>
        <WithCode text={t(errorKey(error))} />
      </span>
    </div>
  );
}

export function Modal({
  title,
  description,
  onClose,
  children,
  testId,
  wide = false,
}: {
  title: string;
  description?: ReactNode;
  onClose: () => void;
  children: ReactNode;
  testId?: string;
  /** For a dialog that edits a whole document (a role card), not a few fields. */
  wide?: boolean;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const closeRef = useRef(onClose);
  closeRef.current = onClose;

  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    const first = panel.current?.querySelector<HTMLElement>("input, select, textarea, button[data-autofocus]");
    first?.focus();
    const onKey = (e: KeyboardEvent) => {
      if (e.key === "Escape") closeRef.current();
      // Keep Tab inside the dialog while it is open.
      if (e.key === "Tab" && panel.current) {
        const focusable = Array.from(
          panel.current.querySelectorAll<HTMLElement>("input, select, textarea, button:not([disabled])"),
        );
        const first = focusable[0];
        const last = focusable[focusable.length - 1];
        if (!first || !last) return;
        if (e.shiftKey && document.activeElement === first) {
          e.preventDefault();
          last.focus();
        } else if (!e.shiftKey && document.activeElement === last) {
          e.preventDefault();
          first.focus();
        }
      }
    };
    document.addEventListener("keydown", onKey);
    return () => {
      document.removeEventListener("keydown", onKey);
      previouslyFocused?.focus?.();
    };
  }, []);

  return (
    <div
      className="fixed inset-0 z-50 flex items-start justify-center overflow-y-auto bg-slate-900/30 px-4 py-[10vh] backdrop-blur-[2px]"
      onMouseDown={(e) => {
        if (e.target === e.currentTarget) onClose();
      }}
    >
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        data-testid={testId}
        className={`w-full ${wide ? "max-w-3xl" : "max-w-md"} rounded-2xl bg-white shadow-xl ring-1 ring-slate-900/10`}
      >
        <div className="flex items-start justify-between gap-4 px-6 pt-5">
          <div>
            <h2 id={titleId} className="text-base font-semibold text-slate-900">
              {title}
            </h2>
            {description && <div className="mt-1 text-sm text-slate-600">{description}</div>}
          </div>
          <button
            type="button"
            onClick={onClose}
            aria-label={t("common.close")}
            className="-mr-2 rounded-md p-1.5 text-slate-400 hover:bg-slate-100 hover:text-slate-600"
          >
            <CloseIcon />
          </button>
        </div>
        <div className="px-6 pt-4 pb-6">{children}</div>
      </div>
    </div>
  );
}

export function DialogActions({ children }: { children: ReactNode }) {
  return <div className="mt-6 flex justify-end gap-2">{children}</div>;
}

/**
 * A destructive step the boss confirms: what will happen, Cancel (focused) and a red
 * confirm button that is disabled while the change runs; a failure shows in the dialog.
 */
export function ConfirmDialog({
  title,
  description,
  testId,
  confirmLabel,
  pending,
  error,
  onConfirm,
  onClose,
  children,
}: {
  title: string;
  description: string;
  /** On the dialog, `…-dialog`; its confirm button gets the same name ending in `-confirm`. */
  testId: string;
  confirmLabel: string;
  pending: boolean;
  error: unknown;
  onConfirm: () => void;
  onClose: () => void;
  children?: ReactNode;
}) {
  const { t } = useTranslation();
  return (
    <Modal title={title} description={description} onClose={onClose} testId={testId}>
      {children}
      {error != null && (
        <div className={children ? "mt-3" : undefined}>
          <InlineError error={error} />
        </div>
      )}
      <DialogActions>
        <Button onClick={onClose} data-autofocus>
          {t("common.cancel")}
        </Button>
        <Button variant="danger" data-testid={`${testId.replace(/-dialog$/, "")}-confirm`} disabled={pending} onClick={onConfirm}>
          {pending ? t("common.saving") : confirmLabel}
        </Button>
      </DialogActions>
    </Modal>
  );
}

export type Tone = "slate" | "green" | "amber" | "rose" | "indigo";

const TONES: Record<Tone, string> = {
  slate: "bg-slate-100 text-slate-600 ring-slate-500/10",
  green: "bg-emerald-50 text-emerald-700 ring-emerald-600/20",
  amber: "bg-amber-50 text-amber-800 ring-amber-600/20",
  rose: "bg-rose-50 text-rose-700 ring-rose-600/20",
  indigo: "bg-indigo-50 text-indigo-700 ring-indigo-600/20",
};

/** A small status pill. */
export function Badge({ tone = "slate", className = "", ...rest }: HTMLAttributes<HTMLSpanElement> & { tone?: Tone }) {
  return (
    <span
      className={`inline-flex items-center gap-1 rounded-md px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONES[tone]} ${className}`}
      {...rest}
    />
  );
}

/**
 * A filter select of people ("everyone" first, then by name), with a screen-reader label.
 * The mailbox and the approval history filter by requester this way.
 */
export function EmployeeFilter({
  employees,
  value,
  onChange,
  label,
  everyone,
  testId,
  className,
}: {
  employees: { id: number; name: string }[];
  value: number | null;
  onChange: (employeeId: number | null) => void;
  label: string;
  everyone: string;
  testId: string;
  className: string;
}) {
  const id = useId();
  const people = useMemo(() => [...employees].sort((a, b) => a.name.localeCompare(b.name)), [employees]);
  return (
    <>
      <label htmlFor={id} className="sr-only">
        {label}
      </label>
      <select
        id={id}
        data-testid={testId}
        className={className}
        value={value ?? ""}
        onChange={(e) => onChange(e.target.value === "" ? null : Number(e.target.value))}
      >
        <option value="">{everyone}</option>
        {people.map((e) => (
          <option key={e.id} value={e.id}>
            {e.name}
          </option>
        ))}
      </select>
    </>
  );
}
