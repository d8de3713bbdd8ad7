import type { Archetype } from "./bindings/Archetype";
import type { EmployeeStatus } from "./bindings/EmployeeStatus";
import type { Language } from "./bindings/Language";
import type { ToolName } from "./bindings/ToolName";
import { TOOL_NAMES } from "./bindings/toolTable";

export const ARCHETYPES = [
  "shy_introvert",
  "chatterbox",
  "zen_slacker",
  "ultra_grinder",
  "passive_aggressive",
  "warm_hearted",
  "anxious_perfectionist",
  "rebel_slacker",
  "philosopher",
  "comedy_relief",
  "old_hand",
  "idealist",
] as const satisfies readonly Archetype[];

export const EMPLOYEE_STATUSES = [
  "idle",
  "receiving",
  "planning",
  "acting",
  "reporting",
  "waiting_approval",
  "fired",
] as const satisfies readonly EmployeeStatus[];

export const LANGUAGES = ["en", "zh-CN"] as const satisfies readonly Language[];

// Compile-time checks that the lists above cover the generated unions.
const allArchetypes: Exclude<Archetype, (typeof ARCHETYPES)[number]> extends never ? true : false = true;
const allStatuses: Exclude<EmployeeStatus, (typeof EMPLOYEE_STATUSES)[number]> extends never ? true : false = true;
const allLanguages: Exclude<Language, (typeof LANGUAGES)[number]> extends never ? true : false = true;
void [allArchetypes, allStatuses, allLanguages];

/** The tools as crates/core names them, in the catalogue's order (generated; each has its words in both languages). */
export { TOOL_NAMES };
export type { ToolName };
export const isToolName = (name: string | null | undefined): name is ToolName => name != null && (TOOL_NAMES as readonly string[]).includes(name);

export function isLanguage(value: string): value is Language {
  return (LANGUAGES as readonly string[]).includes(value);
}
