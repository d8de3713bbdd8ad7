use sea_orm::entity::prelude::*;

use crate::enums::{DecidedByKind, DecisionStatus, DecisionType, RulingOutcome};

/// SPEC §9: a ruling on conflicting opinions, with its authorization chain.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "decision")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub meeting_id: Option<i32>,
    pub chat_id: Option<i32>,
    pub trace_id: Option<String>,
    #[sea_orm(column_type = "Text")]
    pub question: String,
    pub decision_type: DecisionType,
    pub outcome: RulingOutcome,
    pub decided_by_kind: DecidedByKind,
    pub decided_by_employee_id: Option<i32>,
    pub status: DecisionStatus,
    /// JSON array of links `{who, employeeId, role, rule, weight}`.
    pub authorization_chain: Json,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
