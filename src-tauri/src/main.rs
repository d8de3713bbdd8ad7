// No console window on Windows release builds.
#![cfg_attr(not(debug_assertions), windows_subsystem = "windows")]

fn main() {
    cubicle_app::mark_process_start();
    // Answered before any window or D-Bus work, so packages can be checked headless.
    if std::env::args().nth(1).as_deref() == Some("--version") {
        println!("Cubicle {}", env!("CARGO_PKG_VERSION"));
        return;
    }
    // Before any thread or window: the web process inherits the environment it sets.
    cubicle_app::choose_renderer();
    cubicle_app::run();
}
