//! Notifications in the app: core's listener with the system's notifier (SPEC §8,
//! §17). Approve / Reject are decided in core; a click on an approval's body brings the
//! window up on that approval, a click on a refusal's or a budget stop's on the place
//! that fixes it.

use std::sync::Arc;

use cubicle_core::AppCore;
use cubicle_core::notify::{self, DeskWatch, DesktopNotifier, Open};
use serde::Serialize;
use tauri::{AppHandle, Emitter, Manager, Runtime};

/// Webview event: open the approval queue on `approvalId` (or on the queue, if null).
/// The UI's `OPEN_APPROVAL_EVENT` (ui/src/ipc/events.ts).
pub const OPEN_APPROVAL: &str = "open_approval";

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenApproval {
    pub approval_id: Option<i32>,
}

/// Webview event: open the app's route `href` (`#settings/webhooks/<host>`), read by
/// the app's own route parser. The UI's `OPEN_ROUTE_EVENT` (ui/src/ipc/events.ts).
pub const OPEN_ROUTE: &str = "open_route";

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OpenRoute {
    pub href: String,
}

/// Starts the approval notifier for as long as the company's event bus lives: the
/// notifications of whoever uses `desk`, decided in their name.
pub fn spawn<R: Runtime>(app: &AppHandle<R>, core: &AppCore, desk: DeskWatch) {
    let app = app.clone();
    let core = core.clone();
    // The listener spawns its tasks on the ambient Tokio runtime: start it from inside one.
    tauri::async_runtime::spawn(async move {
        let opener = app.clone();
        let _listener =
            notify::spawn_notifier(core, Arc::new(DesktopNotifier::new()), desk, move |open| {
                match open {
                    Open::Approval(id) => open_approval(&opener, Some(id)),
                    Open::Route(href) => open_route(&opener, href),
                }
            });
        tracing::info!("notifications on");
    });
}

/// Shows and focuses the main window.
pub fn show_main<R: Runtime>(app: &AppHandle<R>) {
    if let Some(w) = app.get_webview_window("main") {
        let _ = w.unminimize();
        let _ = w.show();
        let _ = w.set_focus();
    }
}

/// Brings the window up on one approval, or on the queue when `id` is `None`.
pub fn open_approval<R: Runtime>(app: &AppHandle<R>, id: Option<i32>) {
    show_main(app);
    if let Err(e) = app.emit(OPEN_APPROVAL, OpenApproval { approval_id: id }) {
        tracing::warn!(error = %e, "could not ask the UI to open an approval");
    }
}

/// Brings the window up on the app's route `href`.
pub fn open_route<R: Runtime>(app: &AppHandle<R>, href: String) {
    show_main(app);
    if let Err(e) = app.emit(OPEN_ROUTE, OpenRoute { href }) {
        tracing::warn!(error = %e, "could not ask the UI to open a route");
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_payload_is_what_the_ui_reads() {
        let v = serde_json::to_value(OpenApproval {
            approval_id: Some(7),
        })
        .unwrap_or_default();
        assert_eq!(v, serde_json::json!({"approvalId": 7}));
        let v = serde_json::to_value(OpenApproval { approval_id: None }).unwrap_or_default();
        assert_eq!(v, serde_json::json!({"approvalId": null}));
        let v = serde_json::to_value(OpenRoute {
            href: "#settings/webhooks/hooks.example".into(),
        })
        .unwrap_or_default();
        assert_eq!(
            v,
            serde_json::json!({"href": "#settings/webhooks/hooks.example"})
        );
    }
}
