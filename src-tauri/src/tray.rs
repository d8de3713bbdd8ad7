//! The tray icon: the company keeps working with the window closed, and the tray says
//! how many approvals wait for whoever uses the desktop (the boss: all of them). Its menu: open the app, open the approval
//! queue, quit (which stops the engine).
//!
//! Where there is no tray (a headless session, no appindicator library), the app runs
//! as before: creating it is tried, and a failure is logged, never fatal.

use std::panic::AssertUnwindSafe;
use std::time::Duration;

use cubicle_core::approvals::Decider;
use cubicle_core::notify::DeskWatch;
use cubicle_core::types::Language;
use cubicle_core::{AppCore, DomainEvent};
use tauri::menu::{Menu, MenuEvent, MenuItem, PredefinedMenuItem};
use tauri::tray::{TrayIcon, TrayIconBuilder};
use tauri::{AppHandle, Runtime};
use tokio::sync::broadcast::error::RecvError;
use tokio::time::MissedTickBehavior;

use crate::notifications;

const ID_OPEN: &str = "open";
const ID_APPROVALS: &str = "approvals";
const ID_QUIT: &str = "quit";

/// Approvals decided or raised by another process on the same database (the CLI, a
/// headless `cubicle-cli run`) send no event on this app's bus: the tray recounts this
/// often as well (one COUNT query; the tray is touched only when the count changes).
const RECOUNT_EVERY: Duration = Duration::from_secs(5);

/// Present in app state when the tray exists: closing the window then only hides it.
pub struct TrayAlive;

/// The tray's texts for `pending` waiting approvals, in the company's language.
#[derive(Debug, PartialEq, Eq)]
struct Labels {
    tooltip: String,
    open: &'static str,
    approvals: String,
    quit: &'static str,
}

fn labels(lang: Language, pending: u64) -> Labels {
    match lang {
        Language::ZhCn => Labels {
            tooltip: match pending {
                0 => "Cubicle — 没有待审批事项".to_owned(),
                n => format!("Cubicle — {n} 项待审批"),
            },
            open: "打开 Cubicle",
            approvals: format!("审批（{pending}）"),
            quit: "退出",
        },
        Language::En => Labels {
            tooltip: match pending {
                0 => "Cubicle — no approvals waiting".to_owned(),
                1 => "Cubicle — 1 approval waiting".to_owned(),
                n => format!("Cubicle — {n} approvals waiting"),
            },
            open: "Open Cubicle",
            approvals: format!("Approvals ({pending})"),
            quit: "Quit",
        },
    }
}

struct Tray<R: Runtime> {
    icon: TrayIcon<R>,
    open: MenuItem<R>,
    approvals: MenuItem<R>,
    quit: MenuItem<R>,
}

impl<R: Runtime> Tray<R> {
    fn build(app: &AppHandle<R>) -> tauri::Result<Self> {
        let l = labels(Language::En, 0);
        let open = MenuItem::with_id(app, ID_OPEN, l.open, true, None::<&str>)?;
        let approvals = MenuItem::with_id(app, ID_APPROVALS, &l.approvals, true, None::<&str>)?;
        let quit = MenuItem::with_id(app, ID_QUIT, l.quit, true, None::<&str>)?;
        let menu = Menu::with_items(
            app,
            &[
                &open,
                &approvals,
                &PredefinedMenuItem::separator(app)?,
                &quit,
            ],
        )?;
        let mut builder = TrayIconBuilder::with_id("main")
            .tooltip(&l.tooltip)
            .menu(&menu)
            .show_menu_on_left_click(true)
            .on_menu_event(on_menu);
        if let Some(icon) = app.default_window_icon() {
            builder = builder.icon(icon.clone());
        }
        let icon = builder.build(app)?;
        Ok(Self {
            icon,
            open,
            approvals,
            quit,
        })
    }

    fn show(&self, l: &Labels, pending: u64) -> tauri::Result<()> {
        self.icon.set_tooltip(Some(&l.tooltip))?;
        // A label beside the icon where the tray shows one (appindicator, macOS).
        self.icon
            .set_title((pending > 0).then(|| pending.to_string()))?;
        self.open.set_text(l.open)?;
        self.approvals.set_text(&l.approvals)?;
        self.quit.set_text(l.quit)
    }
}

fn on_menu<R: Runtime>(app: &AppHandle<R>, event: MenuEvent) {
    match event.id.as_ref() {
        ID_OPEN => notifications::show_main(app),
        ID_APPROVALS => notifications::open_approval(app, None),
        ID_QUIT => {
            // The exit handler (lib.rs) stops the engine and flushes the logs.
            tracing::info!("quit from the tray");
            app.exit(0);
        }
        _ => {}
    }
}

/// Creates the tray and keeps its count current for `desk`'s user. Returns whether a
/// tray exists.
pub fn create<R: Runtime>(app: &AppHandle<R>, core: &AppCore, mut desk: DeskWatch) -> bool {
    // The Linux tray loads its appindicator library at run time and panics when it is
    // missing: that must not take the app down.
    let built = std::panic::catch_unwind(AssertUnwindSafe(|| Tray::build(app)));
    let tray = match built {
        Ok(Ok(tray)) => tray,
        Ok(Err(e)) => {
            tracing::warn!(error = %e, "no tray icon; closing the window quits");
            return false;
        }
        Err(_) => {
            tracing::warn!(
                "no tray icon (the system tray is unavailable); closing the window quits"
            );
            return false;
        }
    };
    let mut rx = core.bus.subscribe();
    let core = core.clone();
    tauri::async_runtime::spawn(async move {
        let mut shown = None;
        // The first tick is immediate: the tray starts with the real count.
        let mut recount = tokio::time::interval(RECOUNT_EVERY);
        recount.set_missed_tick_behavior(MissedTickBehavior::Delay);
        let mut desk_open = true;
        loop {
            tokio::select! {
                _ = recount.tick() => {}
                changed = desk.changed(), if desk_open => desk_open = changed.is_ok(),
                event = rx.recv() => match event {
                    Ok(
                        DomainEvent::ApprovalRequested { .. }
                        | DomainEvent::ApprovalDecided { .. }
                        | DomainEvent::CompanyUpdated { .. },
                    )
                    | Err(RecvError::Lagged(_)) => {}
                    Ok(_) => continue,
                    Err(RecvError::Closed) => break,
                },
            }
            let user = *desk.borrow();
            refresh(&tray, &core, user, &mut shown).await;
        }
    });
    true
}

/// What the tray shows now: (Chinese, pending count).
type Shown = Option<(Language, u64)>;

async fn refresh<R: Runtime>(tray: &Tray<R>, core: &AppCore, user: Decider, shown: &mut Shown) {
    let pending = match core.approvals.pending_count_for(user).await {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(error = %e, "could not count pending approvals for the tray");
            return;
        }
    };
    let lang = core.mailbox.language().await.unwrap_or(Language::En);
    if *shown == Some((lang, pending)) {
        return;
    }
    match tray.show(&labels(lang, pending), pending) {
        Ok(()) => *shown = Some((lang, pending)),
        Err(e) => tracing::warn!(error = %e, "could not update the tray"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_tray_counts_waiting_approvals_in_the_companys_language() {
        let l = labels(Language::En, 3);
        assert_eq!(l.tooltip, "Cubicle — 3 approvals waiting");
        assert_eq!(l.approvals, "Approvals (3)");
        assert_eq!(
            labels(Language::En, 1).tooltip,
            "Cubicle — 1 approval waiting"
        );
        assert_eq!(labels(Language::En, 0).approvals, "Approvals (0)");
        let l = labels(Language::ZhCn, 2);
        assert_eq!(l.tooltip, "Cubicle — 2 项待审批");
        assert_eq!(l.approvals, "审批（2）");
        assert_eq!(l.quit, "退出");
    }
}
