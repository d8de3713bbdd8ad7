import { screen, waitFor, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { Fake, ipcError } from "../test/fake";
import { ChatSeed, traceEvent, traceOf } from "../test/fakeChatSeed";
import { company, fixedOrg, mailDesk, mailItem, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

/**
 * The fixed company with a mailbox: Alan's report (unread, newest), an escalation about Linus's task
 * (unread), 张伟's report (read), a budget stop from no one (read) and Grace's archived report.
 */
function withMail(org = fixedOrg()) {
  const chats = new ChatSeed(org);
  const engineering = chats.department(1);
  const alanChat = chats.add("boss", "Alan Turing", [12]);
  const from = (id: number) => ({ employeeId: id, employeeName: org.employees.find((e) => e.id === id)!.name });
  const report = mailItem("report", "Rate limiter is in", {
    ...from(12),
    body: "Merged: a token bucket per user, 120 a minute.\n\nThe burst edge case holds.",
    chatId: alanChat.id,
    taskId: 501,
    createdAt: "2025-03-01T12:00:00Z",
  });
  const escalation = mailItem("escalation", "Overdue: load test", {
    ...from(13),
    body: "Linus took the load test 47 minutes ago and has not reported back.",
    chatId: engineering.id,
    taskId: 502,
    createdAt: "2025-03-01T11:00:00Z",
  });
  const zhReport = mailItem("report", "登录页两个方案已完成", { ...from(22), body: "两个方案都做完了。", createdAt: "2025-03-01T10:00:00Z", status: "read" });
  const budget = mailItem("budget", "Work stopped: today's budget is spent", {
    body: "Today's model spend reached the daily budget of $20.00, so no new work starts. Work resumes tomorrow, or as soon as the budget is raised.",
    createdAt: "2025-03-01T09:30:00Z",
    status: "read",
  });
  const archived = mailItem("report", "Hiring plan for Q2", { ...from(11), body: "Two more backend engineers.", createdAt: "2025-03-01T09:00:00Z", status: "archived" });
  // Newest first, as the backend lists them.
  const mail = [report, escalation, zhReport, budget, archived];
  const backend = new Fake(world(org), chats.handlers(), mailDesk(mail));
  return { backend, mail, chats, from, alanChat, engineering, report, escalation, zhReport, budget, archived };
}

const listedIds = () =>
  within(screen.getByTestId("mail-list"))
    .getAllByRole("listitem")
    .map((li) => Number(li.getAttribute("data-testid")?.replace("mail-item-", "")));

describe("mailbox page", () => {
  beforeEach(() => window.history.replaceState(null, "", "#mailbox"));

  it("sits in the navigation after Chats with the unread count, and lists the inbox newest first", async () => {
    const { backend, report, escalation, zhReport, budget } = withMail();
    backend.install();
    renderApp();

    const nav = await screen.findByRole("navigation", { name: "Main navigation" });
    const links = within(nav).getAllByRole("link").map((a) => a.getAttribute("data-testid"));
    expect(links.indexOf("nav-mailbox")).toBe(links.indexOf("nav-chats") + 1);
    expect(within(nav).getByTestId("nav-mailbox")).toHaveAttribute("href", "#mailbox");
    expect(within(nav).getByTestId("nav-mailbox")).toHaveAttribute("aria-current", "page");
    expect(await within(nav).findByTestId("nav-mailbox-unread")).toHaveTextContent("2");

    await screen.findByTestId("mail-list");
    // Everything but the archive, the newest first.
    expect(listedIds()).toEqual([report.id, escalation.id, zhReport.id, budget.id]);
    expect(screen.getByTestId("mailbox-summary")).toHaveTextContent("2 unread");

    const item = screen.getByTestId(`mail-item-${report.id}`);
    expect(item).toHaveAttribute("data-status", "unread");
    expect(within(item).getByTestId(`mail-link-${report.id}`)).toHaveAttribute("href", `#mailbox/${report.id}`);
    expect(within(item).getByTestId(`mail-link-${report.id}`)).toHaveTextContent("Unread: Rate limiter is in");
    expect(screen.getByTestId(`mail-kind-${report.id}`)).toHaveTextContent("Report");
    const sender = screen.getByTestId(`mail-employee-${report.id}`);
    expect(sender).toHaveTextContent("Alan Turing");
    expect(sender).toHaveTextContent("AT");
    expect(sender).toHaveAttribute("href", "#employee/12");
    expect(screen.getByTestId(`mail-preview-${report.id}`)).toHaveTextContent("Merged: a token bucket per user, 120 a minute. The burst edge case holds.");
    expect(within(item).getByRole("time")).toHaveAttribute("datetime", "2025-03-01T12:00:00Z");

    // Escalations and budget stops look different from reports; a budget stop comes from Cubicle itself.
    expect(screen.getByTestId(`mail-kind-${escalation.id}`)).toHaveTextContent("Escalation");
    expect(screen.getByTestId(`mail-kind-${escalation.id}`)).toHaveClass("text-amber-700");
    expect(screen.getByTestId(`mail-kind-${budget.id}`)).toHaveTextContent("Budget stop");
    expect(screen.getByTestId(`mail-kind-${budget.id}`)).toHaveClass("text-rose-700");
    expect(screen.getByTestId(`mail-item-${budget.id}`)).toHaveTextContent("Cubicle");
    expect(screen.getByTestId(`mail-item-${zhReport.id}`)).toHaveAttribute("data-status", "read");

    // Nothing picked yet, and nothing read by looking at the list.
    expect(screen.getByTestId("mailbox-no-selection")).toBeInTheDocument();
    expect(backend.callsOf("setMailStatus")).toHaveLength(0);
    expect(backend.inputsOf("listMail")).toContainEqual({ status: null, kind: null, employeeId: null });
  });

  it("filters by view, kind and employee, and clears the filters when nothing matches", async () => {
    const { backend, report, escalation, zhReport, archived } = withMail();
    backend.install();
    const { user } = renderApp();
    await screen.findByTestId("mail-list");

    await user.click(screen.getByTestId("mail-view-unread"));
    expect(screen.getByTestId("mail-view-unread")).toHaveAttribute("aria-pressed", "true");
    expect(screen.getByTestId("mail-view-unread")).toHaveTextContent("Unread2");
    await waitFor(() => expect(listedIds()).toEqual([report.id, escalation.id]));

    await user.click(screen.getByTestId("mail-view-archived"));
    await waitFor(() => expect(listedIds()).toEqual([archived.id]));
    expect(backend.inputsOf("listMail")).toContainEqual({ status: "archived", kind: null, employeeId: null });

    await user.click(screen.getByTestId("mail-view-inbox"));
    await user.selectOptions(screen.getByRole("combobox", { name: "Kind" }), "Report");
    await waitFor(() => expect(listedIds()).toEqual([report.id, zhReport.id]));
    expect(backend.inputsOf("listMail")).toContainEqual({ status: null, kind: "report", employeeId: null });

    await user.selectOptions(screen.getByRole("combobox", { name: "Employee" }), "张伟");
    await waitFor(() => expect(listedIds()).toEqual([zhReport.id]));
    expect(backend.inputsOf("listMail")).toContainEqual({ status: null, kind: "report", employeeId: 22 });

    // A report from Linus: there is none (his is an escalation).
    await user.selectOptions(screen.getByRole("combobox", { name: "Employee" }), "Linus Torvalds");
    const empty = await screen.findByTestId("mail-list-empty");
    expect(empty).toHaveTextContent("No items match these filters.");
    await user.click(within(empty).getByTestId("mail-clear-filters"));
    await waitFor(() => expect(listedIds()).toHaveLength(4));
    expect(screen.getByRole("combobox", { name: "Kind" })).toHaveValue("");
    expect(screen.getByRole("combobox", { name: "Employee" })).toHaveValue("");
  });

  it("opens an item in full and marks it read, and the navigation count drops; Mark unread keeps it unread", async () => {
    const { backend, report } = withMail();
    backend.install();
    const { user } = renderApp();

    expect(await screen.findByTestId("nav-mailbox-unread")).toHaveTextContent("2");
    await user.click(await screen.findByTestId(`mail-link-${report.id}`));
    expect(window.location.hash).toBe(`#mailbox/${report.id}`);

    const detail = await screen.findByTestId("mail-detail");
    expect(within(detail).getByTestId("mail-title")).toHaveTextContent("Rate limiter is in");
    expect(within(detail).getByTestId("mail-body").textContent).toBe("Merged: a token bucket per user, 120 a minute.\n\nThe burst edge case holds.");
    expect(within(detail).getByTestId("mail-detail-kind")).toHaveTextContent("Report");
    expect(within(detail).getByTestId("mail-sender")).toHaveTextContent("From");
    expect(within(detail).getByTestId("mail-sender-link")).toHaveAttribute("href", "#employee/12");
    expect(within(detail).getByTestId("mail-sender")).toHaveTextContent("Backend engineer");
    expect(within(detail).getByTestId("mail-time")).toHaveAttribute("datetime", "2025-03-01T12:00:00Z");
    expect(screen.getByTestId(`mail-link-${report.id}`)).toHaveAttribute("aria-current", "page");

    await waitFor(() => expect(backend.inputsOf("setMailStatus")).toEqual([{ mailId: report.id, status: "read" }]));
    await waitFor(() => expect(screen.getByTestId("nav-mailbox-unread")).toHaveTextContent("1"));
    await waitFor(() => expect(screen.getByTestId(`mail-item-${report.id}`)).toHaveAttribute("data-status", "read"));
    expect(screen.getByTestId("mailbox-summary")).toHaveTextContent("1 unread");

    // Back to unread on purpose: it stays unread while it is open.
    await user.click(await screen.findByTestId("mail-mark-unread"));
    await waitFor(() => expect(screen.getByTestId("nav-mailbox-unread")).toHaveTextContent("2"));
    await waitFor(() => expect(screen.getByTestId(`mail-item-${report.id}`)).toHaveAttribute("data-status", "unread"));
    expect(screen.getByTestId("mail-detail-status")).toHaveTextContent("Unread");
    expect(backend.inputsOf("setMailStatus")).toEqual([
      { mailId: report.id, status: "read" },
      { mailId: report.id, status: "unread" },
    ]);
    expect(report.status).toBe("unread");
  });

  it("keeps an item open that leaves the list when it is read in the Unread view", async () => {
    const { backend, report, escalation } = withMail();
    backend.install();
    const { user } = renderApp();
    await screen.findByTestId("mail-list");
    await user.click(screen.getByTestId("mail-view-unread"));
    await waitFor(() => expect(listedIds()).toEqual([report.id, escalation.id]));

    await user.click(screen.getByTestId(`mail-link-${escalation.id}`));
    await waitFor(() => expect(listedIds()).toEqual([report.id]));
    const detail = screen.getByTestId("mail-detail");
    expect(detail).toHaveAttribute("data-mail-id", String(escalation.id));
    expect(detail).toHaveAttribute("data-status", "read");
    expect(within(detail).getByTestId("mail-mark-unread")).toBeInTheDocument();
    expect(screen.queryByTestId("nav-mailbox-unread")).toHaveTextContent("1");
  });

  it("archives an item and moves it back to the inbox", async () => {
    const { backend, zhReport } = withMail();
    backend.install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId(`mail-link-${zhReport.id}`));
    await screen.findByTestId("mail-detail");
    // Already read: opening it changes nothing.
    expect(backend.callsOf("setMailStatus")).toHaveLength(0);

    await user.click(screen.getByTestId("mail-archive"));
    await waitFor(() => expect(screen.queryByTestId(`mail-item-${zhReport.id}`)).not.toBeInTheDocument());
    expect(backend.inputsOf("setMailStatus")).toEqual([{ mailId: zhReport.id, status: "archived" }]);
    // Still open, now archived, with the way back.
    const detail = screen.getByTestId("mail-detail");
    expect(detail).toHaveAttribute("data-status", "archived");
    expect(within(detail).getByTestId("mail-detail-status")).toHaveTextContent("Archived");
    expect(within(detail).queryByTestId("mail-mark-unread")).not.toBeInTheDocument();

    await user.click(screen.getByTestId("mail-view-archived"));
    expect(await screen.findByTestId(`mail-item-${zhReport.id}`)).toBeInTheDocument();

    await user.click(within(detail).getByTestId("mail-unarchive"));
    await waitFor(() => expect(screen.queryByTestId(`mail-item-${zhReport.id}`)).not.toBeInTheDocument());
    expect(zhReport.status).toBe("read");
    await user.click(screen.getByTestId("mail-view-inbox"));
    expect(await screen.findByTestId(`mail-item-${zhReport.id}`)).toHaveAttribute("data-status", "read");
    expect(screen.getByTestId("mail-detail")).toHaveAttribute("data-status", "read");
    expect(screen.getByTestId("mail-archive")).toBeInTheDocument();
  });

  it("opens the chat an item came from", async () => {
    const { backend, report, alanChat, budget, chats } = withMail();
    chats.message(alanChat.id, 12, "The limiter is merged.");
    backend.install();
    const { user } = renderApp();

    // No chat behind a budget stop: no button.
    await user.click(await screen.findByTestId(`mail-link-${budget.id}`));
    await screen.findByTestId("mail-detail");
    expect(screen.queryByTestId("mail-open-chat")).not.toBeInTheDocument();

    await user.click(screen.getByTestId(`mail-link-${report.id}`));
    const open = await screen.findByTestId("mail-open-chat");
    expect(open).toHaveAttribute("href", `#chats/${alanChat.id}`);
    await user.click(open);
    expect(window.location.hash).toBe(`#chats/${alanChat.id}`);
    expect(await screen.findByTestId("chat-title")).toHaveTextContent("Alan Turing");
    expect(screen.getByTestId("nav-chats")).toHaveAttribute("aria-current", "page");
  });

  it("opens the trace of an item that belongs to an instruction, and shows its story", async () => {
    const { backend, report, alanChat, budget } = withMail();
    const story = traceOf("Get the rate limiter in before the demo", { chatId: alanChat.id, createdAt: "2025-03-01T11:00:00Z" });
    story.events.push(
      traceEvent({ kind: "message", at: "2025-03-01T11:58:00Z", employeeId: 12, actor: "Alan Turing", text: "Merged: a token bucket per user.", chatId: alanChat.id }),
      traceEvent({ kind: "mail", at: report.createdAt, employeeId: 12, actor: "Alan Turing", text: report.title, mailId: report.id }),
    );
    const trace = story.summary;
    report.traceId = trace.id;
    backend.answer("getTrace", story).install();
    const { user } = renderApp();

    // A budget stop belongs to no instruction: no link.
    await user.click(await screen.findByTestId(`mail-link-${budget.id}`));
    await screen.findByTestId("mail-detail");
    expect(screen.queryByTestId("mail-open-trace")).not.toBeInTheDocument();

    await user.click(screen.getByTestId(`mail-link-${report.id}`));
    const open = await screen.findByTestId("mail-open-trace");
    expect(open).toHaveTextContent("Open trace");
    expect(open).toHaveAttribute("href", `#traces/${trace.id}`);
    await user.click(open);
    expect(window.location.hash).toBe(`#traces/${trace.id}`);
    expect(await screen.findByTestId("trace-instruction")).toHaveTextContent("Get the rate limiter in before the demo");
    expect(screen.getByTestId("trace-timeline")).toHaveTextContent("Merged: a token bucket per user.");
    expect(screen.getByTestId("trace-timeline")).toHaveTextContent("Rate limiter is in");
    expect(screen.getByTestId("nav-traces")).toHaveAttribute("aria-current", "page");
  });

  it("sets escalations and budget stops apart: who owns the late task, and where to raise the budget", async () => {
    const { backend, escalation, budget } = withMail();
    backend.install();
    const { user } = renderApp();

    await user.click(await screen.findByTestId(`mail-link-${escalation.id}`));
    let detail = await screen.findByTestId("mail-detail");
    expect(detail).toHaveAttribute("data-kind", "escalation");
    expect(within(detail).getByTestId("mail-escalation-note")).toHaveTextContent(
      "Overdue work, escalated to you" + "Linus Torvalds's task has run well past its time.",
    );
    expect(within(detail).getByTestId("mail-sender")).toHaveTextContent("Task owner");
    expect(within(detail).getByTestId("mail-sender-link")).toHaveAttribute("href", "#employee/13");

    await user.click(screen.getByTestId(`mail-link-${budget.id}`));
    detail = await screen.findByTestId("mail-detail");
    expect(detail).toHaveAttribute("data-kind", "budget");
    expect(within(detail).getByTestId("mail-budget-note")).toHaveTextContent("Work has stopped");
    expect(within(detail).getByTestId("mail-sender")).toHaveTextContent("Cubicle");
    expect(within(detail).getByTestId("mail-body")).toHaveTextContent("Today's model spend reached the daily budget of $20.00");
    await user.click(within(detail).getByTestId("mail-open-settings"));
    expect(window.location.hash).toBe("#settings/budget");
  });

  it("shows new mail as it is filed", async () => {
    const { backend, mail, from } = withMail();
    backend.install();
    renderApp();
    expect(await screen.findByTestId("nav-mailbox-unread")).toHaveTextContent("2");
    const item = mailItem("report", "Design review notes", { ...from(21), body: "We picked option B." });
    mail.unshift(item);
    backend.emit({ type: "mail_changed" });
    expect(await screen.findByTestId(`mail-item-${item.id}`)).toHaveTextContent("Margaret Hamilton");
    expect(listedIds()[0]).toBe(item.id);
    await waitFor(() => expect(screen.getByTestId("nav-mailbox-unread")).toHaveTextContent("3"));
  });

  it("says where mail comes from when there is none, and that the boss is done when all of it is archived", async () => {
    new Fake(world(), mailDesk([])).install();
    renderApp();
    const empty = await screen.findByTestId("mailbox-empty");
    expect(empty).toHaveTextContent("Nothing in your mailbox yet");
    expect(empty).toHaveTextContent("Reports arrive when your employees finish tasks.");
    expect(screen.getByTestId("mail-list-empty")).toHaveTextContent("Your inbox is empty.");
    expect(screen.queryByTestId("nav-mailbox-unread")).not.toBeInTheDocument();
    expect(screen.getByTestId("mailbox-summary")).toHaveTextContent("All read");
  });

  it("says the inbox is done when everything is archived, and shows the archive", async () => {
    const old = mailItem("report", "Old news", { employeeId: 12, employeeName: "Alan Turing", body: "Done long ago.", status: "archived" });
    new Fake(world(), mailDesk([old])).install();
    const { user } = renderApp();
    const done = await screen.findByTestId("mailbox-caught-up");
    expect(done).toHaveTextContent("All caught up");
    expect(done).toHaveTextContent("1 item is in the archive.");
    await user.click(within(done).getByTestId("mail-show-archive"));
    expect(screen.getByTestId("mail-view-archived")).toHaveAttribute("aria-pressed", "true");
    expect(await screen.findByTestId(`mail-item-${old.id}`)).toBeInTheDocument();
  });

  it("shows a translated error with a retry when the mailbox cannot be read", async () => {
    const { backend, report } = withMail();
    // Every listing fails (the page's and the badge's) until the database is back.
    let locked = true;
    const desk = mailDesk([report]);
    backend.on("listMail", (filter) => (locked ? ipcError("storage", "database is locked") : desk.listMail!(filter)));
    backend.install();
    const { user } = renderApp();
    const error = await screen.findByTestId("error-state");
    expect(error).toHaveTextContent("The company data could not be read or saved.");
    expect(error).toHaveTextContent("database is locked");
    expect(screen.queryByTestId("nav-mailbox-unread")).not.toBeInTheDocument();

    locked = false;
    await user.click(within(error).getByTestId("retry-button"));
    expect(await screen.findByTestId(`mail-item-${report.id}`)).toBeInTheDocument();
    expect(screen.queryByTestId("error-state")).not.toBeInTheDocument();
  });

  it("says so when a change fails, and when a linked item is not in the list", async () => {
    const { backend, zhReport } = withMail();
    backend.install();
    window.location.hash = "#mailbox/9999";
    const { user } = renderApp();
    expect(await screen.findByTestId("mailbox-not-in-view")).toHaveTextContent("Not in this list");

    await user.click(screen.getByTestId(`mail-link-${zhReport.id}`));
    backend.failNext("setMailStatus", "not_found", "mail 1 does not exist");
    await user.click(await screen.findByTestId("mail-archive"));
    expect(await screen.findByTestId("mail-action-error")).toHaveTextContent("That did not work: That item no longer exists.");
    // Nothing changed: still in the inbox, still offered for archiving.
    expect(screen.getByTestId(`mail-item-${zhReport.id}`)).toBeInTheDocument();
    expect(screen.getByTestId("mail-detail")).toHaveAttribute("data-status", "read");
    expect(screen.getByTestId("mail-archive")).toBeEnabled();
  });

  it("speaks Chinese for a Chinese company", async () => {
    const { backend, report, escalation, budget } = withMail({ ...fixedOrg(), company: company({ language: "zh-CN" }) });
    backend.install();
    const { user } = renderApp();
    expect(await screen.findByTestId(`mail-kind-${report.id}`)).toHaveTextContent("工作汇报");
    expect(screen.getByTestId(`mail-kind-${escalation.id}`)).toHaveTextContent("上报事项");
    expect(screen.getByTestId(`mail-kind-${budget.id}`)).toHaveTextContent("预算停工");
    expect(screen.getByTestId("nav-mailbox")).toHaveTextContent("信箱");
    expect(screen.getByTestId("mail-view-inbox")).toHaveTextContent("收件箱");
    expect(screen.getByTestId("mailbox-summary")).toHaveTextContent("2 封未读");
    expect(within(screen.getByRole("combobox", { name: "类型" })).getByRole("option", { name: "预算停工" })).toBeInTheDocument();

    await user.click(screen.getByTestId(`mail-link-${escalation.id}`));
    expect(await screen.findByTestId("mail-escalation-note")).toHaveTextContent("任务逾期，已上报给你");
    expect(screen.getByTestId("mail-detail-kind")).toHaveTextContent("上报事项");
    expect(screen.getByTestId("mail-archive")).toHaveTextContent("归档");
  });
});

// Issue 37: a refusal reaches the boss with the reason and the one place that fixes it.
describe("mailbox: a refusal's fix", () => {
  beforeEach(() => window.history.replaceState(null, "", "#mailbox"));

  it("links a refused webhook to Settings → Webhooks with the host filled in, one click from allowing it", async () => {
    const org = fixedOrg();
    const refused = mailItem("escalation", "Not sent: hooks.example.com is not an allowed webhook destination", {
      employeeId: 13,
      employeeName: org.employees.find((e) => e.id === 13)!.name,
      body: "Linus Torvalds asked to post to https://hooks.example.com/…. It was refused because hooks.example.com is not on your list of webhook destinations; nothing was sent.",
      fixHref: "#settings/webhooks/hooks.example.com",
    });
    const stored = { hosts: ["hooks.slack.com"] };
    const backend = new Fake(world(org), mailDesk([refused]))
      .on("webhookDestinations", () => stored)
      .on("setWebhookDestinations", (input) => {
        stored.hosts = input.hosts;
        return stored;
      });
    backend.install();
    const { user } = renderApp();

    await user.click(await screen.findByTestId(`mail-link-${refused.id}`));
    const detail = await screen.findByTestId("mail-detail");
    expect(within(detail).getByTestId("mail-fix-note")).toHaveTextContent("Nothing was sent: hooks.example.com is not on your list of webhook destinations.");
    expect(within(detail).queryByTestId("mail-escalation-note")).not.toBeInTheDocument();
    const fix = within(detail).getByTestId("mail-fix");
    expect(fix).toHaveTextContent("Allow hooks.example.com in Settings → Webhooks");
    expect(fix).toHaveAttribute("href", "#settings/webhooks/hooks.example.com");

    await user.click(fix);
    const section = await screen.findByTestId("settings-section-webhooks");
    await waitFor(() => expect(within(section).getByTestId("webhook-host")).toHaveValue("hooks.example.com"));
    expect(within(section).getByTestId("webhook-prefilled")).toHaveTextContent("press Allow to let webhooks reach hooks.example.com");
    await user.click(within(section).getByTestId("webhook-add"));
    await waitFor(() => expect(stored.hosts).toEqual(["hooks.slack.com", "hooks.example.com"]));
  });

  it("links a refusal off the tool list to the employee's tools", async () => {
    const org = fixedOrg();
    const refused = mailItem("escalation", "Refused: Linus Torvalds may not use run_shell", {
      employeeId: 13,
      employeeName: org.employees.find((e) => e.id === 13)!.name,
      body: "It was refused: run_shell is not on Linus Torvalds's tool list.",
      fixHref: "#employee/13",
    });
    new Fake(world(org), mailDesk([refused])).install();
    const { user } = renderApp();
    await user.click(await screen.findByTestId(`mail-link-${refused.id}`));
    const fix = await screen.findByTestId("mail-fix");
    expect(fix).toHaveTextContent("Open Linus Torvalds's tools");
    expect(fix).toHaveAttribute("href", "#employee/13");
  });
});
