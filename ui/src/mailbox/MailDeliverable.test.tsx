import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { Fake } from "../test/fake";
import { ChatSeed } from "../test/fakeChatSeed";
import { fixedOrg, mailDesk, mailItem, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";

describe("a report in the mailbox", () => {
  beforeEach(() => window.history.replaceState(null, "", "#mailbox"));

  it("links its deliverable as the chat does, and says when it needs review", async () => {
    const org = fixedOrg();
    const chats = new ChatSeed(org);
    const report = mailItem("report", "Needs review: Write a design note on the gripper timeout", {
      employeeId: 11,
      employeeName: org.employees.find((e) => e.id === 11)!.name,
      body: "Ada, the design note is done.\nNeeds your review: it repeats a chat message instead of doing the work.\nDeliverable: employees/11/deliverables/task-7-design-note.md",
      taskId: 7,
      createdAt: "2025-03-01T12:00:00Z",
    });
    const doc = { taskId: 7, path: "employees/11/deliverables/task-7-design-note.md", text: "Design note\n- Not sure.", cut: false };
    new Fake(world(org), chats.handlers(), mailDesk([report])).on("getDeliverable", () => doc).install();
    const { user } = renderApp();

    await user.click(await screen.findByTestId(`mail-link-${report.id}`));
    const body = await screen.findByTestId("mail-body");
    expect(body).toHaveTextContent("Needs your review: it repeats a chat message");
    await user.click(within(body).getByTestId("deliverable-link-7"));
    const dialog = await screen.findByTestId("deliverable-dialog");
    expect(await within(dialog).findByTestId("deliverable-text")).toHaveTextContent("Not sure.");
  });
});
