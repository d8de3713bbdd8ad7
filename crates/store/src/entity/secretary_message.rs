use sea_orm::entity::prelude::*;

use crate::enums::Speaker;

/// One line of the boss ↔ secretary conversation.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "secretary_message")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub at: DateTimeUtc,
    pub role: Speaker,
    #[sea_orm(column_type = "Text")]
    pub text: String,
    pub trace_id: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
