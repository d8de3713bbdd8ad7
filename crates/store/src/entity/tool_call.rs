use sea_orm::entity::prelude::*;

use crate::enums::CallLogOutcome;

/// SPEC §8: every tool call an employee made, whatever became of it.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "tool_call")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub employee_id: i32,
    pub tool: String,
    pub args: Json,
    /// A `Risk`'s stored name, or `unknown` for a call refused before its risk was known.
    pub risk: String,
    pub outcome: CallLogOutcome,
    #[sea_orm(column_type = "Text", nullable)]
    pub output: Option<String>,
    pub approval_id: Option<i32>,
    pub trace_id: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
