import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ActionDto } from "../bindings/ActionDto";
import { renderWithProviders } from "../test/render";
import { ActionCard } from "./ActionCard";

const base = { destructive: false, diff: null, undoUntil: null, error: null } as const;

describe("action cards for work", () => {
  it("shows a task card with the person and the task", () => {
    const action: ActionDto = {
      ...base,
      id: 7,
      status: "proposed",
      proposal: { type: "assign_task", employeeId: 3, name: "Alice Chen", description: "research REST vs GraphQL" },
    };
    renderWithProviders(<ActionCard action={action} snapshot={undefined} />);
    expect(screen.getByText("Alice Chen")).toBeInTheDocument();
    expect(screen.getByText("research REST vs GraphQL")).toBeInTheDocument();
    expect(screen.getAllByText("Task").length).toBeGreaterThanOrEqual(1);
  });

  it("shows a requirement card with its department and its own group chat", () => {
    const action: ActionDto = {
      ...base,
      id: 8,
      status: "applied",
      diff: '+ requirement "Mobile app" in Engineering, with its group chat',
      proposal: {
        type: "create_requirement",
        name: "Mobile app",
        description: "build the mobile app",
        departmentId: 1,
        departmentName: "Engineering",
      },
    };
    renderWithProviders(<ActionCard action={action} snapshot={undefined} />);
    expect(screen.getByText("Mobile app")).toBeInTheDocument();
    expect(screen.getByText("Engineering")).toBeInTheDocument();
    expect(screen.getByText("It gets its own group chat.")).toBeInTheDocument();
  });
});
