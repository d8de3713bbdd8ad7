import type { ErrorCode } from "../bindings/ErrorCode";
import type { IpcError } from "../bindings/IpcError";

/** Every code the backend can send; kept exhaustive by the type check below. */
export const ERROR_CODES = [
  "not_found",
  "duplicate_name",
  "department_cycle",
  "invalid_manager",
  "department_not_empty",
  "invalid_input",
  "already_fired",
  "company_missing",
  "company_exists",
  "storage",
  "internal",
  "secret_unavailable",
  "budget_exceeded",
  "breaker_open",
  "provider_error",
  "missing_key",
  "already_decided",
  "approval_expired",
  "approval_changed",
  "tool_failed",
  "database_not_empty",
  "bundle_invalid",
  "bundle_too_new",
  "disk_full",
  "checksum_mismatch",
  "download_failed",
  "cancelled",
  "not_confirmed",
  "not_your_decision",
  "sign_in_refused",
] as const satisfies readonly ErrorCode[];

type MissingCode = Exclude<ErrorCode, (typeof ERROR_CODES)[number]>;
// Fails to compile when the Rust side adds a code that is not listed (and translated) here.
const exhaustive: MissingCode extends never ? true : false = true;
void exhaustive;

/** What the UI shows for anything that is not a well-formed IpcError (a crash, no backend…). */
export type UiErrorCode = ErrorCode | "unknown";

const KNOWN = new Set<string>(ERROR_CODES);

/** True when `e` is the `{code, message}` value a rejected `invoke()` throws. */
export function isIpcError(e: unknown): e is IpcError {
  if (typeof e !== "object" || e === null) return false;
  const candidate = e as Record<string, unknown>;
  return typeof candidate.code === "string" && KNOWN.has(candidate.code) && typeof candidate.message === "string";
}

/** The backend may also reject with a JSON string (older builds, plugin errors): accept that too. */
export function toIpcError(e: unknown): IpcError | null {
  if (isIpcError(e)) return e;
  if (typeof e === "string") {
    try {
      const parsed: unknown = JSON.parse(e);
      if (isIpcError(parsed)) return parsed;
    } catch {
      // not JSON: a plain message
    }
  }
  return null;
}

export function errorCode(e: unknown): UiErrorCode {
  return toIpcError(e)?.code ?? "unknown";
}

/** The untranslated detail, for the "Technical details" under the translated message. */
export function errorDetail(e: unknown): string {
  const ipc = toIpcError(e);
  if (ipc) return ipc.message;
  if (e instanceof Error) return e.message;
  if (typeof e === "string") return e;
  return "";
}

/** i18n key for an error; every code has one in both languages. */
export function errorKey(e: unknown): string {
  return `errors.${errorCode(e)}`;
}
