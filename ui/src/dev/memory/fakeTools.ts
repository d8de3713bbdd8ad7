// The "tools and approvals" half of the in-memory Cubicle (see fakeBackend.ts): one employee's own
// approval policy, tool whitelist and CLI command, read and saved as one card, and whether their
// sandbox has the network, switched on its own; with the same checks,
// error codes and domain event as the Rust side (crates/core/src/approvals/employee_tools.rs): the
// whole edit is checked before any of it is written.
import type { EmployeeToolsDto } from "../../bindings/EmployeeToolsDto";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { SetEmployeeTools } from "../../bindings/SetEmployeeTools";
import type { ToolSpec } from "../../bindings/ToolSpec";
import type { SetNetworkAccess } from "../../ipc/api";
import { FakeApprovals } from "./fakeApprovals";
import type { CommandPart } from "./commandTable";

/** As on the Rust side (MAX_CLI_COMMAND_CHARS). */
const MAX_CLI_COMMAND_CHARS = 2000;
const WORKSPACE = "/home/ada/.local/share/app.cubicle.desktop/workspace";

const tool = (name: string, risk: ToolSpec["risk"], description: string): ToolSpec => ({ name, risk, description, argsSchema: {} });

/** What the sandbox allows, as both process tools describe it (tools/shell.rs `box_rules!`). */
const BOX_RULES = "It runs in a sandbox: it can write only in that folder; the rest of the file system is read-only, and home folders, /tmp, /run and the app's data are hidden (HOME is an empty temporary folder); no network unless the boss allowed it for this employee; no access to the keychain, D-Bus or other processes; limits on CPU time, memory, processes and output; everything it started is killed when it ends.";
const SHELL_DESCRIPTION = `Run a shell command (sh -c) in the company workspace folder, time-limited. ${BOX_RULES}`;
const CLI_DESCRIPTION = `Run this employee's configured command-line program in its own folder, with the input on stdin. ${BOX_RULES}`;

/** The catalogue as tools::catalogue() lists it: the same names, order, risks and descriptions. */
export const TOOL_CATALOGUE: ToolSpec[] = [
  tool("read_memory", "read_only", "Search the memories you may see (your own, your team's, the company's)."),
  tool("read_file", "read_only", "Read a text file from the company workspace."),
  tool("write_file", "write", "Create or replace a text file in the company workspace (logged)."),
  tool("delete_file", "high", "Delete one file (not a folder) from the company workspace."),
  tool("run_shell", "high", SHELL_DESCRIPTION),
  tool("run_cli", "high", CLI_DESCRIPTION),
  tool("post_webhook", "high", "Post a text message to a Slack, Feishu or DingTalk webhook outside the company."),
  tool("raise_budget", "high", "Ask to raise the company's daily model budget by an amount."),
  tool("hire", "high", "Ask the boss to hire someone."),
  tool("fire", "high", "Ask the boss to let a colleague go."),
];

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

/** Whitelist names from before the tools existed grant what they meant (tools::whitelisted). */
function currentTools(whitelist: string[]): string[] {
  const granted = (name: string) =>
    whitelist.some(
      (w) => w === name || (w === "read_company_docs" && (name === "read_file" || name === "read_memory")) || (w === "write_workspace_file" && name === "write_file"),
    );
  return TOOL_CATALOGUE.map((t) => t.name).filter(granted);
}

/** Tools and approvals on top of the approval queue; FakeBackend adds the rest. */
export abstract class FakeTools extends FakeApprovals {
  /** Employees whose sandbox has the network (employee.network_access); everyone else's has none. */
  networkAllowed = new Set<number>();

  /** An employee's tools, policy and network commands. */
  protected toolsCommands() {
    return {
      employee_tools: ({ input }) => this.employeeTools(input.employeeId),
      set_employee_tools: ({ input }) => this.setEmployeeTools(input),
      employee_network_access: ({ input }) => this.networkAllowed.has(this.employeeForNetwork(input.employeeId)),
      set_employee_network_access: ({ input }) => this.setNetworkAccess(input),
    } satisfies CommandPart;
  }

  private employeeTools(employeeId: number): EmployeeToolsDto {
    const e = this.employees.find((x) => x.id === employeeId) ?? fail("not_found", `employee ${employeeId} does not exist`);
    const company = this.company ?? fail("company_missing", "no company has been set up");
    return structuredClone({
      employeeId: e.id,
      policy: e.approvalPolicy,
      companyPolicy: company.approvalPolicy,
      tools: currentTools(e.toolWhitelist),
      cliCommand: e.cliCommand,
      workingDir: `${WORKSPACE}/employees/${e.id}`,
      catalogue: TOOL_CATALOGUE,
    });
  }

  private setEmployeeTools(input: SetEmployeeTools): EmployeeToolsDto {
    const bad = input.tools.find((name) => !TOOL_CATALOGUE.some((t) => t.name === name));
    if (bad !== undefined) {
      fail("invalid_input", `there is no tool named "${bad}"; the tools are: ${TOOL_CATALOGUE.map((t) => t.name).join(", ")}`);
    }
    let command: string | null = null;
    if (input.cliCommand !== null) {
      command = input.cliCommand.trim();
      if (command === "") fail("invalid_input", "the CLI command is empty: give a command, or none to clear it");
      if ([...command].length > MAX_CLI_COMMAND_CHARS) fail("invalid_input", `the CLI command is longer than ${MAX_CLI_COMMAND_CHARS} characters`);
    }
    const tools = currentTools(input.tools);
    if (command === null && tools.includes("run_cli")) fail("invalid_input", "run_cli is whitelisted but there is no CLI command for it to run");
    const e = this.employees.find((x) => x.id === input.employeeId) ?? fail("not_found", `employee ${input.employeeId} does not exist`);
    if (e.status === "fired" || e.firedAt !== null) fail("already_fired", `${e.name} no longer works here`);
    e.approvalPolicy = input.policy;
    e.toolWhitelist = tools;
    e.cliCommand = command;
    this.emit({ type: "employee_updated", employeeId: e.id });
    return this.employeeTools(e.id);
  }

  /** As Approvals::network_access: an unknown id is `not_found`. */
  private employeeForNetwork(employeeId: number): number {
    return (this.employees.find((x) => x.id === employeeId) ?? fail("not_found", `employee ${employeeId} does not exist`)).id;
  }

  /** As Approvals::set_network_access: written at once, with the same domain event. */
  private setNetworkAccess(input: SetNetworkAccess): null {
    if (typeof input.allowed !== "boolean") fail("invalid_input", "invalid type: expected a boolean");
    const id = this.employeeForNetwork(input.employeeId);
    if (input.allowed) this.networkAllowed.add(id);
    else this.networkAllowed.delete(id);
    this.emit({ type: "employee_updated", employeeId: id });
    return null;
  }
}
