//! IPC commands. Each is a few lines: take `AppCore`, call one core function, map the
//! error to `IpcError { code, message }`.

mod org;

pub fn handler<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static
{
    tauri::generate_handler![
        org::get_org,
        org::list_role_templates,
        org::setup_company,
        org::update_company,
        org::create_department,
        org::rename_department,
        org::move_department,
        org::delete_department,
        org::hire_employee,
        org::move_employee,
        org::set_manager,
        org::fire_employee,
    ]
}
