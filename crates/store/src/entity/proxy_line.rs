use sea_orm::entity::prelude::*;

use crate::enums::ProxySpeaker;

/// One line of a person's private conversation with their proxy.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "proxy_line")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub person_id: i32,
    pub at: DateTimeUtc,
    pub speaker: ProxySpeaker,
    #[sea_orm(column_type = "Text")]
    pub text: String,
    /// The chat line this one is about: what the proxy wrote in the person's name, or
    /// what came in for them.
    pub chat_message_id: Option<i32>,
    pub trace_id: Option<String>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
