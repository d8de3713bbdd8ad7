import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import i18n from "../i18n";
import { TaskStatusChip } from "./TaskStatusChip";

describe("a task's status chip", () => {
  it("says Done only for work that addresses its task, and why a deliverable needs review, in both languages", async () => {
    await i18n.changeLanguage("en");
    const { rerender } = render(<TaskStatusChip task={{ id: 1, status: "resolved", needsReview: null }} />);
    expect(screen.getByTestId("task-status-1")).toHaveTextContent("Done");

    rerender(<TaskStatusChip task={{ id: 1, status: "resolved", needsReview: "copies_message" }} />);
    const chip = screen.getByTestId("task-status-1");
    expect(chip).toHaveTextContent("Needs review");
    expect(chip).not.toHaveTextContent("Done");
    expect(chip).toHaveAttribute("title", "Repeats a chat message instead of doing the work");

    await i18n.changeLanguage("zh-CN");
    rerender(<TaskStatusChip task={{ id: 1, status: "resolved", needsReview: "off_topic" }} />);
    expect(screen.getByTestId("task-status-1")).toHaveTextContent("待审阅");
    expect(screen.getByTestId("task-status-1")).toHaveAttribute("title", "没有谈到任务的主题");
    rerender(<TaskStatusChip task={{ id: 1, status: "pending", needsReview: null }} />);
    expect(screen.getByTestId("task-status-1")).toHaveTextContent("待办");
    await i18n.changeLanguage("en");
  });
});
