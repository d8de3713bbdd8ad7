import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { ActionDto } from "../bindings/ActionDto";
import type { HireEdits } from "../bindings/HireEdits";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { Proposal } from "../bindings/Proposal";
import type { SecretaryMessageDto } from "../bindings/SecretaryMessageDto";
import type { TraceDto } from "../bindings/TraceDto";
import { Fake, ipcError } from "../test/fake";
import { traceOf } from "../test/fakeChatSeed";
import { company, department, employee, fixedOrg, seedId, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/** The backend's undo window (UNDO_WINDOW_MINUTES on the Rust side). */
const UNDO_WINDOW_MS = 10 * 60 * 1000;

/** What the secretary proposes for "hire a frontend engineer for Engineering" in the fixed company. */
const HIRE_BOB: Proposal = {
  type: "hire",
  name: "Bob Chen",
  title: "Frontend engineer",
  departmentId: 1,
  departmentName: "Engineering",
  managerId: 11,
  managerName: "Grace Hopper",
  archetype: "ultra_grinder",
  skills: ["react"],
};

/** What confirming an action does on the backend: its diff, and what it changes (and undoing, back). */
interface Outcome {
  diff: string;
  apply?: () => void;
  undo?: () => void;
}

/**
 * The secretary as the test scripts it: what it answers to each sentence (reading the boss is core's,
 * tested in Rust), the conversation it keeps, and what confirming or undoing a card does.
 */
function secretary(org: OrgSnapshot = fixedOrg()) {
  const messages: SecretaryMessageDto[] = [];
  const answers = new Map<string, { text: string; proposals: Proposal[] }>();
  const outcomes = new Map<string, (edits: HireEdits | null) => Outcome>();
  const undos = new Map<number, Outcome>();
  const trace = (text: string, at: string) => traceOf(text, { origin: "secretary", createdAt: at });
  const traces: TraceDto[] = [];
  const message = (role: SecretaryMessageDto["role"], text: string, actions: ActionDto[] = []): SecretaryMessageDto => {
    const m = { id: seedId(), at: new Date().toISOString(), role, text, actions, traceId: null };
    messages.push(m);
    return m;
  };
  const proposed = (proposal: Proposal): ActionDto => ({ id: seedId(), status: "proposed", destructive: proposal.type === "fire", proposal, diff: null, undoUntil: null, error: null });
  const action = (id: number) => messages.flatMap((m) => m.actions).find((a) => a.id === id) ?? ipcError("not_found", `no action ${id}`);
  const backend = new Fake(world(org), {
    secretaryHistory: () => messages,
    secretarySay: ({ text }) => {
      const boss = message("boss", text);
      const answer = answers.get(text) ?? { text: "8 people in 3 departments.", proposals: [] };
      const reply = message("secretary", answer.text, answer.proposals.map(proposed));
      if (reply.actions.length > 0) {
        const t = trace(text, boss.at);
        traces.push(t);
        reply.traceId = t.summary.id;
      }
      return { boss, parse: { tier: "rules", intents: [] }, reply };
    },
    secretaryConfirm: ({ actionId, edits }) => {
      const a = action(actionId);
      const outcome = outcomes.get(`${a.proposal.type}:${"name" in a.proposal ? a.proposal.name : ""}`)?.(edits) ?? ipcError("internal", "unscripted confirm");
      outcome.apply?.();
      undos.set(a.id, outcome);
      return Object.assign(a, { status: "applied", diff: outcome.diff, undoUntil: new Date(Date.now() + UNDO_WINDOW_MS).toISOString() });
    },
    secretaryCancel: ({ actionId }) => Object.assign(action(actionId), { status: "cancelled" }),
    secretaryUndo: ({ actionId }) => {
      undos.get(actionId)?.undo?.();
      return Object.assign(action(actionId), { status: "undone" });
    },
    getTrace: ({ id }) => traces.find((t) => t.summary.id === id) ?? ipcError("not_found", id),
  });
  /** The secretary answers this sentence with this text and these cards. */
  const answer = (text: string, reply: string, ...proposals: Proposal[]) => answers.set(text, { text: reply, proposals });
  /** Confirming a card for this proposal (type and name) gives this outcome. */
  const onConfirm = (proposal: Proposal, outcome: (edits: HireEdits | null) => Outcome) =>
    outcomes.set(`${proposal.type}:${"name" in proposal ? proposal.name : ""}`, outcome);
  /** A hire that goes through: the new person is in the org until it is undone. */
  const hires = (proposal: Extract<Proposal, { type: "hire" }>, diff: string) =>
    onConfirm(proposal, (edits) => {
      const hired = employee(seedId(), edits?.name ?? proposal.name, edits?.departmentId ?? proposal.departmentId, {
        title: proposal.title,
        managerId: edits?.managerId ?? proposal.managerId,
        archetype: edits?.archetype ?? proposal.archetype,
      });
      return {
        diff,
        apply: () => org.employees.push(hired),
        undo: () => (org.employees = org.employees.filter((e) => e.id !== hired.id)),
      };
    });
  return { backend, org, messages, message, proposed, answer, onConfirm, hires };
}

type Secretary = ReturnType<typeof secretary>;

const withCompany = () => {
  const sec = secretary();
  sec.answer("Hire a frontend engineer for Engineering", "Here is a candidate for Engineering.", HIRE_BOB);
  sec.hires(HIRE_BOB, "+1 Frontend engineer (Bob Chen) → Engineering, reports to Grace Hopper");
  sec.backend.install();
  return sec;
};

/** The action cards of the secretary's latest reply, as the backend holds them. */
const lastActions = (sec: Secretary): ActionDto[] => sec.messages.at(-1)?.actions ?? [];

/** Says something through the composer and waits for the secretary's reply to be shown. */
async function say(user: ReturnType<typeof renderApp>["user"], sec: Secretary, text: string) {
  const before = sec.messages.length;
  await user.type(await screen.findByTestId("secretary-input"), `${text}{Enter}`);
  await waitFor(() => expect(sec.messages.length).toBe(before + 2));
  const reply = sec.messages.at(-1)!;
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
    const sec = secretary();
    const backend = sec.backend;
    const boss = sec.message("boss", "How is the company doing?");
    const reply = sec.message("secretary", "8 people in 3 departments.\n· Engineering: 3");
    const proposed = sec.proposed({ type: "transfer", employeeId: 32, name: "Peggy Olson", departmentId: 1, departmentName: "Engineering" });
    const later = sec.message("secretary", "Shall I move Peggy Olson to Engineering?", [proposed]);
    backend.install();
    renderApp();

    const bossBubble = await screen.findByTestId(`secretary-message-${boss.id}`);
    expect(backend.callsOf("secretaryHistory")).toHaveLength(1);
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
    const { backend } = withCompany();
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
    expect(backend.callsOf("secretarySay")).toHaveLength(0);
  });

  it("gives the examples in Chinese for a Chinese company", async () => {
    secretary({ ...fixedOrg(), company: company({ language: "zh-CN" }) }).backend.install();
    const { user } = renderApp();
    expect(await screen.findByRole("heading", { name: "秘书" })).toBeInTheDocument();
    expect(await screen.findByTestId("secretary-example-0")).toHaveTextContent("帮我给Engineering招一个前端工程师");
    expect(screen.getByTestId("secretary-example-1")).toHaveTextContent("公司现在怎么样？");
    await user.click(screen.getByTestId("secretary-example-3"));
    expect(screen.getByTestId("secretary-input")).toHaveValue("新建一个研究部");
  });

  it("never suggests names the company does not have", async () => {
    // A new company: one department, nobody hired yet.
    secretary({ ...fixedOrg(), departments: [department(7, "Product", null)], employees: [] }).backend.install();
    renderApp();
    await screen.findByTestId("secretary-empty");
    const examples = [0, 1, 2, 3].map((n) => screen.getByTestId(`secretary-example-${n}`).textContent);
    expect(examples).toEqual([
      "Hire a frontend engineer for Product",
      "How is the company doing?",
      "Who is in Product?",
      "Create a department called Research",
    ]);
    for (const e of examples) expect(e).not.toMatch(/Alice|Marketing|Engineering/);
  });

  it("a typed yes shows the card it confirmed as applied, and the org is read again", async () => {
    const sec = withCompany();
    const { user } = renderApp();
    const reply = await say(user, sec, "Hire a frontend engineer for Engineering");
    const card = reply.actions[0]!;
    expect(await screen.findByTestId(`action-confirm-${card.id}`)).toBeInTheDocument();
    const orgReads = sec.backend.callsOf("getOrg").length;
    // The backend confirms the card when the boss types "yes" (core's rule tier, tested in Rust).
    sec.answer("yes", "Done: +1 Frontend engineer (Bob Chen) → Engineering, reports to Grace Hopper");
    // What that turn does on the backend; the page only learns of it by reading again.
    Object.assign(card, { status: "applied", diff: "+1 Frontend engineer (Bob Chen) → Engineering, reports to Grace Hopper" });
    expect(screen.getByTestId(`action-confirm-${card.id}`)).toBeInTheDocument();
    await user.type(screen.getByTestId("secretary-input"), "yes{Enter}");
    expect(await screen.findByTestId(`action-diff-${card.id}`)).toHaveTextContent("+1 Frontend engineer (Bob Chen) → Engineering");
    expect(screen.queryByTestId(`action-confirm-${card.id}`)).not.toBeInTheDocument();
    await waitFor(() => expect(sec.backend.callsOf("getOrg").length).toBeGreaterThan(orgReads));
  });

  it("sends with Enter, shows the boss's message at once, then the reply with a hire card", async () => {
    const sec = withCompany();
    const backend = sec.backend;
    let release!: () => void;
    backend.hold("secretarySay", new Promise<void>((r) => (release = r)));
    const { user } = renderApp();
    const input = await screen.findByTestId("secretary-input");
    expect(screen.getByTestId("secretary-send")).toBeDisabled();

    // Shift+Enter is a new line, not a send.
    await user.type(input, "Hire a frontend engineer{Shift>}{Enter}{/Shift}for Engineering");
    expect(backend.callsOf("secretarySay")).toHaveLength(0);
    expect(input).toHaveValue("Hire a frontend engineer\nfor Engineering");
    await user.clear(input);
    await user.type(input, "Hire a frontend engineer for Engineering{Enter}");

    // Optimistic: the boss's words are on screen while the secretary works; the composer waits.
    expect(await screen.findByTestId("secretary-pending")).toHaveTextContent("Hire a frontend engineer for Engineering");
    expect(screen.getByRole("status")).toHaveTextContent("Your secretary is on it…");
    expect(input).toBeDisabled();
    expect(input).toHaveValue("");
    expect(screen.getByTestId("secretary-send")).toBeDisabled();
    expect(backend.inputsOf("secretarySay")).toEqual([{ text: "Hire a frontend engineer for Engineering" }]);

    release();
    const [boss, reply] = await waitFor(() => {
      expect(sec.messages).toHaveLength(2);
      return sec.messages;
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
    expect(sec.org.employees.some((e) => e.name === "Bob Chen")).toBe(false);
    expect(backend.callsOf("secretaryConfirm")).toHaveLength(0);
  });

  it("links the cards of a turn that started an instruction to its trace", async () => {
    const sec = withCompany();
    sec.answer("Hire a frontend engineer named Bob into Engineering", "Here is a candidate for Engineering.", { ...HIRE_BOB, name: "Bob" });
    const { user } = renderApp();
    const reply = await say(user, sec, "Hire a frontend engineer named Bob into Engineering");
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
    const sec = withCompany();
    const backend = sec.backend;
    const { user } = renderApp();
    await say(user, sec, "Hire a frontend engineer for Engineering");
    const action = lastActions(sec)[0]!;

    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await waitFor(() => expect(backend.inputsOf("secretaryConfirm")).toEqual([{ actionId: action.id, edits: null }]));
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

    const hired = sec.org.employees.find((e) => e.name === "Bob Chen")!;
    expect(hired).toMatchObject({ title: "Frontend engineer", departmentId: 1, managerId: 11, archetype: "ultra_grinder" });
    await user.click(screen.getByTestId("nav-org-chart"));
    expect(await screen.findByTestId(`employee-card-${hired.id}`)).toHaveTextContent("Bob Chen");
  });

  it("confirms a hire with the boss's edits to name and department", async () => {
    const sec = withCompany();
    const backend = sec.backend;
    // With the boss's edits, the backend hires Bob Li into Marketing and says so.
    sec.hires(HIRE_BOB, "+1 Frontend engineer (Bob Li) → Marketing");
    const { user } = renderApp();
    await say(user, sec, "Hire a frontend engineer for Engineering");
    const action = lastActions(sec)[0]!;

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
    expect(backend.callsOf("secretaryConfirm")).toHaveLength(0);

    await user.type(name, "Bob Li");
    await user.selectOptions(department, "3");
    expect(screen.getByTestId(`action-confirm-${action.id}`)).toHaveTextContent("Confirm with changes");
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await waitFor(() =>
      expect(backend.inputsOf("secretaryConfirm")).toEqual([
        { actionId: action.id, edits: { name: "Bob Li", title: null, departmentId: 3, managerId: null, archetype: null } },
      ]),
    );
    expect(await screen.findByTestId(`action-diff-${action.id}`)).toHaveTextContent("+1 Frontend engineer (Bob Li) → Marketing");
    expect(screen.queryByTestId(`hire-edit-name-${action.id}`)).not.toBeInTheDocument();
    expect(sec.org.employees.find((e) => e.name === "Bob Li")).toMatchObject({ departmentId: 3 });
  });

  it("suggests the new department's lead as manager, and sends manager and personality edits", async () => {
    const sec = secretary();
    const backend = sec.backend;
    sec.org.departments.find((d) => d.id === 3)!.leadId = 31;
    const designer: Proposal = { ...HIRE_BOB, title: "Product designer", archetype: "idealist", skills: ["figma"] };
    sec.answer("Hire a designer for Engineering", "Here is a candidate for Engineering.", designer);
    sec.hires(designer, "+1 Product designer (Bob Chen) → Marketing, reports to Don Draper");
    backend.install();
    const { user } = renderApp();
    await say(user, sec, "Hire a designer for Engineering");
    const action = lastActions(sec)[0]!;
    await user.click(screen.getByTestId(`action-edit-${action.id}`));
    await user.selectOptions(screen.getByTestId(`hire-edit-department-${action.id}`), "3");
    expect(screen.getByTestId(`hire-edit-manager-${action.id}`)).toHaveValue("31");
    await user.selectOptions(screen.getByTestId(`hire-edit-archetype-${action.id}`), "chatterbox");
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await waitFor(() =>
      expect(backend.inputsOf("secretaryConfirm")).toEqual([
        { actionId: action.id, edits: { name: null, title: null, departmentId: 3, managerId: 31, archetype: "chatterbox" } },
      ]),
    );
  });

  it("discarding the edits confirms the proposal as it was", async () => {
    const sec = withCompany();
    const backend = sec.backend;
    const qa: Proposal = { ...HIRE_BOB, title: "QA engineer", departmentId: 3, departmentName: "Marketing", managerId: 31, managerName: "Don Draper" };
    sec.answer("Hire a QA engineer for Marketing", "Here is a candidate for Marketing.", qa);
    sec.hires(qa, "+1 QA engineer (Bob Chen) → Marketing, reports to Don Draper");
    const { user } = renderApp();
    await say(user, sec, "Hire a QA engineer for Marketing");
    const action = lastActions(sec)[0]!;
    await user.click(screen.getByTestId(`action-edit-${action.id}`));
    await user.type(screen.getByTestId(`hire-edit-name-${action.id}`), "x");
    await user.click(screen.getByTestId(`action-edit-${action.id}`)); // "Discard changes"
    expect(screen.queryByTestId(`hire-edit-name-${action.id}`)).not.toBeInTheDocument();
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await waitFor(() => expect(backend.inputsOf("secretaryConfirm")).toEqual([{ actionId: action.id, edits: null }]));
  });

  it("cancels a proposal: muted, no buttons, nothing changed", async () => {
    const sec = withCompany();
    const backend = sec.backend;
    const { user } = renderApp();
    await say(user, sec, "Hire a frontend engineer for Engineering");
    const action = lastActions(sec)[0]!;
    const headcount = sec.org.employees.length;

    await user.click(screen.getByTestId(`action-cancel-${action.id}`));
    await waitFor(() => expect(backend.inputsOf("secretaryCancel")).toEqual([{ actionId: action.id }]));
    const card = screen.getByTestId(`action-card-${action.id}`);
    await waitFor(() => expect(card).toHaveAttribute("data-status", "cancelled"));
    expect(card).toHaveTextContent("Cancelled");
    expect(card).toHaveClass("opacity-60");
    for (const button of ["confirm", "edit", "cancel", "undo"]) {
      expect(screen.queryByTestId(`action-${button}-${action.id}`)).not.toBeInTheDocument();
    }
    expect(sec.org.employees).toHaveLength(headcount);
    expect(backend.callsOf("secretaryConfirm")).toHaveLength(0);
  });

  it("undoes an applied hire", async () => {
    const sec = withCompany();
    const backend = sec.backend;
    const bob: Proposal = { ...HIRE_BOB, name: "Bob" };
    sec.answer("hire a frontend engineer named Bob into Engineering", "Here is a candidate for Engineering.", bob);
    sec.hires(bob, "+1 Frontend engineer (Bob) → Engineering, reports to Grace Hopper");
    const { user } = renderApp();
    await say(user, sec, "hire a frontend engineer named Bob into Engineering");
    const action = lastActions(sec)[0]!;
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await screen.findByTestId(`action-diff-${action.id}`);
    expect(sec.org.employees.some((e) => e.name === "Bob")).toBe(true);

    await user.click(screen.getByTestId(`action-undo-${action.id}`));
    await waitFor(() => expect(backend.inputsOf("secretaryUndo")).toEqual([{ actionId: action.id }]));
    const card = screen.getByTestId(`action-card-${action.id}`);
    await waitFor(() => expect(card).toHaveAttribute("data-status", "undone"));
    expect(card).toHaveTextContent("Undone");
    expect(card).toHaveClass("opacity-60");
    expect(screen.queryByTestId(`action-undo-${action.id}`)).not.toBeInTheDocument();
    expect(sec.org.employees.some((e) => e.name === "Bob")).toBe(false);
  });

  it("explains when the undo window has passed on the backend's clock", async () => {
    const sec = withCompany();
    const backend = sec.backend;
    const { user } = renderApp();
    await say(user, sec, "Hire a frontend engineer for Engineering");
    const action = lastActions(sec)[0]!;
    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    await screen.findByTestId(`action-undo-${action.id}`);

    // The backend's clock says the window has passed (the card's may not yet).
    backend.failNext("secretaryUndo", "invalid_input", "the undo window has passed");
    await user.click(screen.getByTestId(`action-undo-${action.id}`));
    expect(await screen.findByRole("alert")).toHaveTextContent("This can no longer be undone");
    expect(screen.getByTestId(`action-card-${action.id}`)).toHaveAttribute("data-status", "applied");
  });

  it("hides Undo once its deadline passes", async () => {
    const sec = secretary();
    const backend = sec.backend;
    const applied: ActionDto = {
      ...sec.proposed({ type: "create_department", name: "Research", parentId: null, parentName: null }),
      status: "applied",
      diff: "+ department Research",
      undoUntil: new Date(Date.now() + 1200).toISOString(),
    };
    sec.message("secretary", "Done.", [applied]);
    const expired: ActionDto = { ...applied, id: 5001, diff: "+ department Lab", undoUntil: new Date(Date.now() - 1000).toISOString() };
    sec.message("secretary", "Done too.", [expired]);
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
    const sec = withCompany();
    const backend = sec.backend;
    const fire: Proposal = { type: "fire", employeeId: 32, name: "Peggy Olson" };
    sec.answer("Fire Peggy Olson", "Shall I let Peggy Olson go?", fire);
    sec.onConfirm(fire, () => ({ diff: "−1 Peggy Olson (record kept)", apply: () => (sec.org.employees = sec.org.employees.filter((e) => e.id !== 32)) }));
    const { user } = renderApp();
    await say(user, sec, "Fire Peggy Olson");
    const action = lastActions(sec)[0]!;
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
    expect(backend.callsOf("secretaryConfirm")).toHaveLength(0);
    expect(sec.org.employees.some((e) => e.id === 32)).toBe(true);

    await user.click(screen.getByTestId(`action-confirm-${action.id}`));
    expect(await screen.findByTestId(`action-diff-${action.id}`)).toHaveTextContent("−1 Peggy Olson (record kept)");
    expect(backend.inputsOf("secretaryConfirm")).toEqual([{ actionId: action.id, edits: null }]);
    expect(sec.org.employees.some((e) => e.id === 32)).toBe(false);
    expect(screen.queryByTestId(`action-warning-${action.id}`)).not.toBeInTheDocument();
  });

  it("shows the error of an action that failed", async () => {
    const sec = secretary();
    const backend = sec.backend;
    const hire = sec.proposed({
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
    sec.message("secretary", "A candidate for Gone.", [hire]);
    // The department is gone: the backend records the failure on the card.
    backend.on("secretaryConfirm", ({ actionId }) => ({ ...hire, id: actionId, status: "failed", error: "department 999" }));
    backend.install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId(`action-confirm-${hire.id}`));
    const card = screen.getByTestId(`action-card-${hire.id}`);
    await waitFor(() => expect(card).toHaveAttribute("data-status", "failed"));
    expect(card).toHaveTextContent("Failed");
    expect(within(card).getByRole("alert")).toHaveTextContent("It could not be done: department 999");
  });

  it("translates a command's error on the card", async () => {
    const sec = withCompany();
    const backend = sec.backend;
    const { user } = renderApp();
    await say(user, sec, "Hire a frontend engineer for Engineering");
    const action = lastActions(sec)[0]!;
    backend.failNext("secretaryCancel", "storage", "database is locked");
    await user.click(screen.getByTestId(`action-cancel-${action.id}`));
    expect(await within(screen.getByTestId(`action-card-${action.id}`)).findByRole("alert")).toHaveTextContent(
      "Could not cancel: The company data could not be read or saved.",
    );
    expect(screen.getByTestId(`action-cancel-${action.id}`)).toBeEnabled();
  });

  it("shows a translated error with a retry when the history cannot be read", async () => {
    const { backend } = withCompany();
    backend.failNext("secretaryHistory", "storage", "database is locked");
    const { user } = renderApp();
    const error = await screen.findByTestId("error-state");
    expect(error).toHaveTextContent("The company data could not be read or saved.");
    expect(error).toHaveTextContent("database is locked");
    await user.click(screen.getByTestId("retry-button"));
    expect(await screen.findByTestId("secretary-empty")).toBeInTheDocument();
  });

  it("keeps the words when a message cannot be sent, and says why", async () => {
    const sec = withCompany();
    const backend = sec.backend;
    backend.failNext("secretarySay", "budget_exceeded", "spent");
    const { user } = renderApp();
    await user.type(await screen.findByTestId("secretary-input"), "How is the company doing?");
    await user.click(screen.getByTestId("secretary-send"));
    expect(await screen.findByRole("alert")).toHaveTextContent("Your message was not sent: Today's budget is spent");
    expect(screen.getByTestId("secretary-input")).toHaveValue("How is the company doing?");
    expect(screen.queryByTestId("secretary-pending")).not.toBeInTheDocument();
    // Sending again works.
    await user.click(screen.getByTestId("secretary-send"));
    await waitFor(() => expect(sec.messages).toHaveLength(2));
    expect(backend.inputsOf("secretarySay")).toEqual([{ text: "How is the company doing?" }, { text: "How is the company doing?" }]);
    expect(await screen.findByTestId(`secretary-message-${sec.messages[1]!.id}`)).toHaveTextContent("8 people in 3 departments.");
  });

  it("shows the reply growing while its model streams it, then the saved reply", async () => {
    const sec = withCompany();
    const backend = sec.backend;
    let release: () => void = () => {};
    backend.hold("secretarySay", new Promise<void>((r) => (release = r)));
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
    await waitFor(() => expect(sec.messages).toHaveLength(2));
    expect(await screen.findByTestId(`secretary-message-${sec.messages[1]!.id}`)).toBeInTheDocument();
  });

  it("scrolls to the newest message", async () => {
    const scroll = vi.fn();
    Object.defineProperty(Element.prototype, "scrollIntoView", { configurable: true, writable: true, value: scroll });
    try {
      const sec = withCompany();
      const { user } = renderApp();
      await screen.findByTestId("secretary-empty");
      scroll.mockClear();
      await say(user, sec, "How is the company doing?");
      await waitFor(() => expect(scroll).toHaveBeenCalled());
      expect(scroll).toHaveBeenLastCalledWith({ block: "end" });
    } finally {
      delete (Element.prototype as { scrollIntoView?: unknown }).scrollIntoView;
    }
  });

  it("talks Chinese with a Chinese company: reply, card and buttons", async () => {
    const sec = secretary({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    const qa: Proposal = { ...HIRE_BOB, title: "测试工程师", archetype: "anxious_perfectionist", skills: ["testing"] };
    sec.answer("帮我给工程部招一个测试", "我为Engineering找到了一位候选人。", qa);
    sec.backend.install();
    const { user } = renderApp();
    await screen.findByRole("heading", { name: "秘书" });
    const reply = await say(user, sec, "帮我给工程部招一个测试");
    expect(screen.getByTestId(`secretary-message-${reply.id}`)).toHaveTextContent("我为Engineering找到了一位候选人");
    const action = reply.actions[0]!;
    const card = screen.getByTestId(`action-card-${action.id}`);
    for (const text of ["招聘", "测试工程师", "汇报给", "Grace Hopper", "焦虑完美主义", "等待你确认"]) expect(card).toHaveTextContent(text);
    expect(screen.getByTestId(`action-confirm-${action.id}`)).toHaveTextContent("确认");
    expect(screen.getByTestId(`action-edit-${action.id}`)).toHaveTextContent("修改");
  });

  it("does not send while an input method is composing (Chinese input)", async () => {
    const { backend } = withCompany();
    renderApp();
    const input = await screen.findByTestId("secretary-input");
    fireEvent.change(input, { target: { value: "招一个" } });
    fireEvent.keyDown(input, { key: "Enter", isComposing: true });
    expect(backend.callsOf("secretarySay")).toHaveLength(0);
    fireEvent.keyDown(input, { key: "Enter" });
    await waitFor(() => expect(backend.inputsOf("secretarySay")).toEqual([{ text: "招一个" }]));
  });
});
