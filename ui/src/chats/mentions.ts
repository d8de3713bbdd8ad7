// @mentions in a chat message, matched exactly as the Rust side does (crates/core/src/chat/mentions.rs):
// after an `@` (or the full-width `＠`), the longest member name or first name wins, and a Latin
// name must end at a word boundary ("@Al" is not "@Alice"); Chinese names need no space after them.

export interface MentionMember {
  id: number;
  name: string;
}

/** A run of a message's text: plain, or an @mention of one member. */
export interface Segment {
  text: string;
  mentionId: number | null;
}

/** The full name, and its first word when the name has several ("Alice Chen" → "Alice"). */
function candidates(name: string): string[] {
  const full = name.trim();
  if (full === "") return [];
  const first = full.split(/\s+/)[0] ?? "";
  return first !== "" && first !== full ? [full, first] : [full];
}

/** A Latin name must not run on into more ASCII letters or digits ("@Alicia" is not "@Ali"). */
function endsCleanly(after: string, candidate: string): boolean {
  const latin = /[A-Za-z0-9]$/.test(candidate);
  return !latin || !/^[A-Za-z0-9]/.test(after);
}

/** The member mentioned right after an `@` at `at`, and how many characters the mention spans (without the `@`). */
function matchAt(text: string, at: number, members: readonly MentionMember[]): { id: number; length: number } | null {
  const rest = text.slice(at + 1);
  let best: { id: number; length: number } | null = null;
  for (const m of members) {
    for (const c of candidates(m.name)) {
      if (rest.slice(0, c.length).toLowerCase() !== c.toLowerCase()) continue;
      if (!endsCleanly(rest.slice(c.length), c)) continue;
      if (best === null || c.length > best.length) best = { id: m.id, length: c.length };
    }
  }
  return best;
}

const isAt = (ch: string | undefined) => ch === "@" || ch === "＠";

/** The text cut into plain runs and @mentions of the given members. Joined back, the runs are the text. */
export function splitMentions(text: string, members: readonly MentionMember[]): Segment[] {
  const out: Segment[] = [];
  let plainStart = 0;
  let i = 0;
  while (i < text.length) {
    const match = isAt(text[i]) ? matchAt(text, i, members) : null;
    if (match === null) {
      i++;
      continue;
    }
    if (i > plainStart) out.push({ text: text.slice(plainStart, i), mentionId: null });
    const end = i + 1 + match.length;
    out.push({ text: text.slice(i, end), mentionId: match.id });
    i = end;
    plainStart = end;
  }
  if (plainStart < text.length) out.push({ text: text.slice(plainStart), mentionId: null });
  return out;
}

/** Ids of the members mentioned, in order of first mention, without repeats. */
export function findMentions(text: string, members: readonly MentionMember[]): number[] {
  const ids: number[] = [];
  for (const s of splitMentions(text, members)) {
    if (s.mentionId !== null && !ids.includes(s.mentionId)) ids.push(s.mentionId);
  }
  return ids;
}
