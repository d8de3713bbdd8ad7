import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "../i18n";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { Fake } from "../test/fake";
import { company, fixedOrg, people, toolsOf, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/** Alan Turing (12) may read memories and files and write files; he follows the company's key_steps. */
function alansProfile(org: OrgSnapshot = fixedOrg()) {
  const alan = org.employees.find((e) => e.id === 12)!;
  alan.toolWhitelist = ["read_memory", "read_file", "write_file"];
  window.location.hash = "#employee/12";
  // What the backend stores is what the card sent; it answers the card as stored.
  const backend = new Fake(world(org), people(org)).on("setEmployeeTools", (input) => {
    Object.assign(alan, { approvalPolicy: input.policy, toolWhitelist: input.tools, cliCommand: input.cliCommand });
    return toolsOf(alan, org.company!);
  });
  return { backend, alan, org };
}

const checkbox = (tool: string) => screen.getByTestId(`tool-${tool}`) as HTMLInputElement;

describe("tools & approvals card", () => {
  it("shows the policy (the company's, named), the tools grouped by risk with badges, and what is allowed", async () => {
    alansProfile().backend.install();
    const { user } = renderApp();
    const card = await screen.findByTestId("profile-tools");
    expect(within(card).getByRole("status")).toHaveTextContent("Loading…");
    const policy = (await screen.findByTestId("tools-policy")) as HTMLSelectElement;
    expect(policy.value).toBe("company");
    expect(policy.selectedOptions[0]).toHaveTextContent("Company default (Key steps)");
    expect(screen.getByTestId("tools-policy-hint")).toHaveTextContent("Follows the company's policy. High-risk actions wait for you");

    expect(within(screen.getByTestId("tools-group-read_only")).getByText("Read-only")).toBeInTheDocument();
    expect(within(screen.getByTestId("tools-group-write")).getByText("Writes")).toBeInTheDocument();
    const high = screen.getByTestId("tools-group-high");
    expect(within(high).getByText("High risk")).toBeInTheDocument();
    expect(within(high).getAllByRole("checkbox")).toHaveLength(7);
    expect(within(high).getByText("Post to a webhook")).toBeInTheDocument();

    expect(checkbox("read_memory").checked).toBe(true);
    expect(checkbox("write_file").checked).toBe(true);
    expect(checkbox("post_webhook").checked).toBe(false);
    expect(screen.getByTestId("tools-count")).toHaveTextContent("3 tools allowed");
    // Nothing changed yet: nothing to save, and no CLI command field without run_cli.
    expect(screen.getByTestId("tools-save")).toBeDisabled();
    expect(screen.queryByTestId("tools-cli-command")).not.toBeInTheDocument();
    expect(screen.queryByTestId("tools-auto-warning")).not.toBeInTheDocument();

    await user.selectOptions(policy, "manual");
    expect(screen.getByTestId("tools-policy-hint")).toHaveTextContent("Everything except reading waits for you.");
    expect(screen.getByTestId("tools-save")).toBeEnabled();
  });

  it("warns (without blocking) when Auto is chosen", async () => {
    const { backend } = alansProfile();
    backend.install();
    const { user } = renderApp();
    await user.selectOptions(await screen.findByTestId("tools-policy"), "auto");
    expect(screen.getByTestId("tools-auto-warning")).toHaveTextContent("High-risk actions will run without asking");
    await user.click(screen.getByTestId("tools-save"));
    await screen.findByTestId("tools-saved");
    expect(backend.inputsOf("setEmployeeTools")).toEqual([{ employeeId: 12, policy: "auto", tools: ["read_memory", "read_file", "write_file"], cliCommand: null }]);
  });

  it("saves the policy and the ticked tools in one call, shows Saved, then what is saved", async () => {
    const { backend, alan } = alansProfile();
    backend.install();
    let release = () => {};
    backend.hold("setEmployeeTools", new Promise<void>((r) => (release = r)));
    const { user } = renderApp();
    await user.selectOptions(await screen.findByTestId("tools-policy"), "manual");
    await user.click(checkbox("write_file"));
    await user.click(checkbox("post_webhook"));
    expect(screen.getByTestId("tools-count")).toHaveTextContent("3 tools allowed");
    await user.click(screen.getByTestId("tools-save"));

    // Pending: the button says so and the form is locked.
    expect(screen.getByTestId("tools-save")).toHaveTextContent("Saving…");
    expect(screen.getByTestId("tools-save")).toBeDisabled();
    expect(checkbox("read_file")).toBeDisabled();
    release();

    expect(await screen.findByTestId("tools-saved")).toHaveTextContent("Saved.");
    expect(backend.inputsOf("setEmployeeTools")).toEqual([
      { employeeId: 12, policy: "manual", tools: ["read_memory", "read_file", "post_webhook"], cliCommand: null },
    ]);
    expect(alan.approvalPolicy).toBe("manual");
    expect(alan.toolWhitelist).toEqual(["read_memory", "read_file", "post_webhook"]);
    // Saved state is what shows now: nothing left to save.
    expect(screen.getByTestId("tools-save")).toBeDisabled();
    expect((screen.getByTestId("tools-policy") as HTMLSelectElement).value).toBe("manual");
    expect(checkbox("write_file").checked).toBe(false);
  });

  it("shows the CLI command field with the working folder when run_cli is ticked, and asks for a command", async () => {
    const { backend, alan } = alansProfile();
    backend.install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("tool-run_cli"));
    const field = screen.getByTestId("tools-cli-command");
    expect(screen.getByTestId("tools-working-dir")).toHaveTextContent(/workspace\/employees\/12$/);

    await user.click(screen.getByTestId("tools-save"));
    expect(screen.getByTestId("tools-cli-error")).toHaveTextContent("Enter the command to run");
    expect(field).toHaveAttribute("aria-invalid", "true");
    expect(backend.callsOf("setEmployeeTools")).toHaveLength(0);

    await user.type(field, "  codex exec --full-auto ");
    expect(screen.queryByTestId("tools-cli-error")).not.toBeInTheDocument();
    await user.click(screen.getByTestId("tools-save"));
    await screen.findByTestId("tools-saved");
    expect(backend.inputsOf("setEmployeeTools")).toEqual([
      { employeeId: 12, policy: null, tools: ["read_memory", "read_file", "write_file", "run_cli"], cliCommand: "codex exec --full-auto" },
    ]);
    expect(alan.cliCommand).toBe("codex exec --full-auto");
  });

  it("shows a failed save with its reason and keeps the edit", async () => {
    const { backend, alan } = alansProfile();
    backend.install().failNext("setEmployeeTools", "storage", "database is locked");
    const { user } = renderApp();
    await user.selectOptions(await screen.findByTestId("tools-policy"), "manual");
    await user.click(screen.getByTestId("tools-save"));
    const error = await screen.findByTestId("tools-save-error");
    expect(error).toHaveTextContent("The company data could not be read or saved.");
    // The program's own words stay under "Technical details", as code.
    expect(within(error).getByTestId("error-detail")).toHaveTextContent("Technical details");
    expect(within(error).getByTestId("error-detail").querySelector("code")).toHaveTextContent("database is locked");
    expect(screen.queryByTestId("tools-saved")).not.toBeInTheDocument();
    expect((screen.getByTestId("tools-policy") as HTMLSelectElement).value).toBe("manual");
    expect(alan.approvalPolicy).toBeNull();

    // Discard goes back to what is saved.
    await user.click(screen.getByTestId("tools-discard"));
    expect((screen.getByTestId("tools-policy") as HTMLSelectElement).value).toBe("company");
    expect(screen.queryByTestId("tools-save-error")).not.toBeInTheDocument();
  });

  it("shows the backend's refusal when the person left while the card was open", async () => {
    const { backend, alan } = alansProfile();
    backend.install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("tool-hire"));
    // Fired elsewhere while the card was open: the backend refuses.
    backend.failNext("setEmployeeTools", "already_fired", "Alan Turing no longer works here");
    await user.click(screen.getByTestId("tools-save"));
    const error = await screen.findByTestId("tools-save-error");
    expect(error).toHaveTextContent("This person has already left the company.");
    expect(error).toHaveTextContent("Alan Turing no longer works here");
    expect(backend.inputsOf("setEmployeeTools")).toEqual([
      { employeeId: 12, policy: null, tools: ["read_memory", "read_file", "write_file", "hire"], cliCommand: null },
    ]);
    expect(alan.toolWhitelist).toEqual(["read_memory", "read_file", "write_file"]);
  });

  it("says when someone may use no tools, and shows a load failure with a retry", async () => {
    const { backend } = alansProfile();
    window.location.hash = "#employee/11";
    backend.failNext("employeeTools", "storage", "locked");
    backend.install();
    const { user } = renderApp();
    const card = await screen.findByTestId("profile-tools");
    expect(await within(card).findByRole("alert")).toHaveTextContent("The company data could not be read or saved.");
    await user.click(within(card).getByRole("button", { name: "Try again" }));
    expect(await screen.findByTestId("tools-count")).toHaveTextContent("No tools: Grace Hopper can only talk.");
  });

  it("reads in Chinese", async () => {
    const { backend } = alansProfile({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    backend.install();
    await i18n.changeLanguage("zh-CN");
    const { user } = renderApp();
    const policy = (await screen.findByTestId("tools-policy")) as HTMLSelectElement;
    expect(policy.selectedOptions[0]).toHaveTextContent("公司默认（关键步骤）");
    expect(screen.getByTestId("profile-tools")).toHaveTextContent("工具与审批");
    expect(within(screen.getByTestId("tools-group-high")).getByText("高风险")).toBeInTheDocument();
    await user.selectOptions(policy, "auto");
    expect(screen.getByTestId("tools-auto-warning")).toHaveTextContent("高风险操作将不经询问直接执行");
  });
});

describe("org chart side panel", () => {
  it("sums up someone's policy and tools and links to the card", async () => {
    const { backend, alan } = alansProfile();
    alan.approvalPolicy = "manual";
    alan.toolWhitelist = ["read_file", "write_file"];
    backend.install();
    window.location.hash = "#org";
    renderApp();
    // A bare click: xyflow's drag handlers need a mousedown `view` that jsdom lacks (see OrgChartPage.test).
    fireEvent.click(await screen.findByTestId("employee-card-12"));
    expect(screen.getByTestId("employee-tools-policy")).toHaveTextContent("Manual (own policy)");
    expect(screen.getByTestId("employee-tools-count")).toHaveTextContent("2 tools");
    expect(screen.getByTestId("employee-tools-edit")).toHaveAttribute("href", "#employee/12");

    fireEvent.click(await screen.findByTestId("employee-card-11"));
    await waitFor(() => expect(screen.getByTestId("employee-tools-policy")).toHaveTextContent("Company default: Key steps"));
    expect(screen.getByTestId("employee-tools-count")).toHaveTextContent("No tools");
  });
});
