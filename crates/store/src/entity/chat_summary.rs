use sea_orm::entity::prelude::*;

/// SPEC §5 `historySummary`: the rolling summary of a chat's older messages.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "chat_summary")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub chat_id: i32,
    #[sea_orm(column_type = "Text")]
    pub summary: String,
    /// The last message folded into the summary.
    pub upto_message_id: i32,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
