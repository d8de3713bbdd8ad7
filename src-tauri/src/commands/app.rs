//! The app shell itself (no company data).

/// The webview painted its first frame with the app (start-up figures).
#[tauri::command]
pub fn ui_first_paint() {
    crate::startup::first_paint();
}
