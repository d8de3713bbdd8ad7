//! Deciding (SPEC §8): what the boss's UI, a notification's buttons, the CLI or a policy
//! call — never anything a model writes. A decision holds only for what its decider was
//! shown, and the first decision wins.
//!
//! The use case's parts: what its callers send and get back (here), the checks every
//! decision passes and the claim it writes (`ready`), deciding one (`one`) and deciding
//! a batch with its claims in one transaction (`batch`).

mod batch;
mod one;
mod ready;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{ApprovalDto, ApprovalStatus};
use crate::error::IpcError;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Decision {
    Approve,
    Reject,
}

impl Decision {
    /// The status a decision leaves an approval in: the one place that maps them.
    pub fn status(self) -> ApprovalStatus {
        match self {
            Decision::Approve => ApprovalStatus::Approved,
            Decision::Reject => ApprovalStatus::Rejected,
        }
    }
}

/// Who decides an approval: the boss decides any, a person only those routed to them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", tag = "kind")]
pub enum Decider {
    Boss,
    #[serde(rename_all = "camelCase")]
    Person {
        person_id: i32,
    },
}

impl Decider {
    /// The person `person_id`, or the boss when there is none.
    pub fn of(person_id: Option<i32>) -> Self {
        match person_id {
            Some(person_id) => Decider::Person { person_id },
            None => Decider::Boss,
        }
    }

    /// Whether an approval routed to `approver_id` is in this decider's queue (the boss's
    /// queue holds every one).
    pub fn sees(self, approver_id: Option<i32>) -> bool {
        match self {
            Decider::Boss => true,
            Decider::Person { person_id } => approver_id == Some(person_id),
        }
    }
}

/// What the approval queue, a notification button or the CLI sends (`via` is set by
/// whichever of them calls [`Approvals::decide`], never by the sender).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DecideApproval {
    pub approval_id: i32,
    pub decision: Decision,
    pub note: Option<String>,
    /// The `argsHash` of the approval as the deciding screen showed it. An approval
    /// whose action changed since is refused ([`ApprovalError::NotWhatWasShown`]).
    pub args_hash: String,
}

/// Several decisions at once (the queue's "approve selected"), each bound to the seal
/// its card showed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DecideApprovals {
    pub decisions: Vec<DecideApproval>,
}

/// What came of one decision of a batch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum DecisionResult {
    /// Decided as asked (a failing action still counts: its error is in the approval).
    Decided { approval: ApprovalDto },
    /// Someone else decided it first, or it expired: how it stands now.
    SettledElsewhere { approval: ApprovalDto },
    /// Refused (changed since it was shown, gone, …): nothing was decided.
    Failed { approval_id: i32, error: IpcError },
}
