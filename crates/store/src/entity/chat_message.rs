use sea_orm::entity::prelude::*;

use crate::enums::SenderKind;

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "chat_message")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub chat_id: i32,
    pub sender_kind: SenderKind,
    pub sender_employee_id: Option<i32>,
    /// For a person's line and their proxy's: the person it speaks for.
    #[serde(default)]
    pub sender_person_id: Option<i32>,
    #[sea_orm(column_type = "Text")]
    pub text: String,
    pub trace_id: Option<String>,
    pub created_at: DateTimeUtc,
    /// JSON array of the employee ids the message mentions.
    pub mentions: Option<Json>,
    /// A person's correction: the line their proxy wrote in their name that this replaces.
    #[serde(default)]
    pub corrects_id: Option<i32>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
