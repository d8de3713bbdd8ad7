//! One link of an authorization chain: who proposed, supported, opposed, decided or
//! escalated something, and under which rule. A meeting's ruling and an approval both carry
//! a chain of them, so the boss reads either the same way.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

// What one link did (the UI reads the bare names).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    Proposed,
    Supported,
    Opposed,
    Decided,
    Escalated,
}

/// One link of an authorization chain.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Link {
    /// An employee's name, `boss`, `secretary` or `vote`.
    pub who: String,
    pub employee_id: Option<i32>,
    pub role: Role,
    /// The rule this link acted under.
    pub rule: String,
    /// The weight of a vote, when it was one.
    pub weight: Option<f64>,
}
