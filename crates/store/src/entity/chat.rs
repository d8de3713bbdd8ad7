use sea_orm::entity::prelude::*;

use crate::enums::{ChatKind, ChatMode};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "chat")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub kind: ChatKind,
    pub name: String,
    pub department_id: Option<i32>,
    pub created_at: DateTimeUtc,
    /// SPEC §4 gates; the column defaults to `casual`.
    pub mode: ChatMode,
    /// The boss's read mark: the last message the boss has seen.
    pub boss_last_read_message_id: Option<i32>,
    #[sea_orm(column_type = "Text", nullable)]
    pub topic: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
