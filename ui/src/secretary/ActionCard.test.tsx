import { screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { ActionDto } from "../bindings/ActionDto";
import i18n from "../i18n";
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

  it("shows a department deletion as destructive, with where its people go", () => {
    const action: ActionDto = {
      ...base,
      id: 9,
      destructive: true,
      status: "proposed",
      proposal: { type: "delete_department", departmentId: 4, name: "Marketing", destinationId: 2, destinationName: "Sales", headcount: 3 },
    };
    renderWithProviders(<ActionCard action={action} snapshot={undefined} />);
    expect(screen.getByTestId("action-card-9")).toHaveAttribute("data-destructive", "true");
    expect(screen.getByText("Its 3 people move to Sales.")).toBeInTheDocument();
    expect(screen.getByTestId("action-warning-9")).toHaveTextContent("The department will be removed");
  });

  it("shows a meeting card with its topic and participants", () => {
    const action: ActionDto = {
      ...base,
      id: 10,
      status: "applied",
      diff: '+ meeting "Q3 plan" with Alice, Bob',
      proposal: { type: "convene_meeting", topic: "Q3 plan", participantIds: [1, 2], participantNames: ["Alice", "Bob"] },
    };
    renderWithProviders(<ActionCard action={action} snapshot={undefined} />);
    expect(screen.getByText("Q3 plan")).toBeInTheDocument();
    expect(screen.getByText("Alice, Bob")).toBeInTheDocument();
    expect(screen.getByText("It gets a meeting chat.")).toBeInTheDocument();
  });
});

describe("an invitation card", () => {
  const invite = (over: Partial<Extract<ActionDto["proposal"], { type: "invite_person" }>> = {}): ActionDto => ({
    ...base,
    id: 11,
    status: "proposed",
    proposal: { type: "invite_person", name: "Lin", role: "head of Product", departmentId: 2, departmentName: "Product", policy: null, ...over },
  });

  it("says who joins, what they answer for and that those approvals go to them", () => {
    renderWithProviders(<ActionCard action={invite()} snapshot={undefined} />);
    expect(screen.getByText("Lin")).toBeInTheDocument();
    expect(screen.getByText("head of Product")).toBeInTheDocument();
    expect(screen.getByText("Product")).toBeInTheDocument();
    expect(screen.getByText("Key steps only (the default)")).toBeInTheDocument();
    expect(screen.getByText("Approvals for this work will go to them instead of to you.")).toBeInTheDocument();
    expect(screen.getByTestId("action-status-11")).toHaveTextContent("Awaiting your OK");
  });

  it("without a department, names no duty and promises no routing", () => {
    renderWithProviders(<ActionCard action={invite({ departmentId: null, departmentName: null, role: "", policy: "manual" })} snapshot={undefined} />);
    expect(screen.getByText("Nothing yet")).toBeInTheDocument();
    expect(screen.getByText("Everything")).toBeInTheDocument();
    expect(screen.queryByText("Approvals for this work will go to them instead of to you.")).not.toBeInTheDocument();
  });

  it("reads in Chinese, and a card being carried out says so", async () => {
    await i18n.changeLanguage("zh-CN");
    renderWithProviders(<ActionCard action={{ ...invite({ name: "林", role: "产品部负责人", departmentName: "产品部" }), status: "in_progress" }} snapshot={undefined} />);
    expect(screen.getByText("产品部负责人")).toBeInTheDocument();
    expect(screen.getByText("负责")).toBeInTheDocument();
    expect(screen.getByText("这部分工作的审批以后交给此人，而不是你。")).toBeInTheDocument();
    expect(screen.getByTestId("action-status-11")).toHaveTextContent("正在执行");
  });
});
