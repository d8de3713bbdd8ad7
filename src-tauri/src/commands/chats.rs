use cubicle_core::chat::{ChatDto, ChatMessageDto, ChatViewDto, CreateGroup, PostMessage};
use cubicle_core::mind::profile::{EmployeeProfileDto, RelationshipGraphDto, ResetRelationships};
use cubicle_core::{AppCore, IpcError};
use serde::Deserialize;
use tauri::State;

type Res<T> = Result<T, IpcError>;

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ChatRef {
    chat_id: i32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct EmployeeRef {
    employee_id: i32,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MemoryRef {
    memory_id: i32,
}

#[tauri::command]
pub async fn list_chats(core: State<'_, AppCore>) -> Res<Vec<ChatDto>> {
    Ok(core.chats.list().await?)
}

#[tauri::command]
pub async fn chat_view(core: State<'_, AppCore>, input: ChatRef) -> Res<ChatViewDto> {
    Ok(core.chats.view(input.chat_id).await?)
}

#[tauri::command]
pub async fn post_message(core: State<'_, AppCore>, input: PostMessage) -> Res<ChatMessageDto> {
    Ok(core.chats.post_as_boss(input).await?)
}

#[tauri::command]
pub async fn mark_chat_read(core: State<'_, AppCore>, input: ChatRef) -> Res<()> {
    Ok(core.chats.mark_read(input.chat_id).await?)
}

#[tauri::command]
pub async fn open_boss_chat(core: State<'_, AppCore>, input: EmployeeRef) -> Res<ChatDto> {
    Ok(core.chats.boss_chat(input.employee_id).await?)
}

#[tauri::command]
pub async fn create_group(core: State<'_, AppCore>, input: CreateGroup) -> Res<ChatDto> {
    Ok(core.chats.create_group(input).await?)
}

#[tauri::command]
pub async fn employee_profile(
    core: State<'_, AppCore>,
    input: EmployeeRef,
) -> Res<EmployeeProfileDto> {
    Ok(core.minds.profile(input.employee_id).await?)
}

#[tauri::command]
pub async fn delete_memory(core: State<'_, AppCore>, input: MemoryRef) -> Res<()> {
    Ok(core.minds.delete_memory(input.memory_id).await?)
}

#[tauri::command]
pub async fn reset_relationships(core: State<'_, AppCore>, input: ResetRelationships) -> Res<()> {
    Ok(core.minds.reset_relationships(input).await?)
}

#[tauri::command]
pub async fn relationship_graph(core: State<'_, AppCore>) -> Res<RelationshipGraphDto> {
    Ok(core.minds.graph().await?)
}
