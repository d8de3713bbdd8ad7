// How affinity (1–100, one employee's view of another) is drawn, on the graph and on profiles.

/** Above this, a warm relationship (green); below COLD_BELOW a cold one (red); in between, neutral (grey). */
export const WARM_ABOVE = 70;
export const COLD_BELOW = 40;
/** A stranger's affinity, and what a reset returns to (as on the Rust side). */
export const AFFINITY_NEUTRAL = 50;

export type AffinityTone = "warm" | "neutral" | "cold";
export const AFFINITY_TONES = ["warm", "neutral", "cold"] as const satisfies readonly AffinityTone[];

export function affinityTone(affinity: number): AffinityTone {
  if (affinity > WARM_ABOVE) return "warm";
  if (affinity < COLD_BELOW) return "cold";
  return "neutral";
}

/** SVG colours (strokes, markers) per tone: emerald-500, slate-400, rose-500. */
export const TONE_COLOUR: Record<AffinityTone, string> = {
  warm: "#10b981",
  neutral: "#94a3b8",
  cold: "#f43f5e",
};

/** Tailwind classes per tone, for bars. */
export const TONE_BAR: Record<AffinityTone, string> = {
  warm: "bg-emerald-500",
  neutral: "bg-slate-400",
  cold: "bg-rose-500",
};

export const clampAffinity = (affinity: number): number => Math.max(1, Math.min(100, Math.round(affinity)));

/** Edge width: 1 px for indifference (50), up to 4 px for the strongest feelings either way. */
export function edgeWidth(affinity: number): number {
  return 1 + (Math.abs(clampAffinity(affinity) - AFFINITY_NEUTRAL) / AFFINITY_NEUTRAL) * 3;
}
