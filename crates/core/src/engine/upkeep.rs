//! The engine's upkeep wake-ups: a task escalating with age, approvals running out,
//! the evening digest and short-term memories expiring.

use chrono::TimeDelta;

use super::{Engine, Focus, WakeReason};
use crate::mailbox::{MailKind, NewMail};
use crate::work::urgency;

impl Engine {
    pub(super) async fn escalate(
        &self,
        employee_id: i32,
        task_id: i32,
    ) -> Result<(), cubicle_store::DbErr> {
        let Some(t) = cubicle_store::work::find_task(&self.core().db, task_id).await? else {
            return Ok(());
        };
        if t.owner_id != employee_id || t.status != crate::work::TaskStatus::Pending {
            return Ok(());
        }
        let now = self.now();
        if let Some(at) = urgency::next_escalation_of(&t, now) {
            self.schedule(at, employee_id, WakeReason::TaskEscalation { task_id });
        }
        // Critical (30 min and more): the boss hears of it once, in the mailbox.
        let level = urgency::urgency(now - t.created_at);
        let mailbox = &self.core().mailbox;
        if level == urgency::Urgency::Critical
            && !mailbox
                .filed_today(MailKind::Escalation, Some(task_id))
                .await?
        {
            let lang = mailbox.language().await?;
            let name = cubicle_store::org::find_employee(&self.core().db, employee_id)
                .await?
                .map(|e| e.name)
                .unwrap_or_default();
            mailbox
                .file(NewMail {
                    kind: MailKind::Escalation,
                    employee_id: Some(employee_id),
                    chat_id: None,
                    task_id: Some(task_id),
                    title: lang.pick(
                        format!("Overdue: {}", t.description),
                        format!("逾期：{}", t.description),
                    ),
                    body: lang.pick(
                        format!(
                            "{name}'s task \"{}\" has been pending for {} minutes.",
                            t.description,
                            (now - t.created_at).num_minutes()
                        ),
                        format!(
                            "{name}的任务“{}”已等待 {} 分钟。",
                            t.description,
                            (now - t.created_at).num_minutes()
                        ),
                    ),
                    trace_id: t.trace_id.clone(),
                })
                .await?;
        }
        self.think(employee_id, None, Focus::Escalation).await
    }

    /// Expires the approvals whose time is up (their requesters are told) and schedules
    /// the next expiry.
    pub(super) async fn expire_approvals(&self) -> Result<(), cubicle_store::DbErr> {
        let approvals = &self.core().approvals;
        if let Err(e) = approvals.expire_due(self.now()).await {
            tracing::warn!(error = %e, "approvals could not be expired");
        }
        self.schedule_approval_expiry().await
    }

    pub(super) async fn schedule_approval_expiry(&self) -> Result<(), cubicle_store::DbErr> {
        match self.core().approvals.next_expiry().await {
            Ok(Some(at)) => self.schedule(
                at.max(self.now()),
                crate::scheduler::COMPANY,
                WakeReason::ApprovalExpiry,
            ),
            Ok(None) => {}
            Err(crate::approvals::ApprovalError::Storage(e)) => return Err(e),
            Err(e) => tracing::warn!(error = %e, "next approval expiry unknown"),
        }
        Ok(())
    }

    /// Files today's digest (when the day had anything in it) and schedules tomorrow's.
    pub(super) async fn digest(&self) -> Result<(), cubicle_store::DbErr> {
        let now = self.now();
        self.schedule(
            crate::digest::next_digest_at(now),
            crate::scheduler::COMPANY,
            WakeReason::Digest,
        );
        let core = self.core();
        let spent = core.gateway.spent_today().await?;
        crate::digest::file_digest(&core.db, &core.mailbox, now, spent).await?;
        Ok(())
    }

    pub(super) async fn expire(&self, employee_id: i32) -> Result<(), cubicle_store::DbErr> {
        if let Some(at) = self.core().minds.expire(employee_id).await? {
            self.schedule(
                at.max(self.now() + TimeDelta::seconds(1)),
                employee_id,
                WakeReason::MemoryExpiry,
            );
        }
        Ok(())
    }
}
