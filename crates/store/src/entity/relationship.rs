use sea_orm::entity::prelude::*;

/// SPEC §5: what `employee_id` thinks of `other_employee_id` (one direction).
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "relationship")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub employee_id: i32,
    pub other_employee_id: i32,
    #[sea_orm(column_type = "Text")]
    pub impression: String,
    /// 1–100.
    pub affinity: i32,
    pub interactions: i32,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
