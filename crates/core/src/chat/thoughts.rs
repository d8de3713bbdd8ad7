//! A thought as a chat's transcript shows it beside the messages: the mind writes the
//! row, the chat reads it back.

use cubicle_store::entity::thought;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::gates::SilenceReason;
use super::rfc3339;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ThoughtDto {
    pub id: i32,
    pub employee_id: i32,
    pub employee_name: String,
    pub chat_id: Option<i32>,
    pub inner_thoughts: String,
    pub reason: String,
    pub should_speak: bool,
    pub spoke: bool,
    /// Why it stayed silent although it wanted to speak, or had no thought at all.
    pub silenced_by: Option<SilenceReason>,
    pub interest: Option<i32>,
    pub saturation: Option<i32>,
    pub perspective_seed: String,
    pub prompt_tokens: i32,
    pub created_at: String,
}

pub(crate) fn thought_dto(t: &thought::Model, employee_name: &str) -> ThoughtDto {
    ThoughtDto {
        id: t.id,
        employee_id: t.employee_id,
        employee_name: employee_name.to_owned(),
        chat_id: t.chat_id,
        inner_thoughts: t.inner_thoughts.clone(),
        reason: t.reason.clone(),
        should_speak: t.should_speak,
        spoke: t.spoke,
        silenced_by: t.silenced_by,
        interest: t.interest,
        saturation: t.saturation,
        perspective_seed: t.perspective_seed.clone(),
        prompt_tokens: t.prompt_tokens,
        created_at: rfc3339(t.created_at),
    }
}
