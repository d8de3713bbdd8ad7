// An in-memory Cubicle behind mockIPC: implements the IPC contract's commands with the same
// error codes, records every call, and emits "domain-event" like the Rust side does.
import { emit } from "@tauri-apps/api/event";
import { mockIPC } from "@tauri-apps/api/mocks";
import type { CompanyDto } from "../bindings/CompanyDto";
import type { DeleteDepartment } from "../bindings/DeleteDepartment";
import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { DomainEvent } from "../bindings/DomainEvent";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { ErrorCode } from "../bindings/ErrorCode";
import type { FireEmployee } from "../bindings/FireEmployee";
import type { IpcError } from "../bindings/IpcError";
import type { MoveDepartment } from "../bindings/MoveDepartment";
import type { MoveEmployee } from "../bindings/MoveEmployee";
import type { NewDepartment } from "../bindings/NewDepartment";
import type { NewEmployee } from "../bindings/NewEmployee";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { RenameDepartment } from "../bindings/RenameDepartment";
import type { RoleTemplateDto } from "../bindings/RoleTemplateDto";
import type { SetDepartmentLead } from "../bindings/SetDepartmentLead";
import type { SetManager } from "../bindings/SetManager";
import type { SetupCompany } from "../bindings/SetupCompany";
import type { UpdateCompany } from "../bindings/UpdateCompany";
import { ROLE_TEMPLATES, CREATED, employee as makeEmployee } from "./fixtures";

export interface Call {
  cmd: string;
  args: Record<string, unknown> | undefined;
}

const fail = (code: ErrorCode, message: string): never => {
  const error: IpcError = { code, message };
  throw error;
};

export class FakeBackend {
  company: CompanyDto | null;
  departments: DepartmentDto[];
  employees: EmployeeDto[];
  templates: RoleTemplateDto[] = ROLE_TEMPLATES;
  calls: Call[] = [];
  /** Make the next call of a command fail with this error (once). */
  failures = new Map<string, IpcError>();
  private nextId = 1000;

  constructor(seed: Partial<OrgSnapshot> = {}) {
    this.company = seed.company ?? null;
    this.departments = structuredClone(seed.departments ?? []);
    this.employees = structuredClone(seed.employees ?? []);
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

  handle(cmd: string, args: Record<string, unknown> | undefined): unknown {
    this.calls.push({ cmd, args: structuredClone(args) });
    const failure = this.failures.get(cmd);
    if (failure) {
      this.failures.delete(cmd);
      throw failure;
    }
    const input = args?.input;
    switch (cmd) {
      case "get_org":
        return this.snapshot();
      case "list_role_templates":
        return structuredClone(this.templates);
      case "setup_company":
        return this.setupCompany(input as SetupCompany);
      case "update_company":
        return this.updateCompany(input as UpdateCompany);
      case "create_department":
        return this.createDepartment(input as NewDepartment);
      case "rename_department":
        return this.renameDepartment(input as RenameDepartment);
      case "move_department":
        return this.moveDepartment(input as MoveDepartment);
      case "delete_department":
        return this.deleteDepartment(input as DeleteDepartment);
      case "set_department_lead":
        return this.setDepartmentLead(input as SetDepartmentLead);
      case "hire_employee":
        return this.hire(input as NewEmployee);
      case "move_employee":
        return this.moveEmployee(input as MoveEmployee);
      case "set_manager":
        return this.setManager(input as SetManager);
      case "fire_employee":
        return this.fire(input as FireEmployee);
      default:
        return fail("internal", `unknown command ${cmd}`);
    }
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
}
