//! Several decisions at once (the queue's "approve selected"): each checked as one is,
//! every claim written in one transaction, then each followed up as one is.

use cubicle_store::BeginWrite as _;

use super::ready::Ready;
use super::{DecideApprovals, Decider, DecisionResult};
use crate::approvals::{ApprovalDto, ApprovalError, Approvals, DecidedVia};

impl Approvals {
    /// Decides `batch` as [`Approvals::decide`] decides one, with every claim in one
    /// transaction: the decisions that hold are made together or, on a storage error,
    /// none is. One refused (changed since it was shown, not the decider's, gone) or
    /// settled elsewhere (decided first by someone else, expired) is reported as such and
    /// stops nothing else. The approved actions run after the commit, each once, in the
    /// batch's order.
    pub async fn decide_all(
        &self,
        batch: DecideApprovals,
        via: DecidedVia,
    ) -> Result<Vec<DecisionResult>, ApprovalError> {
        self.decide_all_as(batch, via, Decider::Boss).await
    }

    /// [`Approvals::decide_all`] in `decider`'s name: each is checked as
    /// [`Approvals::decide_as`] checks one.
    pub async fn decide_all_as(
        &self,
        batch: DecideApprovals,
        via: DecidedVia,
        decider: Decider,
    ) -> Result<Vec<DecisionResult>, ApprovalError> {
        let mut checked = Vec::with_capacity(batch.decisions.len());
        for input in batch.decisions {
            let id = input.approval_id;
            match self.ready(input, via, decider).await {
                Err(ApprovalError::Storage(e)) => return Err(ApprovalError::Storage(e)),
                ready => checked.push((id, ready)),
            }
        }
        let claims = self.claim_together(&checked).await?;
        // Committed: each claim won owns its action's run, so every one of them is run
        // (or queued) even when an earlier one's follow-up fails to record.
        let mut out = Vec::with_capacity(checked.len());
        let mut failure = None;
        for ((id, ready), claimed) in checked.into_iter().zip(claims) {
            let outcome = match ready {
                Ok(ready) => self.follow_up(&ready, claimed).await,
                Err(e) => Err(e),
            };
            match self.result_of(id, outcome).await {
                Ok(result) => out.push(result),
                Err(e) => {
                    failure.get_or_insert(e);
                }
            }
        }
        match failure {
            Some(e) => Err(e),
            None => Ok(out),
        }
    }

    /// Claims every decision of a batch that passed its checks in one transaction; says
    /// for each whether its claim won. The rows are claimed in the order of their ids, so
    /// two batches naming the same approvals in other orders wait for each other on
    /// PostgreSQL instead of deadlocking.
    async fn claim_together(
        &self,
        checked: &[(i32, Result<Ready, ApprovalError>)],
    ) -> Result<Vec<bool>, ApprovalError> {
        let mut order: Vec<usize> = (0..checked.len()).collect();
        order.sort_by_key(|&i| checked[i].0);
        let mut claims = vec![false; checked.len()];
        let txn = self.db.begin_write().await?;
        for i in order {
            if let (_, Ok(ready)) = &checked[i] {
                claims[i] = self.claim(&txn, ready).await?;
            }
        }
        txn.commit().await?;
        Ok(claims)
    }

    /// What one decision of a batch came to, as the batch reports it; a storage error
    /// is the batch's.
    async fn result_of(
        &self,
        id: i32,
        outcome: Result<ApprovalDto, ApprovalError>,
    ) -> Result<DecisionResult, ApprovalError> {
        Ok(match outcome {
            Ok(approval) => DecisionResult::Decided { approval },
            Err(ApprovalError::AlreadyDecided { .. } | ApprovalError::Expired(_)) => {
                DecisionResult::SettledElsewhere {
                    approval: self.get(id).await?,
                }
            }
            Err(ApprovalError::Storage(e)) => return Err(ApprovalError::Storage(e)),
            Err(e) => DecisionResult::Failed {
                approval_id: id,
                error: e.into(),
            },
        })
    }
}
