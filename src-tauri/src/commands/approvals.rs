//! The approval queue: what waits for the boss, and the boss's decisions from the UI.

use cubicle_core::approvals::{
    ApprovalDto, ApprovalFilter, DecideApproval, DecideApprovals, DecidedVia, DecisionResult,
    WebhookDestinations,
};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

#[tauri::command]
pub async fn list_approvals(
    core: State<'_, AppCore>,
    input: ApprovalFilter,
) -> Res<Vec<ApprovalDto>> {
    Ok(core.approvals.list(input).await?)
}

/// The UI decides as `ui`; the sender cannot claim another channel.
#[tauri::command]
pub async fn decide_approval(core: State<'_, AppCore>, input: DecideApproval) -> Res<ApprovalDto> {
    Ok(core.approvals.decide(input, DecidedVia::Ui).await?)
}

/// Several at once ("approve selected"): what came of each.
#[tauri::command]
pub async fn decide_approvals(
    core: State<'_, AppCore>,
    input: DecideApprovals,
) -> Res<Vec<DecisionResult>> {
    Ok(core.approvals.decide_all(input, DecidedVia::Ui).await?)
}

/// The hosts employees' webhooks may reach (Settings → Webhooks).
#[tauri::command]
pub async fn webhook_destinations(core: State<'_, AppCore>) -> Res<WebhookDestinations> {
    Ok(core.approvals.webhook_settings().await?)
}

#[tauri::command]
pub async fn set_webhook_destinations(
    core: State<'_, AppCore>,
    input: WebhookDestinations,
) -> Res<WebhookDestinations> {
    Ok(core.approvals.save_webhook_settings(input).await?)
}
