//! Traces, the requirements board and meetings.

use cubicle_core::meeting::view::{MeetingRef, MeetingViewDto};
use cubicle_core::trace::{RECENT_TRACES, TraceDto, TraceRef, TraceSummaryDto};
use cubicle_core::work::RequirementDto;
use cubicle_core::work::board::{BoardDto, SetRequirementStatus, SetReviewer};
use cubicle_core::work::deliverables::{DeliverableDto, DeliverableRef};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

/// The latest instructions, newest first, each with its model calls and what they cost.
#[tauri::command]
pub async fn list_traces(core: State<'_, AppCore>) -> Res<Vec<TraceSummaryDto>> {
    Ok(core
        .traces
        .recent(RECENT_TRACES)
        .await
        .map_err(cubicle_core::trace::TraceError::from)?)
}

/// One instruction's whole story, oldest first; `not_found` for an unknown id.
#[tauri::command]
pub async fn get_trace(core: State<'_, AppCore>, input: TraceRef) -> Res<TraceDto> {
    Ok(core.traces.get(&input.id).await?)
}

/// One column per requirement status (open → in progress → done → cancelled).
#[tauri::command]
pub async fn requirements_board(core: State<'_, AppCore>) -> Res<BoardDto> {
    Ok(core.work.board().await?)
}

#[tauri::command]
pub async fn set_requirement_status(
    core: State<'_, AppCore>,
    input: SetRequirementStatus,
) -> Res<RequirementDto> {
    Ok(core.work.set_requirement_status(input).await?)
}

/// A task's saved deliverable by task id (the document a report links; the webview never names a
/// path); `not_found` when there is none.
#[tauri::command]
pub async fn get_deliverable(
    core: State<'_, AppCore>,
    input: DeliverableRef,
) -> Res<DeliverableDto> {
    core.deliverable(input).await
}

/// `reviewerId: null` removes the reviewer; `not_found` for an unknown or fired employee.
#[tauri::command]
pub async fn set_reviewer(core: State<'_, AppCore>, input: SetReviewer) -> Res<RequirementDto> {
    Ok(core.work.set_reviewer(input).await?)
}

/// The meeting held in a chat: who has the floor, the decisions, the moderator's reasons;
/// `not_found` for any other chat.
#[tauri::command]
pub async fn meeting_view(core: State<'_, AppCore>, input: MeetingRef) -> Res<MeetingViewDto> {
    Ok(core.meetings.view(input.chat_id).await?)
}

/// The boss ends a meeting now: the minutes are taken; `invalid_input` when it is already closed.
#[tauri::command]
pub async fn close_meeting(core: State<'_, AppCore>, input: MeetingRef) -> Res<MeetingViewDto> {
    Ok(core.meetings.end(input.chat_id).await?)
}
