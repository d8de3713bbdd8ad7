//! Stable error codes: what the UI and the CLI branch on.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ErrorCode {
    NotFound,
    DuplicateName,
    DepartmentCycle,
    InvalidManager,
    DepartmentNotEmpty,
    InvalidInput,
    AlreadyFired,
    CompanyMissing,
    CompanyExists,
    SecretUnavailable,
    BudgetExceeded,
    BreakerOpen,
    ProviderError,
    MissingKey,
    Storage,
    Internal,
    /// The approval was decided the other way already.
    AlreadyDecided,
    /// The approval expired; it can no longer be approved.
    ApprovalExpired,
    /// The approval's action is not what the deciding screen showed, or no longer
    /// matches its seal: nothing ran.
    ApprovalChanged,
    /// A tool ran and failed (a time-out, a file error, a webhook's answer).
    ToolFailed,
    /// An import needs an empty database and this one holds data.
    DatabaseNotEmpty,
    /// The file is not a company bundle, or its rows do not fit together.
    BundleInvalid,
    /// The bundle was written by a newer Cubicle.
    BundleTooNew,
    /// Not enough free disk space for a download (the message has the figures).
    DiskFull,
    /// A downloaded file is not the one the catalogue pins; it was deleted.
    ChecksumMismatch,
    /// A download failed over the network (status, drop, stall); it can be resumed.
    DownloadFailed,
    /// The boss cancelled it.
    Cancelled,
    /// It came in with an imported company and waits for the boss to confirm it on this
    /// computer (a provider's base URL, a CLI command); the message says where.
    NotConfirmed,
    /// The approval is routed to another person: only they (or the boss) decide it.
    NotYourDecision,
    /// A company-server sign-in did not open the company (the server's answer says why:
    /// a wrong password, a login the boss removed, a server that cannot be reached).
    SignInRefused,
}

/// The serde name (`not_found`): what the UI and the CLI branch on.
impl std::fmt::Display for ErrorCode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&crate::types::name_of(self))
    }
}

/// What crosses IPC when a command fails: `{code, message}`, never a bare string.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct IpcError {
    pub code: ErrorCode,
    pub message: String,
}

impl IpcError {
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Self {
        Self {
            code,
            message: message.into(),
        }
    }
}

impl std::fmt::Display for IpcError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.code, self.message)
    }
}

impl std::error::Error for IpcError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// The codes the UI (`ui/src/ipc/errors.ts`) and scripts branch on, as they were when
    /// each was spelled by hand: one per variant, in declaration order.
    #[test]
    fn codes_read_as_they_always_have() {
        let all = [
            (ErrorCode::NotFound, "not_found"),
            (ErrorCode::DuplicateName, "duplicate_name"),
            (ErrorCode::DepartmentCycle, "department_cycle"),
            (ErrorCode::InvalidManager, "invalid_manager"),
            (ErrorCode::DepartmentNotEmpty, "department_not_empty"),
            (ErrorCode::InvalidInput, "invalid_input"),
            (ErrorCode::AlreadyFired, "already_fired"),
            (ErrorCode::CompanyMissing, "company_missing"),
            (ErrorCode::CompanyExists, "company_exists"),
            (ErrorCode::SecretUnavailable, "secret_unavailable"),
            (ErrorCode::BudgetExceeded, "budget_exceeded"),
            (ErrorCode::BreakerOpen, "breaker_open"),
            (ErrorCode::ProviderError, "provider_error"),
            (ErrorCode::MissingKey, "missing_key"),
            (ErrorCode::Storage, "storage"),
            (ErrorCode::Internal, "internal"),
            (ErrorCode::AlreadyDecided, "already_decided"),
            (ErrorCode::ApprovalExpired, "approval_expired"),
            (ErrorCode::ApprovalChanged, "approval_changed"),
            (ErrorCode::ToolFailed, "tool_failed"),
            (ErrorCode::DatabaseNotEmpty, "database_not_empty"),
            (ErrorCode::BundleInvalid, "bundle_invalid"),
            (ErrorCode::BundleTooNew, "bundle_too_new"),
            (ErrorCode::DiskFull, "disk_full"),
            (ErrorCode::ChecksumMismatch, "checksum_mismatch"),
            (ErrorCode::DownloadFailed, "download_failed"),
            (ErrorCode::Cancelled, "cancelled"),
            (ErrorCode::NotConfirmed, "not_confirmed"),
            (ErrorCode::NotYourDecision, "not_your_decision"),
            (ErrorCode::SignInRefused, "sign_in_refused"),
        ];
        for (code, name) in all {
            assert_eq!(code.to_string(), name);
            assert_eq!(serde_json::to_value(code).unwrap(), name);
        }
        // Every variant is listed: the TypeScript union has as many names.
        let union = ErrorCode::inline(&ts_rs::Config::default());
        assert_eq!(union.split(" | ").count(), all.len(), "{union}");
        assert_eq!(
            IpcError::new(ErrorCode::NotFound, "no such employee").to_string(),
            "not_found: no such employee"
        );
    }
}
