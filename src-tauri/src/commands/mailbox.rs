//! The mailbox and the dashboard.

use cubicle_core::dashboard::DashboardDto;
use cubicle_core::mailbox::{MailFilter, MailboxDto, SetMailStatus};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

/// The newest first (at most 500); each filter applies when set, and `status: null` is everything
/// but the archive. `unread` counts the whole mailbox, whatever the filter.
#[tauri::command]
pub async fn list_mail(core: State<'_, AppCore>, input: MailFilter) -> Res<MailboxDto> {
    Ok(core.mailbox.list(input).await?)
}

/// Unread, read or archived; `not_found` for an unknown item.
#[tauri::command]
pub async fn set_mail_status(core: State<'_, AppCore>, input: SetMailStatus) -> Res<()> {
    Ok(core.mailbox.set_status(input).await?)
}

/// Pending tasks (the most urgent, then the oldest, first) and the latest activity (newest first).
#[tauri::command]
pub async fn get_dashboard(core: State<'_, AppCore>) -> Res<DashboardDto> {
    core.dashboard().await
}
