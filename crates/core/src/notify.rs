//! Desktop notifications for approvals (SPEC §8): each new approval raises one
//! notification with **Approve** and **Reject** buttons where the platform offers
//! actions; a button decides it through the same [`Approvals::decide`] as the queue
//! (`decided_via = notification`), a click on the body opens the app on that item.
//!
//! The in-app queue stays the source of truth: a missing notification daemon, a closed
//! notification or a lagging event bus lose nothing but the popup. The [`Notifier`] trait
//! is the only side effect here, so tests use the real D-Bus path ([`DesktopNotifier`]
//! against a test server) or a double; the listener never touches D-Bus itself.
//!
//! [`Approvals::decide`]: crate::approvals::Approvals::decide

mod desktop;

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex};

use async_trait::async_trait;
use tokio::sync::broadcast::error::RecvError;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;

use crate::AppCore;
use crate::approvals::{ApprovalDto, ApprovalFilter, ApprovalStatus, DecidedVia, Decision};
use crate::events::DomainEvent;

pub use desktop::DesktopNotifier;

/// The name the notification server shows as the sender.
pub const APP_NAME: &str = "Cubicle";
/// The freedesktop category hint: servers group and theme by it.
pub const CATEGORY: &str = "im.received";
/// Action keys on the wire (`default` is the freedesktop key for a click on the body).
pub const ACTION_APPROVE: &str = "approve";
pub const ACTION_REJECT: &str = "reject";
pub const ACTION_OPEN: &str = "default";

/// What one approval's notification says, in the company's language.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApprovalNotice {
    pub approval_id: i32,
    /// "Olga wants to post to a webhook".
    pub title: String,
    /// The one-line summary of exactly what would happen, then the requester's reason.
    pub body: String,
    pub approve_label: String,
    pub reject_label: String,
    pub open_label: String,
}

impl ApprovalNotice {
    pub fn new(a: &ApprovalDto, zh: bool) -> Self {
        let who = a.requester_name.trim();
        let title = match (tool_phrase(&a.tool, zh), zh) {
            (Some(what), false) => format!("{who} wants to {what}"),
            (Some(what), true) => format!("{who} 想要{what}"),
            (None, false) => format!("{who} needs your approval"),
            (None, true) => format!("{who} 请求你的批准"),
        };
        let reason = a.reason.trim();
        let body = match (reason.is_empty(), zh) {
            (true, _) => a.summary.clone(),
            (false, false) => format!("{}\nReason: {reason}", a.summary),
            (false, true) => format!("{}\n理由：{reason}", a.summary),
        };
        let (approve, reject, open) = if zh {
            ("批准", "拒绝", "打开")
        } else {
            ("Approve", "Reject", "Open")
        };
        Self {
            approval_id: a.id,
            title,
            body,
            approve_label: approve.to_owned(),
            reject_label: reject.to_owned(),
            open_label: open.to_owned(),
        }
    }
}

/// A short verb phrase per tool for the title; the body carries the exact details.
fn tool_phrase(tool: &str, zh: bool) -> Option<&'static str> {
    let (en, cn) = match tool {
        "post_webhook" => ("post to a webhook", "向 Webhook 发送消息"),
        "run_shell" => ("run a shell command", "运行一条 Shell 命令"),
        "run_cli" => ("run a command-line tool", "运行一个命令行工具"),
        "write_file" => ("write a file", "写入一个文件"),
        "delete_file" => ("delete a file", "删除一个文件"),
        "raise_budget" => ("raise the budget", "提高预算"),
        "hire" => ("hire someone", "招聘新员工"),
        "fire" => ("let someone go", "解雇一名员工"),
        "read_file" => ("read a file", "读取一个文件"),
        "read_memory" => ("read the company's memory", "读取公司记忆"),
        _ => return None,
    };
    Some(if zh { cn } else { en })
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
}

/// Notifications still on screen, by approval id, and every id ever notified.
#[derive(Default)]
struct Shown {
    notified: HashSet<i32>,
    open: HashMap<i32, CancellationToken>,
}

/// Raises one notification per new approval for as long as the bus lives, and turns the
/// boss's answer into a decision. Subscribes before returning, so no approval requested
/// after this call is missed. `on_open(id)` runs on a click on the body.
pub fn spawn_approval_notifier<N, F>(core: AppCore, notifier: Arc<N>, on_open: F) -> JoinHandle<()>
where
    N: Notifier + ?Sized,
    F: Fn(i32) + Send + Sync + 'static,
{
    let mut rx = core.bus.subscribe();
    let on_open: Arc<dyn Fn(i32) + Send + Sync> = Arc::new(on_open);
    let shown = Arc::new(Mutex::new(Shown::default()));
    tokio::spawn(async move {
        loop {
            match rx.recv().await {
                Ok(DomainEvent::ApprovalRequested { approval_id }) => {
                    notify_once(&core, &notifier, &on_open, &shown, approval_id);
                }
                Ok(DomainEvent::ApprovalDecided { approval_id }) => {
                    let token = lock(&shown).open.remove(&approval_id);
                    if let Some(token) = token {
                        token.cancel();
                    }
                }
                Ok(_) => {}
                Err(RecvError::Lagged(missed)) => {
                    tracing::warn!(
                        missed,
                        "approval notifier lagged; catching up from the queue"
                    );
                    match core.approvals.list(ApprovalFilter::Pending).await {
                        Ok(pending) => {
                            for a in pending {
                                notify_once(&core, &notifier, &on_open, &shown, a.id);
                            }
                        }
                        Err(e) => tracing::warn!(error = %e, "could not list pending approvals"),
                    }
                }
                Err(RecvError::Closed) => break,
            }
        }
        // The company is closing: take down what is still on screen.
        for (_, token) in lock(&shown).open.drain() {
            token.cancel();
        }
    })
}

fn lock(shown: &Mutex<Shown>) -> std::sync::MutexGuard<'_, Shown> {
    shown
        .lock()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
}

fn notify_once<N: Notifier + ?Sized>(
    core: &AppCore,
    notifier: &Arc<N>,
    on_open: &Arc<dyn Fn(i32) + Send + Sync>,
    shown: &Arc<Mutex<Shown>>,
    id: i32,
) {
    let withdraw = CancellationToken::new();
    {
        let mut s = lock(shown);
        // Never twice for one approval, whatever the bus replays.
        if !s.notified.insert(id) {
            return;
        }
        // Registered before the task starts, so a decision that lands while the
        // notification is being raised still closes it.
        s.open.insert(id, withdraw.clone());
    }
    let (core, notifier, on_open, shown) = (
        core.clone(),
        Arc::clone(notifier),
        Arc::clone(on_open),
        Arc::clone(shown),
    );
    tokio::spawn(async move {
        let outcome = notify_and_wait(&core, notifier.as_ref(), id, withdraw).await;
        lock(&shown).open.remove(&id);
        match outcome {
            Some(NotificationOutcome::Approve) => decide(&core, id, Decision::Approve).await,
            Some(NotificationOutcome::Reject) => decide(&core, id, Decision::Reject).await,
            Some(NotificationOutcome::Open) => on_open(id),
            Some(NotificationOutcome::Closed | NotificationOutcome::Withdrawn) | None => {}
        }
    });
}

async fn notify_and_wait<N: Notifier + ?Sized>(
    core: &AppCore,
    notifier: &N,
    id: i32,
    withdraw: CancellationToken,
) -> Option<NotificationOutcome> {
    let approval = match core.approvals.get(id).await {
        Ok(a) => a,
        Err(e) => {
            tracing::warn!(approval_id = id, error = %e, "no notification: approval not readable");
            return None;
        }
    };
    if approval.status != ApprovalStatus::Waiting {
        return None;
    }
    let zh = core.mailbox.chinese().await.unwrap_or_else(|e| {
        tracing::warn!(error = %e, "company language unknown; notifying in English");
        false
    });
    let notice = ApprovalNotice::new(&approval, zh);
    match notifier.approval_requested(&notice, withdraw).await {
        Ok(outcome) => {
            tracing::debug!(approval_id = id, ?outcome, "approval notification done");
            Some(outcome)
        }
        Err(e) => {
            tracing::warn!(approval_id = id, error = %e, "approval notification not shown; the queue in the app still has it");
            None
        }
    }
}

async fn decide(core: &AppCore, id: i32, decision: Decision) {
    match core
        .approvals
        .decide(id, decision, DecidedVia::Notification, None)
        .await
    {
        Ok(a) => tracing::info!(
            approval_id = id,
            status = a.status.as_str(),
            "decided from a notification"
        ),
        // Decided elsewhere first or expired: the queue shows what happened.
        Err(e) => tracing::info!(approval_id = id, error = %e, "notification decision not applied"),
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
        }
    }

    #[test]
    fn the_title_says_who_wants_what_and_the_body_says_exactly_what_and_why() {
        let n = ApprovalNotice::new(&approval("post_webhook", "announce the release"), false);
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
    fn a_chinese_company_gets_chinese_text_and_an_unknown_tool_a_generic_title() {
        let n = ApprovalNotice::new(&approval("post_webhook", "发布公告"), true);
        assert_eq!(n.title, "Olga 想要向 Webhook 发送消息");
        assert!(n.body.ends_with("理由：发布公告"), "{}", n.body);
        assert_eq!(n.approve_label, "批准");
        let n = ApprovalNotice::new(&approval("teleport", ""), false);
        assert_eq!(n.title, "Olga needs your approval");
        assert_eq!(
            n.body,
            "post to https://hooks.example/x: Release 1.2 is out"
        );
    }
}
