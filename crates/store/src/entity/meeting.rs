use sea_orm::entity::prelude::*;

use crate::enums::{MeetingStatus, Strategy};

/// SPEC §9: a meeting chat's moderation — its strategy, state and minutes.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "meeting")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub chat_id: i32,
    pub strategy: Strategy,
    #[sea_orm(column_type = "Text")]
    pub topic: String,
    pub status: MeetingStatus,
    pub max_turns: i32,
    /// Who has the floor: only they are nudged in this chat.
    pub current_speaker_id: Option<i32>,
    #[sea_orm(column_type = "Text", nullable)]
    pub minutes: Option<String>,
    pub created_at: DateTimeUtc,
    pub closed_at: Option<DateTimeUtc>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
