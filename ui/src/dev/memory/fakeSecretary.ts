// A small deterministic stand-in for the secretary's parser (the real one is crates/core/src/secretary):
// enough phrasings to drive the Secretary page in tests and in the dev mock. It only reads the company;
// FakeBackend records the proposals and applies them when the boss confirms.
import type { Intent } from "../../bindings/Intent";
import type { Language } from "../../bindings/Language";
import type { OrgSnapshot } from "../../bindings/OrgSnapshot";
import type { Proposal } from "../../bindings/Proposal";
import type { RoleTemplateDto } from "../../bindings/RoleTemplateDto";

export interface FakeReading {
  intents: Intent[];
  /** The secretary's reply, in the company's language. */
  text: string;
  proposals: Proposal[];
}

/** Names handed to hires whose name the boss did not give, in turn. */
export const FAKE_HIRE_NAMES = ["Bob Chen", "Carol Diaz", "Dan Evans", "Erin Fox", "Frank Gale"];

const lower = (s: string) => s.toLowerCase();
const mentions = (text: string, name: string) => name.trim() !== "" && lower(text).includes(lower(name));

function pick(language: Language, en: string, zh: string): string {
  return language === "zh-CN" ? zh : en;
}

/** The department the text names (longest match first, so "Frontend" wins over a shorter name inside it). */
function departmentIn(text: string, org: OrgSnapshot) {
  return [...org.departments].sort((a, b) => b.name.length - a.name.length).find((d) => mentions(text, d.name));
}

/** An employee named in the text, by full name or by first name. */
function personIn(text: string, org: OrgSnapshot) {
  return (
    org.employees.find((e) => mentions(text, e.name)) ??
    org.employees.find((e) => {
      const first = e.name.split(/\s+/)[0] ?? "";
      return first.length > 1 && new RegExp(`\\b${first}\\b`, "i").test(text);
    })
  );
}

function roleIn(text: string, templates: readonly RoleTemplateDto[]): RoleTemplateDto | undefined {
  const t = lower(text);
  const byKeyword: Array<[RegExp, string]> = [
    [/frontend|前端/, "frontend_engineer"],
    [/design|设计/, "designer"],
    [/\bqa\b|test|测试/, "qa"],
  ];
  const key = byKeyword.find(([re]) => re.test(t))?.[1];
  return templates.find((tpl) => tpl.key === key) ?? templates.find((tpl) => mentions(text, tpl.title) || mentions(text, tpl.titleZh));
}

const intent = (kind: Intent["kind"], slots: Intent["slots"] = {}, confidence = 0.95): Intent => ({ kind, confidence, slots });

export function readBossText(
  text: string,
  org: OrgSnapshot,
  templates: readonly RoleTemplateDto[],
  hireCount: number,
): FakeReading {
  const language: Language = org.company?.language ?? "en";
  const t = lower(text);

  if (/\bhire\b|招/.test(t)) {
    const role = roleIn(text, templates) ?? templates[0];
    const department = departmentIn(text, org) ?? org.departments[0];
    const manager = department?.leadId != null ? org.employees.find((e) => e.id === department.leadId) : undefined;
    const named = /\bnamed\s+([\p{L}][\p{L}'-]*(?:\s+[A-Z][\p{L}'-]*)?)/u.exec(text)?.[1] ?? /叫([\p{Script=Han}]{2,4})/u.exec(text)?.[1];
    const name = named ?? FAKE_HIRE_NAMES[hireCount % FAKE_HIRE_NAMES.length]!;
    const title = role ? pick(language, role.title, role.titleZh) : pick(language, "Engineer", "工程师");
    const proposal: Proposal = {
      type: "hire",
      name,
      title,
      departmentId: department?.id ?? null,
      departmentName: department?.name ?? null,
      managerId: manager?.id ?? null,
      managerName: manager?.name ?? null,
      archetype: role?.archetype ?? "warm_hearted",
      skills: role ? [...role.skills] : [],
    };
    return {
      intents: [intent("hire_employee", { role: role?.title ?? title, ...(department ? { department: department.name } : {}) })],
      text: pick(
        language,
        `Here is a candidate for ${department?.name ?? "the company"}. Confirm to hire, or edit the details first.`,
        `我为${department?.name ?? "公司"}找到了一位候选人。确认即可录用，也可以先修改信息。`,
      ),
      proposals: [proposal],
    };
  }

  if (/\bfire\b|开除|辞退/.test(t)) {
    const person = personIn(text, org);
    if (!person) {
      return {
        intents: [intent("fire_employee", {}, 0.6)],
        text: pick(language, "Who should leave the company? I could not find that name.", "要让谁离开公司？我没有找到这个名字。"),
        proposals: [],
      };
    }
    return {
      intents: [intent("fire_employee", { name: person.name })],
      text: pick(
        language,
        `This cannot be taken lightly: please confirm that ${person.name} should leave the company.`,
        `这件事需要慎重：请确认是否让${person.name}离开公司。`,
      ),
      proposals: [{ type: "fire", employeeId: person.id, name: person.name }],
    };
  }

  const move = /\bmove\b|\btransfer\b|调到|调去|转到/.test(t);
  if (move) {
    const person = personIn(text, org);
    const target = /(?:\bto\b|调到|调去|转到)(.*)$/i.exec(text)?.[1] ?? "";
    const department = departmentIn(target, org);
    if (person && department) {
      return {
        intents: [intent("transfer_employee", { name: person.name, target_department: department.name })],
        text: pick(language, `Shall I move ${person.name} to ${department.name}?`, `要把${person.name}调到${department.name}吗？`),
        proposals: [{ type: "transfer", employeeId: person.id, name: person.name, departmentId: department.id, departmentName: department.name }],
      };
    }
  }

  const newDepartment = /department (?:called|named) ([\p{L}][\p{L} &'-]*)/iu.exec(text)?.[1] ?? /叫([\p{Script=Han}A-Za-z]+?)的部门/u.exec(text)?.[1];
  if (newDepartment) {
    return {
      intents: [intent("create_department", { name: newDepartment.trim() })],
      text: pick(language, `A new department, ${newDepartment.trim()}. Confirm to create it.`, `新建部门“${newDepartment.trim()}”，确认后创建。`),
      proposals: [{ type: "create_department", name: newDepartment.trim(), parentId: null, parentName: null }],
    };
  }

  if (/how is|how's|status|怎么样|情况/.test(t)) {
    const lines = org.departments.map((d) => {
      const n = org.employees.filter((e) => e.departmentId === d.id).length;
      return pick(language, `\n· ${d.name}: ${n}`, `\n· ${d.name}：${n}人`);
    });
    return {
      intents: [intent("ask_status")],
      text:
        pick(
          language,
          `${org.employees.length} people in ${org.departments.length} departments.`,
          `公司共有${org.employees.length}人，${org.departments.length}个部门。`,
        ) + lines.join(""),
      proposals: [],
    };
  }

  return {
    intents: [intent("chitchat", {}, 0.5)],
    text: pick(
      language,
      "I can hire, move or let people go, and set up departments. What would you like to do?",
      "我可以帮你招人、调岗、辞退员工，以及设立部门。你想做什么？",
    ),
    proposals: [],
  };
}
