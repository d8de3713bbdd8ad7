use sea_orm::entity::prelude::*;

use crate::enums::{ApprovalPolicy, Language};

/// A human member of the company besides the boss (SPEC §12).
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "person")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub company_id: i32,
    pub name: String,
    /// What they do here, in their own words ("Head of Product").
    pub role: String,
    pub language: Language,
    /// How the approvals routed to them are decided.
    pub approval_policy: ApprovalPolicy,
    /// The PostgreSQL role they sign in as, once they have a login (`crate::login`).
    /// Never in a bundle: it names a role on this server only.
    #[serde(skip_serializing, default)]
    pub db_role: Option<String>,
    pub created_at: DateTimeUtc,
    pub updated_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
