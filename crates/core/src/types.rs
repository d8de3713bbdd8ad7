//! Small types every part of core shares: the stored enums it re-exports (the
//! personality archetypes among them) and how an enum's serde name is read and written. The
//! data-transfer objects live with their services (`org`, `providers`, `app`).

use serde::Serialize;

pub use cubicle_llm::presets::Dialect;
pub use cubicle_store::enums::{ApprovalPolicy, Archetype, EmployeeStatus, Language};

pub mod archetypes;
pub mod link;
pub mod tool_name;
pub use tool_name::{ToolName, ToolWords};

/// Reads a stored enum's name as a model or a person wrote it: trimmed, and any alias
/// serde knows counts. `None` when it names no variant.
pub fn read_name<E: serde::de::DeserializeOwned>(s: &str) -> Option<E> {
    serde_json::from_value(serde_json::Value::String(s.trim().to_owned())).ok()
}

/// The name serde gives a unit variant: how an enum kept outside the store's typed
/// columns is written to a text column.
pub fn name_of<E: Serialize>(e: &E) -> String {
    match serde_json::to_value(e) {
        Ok(serde_json::Value::String(s)) => s,
        _ => String::new(),
    }
}

/// A JSON array of strings as a `Vec`; anything else reads as empty.
pub fn json_strings(v: &serde_json::Value) -> Vec<String> {
    v.as_array()
        .map(|a| {
            a.iter()
                .filter_map(|x| x.as_str().map(str::to_owned))
                .collect()
        })
        .unwrap_or_default()
}
