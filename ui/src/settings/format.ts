// Pure helpers for the settings page: numbers, money, budget levels, validation. No React here.
import type { Purpose } from "../bindings/Purpose";
import type { ProviderDto } from "../bindings/ProviderDto";
import type { SpendReport } from "../bindings/SpendReport";

/** The purposes the boss can route to a model (`test` and `ask` are internal). */
export const ROUTABLE_PURPOSES = ["intent", "thought", "summary", "report", "privacy"] as const satisfies readonly Purpose[];

/** At this share of the daily budget the gateway starts sending calls to the built-in model. */
export const FALLBACK_AT = 0.9;

export type KeyStatus = "keychain" | "environment" | "missing" | "not_needed";
export const KEY_STATUSES = ["keychain", "environment", "missing", "not_needed"] as const satisfies readonly KeyStatus[];

export function keyStatus(p: Pick<ProviderDto, "hasKey" | "keySource" | "keyRequired">): KeyStatus {
  if (p.hasKey && p.keySource === "environment") return "environment";
  if (p.hasKey) return "keychain";
  return p.keyRequired ? "missing" : "not_needed";
}

/** Same rule as the Rust side's `env_var_for`: upper-cased, anything not [A-Za-z0-9] becomes `_`. */
export function envVarFor(providerId: string): string {
  return `CUBICLE_API_KEY_${providerId.replace(/[^A-Za-z0-9]/g, "_").toUpperCase()}`;
}

/**
 * A decimal typed by the boss: accepts "12", "12.5", " 0.25 " and a comma decimal ("12,5").
 * Returns null for anything else (empty, "abc", "1e", "Infinity", "NaN").
 */
export function parseAmount(text: string): number | null {
  const s = text.trim().replace(",", ".");
  if (!/^[+-]?(\d+\.?\d*|\.\d+)$/.test(s)) return null;
  const n = Number(s);
  return Number.isFinite(n) ? n : null;
}

export type BudgetLevel = "ok" | "fallback" | "spent";

/** ok below 90 %, fallback (calls go to the built-in model) from 90 %, spent at 100 %. */
export function budgetLevel(spent: number, budget: number): BudgetLevel {
  if (!(budget > 0)) return "spent";
  if (spent >= budget) return "spent";
  if (spent >= budget * FALLBACK_AT) return "fallback";
  return "ok";
}

/** 0–100, for the width of a progress bar. */
export function percentOf(spent: number, budget: number): number {
  if (!(budget > 0)) return 100;
  return Math.max(0, Math.min(100, (spent / budget) * 100));
}

export function formatUsd(value: number, language: string): string {
  // −0 (an empty sum in Rust is −0.0) would read "-US$0.00".
  if (Object.is(value, -0)) value = 0;
  // Small amounts (a few cheap calls) would all round to $0.00: show them to the tenth of a cent.
  const small = value !== 0 && Math.abs(value) < 1;
  return new Intl.NumberFormat(language, {
    style: "currency",
    currency: "USD",
    minimumFractionDigits: 2,
    maximumFractionDigits: small ? 4 : 2,
  }).format(value);
}

export function formatCount(value: number, language: string): string {
  return new Intl.NumberFormat(language).format(value);
}

/** 1,840,000 → "1.8M" (en) / "184万" (zh-CN): token counts at a glance. */
export function formatCompact(value: number, language: string): string {
  return new Intl.NumberFormat(language, { notation: "compact", maximumFractionDigits: 1 }).format(value);
}

export function formatBytes(bytes: number, language: string): string {
  const mb = bytes / (1024 * 1024);
  if (mb < 1) {
    // A bundle is tens of KB: "0 MB" would say nothing.
    const kb = Math.max(1, Math.round(bytes / 1024));
    return `${new Intl.NumberFormat(language).format(kb)} KB`;
  }
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: mb < 10 ? 1 : 0 }).format(mb)} MB`;
}

/** A full path (`/…`, `C:\…`, `\\server\…`): a relative one would depend on where the app was started. */
export function isAbsolutePath(path: string): boolean {
  return /^(\/|[A-Za-z]:[\\/]|\\\\)/.test(path);
}

/** "2025-03-07" as a local date (not UTC midnight, which shifts a day west of Greenwich). */
export function parseLocalDate(date: string): Date | null {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!m) return null;
  return new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
}

export function formatDay(date: string, language: string): { weekday: string; day: string } {
  const d = parseLocalDate(date);
  if (!d) return { weekday: date, day: "" };
  return {
    weekday: new Intl.DateTimeFormat(language, { weekday: "short" }).format(d),
    day: new Intl.DateTimeFormat(language, { month: "numeric", day: "numeric" }).format(d),
  };
}

/** True when the last seven days hold no model call at all. */
export function isSpendEmpty(report: SpendReport): boolean {
  return (
    report.todayUsd === 0 &&
    report.callsToday === 0 &&
    report.refusedToday === 0 &&
    report.days.every((d) => d.costUsd === 0 && d.calls === 0) &&
    report.byModel.length === 0 &&
    report.byEmployee.length === 0
  );
}

/** Models typed as "a, b" or one per chip: trimmed, no empties, no duplicates, order kept. */
export function normaliseModels(models: readonly string[]): string[] {
  const out: string[] = [];
  for (const raw of models) {
    for (const part of raw.split(",")) {
      const m = part.trim();
      if (m && !out.includes(m)) out.push(m);
    }
  }
  return out;
}

export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value.trim());
    return url.protocol === "http:" || url.protocol === "https:";
  } catch {
    return false;
  }
}

/** A model file's size: GB from a billion bytes (as model hubs print them), else MB. */
export function formatSize(bytes: number, language: string): string {
  if (bytes >= 1e9) {
    return `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(bytes / 1e9)} GB`;
  }
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(bytes / 1e6)} MB`;
}

/** A download rate in MB/s (KB/s below one MB/s). */
export function formatRate(bytesPerSec: number, language: string): string {
  if (bytesPerSec >= 1e6) {
    return `${new Intl.NumberFormat(language, { maximumFractionDigits: 1 }).format(bytesPerSec / 1e6)} MB/s`;
  }
  return `${new Intl.NumberFormat(language, { maximumFractionDigits: 0 }).format(bytesPerSec / 1e3)} KB/s`;
}

/** Whole percent of a download, 0–100, never NaN. */
export function progressPercent(received: number, total: number): number {
  if (total <= 0) return 0;
  return Math.min(100, Math.max(0, Math.floor((received * 100) / total)));
}
