//! Role cards (Settings → Roles): the library, one card's edits, a roster picked in the app
//! (previewed, then imported all or nothing) and an export into the Downloads folder.

use cubicle_core::roles::{
    DuplicateRoleCard, RoleCardDto, RoleCardRef, RoleExport, RoleImport, RosterUpload, SaveRoleCard,
};
use cubicle_core::{AppCore, IpcError};
use tauri::{AppHandle, Runtime, State};

type Res<T> = Result<T, IpcError>;

/// Every role card, built-in first, each with its whole text.
#[tauri::command]
pub async fn list_role_cards(core: State<'_, AppCore>) -> Res<Vec<RoleCardDto>> {
    Ok(core.role_cards().await?)
}

/// Saves a card's whole text under its key (`invalid_input` with where and why when it does
/// not parse).
#[tauri::command]
pub async fn save_role_card(core: State<'_, AppCore>, input: SaveRoleCard) -> Res<RoleCardDto> {
    Ok(core.save_role_card(input).await?)
}

/// A copy of a card under a new key.
#[tauri::command]
pub async fn duplicate_role_card(
    core: State<'_, AppCore>,
    input: DuplicateRoleCard,
) -> Res<RoleCardDto> {
    Ok(core.duplicate_role_card(&input.key, &input.new_key).await?)
}

/// Deletes one of the boss's cards (an edited built-in one goes back to the shipped text).
#[tauri::command]
pub async fn delete_role_card(core: State<'_, AppCore>, input: RoleCardRef) -> Res<()> {
    Ok(core.delete_role_card(&input.key).await?)
}

/// What importing the picked files would do: nothing is written.
#[tauri::command]
pub async fn preview_roster(core: State<'_, AppCore>, input: RosterUpload) -> Res<RoleImport> {
    Ok(core.import_roster_upload(input, true).await?)
}

/// Imports the picked files' readable cards in one transaction.
#[tauri::command]
pub async fn import_roster(core: State<'_, AppCore>, input: RosterUpload) -> Res<RoleImport> {
    Ok(core.import_roster_upload(input, false).await?)
}

/// Writes every card into a new folder in the user's Downloads folder and says where.
#[tauri::command]
pub async fn export_role_cards<R: Runtime>(
    app: AppHandle<R>,
    core: State<'_, AppCore>,
) -> Res<RoleExport> {
    let parent = super::bundle::downloads(&app)?;
    let stamp = chrono::Local::now().format("%Y-%m-%d-%H%M%S");
    Ok(core
        .export_roles(&parent.join(format!("cubicle-roles-{stamp}")))
        .await?)
}
