import type { CompanyDto } from "../bindings/CompanyDto";
import type { Dialect } from "../bindings/Dialect";
import type { PresetDto } from "../bindings/PresetDto";
import type { PriceDto } from "../bindings/PriceDto";
import type { ProviderDto } from "../bindings/ProviderDto";
import type { RouteDto } from "../bindings/RouteDto";
import type { SpendReport } from "../bindings/SpendReport";
import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { RoleTemplateDto } from "../bindings/RoleTemplateDto";

export const CREATED = "2025-03-01T09:00:00Z";

export function company(overrides: Partial<CompanyDto> = {}): CompanyDto {
  return {
    id: 1,
    name: "Northwind Labs",
    mission: "Build helpful robots",
    bossName: "Ada Lovelace",
    language: "en",
    approvalPolicy: "key_steps",
    dailyBudgetUsd: 20,
    createdAt: CREATED,
    ...overrides,
  };
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
    ...overrides,
  };
}

export function defaultRoutes(): RouteDto[] {
  return (["intent", "thought", "summary", "report"] as const).map((purpose) => ({ purpose, providerId: "builtin", model: BUILTIN_MODEL }));
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
