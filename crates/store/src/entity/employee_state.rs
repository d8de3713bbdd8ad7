use sea_orm::entity::prelude::*;

/// SPEC §4, §7: an employee's stamina and how often a reviewer sent their work back.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "employee_state")]
pub struct Model {
    #[sea_orm(primary_key, auto_increment = false)]
    pub employee_id: i32,
    #[sea_orm(column_type = "Double")]
    pub patience: f64,
    #[sea_orm(column_type = "Double")]
    pub fatigue: f64,
    #[sea_orm(column_type = "Double")]
    pub stress: f64,
    pub review_rejections: i32,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
