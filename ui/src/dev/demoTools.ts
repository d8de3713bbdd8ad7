// Dev only: tools and approval policies for the fixed company of test/fixtures (fixedOrg), so each
// profile's "Tools & approvals" card (/mock.html#employee/12) and the org chart's side panel show
// something real: Alan is a CLI employee on Manual, Linus may run the shell under Auto, Don posts to
// webhooks, the rest follow the company's Key steps with their role's tools.
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { FakeBackend } from "./memory/fakeBackend";

const READ_WRITE = ["read_memory", "read_file", "write_file"];

const SETUP: Record<number, Partial<Pick<EmployeeDto, "toolWhitelist" | "approvalPolicy" | "cliCommand">>> = {
  11: { toolWhitelist: [...READ_WRITE, "hire", "fire"] },
  12: { toolWhitelist: [...READ_WRITE, "run_cli"], approvalPolicy: "manual", cliCommand: "codex exec --full-auto" },
  13: { toolWhitelist: [...READ_WRITE, "run_shell", "delete_file"], approvalPolicy: "auto" },
  21: { toolWhitelist: READ_WRITE },
  22: { toolWhitelist: READ_WRITE },
  31: { toolWhitelist: [...READ_WRITE, "post_webhook", "raise_budget"] },
  32: { toolWhitelist: [...READ_WRITE, "post_webhook"] },
  41: { toolWhitelist: ["read_memory", "read_file"] },
};

export function seedDemoTools(backend: FakeBackend): void {
  for (const e of backend.employees) Object.assign(e, SETUP[e.id] ?? {});
}
