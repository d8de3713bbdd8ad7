//! The app shell itself (no company data).

/// The first frame with the app is painted: the shell logs the start-up time (scripts/startup.sh).
#[tauri::command]
pub fn ui_first_paint() {
    crate::startup::first_paint();
}
