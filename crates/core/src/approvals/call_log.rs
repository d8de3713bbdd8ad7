//! The tool-call log: one row for every call an employee asked for, whatever came of
//! it (refused, failed, waiting for the boss, run).

use chrono::{DateTime, Utc};
use cubicle_store::entity::tool_call;
use cubicle_store::{DbErr, approval as q};
use sea_orm::ActiveEnum;
use sea_orm::ActiveValue::{NotSet, Set};

use super::Approvals;
use crate::tools::Risk;

/// What a call is logged as.
pub(super) use super::types::CallLogOutcome as Outcome;

/// A tool's output kept in the tool-call log.
const LOG_OUTPUT_CHARS: usize = 2000;

pub(super) struct LogEntry<'a> {
    pub employee_id: i32,
    pub tool: &'a str,
    pub args: &'a serde_json::Value,
    pub risk: Option<Risk>,
    pub outcome: Outcome,
    pub output: Option<String>,
    pub approval_id: Option<i32>,
    pub trace_id: Option<&'a str>,
}

impl Approvals {
    pub(super) async fn log(&self, entry: LogEntry<'_>) -> Result<tool_call::Model, DbErr> {
        q::insert_tool_call(&self.db, Self::log_row(entry, self.clock.now())).await
    }

    pub(super) fn log_row(entry: LogEntry<'_>, now: DateTime<Utc>) -> tool_call::ActiveModel {
        tool_call::ActiveModel {
            id: NotSet,
            employee_id: Set(entry.employee_id),
            tool: Set(entry.tool.to_owned()),
            args: Set(entry.args.clone()),
            risk: Set(entry
                .risk
                .map_or_else(|| "unknown".to_owned(), |r| r.to_value())),
            outcome: Set(entry.outcome),
            output: Set(entry
                .output
                .map(|o| o.chars().take(LOG_OUTPUT_CHARS).collect())),
            approval_id: Set(entry.approval_id),
            trace_id: Set(entry.trace_id.map(str::to_owned)),
            created_at: Set(now),
        }
    }
}
