//! The small inputs of IPC commands that name one thing (a chat, an employee, a memory, a
//! secretary action) or carry one value. The services take the plain values; these exist
//! so the shell's commands and the UI share one typed shape (exported with ts-rs).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::secretary::actions::HireEdits;

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatRef {
    pub chat_id: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EmployeeRef {
    pub employee_id: i32,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MemoryRef {
    pub memory_id: i32,
}

/// Whether the sandbox an employee's commands run in has the network.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetNetworkAccess {
    pub employee_id: i32,
    pub allowed: bool,
}

/// One message from the boss to the secretary.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SecretarySay {
    pub text: String,
}

/// A proposed or applied secretary action, to cancel or undo.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SecretaryActionRef {
    pub action_id: i32,
}

/// Confirms a proposed action; a hire may carry the boss's edits (absent means none).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SecretaryConfirm {
    pub action_id: i32,
    #[serde(default)]
    pub edits: Option<HireEdits>,
}
