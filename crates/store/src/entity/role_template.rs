use sea_orm::entity::prelude::*;

use crate::enums::Archetype;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "role_template")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    #[sea_orm(unique)]
    pub key: String,
    pub title: String,
    pub title_zh: String,
    pub archetype: Archetype,
    /// JSON array of strings.
    pub skills: Json,
    /// JSON array of tool names the role starts with.
    pub tools: Json,
    #[sea_orm(column_type = "Text")]
    pub description: String,
    /// The role card file's text exactly as it came (the columns above are read from
    /// it), so an export writes the same file back.
    #[sea_orm(column_type = "Text")]
    pub card: String,
    /// Shipped with the app (kept in step with the shipped file) rather than the boss's.
    pub builtin: bool,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
