use sea_orm::entity::prelude::*;

use crate::enums::TraceOrigin;

/// One boss instruction (SPEC §10): what was said and where; everything it caused
/// carries its id.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "trace")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: String,
    pub origin: TraceOrigin,
    #[sea_orm(column_type = "Text")]
    pub instruction: String,
    pub chat_id: Option<i32>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
