use sea_orm::entity::prelude::*;

use crate::enums::SilenceReason;

/// SPEC §4: one flow of thought, stored whether or not the employee spoke.
#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "thought")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub employee_id: i32,
    pub chat_id: Option<i32>,
    #[sea_orm(column_type = "Text")]
    pub inner_thoughts: String,
    #[sea_orm(column_type = "Text")]
    pub reason: String,
    pub should_speak: bool,
    pub spoke: bool,
    /// Why a decision to speak was overruled, or there was no thought; `None` when
    /// neither.
    pub silenced_by: Option<SilenceReason>,
    pub interest: Option<i32>,
    pub saturation: Option<i32>,
    pub perspective_seed: String,
    pub prompt_tokens: i32,
    /// The memory, relationship and task ops that were applied (free-form JSON).
    pub ops: Json,
    pub trace_id: Option<String>,
    pub created_at: DateTimeUtc,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
