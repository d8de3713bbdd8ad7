//! The desktop shell: a thin layer between the webview and `cubicle-core`.
//!
//! It owns window plumbing (single instance, window state), logging to the app log
//! dir, the IPC commands (each a few lines over one core call) and the one bridge that
//! turns core events into webview events. It holds no business rules and never
//! touches the database directly.

mod commands;
/// build.rs's command-list reader, compiled again so the tests can feed it sources.
#[cfg(test)]
#[path = "../build/commands.rs"]
mod commands_list;
#[cfg(test)]
mod commands_list_tests;
mod desk;
mod events;
mod logging;
mod notifications;
mod ready;
mod rendering;
mod startup;
mod tray;

pub use rendering::choose_renderer;
pub use startup::mark_process_start;

use std::sync::Mutex;
use std::time::Duration;

use cubicle_core::app::{ConnectionDto, ConnectionSource};
use cubicle_core::engine::lease::EngineLease;
use cubicle_core::engine::{Engine, EngineConfig};
use tauri::Manager;
use tauri::async_runtime::JoinHandle;
use tokio_util::sync::CancellationToken;

/// How long quitting waits for thoughts in flight to finish before exiting anyway
/// (a thought cut short loses nothing: its state is in the database).
const ENGINE_STOP_GRACE: Duration = Duration::from_secs(3);

/// Stops the engine when the app exits.
struct EngineStop {
    cancel: CancellationToken,
    running: Mutex<Option<JoinHandle<()>>>,
}

impl EngineStop {
    /// Cancels the engine and waits (briefly) for its loop to end.
    fn stop(&self) {
        self.cancel.cancel();
        let running = self
            .running
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        let Some(running) = running else { return };
        // The timer must be made inside the runtime: this runs on the main thread.
        let stopped = tauri::async_runtime::block_on(async {
            tokio::time::timeout(ENGINE_STOP_GRACE, running).await
        });
        match stopped {
            Ok(_) => tracing::info!("engine stopped"),
            Err(_) => tracing::warn!(
                grace = ?ENGINE_STOP_GRACE,
                "the engine was still busy; exiting anyway"
            ),
        }
    }
}

/// Where the company lives (a file here, or a shared server), for the shell.
pub(crate) struct Connection(pub(crate) cubicle_core::app::ConnectionDto);

/// The local company's engine lease, or `None` (logged) when another engine — a
/// `cubicle-cli run` on the same file — already runs it: the app then works without an
/// engine of its own, as when attached to a server.
fn local_engine_lease(core: &cubicle_core::AppCore) -> Option<EngineLease> {
    match tauri::async_runtime::block_on(EngineLease::try_take(core)) {
        Ok(lease) => Some(lease),
        Err(e) => {
            tracing::warn!(error = %e, "no local engine: {e}");
            None
        }
    }
}

/// tauri-driver starts the app with this set to turn on WebKit automation.
fn driven_by_webdriver() -> bool {
    std::env::var("TAURI_WEBVIEW_AUTOMATION").is_ok_and(|v| v == "true")
}

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
        .invoke_handler(ready::gated(commands::handler()))
        .setup(setup)
        .on_window_event(hide_on_close)
        .build(tauri::generate_context!("tauri.conf.json"));
    match app {
        Ok(app) => app.run(on_exit),
        Err(e) => {
            eprintln!("Cubicle could not start: {e}");
            std::process::exit(1);
        }
    }
}

/// Logging, then the company on a thread of its own while the window loads ([`ready`]).
fn setup(app: &mut tauri::App) -> Result<(), Box<dyn std::error::Error>> {
    let log_dir = app.path().app_log_dir()?;
    let guard = logging::init(&log_dir, logging::DEFAULT_FILTER)?;
    app.manage(guard);
    rendering::log_choice();
    app.manage(ready::Ready::default());
    let handle = app.handle().clone();
    std::thread::Builder::new()
        .name("open-company".into())
        .spawn(move || {
            let opened = open_and_run(&handle);
            if let Err(e) = &opened {
                tracing::error!(error = %e, "Cubicle could not open its company");
                eprintln!("Cubicle could not start: {e}");
            }
            handle.state::<ready::Ready>().set(opened.is_ok());
            if opened.is_err() {
                handle.exit(1);
            }
        })?;
    Ok(())
}

/// The company, its engine (or the watch of a server's), notifications and the tray,
/// each put in app state; the company last, as commands wait for it.
fn open_and_run(app: &tauri::AppHandle) -> Result<(), Box<dyn std::error::Error>> {
    let started = std::time::Instant::now();
    let (core, connection) = open_company(app)?;
    let server = connection.server.clone();
    events::spawn_bridge(app.clone(), &core.bus);
    match &server {
        Some(server) => watch_server(server, &core),
        None => start_engine(app, &core),
    }
    let desk = desk::Desk::new(core.approvals.signed_in());
    app.manage(Connection(connection));
    // Each new approval raises a desktop notification (SPEC §8); the tray keeps
    // the company reachable with the window closed. Both are the desk user's.
    notifications::spawn(app, &core, desk.watch());
    // The tray is made on the main thread (GTK), which may be answering the page.
    let (tray_app, tray_core, tray_desk) = (app.clone(), core.clone(), desk.watch());
    app.run_on_main_thread(move || {
        if tray::create(&tray_app, &tray_core, tray_desk) {
            tray_app.manage(tray::TrayAlive);
        }
    })?;
    app.manage(desk);
    app.manage(core);
    tracing::info!(ms = started.elapsed().as_millis(), "company open");
    Ok(())
}

/// Opens `CUBICLE_DATABASE_URL`, else the company-server sign-in saved in the keychain
/// (Settings → Company server, or `cubicle-cli sign-in`), else this computer's own
/// company. A sign-in that no longer opens its company (the server is down, the login
/// was removed) does not keep the app from starting: it opens this computer's company
/// and says why, and the sign-in stays until the person forgets it.
fn open_company(
    app: &tauri::AppHandle,
) -> Result<(cubicle_core::AppCore, ConnectionDto), Box<dyn std::error::Error>> {
    let local = || -> Result<String, Box<dyn std::error::Error>> {
        Ok(cubicle_core::location::sqlite_url_in(
            &app.path().app_data_dir()?,
        )?)
    };
    let (url, source) = match std::env::var(cubicle_core::location::DATABASE_URL_ENV) {
        Ok(url) if !url.trim().is_empty() => (url, ConnectionSource::Environment),
        _ => match cubicle_core::sign_in::saved(&cubicle_core::secrets::KeyringStore) {
            Some(url) => (url, ConnectionSource::SignIn),
            None => (local()?, ConnectionSource::Local),
        },
    };
    let open = |url: &str| {
        tracing::info!(db = %cubicle_core::location::redact_url(url), "opening company");
        let server = cubicle_core::location::server_label(url);
        let options = core_options(server.is_none())?;
        let core = tauri::async_runtime::block_on(cubicle_core::AppCore::open_with(url, options))?;
        Ok::<_, Box<dyn std::error::Error>>((core, server))
    };
    let (core, server, source, sign_in_failed) = match open(&url) {
        Ok((core, server)) => (core, server, source, None),
        Err(e) if source == ConnectionSource::SignIn => {
            tracing::warn!(error = %e, "the saved company-server sign-in did not open its company; opening this computer's");
            let (core, server) = open(&local()?)?;
            (core, server, ConnectionSource::Local, Some(e.to_string()))
        }
        Err(e) => return Err(e),
    };
    let connection = ConnectionDto {
        server,
        source,
        sign_in_failed,
    };
    Ok((core, connection))
}

fn core_options(local: bool) -> Result<cubicle_core::app::CoreOptions, Box<dyn std::error::Error>> {
    // A provider given entirely by the environment (CUBICLE_PROVIDER, …) works in
    // the app too, as in the CLI: handy for scripted setups and tests.
    let mut options = cubicle_core::app::CoreOptions {
        env_provider: cubicle_core::providers::EnvProvider::from_env()?,
        // Attached to a server, approved actions run on the server (its engine,
        // its workspace, its network), not on this desktop.
        approvals: cubicle_core::approvals::ApprovalsConfig {
            run_here: local,
            ..Default::default()
        },
        ..Default::default()
    };
    options.approvals.tools.webhook_loopback_for_tests =
        cubicle_core::tools::loopback_webhooks_for_tests_from_env();
    Ok(options)
}

/// A shared company: the server's `cubicle-cli run` is its one engine (two would think
/// twice for everyone). This app reads and writes the same database; what it posts,
/// that engine picks up on its next resync.
fn watch_server(server: &str, core: &cubicle_core::AppCore) {
    tracing::info!(%server, "attached to a company server; no local engine");
    // Approvals the server's engine raises (and decisions made elsewhere)
    // reach this app's notifications and views through the watch.
    let watched = core.clone();
    tauri::async_runtime::spawn(async move {
        cubicle_core::approvals::watch::spawn_watch(
            watched,
            cubicle_core::approvals::watch::WATCH_EVERY,
        );
    });
}

/// The company keeps working while the app runs: the engine wakes employees as
/// messages arrive and their polls fall due.
fn start_engine(app: &tauri::AppHandle, core: &cubicle_core::AppCore) {
    // One company, one engine: a `cubicle-cli run` already holding it keeps it.
    let Some(lease) = local_engine_lease(core) else {
        return;
    };
    let engine = Engine::new(core, EngineConfig::default());
    let cancel = CancellationToken::new();
    let stop = cancel.clone();
    // The lease lives as long as the engine runs.
    let running = tauri::async_runtime::spawn(async move {
        engine.run(stop).await;
        drop(lease);
    });
    app.manage(EngineStop {
        cancel,
        running: Mutex::new(Some(running)),
    });
}

/// With a tray, closing the window hides it: the company keeps running.
/// Not under WebDriver: the driver owns the app's life and ends a session by
/// closing the window (hiding would leave it to be killed mid-flight).
fn hide_on_close(window: &tauri::Window, event: &tauri::WindowEvent) {
    if let tauri::WindowEvent::CloseRequested { api, .. } = event
        && window.label() == "main"
        && window.app_handle().try_state::<tray::TrayAlive>().is_some()
        && !driven_by_webdriver()
    {
        api.prevent_close();
        let _ = window.hide();
    }
}

/// The process ends right after this (std::process::exit): nothing in app state is
/// dropped, so stop the engine and flush the logs here.
fn on_exit(app: &tauri::AppHandle, event: tauri::RunEvent) {
    if let tauri::RunEvent::Exit = event {
        if let Some(stop) = app.try_state::<EngineStop>() {
            stop.stop();
        }
        if let Some(logs) = app.try_state::<logging::LogGuard>() {
            logs.flush();
        }
    }
}
