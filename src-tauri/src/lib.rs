//! The desktop shell: a thin layer between the webview and `cubicle-core`.
//!
//! It owns window plumbing (single instance, window state), logging to the app log
//! dir, the IPC commands (each a few lines over one core call) and the one bridge that
//! turns core events into webview events. It holds no business rules and never
//! touches the database directly.

mod commands;
mod events;
mod logging;

use cubicle_core::engine::{Engine, EngineConfig};
use tauri::Manager;
use tokio_util::sync::CancellationToken;

/// Stops the engine when the app exits.
struct EngineStop(CancellationToken);

pub fn run() {
    let app = tauri::Builder::default()
        // Must come first: a second launch focuses the running window and exits.
        .plugin(tauri_plugin_single_instance::init(|app, _args, _cwd| {
            if let Some(w) = app.get_webview_window("main") {
                let _ = w.unminimize();
                let _ = w.show();
                let _ = w.set_focus();
            }
        }))
        .plugin(tauri_plugin_window_state::Builder::default().build())
        .invoke_handler(commands::handler())
        .setup(|app| {
            let log_dir = app.path().app_log_dir()?;
            let guard = logging::init(&log_dir, logging::DEFAULT_FILTER)?;
            app.manage(guard);
            let url = match std::env::var(cubicle_store::db::DATABASE_URL_ENV) {
                Ok(url) if !url.trim().is_empty() => url,
                _ => cubicle_store::db::sqlite_url_in(&app.path().app_data_dir()?)?,
            };
            tracing::info!(db = %cubicle_store::db::redact_url(&url), "opening company");
            // A provider given entirely by the environment (CUBICLE_PROVIDER, …) works in
            // the app too, as in the CLI: handy for scripted setups and tests.
            let options = cubicle_core::app::CoreOptions {
                env_provider: cubicle_core::providers::EnvProvider::from_env()?,
                ..Default::default()
            };
            let core =
                tauri::async_runtime::block_on(cubicle_core::AppCore::open_with(&url, options))?;
            events::spawn_bridge(app.handle().clone(), &core.bus);
            // The company keeps working while the app runs: the engine wakes employees
            // as messages arrive and their polls fall due.
            let engine = Engine::new(&core, EngineConfig::default());
            let cancel = CancellationToken::new();
            let stop = cancel.clone();
            tauri::async_runtime::spawn(async move { engine.run(stop).await });
            app.manage(EngineStop(cancel));
            app.manage(core);
            Ok(())
        })
        .build(tauri::generate_context!("tauri.conf.json"));
    match app {
        Ok(app) => app.run(|app, event| {
            if let tauri::RunEvent::Exit = event
                && let Some(stop) = app.try_state::<EngineStop>()
            {
                stop.0.cancel();
            }
        }),
        Err(e) => {
            eprintln!("Cubicle could not start: {e}");
            std::process::exit(1);
        }
    }
}
