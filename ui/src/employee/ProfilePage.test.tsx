import { screen, waitFor, within } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import { Fake } from "../test/fake";
import { ChatSeed } from "../test/fakeChatSeed";
import { company, fixedOrg, memory, people, profilesOf, relationship, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/** Alan Turing (12): Engineering, reports to Grace Hopper (11), a philosopher on the built-in model. */
function withAlan(org: OrgSnapshot = fixedOrg()) {
  const profiles = profilesOf(org);
  const chats = new ChatSeed(org);
  const backend = new Fake(world(org), people(org, profiles), chats.handlers());
  window.location.hash = "#employee/12";
  const person = (id: number) => org.employees.find((e) => e.id === id)!;
  return { backend, org, profiles, chats, alan: profiles.get(12)!, person };
}

describe("employee profile", () => {
  it("shows who someone is: name, title, department, manager, personality, persona and model", async () => {
    withAlan().backend.install();
    renderApp();
    expect(await screen.findByTestId("profile-name")).toHaveTextContent("Alan Turing");
    expect(screen.getByTestId("profile-title")).toHaveTextContent("Backend engineer");
    expect(screen.getByTestId("profile-department")).toHaveTextContent("Engineering");
    expect(screen.getByTestId("profile-manager")).toHaveTextContent("Reports to Grace Hopper");
    expect(within(screen.getByTestId("profile-manager")).getByRole("link")).toHaveAttribute("href", "#employee/11");
    expect(screen.getByTestId("profile-archetype")).toHaveTextContent("Philosopher");
    expect(screen.getByTestId("profile-persona-text")).toHaveTextContent("Reflective; looks for meaning in the work.");
    expect(screen.getByTestId("profile-persona-text")).toHaveTextContent("Tone: Thoughtful and questioning.");
    expect(screen.getByTestId("profile-backend-value")).toHaveTextContent("builtin / SmolLM2-135M-Instruct");
    expect(screen.getByTestId("relationships-empty")).toHaveTextContent("Alan Turing has no opinions of anyone yet.");
    expect(screen.getByTestId("memories-empty")).toBeInTheDocument();
    expect(screen.getByTestId("tasks-empty")).toBeInTheDocument();
    expect(screen.getByTestId("thoughts-empty")).toBeInTheDocument();
  });

  it("shows the company default model for someone without one of their own", async () => {
    withAlan().backend.install();
    window.location.hash = "#employee/11";
    renderApp();
    const backend = await screen.findByTestId("profile-backend-value");
    expect(backend).toHaveAttribute("data-company-default", "true");
    expect(backend).toHaveTextContent("Company default");
  });

  it("shows stamina as a comfort gauge in its zone's colour, with patience, fatigue and stress", async () => {
    const { backend, alan } = withAlan();
    // comfort = 70 − (50·0.4 + 30·0.6) = 32: red (the backend works it out).
    alan.stamina = { patience: 70, fatigue: 50, stress: 30, comfort: 32, zone: "red" };
    backend.install();
    renderApp();
    const gauge = await screen.findByTestId("stamina-gauge");
    expect(gauge).toHaveAttribute("data-zone", "red");
    expect(gauge).toHaveAttribute("aria-valuenow", "32");
    expect(screen.getByTestId("stamina-comfort")).toHaveTextContent("32");
    expect(screen.getByTestId("stamina-zone")).toHaveTextContent("Worn out");
    expect(gauge.querySelectorAll("circle")[1]).toHaveAttribute("stroke", "#f43f5e");
    expect(screen.getByTestId("stamina-patience")).toHaveAttribute("aria-valuenow", "70");
    expect(screen.getByTestId("stamina-fatigue")).toHaveAttribute("aria-valuenow", "50");
    expect(screen.getByTestId("stamina-stress")).toHaveAttribute("aria-valuenow", "30");
  });

  it("shows a new hire's stamina as green and a strained one as yellow", async () => {
    const { backend, alan, profiles } = withAlan();
    alan.stamina = { patience: 80, fatigue: 10, stress: 10, comfort: 80, zone: "green" };
    profiles.get(11)!.stamina = { patience: 80, fatigue: 40, stress: 30, comfort: 46, zone: "yellow" };
    backend.install();
    renderApp();
    expect(await screen.findByTestId("stamina-gauge")).toHaveAttribute("data-zone", "green");
    expect(screen.getByTestId("stamina-comfort")).toHaveTextContent("80");
    window.location.hash = "#employee/11";
    // 80 − (16 + 18) = 46: yellow.
    await waitFor(() => expect(screen.getByTestId("profile-name")).toHaveTextContent("Grace Hopper"));
    expect(screen.getByTestId("stamina-gauge")).toHaveAttribute("data-zone", "yellow");
    expect(screen.getByTestId("stamina-zone")).toHaveTextContent("Strained");
  });

  it("shows spend and pending tasks", async () => {
    const { backend, alan } = withAlan();
    Object.assign(alan, { spendTodayUsd: 1.5, spendTotalUsd: 42 });
    const task = { id: 77, description: "Rate limiter for the login service", createdAt: new Date(Date.now() - 40 * 60_000).toISOString() };
    alan.pendingTasks = [task];
    backend.install();
    renderApp();
    expect(await screen.findByTestId("profile-spend-today")).toHaveTextContent("$1.50");
    expect(screen.getByTestId("profile-spend-total")).toHaveTextContent("$42.00");
    const row = screen.getByTestId(`task-${task.id}`);
    expect(row).toHaveTextContent("Rate limiter for the login service");
    expect(row).toHaveTextContent("Critical");
    expect(row).toHaveTextContent("Waiting since 40 minutes ago");
  });

  it("filters memories by kind and deletes one after confirmation", async () => {
    const { backend, alan } = withAlan();
    const deadline = memory("The demo is on Friday.", { importance: 9, visibility: "team" });
    const lunch = memory("Lunch is tacos.", {
      kind: "short_term",
      importance: 2,
      visibility: "public",
      expiresAt: new Date(Date.now() + 5 * 3600_000 + 60_000).toISOString(),
    });
    alan.memories = [deadline, lunch];
    backend.on("deleteMemory", ({ memoryId }) => {
      alan.memories = alan.memories.filter((m) => m.id !== memoryId);
      return null;
    });
    backend.install();
    const { user } = renderApp();

    const list = await screen.findByTestId("memory-list");
    expect(within(list).getAllByRole("listitem").map((li) => li.getAttribute("data-testid"))).toEqual([
      `memory-${deadline.id}`,
      `memory-${lunch.id}`,
    ]);
    const row = screen.getByTestId(`memory-${deadline.id}`);
    expect(row).toHaveTextContent("Importance 9 of 10");
    expect(row).toHaveTextContent("Long-term");
    expect(row).toHaveTextContent("Team");
    expect(screen.getByTestId(`memory-${lunch.id}-expiry`)).toHaveTextContent("Fades in 5 hours");
    expect(screen.getByTestId(`memory-${lunch.id}`)).toHaveTextContent("Company");

    await user.click(screen.getByTestId("memory-filter-short_term"));
    expect(screen.getByTestId("memory-filter-short_term")).toHaveAttribute("aria-pressed", "true");
    expect(screen.queryByTestId(`memory-${deadline.id}`)).not.toBeInTheDocument();
    await user.click(screen.getByTestId("memory-filter-long_term"));
    expect(screen.queryByTestId(`memory-${lunch.id}`)).not.toBeInTheDocument();

    // Cancelling keeps it; confirming deletes it.
    await user.click(screen.getByTestId(`memory-${deadline.id}-delete`));
    let dialog = screen.getByRole("dialog", { name: "Delete this memory?" });
    expect(dialog).toHaveTextContent("Alan Turing will no longer remember this:");
    expect(dialog).toHaveTextContent("The demo is on Friday.");
    await user.click(within(dialog).getByRole("button", { name: "Cancel" }));
    expect(backend.callsOf("deleteMemory")).toHaveLength(0);

    await user.click(screen.getByTestId(`memory-${deadline.id}-delete`));
    dialog = screen.getByRole("dialog", { name: "Delete this memory?" });
    await user.click(within(dialog).getByTestId("delete-memory-confirm"));
    await waitFor(() => expect(backend.inputsOf("deleteMemory")).toEqual([{ memoryId: deadline.id }]));
    await waitFor(() => expect(screen.queryByTestId(`memory-${deadline.id}`)).not.toBeInTheDocument());
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(screen.getByTestId("memories-empty")).toHaveTextContent("None of this kind.");
  });

  it("shows not_found in the dialog when the memory is already gone", async () => {
    const { backend, alan } = withAlan();
    const m = memory("Something fleeting.");
    alan.memories = [m];
    backend.failNext("deleteMemory", "not_found", "memory does not exist");
    backend.install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId(`memory-${m.id}-delete`));
    await user.click(screen.getByTestId("delete-memory-confirm"));
    expect(await within(screen.getByRole("dialog")).findByRole("alert")).toHaveTextContent("That item no longer exists.");
  });

  it("lists relationships with affinity and impression, links the other's profile, and resets one", async () => {
    const { backend, alan, profiles, person } = withAlan();
    alan.relationships = [relationship(person(11), 82, "Decisive lead; gives me room to think.", 11), relationship(person(13), 30, "Blunt in reviews.", 4)];
    profiles.get(11)!.relationships = [relationship(person(12), 64, "Thorough.")];
    backend.on("resetRelationships", ({ employeeId, otherId }) => {
      const p = profiles.get(employeeId)!;
      p.relationships = p.relationships.filter((r) => otherId !== null && r.otherId !== otherId);
      return null;
    });
    backend.install();
    const { user } = renderApp();

    const grace = await screen.findByTestId("relationship-11");
    expect(grace).toHaveTextContent("Grace Hopper");
    expect(grace).toHaveTextContent("Warm · 82");
    expect(grace).toHaveTextContent("Decisive lead; gives me room to think.");
    expect(grace).toHaveTextContent("11 interactions");
    expect(screen.getByTestId("relationship-11-link")).toHaveAttribute("href", "#employee/11");
    const bar = screen.getByTestId("relationship-11-affinity");
    expect(bar).toHaveAttribute("aria-valuenow", "82");
    expect(bar).toHaveAttribute("data-tone", "warm");
    expect(screen.getByTestId("relationship-13-affinity")).toHaveAttribute("data-tone", "cold");

    await user.click(screen.getByRole("button", { name: "Reset what Alan Turing thinks of Linus Torvalds" }));
    const dialog = screen.getByRole("dialog", { name: "Reset what Alan Turing thinks of Linus Torvalds?" });
    await user.click(within(dialog).getByTestId("reset-relationships-confirm"));
    await waitFor(() => expect(backend.inputsOf("resetRelationships")).toEqual([{ employeeId: 12, otherId: 13 }]));
    await waitFor(() => expect(screen.queryByTestId("relationship-13")).not.toBeInTheDocument());
    expect(screen.getByTestId("relationship-11")).toBeInTheDocument();
    // What Grace thinks of Alan is hers: untouched.
    expect(backend.inputsOf("resetRelationships")).toHaveLength(1);
  });

  it("resets all of someone's relationships after confirmation", async () => {
    const { backend, alan, profiles, person } = withAlan();
    alan.relationships = [relationship(person(11), 82), relationship(person(13), 30)];
    backend.on("resetRelationships", ({ employeeId, otherId }) => {
      const p = profiles.get(employeeId)!;
      p.relationships = p.relationships.filter((r) => otherId !== null && r.otherId !== otherId);
      return null;
    });
    backend.install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("relationships-reset-all"));
    const dialog = screen.getByRole("dialog", { name: "Reset all of Alan Turing's relationships?" });
    expect(dialog).toHaveTextContent("all 2 colleagues");
    await user.click(within(dialog).getByTestId("reset-relationships-confirm"));
    await waitFor(() => expect(backend.inputsOf("resetRelationships")).toEqual([{ employeeId: 12, otherId: null }]));
    expect(await screen.findByTestId("relationships-empty")).toBeInTheDocument();
    expect(screen.queryByTestId("relationships-reset-all")).not.toBeInTheDocument();
  });

  it("shows recent thoughts, newest first, with why they stayed silent and a link to the chat", async () => {
    const { backend, alan, chats } = withAlan();
    const chat = chats.department(1);
    const older = chats.thought(12, chat.id, {
      innerThoughts: "Grace will answer this one.",
      reason: "Not my call.",
      createdAt: "2025-03-01T10:00:00Z",
    });
    const newer = chats.thought(12, chat.id, {
      innerThoughts: "I should mention the proxy option.",
      shouldSpeak: true,
      silencedBy: "anti_spam",
      createdAt: "2025-03-01T11:00:00Z",
    });
    // Newest first, as the backend sends them.
    alan.thoughts = [newer, older];
    backend.install();
    renderApp();
    const card = await screen.findByTestId("profile-thoughts");
    const ids = [...card.querySelectorAll("[data-testid^='profile-thought-']")]
      .map((el) => el.getAttribute("data-testid"))
      .filter((id) => /^profile-thought-\d+$/.test(id ?? ""));
    expect(ids).toEqual([`profile-thought-${newer.id}`, `profile-thought-${older.id}`]);
    expect(screen.getByTestId(`profile-thought-${newer.id}-outcome`)).toHaveTextContent(
      "Wanted to speak, but stayed silent: they had already posted a lot in a short time",
    );
    expect(screen.getByTestId(`profile-thought-${older.id}-outcome`)).toHaveTextContent("Chose to stay silent: Not my call.");
    expect(within(screen.getByTestId(`profile-thought-${newer.id}`)).getByRole("link", { name: "Engineering" })).toHaveAttribute(
      "href",
      `#chats/${chat.id}`,
    );
  });

  it("opens (or starts) the boss's 1:1 chat from the Message button", async () => {
    const { backend, chats } = withAlan();
    backend.on("openBossChat", () => chats.add("boss", "Alan Turing", [12]));
    backend.install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId("profile-message-button"));
    await waitFor(() => expect(backend.inputsOf("openBossChat")).toEqual([{ employeeId: 12 }]));
    const chat = chats.chats.find((c) => c.kind === "boss")!;
    await waitFor(() => expect(window.location.hash).toBe(`#chats/${chat.id}`));
    expect(await screen.findByTestId("chat-title")).toHaveTextContent("Alan Turing");
    expect(screen.getByTestId("chat-details")).toHaveTextContent("1:1 with you");
    expect(screen.getByTestId("chat-empty")).toHaveTextContent("This is your private line to Alan Turing.");
  });

  it("shows a translated error for someone who does not exist", async () => {
    withAlan().backend.install();
    window.location.hash = "#employee/999";
    renderApp();
    expect(await screen.findByTestId("error-state")).toHaveTextContent("That item no longer exists.");
  });

  it("refreshes when the employee's mind changes (domain event)", async () => {
    const { backend, alan } = withAlan();
    backend.install();
    renderApp();
    await screen.findByTestId("memories-empty");
    const m = memory("The boss likes short updates.");
    alan.memories = [m];
    backend.emit({ type: "mind_changed", employeeId: 12 });
    expect(await screen.findByTestId(`memory-${m.id}`)).toHaveTextContent("The boss likes short updates.");
  });

  it("speaks Chinese for a Chinese company", async () => {
    const { backend, alan, person } = withAlan({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    alan.relationships = [relationship(person(11), 82, "很有决断力。")];
    backend.install();
    renderApp();
    expect(await screen.findByTestId("profile-archetype")).toHaveTextContent("哲学家");
    expect(screen.getByTestId("stamina-zone")).toHaveTextContent("状态良好");
    expect(screen.getByTestId("relationship-11")).toHaveTextContent("亲近 · 82");
    expect(screen.getByTestId("profile-message-button")).toHaveTextContent("发消息");
    // The persona is shown in the company's language, not as the English prompt.
    expect(screen.getByTestId("profile-persona-text")).toHaveTextContent("爱思考，想在工作里找到意义。");
    expect(screen.getByTestId("profile-persona-text")).toHaveTextContent("语气：深思、爱发问。");
  });
});
