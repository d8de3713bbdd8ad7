use sea_orm::entity::prelude::*;

use crate::enums::{MemoryKind, Visibility};

/// SPEC §5: one memory entry of an employee.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "memory")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub employee_id: i32,
    pub kind: MemoryKind,
    #[sea_orm(column_type = "Text")]
    pub content: String,
    /// 1–10.
    pub importance: i32,
    pub visibility: Visibility,
    /// For `team` entries: the department that may read it.
    pub department_id: Option<i32>,
    /// For `team` entries: the requirement whose members may read it.
    pub requirement_id: Option<i32>,
    pub source_chat_id: Option<i32>,
    /// Short-term entries expire; long-term ones have none.
    pub expires_at: Option<DateTimeUtc>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
