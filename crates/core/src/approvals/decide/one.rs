//! One decision: checked, claimed in one conditional update, then followed up — the
//! approved action run (or queued for the server's engine) by whoever won the claim,
//! and a decider who lost it told how the approval stands.

use chrono::{DateTime, Utc};
use sea_orm::ActiveEnum;

use super::ready::Ready;
use super::{DecideApproval, Decider, Decision};
use crate::approvals::{ApprovalDto, ApprovalError, ApprovalStatus, Approvals, DecidedVia};
use crate::events::DomainEvent;

impl Approvals {
    /// The boss (or a policy) decides. The first decision wins and, when it approves,
    /// runs the action once; deciding again the same way returns the approval
    /// unchanged, the other way is [`ApprovalError::AlreadyDecided`]; an expired
    /// approval is [`ApprovalError::Expired`]. A failing action is recorded in the
    /// approval's `error`, not returned as an error: the decision itself stood.
    pub async fn decide(
        &self,
        input: DecideApproval,
        via: DecidedVia,
    ) -> Result<ApprovalDto, ApprovalError> {
        self.decide_as(input, via, Decider::Boss).await
    }

    /// [`Approvals::decide`] by `decider`: a person decides only an approval routed to
    /// them ([`ApprovalError::NotYours`] otherwise, checked again in the very update that
    /// claims the decision), and the chain names them as the human who decided.
    pub async fn decide_as(
        &self,
        input: DecideApproval,
        via: DecidedVia,
        decider: Decider,
    ) -> Result<ApprovalDto, ApprovalError> {
        let ready = self.ready(input, via, decider).await?;
        let claimed = self.claim(&self.db, &ready).await?;
        self.follow_up(&ready, claimed).await
    }

    /// What follows a claim once it is written: for the decider who won it, the approved
    /// action runs (or is queued for the server's engine) and the requester is told; one
    /// who lost it hears how the approval stands now.
    pub(super) async fn follow_up(
        &self,
        ready: &Ready,
        claimed: bool,
    ) -> Result<ApprovalDto, ApprovalError> {
        let (id, decision, via) = (ready.row.id, ready.decision, ready.via);
        if !claimed {
            return self
                .settled_elsewhere(id, decision, ready.decided_by.is_some(), ready.now)
                .await;
        }
        let verb = decision.status().to_value();
        tracing::info!(
            approval_id = id,
            decision = %verb,
            via = %via.to_value(),
            "approval decided"
        );
        self.bus
            .publish(DomainEvent::ApprovalDecided { approval_id: id });
        let row = self.reload(id).await?;
        if decision == Decision::Approve && !self.run_here {
            // Queued: the server's engine runs it and tells the requester how it went.
            self.settle_requester(row.employee_id).await?;
            return self.dto(&row).await;
        }
        self.conclude(&row, decision, via).await?;
        self.dto(&self.reload(id).await?).await
    }

    /// What a decider who lost the claim on approval `id` is told: how it stands now.
    async fn settled_elsewhere(
        &self,
        id: i32,
        decision: Decision,
        by_a_person: bool,
        now: DateTime<Utc>,
    ) -> Result<ApprovalDto, ApprovalError> {
        let row = self.reload(id).await?;
        match row.status {
            // Routed elsewhere between our read and our write.
            ApprovalStatus::Waiting if row.expires_at > now && by_a_person => {
                Err(self.not_yours(&row).await)
            }
            s if s == decision.status() => self.dto(&row).await,
            ApprovalStatus::Expired => Err(ApprovalError::Expired(id)),
            // Still waiting means it expired between our read and our write.
            ApprovalStatus::Waiting => Err(ApprovalError::Expired(id)),
            s => Err(ApprovalError::AlreadyDecided { id, status: s }),
        }
    }
}
