use sea_orm::entity::prelude::*;

use crate::enums::{MailKind, MailStatus};

/// One item in the boss's mailbox.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "mail")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub kind: MailKind,
    pub employee_id: Option<i32>,
    pub chat_id: Option<i32>,
    pub task_id: Option<i32>,
    pub title: String,
    #[sea_orm(column_type = "Text")]
    pub body: String,
    pub status: MailStatus,
    pub trace_id: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
