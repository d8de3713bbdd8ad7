use sea_orm::entity::prelude::*;

use crate::enums::MoveKind;

/// One move of a meeting's moderator with its reasoning. The reasoning is kept here
/// only: it never becomes a chat message (SPEC §9).
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "moderator_note")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub meeting_id: i32,
    #[sea_orm(column_name = "move")]
    pub move_kind: MoveKind,
    pub employee_id: Option<i32>,
    #[sea_orm(column_type = "Text")]
    pub reason: String,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
