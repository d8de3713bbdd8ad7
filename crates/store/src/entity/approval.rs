use sea_orm::entity::prelude::*;

use crate::enums::{ApprovalStatus, DecidedVia, Risk};

/// SPEC §8: one action that waits for (or had) the boss's decision.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "approval")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The requester.
    pub employee_id: i32,
    pub tool: String,
    /// The tool's arguments, normalised; what runs on approval.
    pub args: Json,
    /// The seal of the tool and the canonical JSON of `args` (hex HMAC-SHA256 under the
    /// company's approval key): the approval is bound to it.
    pub args_hash: String,
    #[sea_orm(column_type = "Text")]
    pub reason: String,
    pub risk: Risk,
    pub trace_id: Option<String>,
    pub chat_id: Option<i32>,
    pub status: ApprovalStatus,
    pub created_at: DateTimeUtc,
    pub expires_at: DateTimeUtc,
    pub decided_at: Option<DateTimeUtc>,
    pub decided_via: Option<DecidedVia>,
    #[sea_orm(column_type = "Text", nullable)]
    pub note: Option<String>,
    /// JSON array of links `{who, employeeId, role, rule, weight}`.
    pub authorization_chain: Json,
    pub result: Option<Json>,
    #[sea_orm(column_type = "Text", nullable)]
    pub error: Option<String>,
    pub executed_at: Option<DateTimeUtc>,
    /// When its run began (claimed by whoever runs it). Approved without it: queued for
    /// the company server's engine (decided on a desktop attached to the server).
    #[serde(default)]
    pub run_started_at: Option<DateTimeUtc>,
    /// The person it is routed to (who answers for the requester); `None`: the boss.
    #[serde(default)]
    pub approver_id: Option<i32>,
    /// The person who decided it; `None` when the boss or a policy did.
    #[serde(default)]
    pub decided_by: Option<i32>,
    /// The decision sealed with the company's approval key (hex HMAC-SHA256 over the
    /// action, whom it went to, until when, and the decision), written with the decision
    /// by a process that holds the key. `None`: decided without the key (a desktop
    /// attached to a company server), or not decided.
    #[serde(default)]
    pub decision_seal: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
