use cubicle_core::chat::{ChatDto, ChatMessageDto, ChatViewDto, CreateGroup, PostMessage};
use cubicle_core::inputs::{ChatRef, EmployeeRef, MemoryRef};
use cubicle_core::mind::minds::{EmployeeProfileDto, RelationshipGraphDto, ResetRelationships};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

/// Every chat, the most recently active first, each with the boss's unread count.
#[tauri::command]
pub async fn list_chats(core: State<'_, AppCore>) -> Res<Vec<ChatDto>> {
    Ok(core.chats.list().await?)
}

/// One chat: its last 200 messages and its members' thoughts about it, both oldest first.
#[tauri::command]
pub async fn chat_view(core: State<'_, AppCore>, input: ChatRef) -> Res<ChatViewDto> {
    Ok(core.chats.view(input.chat_id).await?)
}

/// The boss posts (at most 4000 characters; `invalid_input` when empty). Posting also marks the
/// chat read.
#[tauri::command]
pub async fn post_message(core: State<'_, AppCore>, input: PostMessage) -> Res<ChatMessageDto> {
    Ok(core.chats.post_as_boss(input).await?)
}

#[tauri::command]
pub async fn mark_chat_read(core: State<'_, AppCore>, input: ChatRef) -> Res<()> {
    Ok(core.chats.mark_read(input.chat_id).await?)
}

/// The boss's 1:1 chat with an employee, created on first use.
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

/// One relationship (`otherId`), or all of the employee's (`otherId: null`).
#[tauri::command]
pub async fn reset_relationships(core: State<'_, AppCore>, input: ResetRelationships) -> Res<()> {
    Ok(core.minds.reset_relationships(input).await?)
}

#[tauri::command]
pub async fn relationship_graph(core: State<'_, AppCore>) -> Res<RelationshipGraphDto> {
    Ok(core.minds.graph().await?)
}
