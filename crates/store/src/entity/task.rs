use sea_orm::entity::prelude::*;

use crate::enums::{ReviewReason, TaskKind, TaskOrigin, TaskStatus};

/// SPEC §6: a task an employee owns.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "task")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub owner_id: i32,
    #[sea_orm(column_type = "Text")]
    pub description: String,
    pub kind: TaskKind,
    #[sea_orm(column_type = "Text", nullable)]
    pub condition: Option<String>,
    pub status: TaskStatus,
    #[sea_orm(column_type = "Text", nullable)]
    pub result: Option<String>,
    pub on_resolve_target: Option<String>,
    #[sea_orm(column_type = "Text", nullable)]
    pub on_resolve_hint: Option<String>,
    pub parent_task_id: Option<i32>,
    pub requirement_id: Option<i32>,
    pub trace_id: Option<String>,
    pub created_by: TaskOrigin,
    pub created_at: DateTimeUtc,
    pub resolved_at: Option<DateTimeUtc>,
    /// 0 for the first try; a rework after a rejected review is the next attempt.
    pub attempt: i32,
    /// For a review task: the task whose deliverable is under review.
    pub review_of: Option<i32>,
    /// A resolved task whose report is not written yet: when it falls due. Cleared once
    /// the report's copy is in the mailbox (the engine picks owed reports up at start).
    #[serde(default)]
    pub report_due_at: Option<DateTimeUtc>,
    /// A resolved task whose deliverable does not address it: why it waits for the
    /// boss's review instead of counting as done. Null for everything else.
    #[serde(default)]
    pub needs_review: Option<ReviewReason>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
