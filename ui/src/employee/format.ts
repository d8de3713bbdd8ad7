// Pure helpers of the employee profile: stamina zones, memory labels, relative times. No React here.
import type { MemoryDto } from "../bindings/MemoryDto";
import type { MemoryKind } from "../bindings/MemoryKind";
import type { Visibility } from "../bindings/Visibility";
import type { Zone } from "../bindings/Zone";

export const ZONES = ["green", "yellow", "red"] as const satisfies readonly Zone[];
export const MEMORY_KINDS = ["long_term", "short_term"] as const satisfies readonly MemoryKind[];
export const VISIBILITIES = ["private", "team", "public"] as const satisfies readonly Visibility[];

const allZones: Exclude<Zone, (typeof ZONES)[number]> extends never ? true : false = true;
const allKinds: Exclude<MemoryKind, (typeof MEMORY_KINDS)[number]> extends never ? true : false = true;
const allVisibilities: Exclude<Visibility, (typeof VISIBILITIES)[number]> extends never ? true : false = true;
void [allZones, allKinds, allVisibilities];

/** SPEC §5: at most this many memories of each kind (shown next to the counts). */
export const MEMORY_CAPS: Record<MemoryKind, number> = { long_term: 200, short_term: 20 };

/** SPEC §7: green above 70, yellow from 40 to 70, red below 40 (the backend's zone is the one shown). */
export function zoneOf(comfort: number): Zone {
  if (comfort > 70) return "green";
  if (comfort >= 40) return "yellow";
  return "red";
}

/** The colour of each zone, for the gauge (SVG strokes need a value, not a class). */
export const ZONE_COLOUR: Record<Zone, string> = {
  green: "#10b981",
  yellow: "#f59e0b",
  red: "#f43f5e",
};

/** 0–100 for a gauge or a bar; comfort can go below 0 when fatigue and stress are high. */
export function clampPercent(value: number): number {
  if (!Number.isFinite(value)) return 0;
  return Math.max(0, Math.min(100, value));
}

export type MemoryFilter = "all" | MemoryKind;

/** The memories a filter shows, the most important first, then the newest. */
export function filterMemories(memories: readonly MemoryDto[], filter: MemoryFilter): MemoryDto[] {
  return memories
    .filter((m) => filter === "all" || m.kind === filter)
    .sort((a, b) => b.importance - a.importance || Date.parse(b.createdAt) - Date.parse(a.createdAt) || b.id - a.id);
}

const UNITS: Array<[Intl.RelativeTimeFormatUnit, number]> = [
  ["day", 24 * 60 * 60 * 1000],
  ["hour", 60 * 60 * 1000],
  ["minute", 60 * 1000],
];

/** "in 5 hours", "3 days ago", "now": the largest whole unit, for expiries and ages. */
export function formatRelative(iso: string, now: number, language: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return "";
  const diff = at - now;
  const format = new Intl.RelativeTimeFormat(language, { numeric: "auto" });
  for (const [unit, ms] of UNITS) {
    if (Math.abs(diff) >= ms) return format.format(Math.round(diff / ms), unit);
  }
  return format.format(0, "minute");
}

export function formatDate(iso: string, language: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return new Intl.DateTimeFormat(language, { year: "numeric", month: "short", day: "numeric" }).format(new Date(at));
}

export function formatDateTime(iso: string, language: string): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  return new Intl.DateTimeFormat(language, { month: "short", day: "numeric", hour: "2-digit", minute: "2-digit" }).format(new Date(at));
}

/** SPEC §6: how urgent a pending task is by its age. */
export type Urgency = "normal" | "aging" | "overdue" | "critical";
export const URGENCIES = ["normal", "aging", "overdue", "critical"] as const satisfies readonly Urgency[];

export function taskUrgency(createdAt: string, now: number): Urgency {
  const at = Date.parse(createdAt);
  if (Number.isNaN(at)) return "normal";
  const minutes = (now - at) / 60_000;
  if (minutes < 5) return "normal";
  if (minutes < 15) return "aging";
  if (minutes <= 30) return "overdue";
  return "critical";
}

/**
 * Comfort as a whole number that agrees with its zone: 39.6 is red, so it reads 39, not 40
 * (which would be yellow); 70.4 is green, so it reads 71, not 70.
 */
export function comfortLabel(comfort: number, zone: Zone): number {
  const n = Math.round(clampPercent(comfort));
  if (zone === "green") return Math.max(71, n);
  if (zone === "red") return Math.min(39, n);
  return Math.min(70, Math.max(40, n));
}
