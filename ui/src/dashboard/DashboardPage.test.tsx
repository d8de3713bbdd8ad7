import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import type { DashboardDto } from "../bindings/DashboardDto";
import type { DashboardTask } from "../bindings/DashboardTask";
import { Fake } from "../test/fake";
import { ChatSeed } from "../test/fakeChatSeed";
import { activityItem, company, dashboardTask, emptyOrg, fixedOrg, mailItem, sampleSpend, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

const ago = (minutes: number) => new Date(Date.now() - minutes * 60_000).toISOString().replace(/\.\d{3}Z$/, "Z");

/**
 * The fixed company at work, as the backend reports it: four pending tasks (one per urgency, the most
 * urgent first), Grace talking in the Engineering chat (unread), Alan's unread report, and $3.25 spent
 * of the $20 budget.
 */
function busyCompany(org = fixedOrg()) {
  const person = (id: number) => org.employees.find((e) => e.id === id)!;
  const critical = dashboardTask(person(21), "Ship the login page", "critical", 45);
  const overdue = dashboardTask(person(13), "Run the load test", "overdue", 20);
  const aging = dashboardTask(person(22), "Review the design", "aging", 8);
  const normal = dashboardTask(person(12), "Add a rate limiter", "normal", 2);
  const chats = new ChatSeed(org);
  const engineering = chats.department(1);
  const message = chats.message(engineering.id, 11, "Standup moves to 10:30.", { createdAt: ago(1) });
  engineering.unread = 1;
  const report = mailItem("report", "Rate limiter is in", { employeeId: 12, employeeName: "Alan Turing", body: "Merged.", createdAt: ago(0.5), taskId: normal.id });
  const taskLine = (t: DashboardTask) =>
    activityItem("task", ago(t.ageMinutes), { employeeId: t.ownerId, actor: t.ownerName, text: t.description, taskId: t.id, status: "pending" });
  const dashboard: DashboardDto = {
    tasks: [critical, overdue, aging, normal],
    activity: [
      activityItem("mail", report.createdAt, { employeeId: 12, actor: "Alan Turing", text: report.title, taskId: normal.id, mailId: report.id }),
      activityItem("message", message.createdAt, { employeeId: 11, actor: "Grace Hopper", text: message.text, chatId: engineering.id }),
      ...[normal, aging, overdue, critical].map(taskLine),
    ],
    pendingApprovals: 0,
  };
  const backend = new Fake(world(org), chats.handlers())
    .answer("getSpend", sampleSpend())
    .answer("listMail", { items: [report], unread: 1 })
    .on("getDashboard", () => dashboard);
  return { backend, dashboard, critical, overdue, aging, normal, engineering, message, report, person };
}

const activity = () => screen.getAllByTestId("activity-item");

describe("dashboard page", () => {
  beforeEach(() => window.history.replaceState(null, "", "#dashboard"));

  it("sits right after the Secretary in the navigation, and shows the figures from the backend", async () => {
    busyCompany().backend.install();
    renderApp();

    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    const links = within(nav).getAllByRole("link").map((a) => a.getAttribute("data-testid"));
    expect(links.slice(0, 2)).toEqual(["nav-secretary", "nav-dashboard"]);
    expect(within(nav).getByTestId("nav-dashboard")).toHaveAttribute("href", "#dashboard");
    expect(within(nav).getByTestId("nav-dashboard")).toHaveAttribute("aria-current", "page");

    expect(await screen.findByTestId("headcount-value")).toHaveTextContent("8");
    expect(screen.getByTestId("headcount-detail")).toHaveTextContent("8 employees · 3 departments");
    expect(screen.getByTestId("figure-headcount")).toHaveAttribute("href", "#org");

    await waitFor(() => expect(screen.getByTestId("tasks-value")).toHaveTextContent("4"));
    for (const u of ["normal", "aging", "overdue", "critical"]) expect(screen.getByTestId(`tasks-${u}`)).toHaveAttribute("data-count", "1");

    await waitFor(() => expect(screen.getByTestId("spend-value")).toHaveTextContent("$3.25"));
    expect(screen.getByTestId("spend-detail")).toHaveTextContent("of $20.00 daily budget");
    expect(screen.getByTestId("spend-bar")).toHaveAttribute("aria-valuenow", "16");
    expect(screen.getByTestId("figure-spend")).toHaveAttribute("href", "#settings");

    await waitFor(() => expect(screen.getByTestId("unread-value")).toHaveTextContent("2"));
    expect(screen.getByTestId("unread-mail")).toHaveAttribute("href", "#mailbox");
    expect(screen.getByTestId("unread-mail")).toHaveTextContent("1 in the mailbox");
    expect(screen.getByTestId("unread-chats")).toHaveAttribute("href", "#chats");
    expect(screen.getByTestId("unread-chats")).toHaveTextContent("1 chat message");
    // Nothing waits for approval: the card is there, quiet.
    expect(screen.getByTestId("approvals-value")).toHaveTextContent("0");
    expect(screen.getByTestId("figure-approvals")).not.toHaveAttribute("data-emphasis");
  });

  it("shows the pending approvals as a figure that stands out and leads to the queue", async () => {
    const { backend, dashboard } = busyCompany();
    dashboard.pendingApprovals = 2;
    backend.install();
    const { user } = renderApp();

    await waitFor(() => expect(screen.getByTestId("approvals-value")).toHaveTextContent("2"));
    const card = screen.getByTestId("figure-approvals");
    expect(card).toHaveAttribute("href", "#approvals");
    expect(card).toHaveAttribute("data-emphasis", "true");
    expect(screen.getByTestId("approvals-detail")).toHaveTextContent("2 actions wait for you");
    await user.click(card);
    expect(await screen.findByTestId("approvals-page")).toBeInTheDocument();
  });

  it("lists pending tasks most urgent first, with urgency pills, owners linking to profiles and ages", async () => {
    const { backend, critical, overdue, aging, normal } = busyCompany();
    backend.install();
    renderApp();

    const panel = await screen.findByTestId("dashboard-tasks");
    const rows = within(panel).getAllByRole("listitem");
    expect(rows.map((r) => r.getAttribute("data-testid"))).toEqual([critical, overdue, aging, normal].map((t) => `task-${t.id}`));
    const pills = within(panel).getAllByTestId("urgency-pill");
    expect(pills.map((p) => p.getAttribute("data-urgency"))).toEqual(["critical", "overdue", "aging", "normal"]);
    expect(pills.map((p) => p.textContent)).toEqual(["Critical", "Overdue", "Needs a follow-up", "New"]);
    expect(pills[0]!.className).toContain("rose");
    expect(pills[1]!.className).toContain("orange");
    expect(pills[2]!.className).toContain("amber");
    expect(pills[3]!.className).toContain("slate");

    const first = within(panel).getByTestId(`task-${critical.id}`);
    expect(first).toHaveTextContent("Ship the login page");
    expect(first).toHaveTextContent("45 min");
    expect(within(panel).getByTestId(`task-owner-${critical.id}`)).toHaveAttribute("href", "#employee/21");
    expect(within(panel).getByTestId(`task-owner-${critical.id}`)).toHaveTextContent("Margaret Hamilton");
    expect(backend.callsOf("getDashboard")).toHaveLength(1);
  });

  it("shows the activity newest first, each line leading to where it happened", async () => {
    const { backend, engineering, report, message } = busyCompany();
    backend.install();
    const { user } = renderApp();

    await screen.findByTestId("dashboard-activity");
    expect(activity().map((a) => a.getAttribute("data-kind"))).toEqual(["mail", "message", "task", "task", "task", "task"]);
    const [mail, chat, task] = activity();
    expect(mail).toHaveTextContent("Alan Turing");
    expect(mail).toHaveTextContent("Rate limiter is in");
    expect(chat).toHaveTextContent("Grace Hopper");
    expect(chat).toHaveTextContent(message.text);
    expect(task).toHaveTextContent("Took on: Add a rate limiter");

    await user.click(within(chat!).getByRole("link"));
    await waitFor(() => expect(window.location.hash).toBe(`#chats/${engineering.id}`));

    window.location.hash = "#dashboard";
    await screen.findByTestId("dashboard-activity");
    await user.click(within(activity()[0]!).getByRole("link"));
    await waitFor(() => expect(window.location.hash).toBe(`#mailbox/${report.id}`));

    window.location.hash = "#dashboard";
    await screen.findByTestId("dashboard-activity");
    await user.click(within(activity()[2]!).getByRole("link"));
    await waitFor(() => expect(window.location.hash).toBe("#employee/12"));
  });

  it("refreshes when the work changes", async () => {
    const { backend, dashboard, person } = busyCompany();
    backend.install();
    renderApp();
    await waitFor(() => expect(screen.getByTestId("tasks-value")).toHaveTextContent("4"));

    dashboard.tasks.push(dashboardTask(person(31), "Draft the launch post", "normal", 0));
    backend.emit({ type: "work_changed" });
    await waitFor(() => expect(screen.getByTestId("tasks-value")).toHaveTextContent("5"));
    expect(within(screen.getByTestId("dashboard-tasks")).getByText("Draft the launch post")).toBeInTheDocument();
  });

  it("invites the boss to hire and assign work when nothing is going on", async () => {
    new Fake(world({ ...emptyOrg(), company: fixedOrg().company })).install();
    renderApp();

    const empty = await screen.findByTestId("dashboard-empty");
    expect(empty).toHaveTextContent("Nothing happening yet — hire people and give them work");
    expect(within(empty).getByTestId("empty-secretary")).toHaveAttribute("href", "#secretary");
    expect(within(empty).getByTestId("empty-org")).toHaveAttribute("href", "#org");
    expect(await screen.findByTestId("headcount-value")).toHaveTextContent("0");
    expect(screen.getByTestId("tasks-value")).toHaveTextContent("0");
    expect(screen.queryByTestId("dashboard-tasks")).not.toBeInTheDocument();
  });

  it("shows a loading state, then an error with a retry that works", async () => {
    const { backend } = busyCompany();
    let release!: () => void;
    backend.hold("getDashboard", new Promise<void>((resolve) => (release = resolve)));
    backend.failNext("getDashboard", "internal", "database is locked");
    backend.install();
    const { user } = renderApp();

    await screen.findByTestId("figure-tasks");
    expect(screen.getByRole("status")).toHaveTextContent("Loading");
    release();

    const error = await screen.findByTestId("error-state");
    expect(error).toHaveTextContent("database is locked");
    expect(screen.getByTestId("tasks-value")).toHaveTextContent("—");
    // The other figures come from their own queries and still show.
    expect(screen.getByTestId("headcount-value")).toHaveTextContent("8");

    await user.click(within(error).getByTestId("retry-button"));
    expect(await screen.findByTestId("dashboard-tasks")).toBeInTheDocument();
    expect(screen.queryByTestId("error-state")).not.toBeInTheDocument();
    expect(screen.getByTestId("tasks-value")).toHaveTextContent("4");
  });

  it("speaks Chinese in a Chinese company", async () => {
    const { backend, critical } = busyCompany({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    backend.install();
    renderApp();

    expect(await screen.findByRole("heading", { name: "仪表盘" })).toBeInTheDocument();
    const nav = screen.getByRole("navigation");
    expect(within(nav).getByTestId("nav-dashboard")).toHaveTextContent("仪表盘");
    await waitFor(() => expect(screen.getByTestId("headcount-detail")).toHaveTextContent("8 名员工 · 3 个部门"));
    const panel = await screen.findByTestId("dashboard-tasks");
    expect(within(panel).getByRole("heading", { name: "待办任务" })).toBeInTheDocument();
    expect(within(panel).getAllByTestId("urgency-pill")[0]).toHaveTextContent("十万火急");
    expect(within(panel).getByTestId(`task-${critical.id}`)).toHaveTextContent("45 分钟");
    expect(screen.getByTestId("dashboard-activity")).toHaveTextContent("动态");
    expect(screen.getByTestId("unread-mail")).toHaveTextContent("邮箱 1 封");
  });
});
