// An in-memory Cubicle behind mockIPC: implements every IPC command with the same error codes,
// records every call, and emits "domain-event" like the Rust side does. The commands are one table
// typed by the generated command map (commandTable.ts): a command the app has and the fake lacks,
// or a handler of the wrong type, fails `tsc -b`. The chat and mind commands (and their seeding
// helpers) live in fakeChats.ts, the mailbox's in fakeMailbox.ts, requirements and traces in
// fakeWork.ts, meetings in fakeMeetings.ts, approvals in fakeApprovals.ts, an employee's tools and
// approval policy in fakeTools.ts, people's proxies in fakeProxy.ts: this class extends them all
// (FakeBackend → FakeProxies → FakeTools → FakeApprovals → FakeMeetings → FakeWork → FakeMailbox →
// FakeChatsAndMinds). Bundles (fakeBundle.ts), local models (fakeModels.ts), people (fakePeople.ts),
// role cards (fakeRoles.ts) and joining a company server (fakeServer.ts) are functions over it.
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import type { CompanyDto } from "../../bindings/CompanyDto";
import type { DeleteDepartment } from "../../bindings/DeleteDepartment";
import type { DepartmentDto } from "../../bindings/DepartmentDto";
import type { DomainEvent } from "../../bindings/DomainEvent";
import type { EmployeeDto } from "../../bindings/EmployeeDto";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { FireEmployee } from "../../bindings/FireEmployee";
import type { IpcError } from "../../bindings/IpcError";
import type { MoveDepartment } from "../../bindings/MoveDepartment";
import type { MoveEmployee } from "../../bindings/MoveEmployee";
import type { NewDepartment } from "../../bindings/NewDepartment";
import type { NewEmployee } from "../../bindings/NewEmployee";
import type { OrgSnapshot } from "../../bindings/OrgSnapshot";
import type { RenameDepartment } from "../../bindings/RenameDepartment";
import type { RoleTemplateDto } from "../../bindings/RoleTemplateDto";
import type { SetDepartmentLead } from "../../bindings/SetDepartmentLead";
import type { SetEmployeeBackend } from "../../bindings/SetEmployeeBackend";
import type { SetManager } from "../../bindings/SetManager";
import type { SetupCompany } from "../../bindings/SetupCompany";
import type { UpdateCompany } from "../../bindings/UpdateCompany";
import type { BuiltinStatus } from "../../bindings/BuiltinStatus";
import type { PresetDto } from "../../bindings/PresetDto";
import type { PriceDto } from "../../bindings/PriceDto";
import type { ProviderDto } from "../../bindings/ProviderDto";
import type { ProviderRef } from "../../bindings/ProviderRef";
import type { RouteDto } from "../../bindings/RouteDto";
import type { SaveProvider } from "../../bindings/SaveProvider";
import type { SetBuiltinModel } from "../../bindings/SetBuiltinModel";
import type { ThoughtModelDto } from "../../bindings/ThoughtModelDto";
import type { ThoughtModelKind } from "../../bindings/ThoughtModelKind";
import type { SetBudget } from "../../bindings/SetBudget";
import type { SetPrice } from "../../bindings/SetPrice";
import type { SetProviderKey } from "../../bindings/SetProviderKey";
import type { SetRoute } from "../../bindings/SetRoute";
import type { SpendReport } from "../../bindings/SpendReport";
import type { TestProvider } from "../../bindings/TestProvider";
import type { TestResult } from "../../bindings/TestResult";
import type { ActionDto } from "../../bindings/ActionDto";
import type { HireEdits } from "../../bindings/HireEdits";
import type { SecretaryMessageDto } from "../../bindings/SecretaryMessageDto";
import type { SecretaryTurn } from "../../bindings/SecretaryTurn";
import type { ActivityItem } from "../../bindings/ActivityItem";
import type { DashboardDto } from "../../bindings/DashboardDto";
import type { DashboardTask } from "../../bindings/DashboardTask";
import type { Urgency } from "../../bindings/Urgency";
import type { SecretaryActionRef, SecretaryConfirm, SecretarySay } from "../../ipc/api";
import type { ConnectionDto } from "../../bindings/ConnectionDto";
import type { Purpose } from "../../bindings/Purpose";
import type { SignedIn } from "../../bindings/SignedIn";
import { isCommand, runCommand, type Args, type CommandName, type CommandTable, type Output } from "./commandTable";
import { peopleCommands } from "./fakePeople";
import { bundleCommands } from "./fakeBundle";
import { fakeCatalogue, modelsCommands } from "./fakeModels";
import type { LocalModelDto } from "../../bindings/LocalModelDto";
import type { LocalServerDto } from "../../bindings/LocalServerDto";
import { FakeProxies } from "./fakeProxy";
import { rolesCommands, shippedCards, type FakeRoleCard } from "./fakeRoles";
import { serverCommands, type FakeCompanyServer } from "./fakeServer";
import { readBossText } from "./fakeSecretary";
import type { DeskUser } from "../../bindings/DeskUser";
import type { UseDeskAs } from "../../bindings/UseDeskAs";
import {
  BUILTIN_MODEL,
  PRESETS,
  ROLE_TEMPLATES,
  CREATED,
  builtinProvider,
  builtinStatus,
  defaultPrices,
  defaultRoutes,
  emptySpend,
  employee as makeEmployee,
} from "../../test/fakeFixtures";

const ROUTABLE = new Set(["intent", "thought", "summary", "report", "privacy"]);
/** The GGUF the app ships (DEFAULT_MODEL_FILE on the Rust side). */
const BUNDLED_MODEL_FILE = "SmolLM2-135M-Instruct.Q4_1.gguf";
const QWEN_CODER_FILE = "Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf";
/** The built-in models the app ships (crates/llm/src/model_file.rs): either is the small bundled model. */
const SHIPPED_MODEL_FILES = [BUNDLED_MODEL_FILE, QWEN_CODER_FILE];
const BUNDLED_MODEL_PATH = `/home/ada/.local/share/app.cubicle.desktop/models/${BUNDLED_MODEL_FILE}`;

/** As on the Rust side (providers/thinking.rs): the file name without `.gguf` and a `.Q…` quantisation tag. */
function modelLabel(path: string): string {
  const name = path.split("/").pop() ?? "";
  const stem = name.toLowerCase().endsWith(".gguf") && name.length > 5 ? name.slice(0, -5) : name;
  const dot = stem.lastIndexOf(".");
  return dot > 0 && /^[Qq]\d/.test(stem.slice(dot + 1)) ? stem.slice(0, dot) : stem;
}
/** The size the fake reports for any custom GGUF file. */
const CUSTOM_MODEL_BYTES = 1_117_320_736;

export interface Call {
  cmd: string;
  args: Record<string, unknown> | undefined;
}

/** As on the Rust side (UNDO_WINDOW_MINUTES). */
export const UNDO_WINDOW_MS = 10 * 60 * 1000;

/** How to reverse an applied secretary action. */
type Undo =
  | { type: "remove_hire"; employeeId: number }
  | { type: "unfire"; employeeId: number }
  | { type: "move_back"; employeeId: number; departmentId: number | null }
  | { type: "delete_department"; departmentId: number };

/** How many activity lines get_dashboard returns at most. */
const DASHBOARD_ACTIVITY_LIMIT = 50;
/** The secretary's destructive actions, as core says once (`secretary::actions::is_destructive`). */
const DESTRUCTIVE: ReadonlySet<ActionDto["proposal"]["type"]> = new Set(["fire", "delete_department"]);

/** As on the Rust side (work/urgency.rs): aging from 5 minutes, overdue from 15, critical from 30. */
function fakeUrgency(minutes: number): Urgency {
  if (minutes >= 30) return "critical";
  if (minutes >= 15) return "overdue";
  if (minutes >= 5) return "aging";
  return "normal";
}

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

export class FakeBackend extends FakeProxies {
  company: CompanyDto | null;
  departments: DepartmentDto[];
  employees: EmployeeDto[];
  templates: RoleTemplateDto[] = ROLE_TEMPLATES;
  savedBundles: { path: string; text: string }[] = [];
  /** CLI commands as a bundle brought them, by employee id (see fakeBundle.ts). */
  importedCli = new Map<number, string>();
  calls: Call[] = [];
  /** Make the next call of a command fail with this error (once). */
  failures = new Map<CommandName, IpcError>();
  /** Hold a command until this promise settles (to see loading states). */
  gates = new Map<CommandName, Promise<unknown>>();

  // The secretary: the conversation (oldest first), and how to undo each applied action.
  secretaryMessages: SecretaryMessageDto[] = [];
  private undos = new Map<number, Undo>();
  private hires = 0;
  /** The fake's clock (undo windows, message times); tests may move it. */
  now: () => number = () => Date.now();

  // Settings. Keys are never stored, let alone returned: a "keychain" here only remembers that one is set.
  presets: PresetDto[] = structuredClone(PRESETS);
  providers: ProviderDto[] = [builtinProvider()];
  routes: RouteDto[] = defaultRoutes();
  prices: PriceDto[] = defaultPrices();
  /** Today's spend; `budgetUsd` always follows the company's daily budget. */
  spend: SpendReport = emptySpend();
  builtin: BuiltinStatus = builtinStatus({ path: BUNDLED_MODEL_PATH, defaultPath: BUNDLED_MODEL_PATH });
  /** What set_builtin_model(null) goes back to (remembered when a custom file is chosen). */
  private bundled: Pick<BuiltinStatus, "installed" | "sizeBytes"> = { installed: true, sizeBytes: 94_371_840 };
  /** Who uses this desktop: the boss, asked already (as a desktop nobody shares). */
  desk: DeskUser = { personId: null, canChange: true, chosen: true };
  /** The local model catalogue with each model's state (see fakeModels.ts). */
  localModels: LocalModelDto[] = fakeCatalogue();
  /** Model servers "running on this machine" that detect_local_servers finds. */
  localServers: LocalServerDto[] = [];
  /** Where the company lives (`server`: `host:port/database` on a company server; null for a local company). */
  connectionInfo: ConnectionDto = { server: null, source: "local", signInFailed: null };
  /** The company servers a sign-in can reach (see fakeServer.ts); none unless seeded. */
  companyServers: FakeCompanyServer[] = [];
  /** The sign-in in the keychain, and whom it opens the company as. */
  savedSignIn: { url: string; who: SignedIn } | null = null;
  firstPaintAt: number | null = null;
  /** The role card library (see fakeRoles.ts); `templates` follow it. */
  roleCards: FakeRoleCard[] = shippedCards();
  exportedRoles: { dir: string; files: { path: string; text: string }[] }[] = [];
  /** false = no OS keychain: set_provider_key fails with secret_unavailable. */
  keychainAvailable = true;
  /** Canned test_provider answers by provider id; otherwise ok, unless a required key is missing. */
  testResults = new Map<string, TestResult>();
  /** When set, get_dashboard answers this instead of computing it from the tasks, chats and mail. */
  dashboardSeed: DashboardDto | null = null;

  constructor(seed: Partial<OrgSnapshot> = {}) {
    super();
    this.company = seed.company ?? null;
    this.departments = structuredClone(seed.departments ?? []);
    this.employees = structuredClone(seed.employees ?? []);
    this.seedDepartmentChats();
  }

  install(): this {
    mockIPC((cmd, args) => this.handle(cmd, args as Record<string, unknown> | undefined), { shouldMockEvents: true });
    return this;
  }

  callsOf(cmd: string): Call[] {
    return this.calls.filter((c) => c.cmd === cmd);
  }

  inputsOf(cmd: string): unknown[] {
    return this.callsOf(cmd).map((c) => c.args?.input);
  }

  snapshot(): OrgSnapshot {
    return structuredClone({
      company: this.company,
      departments: this.departments,
      teams: [],
      employees: this.employees.filter((e) => e.status !== "fired"),
    });
  }

  /** Send a domain event to the UI, as the Rust side does after each change. */
  emit(event: DomainEvent): void {
    void emit("domain-event", event);
  }

  /**
   * The IPC boundary: a command by its name, with what `invoke` sent. An unknown name is refused as
   * the shell refuses it; the rest goes to the command's handler in the table.
   */
  handle(cmd: string, args: Record<string, unknown> | undefined): unknown {
    this.calls.push({ cmd, args: structuredClone(args) });
    if (!isCommand(this.table, cmd)) return fail("internal", `unknown command ${cmd}`);
    // Untyped here, as IPC is: the generated wrapper of `cmd` (the only sender) typed what it sent;
    // the Rust side checks it again with serde, the fake trusts it.
    const input = (args ?? {}) as Args<typeof cmd>;
    const gate = this.gates.get(cmd);
    if (gate) {
      this.gates.delete(cmd);
      return gate.then(() => this.dispatch(cmd, input));
    }
    return this.dispatch(cmd, input);
  }

  private dispatch<K extends CommandName>(cmd: K, args: Args<K>): Output<K> | Promise<Output<K>> {
    const failure = this.failures.get(cmd);
    if (failure) {
      this.failures.delete(cmd);
      throw failure;
    }
    return runCommand(this.table, cmd, args);
  }

  /** The commands this backend answers (every command of the generated map). */
  commandNames(): CommandName[] {
    return Object.keys(this.table).filter((cmd) => isCommand(this.table, cmd));
  }

  /**
   * A command as the UI would send it, typed: for seeding a demo or a test through the real handlers
   * (not recorded in `calls`, and past `failures` and `gates`).
   */
  call<K extends CommandName>(cmd: K, args: Args<K>): Output<K> | Promise<Output<K>> {
    return runCommand(this.table, cmd, args);
  }

  /** Every command of the app (the generated map): a missing or mistyped one does not compile. */
  private readonly table: CommandTable = {
    ...bundleCommands(this),
    ...modelsCommands(this),
    ...peopleCommands(this),
    ...rolesCommands(this),
    ...serverCommands(this),
    ...this.approvalCommands(),
    ...this.toolsCommands(),
    ...this.meetingCommands(),
    ...this.workCommands(),
    ...this.mailCommands(),
    ...this.chatCommands(),
    ...this.proxyCommands(),
    get_org: () => this.snapshot(),
    list_role_templates: () => structuredClone(this.templates),
    setup_company: ({ input }) => this.setupCompany(input),
    update_company: ({ input }) => this.updateCompany(input),
    create_department: ({ input }) => this.createDepartment(input),
    rename_department: ({ input }) => this.renameDepartment(input),
    move_department: ({ input }) => this.moveDepartment(input),
    delete_department: ({ input }) => this.deleteDepartment(input),
    set_department_lead: ({ input }) => this.setDepartmentLead(input),
    hire_employee: ({ input }) => this.hire(input),
    move_employee: ({ input }) => this.moveEmployee(input),
    set_manager: ({ input }) => this.setManager(input),
    fire_employee: ({ input }) => this.fire(input),
    set_employee_backend: ({ input }) => this.setEmployeeBackend(input),
    list_presets: () => structuredClone(this.presets),
    list_providers: () => structuredClone(this.providers),
    save_provider: ({ input }) => this.saveProvider(input),
    delete_provider: ({ input }) => this.deleteProvider(input),
    set_provider_key: ({ input }) => this.setProviderKey(input),
    delete_provider_key: ({ input }) => this.deleteProviderKey(input),
    test_provider: ({ input }) => this.testProvider(input),
    builtin_status: () => structuredClone(this.builtin),
    connection: () => structuredClone(this.connectionInfo),
    desk_user: () => structuredClone(this.desk),
    use_desk_as: ({ input }) => this.useDeskAs(input),
    set_builtin_model: ({ input }) => this.setBuiltinModel(input),
    get_routes: () => structuredClone(this.routes),
    thought_model: () => this.thoughtModel(),
    set_route: ({ input }) => this.setRoute(input),
    list_builtin_purposes: ({ input }) => this.builtinPurposes(input.providerId),
    use_provider_for_builtin_purposes: ({ input }) => this.useProviderForBuiltinPurposes(input.providerId),
    list_prices: () => structuredClone(this.prices),
    set_price: ({ input }) => this.setPrice(input),
    set_budget: ({ input }) => this.setBudget(input),
    get_spend: () => structuredClone({ ...this.spend, budgetUsd: this.company?.dailyBudgetUsd ?? this.spend.budgetUsd }),
    get_dashboard: () => this.dashboard(),
    secretary_history: () => structuredClone(this.secretaryMessages.slice(-200)),
    secretary_say: ({ input }) => this.secretarySay(input),
    secretary_confirm: ({ input }) => this.secretaryConfirm(input),
    secretary_cancel: ({ input }) => this.secretaryCancel(input),
    secretary_undo: ({ input }) => this.secretaryUndo(input),
  };

  /**
   * The dashboard, as the Rust side computes it: every task still pending (all of the fake's tasks are),
   * the most urgent then the oldest first; and the latest activity (chat messages, tasks given, mail
   * filed), newest first; and how many approvals wait. `dashboardSeed` replaces the answer outright.
   */
  private dashboard(): DashboardDto {
    if (this.dashboardSeed) return structuredClone(this.dashboardSeed);
    const now = this.now();
    const name = (id: number | null) => (id === null ? "" : (this.employees.find((e) => e.id === id)?.name ?? ""));
    const rank: Record<Urgency, number> = { critical: 0, overdue: 1, aging: 2, normal: 3 };
    const tasks: DashboardTask[] = this.tasks
      .map((task) => {
        const minutes = Math.max(0, Math.floor((now - Date.parse(task.createdAt)) / 60_000));
        return {
          id: task.id,
          ownerId: task.ownerId,
          ownerName: name(task.ownerId),
          description: task.description,
          urgency: fakeUrgency(minutes),
          // An i64 on the Rust side: serde sends it as a plain JSON number, whatever ts-rs says.
          ageMinutes: minutes,
        };
      })
      .sort((a, b) => rank[a.urgency] - rank[b.urgency] || b.ageMinutes - a.ageMinutes || a.id - b.id);
    const none = { employeeId: null, chatId: null, taskId: null, mailId: null, status: null };
    const activity: ActivityItem[] = [
      ...this.chatMessages
        .filter((m) => m.senderKind !== "system")
        .map((m) => ({ ...none, kind: "message" as const, at: m.createdAt, employeeId: m.senderEmployeeId, actor: m.senderName, text: m.text, chatId: m.chatId })),
      ...this.tasks.map((task) => ({
        ...none,
        kind: "task" as const,
        at: task.createdAt,
        employeeId: task.ownerId,
        actor: name(task.ownerId),
        text: task.description,
        taskId: task.id,
        status: "pending",
      })),
      ...this.mail.map((m) => ({
        ...none,
        kind: "mail" as const,
        at: m.createdAt,
        employeeId: m.employeeId,
        actor: m.employeeName,
        text: m.title,
        chatId: m.chatId,
        taskId: m.taskId,
        mailId: m.id,
      })),
    ]
      .sort((a, b) => Date.parse(b.at) - Date.parse(a.at))
      .slice(0, DASHBOARD_ACTIVITY_LIMIT);
    return structuredClone({ tasks, activity, pendingApprovals: this.pendingApprovalCount() });
  }

  private requireCompany(): CompanyDto {
    return this.company ?? fail("company_missing", "no company");
  }

  private dept(id: number): DepartmentDto {
    return this.departments.find((d) => d.id === id) ?? fail("not_found", `department ${id}`);
  }

  private person(id: number): EmployeeDto {
    const e = this.employees.find((x) => x.id === id) ?? fail("not_found", `employee ${id}`);
    if (e.status === "fired") fail("already_fired", `employee ${id}`);
    return e;
  }

  private subtree(id: number): Set<number> {
    const ids = new Set([id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const d of this.departments) {
        if (d.parentId !== null && ids.has(d.parentId) && !ids.has(d.id)) {
          ids.add(d.id);
          grew = true;
        }
      }
    }
    return ids;
  }

  private setupCompany(input: SetupCompany): CompanyDto {
    if (this.company) fail("company_exists", "company exists");
    if (input.name.trim() === "" || input.bossName.trim() === "") fail("invalid_input", "empty name");
    this.company = {
      id: 1,
      name: input.name,
      bossName: input.bossName,
      language: input.language,
      mission: input.mission ?? "",
      approvalPolicy: "key_steps",
      dailyBudgetUsd: 10,
      createdAt: CREATED,
    };
    this.emit({ type: "company_updated", companyId: 1 });
    return structuredClone(this.company);
  }

  private updateCompany(input: UpdateCompany): CompanyDto {
    const c = this.requireCompany();
    if (input.name !== null) c.name = input.name;
    if (input.mission !== null) c.mission = input.mission;
    if (input.bossName !== null) c.bossName = input.bossName;
    if (input.language !== null) c.language = input.language;
    this.emit({ type: "company_updated", companyId: c.id });
    return structuredClone(c);
  }

  private createDepartment(input: NewDepartment): DepartmentDto {
    this.requireCompany();
    if (input.name.trim() === "") fail("invalid_input", "empty name");
    if (this.departments.some((d) => d.name.toLowerCase() === input.name.toLowerCase())) fail("duplicate_name", input.name);
    if (input.parentId !== null) this.dept(input.parentId);
    const d: DepartmentDto = {
      id: this.nextId++,
      name: input.name,
      mission: input.mission ?? "",
      parentId: input.parentId,
      leadId: null,
      createdAt: CREATED,
    };
    this.departments.push(d);
    this.emit({ type: "department_created", departmentId: d.id });
    return structuredClone(d);
  }

  private renameDepartment(input: RenameDepartment): DepartmentDto {
    const d = this.dept(input.id);
    if (this.departments.some((x) => x.id !== d.id && x.name.toLowerCase() === input.name.toLowerCase())) {
      fail("duplicate_name", input.name);
    }
    d.name = input.name;
    this.emit({ type: "department_updated", departmentId: d.id });
    return structuredClone(d);
  }

  private moveDepartment(input: MoveDepartment): DepartmentDto {
    const d = this.dept(input.id);
    if (input.parentId !== null && this.subtree(d.id).has(input.parentId)) fail("department_cycle", "cycle");
    d.parentId = input.parentId;
    this.emit({ type: "department_updated", departmentId: d.id });
    return structuredClone(d);
  }

  private deleteDepartment(input: DeleteDepartment): null {
    const d = this.dept(input.id);
    const people = this.employees.filter((e) => e.departmentId === d.id && e.status !== "fired");
    const children = this.departments.filter((x) => x.parentId === d.id);
    if (people.length + children.length > 0) {
      if (input.reassignTo === null) fail("department_not_empty", "not empty");
      const target = this.dept(input.reassignTo as number);
      if (this.subtree(d.id).has(target.id)) fail("department_cycle", "target inside");
      for (const p of people) p.departmentId = target.id;
      for (const c of children) c.parentId = target.id;
    }
    this.departments = this.departments.filter((x) => x.id !== d.id);
    this.emit({ type: "department_deleted", departmentId: d.id });
    return null;
  }

  private hire(input: NewEmployee): EmployeeDto {
    this.requireCompany();
    if (input.name.trim() === "" || input.title.trim() === "") fail("invalid_input", "empty");
    if (input.departmentId !== null) this.dept(input.departmentId);
    if (input.managerId !== null) this.person(input.managerId);
    const e = makeEmployee(this.nextId++, input.name, input.departmentId, {
      title: input.title,
      managerId: input.managerId,
      archetype: input.archetype ?? "warm_hearted",
    });
    this.employees.push(e);
    this.emit({ type: "employee_hired", employeeId: e.id });
    if (e.departmentId !== null) this.joinDepartmentChat(e.departmentId, e.id);
    return structuredClone(e);
  }

  private moveEmployee(input: MoveEmployee): EmployeeDto {
    const e = this.person(input.employeeId);
    if (input.departmentId !== null) this.dept(input.departmentId);
    e.departmentId = input.departmentId;
    this.emit({ type: "employee_updated", employeeId: e.id });
    return structuredClone(e);
  }

  private setDepartmentLead(input: SetDepartmentLead): DepartmentDto {
    const d = this.dept(input.departmentId);
    if (input.employeeId !== null && this.person(input.employeeId).departmentId !== d.id) {
      fail("invalid_input", "not a member");
    }
    d.leadId = input.employeeId;
    this.emit({ type: "department_updated", departmentId: d.id });
    return structuredClone(d);
  }

  private setManager(input: SetManager): EmployeeDto {
    const e = this.person(input.employeeId);
    if (input.managerId !== null) {
      if (input.managerId === e.id) fail("invalid_manager", "self");
      this.person(input.managerId);
    }
    e.managerId = input.managerId;
    this.emit({ type: "employee_updated", employeeId: e.id });
    return structuredClone(e);
  }

  private fire(input: FireEmployee): EmployeeDto {
    const e = this.person(input.employeeId);
    e.status = "fired";
    e.firedAt = CREATED;
    this.emit({ type: "employee_fired", employeeId: e.id });
    return structuredClone(e);
  }

  /** Like the Rust side: no (or a blank) provider = the company default, whose model is always empty. */
  private setEmployeeBackend(input: SetEmployeeBackend): EmployeeDto {
    const provider = input.provider?.trim() ?? "";
    if (provider !== "") this.provider(provider);
    const e = this.person(input.employeeId);
    e.backend = { provider, model: provider === "" ? "" : (input.model ?? "").trim() };
    this.emit({ type: "employee_updated", employeeId: e.id });
    return structuredClone(e);
  }

  // ---- Settings ----

  private provider(id: string): ProviderDto {
    return this.providers.find((p) => p.id === id) ?? fail("not_found", `provider ${id}`);
  }

  private saveProvider(input: SaveProvider): ProviderDto {
    const name = input.name.trim();
    if (name === "" || input.defaultModel.trim() === "") fail("invalid_input", "empty name or model");
    const preset = this.presets.find((p) => p.id === input.preset) ?? fail("invalid_input", `unknown preset ${input.preset}`);
    if (preset.dialect === "builtin") fail("invalid_input", "the built-in provider is fixed");
    if (!/^https?:\/\//.test(input.baseUrl)) fail("invalid_input", "base URL");
    if (this.providers.some((p) => p.id !== input.id && p.name.toLowerCase() === name.toLowerCase())) fail("duplicate_name", name);
    let p: ProviderDto;
    if (input.id === null) {
      const base = name.toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "") || "provider";
      let id = base;
      for (let i = 2; this.providers.some((x) => x.id === id); i++) id = `${base}-${i}`;
      p = {
        id,
        name,
        preset: preset.id,
        dialect: preset.dialect,
        baseUrl: input.baseUrl,
        defaultModel: input.defaultModel,
        models: [...input.models],
        enabled: input.enabled,
        keyRequired: preset.keyRequired,
        hasKey: false,
        keySource: "none",
        builtin: false,
        importedUnconfirmed: false,
        onThisComputer: /^https?:\/\/(localhost|127\.|\[::1\])/i.test(input.baseUrl),
      };
      this.providers.push(p);
    } else {
      p = this.provider(input.id);
      if (p.builtin) fail("invalid_input", "the built-in provider is fixed");
      // A URL the boss types is theirs; the imported one stays unconfirmed (as on the Rust side).
      const importedUnconfirmed = p.importedUnconfirmed && p.baseUrl === input.baseUrl;
      Object.assign(p, { name, baseUrl: input.baseUrl, defaultModel: input.defaultModel, models: [...input.models], enabled: input.enabled, importedUnconfirmed, onThisComputer: /^https?:\/\/(localhost|127\.|\[::1\])/i.test(input.baseUrl) });
    }
    this.emit({ type: "providers_changed" });
    return structuredClone(p);
  }

  private deleteProvider(input: ProviderRef): null {
    const p = this.provider(input.providerId);
    if (p.builtin) fail("invalid_input", "the built-in provider cannot be deleted");
    this.providers = this.providers.filter((x) => x.id !== p.id);
    for (const r of this.routes) {
      if (r.providerId === p.id) Object.assign(r, { providerId: "builtin", model: BUILTIN_MODEL });
    }
    this.emit({ type: "providers_changed" });
    return null;
  }

  private setProviderKey(input: SetProviderKey): ProviderDto {
    const p = this.provider(input.providerId);
    if (p.builtin) fail("invalid_input", "the built-in model takes no key");
    if (input.key.trim() === "") fail("invalid_input", "empty key");
    if (!this.keychainAvailable) {
      fail(
        "secret_unavailable",
        "no OS keychain is available (org.freedesktop.secrets not provided). Start a Secret Service, or pass the key in the environment as CUBICLE_API_KEY_<PROVIDER_ID>",
      );
    }
    // The environment wins over the keychain, as on the Rust side.
    if (p.keySource !== "environment") Object.assign(p, { hasKey: true, keySource: "keychain" });
    this.emit({ type: "providers_changed" });
    return structuredClone(p);
  }

  private deleteProviderKey(input: ProviderRef): ProviderDto {
    const p = this.provider(input.providerId);
    if (p.keySource === "keychain") Object.assign(p, { hasKey: false, keySource: "none" });
    this.emit({ type: "providers_changed" });
    return structuredClone(p);
  }

  private testProvider(input: TestProvider): TestResult {
    const p = this.provider(input.providerId);
    const model = input.model ?? p.defaultModel;
    const canned = this.testResults.get(p.id);
    if (canned) return structuredClone(canned);
    if (p.importedUnconfirmed) {
      const message = `the provider ${p.name} (${p.id}) was imported with the company and its base URL ${p.baseUrl} has not been confirmed on this computer; nothing was sent.`;
      return { ok: false, latencyMs: 0, model, reply: null, error: { code: "not_confirmed", message } };
    }
    if (p.keyRequired && !p.hasKey) {
      return { ok: false, latencyMs: 0, model, reply: null, error: { code: "missing_key", message: `no API key for ${p.id}` } };
    }
    return { ok: true, latencyMs: p.builtin ? 840 : 312, model, reply: "Hello! I am ready to work.", error: null };
  }

  /** Like the Rust side: blank = back to the default; the file must be a GGUF (here: named *.gguf). */
  private setBuiltinModel(input: SetBuiltinModel): BuiltinStatus {
    const path = input.path?.trim() || null;
    if (path === null) {
      if (this.builtin.custom) Object.assign(this.builtin, { ...this.bundled, path: this.builtin.defaultPath, custom: false });
    } else {
      if (!path.toLowerCase().endsWith(".gguf")) fail("invalid_input", `${path} is not a GGUF model file`);
      if (!this.builtin.custom) this.bundled = { installed: this.builtin.installed, sizeBytes: this.builtin.sizeBytes };
      Object.assign(this.builtin, { installed: true, path, sizeBytes: CUSTOM_MODEL_BYTES, custom: true });
    }
    // As core says it: which built-in model the file is, and why it serves.
    const b = this.builtin;
    b.reason = b.custom ? "chosen" : "language_default";
    b.model = b.models.find((m) => m.path === b.path)?.id ?? null;
    b.models = b.models.map((m) => ({ ...m, serving: m.path === b.path }));
    this.emit({ type: "providers_changed" });
    return structuredClone(this.builtin);
  }

  /** As on the Rust side: the thought route's model, and the working employees the shipped GGUF answers. */
  private thoughtModel(): ThoughtModelDto {
    const file = this.builtin.path.split("/").pop() ?? "";
    const shipped = SHIPPED_MODEL_FILES.includes(file);
    const kindOf = (providerId: string): ThoughtModelKind =>
      providerId !== "builtin" ? "provider" : shipped ? "bundled" : "local_file";
    const route = this.routes.find((r) => r.purpose === "thought") ?? { providerId: "builtin", model: "" };
    const kind = kindOf(route.providerId);
    const bundledEmployeeIds = this.company
      ? this.employees
          .filter((e) => e.firedAt === null)
          .filter((e) => (e.backend.provider === "" ? kind : kindOf(e.backend.provider)) === "bundled")
          .map((e) => e.id)
      : [];
    return {
      company: { providerId: route.providerId, model: kind === "provider" ? route.model : modelLabel(this.builtin.path), kind },
      bundledModel: modelLabel(shipped ? this.builtin.path : BUNDLED_MODEL_FILE),
      bundledWritesChinese: file === QWEN_CODER_FILE,
      bundledEmployeeIds,
    };
  }

  /** As core's adopt.rs: the purposes on the built-in model (privacy only when the provider is on this computer). */
  private builtinPurposes(providerId: string): Purpose[] {
    const onThisComputer = this.provider(providerId).onThisComputer;
    const installed = (model: string) => this.localModels.some((m) => m.id === model.trim() && m.state.status === "installed");
    const purposes: Purpose[] = [];
    for (const purpose of ["intent", "thought", "summary", "report", "privacy"] as const) {
      const route = this.routes.find((r) => r.purpose === purpose);
      if (purpose === "privacy" && (!onThisComputer || !route)) continue;
      const r = route ?? { providerId: "builtin", model: BUILTIN_MODEL };
      if (r.providerId === "builtin" && !installed(r.model)) purposes.push(purpose);
    }
    return purposes;
  }

  /** Routes every purpose still on the built-in model to the provider's default model; the routes changed. */
  private useProviderForBuiltinPurposes(providerId: string): RouteDto[] {
    if (providerId === "builtin") fail("invalid_input", "the built-in model already has these purposes");
    const p = this.provider(providerId);
    if (!p.enabled) fail("invalid_input", `${p.name} is turned off: turn it on before giving it work`);
    const changed = this.builtinPurposes(providerId).map((purpose) => this.setRoute({ purpose, providerId: p.id, model: p.defaultModel }));
    if (changed.length > 0) this.emit({ type: "providers_changed" });
    return changed;
  }

  /** "I am …": refused when signed in to a server as a person, and for someone not in the company. */
  private useDeskAs(input: UseDeskAs): DeskUser {
    if (input.personId !== null && !this.people.some((p) => p.id === input.personId)) fail("not_found", `person ${input.personId} does not exist`);
    if (!this.desk.canChange) fail("not_your_decision", "this desktop is signed in to the company server as a person: the sign-in says who this is");
    this.desk = { ...this.desk, personId: input.personId, chosen: true };
    return structuredClone(this.desk);
  }

  private setRoute(input: SetRoute): RouteDto {
    if (!ROUTABLE.has(input.purpose)) fail("invalid_input", `not routable: ${input.purpose}`);
    if (input.purpose === "privacy" && input.providerId === "") {
      const none: RouteDto = { purpose: "privacy", providerId: "", model: "" };
      this.routes = [...this.routes.filter((r) => r.purpose !== "privacy"), none];
      return structuredClone(none);
    }
    if (input.purpose === "privacy" && !this.provider(input.providerId).onThisComputer) fail("invalid_input", "private details are looked for on this computer only");
    this.provider(input.providerId);
    if (input.model.trim() === "") fail("invalid_input", "empty model");
    const route = this.routes.find((r) => r.purpose === input.purpose);
    const next: RouteDto = { purpose: input.purpose, providerId: input.providerId, model: input.model.trim() };
    if (route) Object.assign(route, next);
    else this.routes.push(next);
    return structuredClone(next);
  }

  private setPrice(input: SetPrice): PriceDto {
    const ok = (n: number) => Number.isFinite(n) && n >= 0;
    if (!ok(input.inputPerMtok) || !ok(input.outputPerMtok)) fail("invalid_input", "prices must be >= 0");
    const next: PriceDto = { ...input, custom: true };
    const i = this.prices.findIndex((p) => p.providerId === input.providerId && p.model === input.model);
    if (i >= 0) this.prices[i] = next;
    else this.prices.push(next);
    return structuredClone(next);
  }

  private setBudget(input: SetBudget): CompanyDto {
    const c = this.requireCompany();
    if (!Number.isFinite(input.dailyBudgetUsd) || input.dailyBudgetUsd <= 0) fail("invalid_input", "budget must be > 0");
    c.dailyBudgetUsd = input.dailyBudgetUsd;
    this.emit({ type: "company_updated", companyId: c.id });
    return structuredClone(c);
  }

  // ---- Secretary ----

  /** A message as the secretary's history stores it (for seeding a conversation in tests). */
  addMessage(role: SecretaryMessageDto["role"], text: string, actions: ActionDto[] = []): SecretaryMessageDto {
    const message: SecretaryMessageDto = { id: this.nextId++, at: new Date(this.now()).toISOString(), role, text, actions, traceId: null };
    this.secretaryMessages.push(message);
    return message;
  }

  /** A proposed action card, for seeding. */
  proposedAction(proposal: ActionDto["proposal"]): ActionDto {
    return { id: this.nextId++, status: "proposed", destructive: DESTRUCTIVE.has(proposal.type), proposal, diff: null, undoUntil: null, error: null };
  }

  private action(id: number): ActionDto {
    for (const m of this.secretaryMessages) {
      const a = m.actions.find((x) => x.id === id);
      if (a) return a;
    }
    return fail("not_found", `no action ${id}`);
  }

  private requireStatus(id: number, expected: ActionDto["status"]): ActionDto {
    const a = this.action(id);
    if (a.status !== expected) fail("invalid_input", `action ${id} is ${a.status}, not ${expected}`);
    return a;
  }

  private secretarySay(input: SecretarySay): SecretaryTurn {
    this.requireCompany();
    const text = input.text.trim();
    if (text === "") fail("invalid_input", "empty message");
    const reading = readBossText(text, this.snapshot(), this.templates, this.hires);
    const boss = this.addMessage("boss", text);
    const reply = this.addMessage(
      "secretary",
      reading.text,
      reading.proposals.map((p) => this.proposedAction(p)),
    );
    // A turn that proposes something starts an instruction's trace, as on the Rust side.
    if (reply.actions.length > 0) reply.traceId = this.addTrace(text, { origin: "secretary", createdAt: boss.at }).id;
    return structuredClone({ boss, parse: { tier: "rules", intents: reading.intents }, reply });
  }

  private secretaryConfirm(input: SecretaryConfirm): ActionDto {
    const a = this.requireStatus(input.actionId, "proposed");
    const p = a.proposal;
    if (p.type === "hire" && input.edits) this.applyEdits(p, input.edits);
    try {
      const [undo, diff] = this.applyProposal(p);
      this.undos.set(a.id, undo);
      Object.assign(a, { status: "applied", diff, undoUntil: new Date(this.now() + UNDO_WINDOW_MS).toISOString(), error: null });
    } catch (e) {
      Object.assign(a, { status: "failed", error: (e as IpcError).message ?? String(e) });
    }
    return structuredClone(a);
  }

  private applyEdits(p: Extract<ActionDto["proposal"], { type: "hire" }>, edits: HireEdits): void {
    if (edits.name !== null) p.name = edits.name;
    if (edits.title !== null) p.title = edits.title;
    if (edits.archetype !== null) p.archetype = edits.archetype;
    if (edits.departmentId !== null) {
      p.departmentId = edits.departmentId;
      p.departmentName = this.departments.find((d) => d.id === edits.departmentId)?.name ?? null;
    }
    if (edits.managerId !== null) {
      p.managerId = edits.managerId;
      p.managerName = this.employees.find((e) => e.id === edits.managerId)?.name ?? null;
    }
  }

  private applyProposal(p: ActionDto["proposal"]): [Undo, string] {
    switch (p.type) {
      case "hire": {
        if (p.name.trim() === "" || p.title.trim() === "") fail("invalid_input", "empty name or title");
        const e = this.hire({ name: p.name, title: p.title, departmentId: p.departmentId, managerId: p.managerId, archetype: p.archetype });
        this.employees.find((x) => x.id === e.id)!.skills = [...p.skills];
        this.hires++;
        let diff = `+1 ${e.title} (${e.name})`;
        if (p.departmentName) diff += ` → ${p.departmentName}`;
        if (p.managerId !== null && p.managerName) diff += `, reports to ${p.managerName}`;
        return [{ type: "remove_hire", employeeId: e.id }, diff];
      }
      case "fire":
        this.fire({ employeeId: p.employeeId });
        return [{ type: "unfire", employeeId: p.employeeId }, `−1 ${p.name} (record kept)`];
      case "transfer": {
        const from = this.person(p.employeeId).departmentId;
        this.moveEmployee({ employeeId: p.employeeId, departmentId: p.departmentId });
        const fromName = this.departments.find((d) => d.id === from)?.name ?? "—";
        return [{ type: "move_back", employeeId: p.employeeId, departmentId: from }, `${p.name}: ${fromName} → ${p.departmentName}`];
      }
      case "create_department": {
        const d = this.createDepartment({ name: p.name, parentId: p.parentId, mission: null });
        return [{ type: "delete_department", departmentId: d.id }, p.parentName ? `+ department ${d.name} (in ${p.parentName})` : `+ department ${d.name}`];
      }
      case "rename_department":
      case "set_policy":
      case "assign_task":
      case "create_requirement":
      case "delete_department":
      case "convene_meeting":
      case "set_reviewer":
      case "invite_person":
        return fail("internal", `the fake secretary does not apply ${p.type}`);
    }
  }

  private secretaryCancel(input: SecretaryActionRef): ActionDto {
    const a = this.requireStatus(input.actionId, "proposed");
    a.status = "cancelled";
    return structuredClone(a);
  }

  private secretaryUndo(input: SecretaryActionRef): ActionDto {
    const a = this.requireStatus(input.actionId, "applied");
    const undo = this.undos.get(a.id);
    if (!undo || a.undoUntil === null) return fail("invalid_input", "this action cannot be undone");
    if (this.now() > Date.parse(a.undoUntil)) fail("invalid_input", "the undo window has passed");
    switch (undo.type) {
      case "remove_hire":
        // An undone hire leaves no trace, as on the Rust side.
        this.employees = this.employees.filter((e) => e.id !== undo.employeeId);
        this.emit({ type: "employee_fired", employeeId: undo.employeeId });
        break;
      case "unfire": {
        const e = this.employees.find((x) => x.id === undo.employeeId) ?? fail("not_found", "employee");
        Object.assign(e, { status: "idle", firedAt: null });
        this.emit({ type: "employee_updated", employeeId: e.id });
        break;
      }
      case "move_back":
        this.moveEmployee({ employeeId: undo.employeeId, departmentId: undo.departmentId });
        break;
      case "delete_department":
        this.deleteDepartment({ id: undo.departmentId, reassignTo: null });
        break;
    }
    this.undos.delete(a.id);
    a.status = "undone";
    return structuredClone(a);
  }
}
