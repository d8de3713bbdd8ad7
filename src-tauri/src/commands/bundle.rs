//! Company bundles: export the whole company as JSON, import one into an empty database.

use cubicle_core::bundle::{self, ImportReport};
use cubicle_core::{AppCore, IpcError};
use tauri::State;

type Res<T> = Result<T, IpcError>;

/// The bundle as a JSON string; the webview saves it as a file (no key is in it).
#[tauri::command]
pub async fn export_company(core: State<'_, AppCore>) -> Res<String> {
    Ok(bundle::to_json(&bundle::export(&core).await?)?)
}

#[tauri::command]
pub async fn import_company(core: State<'_, AppCore>, json: String) -> Res<ImportReport> {
    Ok(bundle::import(&core, bundle::parse(&json)?).await?)
}
