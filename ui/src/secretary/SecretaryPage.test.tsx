import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ActionDto } from "../bindings/ActionDto";
import { FakeBackend, UNDO_WINDOW_MS } from "../test/fakeBackend";
import { company, fixedOrg } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

const withCompany = () => new FakeBackend(fixedOrg()).install();

/** The action cards of the secretary's latest reply, as the fake backend holds them. */
const lastActions = (backend: FakeBackend): ActionDto[] => backend.secretaryMessages.at(-1)?.actions ?? [];

/** Says something through the composer and waits for the secretary's reply to be shown. */
async function say(user: ReturnType<typeof renderApp>["user"], backend: FakeBackend, text: string) {
  const before = backend.secretaryMessages.length;
  await user.type(await screen.findByTestId("secretary-input"), `${text}{Enter}`);
  await waitFor(() => expect(backend.secretaryMessages.length).toBe(before + 2));
  const reply = backend.secretaryMessages.at(-1)!;
  await screen.findByTestId(`secretary-message-${reply.id}`);
  return reply;
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("secretary page", () => {
  it("is the first entry of the navigation and the page the app opens on", async () => {
    withCompany();
    renderApp();
    expect(await screen.findByTestId("secretary-page")).toBeInTheDocument();
    const links = within(screen.getByRole("navigation", { name: "Main navigation" })).getAllByRole("link");
    expect(links[0]).toHaveAttribute("data-testid", "nav-secretary");
    expect(links[0]).toHaveAttribute("href", "#secretary");
    expect(screen.getByTestId("nav-secretary")).toHaveAttribute("aria-current", "page");
    expect(screen.getByRole("heading", { name: "Secretary" })).toBeInTheDocument();
  });

  it("loads the history on mount: the boss on the right, the secretary on the left with its cards", async () => {
    const backend = new FakeBackend(fixedOrg());
    const boss = backend.addMessage("boss", "How is the company doing?");
    const reply = backend.addMessage("secretary", "8 people in 3 departments.\n· Engineering: 3");
    const proposed = backend.proposedAction({ type: "transfer", employeeId: 32, name: "Peggy Olson", departmentId: 1, departmentName: "Engineering" });
    const later = backend.addMessage("secretary", "Shall I move Peggy Olson to Engineering?", [proposed]);
    backend.install();
    renderApp();

    const bossBubble = await screen.findByTestId(`secretary-message-${boss.id}`);
    expect(backend.callsOf("secretary_history")).toHaveLength(1);
    expect(bossBubble).toHaveAttribute("data-role", "boss");
    expect(bossBubble).toHaveClass("items-end");
    expect(bossBubble).toHaveTextContent("How is the company doing?");
    const replyBubble = screen.getByTestId(`secretary-message-${reply.id}`);
    expect(replyBubble).toHaveAttribute("data-role", "secretary");
    expect(replyBubble).toHaveTextContent("8 people in 3 departments. · Engineering: 3");
    // A transfer card: who, from where to where, waiting for the boss.
    const card = within(screen.getByTestId(`secretary-message-${later.id}`)).getByTestId(`action-card-${proposed.id}`);
    expect(card).toHaveTextContent("Transfer");
    expect(card).toHaveTextContent("Peggy Olson");
    expect(card).toHaveTextContent("Marketing → Engineering");
    expect(card).toHaveTextContent("Awaiting your OK");
    expect(screen.queryByTestId("secretary-empty")).not.toBeInTheDocument();
  });

  it("shows a friendly intro whose examples fill the composer", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    const empty = await screen.findByTestId("secretary-empty");
    expect(empty).toHaveTextContent("Hello Ada Lovelace, I'm your secretary.");
    const examples = [0, 1, 2, 3].map((n) => screen.getByTestId(`secretary-example-${n}`).textContent);
    // The examples use the company's own names.
    expect(examples).toEqual([
      "Hire a frontend engineer for Engineering",
      "How is the company doing?",
      "Move Alan Turing to Frontend",
      "Create a department called Research",
    ]);
    await user.click(screen.getByTestId("secretary-example-2"));
    expect(screen.getByTestId("secretary-input")).toHaveValue("Move Alan Turing to Frontend");
    expect(screen.getByTestId("secretary-input")).toHaveFocus();
    // Filling is not sending.
    expect(backend.callsOf("secretary_say")).toHaveLength(0);
  });

  it("gives the examples in Chinese for a Chinese company", async () => {
    new FakeBackend({ ...fixedOrg(), company: company({ language: "zh-CN" }) }).install();
    const { user } = renderApp();
    expect(await screen.findByRole("heading", { name: "秘书" })).toBeInTheDocument();
    expect(await screen.findByTestId("secretary-example-0")).toHaveTextContent("帮我给Engineering招一个前端工程师");
    expect(screen.getByTestId("secretary-example-1")).toHaveTextContent("公司现在怎么样？");
    await user.click(screen.getByTestId("secretary-example-3"));
    expect(screen.getByTestId("secretary-input")).toHaveValue("新建一个叫研究部的部门");
  });

  it("sends with Enter, shows the boss's message at once, then the reply with a hire card", async () => {
    const backend = withCompany();
    let release!: () => void;
    backend.gates.set("secretary_say", new Promise<void>((r) => (release = r)));
    const { user } = renderApp();
    const input = await screen.findByTestId("secretary-input");
    expect(screen.getByTestId("secretary-send")).toBeDisabled();

    // Shift+Enter is a new line, not a send.
    await user.type(input, "Hire a frontend engineer{Shift>}{Enter}{/Shift}for Engineering");
    expect(backend.callsOf("secretary_say")).toHaveLength(0);
    expect(input).toHaveValue("Hire a frontend engineer\nfor Engineering");
    await user.clear(input);
    await user.type(input, "Hire a frontend engineer for Engineering{Enter}");

    // Optimistic: the boss's words are on screen while the secretary works; the composer waits.
    expect(await screen.findByTestId("secretary-pending")).toHaveTextContent("Hire a frontend engineer for Engineering");
    expect(screen.getByRole("status")).toHaveTextContent("Your secretary is on it…");
    expect(input).toBeDisabled();
    expect(input).toHaveValue("");
    expect(screen.getByTestId("secretary-send")).toBeDisabled();
    expect(backend.inputsOf("secretary_say")).toEqual([{ text: "Hire a frontend engineer for Engineering" }]);

    release();
    const [boss, reply] = await waitFor(() => {
      expect(backend.secretaryMessages).toHaveLength(2);
      return backend.secretaryMessages;
    });
    expect(await screen.findByTestId(`secretary-message-${boss!.id}`)).toHaveTextContent("Hire a frontend engineer for Engineering");
    expect(screen.getByTestId(`secretary-message-${reply!.id}`)).toHaveTextContent("Here is a candidate for Engineering.");
    await waitFor(() => expect(screen.queryByTestId("secretary-pending")).not.toBeInTheDocument());
    expect(input).toBeEnabled();

    const action = reply!.actions[0]!;
    const card = screen.getByTestId(`action-card-${action.id}`);
    expect(card).toHaveAttribute("data-status", "proposed");
    expect(card).toHaveAttribute("data-destructive", "false");
    for (const text of ["Hire", "Bob Chen", "Frontend engineer", "Engineering", "Grace Hopper", "Ultra grinder", "react", "Awaiting your OK"]) {
      expect(card).toHaveTextContent(text);
    }
    expect(within(card).getByText("BC")).toBeInTheDocument(); // the avatar's initials
    for (const button of ["confirm", "edit", "cancel"]) expect(screen.getByTestId(`action-${button}-${action.id}`)).toBeEnabled();
    // Proposed, not applied: nobody was hired yet.
    expect(backend.employees.some((e) => e.name === "Bob Chen")).toBe(false);
    expect(backend.callsOf("secretary_confirm")).toHaveLength(0);
  });

  it("links the cards of a turn that started an instruction to its trace", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    const reply = await say(user, backend, "Hire a frontend engineer named Bob into Engineering");
    const card = reply.actions[0]!;
    expect(reply.traceId).not.toBeNull();
    const link = await screen.findByTestId(`action-trace-${card.id}`);
    expect(link).toHaveAttribute("href", `#traces/${reply.traceId}`);
    expect(link).toHaveAccessibleName("Open trace");
    await user.click(link);
    expect(await screen.findByTestId("trace-instruction")).toHaveTextContent("Hire a frontend engineer named Bob into Engineering");
    expect(screen.getByTestId("trace-origin")).toHaveTextContent("To the secretary");
  });

  it("confirms a hire: the diff and an Undo with a countdown, and the org chart has the new person", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    await say(user, backend, "Hire a frontend engineer for Engineering");
    const action = lastActions(backend)[0]!;

    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await waitFor(() => expect(backend.inputsOf("secretary_confirm")).toEqual([{ actionId: action.id, edits: null }]));
    expect(await screen.findByTestId(`action-diff-${action.id}`)).toHaveTextContent(
      "+1 Frontend engineer (Bob Chen) → Engineering, reports to Grace Hopper",
    );
    const card = screen.getByTestId(`action-card-${action.id}`);
    expect(card).toHaveAttribute("data-status", "applied");
    expect(card).toHaveTextContent("Done");
    expect(screen.getByTestId(`action-undo-${action.id}`)).toHaveTextContent("Undo");
    expect(screen.getByTestId(`action-undo-countdown-${action.id}`).textContent).toMatch(/^(10:00|9:5\d) left$/);
    expect(screen.queryByTestId(`action-confirm-${action.id}`)).not.toBeInTheDocument();
    expect(screen.queryByTestId(`action-cancel-${action.id}`)).not.toBeInTheDocument();

    const hired = backend.employees.find((e) => e.name === "Bob Chen")!;
    expect(hired).toMatchObject({ title: "Frontend engineer", departmentId: 1, managerId: 11, archetype: "ultra_grinder" });
    await user.click(screen.getByTestId("nav-org-chart"));
    expect(await screen.findByTestId(`employee-card-${hired.id}`)).toHaveTextContent("Bob Chen");
  });

  it("confirms a hire with the boss's edits to name and department", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    await say(user, backend, "Hire a frontend engineer for Engineering");
    const action = lastActions(backend)[0]!;

    await user.click(screen.getByTestId(`action-edit-${action.id}`));
    const name = screen.getByTestId(`hire-edit-name-${action.id}`);
    expect(name).toHaveValue("Bob Chen");
    const department = screen.getByTestId(`hire-edit-department-${action.id}`);
    expect(department).toHaveValue("1");
    // A department cannot be taken away through edits, so "Unassigned" is not offered.
    expect(within(department).queryByText("Unassigned")).not.toBeInTheDocument();

    // A blank name is refused before anything is sent.
    await user.clear(name);
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    expect(screen.getByText("Enter a name.")).toBeInTheDocument();
    expect(backend.callsOf("secretary_confirm")).toHaveLength(0);

    await user.type(name, "Bob Li");
    await user.selectOptions(department, "3");
    expect(screen.getByTestId(`action-confirm-${action.id}`)).toHaveTextContent("Confirm with changes");
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await waitFor(() =>
      expect(backend.inputsOf("secretary_confirm")).toEqual([
        { actionId: action.id, edits: { name: "Bob Li", title: null, departmentId: 3, managerId: null, archetype: null } },
      ]),
    );
    expect(await screen.findByTestId(`action-diff-${action.id}`)).toHaveTextContent("+1 Frontend engineer (Bob Li) → Marketing");
    expect(screen.queryByTestId(`hire-edit-name-${action.id}`)).not.toBeInTheDocument();
    expect(backend.employees.find((e) => e.name === "Bob Li")).toMatchObject({ departmentId: 3 });
  });

  it("suggests the new department's lead as manager, and sends manager and personality edits", async () => {
    const backend = new FakeBackend(fixedOrg());
    backend.departments.find((d) => d.id === 3)!.leadId = 31;
    backend.install();
    const { user } = renderApp();
    await say(user, backend, "Hire a designer for Engineering");
    const action = lastActions(backend)[0]!;
    await user.click(screen.getByTestId(`action-edit-${action.id}`));
    await user.selectOptions(screen.getByTestId(`hire-edit-department-${action.id}`), "3");
    expect(screen.getByTestId(`hire-edit-manager-${action.id}`)).toHaveValue("31");
    await user.selectOptions(screen.getByTestId(`hire-edit-archetype-${action.id}`), "chatterbox");
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await waitFor(() =>
      expect(backend.inputsOf("secretary_confirm")).toEqual([
        { actionId: action.id, edits: { name: null, title: null, departmentId: 3, managerId: 31, archetype: "chatterbox" } },
      ]),
    );
  });

  it("discarding the edits confirms the proposal as it was", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    await say(user, backend, "Hire a QA engineer for Marketing");
    const action = lastActions(backend)[0]!;
    await user.click(screen.getByTestId(`action-edit-${action.id}`));
    await user.type(screen.getByTestId(`hire-edit-name-${action.id}`), "x");
    await user.click(screen.getByTestId(`action-edit-${action.id}`)); // "Discard changes"
    expect(screen.queryByTestId(`hire-edit-name-${action.id}`)).not.toBeInTheDocument();
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await waitFor(() => expect(backend.inputsOf("secretary_confirm")).toEqual([{ actionId: action.id, edits: null }]));
  });

  it("cancels a proposal: muted, no buttons, nothing changed", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    await say(user, backend, "Hire a frontend engineer for Engineering");
    const action = lastActions(backend)[0]!;
    const headcount = backend.employees.length;

    await user.click(screen.getByTestId(`action-cancel-${action.id}`));
    await waitFor(() => expect(backend.inputsOf("secretary_cancel")).toEqual([{ actionId: action.id }]));
    const card = screen.getByTestId(`action-card-${action.id}`);
    await waitFor(() => expect(card).toHaveAttribute("data-status", "cancelled"));
    expect(card).toHaveTextContent("Cancelled");
    expect(card).toHaveClass("opacity-60");
    for (const button of ["confirm", "edit", "cancel", "undo"]) {
      expect(screen.queryByTestId(`action-${button}-${action.id}`)).not.toBeInTheDocument();
    }
    expect(backend.employees).toHaveLength(headcount);
    expect(backend.callsOf("secretary_confirm")).toHaveLength(0);
  });

  it("undoes an applied hire", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    await say(user, backend, "hire a frontend engineer named Bob into Engineering");
    const action = lastActions(backend)[0]!;
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await screen.findByTestId(`action-diff-${action.id}`);
    expect(backend.employees.some((e) => e.name === "Bob")).toBe(true);

    await user.click(screen.getByTestId(`action-undo-${action.id}`));
    await waitFor(() => expect(backend.inputsOf("secretary_undo")).toEqual([{ actionId: action.id }]));
    const card = screen.getByTestId(`action-card-${action.id}`);
    await waitFor(() => expect(card).toHaveAttribute("data-status", "undone"));
    expect(card).toHaveTextContent("Undone");
    expect(card).toHaveClass("opacity-60");
    expect(screen.queryByTestId(`action-undo-${action.id}`)).not.toBeInTheDocument();
    expect(backend.employees.some((e) => e.name === "Bob")).toBe(false);
  });

  it("explains when the undo window has passed on the backend's clock", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    await say(user, backend, "Hire a frontend engineer for Engineering");
    const action = lastActions(backend)[0]!;
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await screen.findByTestId(`action-undo-${action.id}`);

    backend.now = () => Date.now() + UNDO_WINDOW_MS + 1000;
    await user.click(screen.getByTestId(`action-undo-${action.id}`));
    expect(await screen.findByRole("alert")).toHaveTextContent("This can no longer be undone");
    expect(screen.getByTestId(`action-card-${action.id}`)).toHaveAttribute("data-status", "applied");
  });

  it("hides Undo once its deadline passes", async () => {
    const backend = new FakeBackend(fixedOrg());
    const applied: ActionDto = {
      ...backend.proposedAction({ type: "create_department", name: "Research", parentId: null, parentName: null }),
      status: "applied",
      diff: "+ department Research",
      undoUntil: new Date(Date.now() + 1200).toISOString(),
    };
    backend.addMessage("secretary", "Done.", [applied]);
    const expired: ActionDto = { ...applied, id: 5001, diff: "+ department Lab", undoUntil: new Date(Date.now() - 1000).toISOString() };
    backend.addMessage("secretary", "Done too.", [expired]);
    backend.install();
    renderApp();

    expect(await screen.findByTestId(`action-undo-${applied.id}`)).toHaveTextContent(/0:0[12] left/);
    expect(screen.getByTestId(`action-diff-${applied.id}`)).toHaveTextContent("+ department Research");
    expect(screen.getByTestId(`action-diff-${expired.id}`)).toHaveTextContent("+ department Lab");
    expect(screen.queryByTestId(`action-undo-${expired.id}`)).not.toBeInTheDocument();
    await waitFor(() => expect(screen.queryByTestId(`action-undo-${applied.id}`)).not.toBeInTheDocument(), { timeout: 3000 });
    expect(screen.getByTestId(`action-diff-${applied.id}`)).toBeInTheDocument();
  });

  it("shows a destructive card in red with a warning, and applies nothing until confirmed", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    await say(user, backend, "Fire Peggy Olson");
    const action = lastActions(backend)[0]!;
    expect(action).toMatchObject({ status: "proposed", destructive: true });

    const card = screen.getByTestId(`action-card-${action.id}`);
    expect(card).toHaveAttribute("data-destructive", "true");
    expect(card).toHaveClass("ring-rose-300");
    expect(card).toHaveTextContent("Let go");
    expect(card).toHaveTextContent("Peggy Olson");
    expect(card).toHaveTextContent("Copywriter");
    expect(screen.getByTestId(`action-warning-${action.id}`)).toHaveTextContent("will leave the company");
    expect(screen.getByTestId(`action-confirm-${action.id}`)).toHaveClass("bg-rose-600");
    expect(screen.queryByTestId(`action-edit-${action.id}`)).not.toBeInTheDocument();
    // Not auto-applied.
    expect(backend.callsOf("secretary_confirm")).toHaveLength(0);
    expect(backend.employees.find((e) => e.id === 32)?.status).not.toBe("fired");

    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    expect(await screen.findByTestId(`action-diff-${action.id}`)).toHaveTextContent("−1 Peggy Olson (record kept)");
    expect(backend.employees.find((e) => e.id === 32)?.status).toBe("fired");
    expect(screen.queryByTestId(`action-warning-${action.id}`)).not.toBeInTheDocument();
  });

  it("shows the error of an action that failed", async () => {
    const backend = new FakeBackend(fixedOrg());
    const hire = backend.proposedAction({
      type: "hire",
      name: "Ghost",
      title: "Engineer",
      departmentId: 999,
      departmentName: "Gone",
      managerId: null,
      managerName: null,
      archetype: "idealist",
      skills: [],
    });
    backend.addMessage("secretary", "A candidate for Gone.", [hire]);
    backend.install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId(`action-confirm-${hire.id}`));
    const card = screen.getByTestId(`action-card-${hire.id}`);
    await waitFor(() => expect(card).toHaveAttribute("data-status", "failed"));
    expect(card).toHaveTextContent("Failed");
    expect(within(card).getByRole("alert")).toHaveTextContent("It could not be done: department 999");
  });

  it("translates a command's error on the card", async () => {
    const backend = withCompany();
    const { user } = renderApp();
    await say(user, backend, "Hire a frontend engineer for Engineering");
    const action = lastActions(backend)[0]!;
    backend.failures.set("secretary_cancel", { code: "storage", message: "database is locked" });
    await user.click(screen.getByTestId(`action-cancel-${action.id}`));
    expect(await within(screen.getByTestId(`action-card-${action.id}`)).findByRole("alert")).toHaveTextContent(
      "Could not cancel: The company data could not be read or saved.",
    );
    expect(screen.getByTestId(`action-cancel-${action.id}`)).toBeEnabled();
  });

  it("shows a translated error with a retry when the history cannot be read", async () => {
    const backend = withCompany();
    backend.failures.set("secretary_history", { code: "storage", message: "database is locked" });
    const { user } = renderApp();
    const error = await screen.findByTestId("error-state");
    expect(error).toHaveTextContent("The company data could not be read or saved.");
    expect(error).toHaveTextContent("database is locked");
    await user.click(screen.getByTestId("retry-button"));
    expect(await screen.findByTestId("secretary-empty")).toBeInTheDocument();
  });

  it("keeps the words when a message cannot be sent, and says why", async () => {
    const backend = withCompany();
    backend.failures.set("secretary_say", { code: "budget_exceeded", message: "spent" });
    const { user } = renderApp();
    await user.type(await screen.findByTestId("secretary-input"), "How is the company doing?");
    await user.click(screen.getByTestId("secretary-send"));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your message was not sent: Today's budget is spent");
    expect(screen.getByTestId("secretary-input")).toHaveValue("How is the company doing?");
    expect(screen.queryByTestId("secretary-pending")).not.toBeInTheDocument();
    // Sending again works.
    await user.click(screen.getByTestId("secretary-send"));
    await waitFor(() => expect(backend.secretaryMessages).toHaveLength(2));
    expect(await screen.findByTestId(`secretary-message-${backend.secretaryMessages[1]!.id}`)).toHaveTextContent("8 people in 3 departments.");
  });

  it("shows the reply growing while its model streams it, then the saved reply", async () => {
    const backend = withCompany();
    let release: () => void = () => {};
    backend.gates.set("secretary_say", new Promise<void>((r) => (release = r)));
    const { user } = renderApp();
    await user.type(await screen.findByTestId("secretary-input"), "How is the company doing?");
    await user.click(screen.getByTestId("secretary-send"));
    expect(await screen.findByText("Your secretary is on it…")).toBeInTheDocument();
    backend.emit({ type: "secretary_reply_delta", streamId: 1, text: "Good " });
    expect(await screen.findByTestId("secretary-streaming")).toHaveTextContent("Good");
    backend.emit({ type: "secretary_reply_delta", streamId: 1, text: "Good morning, Ada!" });
    await waitFor(() => expect(screen.getByTestId("secretary-streaming")).toHaveTextContent("Good morning, Ada!"));
    // An older stream never overwrites a newer one.
    backend.emit({ type: "secretary_reply_delta", streamId: 0, text: "stale" });
    await new Promise((r) => setTimeout(r, 20));
    expect(screen.getByTestId("secretary-streaming")).toHaveTextContent("Good morning, Ada!");
    release();
    await waitFor(() => expect(screen.queryByTestId("secretary-streaming")).not.toBeInTheDocument());
    await waitFor(() => expect(backend.secretaryMessages).toHaveLength(2));
    expect(await screen.findByTestId(`secretary-message-${backend.secretaryMessages[1]!.id}`)).toBeInTheDocument();
  });

  it("scrolls to the newest message", async () => {
    const scroll = vi.fn();
    Object.defineProperty(Element.prototype, "scrollIntoView", { configurable: true, writable: true, value: scroll });
    try {
      const backend = withCompany();
      const { user } = renderApp();
      await screen.findByTestId("secretary-empty");
      scroll.mockClear();
      await say(user, backend, "How is the company doing?");
      await waitFor(() => expect(scroll).toHaveBeenCalled());
      expect(scroll).toHaveBeenLastCalledWith({ block: "end" });
    } finally {
      delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });

  it("talks Chinese with a Chinese company: reply, card and buttons", async () => {
    const backend = new FakeBackend({ ...fixedOrg(), company: company({ language: "zh-CN" }) }).install();
    const { user } = renderApp();
    await screen.findByRole("heading", { name: "秘书" });
    const reply = await say(user, backend, "帮我给工程部招一个测试");
    expect(screen.getByTestId(`secretary-message-${reply.id}`)).toHaveTextContent("我为Engineering找到了一位候选人");
    const action = reply.actions[0]!;
    const card = screen.getByTestId(`action-card-${action.id}`);
    for (const text of ["招聘", "测试工程师", "汇报给", "Grace Hopper", "焦虑完美主义", "等待你确认"]) expect(card).toHaveTextContent(text);
    expect(screen.getByTestId(`action-confirm-${action.id}`)).toHaveTextContent("确认");
    expect(screen.getByTestId(`action-edit-${action.id}`)).toHaveTextContent("修改");
  });

  it("does not send while an input method is composing (Chinese input)", async () => {
    const backend = withCompany();
    renderApp();
    const input = await screen.findByTestId("secretary-input");
    fireEvent.change(input, { target: { value: "招一个" } });
    fireEvent.keyDown(input, { key: "Enter", isComposing: true });
    expect(backend.callsOf("secretary_say")).toHaveLength(0);
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(backend.inputsOf("secretary_say")).toEqual([{ text: "招一个" }]));
  });
});
