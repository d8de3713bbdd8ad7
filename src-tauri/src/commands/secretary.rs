use cubicle_core::secretary::SecretaryTurn;
use cubicle_core::secretary::actions::{ActionDto, HireEdits, SecretaryMessageDto};
use cubicle_core::{AppCore, IpcError};
use serde::Deserialize;
use tauri::State;

type Res<T> = Result<T, IpcError>;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SayInput {
    text: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ActionInput {
    action_id: i32,
    #[serde(default)]
    edits: Option<HireEdits>,
}

#[tauri::command]
pub async fn secretary_history(core: State<'_, AppCore>) -> Res<Vec<SecretaryMessageDto>> {
    Ok(core.secretary.history().await?)
}

#[tauri::command]
pub async fn secretary_say(core: State<'_, AppCore>, input: SayInput) -> Res<SecretaryTurn> {
    Ok(core.secretary.say(&input.text, false).await?)
}

#[tauri::command]
pub async fn secretary_confirm(core: State<'_, AppCore>, input: ActionInput) -> Res<ActionDto> {
    Ok(core.secretary.confirm(input.action_id, input.edits).await?)
}

#[tauri::command]
pub async fn secretary_cancel(core: State<'_, AppCore>, input: ActionInput) -> Res<ActionDto> {
    Ok(core.secretary.cancel(input.action_id).await?)
}

#[tauri::command]
pub async fn secretary_undo(core: State<'_, AppCore>, input: ActionInput) -> Res<ActionDto> {
    Ok(core.secretary.undo(input.action_id).await?)
}
