import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import i18n from "../i18n";
import { Fake, ipcError } from "../test/fake";
import { ChatSeed, traceEvent, traceOf } from "../test/fakeChatSeed";
import { company, fixedOrg, mailItem, workTask, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/**
 * The fixed company with two instructions: the boss asks Grace (in their chat) whether the API should
 * be REST or GraphQL — Grace takes a task, asks Alan in #API design, a call of Linus's fails, Alan
 * answers, Grace resolves the task and reports (with a copy in the mailbox); and an older one given
 * to the secretary.
 */
function withTraces(seed = fixedOrg()) {
  const chats = new ChatSeed(seed);
  const bossChat = chats.add("boss", "Grace Hopper", [11]);
  const api = chats.add("group", "API design", [11, 12, 13]);
  const at = (m: number) => `2025-03-01T10:${String(m).padStart(2, "0")}:00Z`;
  const name = (id: number) => seed.employees.find((e) => e.id === id)!.name;
  const by = (id: number) => ({ employeeId: id, actor: name(id) });
  const inChat = (chat: { id: number; name: string }) => ({ chatId: chat.id, chatName: chat.name });
  const call = "thought · openai/gpt-4.1-mini";

  const hire = traceOf("Hire a QA engineer", { origin: "secretary", createdAt: "2025-03-01T09:00:00Z", calls: 1, costUsd: 0.001 });
  hire.events.push(traceEvent({ kind: "model_call", at: "2025-03-01T09:00:00Z", text: "intent · openai/gpt-4.1-mini", costUsd: 0.001, tokens: 500, outcome: "ok" }));

  const story = traceOf("REST or GraphQL for the public API?", { chatId: bossChat.id, createdAt: at(0), calls: 3, costUsd: 0.75 }, { steps: 3, tokens: 5000 });
  const trace = story.summary;
  const t = trace.id;
  const task = workTask(11, "Recommend REST or GraphQL", { traceId: t, createdAt: at(1), status: "resolved", resolvedAt: at(8), result: "REST, with two aggregated endpoints." });
  chats.message(bossChat.id, "boss", "REST or GraphQL for the public API?", { traceId: t, createdAt: at(0) });
  const ask = chats.message(api.id, 11, "@Alan Turing REST or GraphQL?", { traceId: t, createdAt: at(2), mentions: [12] });
  chats.message(api.id, 12, "REST: simpler to cache.", { traceId: t, createdAt: at(4) });
  const report = chats.message(bossChat.id, 11, "My recommendation: REST.", { traceId: t, createdAt: at(9) });
  const mail = mailItem("report", "Recommendation: REST", { employeeId: 11, employeeName: name(11), body: report.text, traceId: t, chatId: bossChat.id, taskId: task.id, createdAt: at(9) });
  // The whole story in the backend's order (by time; at one instant, tasks before calls before thoughts).
  story.events[0] = { ...story.events[0]!, actor: seed.company!.bossName, ...inChat(bossChat) };
  story.events.push(
    traceEvent({ kind: "message", at: at(0), actor: seed.company!.bossName, text: "REST or GraphQL for the public API?", ...inChat(bossChat) }),
    traceEvent({ kind: "task_created", at: at(1), ...by(11), text: task.description, taskId: task.id }),
    traceEvent({ kind: "model_call", at: at(1), ...by(11), text: call, costUsd: 0.25, tokens: 2000, outcome: "ok" }),
    traceEvent({ kind: "thought", at: at(1), ...by(11), ...inChat(bossChat), text: "I need Alan's view first." }),
    traceEvent({ kind: "message", at: at(2), ...by(11), ...inChat(api), text: ask.text }),
    traceEvent({ kind: "model_call", at: at(3), ...by(13), text: call, costUsd: 0, tokens: 0, outcome: "error" }),
    traceEvent({ kind: "model_call", at: at(4), ...by(12), text: call, costUsd: 0.5, tokens: 3000, outcome: "ok" }),
    traceEvent({ kind: "message", at: at(4), ...by(12), ...inChat(api), text: "REST: simpler to cache." }),
    traceEvent({ kind: "task_resolved", at: at(8), ...by(11), text: task.result!, taskId: task.id }),
    traceEvent({ kind: "message", at: at(9), ...by(11), ...inChat(bossChat), text: report.text }),
    traceEvent({ kind: "mail", at: at(9), ...by(11), ...inChat(bossChat), text: mail.title, taskId: task.id, mailId: mail.id, outcome: "report" }),
  );
  const traces = [story, hire];
  const backend = new Fake(world(seed), chats.handlers())
    .on("listTraces", () => traces.map((x) => x.summary))
    .on("getTrace", ({ id }) => traces.find((x) => x.summary.id === id) ?? ipcError("not_found", `trace ${id} does not exist`));
  return { backend, story, by, inChat, chats, trace, hire: hire.summary, bossChat, api, task, ask, report, mail };
}

const kinds = () => within(screen.getByTestId("trace-timeline")).getAllByTestId(/^trace-event-\d+$/).map((li) => li.getAttribute("data-kind"));

describe("traces page", () => {
  beforeEach(() => window.history.replaceState(null, "", "#traces"));

  it("sits in the navigation after the mailbox, Approvals and Work, and lists the instructions newest first with origin, calls and cost", async () => {
    const { backend, trace, hire } = withTraces();
    backend.install();
    renderApp();

    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    const links = within(nav).getAllByRole("link").map((a) => a.getAttribute("data-testid"));
    expect(links.slice(0, 3)).toEqual(["nav-secretary", "nav-dashboard", "nav-org-chart"]);
    expect(links.indexOf("nav-approvals")).toBe(links.indexOf("nav-mailbox") + 1);
    expect(links.indexOf("nav-work")).toBe(links.indexOf("nav-approvals") + 1);
    expect(links.indexOf("nav-traces")).toBe(links.indexOf("nav-work") + 1);
    expect(within(nav).getByTestId("nav-traces")).toHaveAttribute("aria-current", "page");

    const list = await screen.findByTestId("trace-list");
    const ids = within(list)
      .getAllByRole("listitem")
      .map((li) => li.getAttribute("data-testid"));
    expect(ids).toEqual([`trace-item-${trace.id}`, `trace-item-${hire.id}`]);
    expect(screen.getByTestId(`trace-link-${trace.id}`)).toHaveAttribute("href", `#traces/${trace.id}`);
    expect(screen.getByTestId(`trace-link-${trace.id}`)).toHaveTextContent("REST or GraphQL for the public API?");
    expect(screen.getByTestId(`trace-origin-${trace.id}`)).toHaveTextContent("In a chat");
    expect(screen.getByTestId(`trace-origin-${hire.id}`)).toHaveTextContent("To the secretary");
    expect(screen.getByTestId(`trace-calls-${trace.id}`)).toHaveTextContent("3 model calls");
    expect(screen.getByTestId(`trace-calls-${hire.id}`)).toHaveTextContent("1 model call");
    expect(screen.getByTestId(`trace-cost-${trace.id}`)).toHaveTextContent("$0.75");
    expect(screen.getByTestId("traces-summary")).toHaveTextContent("2 instructions");
    expect(screen.getByTestId("traces-no-selection")).toBeInTheDocument();
  });

  it("says where instructions come from when there are none", async () => {
    new Fake(world()).install();
    renderApp();
    expect(await screen.findByTestId("traces-empty")).toHaveTextContent(
      "No instructions yet — what you tell the secretary or write in a chat shows up here",
    );
    expect(screen.getByTestId("trace-list-empty")).toBeInTheDocument();
  });

  it("shows one instruction: header figures, then messages, tasks and mail in order; thoughts and model calls on request", async () => {
    const { backend, trace, task, mail, api } = withTraces();
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    const { user } = renderApp();

    const view = await screen.findByTestId("trace-view");
    expect(view).toHaveAttribute("data-trace-id", trace.id);
    expect(backend.inputsOf("getTrace")).toEqual([{ id: trace.id }]);
    expect(screen.getByTestId("trace-instruction")).toHaveTextContent("REST or GraphQL for the public API?");
    expect(screen.getByTestId("trace-cost")).toHaveTextContent("$0.75");
    expect(screen.getByTestId("trace-calls")).toHaveTextContent("3");
    expect(screen.getByTestId("trace-tokens")).toHaveTextContent("5,000");
    // Steps: the employees' messages (Grace twice, Alan once), of the 15 allowed.
    expect(screen.getByTestId("trace-steps")).toHaveTextContent("3 of 15");
    expect(screen.getByTestId("trace-pending")).toHaveTextContent("0");
    expect(screen.queryByTestId("trace-step-cap")).not.toBeInTheDocument();
    expect(screen.getByTestId(`trace-link-${trace.id}`)).toHaveAttribute("aria-current", "page");

    // By default: the instruction (the boss's own message is not repeated), tasks, messages, mail.
    expect(kinds()).toEqual(["instruction", "task_created", "message", "message", "task_resolved", "message", "mail"]);
    expect(screen.getByTestId("trace-hidden-count")).toHaveTextContent("4");
    expect(screen.getByTestId("trace-failed-calls")).toHaveTextContent("1 model call failed");

    // Each line leads to its source.
    const link = (i: number) => screen.getByTestId(`trace-event-link-${i}`);
    expect(link(1)).toHaveAttribute("href", "#employee/11");
    expect(link(1)).toHaveTextContent("Recommend REST or GraphQL");
    expect(link(2)).toHaveAttribute("href", `#chats/${api.id}`);
    expect(link(4)).toHaveTextContent("REST, with two aggregated endpoints.");
    expect(link(6)).toHaveAttribute("href", `#mailbox/${mail.id}`);
    expect(screen.getByTestId("trace-actor-3")).toHaveAttribute("href", "#employee/12");
    expect(screen.getByTestId("trace-event-3")).toHaveTextContent("Alan Turing");
    expect(screen.getByTestId("trace-event-3")).toHaveTextContent("in API design");
    expect(task.id).toBeGreaterThan(0);

    await user.click(screen.getByTestId("trace-show-quiet"));
    expect(kinds()).toEqual([
      "instruction",
      "task_created",
      "model_call",
      "thought",
      "message",
      "model_call",
      "model_call",
      "message",
      "task_resolved",
      "message",
      "mail",
    ]);
    // The failed call is red; the others show what they cost.
    const failed = screen.getByTestId("trace-event-5");
    expect(failed).toHaveAttribute("data-failed", "true");
    expect(within(failed).getByTestId("trace-call-outcome")).toHaveTextContent("failed");
    expect(within(failed).getByTestId("trace-call-outcome")).toHaveClass("text-rose-700");
    expect(within(screen.getByTestId("trace-event-6")).getByTestId("trace-call-cost")).toHaveTextContent("$0.50");
    expect(screen.getByTestId("trace-event-6")).not.toHaveAttribute("data-failed");

    await user.click(screen.getByTestId("trace-show-quiet"));
    expect(kinds()).toHaveLength(7);
  });

  it("goes to the chat when a message is clicked", async () => {
    const { backend, trace, api, ask } = withTraces();
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    const { user } = renderApp();
    await screen.findByTestId("trace-timeline");
    await user.click(screen.getByTestId("trace-event-link-2"));
    await waitFor(() => expect(window.location.hash).toBe(`#chats/${api.id}`));
    expect(await screen.findByTestId(`chat-message-${ask.id}`)).toHaveTextContent("@Alan Turing REST or GraphQL?");
  });

  it("says when the loop guard stopped the instruction at the step cap", async () => {
    const { backend, trace, api, story, by, inChat } = withTraces();
    // Three steps so far; twelve more in the project group make fifteen.
    for (let i = 0; i < 12; i++) {
      story.events.push(traceEvent({ kind: "message", at: `2025-03-01T10:${20 + i}:00Z`, ...by(i % 2 === 0 ? 12 : 13), ...inChat(api), text: `point ${i}` }));
    }
    story.steps = 15;
    story.events.push(traceEvent({ kind: "mail", at: "2025-03-01T10:32:00Z", ...by(11), text: `Stopped: ${trace.instruction}`, mailId: 9001, outcome: "escalation" }));
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    renderApp();
    expect(await screen.findByTestId("trace-step-cap")).toHaveTextContent("Stopped at the step cap");
  });

  it("says when the loop guard stopped a run of held-back lines before the step cap", async () => {
    const { backend, trace, story, by } = withTraces();
    story.events.push(traceEvent({ kind: "mail", at: "2025-03-01T10:30:00Z", ...by(12), text: `Stopped: ${trace.instruction}`, mailId: 9002, outcome: "escalation" }));
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    renderApp();
    const banner = await screen.findByTestId("trace-step-cap");
    expect(banner).toHaveTextContent("Stopped: going round in circles");
    expect(banner).not.toHaveTextContent("15 steps");
  });

  it("says so for an unknown trace, and offers the way back", async () => {
    const { backend } = withTraces();
    backend.install();
    window.history.replaceState(null, "", "#traces/tr-000000000000");
    renderApp();
    const notFound = await screen.findByTestId("trace-not-found");
    expect(notFound).toHaveTextContent("Trace not found");
    expect(within(notFound).getByRole("link")).toHaveAttribute("href", "#traces");
    expect(backend.inputsOf("getTrace")).toEqual([{ id: "tr-000000000000" }]);
  });

  it("shows an error with a retry when a trace cannot be read", async () => {
    const { backend, trace } = withTraces();
    backend.failNext("getTrace", "internal", "db locked");
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    const { user } = renderApp();
    await screen.findByTestId("error-state");
    await user.click(screen.getByTestId("retry-button"));
    expect(await screen.findByTestId("trace-view")).toBeInTheDocument();
  });

  it("shows an approval asked for under the instruction, with where it stands, leading to its card", async () => {
    const { backend, trace, api, story, by, inChat } = withTraces();
    const waiting = { id: 7001 };
    const rejected = { id: 7002 };
    // An approval is a line of its instruction's trace: "tool: reason", with where it stands.
    story.events.push(
      traceEvent({ kind: "approval", at: "2025-03-01T10:05:00Z", ...by(13), ...inChat(api), text: "post_webhook: Tell the partners", approvalId: waiting.id, outcome: "waiting" }),
      traceEvent({ kind: "approval", at: "2025-03-01T10:06:00Z", ...by(12), text: "run_shell: Clean up", approvalId: rejected.id, outcome: "rejected" }),
    );
    expect(trace.id).toBe(story.summary.id);
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    renderApp();
    await screen.findByTestId("trace-timeline");

    const lines = within(screen.getByTestId("trace-timeline")).getAllByTestId(/^trace-event-\d+$/).filter((li) => li.getAttribute("data-kind") === "approval");
    expect(lines).toHaveLength(2);
    const [first, second] = lines as [HTMLElement, HTMLElement];
    expect(first).toHaveTextContent("Linus Torvalds");
    expect(first).toHaveTextContent("asked for approval");
    expect(first).toHaveTextContent("post_webhook: Tell the partners");
    expect(within(first).getByTestId("trace-approval-status")).toHaveTextContent("Waiting");
    expect(within(first).getByTestId("trace-approval-status").className).toContain("amber");
    expect(within(first).getByRole("link", { name: "post_webhook: Tell the partners" })).toHaveAttribute("href", `#approvals/${waiting.id}`);
    expect(within(second).getByTestId("trace-approval-status")).toHaveTextContent("Rejected");
    expect(within(second).getByTestId("trace-approval-status").className).toContain("slate");
    expect(within(second).getByRole("link", { name: "run_shell: Clean up" })).toHaveAttribute("href", `#approvals/${rejected.id}`);
  });

  it("shows what became of each tool call — refused, run after approval, failed — leading to its approval", async () => {
    const { backend, trace, story, by } = withTraces();
    const approved = { id: 7003 };
    story.events.push(
      traceEvent({ kind: "tool_call", at: "2025-03-01T10:05:00Z", ...by(13), text: "post_webhook: hooks.example.com is not on the webhook allowlist", outcome: "refused" }),
      traceEvent({ kind: "approval", at: "2025-03-01T10:06:00Z", ...by(13), text: "post_webhook: the release note", approvalId: approved.id, outcome: "approved" }),
      traceEvent({ kind: "tool_call", at: "2025-03-01T10:06:00Z", ...by(13), text: "post_webhook", approvalId: approved.id, outcome: "waiting_approval" }),
      traceEvent({ kind: "tool_call", at: "2025-03-01T10:07:00Z", ...by(13), text: "post_webhook: webhook: the server answered 502", approvalId: approved.id, outcome: "error" }),
    );
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    renderApp();
    await screen.findByTestId("trace-timeline");

    // Tool calls are not quiet lines: they show without "Show thoughts and model calls".
    const lines = within(screen.getByTestId("trace-timeline")).getAllByTestId(/^trace-event-\d+$/).filter((li) => li.getAttribute("data-kind") === "tool_call");
    expect(lines).toHaveLength(3);
    const [refused, waiting, failed] = lines as [HTMLElement, HTMLElement, HTMLElement];
    expect(refused).toHaveTextContent("used a tool");
    expect(refused).toHaveTextContent("not on the webhook allowlist");
    expect(refused).toHaveAttribute("data-failed", "true");
    expect(within(refused).getByTestId("trace-tool-outcome")).toHaveTextContent("refused");
    // A refusal with no approval leads to whoever asked.
    expect(within(refused).getByRole("link", { name: /allowlist/ })).toHaveAttribute("href", "#employee/13");
    expect(within(waiting).getByTestId("trace-tool-outcome")).toHaveTextContent("waiting for approval");
    expect(waiting).not.toHaveAttribute("data-failed");
    expect(within(failed).getByTestId("trace-tool-outcome")).toHaveTextContent("failed");
    expect(failed).toHaveAttribute("data-failed", "true");
    expect(within(failed).getByRole("link", { name: /answered 502/ })).toHaveAttribute("href", `#approvals/${approved.id}`);
  });

  it("shows a trace that made no call as costing $0.00, never a negative zero", async () => {
    const { backend, trace, story } = withTraces();
    story.summary.costUsd = -0;
    story.summary.calls = 0;
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    renderApp();
    await screen.findByTestId("trace-view");
    expect(screen.getByTestId("trace-cost")).toHaveTextContent("$0.00");
    expect(screen.getByTestId("trace-cost").textContent).not.toContain("-");
  });

  it("shows a meeting's rulings with who decided and the outcome, leading to the meeting", async () => {
    const { backend, trace, story, by, inChat, chats } = withTraces();
    const meeting = chats.add("meeting", "API roadmap", [11, 12, 13]);
    story.events.push(
      traceEvent({ kind: "ruling", at: "2025-03-01T10:10:00Z", ...by(11), ...inChat(meeting), text: "Let's move the API to GraphQL this quarter.", outcome: "rejected" }),
      traceEvent({ kind: "ruling", at: "2025-03-01T10:11:00Z", ...inChat(meeting), text: "Ship the SDK with the release?", outcome: "approved" }),
    );
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    renderApp();
    await screen.findByTestId("trace-timeline");

    const lines = within(screen.getByTestId("trace-timeline")).getAllByTestId(/^trace-event-\d+$/).filter((li) => li.getAttribute("data-kind") === "ruling");
    expect(lines).toHaveLength(2);
    const [lead, vote] = lines as [HTMLElement, HTMLElement];
    expect(lead).toHaveTextContent("Grace Hopper");
    expect(lead).toHaveTextContent("ruled on");
    expect(lead).toHaveTextContent("in API roadmap");
    expect(within(lead).getByTestId("trace-ruling-outcome")).toHaveTextContent("Rejected");
    expect(within(lead).getByRole("link", { name: "Let's move the API to GraphQL this quarter." })).toHaveAttribute("href", `#chats/${meeting.id}`);
    expect(vote).toHaveTextContent("The vote");
    expect(within(vote).getByTestId("trace-ruling-outcome")).toHaveTextContent("Approved");
  });

  it("reads a ruling in Chinese", async () => {
    const { backend, trace, story, by, inChat, chats } = withTraces({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    const meeting = chats.add("meeting", "API路线图", [11, 12, 13]);
    story.events.push(traceEvent({ kind: "ruling", at: "2025-03-01T10:10:00Z", ...by(11), ...inChat(meeting), text: "我们这个季度把API迁到GraphQL吧", outcome: "rejected" }));
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    renderApp();
    await screen.findByTestId("trace-timeline");
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    const line = within(screen.getByTestId("trace-timeline")).getAllByTestId(/^trace-event-\d+$/).find((li) => li.getAttribute("data-kind") === "ruling");
    expect(line).toHaveTextContent("作出裁定");
    expect(within(line as HTMLElement).getByTestId("trace-ruling-outcome")).toHaveTextContent("否决");
  });

  it("reads in Chinese", async () => {
    const { backend, trace } = withTraces({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    backend.install();
    window.history.replaceState(null, "", `#traces/${trace.id}`);
    renderApp();
    await screen.findByTestId("trace-view");
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    expect(screen.getByTestId("nav-traces")).toHaveTextContent("追踪");
    expect(screen.getByTestId("nav-work")).toHaveTextContent("工作");
    expect(screen.getByTestId("trace-steps")).toHaveTextContent("3 / 15");
    expect(screen.getByText("显示内心想法和模型调用")).toBeInTheDocument();
    expect(screen.getByTestId(`trace-origin-${trace.id}`)).toHaveTextContent("来自聊天");
  });
});
