import { screen, within } from "@testing-library/react";
import { beforeEach, describe, expect, it } from "vitest";
import { Fake, ipcError } from "../test/fake";
import { ChatSeed } from "../test/fakeChatSeed";
import { fixedOrg, world } from "../test/fakeFixtures";
import { renderApp } from "../test/render";
import { parseDeliverableLine } from "./Deliverable";

const DOC = "Gripper calibration timeout\n- Raise the wait to 5 s.\n- Log every retry.";

describe("a report's deliverable", () => {
  beforeEach(() => window.history.replaceState(null, "", "#chats"));

  it("reads the link lines the engine writes, in both languages, and nothing else", () => {
    expect(parseDeliverableLine("Deliverable: employees/11/deliverables/task-7-gripper-note.md")).toEqual({
      label: "Deliverable: ",
      path: "employees/11/deliverables/task-7-gripper-note.md",
      taskId: 7,
    });
    expect(parseDeliverableLine("交付物：employees/3/deliverables/task-12.md")?.taskId).toBe(12);
    expect(parseDeliverableLine("Deliverable: see task-7.md please")).toBeNull();
    expect(parseDeliverableLine("Deliverable: ../../etc/passwd")).toBeNull();
  });

  it("opens from the report as a document dialog, and says so when the file is gone", async () => {
    const org = fixedOrg();
    const seed = new ChatSeed(org);
    const chat = seed.department(1);
    const report = seed.message(
      chat.id,
      11,
      "Ada, the design note is done.\nDeliverable: employees/11/deliverables/task-7-gripper-note.md",
    );
    const gone = seed.message(chat.id, 11, "Second note.\nDeliverable: employees/11/deliverables/task-8.md");
    const quoted = seed.message(chat.id, "boss", "Deliverable: employees/11/deliverables/task-7-gripper-note.md");
    const doc = { taskId: 7, path: "employees/11/deliverables/task-7-gripper-note.md", text: DOC, cut: false };
    new Fake(world(org), seed.handlers())
      .on("getDeliverable", ({ taskId }) => (taskId === 7 ? doc : ipcError("not_found", `task ${taskId} has no deliverable`)))
      .install();
    const { user } = renderApp();

    await user.click(await screen.findByTestId(`chat-item-${chat.id}`));
    const message = await screen.findByTestId(`chat-message-${report.id}`);
    expect(message).toHaveTextContent("Ada, the design note is done.");
    expect(within(screen.getByTestId(`chat-message-${quoted.id}`)).queryByRole("button", { name: /task-7/ })).toBeNull();

    await user.click(within(message).getByTestId("deliverable-link-7"));
    const dialog = await screen.findByTestId("deliverable-dialog");
    expect(within(dialog).getByRole("heading")).toHaveTextContent("Deliverable of task #7");
    expect(await within(dialog).findByTestId("deliverable-text")).toHaveTextContent("Raise the wait to 5 s.");
    expect(dialog).toHaveTextContent("employees/11/deliverables/task-7-gripper-note.md");
    await user.keyboard("{Escape}");
    expect(screen.queryByTestId("deliverable-dialog")).not.toBeInTheDocument();

    await user.click(within(screen.getByTestId(`chat-message-${gone.id}`)).getByTestId("deliverable-link-8"));
    const missing = await screen.findByTestId("deliverable-dialog");
    expect(await within(missing).findByRole("alert")).toBeInTheDocument();
  });
});
