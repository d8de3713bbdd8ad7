// Role cards in the in-memory Cubicle (see fakeBackend.ts), with the Rust side's rules
// (crates/core/src/roles/card.rs, edit.rs, library.rs, roster.rs): a card is a Markdown file whose
// `---` header the same small strict parser reads (a bad line is refused with where and why), the
// shipped cards can be edited (deleting the edit brings the shipped text back) but not deleted, a
// roster is card files or archives of them (zip, tar, tar.gz), sorted against the library into new,
// changed, unchanged, unreadable and skipped, and written all at once. The hiring templates follow
// the cards, as the role_template table does.
import type { Archetype } from "../../bindings/Archetype";
import type { CardError } from "../../bindings/CardError";
import type { CompanyDto } from "../../bindings/CompanyDto";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { RoleCard } from "../../bindings/RoleCard";
import type { RoleCardDto } from "../../bindings/RoleCardDto";
import type { RoleExport } from "../../bindings/RoleExport";
import type { RoleImport } from "../../bindings/RoleImport";
import type { RoleTemplateDto } from "../../bindings/RoleTemplateDto";
import type { RosterUpload } from "../../bindings/RosterUpload";
import type { SaveRoleCard } from "../../bindings/SaveRoleCard";
import type { CommandPart } from "./commandTable";
import { FAKE_DOWNLOADS } from "./fakeBundle";
import { TOOL_CATALOGUE } from "./fakeToolCatalogue";

/** As on the Rust side (MAX_CARD_BYTES, MAX_RETRIES_LIMIT, MAX_ROSTER_FILES). */
const MAX_CARD_BYTES = 256 * 1024;
const MAX_RETRIES_LIMIT = 10;
const MAX_ROSTER_FILES = 1000;
/** Every archetype (a record, so one added on the Rust side fails to compile here until listed). */
const ARCHETYPES: Record<Archetype, true> = {
  shy_introvert: true, chatterbox: true, zen_slacker: true, ultra_grinder: true, passive_aggressive: true, warm_hearted: true,
  anxious_perfectionist: true, rebel_slacker: true, philosopher: true, comedy_relief: true, old_hand: true, idealist: true,
};
const isArchetype = (v: string): v is Archetype => Object.hasOwn(ARCHETYPES, v);

/** A card of the library as the role_template table keeps it. */
export interface FakeRoleCard {
  key: string;
  text: string;
  /** The shipped text, unedited. */
  builtin: boolean;
}

/** What of the fake backend the role-card commands read and write. */
export interface RolesHost {
  company: CompanyDto | null;
  roleCards: FakeRoleCard[];
  templates: RoleTemplateDto[];
  /** What `export_role_cards` wrote, as the real app would into the Downloads folder. */
  exportedRoles: { dir: string; files: { path: string; text: string }[] }[];
  now: () => number;
}

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

// ---- The card parser (card.rs) ----

type Value = string | string[];

/** What is wrong with a header line (1-based), or with a key's value (the line is the key's). */
class Bad {
  constructor(
    readonly reason: string,
    readonly line = 0,
  ) {}
}

const unquote = (v: string) => (v.length >= 2 && ((v.startsWith('"') && v.endsWith('"')) || (v.startsWith("'") && v.endsWith("'"))) ? v.slice(1, -1) : v);
const commaList = (v: string) => v.split(",").map((s) => unquote(s.trim())).filter((s) => s !== "");

function readValue(v: string, line: number): Value {
  if (v.startsWith("[")) {
    if (!v.endsWith("]")) throw new Bad("a list that opens with `[` must close with `]`", line);
    return commaList(v.slice(1, -1));
  }
  if (v.startsWith("|") || v.startsWith(">")) throw new Bad("multi-line values are not supported", line);
  if ((v.startsWith('"') || v.startsWith("'")) && unquote(v) === v) throw new Bad("a quoted value is not closed", line);
  return unquote(v);
}

/** The header's `key: value` entries (with their line) and the body; throws Bad. */
function splitHeader(text: string): { entries: Array<[number, string, Value]>; body: string } {
  const lines = text.replace(/^\uFEFF/, "").split("\n");
  if (lines[0]?.trimEnd() !== "---") throw new Bad("a card starts with a `---` line", 1);
  const entries: Array<[number, string, Value]> = [];
  for (let i = 1; i < lines.length; i++) {
    const line = (lines[i] ?? "").trimEnd();
    const lineNo = i + 1;
    if (line === "---") return { entries, body: lines.slice(i + 1).join("\n") };
    const trimmed = line.trim();
    if (trimmed === "" || trimmed.startsWith("#")) continue;
    if (trimmed.startsWith("- ") || trimmed === "-") {
      const last = entries.at(-1);
      if (!last) throw new Bad("a `- item` line outside a list", lineNo);
      if (last[2] === "") last[2] = [];
      if (!Array.isArray(last[2])) throw new Bad("a `- item` line outside a list", lineNo);
      last[2].push(unquote(trimmed.slice(1).trim()));
      continue;
    }
    if (/^[ \t]/.test(line)) throw new Bad("an indented line that is not a `- item` (nested values are not supported)", lineNo);
    const colon = line.indexOf(":");
    if (colon < 0) throw new Bad("expected `key: value`", lineNo);
    const key = line.slice(0, colon).trim();
    if (!/^[A-Za-z0-9_-]+$/.test(key)) throw new Bad(`${JSON.stringify(key)} is not a key`, lineNo);
    entries.push([lineNo, key, readValue(line.slice(colon + 1).trim(), lineNo)]);
  }
  throw new Bad("the header has no closing `---` line", 1);
}

const one = (v: Value): string => {
  if (Array.isArray(v)) throw new Bad("expected one value, found a list");
  return v;
};
const list = (v: Value): string[] => (Array.isArray(v) ? v : commaList(v));

function apply(card: RoleCard, key: string, value: Value): void {
  switch (key) {
    case "name":
      card.name = one(value);
      break;
    case "name_zh":
      card.nameZh = one(value) || null;
      break;
    case "description":
      card.description = one(value);
      break;
    case "tools":
      card.tools = list(value);
      break;
    case "skills":
      card.skills = list(value);
      break;
    case "skills_zh":
      card.skillsZh = list(value);
      break;
    case "model":
      card.model = one(value) || null;
      break;
    case "language":
      card.language = one(value) || null;
      break;
    case "temperature": {
      const v = one(value);
      const t = Number(v);
      if (v.trim() === "" || !Number.isFinite(t)) throw new Bad(`${JSON.stringify(v)} is not a number`);
      if (t < 0 || t > 2) throw new Bad(`${t} is outside 0 to 2`);
      card.temperature = t;
      break;
    }
    case "max_retries": {
      const v = one(value);
      if (!/^\d+$/.test(v)) throw new Bad(`${JSON.stringify(v)} is not a whole number`);
      if (Number(v) > MAX_RETRIES_LIMIT) throw new Bad(`${v} is more than ${MAX_RETRIES_LIMIT}`);
      card.maxRetries = Number(v);
      break;
    }
    case "archetype": {
      const v = one(value);
      if (!isArchetype(v)) throw new Bad(`${JSON.stringify(v)} is not an archetype`);
      card.archetype = v;
      break;
    }
    default:
      card.otherKeys.push(key);
  }
}

/** Parses one card, or says where and why it cannot (`file` only names it). */
export function parseCard(file: string, text: string): RoleCard | CardError {
  const err = (line: number, key: string | null, reason: string): CardError => ({ file, line, key, reason });
  if (new TextEncoder().encode(text).length > MAX_CARD_BYTES) return err(0, null, `larger than ${MAX_CARD_BYTES / 1024} KB`);
  let header: ReturnType<typeof splitHeader>;
  try {
    header = splitHeader(text);
  } catch (e) {
    if (!(e instanceof Bad)) throw e;
    return err(e.line, null, e.reason);
  }
  const card: RoleCard = {
    name: "",
    nameZh: null,
    description: "",
    tools: [],
    model: null,
    temperature: null,
    maxRetries: null,
    language: null,
    archetype: null,
    skills: [],
    skillsZh: [],
    otherKeys: [],
    persona: header.body.trim(),
  };
  const seen = new Set<string>();
  for (const [line, key, value] of header.entries) {
    if (seen.has(key)) return err(line, key, "appears twice");
    seen.add(key);
    try {
      apply(card, key, value);
    } catch (e) {
      if (!(e instanceof Bad)) throw e;
      return err(line, key, e.reason);
    }
  }
  if (card.name.trim() === "") return err(1, "name", "missing: every card needs a name");
  if (card.description.trim() === "") return err(1, "description", "missing: the description is how the right role is picked for a task");
  return card;
}

const isCardError = (c: RoleCard | CardError): c is CardError => "reason" in c;

/** `team/critic.md:4 (temperature): "warm" is not a number`, as CardError's Display. */
const cardErrorText = (e: CardError) => `${e.file}${e.line > 0 ? `:${e.line}` : ""}${e.key !== null ? ` (${e.key})` : ""}: ${e.reason}`;

const unknownTools = (card: RoleCard) => card.tools.filter((t) => !TOOL_CATALOGUE.some((c) => c.name === t));

// ---- The library ----

/** The cards the fake ships (a few of crates/core/roles/*.md), under the hiring templates' keys. */
export function shippedCards(): FakeRoleCard[] {
  const card = (key: string, lines: string[]): FakeRoleCard => ({ key, builtin: true, text: ["---", ...lines, "---", ""].join("\n") });
  return [
    card("frontend_engineer", [
      "name: Frontend engineer",
      "name_zh: 前端工程师",
      "description: Builds the user interface and cares about how it feels.",
      "archetype: ultra_grinder",
      "skills: [react]",
      "skills_zh: [React]",
      "tools: [read_memory, read_file, write_file]",
    ]),
    card("designer", [
      "name: Product designer",
      "name_zh: 产品设计师",
      "description: Designs flows and screens people understand without a manual.",
      "archetype: idealist",
      "skills: [figma]",
      "skills_zh: [Figma]",
      "tools: [read_memory, read_file, write_file]",
    ]),
    card("qa", [
      "name: QA engineer",
      "name_zh: 测试工程师",
      "description: Finds what breaks before users do.",
      "archetype: anxious_perfectionist",
      "skills: [testing]",
      "skills_zh: [测试]",
      "tools: [read_memory, read_file, write_file]",
      "temperature: 0.2",
    ]),
  ];
}

const SHIPPED_KEYS = new Set(shippedCards().map((c) => c.key));

function dto(c: FakeRoleCard): RoleCardDto {
  const card = parseCard(`${c.key}.md`, c.text);
  // Only parsed cards are ever stored.
  if (isCardError(card)) return fail("internal", cardErrorText(card));
  return { key: c.key, builtin: c.builtin, shipped: SHIPPED_KEYS.has(c.key), text: c.text, card, unknownTools: unknownTools(card) };
}

/** As the role_template columns `fill` sets: the hiring templates are the cards. */
function syncTemplates(host: RolesHost): void {
  host.templates = host.roleCards.map((c) => {
    const card = dto(c).card;
    return { key: c.key, title: card.name, titleZh: card.nameZh ?? card.name, archetype: card.archetype ?? "warm_hearted", skills: card.skills };
  });
}

const validKey = (key: string) => key !== "" && !key.includes("\\") && key.split("/").every((p) => p !== "" && p !== "." && p !== ".." && !p.includes(":"));

function save(host: RolesHost, input: SaveRoleCard): RoleCardDto {
  const key = input.key.trim().replace(/\.md$/, "");
  if (!validKey(key)) fail("invalid_input", `${JSON.stringify(key)} is not a card key (words and folders, like marketing/growth-hacker)`);
  const card = parseCard(`${key}.md`, input.text);
  if (isCardError(card)) return fail("invalid_input", cardErrorText(card));
  const row = host.roleCards.find((c) => c.key === key);
  // A built-in card saved here becomes the boss's.
  if (row) Object.assign(row, { text: input.text, builtin: false });
  else host.roleCards.push({ key, text: input.text, builtin: false });
  syncTemplates(host);
  return dto(host.roleCards.find((c) => c.key === key) ?? fail("internal", key));
}

function duplicate(host: RolesHost, key: string, newKey: string): RoleCardDto {
  const row = host.roleCards.find((c) => c.key === key) ?? fail("not_found", key);
  if (host.roleCards.some((c) => c.key === newKey)) fail("invalid_input", `a card ${JSON.stringify(newKey)} exists already`);
  return save(host, { key: newKey, text: row.text });
}

function remove(host: RolesHost, key: string): null {
  const row = host.roleCards.find((c) => c.key === key) ?? fail("not_found", key);
  if (row.builtin) fail("invalid_input", `${key} is a built-in card: edit it instead`);
  host.roleCards = host.roleCards.filter((c) => c.key !== key);
  // As `seed` after a delete: an edited shipped card goes back to the shipped text.
  const shipped = shippedCards().find((c) => c.key === key);
  if (shipped) host.roleCards.push(shipped);
  syncTemplates(host);
  return null;
}

function exportCards(host: RolesHost): RoleExport {
  const stamp = new Date(host.now()).toISOString().slice(0, 19).replace("T", "-").replace(/:/g, "");
  const dir = `${FAKE_DOWNLOADS}/cubicle-roles-${stamp}`;
  if (host.exportedRoles.some((e) => e.dir === dir)) fail("invalid_input", `${dir} is not empty: export into a new folder`);
  const files = host.roleCards.map((c) => ({ path: `${dir}/${c.key}.md`, text: c.text }));
  host.exportedRoles.push({ dir, files });
  return { dir, files: files.map((f) => f.path) };
}

// ---- Rosters (roster.rs) ----

type Found = { parts: string[]; bytes: Uint8Array };

function base64Bytes(name: string, base64: string): Uint8Array {
  try {
    return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  } catch {
    return fail("invalid_input", `${name}: not base64`);
  }
}

const partsOf = (path: string) => path.replace(/\\/g, "/").split("/").filter((p) => p !== "" && p !== ".");
const isCardFile = (name: string) => name.toLowerCase().endsWith(".md");

/** Bytes through a browser DecompressionStream (gzip, or a zip entry's raw deflate). */
async function inflate(bytes: Uint8Array, format: "gzip" | "deflate-raw"): Promise<Uint8Array> {
  const body = new Response(bytes as BodyInit).body ?? fail("internal", "no body");
  return new Uint8Array(await new Response(body.pipeThrough(new DecompressionStream(format))).arrayBuffer());
}

function tarEntries(bytes: Uint8Array): Found[] {
  const out: Found[] = [];
  const text = (from: number, len: number) => new TextDecoder().decode(bytes.subarray(from, from + len)).replace(/\0.*$/s, "");
  for (let at = 0; at + 512 <= bytes.length; ) {
    const name = text(at, 100);
    if (name === "") break;
    const size = parseInt(text(at + 124, 12).trim() || "0", 8);
    const type = text(at + 156, 1);
    const prefix = text(at + 345, 155);
    if ((type === "0" || type === "") && isCardFile(name)) {
      out.push({ parts: partsOf(prefix ? `${prefix}/${name}` : name), bytes: bytes.slice(at + 512, at + 512 + size) });
    }
    at += 512 + Math.ceil(size / 512) * 512;
  }
  return out;
}

async function zipEntries(name: string, bytes: Uint8Array): Promise<Found[]> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) return fail("invalid_input", `${name}: invalid Zip archive: could not find central directory end`);
  const out: Found[] = [];
  let at = view.getUint32(end + 16, true);
  for (let i = view.getUint16(end + 10, true); i > 0; i--) {
    const method = view.getUint16(at + 10, true);
    const compressed = view.getUint32(at + 20, true);
    const nameLen = view.getUint16(at + 28, true);
    const skip = nameLen + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const entry = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLen));
    const local = view.getUint32(at + 42, true);
    at += 46 + skip;
    if (!isCardFile(entry)) continue;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const data = bytes.subarray(start, start + compressed);
    if (method !== 0 && method !== 8) fail("invalid_input", `${name}: ${entry}: unsupported compression method ${method}`);
    out.push({ parts: partsOf(entry), bytes: method === 0 ? data.slice() : await inflate(data, "deflate-raw") });
  }
  return out;
}

/** An archive of a roster folder holds the folder itself: the keys start below it. */
function stripCommonFolder(files: Found[]): Found[] {
  const top = files[0]?.parts[0];
  if (top === undefined || !files.every((f) => f.parts.length > 1 && f.parts[0] === top)) return files;
  return files.map((f) => ({ ...f, parts: f.parts.slice(1) }));
}

const keyed = (files: Found[]) =>
  stripCommonFolder(files)
    .filter((f) => !f.parts.some((p) => p.startsWith(".")))
    .map((f) => ({ key: f.parts.join("/").slice(0, -".md".length), bytes: f.bytes }));

async function readUpload(upload: RosterUpload): Promise<Array<{ key: string; bytes: Uint8Array }>> {
  const out: Array<{ key: string; bytes: Uint8Array }> = [];
  const loose: Found[] = [];
  for (const file of upload.files) {
    const bytes = base64Bytes(file.name, file.base64);
    const magic = (at: number, ...b: number[]) => b.every((x, i) => bytes[at + i] === x);
    if (magic(0, 0x50, 0x4b, 0x03, 0x04)) out.push(...keyed(await zipEntries(file.name, bytes)));
    else if (magic(0, 0x1f, 0x8b)) out.push(...keyed(tarEntries(await inflate(bytes, "gzip"))));
    else if (magic(257, 0x75, 0x73, 0x74, 0x61, 0x72)) out.push(...keyed(tarEntries(bytes)));
    else if (isCardFile(file.name)) loose.push({ parts: partsOf(file.name), bytes });
    else fail("invalid_input", `${file.name} is neither a card (.md) nor an archive (.zip, .tar, .tar.gz)`);
  }
  out.push(...keyed(loose));
  if (out.length > MAX_ROSTER_FILES) fail("invalid_input", `more than ${MAX_ROSTER_FILES} card files: not a roster`);
  out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const twice = out.find((e, i) => out[i + 1]?.key === e.key);
  if (twice) fail("invalid_input", `two files are the card ${twice.key}.md: pick one of them`);
  return out;
}

/** What importing the roster does (or, `dryRun`, would do), as `import_entries`. */
async function importRoster(host: RolesHost, upload: RosterUpload, dryRun: boolean): Promise<RoleImport> {
  const entries = await readUpload(upload);
  const report: RoleImport = { new: [], changed: [], unchanged: [], unreadable: [], skipped: [], unknownTools: [], applied: false };
  const writes: FakeRoleCard[] = [];
  for (const { key, bytes } of entries) {
    const file = `${key}.md`;
    let text: string;
    try {
      text = new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    } catch {
      report.unreadable.push({ file, line: 0, key: null, reason: "not UTF-8 text" });
      continue;
    }
    if (!text.replace(/^\uFEFF/, "").startsWith("---")) {
      report.skipped.push(file);
      continue;
    }
    const card = parseCard(file, text);
    if (isCardError(card)) {
      report.unreadable.push(card);
      continue;
    }
    const unknown = unknownTools(card);
    if (unknown.length > 0) report.unknownTools.push({ key, tools: unknown });
    const have = host.roleCards.find((c) => c.key === key);
    if (have?.text === text) report.unchanged.push(key);
    else {
      (have ? report.changed : report.new).push(key);
      writes.push({ key, text, builtin: false });
    }
  }
  if (dryRun) return report;
  for (const w of writes) {
    const row = host.roleCards.find((c) => c.key === w.key);
    if (row) Object.assign(row, w);
    else host.roleCards.push(w);
  }
  syncTemplates(host);
  return { ...report, applied: true };
}

/** The role-card commands. */
export function rolesCommands(host: RolesHost) {
  return {
    // Built-in first, then the boss's, in the order they came.
    list_role_cards: () => [...host.roleCards.filter((c) => c.builtin), ...host.roleCards.filter((c) => !c.builtin)].map(dto),
    save_role_card: ({ input }) => save(host, input),
    duplicate_role_card: ({ input }) => duplicate(host, input.key, input.newKey),
    delete_role_card: ({ input }) => remove(host, input.key),
    preview_roster: ({ input }) => importRoster(host, input, true),
    import_roster: ({ input }) => importRoster(host, input, false),
    export_role_cards: () => exportCards(host),
  } satisfies CommandPart;
}
