// Avatars are drawn, never fetched: initials on a colour picked from the name.

/** Muted background / foreground pairs that stay readable on white. */
export const AVATAR_PALETTE = [
  { bg: "#E0E7FF", fg: "#3730A3" },
  { bg: "#DCFCE7", fg: "#166534" },
  { bg: "#FEF3C7", fg: "#92400E" },
  { bg: "#FCE7F3", fg: "#9D174D" },
  { bg: "#E0F2FE", fg: "#075985" },
  { bg: "#EDE9FE", fg: "#5B21B6" },
  { bg: "#FFE4E6", fg: "#9F1239" },
  { bg: "#CCFBF1", fg: "#115E59" },
  { bg: "#FFEDD5", fg: "#9A3412" },
  { bg: "#F1F5F9", fg: "#334155" },
] as const;

export type AvatarColour = (typeof AVATAR_PALETTE)[number];

/** FNV-1a over UTF-16 code units: stable across runs and platforms. */
export function hashName(name: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

export function avatarColour(name: string): AvatarColour {
  const palette = AVATAR_PALETTE;
  return palette[hashName(name.trim().toLowerCase()) % palette.length] ?? palette[0];
}

const CJK = /[\u3400-\u9fff\uf900-\ufaff]/;

/** "Ada Lovelace" → "AL"; "张伟" → "张伟"; "欧阳娜娜" → "娜娜"; "" → "?". */
export function initials(name: string): string {
  const trimmed = name.trim();
  if (trimmed === "") return "?";
  const chars = Array.from(trimmed);
  if (CJK.test(trimmed)) {
    const han = chars.filter((c) => CJK.test(c));
    return han.length <= 2 ? han.join("") : han.slice(-2).join("");
  }
  const words = trimmed.split(/\s+/).filter((w) => w.length > 0);
  const first = Array.from(words[0] ?? "")[0] ?? "";
  if (words.length === 1) return Array.from(words[0] ?? "").slice(0, 2).join("").toUpperCase();
  const last = Array.from(words[words.length - 1] ?? "")[0] ?? "";
  return (first + last).toUpperCase();
}
