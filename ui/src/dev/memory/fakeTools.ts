// The "tools and approvals" half of the in-memory Cubicle (see fakeBackend.ts): one employee's own
// approval policy, tool whitelist and CLI command, read and saved as one card, and whether their
// sandbox has the network, switched on its own; with the same checks,
// error codes and domain event as the Rust side (crates/core/src/approvals/employee_tools.rs): the
// whole edit is checked before any of it is written.
import type { EmployeeToolsDto } from "../../bindings/EmployeeToolsDto";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { SetEmployeeTools } from "../../bindings/SetEmployeeTools";
import type { SetNetworkAccess } from "../../ipc/api";
import { FakeApprovals } from "./fakeApprovals";
import type { CommandPart } from "./commandTable";
import { TOOL_CATALOGUE } from "./fakeToolCatalogue";

/** As on the Rust side (MAX_CLI_COMMAND_CHARS). */
const MAX_CLI_COMMAND_CHARS = 2000;
const WORKSPACE = "/home/ada/.local/share/app.cubicle.desktop/workspace";

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
