//! What the parser produces (SPEC §3): one or more intents, each with a kind, a
//! confidence and its slots. The serde shape is the CLI's JSON contract and the
//! model tier's JSON-schema-constrained output, so both tiers share these types.

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::actions::{self, ActionKind};
use crate::types::{ApprovalPolicy, name_of};

/// The participant that stands for the assignee's whole team ("和整个团队", "with the
/// team"): the secretary brings in the assignee's department.
pub const TEAM: &str = "team";

/// Below this the secretary asks a clarifying question instead of acting (SPEC §3).
pub const CONFIDENT: f32 = 0.85;

/// The intents of SPEC §3, named exactly as there.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, JsonSchema, TS,
)]
#[serde(rename_all = "snake_case")]
pub enum IntentKind {
    HireEmployee,
    FireEmployee,
    TransferEmployee,
    CreateDepartment,
    RenameDepartment,
    DeleteDepartment,
    AssignTask,
    CreateRequirement,
    AskStatus,
    RequestReport,
    ConveneMeeting,
    // Names who reviews a requirement's deliverables.
    SetReviewer,
    // A human joins the company (seed 001): a person with a role, answering for a
    // department's work.
    InvitePerson,
    SetPolicy,
    Approve,
    Reject,
    Chitchat,
    Question,
    Unknown,
}

impl IntentKind {
    pub const ALL: [IntentKind; 19] = [
        IntentKind::HireEmployee,
        IntentKind::FireEmployee,
        IntentKind::TransferEmployee,
        IntentKind::CreateDepartment,
        IntentKind::RenameDepartment,
        IntentKind::DeleteDepartment,
        IntentKind::AssignTask,
        IntentKind::CreateRequirement,
        IntentKind::AskStatus,
        IntentKind::RequestReport,
        IntentKind::ConveneMeeting,
        IntentKind::SetReviewer,
        IntentKind::InvitePerson,
        IntentKind::SetPolicy,
        IntentKind::Approve,
        IntentKind::Reject,
        IntentKind::Chitchat,
        IntentKind::Question,
        IntentKind::Unknown,
    ];

    /// The action card this intent proposes; `None` for one that only asks or answers.
    pub fn action(self) -> Option<ActionKind> {
        Some(match self {
            IntentKind::HireEmployee => ActionKind::Hire,
            IntentKind::FireEmployee => ActionKind::Fire,
            IntentKind::TransferEmployee => ActionKind::Transfer,
            IntentKind::CreateDepartment => ActionKind::CreateDepartment,
            IntentKind::RenameDepartment => ActionKind::RenameDepartment,
            IntentKind::DeleteDepartment => ActionKind::DeleteDepartment,
            IntentKind::AssignTask => ActionKind::AssignTask,
            IntentKind::CreateRequirement => ActionKind::CreateRequirement,
            IntentKind::ConveneMeeting => ActionKind::ConveneMeeting,
            IntentKind::SetReviewer => ActionKind::SetReviewer,
            IntentKind::InvitePerson => ActionKind::InvitePerson,
            IntentKind::SetPolicy => ActionKind::SetPolicy,
            IntentKind::AskStatus
            | IntentKind::RequestReport
            | IntentKind::Approve
            | IntentKind::Reject
            | IntentKind::Chitchat
            | IntentKind::Question
            | IntentKind::Unknown => return None,
        })
    }

    /// Destructive intents always ask the boss to confirm first: those whose card is
    /// ([`actions::is_destructive`]).
    pub fn is_destructive(self) -> bool {
        self.action().is_some_and(actions::is_destructive)
    }
}

/// The serde name (`hire_employee`): the CLI's JSON contract and the model's schema.
impl std::fmt::Display for IntentKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&name_of(self))
    }
}

/// Which tier produced a parse.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum Tier {
    Rules,
    Model,
}

/// Everything an intent can carry. All optional: absent values are left out of the JSON.
/// Names of people and departments are as the boss wrote them; matching them against
/// the real company is a later step (see [`super::names`]).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(default)]
pub struct Slots {
    /// The role catalogue's English title (`roles::CATALOGUE`), or the boss's words for a
    /// role the catalogue does not know; for an invited person, their role as the boss
    /// put it ("head of Product").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub role: Option<String>,
    /// The department an action happens in (hire into, transfer from, report on …).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub department: Option<String>,
    /// A person (fire, transfer, hire "named …", ask about) or an approval reference (`#12`).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub name: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub count: Option<u32>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub target_department: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub new_name: Option<String>,
    /// What to do (task, requirement), or the reason given for a rejection.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub description: Option<String>,
    /// Who a task goes to: a person or a department.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub assignee: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub topic: Option<String>,
    /// Who else takes part: in a meeting, or working with a task's assignee ("让李娜跟王强
    /// 一起…"). [`TEAM`] stands for the assignee's own team.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    #[ts(optional, as = "Option<Vec<String>>")]
    pub participants: Vec<String>,
    /// Who reviews a requirement's deliverables ("…, reviewed by Dan").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub reviewer: Option<String>,
    /// The requirement an action is about, as the boss named it ("the login page").
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub requirement: Option<String>,
    /// The approval level asked for (SPEC §8).
    #[serde(skip_serializing_if = "Option::is_none")]
    #[schemars(schema_with = "level_schema")]
    #[ts(optional)]
    pub level: Option<ApprovalPolicy>,
    /// A budget in US dollars per day.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub amount: Option<f64>,
    /// For a role picked from the company's cards by how well they fit the message: the
    /// words that fit (the "why" on the hire's card). Worked out here, never read from
    /// a model's answer.
    #[serde(skip)]
    #[schemars(skip)]
    #[ts(skip)]
    pub role_fit: Vec<String>,
}

fn level_schema(_: &mut schemars::SchemaGenerator) -> schemars::Schema {
    schemars::json_schema!({
        "type": ["string", "null"],
        "enum": ["auto", "key_steps", "manual", null]
    })
}

impl Slots {
    pub fn is_empty(&self) -> bool {
        *self == Slots::default()
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct Intent {
    pub kind: IntentKind,
    /// 0..=1; below [`CONFIDENT`] the secretary asks before acting.
    pub confidence: f32,
    pub slots: Slots,
}

impl Intent {
    pub fn new(kind: IntentKind, confidence: f32, slots: Slots) -> Self {
        Intent {
            kind,
            confidence: confidence.clamp(0.0, 1.0),
            slots,
        }
    }

    pub fn is_confident(&self) -> bool {
        self.confidence >= CONFIDENT
    }
}

/// One message, parsed: the intents in the order the boss gave them.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema, TS)]
pub struct Parse {
    pub tier: Tier,
    pub intents: Vec<Intent>,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn schema_for_the_model_tier_has_every_slot_optional() {
        let schema = serde_json::to_value(schemars::schema_for!(Parse)).unwrap();
        let text = schema.to_string();
        for kind in IntentKind::ALL {
            assert!(text.contains(&format!("\"{kind}\"")), "{kind}");
        }
        assert!(text.contains("\"key_steps\""));
        let slots = &schema["$defs"]["Slots"];
        assert!(slots["properties"]["participants"].is_object());
        assert!(
            slots
                .get("required")
                .is_none_or(|r| r.as_array().is_some_and(Vec::is_empty)),
            "{slots}"
        );
    }

    /// The names are the CLI's JSON contract and the labelled corpus's: they stay as
    /// they were when `as_str` spelled them by hand.
    #[test]
    fn kinds_round_trip_by_their_unchanged_names() {
        let names: Vec<String> = IntentKind::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(
            names,
            [
                "hire_employee",
                "fire_employee",
                "transfer_employee",
                "create_department",
                "rename_department",
                "delete_department",
                "assign_task",
                "create_requirement",
                "ask_status",
                "request_report",
                "convene_meeting",
                "set_reviewer",
                "invite_person",
                "set_policy",
                "approve",
                "reject",
                "chitchat",
                "question",
                "unknown",
            ]
        );
        for kind in IntentKind::ALL {
            let json = serde_json::to_value(kind).unwrap();
            assert_eq!(json, kind.to_string());
            assert_eq!(serde_json::from_value::<IntentKind>(json).unwrap(), kind);
        }
    }

    #[test]
    fn an_intent_is_destructive_exactly_when_its_card_is() {
        let destructive: Vec<IntentKind> = IntentKind::ALL
            .into_iter()
            .filter(|k| k.is_destructive())
            .collect();
        assert_eq!(
            destructive,
            [IntentKind::FireEmployee, IntentKind::DeleteDepartment]
        );
    }
}
