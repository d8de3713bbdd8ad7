import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { OrgSnapshot } from "../bindings/OrgSnapshot";
import type { PersonDto } from "../bindings/PersonDto";

/** A department with how deep it sits, so a list can indent it under its parent. */
export interface NestedDepartment {
  department: DepartmentDto;
  depth: number;
}

/**
 * The departments in tree order (each parent followed by what sits below it, by name). A department
 * whose parent is missing from the snapshot is shown at the top rather than lost.
 */
export function departmentTree(departments: DepartmentDto[]): NestedDepartment[] {
  const ids = new Set(departments.map((d) => d.id));
  const byName = (a: DepartmentDto, b: DepartmentDto) => a.name.localeCompare(b.name);
  const childrenOf = (parentId: number | null) =>
    departments.filter((d) => (parentId === null ? d.parentId === null || !ids.has(d.parentId) : d.parentId === parentId)).sort(byName);
  const out: NestedDepartment[] = [];
  const seen = new Set<number>();
  const walk = (parentId: number | null, depth: number) => {
    for (const department of childrenOf(parentId)) {
      // A cycle cannot be stored, but a bad snapshot must not hang the page.
      if (seen.has(department.id)) continue;
      seen.add(department.id);
      out.push({ department, depth });
      walk(department.id, depth + 1);
    }
  };
  walk(null, 0);
  return out;
}

/** What a person answers for, by name, as the org snapshot names them (ids it no longer holds are left out). */
export function dutiesOf(person: PersonDto, org: OrgSnapshot | undefined): { departments: string[]; employees: string[] } {
  const departments = person.departments.flatMap((id) => org?.departments.find((d) => d.id === id)?.name ?? []);
  const employees = person.employees.flatMap((id) => org?.employees.find((e) => e.id === id)?.name ?? []);
  return { departments, employees };
}
