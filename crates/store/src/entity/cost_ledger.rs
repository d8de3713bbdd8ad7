use sea_orm::entity::prelude::*;

use crate::enums::{LedgerOutcome, Purpose, StructuredOutput};

/// One model call attempt (or a call refused before it was made), with what it cost.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "cost_ledger")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub at: DateTimeUtc,
    pub trace_id: Option<String>,
    pub employee_id: Option<i32>,
    pub purpose: Purpose,
    pub provider_id: String,
    pub model: String,
    pub attempt: i32,
    pub input_tokens: i32,
    pub output_tokens: i32,
    /// Of `input_tokens`, those served from the provider's prompt cache. Absent from
    /// bundles written before it existed (schema 2), where it reads 0.
    #[serde(default)]
    pub cached_tokens: i32,
    #[sea_orm(column_type = "Double")]
    pub cost_usd: f64,
    pub latency_ms: i32,
    pub outcome: LedgerOutcome,
    /// Served by the built-in model instead of the routed provider.
    pub fallback: bool,
    #[sea_orm(column_type = "Text", nullable)]
    pub error: Option<String>,
    /// A failed attempt that is retried: the wait before the next one (backoff, or the
    /// provider's `Retry-After` when longer).
    pub backoff_ms: Option<i32>,
    /// What became of a structured call's answer on this attempt; `cut_off` for any
    /// answer that stopped at the token cap (unusable, whatever the call came to).
    pub output: Option<StructuredOutput>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
