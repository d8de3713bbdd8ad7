import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import i18n from "../i18n";
import type { TaskDto } from "../bindings/TaskDto";
import type { TaskNodeDto } from "../bindings/TaskNodeDto";
import { Fake } from "../test/fake";
import { ChatSeed } from "../test/fakeChatSeed";
import { boardDesk, boardItem, company, fixedOrg, requirement, taskNode, workTask, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/**
 * The fixed company with three requirements: the Public API in progress (Grace reviews; Alan's draft
 * was rejected once, his rework is under review, Linus's load test is done under a trace), the login
 * page open with no reviewer and no tasks, and taglines done.
 */
function withBoard(seed = fixedOrg()) {
  const chats = new ChatSeed(seed);
  const apiChat = chats.add("requirement", "Public API", [11, 12, 13]);
  const api = requirement("Public API", {
    description: "Orders and invoices for partners.",
    departmentId: 1,
    status: "in_progress",
    chatId: apiChat.id,
    reviewerId: 11,
    createdAt: "2025-03-01T10:00:00Z",
  });
  const draft = workTask(12, "Draft the REST endpoints", {
    requirementId: api.id,
    status: "resolved",
    resolvedAt: "2025-03-01T11:00:00Z",
    result: "Six endpoints in the OpenAPI file.",
    createdAt: "2025-03-01T10:01:00Z",
  });
  const review = workTask(11, "Review: Draft the REST endpoints", {
    requirementId: api.id,
    status: "resolved",
    resolvedAt: "2025-03-01T11:10:00Z",
    reviewOf: draft.id,
    result: "Rejected: no pagination.",
    createdAt: "2025-03-01T11:00:00Z",
  });
  const rework = workTask(12, "Draft the REST endpoints", { requirementId: api.id, parentTaskId: draft.id, attempt: 2, createdAt: "2025-03-01T11:10:00Z" });
  const load = workTask(13, "Load test REST against GraphQL", {
    requirementId: api.id,
    status: "resolved",
    resolvedAt: "2025-03-01T11:30:00Z",
    traceId: "tr-0a1b2c3d4e5f",
    createdAt: "2025-03-01T11:20:00Z",
  });
  const login = requirement("Login page redesign", { departmentId: 2, createdAt: "2025-03-01T12:00:00Z" });
  const taglines = requirement("Launch taglines", { departmentId: 3, status: "done", createdAt: "2025-03-01T09:00:00Z" });
  const node = (t: TaskDto, children: TaskNodeDto[] = []) => taskNode(seed, t, children);
  // As the backend builds it: the review and the rework under the draft they review and redo.
  const apiItem = boardItem(seed, api, [node(draft, [node(review), node(rework)]), node(load)], { tasksPending: 1, tasksDone: 3 });
  const items = [boardItem(seed, login), apiItem, boardItem(seed, taglines)];
  const backend = new Fake(world(seed), chats.handlers(), boardDesk(seed, items));
  return { backend, items, apiItem, node, api, apiChat, draft, review, rework, load, login, taglines };
}

const inColumn = (status: string) =>
  within(screen.getByTestId(`board-column-${status}`))
    .queryAllByRole("article")
    .map((a) => a.getAttribute("data-testid"));

describe("work page", () => {
  beforeEach(() => window.history.replaceState(null, "", "#work"));

  it("shows one column per status with its count, and each requirement's department, reviewer, progress and chat", async () => {
    const { backend, api, apiChat, login, taglines } = withBoard();
    backend.install();
    renderApp();

    await screen.findByTestId("board");
    expect(screen.getByTestId("nav-work")).toHaveAttribute("aria-current", "page");
    expect(inColumn("open")).toEqual([`requirement-${login.id}`]);
    expect(inColumn("in_progress")).toEqual([`requirement-${api.id}`]);
    expect(inColumn("done")).toEqual([`requirement-${taglines.id}`]);
    expect(inColumn("cancelled")).toEqual([]);
    expect(screen.getByTestId("board-count-in_progress")).toHaveTextContent("1");
    expect(screen.getByTestId("board-count-cancelled")).toHaveTextContent("0");
    expect(screen.getByTestId("board-column-in_progress")).toHaveTextContent("In progress");
    expect(screen.getByTestId("work-summary")).toHaveTextContent("3 requirements");

    expect(screen.getByTestId(`requirement-name-${api.id}`)).toHaveTextContent("Public API");
    expect(screen.getByTestId(`requirement-department-${api.id}`)).toHaveTextContent("Engineering");
    expect(screen.getByTestId(`requirement-progress-${api.id}`)).toHaveTextContent("1 pending·3 done");
    expect(screen.getByTestId(`requirement-reviewer-${api.id}`)).toHaveValue("11");
    expect(screen.getByTestId(`requirement-reviewer-${login.id}`)).toHaveValue("");
    expect(screen.getByTestId(`requirement-status-${api.id}`)).toHaveValue("in_progress");
    expect(screen.getByTestId(`requirement-chat-${api.id}`)).toHaveAttribute("href", `#chats/${apiChat.id}`);
    expect(screen.queryByTestId(`requirement-chat-${login.id}`)).not.toBeInTheDocument();
    expect(screen.getByTestId(`requirement-toggle-${login.id}`)).toBeDisabled();
  });

  it("sets and removes the reviewer", async () => {
    const { backend, login, api } = withBoard();
    backend.install();
    const { user } = renderApp();
    await screen.findByTestId("board");

    await user.selectOptions(screen.getByTestId(`requirement-reviewer-${login.id}`), "Margaret Hamilton");
    await waitFor(() => expect(backend.inputsOf("setReviewer")).toEqual([{ requirementId: login.id, reviewerId: 21 }]));
    await waitFor(() => expect(screen.getByTestId(`requirement-reviewer-${login.id}`)).toHaveValue("21"));
    expect(login.reviewerId).toBe(21);

    await user.selectOptions(screen.getByTestId(`requirement-reviewer-${api.id}`), "No reviewer");
    await waitFor(() => expect(backend.inputsOf("setReviewer")).toContainEqual({ requirementId: api.id, reviewerId: null }));
    await waitFor(() => expect(screen.getByTestId(`requirement-reviewer-${api.id}`)).toHaveValue(""));
  });

  it("says why a reviewer could not be set", async () => {
    const { backend, login } = withBoard();
    backend.failNext("setReviewer", "not_found", "employee 21 does not exist");
    backend.install();
    const { user } = renderApp();
    await screen.findByTestId("board");
    await user.selectOptions(screen.getByTestId(`requirement-reviewer-${login.id}`), "Margaret Hamilton");
    expect(await screen.findByTestId(`requirement-error-${login.id}`)).toHaveTextContent("Not changed");
    expect(screen.getByTestId(`requirement-reviewer-${login.id}`)).toHaveValue("");
  });

  it("moves a requirement to another column", async () => {
    const { backend, login } = withBoard();
    backend.install();
    const { user } = renderApp();
    await screen.findByTestId("board");

    await user.selectOptions(screen.getByTestId(`requirement-status-${login.id}`), "In progress");
    await waitFor(() => expect(backend.inputsOf("setRequirementStatus")).toEqual([{ requirementId: login.id, status: "in_progress" }]));
    await waitFor(() => expect(inColumn("in_progress")).toContain(`requirement-${login.id}`));
    expect(inColumn("open")).toEqual([]);
    expect(screen.getByTestId("board-count-open")).toHaveTextContent("0");
  });

  it("unfolds the task tree: reworks and reviews under the work they redo and review, with badges, results and trace links", async () => {
    const { backend, api, draft, review, rework, load } = withBoard();
    backend.install();
    const { user } = renderApp();
    await screen.findByTestId("board");

    const toggle = screen.getByTestId(`requirement-toggle-${api.id}`);
    expect(toggle).toHaveTextContent("4 tasks");
    expect(toggle).toHaveAttribute("aria-expanded", "false");
    await user.click(toggle);
    const tree = screen.getByTestId(`requirement-tree-${api.id}`);
    const lines = within(tree).getAllByRole("listitem").map((li) => [li.getAttribute("data-testid"), li.getAttribute("data-depth")]);
    expect(lines).toEqual([
      [`task-node-${draft.id}`, "0"],
      [`task-node-${review.id}`, "1"],
      [`task-node-${rework.id}`, "1"],
      [`task-node-${load.id}`, "0"],
    ]);
    expect(screen.getByTestId(`task-review-${review.id}`)).toHaveTextContent("review");
    expect(screen.getByTestId(`task-rework-${rework.id}`)).toHaveTextContent("rework 2");
    expect(screen.queryByTestId(`task-rework-${draft.id}`)).not.toBeInTheDocument();
    expect(screen.getByTestId(`task-status-${rework.id}`)).toHaveTextContent("Pending");
    expect(screen.getByTestId(`task-status-${draft.id}`)).toHaveTextContent("Done");
    expect(screen.getByTestId(`task-owner-${rework.id}`)).toHaveAttribute("href", "#employee/12");
    expect(screen.getByTestId(`task-trace-${load.id}`)).toHaveAttribute("href", "#traces/tr-0a1b2c3d4e5f");
    expect(screen.queryByTestId(`task-trace-${draft.id}`)).not.toBeInTheDocument();

    await user.click(screen.getByTestId(`task-result-toggle-${review.id}`));
    expect(screen.getByTestId(`task-result-${review.id}`)).toHaveTextContent("Rejected: no pagination.");
  });

  it("marks ongoing and conditional tasks, with the condition, and leaves one-shot tasks unmarked", async () => {
    const { backend, api, draft, apiItem, node } = withBoard();
    const watch = workTask(13, "Watch the error rate after launch", { requirementId: api.id, kind: "long_running", createdAt: "2025-03-01T12:00:00Z" });
    const when = workTask(12, "Roll back the gateway", {
      requirementId: api.id,
      kind: "conditional",
      condition: "p95 latency above 200 ms",
      createdAt: "2025-03-01T12:01:00Z",
    });
    const bare = workTask(12, "Rotate the keys", { requirementId: api.id, kind: "conditional", createdAt: "2025-03-01T12:02:00Z" });
    apiItem.tree.push(node(watch), node(when), node(bare));
    backend.install();
    const { user } = renderApp();
    await screen.findByTestId("board");
    await user.click(screen.getByTestId(`requirement-toggle-${api.id}`));

    expect(screen.getByTestId(`task-kind-${watch.id}`)).toHaveTextContent("ongoing");
    expect(screen.getByTestId(`task-kind-${watch.id}`)).toHaveAttribute("data-kind", "long_running");
    expect(screen.getByTestId(`task-kind-${when.id}`)).toHaveTextContent("when: p95 latency above 200 ms");
    expect(screen.getByTestId(`task-kind-${when.id}`)).toHaveAttribute("title", "Runs when the condition holds: p95 latency above 200 ms");
    expect(screen.getByTestId(`task-kind-${bare.id}`)).toHaveTextContent("conditional");
    expect(screen.queryByTestId(`task-kind-${draft.id}`)).not.toBeInTheDocument();
  });

  it("marks task kinds in Chinese", async () => {
    const { backend, api, apiItem, node } = withBoard({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    const watch = workTask(13, "盯着上线后的错误率", { requirementId: api.id, kind: "long_running" });
    const when = workTask(12, "回滚网关", { requirementId: api.id, kind: "conditional", condition: "p95 延迟超过 200 毫秒" });
    apiItem.tree.push(node(watch), node(when));
    backend.install();
    const { user } = renderApp();
    await screen.findByTestId("board");
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    await user.click(screen.getByTestId(`requirement-toggle-${api.id}`));
    expect(screen.getByTestId(`task-kind-${watch.id}`)).toHaveTextContent("持续");
    expect(screen.getByTestId(`task-kind-${when.id}`)).toHaveTextContent("条件：p95 延迟超过 200 毫秒");
  });

  it("shows who owns a requirement, and one waiting for the boss says so, with its escalated work not shown as done", async () => {
    const seed = fixedOrg();
    const checkout = requirement("Checkout", { departmentId: 1, status: "waiting_for_boss", ownerId: 11, createdAt: "2025-03-02T09:00:00Z" });
    const rework = workTask(12, "Rework the payment form (attempt 2)", { requirementId: checkout.id, status: "escalated", attempt: 1 });
    const nobody = requirement("Icons", { departmentId: 3, createdAt: "2025-03-02T10:00:00Z" });
    const items = [boardItem(seed, nobody), boardItem(seed, checkout, [taskNode(seed, rework)])];
    new Fake(world(seed), boardDesk(seed, items)).install();
    const { user } = renderApp();
    await screen.findByTestId("board");

    expect(inColumn("waiting_for_boss")).toEqual([`requirement-${checkout.id}`]);
    expect(screen.getByTestId("board-column-waiting_for_boss")).toHaveTextContent("Waiting for you");
    expect(screen.getByTestId("board-column-in_review")).toHaveTextContent("In review");
    expect(screen.getByTestId(`requirement-waiting-${checkout.id}`)).toHaveTextContent("went to you");
    expect(screen.getByTestId(`requirement-owner-${checkout.id}`)).toHaveTextContent("Grace Hopper");
    expect(screen.getByTestId(`requirement-owner-${nobody.id}`)).toHaveTextContent("Nobody yet");
    expect(screen.getByTestId(`requirement-unowned-${nobody.id}`)).toHaveTextContent("starts when someone joins");
    expect(screen.queryByTestId(`requirement-waiting-${nobody.id}`)).not.toBeInTheDocument();

    await user.click(screen.getByTestId(`requirement-toggle-${checkout.id}`));
    expect(screen.getByTestId(`task-status-${rework.id}`)).toHaveTextContent("Waiting for you");
    expect(screen.getByTestId(`task-node-${rework.id}`)).toHaveAttribute("data-status", "escalated");
  });

  it("says in Chinese that a requirement waits for the boss", async () => {
    const seed = { ...fixedOrg(), company: company({ language: "zh-CN" }) };
    const checkout = requirement("结账", { departmentId: 1, status: "waiting_for_boss", ownerId: 11 });
    const icons = requirement("图标", { departmentId: 3, status: "in_review", ownerId: 12 });
    new Fake(world(seed), boardDesk(seed, [boardItem(seed, checkout), boardItem(seed, icons)])).install();
    renderApp();
    await screen.findByTestId("board");
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    expect(screen.getByTestId("board-column-waiting_for_boss")).toHaveTextContent("等你决定");
    expect(screen.getByTestId("board-column-in_review")).toHaveTextContent("评审中");
    expect(screen.getByTestId(`requirement-waiting-${checkout.id}`)).toHaveTextContent("先看邮箱");
    expect(within(screen.getByTestId(`requirement-${checkout.id}`)).getByText("负责人")).toBeInTheDocument();
  });

  it("explains how to start when there are no requirements", async () => {
    new Fake(world(), boardDesk(fixedOrg(), [])).install();
    renderApp();
    expect(await screen.findByTestId("work-empty")).toHaveTextContent(
      "No requirements yet — ask the secretary: 'start a requirement for the login page in Engineering'",
    );
  });

  it("reads in Chinese", async () => {
    const { backend, api } = withBoard({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    backend.install();
    renderApp();
    await screen.findByTestId("board");
    await waitFor(() => expect(i18n.language).toBe("zh-CN"));
    expect(screen.getByTestId("board-column-in_progress")).toHaveTextContent("进行中");
    expect(screen.getByTestId(`requirement-chat-${api.id}`)).toHaveTextContent("打开聊天");
    expect(within(screen.getByTestId(`requirement-${api.id}`)).getByLabelText("评审人")).toHaveValue("11");
  });

  it("tells the zh-CN boss how to start", async () => {
    const seed = { ...fixedOrg(), company: company({ language: "zh-CN" }) };
    new Fake(world(seed), boardDesk(seed, [])).install();
    renderApp();
    await waitFor(() => expect(screen.getByTestId("work-empty")).toHaveTextContent("让秘书帮你：'在工程部建一个登录页的需求'"));
  });
});
