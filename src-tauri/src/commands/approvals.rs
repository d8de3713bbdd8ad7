//! The approval queue: what waits for the boss, and the boss's decisions from the UI.

use cubicle_core::approvals::{
    ApprovalDto, ApprovalFilter, DecideApproval, DecideApprovals, DecidedVia, DecisionResult,
    WebhookDestinations,
};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

use crate::desk::Desk;

type Res<T> = Result<T, IpcError>;

/// Waiting ones oldest first (`pending`), or decided ones newest first (`history`, each filter when
/// set).
///
/// Waiting ones are those of whoever uses this desktop (all of them for the boss).
#[tauri::command]
pub async fn list_approvals(
    core: State<'_, AppCore>,
    desk: State<'_, Desk>,
    input: ApprovalFilter,
) -> Res<Vec<ApprovalDto>> {
    Ok(match input {
        ApprovalFilter::Pending => core.approvals.pending_for(desk.decider()).await?,
        history => core.approvals.list(history).await?,
    })
}

/// The first decision wins and, when it approves, runs the action once. The same decision again
/// returns the approval unchanged; the other way is `already_decided`; past its time,
/// `approval_expired`.
///
/// The UI decides as `ui`, in the name of whoever uses this desktop; the sender cannot claim
/// another channel.
#[tauri::command]
pub async fn decide_approval(
    core: State<'_, AppCore>,
    desk: State<'_, Desk>,
    input: DecideApproval,
) -> Res<ApprovalDto> {
    Ok(core
        .approvals
        .decide_as(input, DecidedVia::Ui, desk.decider())
        .await?)
}

/// Several at once, each bound to the seal its card showed; what came of each, in order.
#[tauri::command]
pub async fn decide_approvals(
    core: State<'_, AppCore>,
    desk: State<'_, Desk>,
    input: DecideApprovals,
) -> Res<Vec<DecisionResult>> {
    Ok(core
        .approvals
        .decide_all_as(input, DecidedVia::Ui, desk.decider())
        .await?)
}

/// The hosts employees' webhooks may reach (`host` or `host:port`), in the order added.
#[tauri::command]
pub async fn webhook_destinations(core: State<'_, AppCore>) -> Res<WebhookDestinations> {
    Ok(core.approvals.webhook_settings().await?)
}

/// Replaces the whole list; each entry is normalised (a pasted URL keeps only its host and explicit
/// port) and the stored list comes back. `invalid_input` for an entry that is not a host, and
/// nothing changes.
#[tauri::command]
pub async fn set_webhook_destinations(
    core: State<'_, AppCore>,
    input: WebhookDestinations,
) -> Res<WebhookDestinations> {
    Ok(core.approvals.save_webhook_settings(input).await?)
}
