// The only module (with ./events) that talks to the Rust backend. Names and argument
// shapes follow the IPC contract: each mutating command takes one argument named `input`.
import { invoke } from "@tauri-apps/api/core";
import type { CompanyDto } from "../bindings/CompanyDto";
import type { DeleteDepartment } from "../bindings/DeleteDepartment";
import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { EmployeeDto } from "../bindings/EmployeeDto";
import type { FireEmployee } from "../bindings/FireEmployee";
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

export const api = {
  getOrg: () => invoke<OrgSnapshot>("get_org"),
  listRoleTemplates: () => invoke<RoleTemplateDto[]>("list_role_templates"),
  setupCompany: (input: SetupCompany) => invoke<CompanyDto>("setup_company", { input }),
  updateCompany: (input: UpdateCompany) => invoke<CompanyDto>("update_company", { input }),
  createDepartment: (input: NewDepartment) => invoke<DepartmentDto>("create_department", { input }),
  renameDepartment: (input: RenameDepartment) => invoke<DepartmentDto>("rename_department", { input }),
  moveDepartment: (input: MoveDepartment) => invoke<DepartmentDto>("move_department", { input }),
  deleteDepartment: (input: DeleteDepartment) => invoke<null>("delete_department", { input }),
  setDepartmentLead: (input: SetDepartmentLead) => invoke<DepartmentDto>("set_department_lead", { input }),
  hireEmployee: (input: NewEmployee) => invoke<EmployeeDto>("hire_employee", { input }),
  moveEmployee: (input: MoveEmployee) => invoke<EmployeeDto>("move_employee", { input }),
  setManager: (input: SetManager) => invoke<EmployeeDto>("set_manager", { input }),
  fireEmployee: (input: FireEmployee) => invoke<EmployeeDto>("fire_employee", { input }),
};

export type Api = typeof api;
