//! One employee's tools and approvals (SPEC §8): their own approval policy, their tool
//! whitelist and their CLI command, read and saved as one card; and whether the sandbox
//! their commands run in has the network, switched on its own.

use cubicle_core::approvals::{EmployeeToolsDto, SetEmployeeTools};
use cubicle_core::{AppCore, IpcError};
use serde::Deserialize;
use tauri::State;

type Res<T> = Result<T, IpcError>;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmployeeToolsRef {
    employee_id: i32,
}

#[tauri::command]
pub async fn employee_tools(
    core: State<'_, AppCore>,
    input: EmployeeToolsRef,
) -> Res<EmployeeToolsDto> {
    Ok(core.approvals.employee_tools(input.employee_id).await?)
}

/// Checks the whole edit first; a bad field changes nothing.
#[tauri::command]
pub async fn set_employee_tools(
    core: State<'_, AppCore>,
    input: SetEmployeeTools,
) -> Res<EmployeeToolsDto> {
    Ok(core.approvals.set_employee_tools(input).await?)
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SetNetworkAccess {
    employee_id: i32,
    allowed: bool,
}

/// Whether the sandbox `run_shell` and `run_cli` run in has the network for this employee.
#[tauri::command]
pub async fn employee_network_access(
    core: State<'_, AppCore>,
    input: EmployeeToolsRef,
) -> Res<bool> {
    Ok(core.approvals.network_access(input.employee_id).await?)
}

/// Switches it at once; a call approved under the other setting is refused when it runs.
#[tauri::command]
pub async fn set_employee_network_access(
    core: State<'_, AppCore>,
    input: SetNetworkAccess,
) -> Res<()> {
    Ok(core
        .approvals
        .set_network_access(input.employee_id, input.allowed)
        .await?)
}
