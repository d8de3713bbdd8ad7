use sea_orm::entity::prelude::*;

use crate::enums::{ApprovalPolicy, Language};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "company")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub name: String,
    #[sea_orm(column_type = "Text")]
    pub mission: String,
    pub boss_name: String,
    pub language: Language,
    pub approval_policy: ApprovalPolicy,
    #[sea_orm(column_type = "Double")]
    pub daily_budget_usd: f64,
    /// What this company's keychain entries are filed under; see `cubicle_core::secrets`.
    pub secret_scope: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
