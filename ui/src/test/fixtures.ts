import type { CompanyDto } from "../bindings/CompanyDto";
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
    backend: { provider: "builtin", model: "smollm2-135m" },
    toolWhitelist: [],
    avatar: null,
    status: "idle",
    hiredAt: CREATED,
    firedAt: null,
    ...overrides,
  };
}

/** 3 departments (Frontend nested in Engineering), 8 people, one of them unassigned. */
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
      employee(12, "Alan Turing", 1, { title: "Backend engineer", managerId: 11, archetype: "philosopher" }),
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
