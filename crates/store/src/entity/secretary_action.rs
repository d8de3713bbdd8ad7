use sea_orm::entity::prelude::*;

use crate::enums::{ActionKind, ActionStatus};

/// An action the secretary proposed, and what became of it.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "secretary_action")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    /// The secretary message that proposed it.
    pub message_id: i32,
    pub created_at: DateTimeUtc,
    pub kind: ActionKind,
    pub status: ActionStatus,
    pub proposal: Json,
    /// How to reverse it, once applied.
    pub undo: Option<Json>,
    #[sea_orm(column_type = "Text", nullable)]
    pub diff: Option<String>,
    pub undo_until: Option<DateTimeUtc>,
    #[sea_orm(column_type = "Text", nullable)]
    pub error: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
