// The tools' catalogue as the in-memory Cubicle knows it (see fakeBackend.ts): each tool's risk
// and description as its `Tool` impl in crates/core/src/tools declares them, keyed by the
// generated ToolName, so a tool the Rust side adds fails to compile here until it is described.
import type { ToolName } from "../../bindings/ToolName";
import type { ToolSpec } from "../../bindings/ToolSpec";
import { TOOL_NAMES } from "../../bindings/toolTable";

const tool = (name: string, risk: ToolSpec["risk"], description: string): ToolSpec => ({ name, risk, description, argsSchema: {} });

/** What the sandbox allows, as both process tools describe it (tools/shell.rs `box_rules!`). */
const BOX_RULES = "It runs in a sandbox: it can write only in that folder; the rest of the file system is read-only, and home folders, /tmp, /run and the app's data are hidden (HOME is an empty temporary folder); no network unless the boss allowed it for this employee; no access to the keychain, D-Bus or other processes; limits on CPU time, memory, processes and output; everything it started is killed when it ends.";
const SHELL_DESCRIPTION = `Run a shell command (sh -c) in the company workspace folder, time-limited. ${BOX_RULES}`;
const CLI_DESCRIPTION = `Run this employee's configured command-line program in its own folder, with the input on stdin. ${BOX_RULES}`;

/** The key steps every employee has, whatever their whitelist (tools/key_steps.rs BUILT_IN). */
type KeyStep = "change_team_memory" | "commit_to_date";

/** Each grantable tool's risk and description, as its `Tool` impl declares them: a tool the
 * Rust side adds to `ToolName` fails to compile here until it is described. */
const GRANTABLE: Record<Exclude<ToolName, KeyStep>, [ToolSpec["risk"], string]> = {
  read_memory: ["read_only", "Search the memories you may see (your own, your team's, the company's)."],
  read_file: ["read_only", "Read a text file from the company workspace."],
  write_file: ["write", "Create or replace a text file in the company workspace (logged)."],
  delete_file: ["high", "Delete one file (not a folder) from the company workspace."],
  run_shell: ["high", SHELL_DESCRIPTION],
  run_cli: ["high", CLI_DESCRIPTION],
  post_webhook: ["high", "Post a text message to a Slack, Feishu or DingTalk webhook outside the company."],
  raise_budget: ["high", "Ask to raise the company's daily model budget by an amount."],
  hire: ["high", "Ask the boss to hire someone."],
  fire: ["high", "Ask the boss to let a colleague go."],
};
const KEY_STEP_RISK: Record<KeyStep, ToolSpec["risk"]> = { change_team_memory: "high", commit_to_date: "high" };

/** Every tool's risk, as the registry declares it (tools.rs). */
export const TOOL_RISK: Record<ToolName, ToolSpec["risk"]> = {
  ...KEY_STEP_RISK,
  ...(Object.fromEntries(Object.entries(GRANTABLE).map(([name, [risk]]) => [name, risk])) as Record<Exclude<ToolName, KeyStep>, ToolSpec["risk"]>),
};

/** The catalogue as tools::grantable() lists it: the same names, order, risks and descriptions. */
export const TOOL_CATALOGUE: ToolSpec[] = TOOL_NAMES.flatMap((name) => {
  if (name in KEY_STEP_RISK) return [];
  const [risk, description] = GRANTABLE[name as Exclude<ToolName, KeyStep>];
  return [tool(name, risk, description)];
});

