use cubicle_core::org::{
    CompanyDto, DeleteDepartment, DepartmentDto, EmployeeDto, FireEmployee, MoveDepartment,
    MoveEmployee, NewDepartment, NewEmployee, OrgSnapshot, RenameDepartment, RoleTemplateDto,
    SetDepartmentLead, SetEmployeeBackend, SetManager, SetupCompany, UpdateCompany,
};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

#[tauri::command]
pub async fn get_org(core: State<'_, AppCore>) -> Res<OrgSnapshot> {
    Ok(core.org.snapshot().await?)
}

#[tauri::command]
pub async fn list_role_templates(core: State<'_, AppCore>) -> Res<Vec<RoleTemplateDto>> {
    Ok(core.org.role_templates().await?)
}

#[tauri::command]
pub async fn setup_company(core: State<'_, AppCore>, input: SetupCompany) -> Res<CompanyDto> {
    Ok(core.org.setup_company(input).await?)
}

#[tauri::command]
pub async fn update_company(core: State<'_, AppCore>, input: UpdateCompany) -> Res<CompanyDto> {
    Ok(core.org.update_company(input).await?)
}

#[tauri::command]
pub async fn create_department(
    core: State<'_, AppCore>,
    input: NewDepartment,
) -> Res<DepartmentDto> {
    Ok(core.org.create_department(input).await?)
}

#[tauri::command]
pub async fn rename_department(
    core: State<'_, AppCore>,
    input: RenameDepartment,
) -> Res<DepartmentDto> {
    Ok(core.org.rename_department(input).await?)
}

#[tauri::command]
pub async fn move_department(
    core: State<'_, AppCore>,
    input: MoveDepartment,
) -> Res<DepartmentDto> {
    Ok(core.org.move_department(input).await?)
}

#[tauri::command]
pub async fn delete_department(core: State<'_, AppCore>, input: DeleteDepartment) -> Res<()> {
    Ok(core.org.delete_department(input).await?)
}

#[tauri::command]
pub async fn set_department_lead(
    core: State<'_, AppCore>,
    input: SetDepartmentLead,
) -> Res<DepartmentDto> {
    Ok(core.org.set_department_lead(input).await?)
}

#[tauri::command]
pub async fn hire_employee(core: State<'_, AppCore>, input: NewEmployee) -> Res<EmployeeDto> {
    Ok(core.org.hire(input).await?)
}

#[tauri::command]
pub async fn move_employee(core: State<'_, AppCore>, input: MoveEmployee) -> Res<EmployeeDto> {
    Ok(core.org.move_employee(input).await?)
}

#[tauri::command]
pub async fn set_manager(core: State<'_, AppCore>, input: SetManager) -> Res<EmployeeDto> {
    Ok(core.org.set_manager(input).await?)
}

#[tauri::command]
pub async fn fire_employee(core: State<'_, AppCore>, input: FireEmployee) -> Res<EmployeeDto> {
    Ok(core.org.fire(input).await?)
}

/// The employee's own provider + model; `provider: null` (or "") goes back to the company default.
#[tauri::command]
pub async fn set_employee_backend(
    core: State<'_, AppCore>,
    input: SetEmployeeBackend,
) -> Res<EmployeeDto> {
    core.set_employee_backend(input).await
}
