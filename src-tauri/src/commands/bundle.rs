//! Company bundles: export the whole company as JSON, import one into an empty database.

use cubicle_core::bundle::{self, ImportReport, SavedBundle};
use cubicle_core::imported::{ConfirmImported, ImportedToConfirm};
use cubicle_core::{AppCore, IpcError};
use std::path::PathBuf;

use tauri::{AppHandle, Manager, Runtime, State};

type Res<T> = Result<T, IpcError>;

/// The bundle as a JSON string; the webview saves it as a file (no key is in it).
#[tauri::command]
pub async fn export_company(core: State<'_, AppCore>) -> Res<String> {
    Ok(bundle::to_json(&bundle::export(&core).await?)?)
}

/// Exports and saves the bundle as `fileName` in the user's Downloads folder (their home when
/// there is none; never over a file) and says where: a webview download would land wherever the
/// app was started.
#[tauri::command]
pub async fn save_company_bundle<R: Runtime>(
    app: AppHandle<R>,
    core: State<'_, AppCore>,
    file_name: String,
) -> Res<SavedBundle> {
    let json = bundle::to_json(&bundle::export(&core).await?)?;
    Ok(bundle::write_file(&json, &downloads(&app)?, &file_name)?)
}

/// Where the app saves what the boss exports: the XDG Downloads folder; without
/// xdg-user-dirs, ~/Downloads when there is one, else home. A webview download would land
/// wherever the app was started.
pub(super) fn downloads<R: Runtime>(app: &AppHandle<R>) -> Res<PathBuf> {
    let paths = app.path();
    match paths.download_dir() {
        Ok(dir) => Ok(dir),
        Err(_) => {
            let home = paths
                .home_dir()
                .map_err(|e| IpcError::new(cubicle_core::ErrorCode::Internal, e.to_string()))?;
            let downloads = home.join("Downloads");
            Ok(if downloads.is_dir() { downloads } else { home })
        }
    }
}

/// Reads a bundle into an empty database only (`database_not_empty` otherwise), all or nothing.
#[tauri::command]
pub async fn import_company(core: State<'_, AppCore>, json: String) -> Res<ImportReport> {
    Ok(bundle::import(&core, bundle::parse(&json)?).await?)
}

/// Provider URLs and CLI commands that came in with an imported company and are not used until
/// confirmed.
#[tauri::command]
pub async fn imported_to_confirm(core: State<'_, AppCore>) -> Res<ImportedToConfirm> {
    Ok(core.imported().to_confirm().await?)
}

/// Confirms one, exactly as shown: `invalid_input` when it changed since (nothing is confirmed).
#[tauri::command]
pub async fn confirm_imported(
    core: State<'_, AppCore>,
    input: ConfirmImported,
) -> Res<ImportedToConfirm> {
    Ok(core.imported().confirm(input).await?)
}
