// People in the in-memory Cubicle (see fakeBackend.ts), with the Rust side's rules
// (crates/core/src/people.rs): a name is required and may not be the boss's, an employee's or
// another person's (case-insensitive); duties must name departments of the company and current
// employees, each once; an update replaces what it gives and keeps the rest; every change sends
// `people_changed`.
import type { CompanyDto } from "../../bindings/CompanyDto";
import type { DepartmentDto } from "../../bindings/DepartmentDto";
import type { DomainEvent } from "../../bindings/DomainEvent";
import type { EmployeeDto } from "../../bindings/EmployeeDto";
import type { ErrorCode } from "../../bindings/ErrorCode";
import type { IpcError } from "../../bindings/IpcError";
import type { NewPerson } from "../../bindings/NewPerson";
import type { PersonDto } from "../../bindings/PersonDto";
import type { PersonRef } from "../../bindings/PersonRef";
import type { UpdatePerson } from "../../bindings/UpdatePerson";
import type { CommandPart } from "./commandTable";

/** What of the fake backend the people commands read and write. */
export interface PeopleHost {
  company: CompanyDto | null;
  departments: DepartmentDto[];
  employees: EmployeeDto[];
  people: PersonDto[];
  emit(event: DomainEvent): void;
}

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

const clash = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

function companyOf(host: PeopleHost): CompanyDto {
  return host.company ?? fail("company_missing", "no company");
}

function checkedDuties(host: PeopleHost, departments: number[], employees: number[]) {
  for (const id of departments) if (!host.departments.some((d) => d.id === id)) fail("not_found", `department ${id} not found`);
  for (const id of employees) {
    if (!host.employees.some((e) => e.id === id && e.status !== "fired")) fail("not_found", `employee ${id} not found`);
  }
  return { departments: [...new Set(departments)], employees: [...new Set(employees)] };
}

function invite(host: PeopleHost, input: NewPerson): PersonDto {
  const company = companyOf(host);
  const name = input.name.trim();
  if (name === "") fail("invalid_input", "a person's name must not be empty");
  const taken =
    clash(company.bossName, name) ||
    host.employees.some((e) => e.status !== "fired" && clash(e.name, name)) ||
    host.people.some((p) => clash(p.name, name));
  if (taken) fail("duplicate_name", `the name ${name} is taken`);
  const person: PersonDto = {
    id: Math.max(0, ...host.people.map((p) => p.id)) + 1,
    name,
    role: input.role.trim(),
    language: input.language ?? company.language,
    approvalPolicy: input.approvalPolicy ?? "key_steps",
    ...checkedDuties(host, input.departments, input.employees),
  };
  host.people.push(person);
  host.emit({ type: "people_changed", personId: person.id });
  return structuredClone(person);
}

function find(host: PeopleHost, id: number): PersonDto {
  companyOf(host);
  return host.people.find((p) => p.id === id) ?? fail("not_found", `person ${id} not found`);
}

function update(host: PeopleHost, input: UpdatePerson): PersonDto {
  const person = find(host, input.id);
  const duties = checkedDuties(host, input.departments ?? person.departments, input.employees ?? person.employees);
  Object.assign(person, {
    role: input.role?.trim() ?? person.role,
    language: input.language ?? person.language,
    approvalPolicy: input.approvalPolicy ?? person.approvalPolicy,
    ...duties,
  });
  host.emit({ type: "people_changed", personId: person.id });
  return structuredClone(person);
}

function remove(host: PeopleHost, { personId }: PersonRef): null {
  find(host, personId);
  host.people = host.people.filter((p) => p.id !== personId);
  host.emit({ type: "people_changed", personId });
  return null;
}

/** The people commands. */
export function peopleCommands(host: PeopleHost) {
  return {
    list_people: () => (host.company ? structuredClone([...host.people].sort((a, b) => a.name.localeCompare(b.name))) : []),
    invite_person: ({ input }) => invite(host, input),
    update_person: ({ input }) => update(host, input),
    remove_person: ({ input }) => remove(host, input),
  } satisfies CommandPart;
}
