import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import i18n from "../i18n";
import { Fake } from "../test/fake";
import { ChatSeed, traceOf } from "../test/fakeChatSeed";
import { company, employee, fixedOrg, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/** The fixed company: department chats for Engineering (11, 12, 13), Frontend (21, 22) and Marketing (31, 32). */
function withCompany(org = fixedOrg()) {
  const seed = new ChatSeed(org);
  const backend = new Fake(world(org), seed.handlers());
  return { backend, seed, org };
}

const chatItem = (id: number) => screen.findByTestId(`chat-item-${id}`);

describe("chats page", () => {
  beforeEach(() => window.history.replaceState(null, "", "#chats"));

  it("is in the navigation and lists every chat, the most recently active first, with kind, preview and unread count", async () => {
    const { backend, seed } = withCompany();
    const engineering = seed.department(1);
    const frontend = seed.department(2);
    const marketing = seed.department(3);
    seed.message(marketing.id, 31, "Launch copy, take three.", { createdAt: "2025-03-01T10:00:00Z" });
    seed.message(engineering.id, 11, "Morning all.", { createdAt: "2025-03-01T11:00:00Z" });
    seed.message(engineering.id, 12, "Morning! The limiter PR is up.", { createdAt: "2025-03-01T11:05:00Z" });
    // The backend's order (the most recently active first) and unread counts, shown as given.
    seed.chats = [engineering, marketing, frontend];
    Object.assign(engineering, { unread: 2 });
    Object.assign(marketing, { unread: 1 });
    backend.install();
    renderApp();

    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    expect(within(nav).getByTestId("nav-chats")).toHaveAttribute("href", "#chats");
    expect(await within(nav).findByTestId("nav-chats-unread")).toHaveTextContent("3");

    const list = await screen.findByTestId("chat-list");
    const ids = within(list)
      .getAllByRole("link")
      .map((a) => a.getAttribute("data-testid"));
    expect(ids).toEqual([`chat-item-${engineering.id}`, `chat-item-${marketing.id}`, `chat-item-${frontend.id}`]);
    const item = screen.getByTestId(`chat-item-${engineering.id}`);
    expect(item).toHaveTextContent("Engineering");
    expect(screen.getByTestId(`chat-kind-${engineering.id}`)).toHaveTextContent("Department");
    expect(item).toHaveTextContent("Alan: Morning! The limiter PR is up.");
    expect(screen.getByTestId(`chat-unread-${engineering.id}`)).toHaveTextContent("2");
    expect(screen.getByTestId(`chat-unread-${marketing.id}`)).toHaveTextContent("1");
    expect(screen.queryByTestId(`chat-unread-${frontend.id}`)).not.toBeInTheDocument();
    expect(screen.getByTestId(`chat-item-${frontend.id}`)).toHaveTextContent("No messages yet");
    // Nothing picked yet: an invitation to pick one.
    expect(screen.getByTestId("chats-no-selection")).toBeInTheDocument();
    expect(screen.getByTestId("nav-chats")).toHaveAttribute("aria-current", "page");
  });

  it("opens a chat: messages with sender names and avatars, the boss on the right, system notes centred, members linked", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    const joined = seed.message(chat.id, "system", "Alan Turing joined Engineering");
    const hello = seed.message(chat.id, 12, "Hi all, I'm Alan.");
    const boss = seed.message(chat.id, "boss", "@Grace Hopper please review Alan's PR.", { mentions: [11] });
    const reply = seed.message(chat.id, 11, "On it, @Alan Turing.", { mentions: [12] });
    backend.install();
    const { user } = renderApp();

    await user.click(await chatItem(chat.id));
    expect(window.location.hash).toBe(`#chats/${chat.id}`);
    const view = await screen.findByTestId("chat-view");
    expect(within(view).getByTestId("chat-title")).toHaveTextContent("Engineering");
    expect(within(view).getByTestId("chat-details")).toHaveTextContent("Department · Casual");
    expect(screen.getByTestId(`chat-item-${chat.id}`)).toHaveAttribute("aria-current", "page");

    expect(screen.getByTestId(`chat-message-${joined.id}`)).toHaveAttribute("data-sender", "system");
    expect(screen.getByTestId(`chat-message-${joined.id}`)).toHaveClass("justify-center");
    const fromAlan = screen.getByTestId(`chat-message-${hello.id}`);
    expect(fromAlan).toHaveAttribute("data-sender", "employee");
    expect(within(fromAlan).getByTestId(`chat-message-${hello.id}-sender`)).toHaveTextContent("Alan Turing");
    expect(within(fromAlan).getByTestId(`chat-message-${hello.id}-sender`)).toHaveAttribute("href", "#employee/12");
    expect(fromAlan).toHaveTextContent("AT");
    const fromBoss = screen.getByTestId(`chat-message-${boss.id}`);
    expect(fromBoss).toHaveAttribute("data-sender", "boss");
    expect(fromBoss).toHaveClass("items-end");

    // @mentions the backend recorded are highlighted, and only those.
    const mention = fromBoss.querySelector("[data-mention]");
    expect(mention).toHaveTextContent("@Grace Hopper");
    expect(mention).toHaveAttribute("data-mention", "11");
    expect(screen.getByTestId(`chat-message-${reply.id}`).querySelector("[data-mention]")).toHaveTextContent("@Alan Turing");
    expect(fromAlan.querySelector("[data-mention]")).toBeNull();

    // Members in the header, each a link to their profile.
    const members = within(screen.getByTestId("chat-members")).getAllByRole("link");
    expect(members.map((a) => a.getAttribute("href"))).toEqual(["#employee/11", "#employee/12", "#employee/13"]);
    expect(screen.getByRole("link", { name: "Open Grace Hopper's profile" })).toBeInTheDocument();
  });

  it("shows a chat between people: each proxy-written line marked, a person's correction marked, in en and zh-CN", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.add("people", "Lin · Sam", []);
    const asked = seed.message(chat.id, "system", "Lin asks for an estimate of the onboarding work", { senderKind: "proxy", senderPersonId: 7, senderName: "Lin" });
    const answer = seed.message(chat.id, "system", "About three days", { senderKind: "proxy", senderPersonId: 8, senderName: "Sam" });
    const fixed = seed.message(chat.id, "system", "I need onboarding and the invite flow", { senderKind: "person", senderPersonId: 7, senderName: "Lin", correctsId: asked.id });
    backend.install();
    const { user } = renderApp();

    const item = await chatItem(chat.id);
    expect(item).toHaveTextContent("People (through their proxies)");
    expect(item).toHaveTextContent("Lin: I need onboarding and the invite flow");
    await user.click(item);
    const first = await screen.findByTestId(`chat-message-${asked.id}`);
    expect(first).toHaveAttribute("data-sender", "proxy");
    expect(first).toHaveTextContent("Lin");
    expect(within(first).getByTestId(`chat-message-${asked.id}-proxy`)).toHaveTextContent("via proxy");
    expect(within(screen.getByTestId(`chat-message-${answer.id}`)).getByTestId(`chat-message-${answer.id}-proxy`)).toBeInTheDocument();
    const correction = screen.getByTestId(`chat-message-${fixed.id}`);
    expect(correction).toHaveAttribute("data-sender", "person");
    expect(within(correction).queryByTestId(`chat-message-${fixed.id}-proxy`)).toBeNull();
    expect(within(correction).getByTestId(`chat-message-${fixed.id}-correction`)).toHaveTextContent("Correction");
  });

  it("marks proxy-written lines and corrections in Chinese too", async () => {
    const { backend, seed } = withCompany({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    const chat = seed.add("people", "林 · Sam", []);
    const asked = seed.message(chat.id, "system", "林想问：上线要多久", { senderKind: "proxy", senderPersonId: 7, senderName: "林" });
    const fixed = seed.message(chat.id, "system", "是下周上线", { senderKind: "person", senderPersonId: 7, senderName: "林", correctsId: asked.id });
    backend.install();
    const { user } = renderApp();
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    const item = await chatItem(chat.id);
    expect(item).toHaveTextContent("人员（通过代理）");
    await user.click(item);
    expect(await screen.findByTestId(`chat-message-${asked.id}-proxy`)).toHaveTextContent("代理代写");
    expect(screen.getByTestId(`chat-message-${fixed.id}-correction`)).toHaveTextContent("更正");
  });

  it("links messages that belong to an instruction to its trace, and no others", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    const trace = traceOf("Ship the limiter", { chatId: chat.id });
    const plain = seed.message(chat.id, 12, "Morning all.");
    const boss = seed.message(chat.id, "boss", "Ship the limiter", { traceId: trace.summary.id });
    const reply = seed.message(chat.id, 11, "On it.", { traceId: trace.summary.id });
    backend.answer("getTrace", trace).install();
    window.history.replaceState(null, "", `#chats/${chat.id}`);
    const { user } = renderApp();

    await screen.findByTestId(`chat-message-${boss.id}`);
    expect(screen.queryByTestId(`chat-message-${plain.id}-trace`)).not.toBeInTheDocument();
    const link = screen.getByTestId(`chat-message-${boss.id}-trace`);
    expect(link).toHaveAttribute("href", `#traces/${trace.summary.id}`);
    expect(link).toHaveAccessibleName("Open the trace of this message");
    expect(screen.getByTestId(`chat-message-${reply.id}-trace`)).toHaveAttribute("href", `#traces/${trace.summary.id}`);
    await user.click(link);
    expect(await screen.findByTestId("trace-instruction")).toHaveTextContent("Ship the limiter");
  });

  it("marks a chat read when it is opened, and again when a message arrives while it is open", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    seed.message(chat.id, 12, "First.");
    seed.message(chat.id, 13, "Second.");
    chat.unread = 2;
    backend.on("markChatRead", () => {
      chat.unread = 0;
      return null;
    });
    backend.install();
    const { user } = renderApp();

    expect(await screen.findByTestId(`chat-unread-${chat.id}`)).toHaveTextContent("2");
    await user.click(screen.getByTestId(`chat-item-${chat.id}`));
    await waitFor(() => expect(backend.inputsOf("markChatRead")).toEqual([{ chatId: chat.id }]));
    await waitFor(() => expect(screen.queryByTestId(`chat-unread-${chat.id}`)).not.toBeInTheDocument());
    expect(screen.queryByTestId("nav-chats-unread")).not.toBeInTheDocument();

    // Someone speaks while the boss is reading: it shows up, and is read at once.
    const later = seed.message(chat.id, 11, "Standup in five.");
    chat.unread = 1;
    backend.emit({ type: "chat_message_posted", chatId: chat.id, messageId: later.id });
    expect(await screen.findByTestId(`chat-message-${later.id}`)).toHaveTextContent("Standup in five.");
    await waitFor(() => expect(backend.inputsOf("markChatRead")).toEqual([{ chatId: chat.id }, { chatId: chat.id }]));
    await waitFor(() => expect(chat.unread).toBe(0));
    expect(screen.queryByTestId(`chat-unread-${chat.id}`)).not.toBeInTheDocument();
  });

  it("does not mark a chat read that has nothing unread", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    seed.message(chat.id, "boss", "Welcome, everyone.");
    backend.install();
    renderApp();
    window.location.hash = `#chats/${chat.id}`;
    expect(await screen.findByTestId("chat-view")).toBeInTheDocument();
    expect(backend.callsOf("markChatRead")).toHaveLength(0);
  });

  it("posts with Enter (Shift+Enter is a new line), disabled while sending, then clears the composer", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    let release!: () => void;
    // The backend records the mention it found; the UI highlights what it is told.
    backend.on("postMessage", ({ chatId, text }) => seed.message(chatId, "boss", text, { mentions: [12] }));
    backend.hold("postMessage", new Promise<void>((r) => (release = r)));
    backend.install();
    window.location.hash = `#chats/${chat.id}`;
    const { user } = renderApp();

    const input = await screen.findByTestId("chat-input");
    expect(screen.getByTestId("chat-empty")).toHaveTextContent("Nothing said yet");
    expect(screen.getByTestId("chat-send")).toBeDisabled();
    await user.type(input, "Ship it{Shift>}{Enter}{/Shift}@Alan Turing takes the limiter");
    expect(backend.callsOf("postMessage")).toHaveLength(0);
    expect(input).toHaveValue("Ship it\n@Alan Turing takes the limiter");

    await user.keyboard("{Enter}");
    await waitFor(() => expect(input).toBeDisabled());
    expect(screen.getByTestId("chat-send")).toBeDisabled();
    expect(input).toHaveValue("Ship it\n@Alan Turing takes the limiter");
    expect(backend.inputsOf("postMessage")).toEqual([{ chatId: chat.id, text: "Ship it\n@Alan Turing takes the limiter" }]);

    release();
    const posted = await waitFor(() => {
      const m = seed.messages.at(-1);
      expect(m).toBeDefined();
      return m!;
    });
    const bubble = await screen.findByTestId(`chat-message-${posted.id}`);
    expect(bubble).toHaveAttribute("data-sender", "boss");
    expect(bubble.querySelector("[data-mention='12']")).toHaveTextContent("@Alan Turing");
    await waitFor(() => expect(input).toHaveValue(""));
    expect(input).toBeEnabled();
    expect(input).toHaveFocus();
    // The boss's own words are never unread.
    expect(screen.queryByTestId(`chat-unread-${chat.id}`)).not.toBeInTheDocument();
  });

  it("keeps the text and shows the translated error when posting fails", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    backend.on("postMessage", ({ chatId, text }) => seed.message(chatId, "boss", text));
    backend.failNext("postMessage", "invalid_input", "the message is empty");
    backend.install();
    window.location.hash = `#chats/${chat.id}`;
    const { user } = renderApp();

    const input = await screen.findByTestId("chat-input");
    await user.type(input, "Please review{Enter}");
    expect(await screen.findByTestId("chat-send-error")).toHaveTextContent(
      "Your message was not sent: Some of the details are not valid. Check them and try again.",
    );
    expect(input).toHaveValue("Please review");
    expect(seed.messages).toHaveLength(0);

    // Sending again works, and the error goes with it.
    await user.click(screen.getByTestId("chat-send"));
    await waitFor(() => expect(backend.inputsOf("postMessage")).toEqual([0, 1].map(() => ({ chatId: chat.id, text: "Please review" }))));
    expect(seed.messages).toHaveLength(1);
    await waitFor(() => expect(input).toHaveValue(""));
    expect(screen.queryByTestId("chat-send-error")).not.toBeInTheDocument();
  });

  it("counts characters near the limit and refuses a message over 4000", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    backend.install();
    window.location.hash = `#chats/${chat.id}`;
    const { user } = renderApp();
    const input = await screen.findByTestId("chat-input");
    await user.click(input);
    await user.paste("x".repeat(3990));
    expect(screen.getByTestId("chat-char-count")).toHaveTextContent("10 characters left");
    await user.paste("y".repeat(15));
    expect(screen.getByTestId("chat-char-count")).toHaveTextContent("5 characters too long");
    expect(screen.getByTestId("chat-send")).toBeDisabled();
    await user.keyboard("{Enter}");
    expect(backend.callsOf("postMessage")).toHaveLength(0);
  });

  it("shows inner thoughts only when asked, interleaved by time, with why someone stayed silent", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    const first = seed.message(chat.id, "boss", "Who can take the rate limiter?", { createdAt: "2025-03-01T10:00:00Z" });
    const saturated = seed.thought(13, chat.id, {
      innerThoughts: "Rate limiting again. We've been over this twice.",
      shouldSpeak: true,
      silencedBy: "saturation",
      interest: 4,
      saturation: 8,
      createdAt: "2025-03-01T10:00:20Z",
    });
    const chose = seed.thought(12, chat.id, {
      innerThoughts: "Grace will answer; I'll wait.",
      reason: "Grace is the lead, it's her call.",
      interest: 6,
      saturation: 3,
      createdAt: "2025-03-01T10:00:30Z",
    });
    const spoke = seed.thought(11, chat.id, {
      innerThoughts: "Alan knows the gateway best.",
      shouldSpeak: true,
      spoke: true,
      reason: "The boss asked.",
      createdAt: "2025-03-01T10:00:40Z",
    });
    const answer = seed.message(chat.id, 11, "Alan will take it.", { createdAt: "2025-03-01T10:00:40Z" });
    backend.install();
    window.location.hash = `#chats/${chat.id}`;
    const { user } = renderApp();

    await screen.findByTestId(`chat-message-${answer.id}`);
    const toggle = screen.getByRole("switch", { name: /Show inner thoughts/ });
    expect(toggle).toHaveAttribute("aria-checked", "false");
    expect(toggle).toHaveTextContent("3");
    expect(screen.queryByTestId(`chat-thought-${saturated.id}`)).not.toBeInTheDocument();

    await user.click(toggle);
    expect(toggle).toHaveAttribute("aria-checked", "true");
    const gated = await screen.findByTestId(`chat-thought-${saturated.id}`);
    expect(gated).toHaveTextContent("Linus Torvalds thought: Rate limiting again. We've been over this twice.");
    expect(screen.getByTestId(`chat-thought-${saturated.id}-outcome`)).toHaveTextContent(
      "Wanted to speak, but stayed silent: the topic felt talked out",
    );
    expect(gated).toHaveTextContent("Interest 4/10 · Saturation 8/10");
    expect(gated.querySelector("p")).toHaveClass("italic");
    expect(screen.getByTestId(`chat-thought-${chose.id}-outcome`)).toHaveTextContent(
      "Chose to stay silent: Grace is the lead, it's her call.",
    );
    expect(screen.getByTestId(`chat-thought-${spoke.id}-outcome`)).toHaveTextContent("Spoke up");

    // In time order, a thought before the message it led to.
    const order = [...screen.getByTestId("chat-messages").querySelectorAll("[data-testid^='chat-message-'], [data-testid^='chat-thought-']")]
      .map((el) => el.getAttribute("data-testid"))
      .filter((id) => /^chat-(message|thought)-\d+$/.test(id ?? ""));
    expect(order).toEqual([
      `chat-message-${first.id}`,
      `chat-thought-${saturated.id}`,
      `chat-thought-${chose.id}`,
      `chat-thought-${spoke.id}`,
      `chat-message-${answer.id}`,
    ]);

    await user.click(toggle);
    expect(screen.queryByTestId(`chat-thought-${saturated.id}`)).not.toBeInTheDocument();
  });

  it("says in words why a thought failed, with the raw error on hover", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    const failed = seed.thought(11, chat.id, {
      silencedBy: "model_error",
      reason: "the built-in model is not installed at /models/x.gguf",
    });
    const repeated = seed.thought(12, chat.id, { innerThoughts: "Same as before.", shouldSpeak: true, silencedBy: "repetition" });
    backend.install();
    window.location.hash = `#chats/${chat.id}`;
    const { user } = renderApp();
    await user.click(await screen.findByTestId("thoughts-toggle"));
    const card = await screen.findByTestId(`chat-thought-${failed.id}`);
    expect(card).toHaveTextContent("Grace Hopper could not think this through: the model could not be reached.");
    expect(card).toHaveAttribute("title", "the built-in model is not installed at /models/x.gguf");
    expect(card).not.toHaveTextContent("Chose to stay silent");
    expect(screen.getByTestId(`chat-thought-${repeated.id}-outcome`)).toHaveTextContent(
      "Wanted to speak, but stayed silent: they would only have repeated themselves",
    );
  });

  it("folds a run of failed thoughts into one line", async () => {
    const { backend, seed } = withCompany();
    const chat = seed.department(1);
    const first = seed.thought(11, chat.id, { silencedBy: "model_error", reason: "unreachable", createdAt: "2025-03-01T10:00:00Z" });
    seed.thought(12, chat.id, { silencedBy: "model_error", reason: "unreachable", createdAt: "2025-03-01T10:01:00Z" });
    seed.thought(11, chat.id, { silencedBy: "model_error", reason: "unreachable", createdAt: "2025-03-01T10:02:00Z" });
    backend.install();
    window.location.hash = `#chats/${chat.id}`;
    const { user } = renderApp();
    await user.click(await screen.findByTestId("thoughts-toggle"));
    const line = await screen.findByTestId(`chat-failed-thoughts-${first.id}`);
    expect(line).toHaveTextContent("3 thoughts in a row could not be completed: the model could not be reached.");
    expect(line).toHaveTextContent("Tried by Grace Hopper and Alan Turing");
    expect(screen.queryByTestId(`chat-thought-${first.id}`)).not.toBeInTheDocument();
  });

  it("creates a group of at least two people and opens it", async () => {
    const { backend, seed } = withCompany();
    backend.on("createGroup", ({ name, memberIds, mode }) => seed.add("group", name, memberIds, { mode }));
    backend.install();
    const { user } = renderApp();

    await user.click(await screen.findByTestId("new-group-button"));
    const dialog = screen.getByRole("dialog", { name: "New group" });
    expect(within(dialog).getByTestId("group-mode-casual")).toBeChecked();

    await user.click(within(dialog).getByTestId("group-submit"));
    expect(within(dialog).getByText("Enter a group name.")).toBeInTheDocument();
    expect(within(dialog).getByText("Pick at least two people.")).toBeInTheDocument();

    await user.type(within(dialog).getByTestId("group-name-input"), "Launch crew");
    await user.click(within(dialog).getByTestId("group-member-31"));
    await user.click(within(dialog).getByTestId("group-submit"));
    expect(backend.callsOf("createGroup")).toHaveLength(0);
    expect(within(dialog).getByTestId("group-selected-count")).toHaveTextContent("1 selected");

    // With many people, a search narrows the list.
    await user.type(within(dialog).getByTestId("group-member-search"), "peggy");
    expect(within(dialog).queryByTestId("group-member-11")).not.toBeInTheDocument();
    await user.click(within(dialog).getByTestId("group-member-32"));
    await user.click(within(dialog).getByTestId("group-mode-work"));
    await user.click(within(dialog).getByTestId("group-submit"));

    await waitFor(() => expect(backend.inputsOf("createGroup")).toEqual([{ name: "Launch crew", memberIds: [31, 32], mode: "work" }]));
    const group = seed.chats.at(-1)!;
    await waitFor(() => expect(window.location.hash).toBe(`#chats/${group.id}`));
    expect(screen.queryByRole("dialog")).not.toBeInTheDocument();
    expect(await screen.findByTestId("chat-title")).toHaveTextContent("Launch crew");
    expect(screen.getByTestId("chat-details")).toHaveTextContent("Group · Work");
    expect(await chatItem(group.id)).toHaveTextContent("Group");
  });

  it("says how to get chats when there are none", async () => {
    withCompany({ company: company(), departments: [], teams: [], employees: [] }).backend.install();
    renderApp();
    const empty = await screen.findByTestId("chats-empty");
    expect(empty).toHaveTextContent("No chats yet");
    expect(empty).toHaveTextContent("Hire people and they'll join their department's chat.");
    expect(screen.getByTestId("new-group-button")).toBeDisabled();
  });

  it("shows a new hire's department chat when the backend announces it", async () => {
    const { backend, seed, org } = withCompany({ ...fixedOrg(), employees: [] });
    backend.install();
    renderApp();
    expect(await screen.findByTestId("chats-empty")).toBeInTheDocument();
    // Hired elsewhere (the secretary, another window): the backend made the chat and says so.
    org.employees.push(employee(51, "Ada", 1));
    const chat = seed.add("department", "Engineering", [51], { departmentId: 1 });
    backend.emit({ type: "employee_hired", employeeId: 51 });
    backend.emit({ type: "chat_changed", chatId: chat.id });
    expect(await chatItem(chat.id)).toHaveTextContent("Engineering");
  });

  it("shows a translated error with a retry when a chat cannot be opened", async () => {
    withCompany().backend.install();
    window.location.hash = "#chats/999";
    renderApp();
    const error = await screen.findByTestId("error-state");
    expect(error).toHaveTextContent("That item no longer exists.");
  });

  it("speaks Chinese for a Chinese company", async () => {
    const { backend, seed } = withCompany({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    const chat = seed.department(1);
    seed.thought(13, chat.id, { innerThoughts: "又是这个话题。", shouldSpeak: true, silencedBy: "cooldown" });
    backend.install();
    window.location.hash = `#chats/${chat.id}`;
    const { user } = renderApp();
    await user.click(await screen.findByRole("switch", { name: /显示内心想法/ }));
    expect(await screen.findByText("想说话，但最终没开口：刚刚才发过言")).toBeInTheDocument();
    expect(screen.getByTestId("chat-details")).toHaveTextContent("部门群 · 闲聊");
  });
});
