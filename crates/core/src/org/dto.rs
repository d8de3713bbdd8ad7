//! The org's data-transfer objects: what the org chart shows and the inputs that change
//! it (exported to TypeScript by ts-rs).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::types::{ApprovalPolicy, Archetype, EmployeeStatus, Language};

pub use crate::providers::BackendRef;
pub use crate::roles::RoleTemplateDto;

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
    /// The persona and rules from the role card they were hired from.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub persona: Option<String>,
    /// Their thoughts' sampling temperature; absent: the default for thoughts.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub temperature: Option<f64>,
    /// Retries of a failed model call of theirs; absent: the gateway's.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub max_retries: Option<u32>,
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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetBudget {
    pub daily_budget_usd: f64,
}
