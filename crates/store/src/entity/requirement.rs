use sea_orm::entity::prelude::*;

use crate::enums::RequirementStatus;

/// A requirement (project): belongs to a department, has its own group chat and tasks.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "requirement")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub name: String,
    #[sea_orm(column_type = "Text")]
    pub description: String,
    pub department_id: Option<i32>,
    pub status: RequirementStatus,
    pub chat_id: Option<i32>,
    pub created_at: DateTimeUtc,
    /// Who reviews the deliverables of its tasks, when someone does.
    pub reviewer_id: Option<i32>,
    /// Who plans it and answers for it; `None` until someone can (an empty department).
    pub owner_id: Option<i32>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
