//! Small types every part of core shares: the stored enums it re-exports, the
//! personality archetypes, and how an enum's serde name is read and written. The
//! data-transfer objects live with their services (`org`, `providers`, `app`).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

pub use cubicle_llm::presets::Dialect;
pub use cubicle_store::enums::{ApprovalPolicy, EmployeeStatus, Language};

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

/// SPEC §4 anti-echo layer 1: the twelve personality archetypes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Archetype {
    ShyIntrovert,
    Chatterbox,
    ZenSlacker,
    UltraGrinder,
    PassiveAggressive,
    WarmHearted,
    AnxiousPerfectionist,
    RebelSlacker,
    Philosopher,
    ComedyRelief,
    OldHand,
    Idealist,
}

impl Archetype {
    pub const ALL: [Archetype; 12] = [
        Archetype::ShyIntrovert,
        Archetype::Chatterbox,
        Archetype::ZenSlacker,
        Archetype::UltraGrinder,
        Archetype::PassiveAggressive,
        Archetype::WarmHearted,
        Archetype::AnxiousPerfectionist,
        Archetype::RebelSlacker,
        Archetype::Philosopher,
        Archetype::ComedyRelief,
        Archetype::OldHand,
        Archetype::Idealist,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Archetype::ShyIntrovert => "shy_introvert",
            Archetype::Chatterbox => "chatterbox",
            Archetype::ZenSlacker => "zen_slacker",
            Archetype::UltraGrinder => "ultra_grinder",
            Archetype::PassiveAggressive => "passive_aggressive",
            Archetype::WarmHearted => "warm_hearted",
            Archetype::AnxiousPerfectionist => "anxious_perfectionist",
            Archetype::RebelSlacker => "rebel_slacker",
            Archetype::Philosopher => "philosopher",
            Archetype::ComedyRelief => "comedy_relief",
            Archetype::OldHand => "old_hand",
            Archetype::Idealist => "idealist",
        }
    }

    pub fn parse(s: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|a| a.as_str() == s)
    }

    /// A first-person speaking style, the default for a new hire of this archetype.
    pub fn default_speaking_style(self) -> &'static str {
        match self {
            Archetype::ShyIntrovert => {
                "I keep it short and only speak when I have something useful."
            }
            Archetype::Chatterbox => {
                "I talk a lot, jump between topics and love an exclamation mark!"
            }
            Archetype::ZenSlacker => "Whatever works. I stay calm and do the simplest thing.",
            Archetype::UltraGrinder => "I'll take it! Fast, energetic, always volunteering.",
            Archetype::PassiveAggressive => {
                "I smile and agree, then add a polite but pointed objection."
            }
            Archetype::WarmHearted => "I'm kind and encouraging and check how people are doing.",
            Archetype::AnxiousPerfectionist => {
                "Let me check again. I worry about details and edge cases."
            }
            Archetype::RebelSlacker => "I grumble about the process, then deliver anyway.",
            Archetype::Philosopher => "I ask why, and connect the work to bigger questions.",
            Archetype::ComedyRelief => "I lighten the mood with jokes, then get to the point.",
            Archetype::OldHand => "I've seen this before; I speak from experience, briefly.",
            Archetype::Idealist => "I care about doing the right thing for users and the mission.",
        }
    }
}
