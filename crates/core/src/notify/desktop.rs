//! [`Notifier`] over notify-rust: D-Bus `org.freedesktop.Notifications` on Linux and
//! the BSDs, a plain notification elsewhere.

use async_trait::async_trait;
use tokio_util::sync::CancellationToken;

use super::{ApprovalNotice, FixNotice, NotificationOutcome, Notifier, NotifyError, OutcomeNotice};

/// The system's notification server (notify-rust).
#[derive(Clone, Debug, Default)]
pub struct DesktopNotifier {
    _private: (),
}

impl DesktopNotifier {
    pub fn new() -> Self {
        Self::default()
    }
}

#[cfg(all(unix, not(target_os = "macos")))]
#[async_trait]
impl Notifier for DesktopNotifier {
    async fn approval_requested(
        &self,
        notice: &ApprovalNotice,
        withdraw: CancellationToken,
    ) -> Result<NotificationOutcome, NotifyError> {
        // The sync call blocks on D-Bus: keep it off the async workers.
        let caps = tokio::task::spawn_blocking(notify_rust::get_capabilities)
            .await
            .map_err(|e| NotifyError::Unavailable(e.to_string()))?
            .map_err(|e| NotifyError::Unavailable(e.to_string()))?;
        let buttons = caps.iter().any(|c| c == "actions");
        let handle = freedesktop::notification(notice, &caps, buttons)
            .show_async()
            .await
            .map_err(|e| NotifyError::Unavailable(e.to_string()))?;
        tracing::debug!(
            approval_id = notice.approval_id,
            notification_id = handle.id(),
            buttons,
            "approval notification shown"
        );
        let wait = async {
            let mut response = None;
            handle
                .wait_for_action_async(|r| response = Some(r.clone()))
                .await;
            response
        };
        let response = tokio::select! {
            biased;
            () = withdraw.cancelled() => {
                handle.close_async().await;
                return Ok(NotificationOutcome::Withdrawn);
            }
            r = wait => r,
        };
        // The bus went away before an answer: nothing to decide.
        Ok(response.map_or(NotificationOutcome::Closed, |r| {
            freedesktop::outcome(r, buttons, notice.complete)
        }))
    }

    async fn outcome(&self, notice: &OutcomeNotice) -> Result<(), NotifyError> {
        let caps = tokio::task::spawn_blocking(notify_rust::get_capabilities)
            .await
            .map_err(|e| NotifyError::Unavailable(e.to_string()))?
            .map_err(|e| NotifyError::Unavailable(e.to_string()))?;
        freedesktop::follow_up(notice, &caps)
            .show_async()
            .await
            .map_err(|e| NotifyError::Unavailable(e.to_string()))?;
        Ok(())
    }

    async fn fix_needed(&self, notice: &FixNotice) -> Result<NotificationOutcome, NotifyError> {
        let caps = tokio::task::spawn_blocking(notify_rust::get_capabilities)
            .await
            .map_err(|e| NotifyError::Unavailable(e.to_string()))?
            .map_err(|e| NotifyError::Unavailable(e.to_string()))?;
        let buttons = caps.iter().any(|c| c == "actions");
        let handle = freedesktop::fix(notice, &caps, buttons)
            .show_async()
            .await
            .map_err(|e| NotifyError::Unavailable(e.to_string()))?;
        tracing::debug!(
            mail_id = notice.mail_id,
            notification_id = handle.id(),
            "refusal notification shown"
        );
        let mut response = None;
        handle
            .wait_for_action_async(|r| response = Some(r.clone()))
            .await;
        Ok(response.map_or(NotificationOutcome::Closed, |r| {
            freedesktop::opened(r, buttons)
        }))
    }
}

/// The freedesktop notification for an approval and the boss's answer to it.
#[cfg(all(unix, not(target_os = "macos")))]
mod freedesktop {
    use notify_rust::{Hint, Notification, NotificationResponse, Timeout, Urgency};

    use super::super::{ACTION_APPROVE, ACTION_OPEN, ACTION_REJECT, APP_NAME, CATEGORY};
    use super::{ApprovalNotice, FixNotice, NotificationOutcome, OutcomeNotice};

    /// What came of an approval decided from its notification: no buttons, gone by
    /// itself unless it failed.
    pub(super) fn follow_up(notice: &OutcomeNotice, caps: &[String]) -> Notification {
        let body = if caps.iter().any(|c| c == "body-markup") {
            super::super::escape_markup(&notice.body)
        } else {
            notice.body.clone()
        };
        let mut n = Notification::new();
        n.appname(APP_NAME)
            .summary(&notice.title)
            .body(&body)
            .icon(if notice.failed {
                "dialog-error"
            } else {
                "dialog-information"
            })
            .hint(Hint::Category(CATEGORY.to_owned()))
            .hint(Hint::DesktopEntry("cubicle".to_owned()))
            .urgency(if notice.failed {
                Urgency::Critical
            } else {
                Urgency::Normal
            });
        n
    }

    /// A refusal or a budget stop the boss can fix: a click (on the body or the one
    /// button, where the server offers actions) opens the fix in the app.
    pub(super) fn fix(notice: &FixNotice, caps: &[String], buttons: bool) -> Notification {
        let body = if caps.iter().any(|c| c == "body-markup") {
            super::super::escape_markup(&notice.body)
        } else {
            notice.body.clone()
        };
        let mut n = Notification::new();
        n.appname(APP_NAME)
            .summary(&notice.title)
            .body(&body)
            .icon("dialog-warning")
            .hint(Hint::Category(CATEGORY.to_owned()))
            .hint(Hint::DesktopEntry("cubicle".to_owned()))
            .urgency(Urgency::Normal);
        if buttons {
            n.action(ACTION_OPEN, &notice.open_label);
        }
        n
    }

    /// Whether a click on a fix notification asks to open the fix.
    pub(super) fn opened(response: NotificationResponse, buttons: bool) -> NotificationOutcome {
        match response {
            NotificationResponse::Default if buttons => NotificationOutcome::Open,
            NotificationResponse::Action(key) if buttons && key == ACTION_OPEN => {
                NotificationOutcome::Open
            }
            _ => NotificationOutcome::Closed,
        }
    }

    /// The notification, with buttons when the server offers actions.
    pub(super) fn notification(
        notice: &ApprovalNotice,
        caps: &[String],
        buttons: bool,
    ) -> Notification {
        // A server that reads markup in the body would render a model's `<a href>` or
        // `<b>`: there the text goes escaped, so it shows as the characters it is.
        let body = if caps.iter().any(|c| c == "body-markup") {
            super::super::escape_markup(&notice.body)
        } else {
            notice.body.clone()
        };
        let mut n = Notification::new();
        n.appname(APP_NAME)
            .summary(&notice.title)
            .body(&body)
            .icon("dialog-question")
            .hint(Hint::Category(CATEGORY.to_owned()))
            .hint(Hint::DesktopEntry("cubicle".to_owned()))
            .urgency(Urgency::Normal);
        if buttons {
            // Stays until answered (servers that honour it); the queue has it anyway.
            n.hint(Hint::Resident(true))
                .timeout(Timeout::Never)
                .action(ACTION_OPEN, &notice.open_label);
            // Approve only what the boss could read whole; the app shows the rest.
            if notice.complete {
                n.action(ACTION_APPROVE, &notice.approve_label);
            }
            n.action(ACTION_REJECT, &notice.reject_label);
        }
        n
    }

    /// What the boss's click means.
    pub(super) fn outcome(
        response: NotificationResponse,
        buttons: bool,
        complete: bool,
    ) -> NotificationOutcome {
        match response {
            // Without buttons on offer, an action key cannot be the boss's choice.
            NotificationResponse::Action(key) if buttons && complete && key == ACTION_APPROVE => {
                NotificationOutcome::Approve
            }
            NotificationResponse::Action(key) if buttons && key == ACTION_REJECT => {
                NotificationOutcome::Reject
            }
            NotificationResponse::Default if buttons => NotificationOutcome::Open,
            NotificationResponse::Action(key) if buttons && key == ACTION_OPEN => {
                NotificationOutcome::Open
            }
            _ => NotificationOutcome::Closed,
        }
    }
}

#[cfg(not(all(unix, not(target_os = "macos"))))]
#[async_trait]
impl Notifier for DesktopNotifier {
    async fn approval_requested(
        &self,
        notice: &ApprovalNotice,
        _withdraw: CancellationToken,
    ) -> Result<NotificationOutcome, NotifyError> {
        // No actions here: a plain notification; the queue in the app decides.
        show_plain(notice.title.clone(), notice.body.clone()).await?;
        Ok(NotificationOutcome::Closed)
    }

    async fn outcome(&self, notice: &OutcomeNotice) -> Result<(), NotifyError> {
        show_plain(notice.title.clone(), notice.body.clone()).await
    }

    async fn fix_needed(&self, notice: &FixNotice) -> Result<NotificationOutcome, NotifyError> {
        // No actions here: the mailbox item carries the fix.
        show_plain(notice.title.clone(), notice.body.clone()).await?;
        Ok(NotificationOutcome::Closed)
    }
}

/// A notification with no buttons, shown off the async threads (notify-rust blocks).
#[cfg(not(all(unix, not(target_os = "macos"))))]
async fn show_plain(title: String, body: String) -> Result<(), NotifyError> {
    tokio::task::spawn_blocking(move || {
        notify_rust::Notification::new()
            .appname(super::APP_NAME)
            .summary(&title)
            .body(&body)
            .show()
            .map(|_| ())
            .map_err(|e| NotifyError::Unavailable(e.to_string()))
    })
    .await
    .map_err(|e| NotifyError::Unavailable(e.to_string()))?
}
