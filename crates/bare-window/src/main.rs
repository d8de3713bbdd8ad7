//! A bare Tauri 2 window with one line of text: the physical floor of start-up time and
//! memory for this stack (WebKitGTK through Tauri), which `scripts/startup.sh` measures
//! Cubicle against. It prints `first paint after N ms (unix_ms T)` as Cubicle does.

#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

use std::sync::OnceLock;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Instant, SystemTime, UNIX_EPOCH};

static STARTED: OnceLock<Instant> = OnceLock::new();
static PAINTED: AtomicBool = AtomicBool::new(false);

/// The page painted its first frame (only the first report counts).
#[tauri::command]
fn painted() {
    if PAINTED.swap(true, Ordering::SeqCst) {
        return;
    }
    let ms = STARTED.get_or_init(Instant::now).elapsed().as_millis();
    let unix_ms = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_millis())
        .unwrap_or(0);
    println!("first paint after {ms} ms (unix_ms {unix_ms})");
}

fn main() {
    STARTED.get_or_init(Instant::now);
    let app = tauri::Builder::default()
        .invoke_handler(tauri::generate_handler![painted])
        .run(tauri::generate_context!());
    if let Err(e) = app {
        eprintln!("the bare window could not start: {e}");
        std::process::exit(1);
    }
}
