//! One employee's tools and approvals (SPEC §8): their own approval policy, their tool
//! whitelist and their CLI command, read and saved as one card; and whether the sandbox
//! their commands run in has the network, switched on its own.

use cubicle_core::approvals::{EmployeeToolsDto, SetEmployeeTools};
use cubicle_core::inputs::{EmployeeRef, SetNetworkAccess};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

/// With the company's policy, the tool catalogue and the folder `run_cli` runs in; `not_found` for
/// an unknown id.
#[tauri::command]
pub async fn employee_tools(core: State<'_, AppCore>, input: EmployeeRef) -> Res<EmployeeToolsDto> {
    Ok(core.approvals.employee_tools(input.employee_id).await?)
}

/// Replaces all three at once, or changes nothing: `invalid_input` for an unknown tool, a blank CLI
/// command, or `run_cli` without a command; `already_fired` for someone who left.
///
/// Checks the whole edit first; a bad field changes nothing.
#[tauri::command]
pub async fn set_employee_tools(
    core: State<'_, AppCore>,
    input: SetEmployeeTools,
) -> Res<EmployeeToolsDto> {
    Ok(core.approvals.set_employee_tools(input).await?)
}

/// Whether the sandbox their commands (`run_shell`, `run_cli`) run in has the network: off by
/// default.
#[tauri::command]
pub async fn employee_network_access(core: State<'_, AppCore>, input: EmployeeRef) -> Res<bool> {
    Ok(core.approvals.network_access(input.employee_id).await?)
}

/// Switches it at once; a call approved under the other setting is refused when it comes to run.
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
