// Pure helpers of the "Tools & approvals" card: grouping by risk, the edit the boss makes and what
// Save sends. No React here. The tools' names and words are generated (domain.ts, i18n `tool.*`).
import type { ApprovalPolicy } from "../bindings/ApprovalPolicy";
import type { EmployeeToolsDto } from "../bindings/EmployeeToolsDto";
import type { Risk } from "../bindings/Risk";
import type { SetEmployeeTools } from "../bindings/SetEmployeeTools";
import type { ToolName } from "../bindings/ToolName";
import type { ToolSpec } from "../bindings/ToolSpec";
import { RISKS } from "../approvals/format";

/** The tool a CLI employee's command is run by. */
export const RUN_CLI = "run_cli" satisfies ToolName;

/** The select's values: "company" follows the company's policy. */
export type PolicyChoice = ApprovalPolicy | "company";
export const POLICY_CHOICES = ["company", "auto", "key_steps", "manual"] as const satisfies readonly PolicyChoice[];

/** What the boss is editing: the card's whole state before Save. */
export interface ToolsDraft {
  policy: PolicyChoice;
  tools: string[];
  cliCommand: string;
}

export function draftOf(dto: EmployeeToolsDto): ToolsDraft {
  return { policy: dto.policy ?? "company", tools: [...dto.tools], cliCommand: dto.cliCommand ?? "" };
}

/** The policy that applies with this choice. */
export const effectivePolicy = (choice: PolicyChoice, company: ApprovalPolicy): ApprovalPolicy => (choice === "company" ? company : choice);

/** The catalogue grouped by risk, read-only first; groups without tools are left out. */
export function byRisk(catalogue: ToolSpec[]): { risk: Risk; tools: ToolSpec[] }[] {
  return RISKS.map((risk) => ({ risk, tools: catalogue.filter((t) => t.risk === risk) })).filter((g) => g.tools.length > 0);
}

/** Ticks or unticks a tool, keeping the catalogue's order. */
export function toggleTool(tools: string[], name: string, on: boolean, catalogue: ToolSpec[]): string[] {
  const next = new Set(tools);
  if (on) next.add(name);
  else next.delete(name);
  return catalogue.map((t) => t.name).filter((n) => next.has(n));
}

export function sameDraft(a: ToolsDraft, b: ToolsDraft): boolean {
  return a.policy === b.policy && a.cliCommand.trim() === b.cliCommand.trim() && a.tools.join(",") === b.tools.join(",");
}

/** `run_cli` is ticked but there is nothing for it to run. */
export const needsCommand = (d: ToolsDraft): boolean => d.tools.includes(RUN_CLI) && d.cliCommand.trim() === "";

/**
 * What Save sends. A command typed for `run_cli` is kept even when `run_cli` is unticked (ticking it again
 * brings it back); an empty field clears it.
 */
export function toInput(employeeId: number, d: ToolsDraft): SetEmployeeTools {
  const command = d.cliCommand.trim();
  return {
    employeeId,
    policy: d.policy === "company" ? null : d.policy,
    tools: d.tools,
    cliCommand: command === "" ? null : command,
  };
}
