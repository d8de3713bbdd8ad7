//! What came in with an imported company and waits for the boss to confirm it on this
//! computer before it is used: a provider's base URL (where prompts, and any key, would
//! go) and a CLI employee's command (what `run_cli` would run). A bundle is a file anyone
//! could have edited, so neither is trusted just because it was in one.
//!
//! Each row keeps the value as it came in (`provider.imported_base_url`,
//! `employee.imported_cli_command`). While the live value still equals it, the thing is
//! unconfirmed: the gateway sends nothing to that URL and `run_cli` runs nothing. The boss
//! confirms exactly what they were shown ([`ConfirmImported`] carries it), or replaces the
//! value with one of their own, which is theirs from the start.

use cubicle_store::entity::{employee, provider};
use cubicle_store::{Db, DbErr, models as mq, org as oq};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};

/// Where the boss confirms things in the app, said the same way in every refusal.
const WHERE_IN_SETTINGS: &str = "Settings → Export / import";

/// A provider whose base URL came in with a bundle and is still that URL.
pub fn provider_unconfirmed(p: &provider::Model) -> bool {
    p.imported_base_url.as_deref() == Some(p.base_url.as_str())
}

/// An employee whose CLI command came in with a bundle and is still that command.
pub fn cli_unconfirmed(e: &employee::Model) -> bool {
    e.cli_command.is_some() && e.imported_cli_command == e.cli_command
}

/// Why a call to an unconfirmed provider was refused, and what to do.
pub fn provider_refusal(p: &provider::Model) -> String {
    format!(
        "the provider {} ({}) was imported with the company and its base URL {} has not been \
         confirmed on this computer; nothing was sent. Check the URL, then confirm it in \
         {WHERE_IN_SETTINGS} (or Settings → Model providers), or with `cubicle-cli imported \
         confirm provider {}`",
        p.name, p.id, p.base_url, p.id
    )
}

/// Why an unconfirmed CLI command was not run, and what to do.
pub fn cli_refusal(e: &employee::Model) -> String {
    format!(
        "{}'s CLI command was imported with the company and has not been confirmed on this \
         computer; it did not run. The boss checks it, then confirms it in {WHERE_IN_SETTINGS}, \
         or with `cubicle-cli imported confirm cli {}`",
        e.name, e.id
    )
}

/// Marks what a bundle brings in as unconfirmed (called on every import).
pub(crate) fn mark(tables: &mut cubicle_store::bundle::Tables) {
    for p in &mut tables.provider {
        p.imported_base_url = Some(p.base_url.clone());
    }
    for e in &mut tables.employee {
        e.imported_cli_command = e.cli_command.clone();
    }
}

/// A provider whose imported base URL waits for confirmation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportedProvider {
    pub provider_id: String,
    pub name: String,
    pub base_url: String,
}

/// An employee whose imported CLI command waits for confirmation.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportedCliCommand {
    pub employee_id: i32,
    pub employee_name: String,
    pub command: String,
}

/// Everything imported that waits for the boss's confirmation.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportedToConfirm {
    pub providers: Vec<ImportedProvider>,
    pub cli_commands: Vec<ImportedCliCommand>,
}

/// The boss confirms one imported thing, exactly as it was shown to them: if it changed
/// since, nothing is confirmed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(
    tag = "kind",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum ConfirmImported {
    ProviderUrl {
        provider_id: String,
        base_url: String,
    },
    CliCommand {
        employee_id: i32,
        command: String,
    },
}

#[derive(Debug, thiserror::Error)]
pub enum ImportedError {
    #[error("there is no provider {0:?}")]
    ProviderNotFound(String),
    #[error("employee {0} does not exist")]
    EmployeeNotFound(i32),
    #[error(
        "{what} is no longer what you were shown (it is now {now}); nothing was confirmed: \
         look at it again"
    )]
    Changed { what: String, now: String },
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl ImportedError {
    pub fn code(&self) -> ErrorCode {
        match self {
            ImportedError::ProviderNotFound(_) | ImportedError::EmployeeNotFound(_) => {
                ErrorCode::NotFound
            }
            ImportedError::Changed { .. } => ErrorCode::InvalidInput,
            ImportedError::Storage(_) => ErrorCode::Storage,
        }
    }
}

impl From<ImportedError> for IpcError {
    fn from(e: ImportedError) -> Self {
        if let ImportedError::Storage(inner) = &e {
            tracing::error!(error = %inner, "storage error");
        }
        IpcError::new(e.code(), e.to_string())
    }
}

/// The boss's confirmations of what came in with an imported company: the rows it reads
/// and writes, and the bus it tells.
#[derive(Clone)]
pub struct Imported {
    db: Db,
    bus: EventBus,
}

impl Imported {
    pub fn new(db: Db, bus: EventBus) -> Self {
        Self { db, bus }
    }

    /// What came in with an imported company and is not yet confirmed here.
    pub async fn to_confirm(&self) -> Result<ImportedToConfirm, ImportedError> {
        let providers = mq::list_providers(&self.db)
            .await?
            .into_iter()
            .filter(provider_unconfirmed)
            .map(|p| ImportedProvider {
                provider_id: p.id,
                name: p.name,
                base_url: p.base_url,
            })
            .collect();
        let Some(company) = oq::find_company(&self.db).await? else {
            return Ok(ImportedToConfirm {
                providers,
                cli_commands: vec![],
            });
        };
        let cli_commands = oq::list_employees(&self.db, company.id, false)
            .await?
            .into_iter()
            .filter(cli_unconfirmed)
            .map(|e| ImportedCliCommand {
                employee_id: e.id,
                employee_name: e.name,
                command: e.cli_command.unwrap_or_default(),
            })
            .collect();
        Ok(ImportedToConfirm {
            providers,
            cli_commands,
        })
    }

    /// Confirms one imported provider URL or CLI command, only if it is still what the
    /// boss was shown. Confirming something already confirmed changes nothing.
    pub async fn confirm(
        &self,
        input: ConfirmImported,
    ) -> Result<ImportedToConfirm, ImportedError> {
        match input {
            ConfirmImported::ProviderUrl {
                provider_id,
                base_url,
            } => {
                let p = mq::find_provider(&self.db, &provider_id)
                    .await?
                    .ok_or_else(|| ImportedError::ProviderNotFound(provider_id.clone()))?;
                if !mq::confirm_provider_url(&self.db, &provider_id, &base_url).await? {
                    return Err(ImportedError::Changed {
                        what: format!("the base URL of {}", p.name),
                        now: p.base_url,
                    });
                }
                tracing::info!(provider = %provider_id, url = %base_url, "imported provider URL confirmed by the boss");
                self.bus.publish(DomainEvent::ProvidersChanged);
            }
            ConfirmImported::CliCommand {
                employee_id,
                command,
            } => {
                let e = oq::find_employee(&self.db, employee_id)
                    .await?
                    .ok_or(ImportedError::EmployeeNotFound(employee_id))?;
                if !oq::confirm_cli_command(&self.db, employee_id, &command).await? {
                    return Err(ImportedError::Changed {
                        what: format!("{}'s CLI command", e.name),
                        now: e.cli_command.unwrap_or_else(|| "none".into()),
                    });
                }
                tracing::info!(employee_id, "imported CLI command confirmed by the boss");
                self.bus
                    .publish(DomainEvent::EmployeeUpdated { employee_id });
            }
        }
        self.to_confirm().await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_confirmation_names_its_kind_and_what_was_shown() {
        let v = serde_json::to_value(ConfirmImported::CliCommand {
            employee_id: 3,
            command: "codex exec".into(),
        })
        .unwrap();
        assert_eq!(
            v,
            serde_json::json!({"kind": "cli_command", "employeeId": 3, "command": "codex exec"})
        );
        let back: ConfirmImported = serde_json::from_value(serde_json::json!({
            "kind": "provider_url", "providerId": "deepseek", "baseUrl": "https://x"
        }))
        .unwrap();
        assert_eq!(
            back,
            ConfirmImported::ProviderUrl {
                provider_id: "deepseek".into(),
                base_url: "https://x".into()
            }
        );
    }
}
