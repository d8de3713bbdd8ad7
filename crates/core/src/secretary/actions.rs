//! What the secretary proposes, what the boss sees of it, and how each one is undone.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::org::DeletedDepartment;
use crate::types::{ApprovalPolicy, Archetype};

/// Undo stays possible this long after an action is applied (10 minutes).
pub const UNDO_WINDOW_MINUTES: i64 = 10;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "type",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum Proposal {
    Hire {
        name: String,
        title: String,
        department_id: Option<i32>,
        department_name: Option<String>,
        manager_id: Option<i32>,
        manager_name: Option<String>,
        archetype: Archetype,
        skills: Vec<String>,
        // The role card the hire starts from (its persona, tools, model, temperature).
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        role_key: Option<String>,
        // Why this card: the words of the boss's message that fit it.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        why: Option<String>,
        // What the card gives: the tools Cubicle has (the others are never granted)…
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<String>>")]
        tools: Vec<String>,
        // … the tools it names that Cubicle does not have …
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<String>>")]
        unknown_tools: Vec<String>,
        // … its model route (`provider/model`) and its temperature.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        model: Option<String>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        temperature: Option<f64>,
    },
    Fire {
        employee_id: i32,
        name: String,
    },
    Transfer {
        employee_id: i32,
        name: String,
        department_id: i32,
        department_name: String,
    },
    CreateDepartment {
        name: String,
        parent_id: Option<i32>,
        parent_name: Option<String>,
    },
    RenameDepartment {
        department_id: i32,
        old_name: String,
        new_name: String,
    },
    SetPolicy {
        level: Option<ApprovalPolicy>,
        daily_budget_usd: Option<f64>,
    },
    AssignTask {
        employee_id: i32,
        name: String,
        description: String,
        // The requirement the task is part of ("… for the login page requirement").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        requirement_id: Option<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        requirement_name: Option<String>,
        // Colleagues who work on it with the assignee; each gets a helping task under
        // the assignee's.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<i32>>")]
        participant_ids: Vec<i32>,
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        #[ts(optional, as = "Option<Vec<String>>")]
        participant_names: Vec<String>,
    },
    CreateRequirement {
        name: String,
        description: String,
        department_id: Option<i32>,
        department_name: Option<String>,
        // Who reviews its deliverables ("…, reviewed by Dan").
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reviewer_id: Option<i32>,
        #[serde(default, skip_serializing_if = "Option::is_none")]
        #[ts(optional)]
        reviewer_name: Option<String>,
    },
    /// Names the employee who reviews a requirement's deliverables.
    SetReviewer {
        requirement_id: i32,
        requirement_name: String,
        employee_id: i32,
        name: String,
    },
    /// Deleting a department moves its people and sub-departments to `destination`
    /// (required when it has any).
    DeleteDepartment {
        department_id: i32,
        name: String,
        destination_id: Option<i32>,
        destination_name: Option<String>,
        headcount: u32,
    },
    /// A meeting chat with these participants on a topic, run by the moderator.
    ConveneMeeting {
        topic: String,
        participant_ids: Vec<i32>,
        participant_names: Vec<String>,
    },
    /// A human joins the company, answering for a department's work (its approvals go
    /// to them) under their own policy (`None`: key steps).
    InvitePerson {
        name: String,
        role: String,
        department_id: Option<i32>,
        department_name: Option<String>,
        policy: Option<ApprovalPolicy>,
    },
}

impl Proposal {
    pub fn kind(&self) -> ActionKind {
        match self {
            Proposal::Hire { .. } => ActionKind::Hire,
            Proposal::Fire { .. } => ActionKind::Fire,
            Proposal::Transfer { .. } => ActionKind::Transfer,
            Proposal::CreateDepartment { .. } => ActionKind::CreateDepartment,
            Proposal::RenameDepartment { .. } => ActionKind::RenameDepartment,
            Proposal::SetPolicy { .. } => ActionKind::SetPolicy,
            Proposal::AssignTask { .. } => ActionKind::AssignTask,
            Proposal::CreateRequirement { .. } => ActionKind::CreateRequirement,
            Proposal::DeleteDepartment { .. } => ActionKind::DeleteDepartment,
            Proposal::ConveneMeeting { .. } => ActionKind::ConveneMeeting,
            Proposal::SetReviewer { .. } => ActionKind::SetReviewer,
            Proposal::InvitePerson { .. } => ActionKind::InvitePerson,
        }
    }

    /// Destructive actions always wait for an explicit confirmation (SPEC §3).
    pub fn is_destructive(&self) -> bool {
        is_destructive(self.kind())
    }
}

/// Whether an action of this kind is destructive and so always waits for an explicit
/// confirmation, even under `--yes` (SPEC §3). The one rule: a proposal, an intent
/// ([`super::intent::IntentKind::is_destructive`]) and the card's `destructive` (which
/// the UI reads as is) all come from it.
pub fn is_destructive(kind: ActionKind) -> bool {
    matches!(kind, ActionKind::Fire | ActionKind::DeleteDepartment)
}

/// How to reverse an applied action.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Undo {
    RemoveHire {
        employee_id: i32,
    },
    Unfire {
        employee_id: i32,
        reports: Vec<i32>,
        led_departments: Vec<i32>,
    },
    MoveBack {
        employee_id: i32,
        department_id: Option<i32>,
    },
    DeleteDepartment {
        department_id: i32,
    },
    RenameBack {
        department_id: i32,
        name: String,
    },
    RestorePolicy {
        level: ApprovalPolicy,
        daily_budget_usd: f64,
    },
    WithdrawTask {
        task_id: i32,
        /// The helping tasks of its participants, withdrawn with it.
        #[serde(default)]
        helpers: Vec<i32>,
    },
    RestoreReviewer {
        requirement_id: i32,
        reviewer_id: Option<i32>,
    },
    RemoveRequirement {
        requirement_id: i32,
        chat_id: Option<i32>,
    },
    RestoreDepartment {
        record: DeletedDepartment,
    },
    EndMeeting {
        chat_id: i32,
    },
    RemovePerson {
        person_id: i32,
    },
}

pub use cubicle_store::enums::{ActionKind, ActionStatus};

/// An action card as the boss sees it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ActionDto {
    pub id: i32,
    pub status: ActionStatus,
    pub destructive: bool,
    pub proposal: Proposal,
    /// The change to the org, once applied ("+1 Frontend Engineer → Product, reports to Alice").
    pub diff: Option<String>,
    /// RFC 3339; Undo is offered until then.
    pub undo_until: Option<String>,
    pub error: Option<String>,
}

/// Who said a line of the boss ↔ secretary conversation.
pub use cubicle_store::enums::Speaker;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SecretaryMessageDto {
    pub id: i32,
    pub at: String,
    pub role: Speaker,
    pub text: String,
    pub actions: Vec<ActionDto>,
    /// The instruction this turn started, when it proposed actions (SPEC §10).
    pub trace_id: Option<String>,
}

/// Changes the boss may make to a hire before confirming it (the card's Edit).
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct HireEdits {
    pub name: Option<String>,
    pub title: Option<String>,
    pub department_id: Option<i32>,
    pub manager_id: Option<i32>,
    pub archetype: Option<Archetype>,
}
