import { mockIPC } from "@tauri-apps/api/mocks";
import { describe, expect, it } from "vitest";
import { api } from "./api";
import { errorCode, errorDetail, isIpcError, toIpcError } from "./errors";
import { keysFor, onDomainEvent } from "./events";
import { emit } from "@tauri-apps/api/event";
import type { DomainEvent } from "../bindings/DomainEvent";

describe("IpcError parsing", () => {
  it("recognises the {code, message} the backend rejects with", () => {
    expect(isIpcError({ code: "not_found", message: "employee 3" })).toBe(true);
    expect(errorCode({ code: "duplicate_name", message: "x" })).toBe("duplicate_name");
    expect(errorDetail({ code: "duplicate_name", message: "Engineering exists" })).toBe("Engineering exists");
  });

  it("accepts the same error serialised as a JSON string", () => {
    expect(toIpcError('{"code":"storage","message":"locked"}')).toEqual({ code: "storage", message: "locked" });
  });

  it("maps anything else to 'unknown'", () => {
    expect(isIpcError({ code: "made_up", message: "?" })).toBe(false);
    expect(errorCode("command get_org not found")).toBe("unknown");
    expect(errorCode(new TypeError("window.__TAURI_INTERNALS__ is undefined"))).toBe("unknown");
    expect(errorCode(null)).toBe("unknown");
    expect(errorDetail(new Error("boom"))).toBe("boom");
  });
});

describe("commands", () => {
  it("use the contract's command names and pass one argument named input", async () => {
    const seen: Array<[string, unknown]> = [];
    mockIPC((cmd, args) => {
      seen.push([cmd, args]);
      return null;
    });
    await api.getOrg();
    await api.listRoleTemplates();
    await api.createDepartment({ name: "Ops", parentId: null, mission: null });
    await api.deleteDepartment({ id: 4, reassignTo: 2 });
    await api.moveEmployee({ employeeId: 7, departmentId: null });
    await api.setEmployeeBackend({ employeeId: 7, provider: "deepseek", model: "deepseek-chat" });
    await api.setEmployeeBackend({ employeeId: 7, provider: null, model: null });
    await api.listProviders();
    await api.setProviderKey({ providerId: "deepseek", key: "sk-test" });
    await api.testProvider({ providerId: "deepseek", model: null });
    await api.setBuiltinModel({ path: "/models/qwen.gguf" });
    await api.setBuiltinModel({ path: null });
    await api.setRoute({ purpose: "thought", providerId: "deepseek", model: "deepseek-chat" });
    await api.setBudget({ dailyBudgetUsd: 5 });
    await api.getSpend();
    await api.secretaryHistory();
    await api.secretarySay({ text: "hire a designer" });
    await api.secretaryConfirm({ actionId: 3, edits: null });
    await api.secretaryConfirm({ actionId: 3, edits: { name: "Bob", title: null, departmentId: 2, managerId: null, archetype: null } });
    await api.secretaryCancel({ actionId: 4 });
    await api.secretaryUndo({ actionId: 3 });
    await api.listChats();
    await api.chatView({ chatId: 2 });
    await api.postMessage({ chatId: 2, text: "@Alice ship it" });
    await api.markChatRead({ chatId: 2 });
    await api.openBossChat({ employeeId: 7 });
    await api.createGroup({ name: "Lunch", memberIds: [7, 8], mode: "casual" });
    await api.employeeProfile({ employeeId: 7 });
    await api.deleteMemory({ memoryId: 30 });
    await api.resetRelationships({ employeeId: 7, otherId: null });
    await api.relationshipGraph();
    await api.listMail({ status: null, kind: "report", employeeId: 12 });
    await api.setMailStatus({ mailId: 5, status: "archived" });
    await api.listApprovals({ kind: "pending" });
    await api.listApprovals({ kind: "history", status: "rejected", employeeId: 13 });
    await api.decideApproval({ approvalId: 4, decision: "approve", note: null, argsHash: "ab12" });
    expect(seen).toEqual([
      ["get_org", {}],
      ["list_role_templates", {}],
      ["create_department", { input: { name: "Ops", parentId: null, mission: null } }],
      ["delete_department", { input: { id: 4, reassignTo: 2 } }],
      ["move_employee", { input: { employeeId: 7, departmentId: null } }],
      ["set_employee_backend", { input: { employeeId: 7, provider: "deepseek", model: "deepseek-chat" } }],
      ["set_employee_backend", { input: { employeeId: 7, provider: null, model: null } }],
      ["list_providers", {}],
      ["set_provider_key", { input: { providerId: "deepseek", key: "sk-test" } }],
      ["test_provider", { input: { providerId: "deepseek", model: null } }],
      ["set_builtin_model", { input: { path: "/models/qwen.gguf" } }],
      ["set_builtin_model", { input: { path: null } }],
      ["set_route", { input: { purpose: "thought", providerId: "deepseek", model: "deepseek-chat" } }],
      ["set_budget", { input: { dailyBudgetUsd: 5 } }],
      ["get_spend", {}],
      ["secretary_history", {}],
      ["secretary_say", { input: { text: "hire a designer" } }],
      ["secretary_confirm", { input: { actionId: 3, edits: null } }],
      ["secretary_confirm", { input: { actionId: 3, edits: { name: "Bob", title: null, departmentId: 2, managerId: null, archetype: null } } }],
      ["secretary_cancel", { input: { actionId: 4 } }],
      ["secretary_undo", { input: { actionId: 3 } }],
      ["list_chats", {}],
      ["chat_view", { input: { chatId: 2 } }],
      ["post_message", { input: { chatId: 2, text: "@Alice ship it" } }],
      ["mark_chat_read", { input: { chatId: 2 } }],
      ["open_boss_chat", { input: { employeeId: 7 } }],
      ["create_group", { input: { name: "Lunch", memberIds: [7, 8], mode: "casual" } }],
      ["employee_profile", { input: { employeeId: 7 } }],
      ["delete_memory", { input: { memoryId: 30 } }],
      ["reset_relationships", { input: { employeeId: 7, otherId: null } }],
      ["relationship_graph", {}],
      ["list_mail", { input: { status: null, kind: "report", employeeId: 12 } }],
      ["set_mail_status", { input: { mailId: 5, status: "archived" } }],
      ["list_approvals", { input: { kind: "pending" } }],
      ["list_approvals", { input: { kind: "history", status: "rejected", employeeId: 13 } }],
      ["decide_approval", { input: { approvalId: 4, decision: "approve", note: null, argsHash: "ab12" } }],
    ]);
  });

  it("reject with the backend's IpcError unchanged", async () => {
    mockIPC(() => {
      throw { code: "department_not_empty", message: "has people" };
    });
    const error: unknown = await api.deleteDepartment({ id: 1, reassignTo: null }).catch((e: unknown) => e);
    expect(errorCode(error)).toBe("department_not_empty");
  });
});

describe("domain events", () => {
  it("delivers the payload of 'domain-event' and stops after unlisten", async () => {
    mockIPC(() => null, { shouldMockEvents: true });
    const got: DomainEvent[] = [];
    const unlisten = await onDomainEvent((e) => got.push(e));
    await emit("domain-event", { type: "employee_hired", employeeId: 5 });
    unlisten();
    await emit("domain-event", { type: "employee_fired", employeeId: 5 });
    expect(got).toEqual([{ type: "employee_hired", employeeId: 5 }]);
  });

  it("invalidates the org query (and profiles and the graph) for every org event, and the company (and spend) queries for company changes", () => {
    expect(keysFor({ type: "company_updated", companyId: 1 })).toEqual([["org"], ["company"], ["spend"], ["employee-tools"], ["providers", "imported-to-confirm"]]);
    expect(keysFor({ type: "local_model_changed", modelId: "qwen2.5-1.5b-instruct-q4_k_m" })).toEqual([["providers", "local-models"]]);
    expect(keysFor({ type: "department_deleted", departmentId: 2 })).toEqual([
      ["org"], ["profile"], ["relationship-graph"], ["dashboard"], ["board"], ["employee-tools"], ["routes", "thought-model"], ["providers", "imported-to-confirm"],
    ]);
    expect(keysFor({ type: "employee_updated", employeeId: 2 })).toEqual([
      ["org"], ["profile"], ["relationship-graph"], ["dashboard"], ["board"], ["employee-tools"], ["routes", "thought-model"], ["providers", "imported-to-confirm"],
    ]);
  });

  it("invalidates the chat list and the one chat a chat event is about", () => {
    expect(keysFor({ type: "chat_message_posted", chatId: 1, messageId: 9 })).toEqual([["chats", "list"], ["chats", "view", 1], ["meeting", 1], ["dashboard"], ["traces"], ["proxy"]]);
    expect(keysFor({ type: "chat_changed", chatId: 4 })).toEqual([["chats", "list"], ["chats", "view", 4], ["meeting", 4], ["dashboard"], ["traces"]]);
    expect(keysFor({ type: "chat_read", chatId: 4 })).toEqual([["chats", "list"]]);
  });

  it("invalidates the one person's proxy a proxy event is about, and every proxy card when people change", () => {
    expect(keysFor({ type: "proxy_conversation", personId: 7 })).toEqual([["proxy", 7]]);
    expect(keysFor({ type: "people_changed", personId: 7 })).toEqual([["people"], ["proxy"]]);
  });

  it("invalidates the profile (and the chat, and the graph) an employee's mind event is about", () => {
    expect(keysFor({ type: "thought_recorded", employeeId: 7, chatId: 3 })).toEqual([["profile", 7], ["chats", "view", 3], ["dashboard"], ["traces"]]);
    expect(keysFor({ type: "thought_recorded", employeeId: 7, chatId: null })).toEqual([["profile", 7], ["dashboard"], ["traces"]]);
    expect(keysFor({ type: "mind_changed", employeeId: 7 })).toEqual([["profile", 7], ["relationship-graph"]]);
    expect(keysFor({ type: "work_changed" })).toEqual([["profile"], ["dashboard"], ["board"], ["traces"]]);
    expect(keysFor({ type: "secretary_reply_delta", streamId: 1, text: "Hi" })).toEqual([]);
  });

  it("invalidates the settings queries for provider, spend and budget events", () => {
    expect(keysFor({ type: "providers_changed" })).toEqual([["providers"], ["routes"], ["prices"]]);
    expect(keysFor({ type: "spend_recorded" })).toEqual([["spend"], ["profile"], ["dashboard"], ["traces"]]);
    expect(keysFor({ type: "budget_exceeded", spentUsd: 10.2, budgetUsd: 10 })).toEqual([["spend"], ["org"], ["company"], ["dashboard"]]);
  });

  it("refreshes every approval listing (and the badge), the dashboard, the requester and the traces when an approval is asked for or decided", () => {
    for (const event of [
      { type: "approval_requested", approvalId: 3 },
      { type: "approval_decided", approvalId: 3 },
    ] as const) {
      const keys = keysFor(event);
      for (const key of [["approvals"], ["dashboard"], ["org"], ["profile"], ["traces"], ["mailbox"]]) expect(keys, event.type).toContainEqual(key);
    }
  });

  it("invalidates every mailbox listing when the mail changes", () => {
    expect(keysFor({ type: "mail_changed" })).toEqual([["mailbox"], ["dashboard"], ["traces"], ["meeting"]]);
  });

  it("refreshes the traces and the board when work, messages, thoughts, mail or spend change", () => {
    for (const event of [
      { type: "work_changed" },
      { type: "chat_message_posted", chatId: 1, messageId: 2 },
      { type: "thought_recorded", employeeId: 7, chatId: null },
      { type: "mail_changed" },
      { type: "spend_recorded" },
    ] as const) {
      expect(keysFor(event), event.type).toContainEqual(["traces"]);
    }
    expect(keysFor({ type: "work_changed" })).toContainEqual(["board"]);
    expect(keysFor({ type: "employee_fired", employeeId: 3 })).toContainEqual(["board"]);
    expect(keysFor({ type: "chat_read", chatId: 4 })).not.toContainEqual(["traces"]);
  });

  it("refreshes the dashboard on every event that changes tasks, chats, mail, the org or spend", () => {
    expect(keysFor({ type: "employee_hired", employeeId: 3 })).toContainEqual(["dashboard"]);
    expect(keysFor({ type: "employee_fired", employeeId: 3 })).toContainEqual(["dashboard"]);
    expect(keysFor({ type: "chat_read", chatId: 4 })).not.toContainEqual(["dashboard"]);
    expect(keysFor({ type: "providers_changed" })).not.toContainEqual(["dashboard"]);
  });
});
