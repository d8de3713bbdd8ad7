import type { DepartmentDto } from "../bindings/DepartmentDto";
import type { EmployeeDto } from "../bindings/EmployeeDto";

export interface DepartmentOption {
  id: number;
  name: string;
  depth: number;
}

/** Departments in tree order (parents before children, siblings by id) with their depth. */
export function departmentOptions(departments: readonly DepartmentDto[]): DepartmentOption[] {
  const known = new Set(departments.map((d) => d.id));
  const sorted = [...departments].sort((a, b) => a.id - b.id);
  const out: DepartmentOption[] = [];
  const seen = new Set<number>();
  const visit = (d: DepartmentDto, depth: number) => {
    if (seen.has(d.id)) return;
    seen.add(d.id);
    out.push({ id: d.id, name: d.name, depth });
    for (const c of sorted) if (c.parentId === d.id && c.id !== d.id) visit(c, depth + 1);
  };
  for (const d of sorted) if (d.parentId === null || !known.has(d.parentId)) visit(d, 0);
  for (const d of sorted) visit(d, 0);
  return out;
}

/** A department's id plus the ids of everything below it. */
export function subtreeIds(departments: readonly DepartmentDto[], rootId: number): Set<number> {
  const ids = new Set<number>([rootId]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const d of departments) {
      if (d.parentId !== null && ids.has(d.parentId) && !ids.has(d.id)) {
        ids.add(d.id);
        grew = true;
      }
    }
  }
  return ids;
}

export function peopleIn(employees: readonly EmployeeDto[], departmentId: number | null): EmployeeDto[] {
  return employees.filter((e) => e.departmentId === departmentId);
}

export function childDepartments(departments: readonly DepartmentDto[], id: number): DepartmentDto[] {
  return departments.filter((d) => d.parentId === id);
}

/** Indent for a `<option>` label; options cannot hold markup, so use figure spaces. */
export function indent(depth: number): string {
  return "\u2007\u2007".repeat(depth);
}
