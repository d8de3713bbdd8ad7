import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { Fake } from "../test/fake";
import { ChatSeed } from "../test/fakeChatSeed";
import { CREATED, builtinProvider, company, department, employee, fixedOrg, provider, seedId, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/**
 * Chart nodes are clicked with a bare click event: user-event's mousedown has no \`view\` under
 * vitest's jsdom, and xyflow's d3-drag/d3-zoom handlers need one. Selection is on click anyway.
 */
const clickNode = (element: HTMLElement) => fireEvent.click(element);

/**
 * The org as the backend holds it, and commands that store what the UI sent (the backend's checks are
 * core's and tested in Rust; a refusal is scripted where a test needs one). Each refetch of get_org
 * then shows the change, as after the real command.
 */
function orgServer(org: OrgSnapshot = fixedOrg()) {
  const chats = new ChatSeed(org);
  const dept = (id: number) => org.departments.find((d) => d.id === id)!;
  const person = (id: number) => org.employees.find((e) => e.id === id)!;
  const backend = new Fake(world(org), chats.handlers(), {
    createDepartment: ({ name, parentId, mission }) => {
      const d = department(seedId(), name, parentId, { mission: mission ?? "" });
      org.departments.push(d);
      return d;
    },
    renameDepartment: ({ id, name }) => Object.assign(dept(id), { name }),
    deleteDepartment: ({ id, reassignTo }) => {
      for (const e of org.employees) if (e.departmentId === id) e.departmentId = reassignTo;
      for (const d of org.departments) if (d.parentId === id) d.parentId = reassignTo;
      org.departments = org.departments.filter((d) => d.id !== id);
      return null;
    },
    setDepartmentLead: ({ departmentId, employeeId }) => Object.assign(dept(departmentId), { leadId: employeeId }),
    hireEmployee: ({ name, title, departmentId, managerId, archetype }) => {
      const e = employee(seedId(), name, departmentId, { title, managerId, archetype: archetype ?? "old_hand" });
      org.employees.push(e);
      return e;
    },
    moveEmployee: ({ employeeId, departmentId }) => Object.assign(person(employeeId), { departmentId }),
    setManager: ({ employeeId, managerId }) => Object.assign(person(employeeId), { managerId }),
    fireEmployee: ({ employeeId }) => {
      const e = person(employeeId);
      org.employees = org.employees.filter((x) => x.id !== employeeId);
      return { ...e, status: "fired" as const, firedAt: CREATED };
    },
    setEmployeeBackend: ({ employeeId, provider, model }) =>
      Object.assign(person(employeeId), { backend: { provider: provider ?? "", model: provider ? (model ?? "") : "" } }),
    updateCompany: ({ language }) => Object.assign(org.company!, language === null ? {} : { language }),
    openBossChat: ({ employeeId }) => chats.add("boss", person(employeeId).name, [employeeId]),
  });
  return { backend, org, chats, person };
}

const withCompany = () => {
  const server = orgServer();
  server.backend.install();
  return server;
};

/** The fixed company plus two enabled providers and a disabled one (besides the built-in model). */
const withProviders = () => {
  const server = orgServer();
  server.backend.answer("listProviders", [
    builtinProvider(),
    provider("openai", { models: ["gpt-4.1-mini", "gpt-4.1"] }),
    provider("deepseek"),
    provider("ollama", { enabled: false }),
  ]);
  server.backend.install();
  return server;
};

describe("org chart page", () => {
  // The app opens on the secretary; the org chart lives at #org.
  beforeEach(() => window.history.replaceState(null, "", "#org"));

  it("renders departments and people from get_org", async () => {
    withCompany();
    renderApp();
    expect(await screen.findByTestId("org-chart")).toBeInTheDocument();
    for (const id of [1, 2, 3]) expect(screen.getByTestId(`department-node-${id}`)).toBeInTheDocument();
    expect(screen.getByTestId("department-node-1")).toHaveTextContent("Engineering");
    expect(screen.getByTestId("department-node-2")).toHaveTextContent("Frontend");
    expect(screen.getByTestId("department-node-unassigned")).toHaveTextContent("Unassigned");
    for (const e of fixedOrg().employees) expect(screen.getByTestId(`employee-card-${e.id}`)).toHaveTextContent(e.name);
    expect(screen.getByTestId("employee-card-13")).toHaveTextContent("Platform engineer");
    expect(screen.getByTestId("employee-card-13")).toHaveTextContent("Rebel slacker");
    expect(screen.getByTestId("org-summary")).toHaveTextContent("3 departments · 8 people");
    expect(screen.getByTestId("company-name")).toHaveTextContent("Northwind Labs");
  });

  it("shows an empty state with a call to action when there are no departments", async () => {
    orgServer({ company: company(), departments: [], teams: [], employees: [] }).backend.install();
    const { user } = renderApp();
    expect(await screen.findByTestId("org-empty")).toHaveTextContent("No departments yet");
    await user.click(screen.getByTestId("empty-new-department-button"));
    expect(screen.getByRole("dialog", { name: "New department" })).toBeInTheDocument();
  });

  it("creates a department and shows it once the org query refreshes", async () => {
    const { backend, org } = orgServer({ company: company(), departments: [], teams: [], employees: [] });
    backend.install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("new-department-button"));

    await user.click(screen.getByTestId("department-submit"));
    expect(screen.getByText("Enter a department name.")).toBeInTheDocument();
    expect(backend.callsOf("createDepartment")).toHaveLength(0);

    await user.type(screen.getByTestId("department-name-input"), "Engineering");
    await user.type(screen.getByLabelText(/Mission/), "Ship it");
    await user.click(screen.getByTestId("department-submit"));

    await waitFor(() => expect(backend.callsOf("createDepartment")).toHaveLength(1));
    expect(backend.inputsOf("createDepartment")[0]).toEqual({ name: "Engineering", parentId: null, mission: "Ship it" });
    const id = org.departments[0]!.id;
    expect(await screen.findByTestId(`department-node-${id}`)).toHaveTextContent("Engineering");
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.queryByTestId("org-empty")).not.toBeInTheDocument();
  });

  it("creates a sub-department from the department panel with its parent preselected", async () => {
    const { backend } = withCompany();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("department-node-3"));
    await user.click(within(screen.getByTestId("department-panel")).getByTestId("department-add-sub"));
    expect(screen.getByTestId("department-parent-select")).toHaveValue("3");
    await user.type(screen.getByTestId("department-name-input"), "Brand");
    await user.click(screen.getByTestId("department-submit"));
    await waitFor(() => expect(backend.inputsOf("createDepartment")).toEqual([{ name: "Brand", parentId: 3, mission: null }]));
  });

  it("shows duplicate_name from the backend inside the dialog, translated", async () => {
    const { backend } = withCompany();
    backend.failNext("createDepartment", "duplicate_name", "Marketing");
    const { user } = renderApp();
    await user.click(await screen.findByTestId("new-department-button"));
    await user.type(screen.getByTestId("department-name-input"), "Marketing");
    await user.click(screen.getByTestId("department-submit"));
    expect(await screen.findByText("That name is already taken. Choose another one.")).toBeInTheDocument();
    expect(screen.getByRole("dialog")).toBeInTheDocument();
    expect(backend.inputsOf("createDepartment")).toEqual([{ name: "Marketing", parentId: null, mission: null }]);
  });

  it("requires a destination before deleting a non-empty department", async () => {
    const { backend, org } = withCompany();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("department-node-1"));
    const panel = screen.getByTestId("department-panel");
    expect(within(panel).getByTestId("department-panel-name")).toHaveTextContent("Engineering");
    await user.click(within(panel).getByTestId("department-delete-button"));

    const dialog = screen.getByRole("dialog", { name: "Delete “Engineering”?" });
    expect(dialog).toHaveTextContent("3 people and 1 sub-department");
    await user.click(within(dialog).getByTestId("delete-department-confirm"));
    expect(
      within(dialog).getByText("This department still has people or sub-departments. Choose where they should go first."),
    ).toBeInTheDocument();
    expect(backend.callsOf("deleteDepartment")).toHaveLength(0);

    // Its own sub-department cannot take over: that would be a cycle.
    const target = within(dialog).getByTestId("delete-department-target");
    const options = within(target).getAllByRole("option").map((o) => o.textContent?.trim());
    expect(options).not.toContain("Frontend");
    expect(options).toContain("Marketing");

    await user.selectOptions(target, "3");
    await user.click(within(dialog).getByTestId("delete-department-confirm"));
    await waitFor(() => expect(backend.inputsOf("deleteDepartment")).toEqual([{ id: 1, reassignTo: 3 }]));
    await waitFor(() => expect(screen.queryByTestId("department-node-1")).not.toBeInTheDocument());
    // Marketing took over Engineering's three people (and its Frontend sub-department).
    await waitFor(() => expect(screen.getByTestId("department-node-3")).toHaveTextContent("5 people"));
    expect(org.departments.find((d) => d.id === 2)?.parentId).toBe(3);
    expect(screen.getByTestId("employee-card-11")).toBeInTheDocument();
    expect(screen.queryByTestId("department-panel")).not.toBeInTheDocument();
  });

  it("deletes an empty department without asking where people go", async () => {
    const { backend } = orgServer({ ...fixedOrg(), departments: [...fixedOrg().departments, { ...fixedOrg().departments[2]!, id: 4, name: "Legal" }] });
    backend.install();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("department-node-4"));
    await user.click(screen.getByTestId("department-delete-button"));
    expect(screen.queryByTestId("delete-department-target")).not.toBeInTheDocument();
    await user.click(screen.getByTestId("delete-department-confirm"));
    await waitFor(() => expect(backend.inputsOf("deleteDepartment")).toEqual([{ id: 4, reassignTo: null }]));
    await waitFor(() => expect(screen.queryByTestId("department-node-4")).not.toBeInTheDocument());
  });

  it("renames a department", async () => {
    const { backend } = withCompany();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("department-node-3"));
    await user.click(screen.getByTestId("department-rename-button"));
    const input = screen.getByTestId("department-rename-input");
    await user.clear(input);
    await user.type(input, "Growth");
    await user.click(screen.getByTestId("department-rename-submit"));
    await waitFor(() => expect(backend.inputsOf("renameDepartment")).toEqual([{ id: 3, name: "Growth" }]));
    await waitFor(() => expect(screen.getByTestId("department-node-3")).toHaveTextContent("Growth"));
  });

  it("adds an employee with title suggestions from the role templates", async () => {
    const { backend, org } = withCompany();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("add-employee-button"));
    const dialog = screen.getByRole("dialog", { name: "Add employee" });
    await waitFor(() =>
      expect(within(dialog).getByTestId("employee-title-suggestions").querySelectorAll("option")).toHaveLength(3),
    );

    await user.click(within(dialog).getByTestId("employee-submit"));
    expect(within(dialog).getByText("Enter a name.")).toBeInTheDocument();
    expect(within(dialog).getByText("Enter a title.")).toBeInTheDocument();

    await user.type(within(dialog).getByTestId("employee-name-input"), "Katherine Johnson");
    await user.type(within(dialog).getByTestId("employee-title-input"), "QA engineer");
    expect(within(dialog).getByTestId("employee-archetype-select")).toHaveValue("anxious_perfectionist");
    await user.selectOptions(within(dialog).getByTestId("employee-department-select"), "2");
    await user.selectOptions(within(dialog).getByTestId("employee-manager-select"), "21");
    await user.click(within(dialog).getByTestId("employee-submit"));

    await waitFor(() => expect(backend.callsOf("hireEmployee")).toHaveLength(1));
    expect(backend.inputsOf("hireEmployee")[0]).toEqual({
      name: "Katherine Johnson",
      title: "QA engineer",
      departmentId: 2,
      managerId: 21,
      archetype: "anxious_perfectionist",
    });
    const id = org.employees.at(-1)!.id;
    expect(await screen.findByTestId(`employee-card-${id}`)).toHaveTextContent("Katherine Johnson");
    expect(screen.getByTestId("employee-panel")).toHaveTextContent("Frontend");
  });

  it("shows the selected person's details and moves them from the side panel", async () => {
    const { backend } = withCompany();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("employee-card-12"));
    const panel = screen.getByTestId("employee-panel");
    expect(panel).toHaveTextContent("Alan Turing");
    expect(panel).toHaveTextContent("Backend engineer");
    expect(within(panel).getByTestId("employee-panel-department")).toHaveTextContent("Engineering");
    expect(within(panel).getByTestId("employee-panel-manager")).toHaveTextContent("Grace Hopper");
    expect(panel).toHaveTextContent("Philosopher");
    expect(within(panel).getByTestId("employee-backend")).toHaveTextContent("builtin / SmolLM2-135M-Instruct");

    await user.click(within(panel).getByTestId("employee-move-button"));
    await user.selectOptions(screen.getByTestId("move-employee-select"), "3");
    await user.click(screen.getByTestId("move-employee-submit"));
    await waitFor(() => expect(backend.inputsOf("moveEmployee")).toEqual([{ employeeId: 12, departmentId: 3 }]));
    await waitFor(() => expect(screen.getByTestId("department-node-3")).toHaveTextContent("3 people"));
    expect(screen.getByTestId("department-node-1")).toHaveTextContent("2 people");
    expect(within(screen.getByTestId("employee-panel")).getByTestId("employee-panel-department")).toHaveTextContent("Marketing");
  });

  it("links the selected person's profile from the side panel", async () => {
    withCompany();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("employee-card-12"));
    const link = within(screen.getByTestId("employee-panel")).getByTestId("employee-profile-link");
    expect(link).toHaveAttribute("href", "#employee/12");
    expect(link).toHaveTextContent("Open profile");
    await user.click(link);
    await waitFor(() => expect(window.location.hash).toBe("#employee/12"));
    expect(await screen.findByTestId("profile-name")).toHaveTextContent("Alan Turing");
  });

  it("messages the selected person from the side panel: the boss's 1:1 chat opens", async () => {
    const { backend, chats } = withCompany();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("employee-card-22"));
    await user.click(within(screen.getByTestId("employee-panel")).getByTestId("employee-message-button"));
    await waitFor(() => expect(backend.inputsOf("openBossChat")).toEqual([{ employeeId: 22 }]));
    const chat = chats.chats.find((c) => c.kind === "boss")!;
    await waitFor(() => expect(window.location.hash).toBe(`#chats/${chat.id}`));
    expect(await screen.findByTestId("chat-title")).toHaveTextContent("张伟");
  });

  it("shows a new hire on the company's default model", async () => {
    const { backend } = withCompany();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("add-employee-button"));
    await user.type(screen.getByTestId("employee-name-input"), "Katherine Johnson");
    await user.type(screen.getByTestId("employee-title-input"), "Mathematician");
    await user.click(screen.getByTestId("employee-submit"));

    await waitFor(() => expect(backend.callsOf("hireEmployee")).toHaveLength(1));
    // A hire carries no model: the new person follows the company default.
    expect(backend.inputsOf("hireEmployee")).toEqual([expect.objectContaining({ name: "Katherine Johnson", title: "Mathematician" })]);
    expect(Object.keys(backend.inputsOf("hireEmployee")[0]!)).not.toContain("backend");
    const panel = await screen.findByTestId("employee-panel");
    await waitFor(() => expect(within(panel).getByTestId("employee-panel-name")).toHaveTextContent("Katherine Johnson"));
    const model = within(panel).getByTestId("employee-backend");
    expect(model).toHaveTextContent(/^Company default$/);
    expect(model).toHaveAttribute("data-company-default", "true");
    expect(panel).toHaveTextContent("Follows Settings → Default models");
  });

  it("gives someone a model of their own, with the enabled providers and their models to pick from", async () => {
    const { backend } = withProviders();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("employee-card-32"));
    expect(screen.getByTestId("employee-backend")).toHaveTextContent("Company default");
    await user.click(screen.getByTestId("employee-change-model-button"));

    const dialog = screen.getByRole("dialog", { name: "Model of Peggy Olson" });
    const select = within(dialog).getByTestId("employee-backend-provider-select");
    expect(select).toHaveValue("");
    expect(within(dialog).queryByTestId("employee-backend-model-input")).not.toBeInTheDocument();
    // The built-in model first; the disabled Ollama is not offered.
    await waitFor(() =>
      expect(within(select).getAllByRole("option").map((o) => o.textContent)).toEqual([
        "Company default",
        "Built-in (offline)",
        "OpenAI",
        "DeepSeek",
      ]),
    );

    await user.selectOptions(select, "openai");
    const input = within(dialog).getByTestId("employee-backend-model-input");
    expect(input).toHaveValue("gpt-4.1-mini");
    const suggestions = within(dialog).getByTestId("employee-backend-model-suggestions");
    expect([...suggestions.querySelectorAll("option")].map((o) => o.getAttribute("value"))).toEqual(["gpt-4.1-mini", "gpt-4.1"]);
    await user.clear(input);
    await user.type(input, "gpt-4.1");
    await user.click(within(dialog).getByTestId("employee-backend-submit"));

    await waitFor(() =>
      expect(backend.inputsOf("setEmployeeBackend")).toEqual([{ employeeId: 32, provider: "openai", model: "gpt-4.1" }]),
    );
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId("employee-backend")).toHaveTextContent(/^openai \/ gpt-4\.1$/));
    expect(screen.getByTestId("employee-backend")).toHaveAttribute("data-company-default", "false");
    expect(screen.getByTestId("employee-panel")).not.toHaveTextContent("Follows Settings");
  });

  it("sends provider: null to go back to the company default", async () => {
    const { backend, person } = withProviders();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("employee-card-12"));
    expect(screen.getByTestId("employee-backend")).toHaveTextContent("builtin / SmolLM2-135M-Instruct");
    await user.click(screen.getByTestId("employee-change-model-button"));

    const select = screen.getByTestId("employee-backend-provider-select");
    await waitFor(() => expect(within(select).getByRole("option", { name: "Built-in (offline)" })).toBeInTheDocument());
    expect(select).toHaveValue("builtin");
    expect(screen.getByTestId("employee-backend-model-input")).toHaveValue("SmolLM2-135M-Instruct");

    await user.selectOptions(select, "");
    expect(screen.queryByTestId("employee-backend-model-input")).not.toBeInTheDocument();
    expect(screen.getByTestId("employee-backend-default-explain")).toHaveTextContent("Settings → Default models");
    await user.click(screen.getByTestId("employee-backend-submit"));

    await waitFor(() =>
      expect(backend.inputsOf("setEmployeeBackend")).toEqual([{ employeeId: 12, provider: null, model: null }]),
    );
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId("employee-backend")).toHaveTextContent(/^Company default$/));
    expect(person(12).backend).toEqual({ provider: "", model: "" });
  });

  it("shows not_found when the chosen provider is gone, then accepts the provider's default model", async () => {
    const { backend } = withProviders();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("employee-card-31"));
    await user.click(screen.getByTestId("employee-change-model-button"));
    const dialog = screen.getByRole("dialog");
    const select = within(dialog).getByTestId("employee-backend-provider-select");
    await waitFor(() => expect(within(select).getByRole("option", { name: "OpenAI" })).toBeInTheDocument());
    await user.selectOptions(select, "openai");

    // Removed in Settings (elsewhere) after the dialog listed it.
    backend.failNext("setEmployeeBackend", "not_found", "provider openai");
    await user.click(within(dialog).getByTestId("employee-backend-submit"));
    expect(await within(dialog).findByText("That item no longer exists. It may have been removed.")).toBeInTheDocument();
    expect(backend.inputsOf("setEmployeeBackend")).toEqual([{ employeeId: 31, provider: "openai", model: "gpt-4.1-mini" }]);
    expect(screen.getByTestId("employee-backend")).toHaveTextContent("Company default");

    // An empty model means the provider's default model.
    await user.selectOptions(select, "deepseek");
    expect(within(dialog).queryByRole("alert")).not.toBeInTheDocument();
    await user.clear(within(dialog).getByTestId("employee-backend-model-input"));
    await user.click(within(dialog).getByTestId("employee-backend-submit"));
    await waitFor(() =>
      expect(backend.inputsOf("setEmployeeBackend")).toEqual([
        { employeeId: 31, provider: "openai", model: "gpt-4.1-mini" },
        { employeeId: 31, provider: "deepseek", model: null },
      ]),
    );
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    await waitFor(() => expect(screen.getByTestId("employee-backend")).toHaveTextContent(/^deepseek \/ default model$/));
  });

  it("makes someone the lead of their department and lets them step down", async () => {
    const { backend } = withCompany();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("employee-card-12"));
    const button = within(screen.getByTestId("employee-panel")).getByTestId("employee-lead-button");
    expect(button).toHaveTextContent("Make lead of Engineering");
    await user.click(button);
    await waitFor(() =>
      expect(backend.inputsOf("setDepartmentLead")).toEqual([{ departmentId: 1, employeeId: 12 }]),
    );
    await waitFor(() => expect(screen.getByTestId("employee-card-12")).toHaveTextContent("Lead"));
    await user.click(screen.getByTestId("employee-lead-button"));
    await waitFor(() =>
      expect(backend.inputsOf("setDepartmentLead")).toEqual([
        { departmentId: 1, employeeId: 12 },
        { departmentId: 1, employeeId: null },
      ]),
    );
    await waitFor(() => expect(screen.getByTestId("employee-lead-button")).toHaveTextContent("Make lead of Engineering"));
  });

  it("sets a manager and shows invalid_manager when refused", async () => {
    const { backend } = withCompany();
    backend.failNext("setManager", "invalid_manager", "cycle");
    const { user } = renderApp();
    clickNode(await screen.findByTestId("employee-card-11"));
    await user.click(screen.getByTestId("employee-set-manager-button"));
    const select = screen.getByTestId("set-manager-select");
    expect(within(select).queryByText(/Grace Hopper/)).not.toBeInTheDocument();
    await user.selectOptions(select, "12");
    await user.click(screen.getByTestId("set-manager-submit"));
    expect(await screen.findByText(/cannot be the manager here/)).toBeInTheDocument();
    await user.click(screen.getByTestId("set-manager-submit"));
    await waitFor(() => expect(backend.callsOf("setManager")).toHaveLength(2));
    await waitFor(() => expect(screen.queryByRole("dialog")).not.toBeInTheDocument());
    expect(screen.getByTestId("employee-panel-manager")).toHaveTextContent("Alan Turing");
  });

  it("fires someone only after confirmation", async () => {
    const { backend } = withCompany();
    const { user } = renderApp();
    clickNode(await screen.findByTestId("employee-card-32"));
    await user.click(screen.getByTestId("employee-fire-button"));
    const dialog = screen.getByRole("dialog", { name: "Fire Peggy Olson?" });
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(backend.callsOf("fireEmployee")).toHaveLength(0);
    expect(screen.getByTestId("employee-card-32")).toBeInTheDocument();

    await user.click(screen.getByTestId("employee-fire-button"));
    await user.click(screen.getByTestId("fire-employee-confirm"));
    await waitFor(() => expect(backend.inputsOf("fireEmployee")).toEqual([{ employeeId: 32 }]));
    await waitFor(() => expect(screen.queryByTestId("employee-card-32")).not.toBeInTheDocument());
    expect(screen.queryByTestId("employee-panel")).not.toBeInTheDocument();
  });

  it("refreshes when the backend reports a change on its own (domain event)", async () => {
    const { backend, org } = withCompany();
    renderApp();
    await screen.findByTestId("org-chart");
    const before = backend.callsOf("getOrg").length;
    // The secretary hired someone: the backend changes and emits, the UI never sent a command.
    org.employees.push(employee(77, "Hedy Lamarr", 3, { title: "Inventor" }));
    backend.emit({ type: "employee_hired", employeeId: 77 });
    expect(await screen.findByTestId("employee-card-77")).toHaveTextContent("Hedy Lamarr");
    expect(backend.callsOf("getOrg").length).toBeGreaterThan(before);
  });

  it("shows a translated error with a retry when get_org fails", async () => {
    const { backend } = withCompany();
    backend.failNext("getOrg", "storage", "database is locked");
    const { user } = renderApp();
    const error = await screen.findByTestId("error-state");
    expect(error).toHaveTextContent("The company data could not be read or saved.");
    expect(error).toHaveTextContent("database is locked");
    await user.click(screen.getByTestId("retry-button"));
    expect(await screen.findByTestId("org-chart")).toBeInTheDocument();
  });

  it("switches the company language from the header", async () => {
    const { backend } = withCompany();
    const { user } = renderApp();
    await screen.findByTestId("org-chart");
    await user.selectOptions(screen.getByTestId("language-switch"), "zh-CN");
    await waitFor(() =>
      expect(backend.inputsOf("updateCompany")).toEqual([{ name: null, mission: null, bossName: null, language: "zh-CN" }]),
    );
    expect(await screen.findByRole("heading", { name: "组织架构" })).toBeInTheDocument();
    expect(screen.getByTestId("employee-card-13")).toHaveTextContent("叛逆摸鱼");
    expect(screen.getByTestId("department-node-unassigned")).toHaveTextContent("未分配");
  });

  it("follows the company's stored language on start", async () => {
    orgServer({ ...fixedOrg(), company: company({ language: "zh-CN" }) }).backend.install();
    renderApp();
    expect(await screen.findByRole("heading", { name: "组织架构" })).toBeInTheDocument();
    expect(screen.getByTestId("org-summary")).toHaveTextContent("3个部门 · 8人");
  });
});
