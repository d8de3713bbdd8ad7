//! The one place core events become webview events.

use cubicle_core::EventBus;
use tauri::{AppHandle, Emitter, Runtime};
use tokio::sync::broadcast::error::RecvError;

/// Webview event name carrying a `DomainEvent` payload.
pub const DOMAIN_EVENT: &str = "domain-event";

pub fn spawn_bridge<R: Runtime>(app: AppHandle<R>, bus: &EventBus) {
    let mut rx = bus.subscribe();
    tauri::async_runtime::spawn(async move {
        loop {
            match rx.recv().await {
                Ok(event) => {
                    if let Err(e) = app.emit(DOMAIN_EVENT, &event) {
                        tracing::warn!(error = %e, "could not forward a domain event");
                    }
                }
                Err(RecvError::Lagged(n)) => {
                    tracing::warn!(
                        missed = n,
                        "event bridge lagged; the UI refetches on the next event"
                    );
                }
                Err(RecvError::Closed) => break,
            }
        }
    });
}
