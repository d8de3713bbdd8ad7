//! One employee's tools and approvals, as the boss edits them in one card: their own
//! approval policy (or the company's), their tool whitelist and the command `run_cli`
//! runs. [`Approvals::set_employee_tools`] checks the whole edit before it writes any
//! of it, and writes it as one row update, so a bad field loses nothing and a good
//! edit never lands half-way.

use cubicle_store::{DbErr, org as oq};
use sea_orm::ActiveEnum;
use sea_orm::ActiveValue::Set;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::Approvals;
use crate::error::{ErrorCode, IpcError};
use crate::events::DomainEvent;
use crate::roles;
use crate::tools::{self, Tool as _, ToolSpec};
use crate::types::{ApprovalPolicy, EmployeeStatus};

/// The longest CLI command the card accepts (a command line, not a script).
pub const MAX_CLI_COMMAND_CHARS: usize = 2000;

/// What the "Tools & approvals" card shows for one employee.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct EmployeeToolsDto {
    pub employee_id: i32,
    /// The employee's own policy; `None` follows the company's.
    pub policy: Option<ApprovalPolicy>,
    /// The company's policy, which applies when `policy` is `None`.
    pub company_policy: ApprovalPolicy,
    /// The whitelisted tools, in catalogue order (names from before the tools existed
    /// are shown as the tools they grant).
    pub tools: Vec<String>,
    pub cli_command: Option<String>,
    /// The folder `run_cli` runs in (`<workspace>/employees/<id>`).
    pub working_dir: String,
    /// Every tool a whitelist can grant, in a stable order (the key steps every
    /// employee has are not among them).
    pub catalogue: Vec<ToolSpec>,
}

/// The boss's edit, applied all at once.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetEmployeeTools {
    pub employee_id: i32,
    /// `None` follows the company's policy.
    pub policy: Option<ApprovalPolicy>,
    /// The whole whitelist (it replaces the old one); every name must be a tool.
    pub tools: Vec<String>,
    /// `None` clears it; an empty or blank command is refused.
    pub cli_command: Option<String>,
}

#[derive(Debug, thiserror::Error)]
pub enum EmployeeToolsError {
    #[error("employee {0} does not exist")]
    NotFound(i32),
    #[error("{0} no longer works here")]
    Fired(String),
    #[error("no company has been set up")]
    CompanyMissing,
    #[error("there is no tool named {name:?}; the tools are: {known}")]
    UnknownTool { name: String, known: String },
    #[error("the CLI command is empty: give a command, or none to clear it")]
    EmptyCliCommand,
    #[error("the CLI command is longer than {MAX_CLI_COMMAND_CHARS} characters")]
    CliCommandTooLong,
    #[error("run_cli is whitelisted but there is no CLI command for it to run")]
    CliCommandMissing,
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl EmployeeToolsError {
    pub fn code(&self) -> ErrorCode {
        match self {
            EmployeeToolsError::NotFound(_) => ErrorCode::NotFound,
            EmployeeToolsError::Fired(_) => ErrorCode::AlreadyFired,
            EmployeeToolsError::CompanyMissing => ErrorCode::CompanyMissing,
            EmployeeToolsError::UnknownTool { .. }
            | EmployeeToolsError::EmptyCliCommand
            | EmployeeToolsError::CliCommandTooLong
            | EmployeeToolsError::CliCommandMissing => ErrorCode::InvalidInput,
            EmployeeToolsError::Storage(_) => ErrorCode::Storage,
        }
    }
}

impl From<EmployeeToolsError> for IpcError {
    fn from(e: EmployeeToolsError) -> Self {
        if let EmployeeToolsError::Storage(inner) = &e {
            tracing::error!(error = %inner, "storage error");
        }
        IpcError::new(e.code(), e.to_string())
    }
}

/// The whitelist as tool names in catalogue order, without repeats; legacy names
/// (`read_company_docs`, `write_workspace_file`) become the tools they grant.
fn current_tools(whitelist: &[String]) -> Vec<String> {
    tools::grantable()
        .into_iter()
        .map(|t| t.name)
        .filter(|name| tools::whitelisted(whitelist, name))
        .collect()
}

/// Checks an edit; returns the whitelist in catalogue order and the trimmed command.
fn validate(input: &SetEmployeeTools) -> Result<(Vec<String>, Option<String>), EmployeeToolsError> {
    let catalogue = tools::grantable();
    if let Some(bad) = input
        .tools
        .iter()
        .find(|name| !catalogue.iter().any(|t| &t.name == *name))
    {
        return Err(EmployeeToolsError::UnknownTool {
            name: bad.clone(),
            known: catalogue
                .iter()
                .map(|t| t.name.as_str())
                .collect::<Vec<_>>()
                .join(", "),
        });
    }
    let command = match input.cli_command.as_deref().map(str::trim) {
        None => None,
        Some("") => return Err(EmployeeToolsError::EmptyCliCommand),
        Some(c) if c.chars().count() > MAX_CLI_COMMAND_CHARS => {
            return Err(EmployeeToolsError::CliCommandTooLong);
        }
        Some(c) => Some(c.to_owned()),
    };
    let whitelist = current_tools(&input.tools);
    if command.is_none() && whitelist.iter().any(|t| *t == tools::RunCli::NAME) {
        return Err(EmployeeToolsError::CliCommandMissing);
    }
    Ok((whitelist, command))
}

impl Approvals {
    /// What the "Tools & approvals" card shows for `employee_id`.
    pub async fn employee_tools(
        &self,
        employee_id: i32,
    ) -> Result<EmployeeToolsDto, EmployeeToolsError> {
        let e = oq::find_employee(&self.db, employee_id)
            .await?
            .ok_or(EmployeeToolsError::NotFound(employee_id))?;
        let company = oq::find_company(&self.db)
            .await?
            .ok_or(EmployeeToolsError::CompanyMissing)?;
        Ok(EmployeeToolsDto {
            employee_id: e.id,
            policy: e.approval_policy,
            company_policy: company.approval_policy,
            tools: current_tools(&roles::json_strings(&e.tool_whitelist)),
            cli_command: e.cli_command.clone(),
            // Shown, not created: the folder is made on the first run.
            working_dir: self
                .runtime
                .workspace
                .join("employees")
                .join(e.id.to_string())
                .display()
                .to_string(),
            catalogue: tools::grantable(),
        })
    }

    /// Gives an employee's sandboxed processes the network, or takes it away. A call
    /// already approved with the other setting is refused when it comes to run.
    pub async fn set_network_access(
        &self,
        employee_id: i32,
        allowed: bool,
    ) -> Result<(), super::ApprovalError> {
        self.set_employee_field(employee_id, |am| am.network_access = Set(allowed))
            .await?;
        tracing::info!(employee_id, allowed, "sandbox network access set");
        Ok(())
    }

    /// Whether an employee's sandboxed processes get the network.
    pub async fn network_access(&self, employee_id: i32) -> Result<bool, super::ApprovalError> {
        Ok(oq::find_employee(&self.db, employee_id)
            .await?
            .ok_or(super::ApprovalError::NotFound(employee_id))?
            .network_access)
    }

    /// Applies the boss's edit in one go, or changes nothing and says what is wrong.
    pub async fn set_employee_tools(
        &self,
        input: SetEmployeeTools,
    ) -> Result<EmployeeToolsDto, EmployeeToolsError> {
        use sea_orm::IntoActiveModel;
        let (whitelist, command) = validate(&input)?;
        let e = oq::find_employee(&self.db, input.employee_id)
            .await?
            .ok_or(EmployeeToolsError::NotFound(input.employee_id))?;
        if e.fired_at.is_some() || e.status == EmployeeStatus::Fired {
            return Err(EmployeeToolsError::Fired(e.name));
        }
        let mut am = e.into_active_model();
        am.approval_policy = Set(input.policy);
        am.tool_whitelist = Set(serde_json::json!(whitelist));
        am.cli_command = Set(command);
        oq::update_employee(&self.db, am).await?;
        tracing::info!(
            employee_id = input.employee_id,
            policy = input
                .policy
                .map_or_else(|| "company".to_owned(), |p| p.to_value()),
            tools = whitelist.len(),
            "employee tools and approvals set"
        );
        self.bus.publish(DomainEvent::EmployeeUpdated {
            employee_id: input.employee_id,
        });
        self.employee_tools(input.employee_id).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn edit(tools: &[&str], cli: Option<&str>) -> SetEmployeeTools {
        SetEmployeeTools {
            employee_id: 1,
            policy: None,
            tools: tools.iter().map(|t| (*t).to_owned()).collect(),
            cli_command: cli.map(str::to_owned),
        }
    }

    #[test]
    fn an_edit_is_checked_field_by_field() {
        let (tools, cli) =
            validate(&edit(&["write_file", "read_file", "write_file"], None)).expect("valid");
        assert_eq!(tools, ["read_file", "write_file"], "catalogue order, once");
        assert_eq!(cli, None);

        let err = validate(&edit(&["read_file", "launch_rockets"], None)).unwrap_err();
        assert!(
            matches!(&err, EmployeeToolsError::UnknownTool { name, .. } if name == "launch_rockets")
        );
        assert!(
            err.to_string().contains("run_cli"),
            "lists the tools: {err}"
        );

        assert!(matches!(
            validate(&edit(&[], Some("   "))),
            Err(EmployeeToolsError::EmptyCliCommand)
        ));
        assert!(matches!(
            validate(&edit(&["run_cli"], None)),
            Err(EmployeeToolsError::CliCommandMissing)
        ));
        let long = "x".repeat(MAX_CLI_COMMAND_CHARS + 1);
        assert!(matches!(
            validate(&edit(&[], Some(&long))),
            Err(EmployeeToolsError::CliCommandTooLong)
        ));
        let (_, cli) = validate(&edit(&["run_cli"], Some("  codex exec  "))).expect("valid");
        assert_eq!(cli.as_deref(), Some("codex exec"));
    }

    #[test]
    fn legacy_whitelist_names_show_as_the_tools_they_grant() {
        let old = vec![
            "read_company_docs".to_owned(),
            "write_workspace_file".to_owned(),
        ];
        assert_eq!(
            current_tools(&old),
            ["read_memory", "read_file", "write_file"]
        );
    }
}
