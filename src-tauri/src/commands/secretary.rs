use cubicle_core::inputs::{SecretaryActionRef, SecretaryConfirm, SecretarySay};
use cubicle_core::secretary::SecretaryTurn;
use cubicle_core::secretary::actions::{ActionDto, SecretaryMessageDto};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

/// The conversation, oldest first (the last 200 messages).
#[tauri::command]
pub async fn secretary_history(core: State<'_, AppCore>) -> Res<Vec<SecretaryMessageDto>> {
    Ok(core.secretary.history().await?)
}

/// One turn: the boss's message and the secretary's reply (written in the company's language).
#[tauri::command]
pub async fn secretary_say(core: State<'_, AppCore>, input: SecretarySay) -> Res<SecretaryTurn> {
    Ok(core.secretary.say(&input.text, false).await?)
}

/// Applies a proposed action (a hire may carry the boss's edits): `applied` with a diff, or
/// `failed`.
#[tauri::command]
pub async fn secretary_confirm(
    core: State<'_, AppCore>,
    input: SecretaryConfirm,
) -> Res<ActionDto> {
    Ok(core.secretary.confirm(input.action_id, input.edits).await?)
}

#[tauri::command]
pub async fn secretary_cancel(
    core: State<'_, AppCore>,
    input: SecretaryActionRef,
) -> Res<ActionDto> {
    Ok(core.secretary.cancel(input.action_id).await?)
}

/// Reverses an applied action; `invalid_input` once its undo window has passed.
#[tauri::command]
pub async fn secretary_undo(core: State<'_, AppCore>, input: SecretaryActionRef) -> Res<ActionDto> {
    Ok(core.secretary.undo(input.action_id).await?)
}
