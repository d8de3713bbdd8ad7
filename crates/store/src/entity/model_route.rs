use sea_orm::entity::prelude::*;

use crate::enums::Purpose;

/// Which provider and model serve one purpose (intent parsing, thoughts, …).
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "model_route")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub purpose: Purpose,
    pub provider_id: String,
    pub model: String,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
