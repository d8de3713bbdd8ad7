//! Crash safety (SPEC §10). A call asked by a pending thought is logged or filed once
//! under its key ([`Approvals::log_keyed`]). And after a kill: an approved action whose
//! run began (claimed with the decision, or from the queue) but never recorded an end.
//! Whether a side effect (a webhook POST, a shell command) happened is unknown, so it is
//! never run again automatically: it keeps its status, gets a note saying why it did not
//! run, and the boss hears of it in the mailbox. (An approved action whose run never
//! began is queued, not interrupted: [`Approvals::run_queued`] runs it.)

use cubicle_store::BeginWrite as _;
use cubicle_store::{DbErr, approval as q};

use super::{ApprovalError, Approvals, LogEntry};
use crate::mailbox::{MailKind, NewMail};
use crate::tools;
use crate::types::Language;

/// The note an interrupted approval carries in its `error`.
pub const INTERRUPTED: &str =
    "interrupted: the app stopped before this ran; not retried because it may have partly run";

impl Approvals {
    /// Marks every approved action whose run began and never ended as interrupted, tells its
    /// requester and files a mailbox item for the boss. Call it when the engine starts,
    /// before anything runs. Returns the ids marked.
    pub async fn flag_interrupted(&self) -> Result<Vec<i32>, ApprovalError> {
        let mut marked = Vec::new();
        for row in q::interrupted_runs(&self.db).await? {
            if !q::mark_interrupted(&self.db, row.id, INTERRUPTED).await? {
                continue;
            }
            tracing::warn!(approval_id = row.id, tool = %row.tool, "approved action was interrupted");
            marked.push(row.id);
            self.bus
                .publish(crate::events::DomainEvent::ApprovalDecided {
                    approval_id: row.id,
                });
            let lang = self.mailbox.language().await?;
            let summary = tools::describe_short(&row.tool, &row.args, lang);
            let (title, body, note) = match lang {
                Language::ZhCn => (
                    format!("未执行：{}", row.tool),
                    format!(
                        "已批准的请求 #{}（{summary}）在执行前应用停止了，可能执行了一部分。为免重复，它不会自动重试：请确认结果后再决定是否重新发起。",
                        row.id
                    ),
                    format!("你的请求（{summary}）已获批准，但应用在执行前停止了；它没有被重试。"),
                ),
                Language::En => (
                    format!("Did not run: {}", row.tool),
                    format!(
                        "Approval #{} ({summary}) was approved, but the app stopped before it ran, possibly part-way through. It is not retried automatically so it cannot happen twice: check what happened, then ask again if it is still needed.",
                        row.id
                    ),
                    format!(
                        "Your request to {summary} was approved, but the app stopped before it ran; it was not retried."
                    ),
                ),
            };
            self.mailbox
                .file(NewMail {
                    kind: MailKind::Escalation,
                    employee_id: Some(row.employee_id),
                    chat_id: row.chat_id,
                    task_id: None,
                    title,
                    body,
                    trace_id: row.trace_id.clone(),
                })
                .await?;
            self.tell_requester(&row, &note).await;
        }
        // A kill between a decision and settling its requester leaves someone
        // "waiting for approval" with nothing waiting.
        if let Some(company) = cubicle_store::org::find_company(&self.db).await? {
            for e in cubicle_store::org::list_employees(&self.db, company.id, false).await? {
                if e.status == crate::types::EmployeeStatus::WaitingApproval {
                    self.settle_requester(e.id).await?;
                }
            }
        }
        Ok(marked)
    }

    /// Logs a call; under a pending thought's `key` only once (the key and the row are
    /// one transaction).
    pub(super) async fn log_keyed(
        &self,
        entry: LogEntry<'_>,
        key: Option<&str>,
    ) -> Result<(), DbErr> {
        let Some(key) = key else {
            return self.log(entry).await.map(drop);
        };
        let now = self.clock.now();
        let txn = self.db.begin_write().await?;
        if cubicle_store::effect::claim(&txn, key, now).await? {
            let row = q::insert_tool_call(&txn, Self::log_row(entry, now)).await?;
            cubicle_store::effect::set_row(&txn, key, row.id).await?;
            txn.commit().await?;
        }
        Ok(())
    }
}
