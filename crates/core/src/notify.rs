//! Desktop notifications for approvals (SPEC §8): each new approval raises one
//! notification with **Approve** and **Reject** buttons where the platform offers
//! actions; a button decides it through the same [`Approvals::decide`] as the queue
//! (`decided_via = notification`), a click on the body opens the app on that item.
//! A refusal or a budget stop the boss can fix (SPEC §17) raises one too, once a day
//! per employee and cause like its mail; a click opens the place that fixes it.
//!
//! The in-app queue stays the source of truth: a missing notification daemon, a closed
//! notification or a lagging event bus lose nothing but the popup. The [`Notifier`] trait
//! is the only side effect here, so tests use the real D-Bus path ([`DesktopNotifier`]
//! against a test server) or a double; the listener never touches D-Bus itself.
//!
//! [`Approvals::decide`]: crate::approvals::Approvals::decide

mod desktop;

use sea_orm::ActiveEnum;
use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::watch;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::AppCore;
use crate::approvals::{
    ApprovalDto, ApprovalStatus, DecideApproval, DecidedVia, Decider, Decision,
};
use crate::events::DomainEvent;
use crate::types::{Language, ToolName};

pub use desktop::DesktopNotifier;

/// The name the notification server shows as the sender.
pub const APP_NAME: &str = "Cubicle";
/// The freedesktop category hint: servers group and theme by it.
pub const CATEGORY: &str = "im.received";
/// Action keys on the wire (`default` is the freedesktop key for a click on the body).
pub const ACTION_APPROVE: &str = "approve";
pub const ACTION_REJECT: &str = "reject";
pub const ACTION_OPEN: &str = "default";

/// The longest notification body: what fits a notification bubble. A longer action is
/// not offered for approval from the notification, only opened in the app.
pub const BODY_MAX_CHARS: usize = 600;
/// The longest title (the requester's name is the boss's own input, but a title is one line).
pub const TITLE_MAX_CHARS: usize = 120;

/// What one approval's notification says, in the company's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalNotice {
    pub approval_id: i32,
    /// The seal of the action this notice shows: Approve sends it back, so an action
    /// changed after the notice went up is refused.
    pub args_hash: String,
    /// "Olga wants to post to a webhook".
    pub title: String,
    /// Exactly what would happen (the whole command, its input, the file's content),
    /// then the requester's reason: plain text, control and direction-changing
    /// characters shown as `?`, at most [`BODY_MAX_CHARS`].
    pub body: String,
    /// Whether the body shows the whole action. When it does not, the notification
    /// offers no Approve button: the boss approves only what they could read.
    pub complete: bool,
    pub approve_label: String,
    pub reject_label: String,
    pub open_label: String,
}

impl ApprovalNotice {
    pub fn new(a: &ApprovalDto, lang: Language) -> Self {
        let who = a.requester_name.trim();
        let title = match (tool_phrase(&a.tool, lang), lang) {
            (Some(what), Language::En) => format!("{who} wants to {what}"),
            (Some(what), Language::ZhCn) => format!("{who} 想要{what}"),
            (None, Language::En) => format!("{who} needs your approval"),
            (None, Language::ZhCn) => format!("{who} 请求你的批准"),
        };
        let (action, complete) = clip(&plain(&a.summary), BODY_MAX_CHARS, lang);
        // The reason gets what the action leaves; cutting it hides nothing that would run.
        let room = BODY_MAX_CHARS.saturating_sub(action.chars().count() + 8);
        let (reason, _) = clip(&plain(a.reason.trim()), room, lang);
        let body = match (reason.is_empty() || !complete, lang) {
            (true, _) => action,
            (false, Language::En) => format!("{action}\nReason: {reason}"),
            (false, Language::ZhCn) => format!("{action}\n理由：{reason}"),
        };
        let (approve, reject, open) = match lang {
            Language::ZhCn => ("批准", "拒绝", "打开"),
            Language::En => ("Approve", "Reject", "Open"),
        };
        Self {
            approval_id: a.id,
            args_hash: a.args_hash.clone(),
            title: clip(&plain(&title), TITLE_MAX_CHARS, lang).0,
            body,
            complete,
            approve_label: approve.to_owned(),
            reject_label: reject.to_owned(),
            open_label: open.to_owned(),
        }
    }
}

/// The follow-up of an approval decided from its notification: what came of the action
/// (done, or failed with the error), so the boss who approved from the desktop hears the
/// outcome there too (SPEC §17), in the company's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OutcomeNotice {
    pub approval_id: i32,
    /// "Done: Olga's request" / "Failed: Olga's request".
    pub title: String,
    /// What ran, then the error when it failed: plain text, at most [`BODY_MAX_CHARS`].
    pub body: String,
    pub failed: bool,
}

impl OutcomeNotice {
    /// The follow-up of `a`, once its approved action has run; `None` before that, and
    /// for a rejection (nothing ran: the notification's own answer said so).
    pub fn new(a: &ApprovalDto, lang: Language) -> Option<Self> {
        if a.status != ApprovalStatus::Approved || a.executed_at.is_none() {
            return None;
        }
        let who = a.requester_name.trim();
        let failed = a.error.is_some();
        let title = match (failed, lang) {
            (false, Language::En) => format!("Done: {who}'s request"),
            (true, Language::En) => format!("Failed: {who}'s request"),
            (false, Language::ZhCn) => format!("已完成：{who} 的请求"),
            (true, Language::ZhCn) => format!("执行失败：{who} 的请求"),
        };
        let (action, _) = clip(&plain(&a.summary), BODY_MAX_CHARS / 2, lang);
        let body = match (&a.error, lang) {
            (None, _) => action,
            (Some(e), Language::En) => format!("{action}\nIt failed: {}", plain(e)),
            (Some(e), Language::ZhCn) => format!("{action}\n执行失败：{}", plain(e)),
        };
        Some(Self {
            approval_id: a.id,
            title: clip(&plain(&title), TITLE_MAX_CHARS, lang).0,
            body: clip(&body, BODY_MAX_CHARS, lang).0,
            failed,
        })
    }
}

/// What a refusal's or a budget stop's notification says (SPEC §17): the mail filed for
/// the boss, with the one place in the app that fixes it as its click — raised once a
/// day per employee and cause, like the mail, in the company's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FixNotice {
    pub mail_id: i32,
    /// The mail's title: "Not sent: hooks.example is not an allowed webhook destination".
    pub title: String,
    /// The mail's body (the reason and what fixes it): plain text, at most
    /// [`BODY_MAX_CHARS`].
    pub body: String,
    /// Where a click takes the app: the fix (`#settings/webhooks/<host>`), else the
    /// mailbox item.
    pub href: String,
    pub open_label: String,
}

impl FixNotice {
    pub fn new(m: &crate::mailbox::MailDto, lang: Language) -> Self {
        let href = m
            .fix_href
            .clone()
            .unwrap_or_else(|| format!("#mailbox/{}", m.id));
        Self {
            mail_id: m.id,
            title: clip(&plain(&m.title), TITLE_MAX_CHARS, lang).0,
            body: clip(&plain(&m.body), BODY_MAX_CHARS, lang).0,
            href,
            open_label: lang.pick("Fix it", "去处理"),
        }
    }
}

/// Where a click on a notification takes the app.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Open {
    /// The approval queue, on this approval.
    Approval(i32),
    /// A route of the app (`#settings/webhooks/hooks.example`): the place that fixes
    /// what a refusal or a budget stop reported.
    Route(String),
}

/// Model text made safe to show as plain text: control characters (but line breaks)
/// and the characters that reorder text on screen (bidi overrides, isolates, marks)
/// become `?`, so `rm -rf ~` cannot be made to read as something else. For any screen
/// that shows model text as plain text (a notification, a terminal).
pub fn plain(s: &str) -> String {
    s.chars()
        .map(|c| {
            let reorders = matches!(c, '\u{200e}' | '\u{200f}' | '\u{061c}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
            if (c.is_control() && c != '\n') || reorders {
                '?'
            } else {
                c
            }
        })
        .collect()
}

/// The body for a server that reads markup in it (the `body-markup` capability): `&`,
/// `<` and `>` as entities, so model text is shown, never rendered.
pub(crate) fn escape_markup(s: &str) -> String {
    s.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// `s` cut to `max` characters with a note saying how much more there is, and whether
/// it was whole.
fn clip(s: &str, max: usize, lang: Language) -> (String, bool) {
    let n = s.chars().count();
    if n <= max {
        return (s.to_owned(), true);
    }
    let note = match lang {
        Language::ZhCn => format!("…（还有 {} 个字符，请在应用中查看全部）", n - max),
        Language::En => format!("… ({} more characters: open the app to see all)", n - max),
    };
    let keep = max.saturating_sub(note.chars().count());
    (s.chars().take(keep).chain(note.chars()).collect(), false)
}

/// A short verb phrase per tool for the title (every tool has one: [`ToolName::words`]
/// matches them all); the body carries the exact details. `None` for a name that is no
/// tool.
fn tool_phrase(tool: &str, lang: Language) -> Option<&'static str> {
    let tool: ToolName = tool.parse().ok()?;
    Some(tool.words(lang).wants)
}

/// What became of one notification.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NotificationOutcome {
    /// The boss pressed Approve.
    Approve,
    /// The boss pressed Reject.
    Reject,
    /// The boss clicked the body: open the app on this approval.
    Open,
    /// It was dismissed, timed out or closed by the server; nothing was decided.
    Closed,
    /// We closed it because the approval was decided elsewhere.
    Withdrawn,
}

#[derive(Debug, thiserror::Error)]
pub enum NotifyError {
    /// No notification server (no session bus, no daemon) or it refused the call.
    #[error("desktop notifications are unavailable: {0}")]
    Unavailable(String),
}

/// Shows approval notifications. One call is one notification for its whole life:
/// it resolves when the boss acts on it, when it closes, or — once `withdraw` is
/// cancelled — after closing it.
#[async_trait]
pub trait Notifier: Send + Sync + 'static {
    async fn approval_requested(
        &self,
        notice: &ApprovalNotice,
        withdraw: CancellationToken,
    ) -> Result<NotificationOutcome, NotifyError>;

    /// Shows what came of an approval decided from its notification (no buttons). A
    /// notifier that cannot show one says nothing: the queue in the app has the outcome.
    async fn outcome(&self, notice: &OutcomeNotice) -> Result<(), NotifyError> {
        let _ = notice;
        Ok(())
    }

    /// Shows a refusal or a budget stop the boss can fix, and resolves when it is
    /// clicked ([`NotificationOutcome::Open`]: open the fix) or closed. A notifier that
    /// cannot show one says nothing: the mailbox has the item and its fix.
    async fn fix_needed(&self, notice: &FixNotice) -> Result<NotificationOutcome, NotifyError> {
        let _ = notice;
        Ok(NotificationOutcome::Closed)
    }
}

/// Notifications still on screen, by approval id (each with its own number, so a task
/// that ends late never takes down a newer notification of the same approval), and
/// every id notified to the desk's current user.
#[derive(Default)]
struct Shown {
    notified: HashSet<i32>,
    /// Mail items already raised (a refusal, a budget stop): never twice.
    fixes: HashSet<i32>,
    open: HashMap<i32, (u64, CancellationToken)>,
    next: u64,
}

/// Whose notifications a desktop shows: the person using it now (the boss sees every
/// approval, a person those routed to them). A sign-in fixes it; on a shared desktop it
/// changes when someone else says it is them.
pub type DeskWatch = watch::Receiver<Decider>;

/// A desk that is always the boss's (a desktop no person uses, a test).
pub fn boss_desk() -> DeskWatch {
    // The receiver keeps the last value when the sender is gone; it never changes again.
    watch::channel(Decider::Boss).1
}

/// Raises one notification per new approval in the queue of whoever uses `desk`, for
/// as long as the bus lives, and turns their answer into their decision. When the desk
/// changes hands, what the last user saw and the next may not is withdrawn, and what
/// waits for the next is raised. Subscribes before returning, so no approval requested
/// after this call is missed. `on_open(id)` runs on a click on the body.
pub fn spawn_approval_notifier<N, F>(
    core: AppCore,
    notifier: Arc<N>,
    desk: DeskWatch,
    on_open: F,
) -> JoinHandle<()>
where
    N: Notifier + ?Sized,
    F: Fn(i32) + Send + Sync + 'static,
{
    let on_open = move |open| {
        if let Open::Approval(id) = open {
            on_open(id);
        }
    };
    spawn(core, notifier, desk, Arc::new(on_open), false)
}

/// [`spawn_approval_notifier`], and the boss's desk also hears of every refusal and
/// budget stop filed for them (SPEC §17), once a day per employee and cause like the
/// mail: `on_open` gets the approval, or the route that fixes what was refused.
pub fn spawn_notifier<N, F>(
    core: AppCore,
    notifier: Arc<N>,
    desk: DeskWatch,
    on_open: F,
) -> JoinHandle<()>
where
    N: Notifier + ?Sized,
    F: Fn(Open) + Send + Sync + 'static,
{
    spawn(core, notifier, desk, Arc::new(on_open), true)
}

/// The listener; `fixes`: whether refusals and budget stops are raised too.
fn spawn<N>(
    core: AppCore,
    notifier: Arc<N>,
    mut desk: DeskWatch,
    on_open: Arc<dyn Fn(Open) + Send + Sync>,
    fixes: bool,
) -> JoinHandle<()>
where
    N: Notifier + ?Sized,
{
    let mut rx = core.bus.subscribe();
    let shown = Arc::new(Mutex::new(Shown::default()));
    let n = Notifying {
        core,
        notifier,
        on_open,
        shown: Arc::clone(&shown),
    };
    tokio::spawn(async move {
        let mut desk_open = true;
        loop {
            tokio::select! {
                changed = desk.changed(), if desk_open => match changed {
                    Ok(()) => {
                        let user = *desk.borrow_and_update();
                        n.hand_over(user).await;
                    }
                    Err(_) => desk_open = false,
                },
                event = rx.recv() => match event {
                    Ok(DomainEvent::ApprovalRequested { approval_id }) => {
                        n.once(approval_id, *desk.borrow());
                    }
                    Ok(DomainEvent::ApprovalDecided { approval_id }) => n.withdraw(approval_id),
                    // The boss's mailbox: a person at the desk does not see it.
                    Ok(DomainEvent::FixNeeded { mail_id }) => {
                        if fixes && *desk.borrow() == Decider::Boss {
                            n.fix_needed(mail_id);
                        }
                    }
                    Ok(_) => {}
                    Err(RecvError::Lagged(missed)) => {
                        tracing::warn!(
                            missed,
                            "approval notifier lagged; catching up from the queue"
                        );
                        let user = *desk.borrow();
                        n.raise_waiting(user).await;
                    }
                    Err(RecvError::Closed) => break,
                },
            }
        }
        // The company is closing: take down what is still on screen.
        for (_, (_, token)) in lock(&shown).open.drain() {
            token.cancel();
        }
    })
}

fn lock(shown: &Mutex<Shown>) -> std::sync::MutexGuard<'_, Shown> {
    shown
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

/// What the listener's notifications share.
struct Notifying<N: Notifier + ?Sized> {
    core: AppCore,
    notifier: Arc<N>,
    on_open: Arc<dyn Fn(Open) + Send + Sync>,
    shown: Arc<Mutex<Shown>>,
}

impl<N: Notifier + ?Sized> Notifying<N> {
    /// One notification of the refusal or budget stop filed as mail `id`; a click
    /// opens its fix.
    fn fix_needed(&self, id: i32) {
        if !lock(&self.shown).fixes.insert(id) {
            return;
        }
        let (core, notifier, on_open) = (
            self.core.clone(),
            Arc::clone(&self.notifier),
            Arc::clone(&self.on_open),
        );
        tokio::spawn(async move {
            let mail = match core.mailbox.get(id).await {
                Ok(Some(m)) => m,
                Ok(None) => return,
                Err(e) => {
                    tracing::warn!(mail_id = id, error = %e, "no notification: mail not readable");
                    return;
                }
            };
            let lang = core.mailbox.language().await.unwrap_or(Language::En);
            let notice = FixNotice::new(&mail, lang);
            match notifier.fix_needed(&notice).await {
                Ok(NotificationOutcome::Open) => on_open(Open::Route(notice.href)),
                Ok(_) => {}
                Err(e) => {
                    tracing::info!(mail_id = id, error = %e, "no notification; the mailbox has it");
                }
            }
        });
    }

    /// Takes down the notification of `id`, if one is on screen.
    fn withdraw(&self, id: i32) {
        let open = lock(&self.shown).open.remove(&id);
        if let Some((_, token)) = open {
            token.cancel();
        }
    }

    /// Raises what waits in `user`'s queue and was not raised for them yet.
    async fn raise_waiting(&self, user: Decider) {
        match self.core.approvals.pending_for(user).await {
            Ok(pending) => {
                for a in pending {
                    self.once(a.id, user);
                }
            }
            Err(e) => tracing::warn!(error = %e, "could not list pending approvals"),
        }
    }

    /// The desk is `user`'s now: every notification on screen goes (the last user's
    /// answer must not be taken as this one's) and is forgotten, so each comes back for
    /// whoever it is routed to; then `user`'s queue is raised.
    async fn hand_over(&self, user: Decider) {
        let tokens: Vec<CancellationToken> = {
            let mut guard = lock(&self.shown);
            let Shown { notified, open, .. } = &mut *guard;
            open.drain()
                .map(|(id, (_, token))| {
                    notified.remove(&id);
                    token
                })
                .collect()
        };
        for token in tokens {
            token.cancel();
        }
        self.raise_waiting(user).await;
    }

    /// One notification of approval `id` for `user`, unless one was raised already.
    fn once(&self, id: i32, user: Decider) {
        let withdraw = CancellationToken::new();
        let number = {
            let mut s = lock(&self.shown);
            // Never twice for one approval, whatever the bus replays.
            if !s.notified.insert(id) {
                return;
            }
            // Registered before the task starts, so a decision that lands while the
            // notification is being raised still closes it.
            s.next += 1;
            let number = s.next;
            s.open.insert(id, (number, withdraw.clone()));
            number
        };
        let (core, notifier, on_open, shown) = (
            self.core.clone(),
            Arc::clone(&self.notifier),
            Arc::clone(&self.on_open),
            Arc::clone(&self.shown),
        );
        tokio::spawn(async move {
            let outcome = notify_and_wait(&core, notifier.as_ref(), id, user, withdraw).await;
            {
                let mut s = lock(&shown);
                if s.open.get(&id).is_some_and(|(n, _)| *n == number) {
                    s.open.remove(&id);
                }
                if outcome.is_none() {
                    // Not this user's, or not shown: whoever it is for may still see it.
                    s.notified.remove(&id);
                }
            }
            match outcome {
                Some((NotificationOutcome::Approve, seen)) => {
                    let decided = decide(&core, id, Decision::Approve, seen, user).await;
                    if let Some(a) = decided {
                        follow_up(&core, notifier.as_ref(), &a).await;
                    }
                }
                Some((NotificationOutcome::Reject, seen)) => {
                    decide(&core, id, Decision::Reject, seen, user).await;
                }
                Some((NotificationOutcome::Open, _)) => on_open(Open::Approval(id)),
                Some((NotificationOutcome::Closed | NotificationOutcome::Withdrawn, _)) | None => {}
            }
        });
    }
}

async fn notify_and_wait<N: Notifier + ?Sized>(
    core: &AppCore,
    notifier: &N,
    id: i32,
    user: Decider,
    withdraw: CancellationToken,
) -> Option<(NotificationOutcome, String)> {
    let approval = match core.approvals.get(id).await {
        Ok(a) => a,
        Err(e) => {
            tracing::warn!(approval_id = id, error = %e, "no notification: approval not readable");
            return None;
        }
    };
    if approval.status != ApprovalStatus::Waiting || !user.sees(approval.approver_id) {
        return None;
    }
    let lang = core.mailbox.language().await.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "company language unknown; notifying in English");
        Language::En
    });
    let notice = ApprovalNotice::new(&approval, lang);
    match notifier.approval_requested(&notice, withdraw).await {
        Ok(outcome) => {
            tracing::debug!(approval_id = id, ?outcome, "approval notification done");
            Some((outcome, notice.args_hash))
        }
        Err(e) => {
            tracing::warn!(approval_id = id, error = %e, "approval notification not shown; the queue in the app still has it");
            None
        }
    }
}

/// The follow-up notification of an approval decided from one: done, or failed with why.
async fn follow_up<N: Notifier + ?Sized>(core: &AppCore, notifier: &N, a: &ApprovalDto) {
    let lang = core.mailbox.language().await.unwrap_or(Language::En);
    let Some(notice) = OutcomeNotice::new(a, lang) else {
        return;
    };
    if let Err(e) = notifier.outcome(&notice).await {
        tracing::info!(approval_id = a.id, error = %e, "no follow-up notification; the queue has the outcome");
    }
}

/// Decides `id` as the notification that showed `seen` (its seal) asked, in the name of
/// the desk's user it was shown to; the approval as decided, when this decided it.
async fn decide(
    core: &AppCore,
    id: i32,
    decision: Decision,
    seen: String,
    user: Decider,
) -> Option<ApprovalDto> {
    let input = DecideApproval {
        approval_id: id,
        decision,
        note: None,
        args_hash: seen,
    };
    match core
        .approvals
        .decide_as(input, DecidedVia::Notification, user)
        .await
    {
        Ok(a) => {
            tracing::info!(
                approval_id = id,
                status = %a.status.to_value(),
                "decided from a notification"
            );
            Some(a)
        }
        // Decided elsewhere first, expired, or changed since it was shown: nothing ran
        // on this click; the queue shows what happened.
        Err(e) => {
            tracing::info!(approval_id = id, error = %e, "notification decision not applied");
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tools::Risk;

    fn approval(tool: &str, reason: &str) -> ApprovalDto {
        ApprovalDto {
            id: 7,
            employee_id: 1,
            requester_name: "Olga".into(),
            tool: tool.into(),
            risk: Risk::High,
            args: serde_json::json!({}),
            args_hash: String::new(),
            summary: "post to https://hooks.example/x: Release 1.2 is out".into(),
            reason: reason.into(),
            cost_estimate_usd: 0.0,
            trace_id: None,
            chat_id: None,
            status: ApprovalStatus::Waiting,
            authorization_chain: vec![],
            decided_via: None,
            note: None,
            created_at: String::new(),
            expires_at: String::new(),
            decided_at: None,
            result: None,
            error: None,
            executed_at: None,
            run_started_at: None,
            approver_id: None,
            decided_by: None,
        }
    }

    #[test]
    fn the_follow_up_says_done_or_failed_with_why_in_the_companys_language() {
        let mut a = approval("post_webhook", "announce");
        assert_eq!(OutcomeNotice::new(&a, Language::En), None, "not run yet");
        a.status = ApprovalStatus::Approved;
        a.executed_at = Some("2026-01-01T00:00:00Z".into());
        let done = OutcomeNotice::new(&a, Language::En).unwrap();
        assert_eq!(done.title, "Done: Olga's request");
        assert!(!done.failed && done.body.contains("Release 1.2 is out"));
        a.error = Some("webhook: the server answered 500".into());
        let failed = OutcomeNotice::new(&a, Language::ZhCn).unwrap();
        assert_eq!(failed.title, "执行失败：Olga 的请求");
        assert!(
            failed.failed
                && failed
                    .body
                    .ends_with("执行失败：webhook: the server answered 500")
        );
        a.status = ApprovalStatus::Rejected;
        assert_eq!(OutcomeNotice::new(&a, Language::En), None);
    }

    #[test]
    fn every_tool_has_its_own_title_in_both_languages() {
        for tool in ToolName::ALL {
            for lang in [Language::En, Language::ZhCn] {
                let n = ApprovalNotice::new(&approval(&tool.to_string(), "why"), lang);
                let generic = ApprovalNotice::new(&approval("launch_rockets", "why"), lang);
                assert_ne!(n.title, generic.title, "{tool} in {lang:?}");
            }
        }
        let n = ApprovalNotice::new(&approval("commit_to_date", "why"), Language::ZhCn);
        assert_eq!(n.title, "Olga 想要承诺一个交付日期");
    }

    #[test]
    fn the_title_says_who_wants_what_and_the_body_says_exactly_what_and_why() {
        let n = ApprovalNotice::new(
            &approval("post_webhook", "announce the release"),
            Language::En,
        );
        assert_eq!(n.title, "Olga wants to post to a webhook");
        assert_eq!(
            n.body,
            "post to https://hooks.example/x: Release 1.2 is out\nReason: announce the release"
        );
        assert_eq!(
            (n.approve_label.as_str(), n.reject_label.as_str()),
            ("Approve", "Reject")
        );
    }

    #[test]
    fn model_text_cannot_reorder_or_hide_what_would_run() {
        let mut a = approval("run_shell", "tidy\u{7}up");
        // An override that would show "rm -rf ~" reversed, and a terminal escape.
        a.summary = "run `echo hi \u{202e}~ fr- mr\u{1b}[2J` in the company workspace".into();
        let n = ApprovalNotice::new(&a, Language::En);
        assert!(
            !n.body.contains('\u{202e}') && !n.body.contains('\u{1b}'),
            "{}",
            n.body
        );
        assert!(n.body.contains("echo hi ?~ fr- mr?[2J"), "{}", n.body);
        assert!(n.body.ends_with("Reason: tidy?up"), "{}", n.body);
        assert!(n.complete);
    }

    #[test]
    fn markup_is_escaped_for_servers_that_read_it() {
        assert_eq!(
            escape_markup("<b>x</b> & <a href=\"y\">"),
            "&lt;b&gt;x&lt;/b&gt; &amp; &lt;a href=\"y\"&gt;"
        );
    }

    #[test]
    fn a_long_action_is_capped_and_cannot_be_approved_from_the_notification() {
        let mut a = approval("run_cli", "why");
        a.summary = format!("run `cat` with input: {}", "x".repeat(10_000));
        let n = ApprovalNotice::new(&a, Language::En);
        assert!(n.body.chars().count() <= BODY_MAX_CHARS, "{}", n.body.len());
        assert!(
            n.body
                .ends_with("more characters: open the app to see all)"),
            "{}",
            n.body
        );
        assert!(!n.complete, "only what the boss could read is approvable");
        let n = ApprovalNotice::new(&a, Language::ZhCn);
        assert!(n.body.chars().count() <= BODY_MAX_CHARS);
        assert!(n.body.contains("请在应用中查看全部"), "{}", n.body);
    }

    #[test]
    fn a_chinese_company_gets_chinese_text_and_an_unknown_tool_a_generic_title() {
        let n = ApprovalNotice::new(&approval("post_webhook", "发布公告"), Language::ZhCn);
        assert_eq!(n.title, "Olga 想要向 Webhook 发送消息");
        assert!(n.body.ends_with("理由：发布公告"), "{}", n.body);
        assert_eq!(n.approve_label, "批准");
        let n = ApprovalNotice::new(&approval("teleport", ""), Language::En);
        assert_eq!(n.title, "Olga needs your approval");
        assert_eq!(
            n.body,
            "post to https://hooks.example/x: Release 1.2 is out"
        );
    }
}
