// Pure helpers of the requirements board: statuses in order, the tones of task chips, tree walking.
// No React here.
import type { RequirementStatus } from "../bindings/RequirementStatus";
import type { TaskKind } from "../bindings/TaskKind";
import type { TaskNodeDto } from "../bindings/TaskNodeDto";
import type { TaskStatus } from "../bindings/TaskStatus";
import type { Tone } from "../components/ui";

/** The board's columns, in order. */
export const REQUIREMENT_STATUSES = ["open", "in_progress", "in_review", "waiting_for_boss", "done", "cancelled"] as const satisfies readonly RequirementStatus[];

// Compile-time check that the list above covers the generated union (each status has its translation).
const allStatuses: Exclude<RequirementStatus, (typeof REQUIREMENT_STATUSES)[number]> extends never ? true : false = true;
void allStatuses;

export function isRequirementStatus(value: string): value is RequirementStatus {
  return (REQUIREMENT_STATUSES as readonly string[]).includes(value);
}

/** TaskDto.status as the backend writes it (escalated: done, but stopped on its way and waiting for the boss). */
export const TASK_STATUSES = ["pending", "resolved", "failed", "escalated"] as const satisfies readonly TaskStatus[];
const allTaskStatuses: Exclude<TaskStatus, (typeof TASK_STATUSES)[number]> extends never ? true : false = true;
void allTaskStatuses;

export function isTaskStatus(value: string): value is TaskStatus {
  return (TASK_STATUSES as readonly string[]).includes(value);
}

/** SPEC §6 task types; only the ones that are not one-shot get a chip on the board. */
export const TASK_KINDS = ["oneshot", "long_running", "conditional"] as const satisfies readonly TaskKind[];
const allKinds: Exclude<TaskKind, (typeof TASK_KINDS)[number]> extends never ? true : false = true;
void allKinds;

export const TASK_TONE: Record<TaskStatus, Tone> = { pending: "amber", resolved: "green", failed: "rose", escalated: "rose" };

/** A column's accent: open slate, in progress indigo, in review violet, waiting for the boss rose, done green, cancelled muted. */
export const COLUMN_DOT: Record<RequirementStatus, string> = {
  open: "bg-slate-400",
  in_progress: "bg-indigo-500",
  in_review: "bg-violet-500",
  waiting_for_boss: "bg-rose-500",
  done: "bg-emerald-500",
  cancelled: "bg-slate-300",
};

/** Every task of a tree, each with its depth (0 for a root), in reading order. */
export function flattenTree(nodes: readonly TaskNodeDto[], depth = 0): Array<{ node: TaskNodeDto; depth: number }> {
  return nodes.flatMap((node) => [{ node, depth }, ...flattenTree(node.children, depth + 1)]);
}

/** How many tasks a tree holds, reworks and reviews included. */
export const countTasks = (nodes: readonly TaskNodeDto[]): number => flattenTree(nodes).length;
