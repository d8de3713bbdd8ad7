//! The company opens beside the window, not before it (SPEC §11 start-up): the webview
//! fetches its page from the main thread, so a set-up that held the main thread while it
//! opened the database (migrations, the keychain, a server across the network) kept the
//! window blank until it was done. The page now loads while a thread opens the company;
//! a command that reaches the shell before the company is open waits for it here, off
//! the main thread.

use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use tauri::ipc::Invoke;
use tauri::{Manager, Runtime};

/// A command waits at most this long for the company to open (a sign-in to a server
/// that does not answer falls back to this computer's company well within it).
const PATIENCE: Duration = Duration::from_secs(90);

/// Commands that need nothing of the company and must not wait for it.
const NEEDS_NO_COMPANY: [&str; 1] = ["ui_first_paint"];

/// Whether the company is open: `None` while it opens, then whether it did.
#[derive(Clone, Default)]
pub struct Ready(Arc<(Mutex<Option<bool>>, Condvar)>);

impl Ready {
    /// The company is open (`true`), or could not be (`false`: the app is exiting).
    pub fn set(&self, opened: bool) {
        let (state, changed) = &*self.0;
        *state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(opened);
        changed.notify_all();
    }

    fn now(&self) -> Option<bool> {
        *self
            .0
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Blocks until the company is open; false if it never will be, or not in time.
    fn wait(&self) -> bool {
        let (state, changed) = &*self.0;
        let guard = state
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        let (state, _) = changed
            .wait_timeout_while(guard, PATIENCE, |s| s.is_none())
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        *state == Some(true)
    }
}

/// The commands' handler behind the gate: a command that needs the company runs at once
/// when it is open; while it opens, on a blocking thread once it is (the main thread —
/// which shows what the page painted — is never held); if it never opens, it is rejected
/// (`storage`, with what happened).
pub fn gated<R: Runtime>(
    inner: impl Fn(Invoke<R>) -> bool + Send + Sync + 'static,
) -> impl Fn(Invoke<R>) -> bool + Send + Sync + 'static {
    let inner = Arc::new(inner);
    move |invoke: Invoke<R>| {
        if NEEDS_NO_COMPANY.contains(&invoke.message.command()) {
            return inner(invoke);
        }
        let Some(ready) = invoke
            .message
            .webview_ref()
            .try_state::<Ready>()
            .map(|r| r.inner().clone())
        else {
            return inner(invoke);
        };
        match ready.now() {
            Some(true) => inner(invoke),
            Some(false) => reject(invoke),
            None => {
                let inner = Arc::clone(&inner);
                tauri::async_runtime::spawn_blocking(move || {
                    if ready.wait() {
                        inner(invoke);
                    } else {
                        reject(invoke);
                    }
                });
                true
            }
        }
    }
}

fn reject<R: Runtime>(invoke: Invoke<R>) -> bool {
    // `storage`, not `company_missing`: the page must not take it for a first run.
    invoke.resolver.reject(cubicle_core::IpcError::new(
        cubicle_core::ErrorCode::Storage,
        "the company could not be opened: see the log",
    ));
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_waiting_command_goes_on_when_the_company_opens_and_not_if_it_fails() {
        let ready = Ready::default();
        let opener = ready.clone();
        let started = std::time::Instant::now();
        let t = std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(50));
            opener.set(true);
        });
        assert!(ready.wait());
        assert!(started.elapsed() >= Duration::from_millis(50));
        t.join().ok();
        let failed = Ready::default();
        failed.set(false);
        assert!(!failed.wait());
    }
}
