//! What the approval queue, notifications and the CLI see and send: statuses,
//! decisions and where they came from, the DTOs, errors and configuration.

use std::time::Duration;

use cubicle_store::DbErr;
use cubicle_store::entity::{approval, tool_call};
use sea_orm::ActiveEnum;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{DEFAULT_APPROVAL_TTL, SealError};
use crate::chat::rfc3339;
use crate::error::{ErrorCode, IpcError};
use crate::tools::{self, Risk};
use crate::types::Language;
use crate::types::link::Link;

pub use cubicle_store::enums::{ApprovalStatus, CallLogOutcome, DecidedVia};

/// One approval as the queue, the notification and the trace view show it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ApprovalDto {
    pub id: i32,
    pub employee_id: i32,
    pub requester_name: String,
    pub tool: String,
    pub risk: Risk,
    #[ts(type = "unknown")]
    pub args: serde_json::Value,
    /// The seal of the tool and its canonical arguments (HMAC-SHA256 under the company's
    /// approval key): what a decision sends back to say what it saw.
    pub args_hash: String,
    /// One line: what exactly would happen (command and folder, URL and text, …).
    pub summary: String,
    pub reason: String,
    /// USD this would commit (a budget raise); 0 for everything else.
    pub cost_estimate_usd: f64,
    pub trace_id: Option<String>,
    pub chat_id: Option<i32>,
    pub status: ApprovalStatus,
    pub authorization_chain: Vec<Link>,
    pub decided_via: Option<DecidedVia>,
    pub note: Option<String>,
    pub created_at: String,
    pub expires_at: String,
    pub decided_at: Option<String>,
    #[ts(type = "unknown")]
    pub result: Option<serde_json::Value>,
    pub error: Option<String>,
    pub executed_at: Option<String>,
    /// When its run began; approved without it, the action waits for the company
    /// server's engine (decided on an attached desktop).
    pub run_started_at: Option<String>,
    /// The person it is routed to (who answers for the requester); `null`: the boss.
    pub approver_id: Option<i32>,
    /// The person who decided it; `null` when the boss or a policy did.
    pub decided_by: Option<i32>,
}

/// The boss's webhook allowlist as Settings edits it: hosts (`hooks.slack.com`),
/// `host:port`, or pasted webhook URLs, of which only the host is kept.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WebhookDestinations {
    pub hosts: Vec<String>,
}

/// Which approvals to list.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ApprovalFilter {
    /// The queue: waiting ones, oldest first.
    Pending,
    /// Decided ones (or only `status`), newest first.
    History {
        status: Option<ApprovalStatus>,
        employee_id: Option<i32>,
    },
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ToolCallDto {
    pub id: i32,
    pub employee_id: i32,
    pub tool: String,
    #[ts(type = "unknown")]
    pub args: serde_json::Value,
    pub risk: Risk,
    pub outcome: CallLogOutcome,
    pub output: Option<String>,
    pub approval_id: Option<i32>,
    pub trace_id: Option<String>,
    pub created_at: String,
}

/// Why an approved action was not run: its approval is not one this engine can stand
/// behind. Nothing ran; the row and the tool-call log say why, and the boss is told.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NotRun {
    /// Marked approved without a decision sealed by Cubicle (or with a seal that no longer
    /// matches the row): its status was set, or the row copied, outside the app.
    #[error("approved without a sealed decision (changed outside Cubicle); not run")]
    Unsealed,
    /// Its run had not begun when the approval expired.
    #[error("approved, but its run had not begun when the approval expired; not run")]
    Late,
}

#[derive(Debug, thiserror::Error)]
pub enum ApprovalError {
    #[error("approval {0} does not exist")]
    NotFound(i32),
    #[error("approval {id} was already {}", status.to_value())]
    AlreadyDecided { id: i32, status: ApprovalStatus },
    #[error("approval {0} expired; it can no longer be approved")]
    Expired(i32),
    #[error("{0}")]
    Invalid(String),
    #[error(
        "approval {0} changed after it was shown to you; nothing was run. Look at it again before deciding"
    )]
    NotWhatWasShown(i32),
    #[error(
        "approval {0} no longer matches its seal: its action was edited outside Cubicle, or it was \
         asked for under another approval key. Nothing was run; reject it and ask again"
    )]
    Unverified(i32),
    #[error("approval {id} is {approver}'s to decide (or the boss's)")]
    NotYours { id: i32, approver: String },
    #[error(transparent)]
    Seal(#[from] SealError),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl ApprovalError {
    pub fn code(&self) -> ErrorCode {
        match self {
            ApprovalError::NotFound(_) => ErrorCode::NotFound,
            ApprovalError::AlreadyDecided { .. } => ErrorCode::AlreadyDecided,
            ApprovalError::Expired(_) => ErrorCode::ApprovalExpired,
            ApprovalError::Invalid(_) => ErrorCode::InvalidInput,
            ApprovalError::NotYours { .. } => ErrorCode::NotYourDecision,
            ApprovalError::NotWhatWasShown(_) | ApprovalError::Unverified(_) => {
                ErrorCode::ApprovalChanged
            }
            ApprovalError::Seal(SealError::Db(_)) | ApprovalError::Storage(_) => ErrorCode::Storage,
            ApprovalError::Seal(_) => ErrorCode::SecretUnavailable,
        }
    }
}

impl From<ApprovalError> for IpcError {
    fn from(e: ApprovalError) -> Self {
        if let ApprovalError::Storage(inner) = &e {
            tracing::error!(error = %inner, "storage error");
        }
        IpcError::new(e.code(), e.to_string())
    }
}

#[derive(Clone, Debug)]
pub struct ApprovalsConfig {
    /// How long an approval waits before it expires.
    pub ttl: Duration,
    pub tools: tools::ToolsConfig,
    /// Whether approved actions run in this process. False on a desktop attached to a
    /// company server: it records decisions, the server's engine runs them.
    pub run_here: bool,
}

impl Default for ApprovalsConfig {
    fn default() -> Self {
        Self {
            ttl: DEFAULT_APPROVAL_TTL,
            tools: tools::ToolsConfig::default(),
            run_here: true,
        }
    }
}

pub(super) fn dto(r: &approval::Model, requester_name: &str, lang: Language) -> ApprovalDto {
    let (summary, cost) = tools::describe(&r.tool, &r.args, lang);
    ApprovalDto {
        id: r.id,
        employee_id: r.employee_id,
        requester_name: requester_name.to_owned(),
        tool: r.tool.clone(),
        risk: r.risk,
        args: r.args.clone(),
        args_hash: r.args_hash.clone(),
        summary,
        reason: r.reason.clone(),
        cost_estimate_usd: cost,
        trace_id: r.trace_id.clone(),
        chat_id: r.chat_id,
        status: r.status,
        authorization_chain: serde_json::from_value(r.authorization_chain.clone())
            .unwrap_or_default(),
        decided_via: r.decided_via,
        note: r.note.clone(),
        created_at: rfc3339(r.created_at),
        expires_at: rfc3339(r.expires_at),
        decided_at: r.decided_at.map(rfc3339),
        result: r.result.clone(),
        error: r.error.clone(),
        executed_at: r.executed_at.map(rfc3339),
        run_started_at: r.run_started_at.map(rfc3339),
        approver_id: r.approver_id,
        decided_by: r.decided_by,
    }
}

pub(super) fn tool_call_dto(t: &tool_call::Model) -> ToolCallDto {
    ToolCallDto {
        id: t.id,
        employee_id: t.employee_id,
        tool: t.tool.clone(),
        args: t.args.clone(),
        risk: Risk::try_from_value(&t.risk).unwrap_or(Risk::High),
        outcome: t.outcome,
        output: t.output.clone(),
        approval_id: t.approval_id,
        trace_id: t.trace_id.clone(),
        created_at: rfc3339(t.created_at),
    }
}
