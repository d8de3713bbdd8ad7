use sea_orm::entity::prelude::*;

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
    pub risk: String,
    /// `ok`, `error`, `refused` or `waiting_approval`.
    pub outcome: String,
    #[sea_orm(column_type = "Text", nullable)]
    pub output: Option<String>,
    pub approval_id: Option<i32>,
    pub trace_id: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
