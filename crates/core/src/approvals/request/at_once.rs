//! What runs without waiting for anyone: a call the policy lets through runs at once;
//! a high-risk one still gets an approval row, decided by the policy in the transaction
//! it is filed in, so the boss can see afterwards what ran unasked.

use cubicle_store::{approval as q, effect};

use super::file::Filing;
use super::{Asked, CallOutcome, NewApproval};
use crate::approvals::{
    ApprovalStatus, Approvals, DecidedVia, DecisionRecord, LogEntry, Outcome, policy,
};
use crate::events::DomainEvent;
use crate::tools::{self, Risk, ToolContext, ToolError};

impl Approvals {
    /// A call the policy lets through that is not high-risk runs at once, and is logged
    /// with its result.
    pub(super) async fn run_unasked(
        &self,
        asked: &Asked<'_>,
        args: serde_json::Value,
        risk: Risk,
    ) -> Result<CallOutcome, ToolError> {
        // At most once: the key is taken before the tool runs, since whether a tool
        // that was interrupted ran is unknown.
        if let Some(key) = asked.key
            && !effect::claim(&self.db, key, self.clock.now()).await?
        {
            return Ok(CallOutcome::Refused("already asked".into()));
        }
        let cx = ToolContext {
            runtime: &self.runtime,
            employee: asked.employee,
        };
        let result = tools::execute(&cx, &asked.call.tool, args.clone()).await;
        let (outcome, output) = match &result {
            Ok(v) => (Outcome::Ok, Some(v.to_string())),
            Err(err) => (Outcome::Error, Some(err.to_string())),
        };
        self.log(LogEntry {
            employee_id: asked.employee.id,
            tool: &asked.call.tool,
            args: &args,
            risk: Some(risk),
            outcome,
            output,
            approval_id: None,
            trace_id: asked.trace_id,
        })
        .await?;
        result.map(CallOutcome::Done)
    }

    /// A high-risk call the policy lets through still gets an approval row, decided by
    /// the policy, so the boss can see afterwards what ran unasked; then it runs.
    pub(super) async fn approve_by_policy(
        &self,
        mut new: NewApproval<'_>,
        rule: String,
    ) -> Result<CallOutcome, ToolError> {
        new.chain.push(policy::decided("policy", rule));
        // Sealed before the transaction: finding the key may write the company row,
        // which would wait on this very transaction's lock.
        let seal = self.seal.seal(&new.asked.call.tool, new.args).await?;
        let Some(Filing { txn, row, now }) = self.begin_filing(new, seal).await? else {
            return Ok(CallOutcome::Refused("already asked".into()));
        };
        // Decided in the same transaction it is filed in: nobody ever sees it waiting (a
        // boss could otherwise decide a call the policy had already let through), and a
        // stop in between cannot leave it waiting with its key spent. Sealed as the row
        // reads back (the key is already at hand, so nothing else is written meanwhile).
        let filed = q::find_approval(&txn, row.id).await?.unwrap_or(row);
        let decided = DecisionRecord::deciding(
            &filed,
            ApprovalStatus::Approved,
            None,
            Some(DecidedVia::Policy),
        );
        let decision_seal = Some(self.seal.seal_decision(&decided).await?);
        let claimed = q::claim_decision(
            &txn,
            filed.id,
            q::Claim {
                status: ApprovalStatus::Approved,
                decided_at: now,
                decided_via: DecidedVia::Policy,
                note: None,
                authorization_chain: filed.authorization_chain.clone(),
                unexpired_at: None,
                run_started_at: Some(now),
                decided_by: None,
                decision_seal,
            },
        )
        .await?;
        if !claimed {
            return Ok(CallOutcome::Refused("the approval was taken".into()));
        }
        txn.commit().await?;
        self.bus.publish(DomainEvent::ApprovalDecided {
            approval_id: filed.id,
        });
        let row = q::find_approval(&self.db, filed.id).await?.unwrap_or(filed);
        match self.execute(&row).await? {
            Ok(v) => Ok(CallOutcome::Done(v)),
            Err(err) => Err(err),
        }
    }
}
