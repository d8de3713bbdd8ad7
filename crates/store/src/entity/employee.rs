use sea_orm::entity::prelude::*;

use crate::enums::{ApprovalPolicy, Archetype, EmployeeStatus};

#[derive(Clone, Debug, PartialEq, DeriveEntityModel, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields)]
#[sea_orm(table_name = "employee")]
pub struct Model {
    #[sea_orm(primary_key)]
    pub id: i32,
    pub company_id: i32,
    pub name: String,
    pub title: String,
    pub department_id: Option<i32>,
    pub team_id: Option<i32>,
    pub manager_id: Option<i32>,
    pub archetype: Archetype,
    #[sea_orm(column_type = "Text")]
    pub speaking_style: String,
    /// JSON array of strings.
    pub skills: Json,
    pub backend_provider: String,
    pub backend_model: String,
    /// JSON array of tool names.
    pub tool_whitelist: Json,
    pub avatar: Option<String>,
    pub status: EmployeeStatus,
    pub hired_at: DateTimeUtc,
    pub fired_at: Option<DateTimeUtc>,
    /// `None` follows the company's policy.
    pub approval_policy: Option<ApprovalPolicy>,
    /// A CLI employee's command (run by the `run_cli` tool, always with approval).
    #[sea_orm(column_type = "Text", nullable)]
    pub cli_command: Option<String>,
    /// Whether `run_shell` and `run_cli` boxes get the network (off unless the boss
    /// allows it). Bundles from before the column read `false`.
    #[serde(default)]
    pub network_access: bool,
    /// The CLI command as it came in a company bundle, until the boss confirms it here:
    /// while `cli_command` still equals it, `run_cli` refuses. `None` for commands set
    /// on this computer.
    #[sea_orm(column_type = "Text", nullable)]
    pub imported_cli_command: Option<String>,
    /// The persona and rules from the role card they were hired from; `None` when the
    /// card had none (their archetype alone shapes them).
    #[serde(default)]
    #[sea_orm(column_type = "Text", nullable)]
    pub persona: Option<String>,
    /// Sampling temperature for their thoughts; `None`: the default for thoughts.
    #[serde(default)]
    pub temperature: Option<f64>,
    /// How many times a failed model call of theirs is retried; `None`: the gateway's.
    #[serde(default)]
    pub max_retries: Option<i32>,
}

#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
