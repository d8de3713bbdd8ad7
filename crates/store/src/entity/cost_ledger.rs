use sea_orm::entity::prelude::*;

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
    pub purpose: String,
    pub provider_id: String,
    pub model: String,
    pub attempt: i32,
    pub input_tokens: i32,
    pub output_tokens: i32,
    #[sea_orm(column_type = "Double")]
    pub cost_usd: f64,
    pub latency_ms: i32,
    /// `ok`, `error`, `budget_exceeded`, `breaker_open`.
    pub outcome: String,
    /// Served by the built-in model instead of the routed provider.
    pub fallback: bool,
    #[sea_orm(column_type = "Text", nullable)]
    pub error: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
