//! Expiry (SPEC §8): an approval nobody answers in time expires, and its requester is
//! told that nothing was done.

use chrono::{DateTime, Utc};
use cubicle_store::entity::approval;
use cubicle_store::{DbErr, approval as q};

use super::{ApprovalDto, ApprovalError, ApprovalStatus, Approvals, DecidedVia, policy};
use crate::events::DomainEvent;
use crate::tools;
use crate::types::Language;
use crate::types::link::Link;

impl Approvals {
    /// Expires every waiting approval whose time is up at `now`; each requester is told
    /// (a note in its chat with the boss and a mailbox item). Returns the expired ones.
    pub async fn expire_due(&self, now: DateTime<Utc>) -> Result<Vec<ApprovalDto>, ApprovalError> {
        let mut out = Vec::new();
        for row in q::due_approvals(&self.db, now).await? {
            if self.expire_one(&row, now).await? {
                out.push(self.dto(&self.reload(row.id).await?).await?);
            }
        }
        Ok(out)
    }

    /// When the next waiting approval expires (for the scheduler's wake-up).
    pub async fn next_expiry(&self) -> Result<Option<DateTime<Utc>>, ApprovalError> {
        Ok(q::next_expiry(&self.db).await?)
    }

    /// Marks one waiting approval expired (if nobody decided it first) and tells the
    /// requester. True when this call expired it.
    pub(super) async fn expire_one(
        &self,
        row: &approval::Model,
        now: DateTime<Utc>,
    ) -> Result<bool, DbErr> {
        let mut chain: Vec<Link> =
            serde_json::from_value(row.authorization_chain.clone()).unwrap_or_default();
        let hours = self.ttl.num_minutes() as f64 / 60.0;
        chain.push(policy::decided(
            "policy",
            format!("expired: unanswered for {hours} h"),
        ));
        let claimed = q::claim_decision(
            &self.db,
            row.id,
            q::Claim {
                status: ApprovalStatus::Expired,
                decided_at: now,
                decided_via: DecidedVia::Policy,
                note: None,
                authorization_chain: serde_json::to_value(&chain).unwrap_or_default(),
                unexpired_at: None,
                run_started_at: None,
                decided_by: None,
                // Nothing ever runs from an expired approval.
                decision_seal: None,
            },
        )
        .await?;
        if !claimed {
            return Ok(false);
        }
        tracing::info!(approval_id = row.id, "approval expired");
        self.bus.publish(DomainEvent::ApprovalDecided {
            approval_id: row.id,
        });
        self.settle_requester(row.employee_id).await?;
        let lang = self.mailbox.language().await?;
        let summary = tools::describe_short(&row.tool, &row.args, lang);
        let (text, title, body) = match lang {
            Language::En => {
                let text = format!(
                    "Your request to {summary} expired without an answer from the boss; nothing was done."
                );
                let body = format!("{text}\nReason given: {}", row.reason);
                (text, format!("Approval expired: {}", row.tool), body)
            }
            Language::ZhCn => {
                let text = format!("你的请求（{summary}）在老板答复前已过期，什么都没有执行。");
                let body = format!("{text}\n请求理由：{}", row.reason);
                (text, format!("审批已过期：{}", row.tool), body)
            }
        };
        self.tell_requester(row, &text).await;
        self.escalate(row, title, body).await;
        Ok(true)
    }
}
