use sea_orm::entity::prelude::*;

/// USD per million tokens for one model of one provider.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "model_price")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub provider_id: String,
    pub model: String,
    #[sea_orm(column_type = "Double")]
    pub input_per_mtok: f64,
    #[sea_orm(column_type = "Double")]
    pub output_per_mtok: f64,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
