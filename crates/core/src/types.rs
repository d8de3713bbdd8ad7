//! Domain enums and the data-transfer objects shared with the UI (exported by ts-rs).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

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

/// Which model an employee thinks with. Swapping it never touches memory or persona.
/// An empty `provider` means "the company's route for each purpose".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct BackendRef {
    pub provider: String,
    pub model: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CompanyDto {
    pub id: i32,
    pub name: String,
    pub mission: String,
    pub boss_name: String,
    pub language: Language,
    pub approval_policy: ApprovalPolicy,
    pub daily_budget_usd: f64,
    pub created_at: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DepartmentDto {
    pub id: i32,
    pub name: String,
    pub mission: String,
    pub parent_id: Option<i32>,
    pub lead_id: Option<i32>,
    pub created_at: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TeamDto {
    pub id: i32,
    pub name: String,
    pub department_id: i32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EmployeeDto {
    pub id: i32,
    pub name: String,
    pub title: String,
    pub department_id: Option<i32>,
    pub team_id: Option<i32>,
    pub manager_id: Option<i32>,
    pub archetype: Archetype,
    pub speaking_style: String,
    pub skills: Vec<String>,
    pub backend: BackendRef,
    pub tool_whitelist: Vec<String>,
    pub avatar: Option<String>,
    pub status: EmployeeStatus,
    pub hired_at: String,
    pub fired_at: Option<String>,
    /// Overrides the company's approval policy when set (SPEC §8).
    pub approval_policy: Option<ApprovalPolicy>,
    /// A CLI employee's command (run by the `run_cli` tool, always with approval).
    pub cli_command: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RoleTemplateDto {
    pub key: String,
    pub title: String,
    pub title_zh: String,
    pub archetype: Archetype,
    pub skills: Vec<String>,
}

/// Everything the org chart draws, read in one go.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct OrgSnapshot {
    pub company: Option<CompanyDto>,
    pub departments: Vec<DepartmentDto>,
    pub teams: Vec<TeamDto>,
    /// Current staff only; former employees keep their records but are not drawn.
    pub employees: Vec<EmployeeDto>,
}

// ---------- inputs ----------

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetupCompany {
    pub name: String,
    pub boss_name: String,
    pub language: Language,
    pub mission: Option<String>,
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UpdateCompany {
    pub name: Option<String>,
    pub mission: Option<String>,
    pub boss_name: Option<String>,
    pub language: Option<Language>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NewDepartment {
    pub name: String,
    pub parent_id: Option<i32>,
    pub mission: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RenameDepartment {
    pub id: i32,
    pub name: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MoveDepartment {
    pub id: i32,
    pub parent_id: Option<i32>,
}

/// Deleting a department that still has people or sub-departments must say where
/// they go (`reassign_to`); an empty one may pass `None`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DeleteDepartment {
    pub id: i32,
    pub reassign_to: Option<i32>,
}

/// Makes a current member of the department its lead (`None` clears the lead).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetDepartmentLead {
    pub department_id: i32,
    pub employee_id: Option<i32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct NewEmployee {
    pub name: String,
    pub title: String,
    pub department_id: Option<i32>,
    pub manager_id: Option<i32>,
    pub archetype: Option<Archetype>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MoveEmployee {
    pub employee_id: i32,
    pub department_id: Option<i32>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetManager {
    pub employee_id: i32,
    pub manager_id: Option<i32>,
}

/// `provider: None` (or empty) returns the employee to the company's routes.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetEmployeeBackend {
    pub employee_id: i32,
    pub provider: Option<String>,
    pub model: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct FireEmployee {
    pub employee_id: i32,
}

// ---------- model providers, routes, prices, spend (Settings) ----------

pub use cubicle_llm::presets::Dialect;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CapabilitiesDto {
    pub json_schema: bool,
    pub json_object: bool,
    pub stream: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PresetDto {
    pub id: String,
    pub name: String,
    pub dialect: Dialect,
    pub base_url: String,
    pub default_model: String,
    pub key_required: bool,
    pub capabilities: CapabilitiesDto,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum KeySource {
    Keychain,
    Environment,
    None,
}

/// A configured provider. The key never crosses IPC: only whether one is set.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProviderDto {
    pub id: String,
    pub name: String,
    pub preset: String,
    pub dialect: Dialect,
    pub base_url: String,
    pub default_model: String,
    pub models: Vec<String>,
    pub enabled: bool,
    pub key_required: bool,
    pub has_key: bool,
    pub key_source: KeySource,
    pub builtin: bool,
    /// Came in with an imported company and not yet confirmed here: no call goes to its
    /// base URL until the boss confirms it.
    pub imported_unconfirmed: bool,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SaveProvider {
    /// `None` creates a new provider (its id is derived from the name).
    pub id: Option<String>,
    pub name: String,
    pub preset: String,
    pub base_url: String,
    pub default_model: String,
    pub models: Vec<String>,
    pub enabled: bool,
}

/// Carries a key to the keychain. Deliberately no `Debug`: it must never be logged.
#[derive(Clone, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetProviderKey {
    pub provider_id: String,
    pub key: String,
}

impl std::fmt::Debug for SetProviderKey {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SetProviderKey")
            .field("provider_id", &self.provider_id)
            .field("key", &"***")
            .finish()
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProviderRef {
    pub provider_id: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TestProvider {
    pub provider_id: String,
    pub model: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TestResult {
    pub ok: bool,
    pub latency_ms: u32,
    pub model: String,
    pub reply: Option<String>,
    pub error: Option<crate::error::IpcError>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RouteDto {
    pub purpose: crate::gateway::Purpose,
    pub provider_id: String,
    pub model: String,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetRoute {
    pub purpose: crate::gateway::Purpose,
    pub provider_id: String,
    pub model: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PriceDto {
    pub provider_id: String,
    pub model: String,
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
    /// Set by the boss rather than a built-in default.
    pub custom: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetPrice {
    pub provider_id: String,
    pub model: String,
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetBudget {
    pub daily_budget_usd: f64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SpendDay {
    /// Local date, `YYYY-MM-DD`.
    pub date: String,
    pub cost_usd: f64,
    pub calls: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SpendByEmployee {
    pub employee_id: Option<i32>,
    /// `None` for the company itself (secretary, connection tests).
    pub name: Option<String>,
    pub cost_usd: f64,
    pub calls: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SpendByModel {
    pub provider_id: String,
    pub model: String,
    pub cost_usd: f64,
    pub calls: u32,
    pub input_tokens: u32,
    pub output_tokens: u32,
    pub fallback_calls: u32,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SpendReport {
    pub today_usd: f64,
    pub budget_usd: f64,
    pub calls_today: u32,
    pub refused_today: u32,
    /// The last 7 days including today, oldest first, days without calls included.
    pub days: Vec<SpendDay>,
    pub by_employee: Vec<SpendByEmployee>,
    pub by_model: Vec<SpendByModel>,
}

/// Where this app's company lives. On a shared server the app runs no engine of its
/// own (the server's `cubicle-cli run` is the one engine) and shows the company as it
/// changes there.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ConnectionDto {
    /// `host:port/database` of the server (never a user or password); `None` when the
    /// company is a file on this computer.
    pub server: Option<String>,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BuiltinStatus {
    pub installed: bool,
    /// The GGUF the built-in model loads.
    pub path: String,
    #[ts(type = "number | null")]
    pub size_bytes: Option<u64>,
    /// The boss chose this file in Settings (rather than the bundled default).
    pub custom: bool,
    /// Where the bundled model lives (what "reset" goes back to).
    pub default_path: String,
}

/// Points the built-in backend at another GGUF file; `None` goes back to the default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetBuiltinModel {
    pub path: Option<String>,
}
