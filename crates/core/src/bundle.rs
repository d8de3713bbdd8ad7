//! Company bundles: the whole company as one JSON document, to back it up or to move it
//! to another computer or database (`cubicle-cli export` / `import`, Settings and the
//! first-run screen in the app).
//!
//! What a bundle holds is every row of every company table (see
//! [`cubicle_store::bundle`] for the few tables left out and why), ids kept, so every
//! link survives: a task's parent and trace, a chat's members, a memory's department.
//! API keys are never in it: they live in the OS keychain (or the environment), never in
//! the database the bundle is read from.
//!
//! Rules:
//! - Import only into an empty database (no row in any bundled table), in one
//!   transaction: it all goes in or nothing does.
//! - `schemaVersion` says which shape the tables have. A bundle from a newer Cubicle is
//!   refused with [`ErrorCode::BundleTooNew`] before anything else is read. Unknown fields
//!   are refused too (a field this version does not know would otherwise be dropped
//!   silently): bump [`SCHEMA_VERSION`] whenever a bundled table gains a column, and give
//!   the new field `#[serde(default)]` so older bundles still load.

use chrono::{DateTime, Utc};
use cubicle_store::BeginWrite as _;
use cubicle_store::bundle::{self as store, Tables};
use cubicle_store::{DbErr, TransactionTrait};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::AppCore;
use crate::error::{ErrorCode, IpcError};
use crate::events::DomainEvent;

/// The shape of the tables in this version of Cubicle's bundles. 2: `task.report_due_at`
/// (a report still owed) and `approval.run_started_at` (an approved action's run began).
/// 3: `cost_ledger.cached_tokens` (input served from the provider's prompt cache).
/// 4: `employee.network_access` (whether the employee's sandbox has the network).
/// 5: `employee_state` without `last_interest` / `last_saturation` (a thought's mood is on
/// the thought's own row); older bundles are read with those two fields dropped.
/// 6: `person` and `person_duty` (the company's people and what each answers for; older
/// bundles have nobody besides the boss), and `approval.approver_id` / `decided_by`.
/// 7: each person's proxy — `proxy_line` (their conversation), `chat_person` (the people
/// in a chat between people), `chat_message.sender_person_id` / `corrects_id`; a task an
/// employee gave itself is `created_by: own` (it was `self`).
/// 8: `roleCards`, the boss's own role cards as written (hires carry their persona
/// already; the cards are what the next hire is made from). Older bundles have none.
/// 9: `approval.decision_seal` (a decision sealed with the approval key of the company that
/// made it; never runnable here, see [`distrust`]). Older bundles have none.
/// 10: `task.needs_review` (why a resolved task's deliverable waits for the boss's review).
/// Older bundles have none.
pub const SCHEMA_VERSION: u32 = 10;
/// The `format` field: tells a bundle from any other JSON document.
/// The row types a bundle's tables hold, for readers of an exported snapshot (the
/// bench's reports read the whole company this way, through core).
pub mod entity {
    pub use cubicle_store::entity::*;
}

pub const FORMAT: &str = "cubicle-company-bundle";

mod file;
pub mod scrub;
pub use file::{SavedBundle, write_file};

/// One company, whole.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct Bundle {
    pub format: String,
    pub schema_version: u32,
    pub exported_at: DateTime<Utc>,
    /// The Cubicle version that wrote it (for people reading the file; not checked).
    pub app_version: String,
    /// Every row of every bundled table, by table name, ids kept.
    pub tables: Tables,
    /// The boss's own role cards (imported or edited; the shipped catalogue is not
    /// carried), each as its key and its file's text.
    #[serde(default)]
    pub role_cards: Vec<BundledCard>,
}

/// One role card in a bundle: its key (its path in a roster) and the file as written.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct BundledCard {
    pub key: String,
    pub text: String,
}

/// What an import brought in.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    pub company_name: String,
    /// Everyone in the bundle, including former employees.
    pub employees: u32,
    /// Rows written, all tables together.
    pub rows: u32,
}

#[derive(Debug, thiserror::Error)]
pub enum BundleError {
    #[error(
        "the database is not empty ({0}); a bundle is imported only into an empty database: \
         use a new database file (cubicle-cli --db …) or a fresh data folder"
    )]
    NotEmpty(String),
    #[error("this is not a Cubicle company bundle: {0}")]
    Malformed(String),
    #[error(
        "this bundle was written by a newer Cubicle (schema version {found}; this version reads \
         up to {supported}): update Cubicle to import it"
    )]
    TooNew { found: u32, supported: u32 },
    #[error("the bundle's rows do not fit together ({0}); nothing was imported")]
    Rejected(String),
    #[error(
        "this bundle is {mb} MB; Cubicle imports bundles of up to {max_mb} MB (a company's \
         whole history is far smaller): it is not a bundle Cubicle wrote"
    )]
    TooLarge { mb: u64, max_mb: u64 },
    #[error("{0}")]
    BadFileName(String),
    #[error("the bundle could not be saved: {0}")]
    Write(String),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl BundleError {
    pub fn code(&self) -> ErrorCode {
        match self {
            BundleError::NotEmpty(_) => ErrorCode::DatabaseNotEmpty,
            BundleError::Malformed(_) | BundleError::Rejected(_) | BundleError::TooLarge { .. } => {
                ErrorCode::BundleInvalid
            }
            BundleError::TooNew { .. } => ErrorCode::BundleTooNew,
            BundleError::BadFileName(_) => ErrorCode::InvalidInput,
            BundleError::Write(_) => ErrorCode::Internal,
            BundleError::Storage(_) => ErrorCode::Storage,
        }
    }
}

impl From<BundleError> for IpcError {
    fn from(e: BundleError) -> Self {
        if let BundleError::Storage(inner) = &e {
            tracing::error!(error = %inner, "storage error during a bundle export or import");
        }
        IpcError::new(e.code(), e.to_string())
    }
}

/// Reads the whole company in one transaction, so the bundle is one consistent moment.
pub async fn export(core: &AppCore) -> Result<Bundle, BundleError> {
    // Read only: a snapshot needs no write lock.
    #[allow(clippy::disallowed_methods)]
    let txn = core.db.begin().await?;
    let mut tables = store::read_all(&txn).await?;
    let role_cards = crate::roles::own_cards(&txn)
        .await?
        .into_iter()
        .map(|(key, text)| BundledCard { key, text })
        .collect();
    txn.commit().await?;
    redact_webhook_urls(&mut tables);
    scrub_tool_data(&mut tables, &core.providers.held_keys().await?);
    // Where this computer files the company's keys is this computer's business; an
    // import draws its own.
    for c in &mut tables.company {
        c.secret_scope = None;
    }
    Ok(Bundle {
        format: FORMAT.to_owned(),
        schema_version: SCHEMA_VERSION,
        exported_at: core.clock.now(),
        app_version: env!("CARGO_PKG_VERSION").to_owned(),
        tables,
        role_cards,
    })
}

/// A webhook URL is a bearer secret (Slack's and Feishu's carry their token in the
/// path): a bundle keeps only where it went. An approval imported with a redacted URL no
/// longer matches its hash, so it can never run.
fn redact_webhook_urls(tables: &mut Tables) {
    let redact = |tool: &str, args: &mut serde_json::Value| {
        if *tool != <crate::tools::PostWebhook as crate::tools::Tool>::NAME {
            return;
        }
        if let Some(url) = args.get_mut("url")
            && let Some(text) = url.as_str()
        {
            *url = serde_json::Value::String(crate::tools::webhook::redacted_url(text));
        }
    };
    for a in &mut tables.approval {
        redact(&a.tool, &mut a.args);
    }
    for t in &mut tables.tool_call {
        redact(&t.tool, &mut t.args);
    }
}

/// Cuts credentials out of what tools were given and what they returned (see [`scrub`]).
fn scrub_tool_data(tables: &mut Tables, known: &[String]) {
    for a in &mut tables.approval {
        scrub::scrub_json(&mut a.args, known);
        if let Some(r) = a.result.as_mut() {
            scrub::scrub_json(r, known);
        }
        a.error = a.error.as_deref().map(|e| scrub::scrub(e, known));
    }
    for t in &mut tables.tool_call {
        scrub::scrub_json(&mut t.args, known);
        t.output = t.output.as_deref().map(|o| scrub::scrub(o, known));
    }
}

/// The bundle as the JSON document users keep (indented: people do open these files).
pub fn to_json(bundle: &Bundle) -> Result<String, BundleError> {
    serde_json::to_string_pretty(bundle)
        .map_err(|e| BundleError::Malformed(format!("could not write JSON: {e}")))
}

/// The largest bundle imported: a file anyone could have written must not exhaust memory.
pub const MAX_BUNDLE_BYTES: usize = 256 << 20;

/// Refuses a bundle of `len` bytes past [`MAX_BUNDLE_BYTES`] (callers with a file check
/// before reading it).
pub fn check_size(len: u64) -> Result<(), BundleError> {
    let max = MAX_BUNDLE_BYTES as u64;
    if len > max {
        return Err(BundleError::TooLarge {
            mb: len.div_ceil(1 << 20),
            max_mb: max >> 20,
        });
    }
    Ok(())
}

/// Reads a bundle, checking what it is and its version before its tables, so a newer
/// bundle gets "update Cubicle" rather than a complaint about a field.
pub fn parse(json: &str) -> Result<Bundle, BundleError> {
    check_size(json.len() as u64)?;
    let value: serde_json::Value = serde_json::from_str(json)
        .map_err(|e| BundleError::Malformed(format!("not valid JSON ({e})")))?;
    let Some(obj) = value.as_object() else {
        return Err(BundleError::Malformed(
            "the document is not a JSON object".into(),
        ));
    };
    if obj.get("format").and_then(|f| f.as_str()) != Some(FORMAT) {
        return Err(BundleError::Malformed(format!(
            "\"format\" is not \"{FORMAT}\""
        )));
    }
    let version = obj
        .get("schemaVersion")
        .and_then(|v| v.as_u64())
        .ok_or_else(|| BundleError::Malformed("no \"schemaVersion\" number".into()))?;
    let version = u32::try_from(version).unwrap_or(u32::MAX);
    check_version(version)?;
    let mut value = value;
    upgrade(&mut value, version);
    serde_json::from_value(value).map_err(|e| BundleError::Malformed(e.to_string()))
}

/// Brings an older bundle's tables to this version's shape, where a column was dropped
/// since (an added one needs nothing: its field has a default), or a table was added
/// (empty in a bundle from before it).
fn upgrade(bundle: &mut serde_json::Value, version: u32) {
    if version < 7
        && let Some(tables) = bundle
            .pointer_mut("/tables")
            .and_then(|v| v.as_object_mut())
    {
        for table in ["chat_person", "proxy_line"] {
            tables.entry(table).or_insert_with(|| serde_json::json!([]));
        }
        // A task an employee gave itself was `self`; it is `own` now.
        for row in tables
            .get_mut("task")
            .and_then(|t| t.as_array_mut())
            .into_iter()
            .flatten()
        {
            if row.get("created_by").and_then(|v| v.as_str()) == Some("self") {
                row["created_by"] = serde_json::json!("own");
            }
        }
    }
    if version < 6
        && let Some(tables) = bundle
            .pointer_mut("/tables")
            .and_then(|v| v.as_object_mut())
    {
        for table in ["person", "person_duty"] {
            tables.entry(table).or_insert_with(|| serde_json::json!([]));
        }
    }
    if version < 5
        && let Some(rows) = bundle
            .pointer_mut("/tables/employee_state")
            .and_then(|v| v.as_array_mut())
    {
        for row in rows.iter_mut().filter_map(|r| r.as_object_mut()) {
            row.remove("last_interest");
            row.remove("last_saturation");
        }
    }
}

fn check_version(found: u32) -> Result<(), BundleError> {
    if found > SCHEMA_VERSION {
        return Err(BundleError::TooNew {
            found,
            supported: SCHEMA_VERSION,
        });
    }
    if found == 0 {
        return Err(BundleError::Malformed(
            "schemaVersion 0 does not exist".into(),
        ));
    }
    Ok(())
}

/// Imports `bundle` into this (empty) database: everything in one transaction, ids kept.
pub async fn import(core: &AppCore, bundle: Bundle) -> Result<ImportReport, BundleError> {
    check_version(bundle.schema_version)?;
    let [company] = bundle.tables.company.as_slice() else {
        return Err(BundleError::Malformed(format!(
            "a bundle holds exactly one company, this one {}",
            bundle.tables.company.len()
        )));
    };
    let report = ImportReport {
        company_name: company.name.clone(),
        employees: count(bundle.tables.employee.len()),
        rows: count(bundle.tables.row_count()),
    };
    let company_id = company.id;
    let txn = core.db.begin_write().await?;
    let filled: Vec<String> = store::counts(&txn)
        .await?
        .into_iter()
        .filter(|(_, n)| *n > 0)
        .map(|(table, n)| format!("{table}: {n}"))
        .collect();
    if !filled.is_empty() {
        return Err(BundleError::NotEmpty(filled.join(", ")));
    }
    // A bundle is a file anyone could have edited: network access for an employee's
    // sandbox is the boss's decision on this computer, so it comes in off.
    let mut tables = bundle.tables;
    distrust(&mut tables);
    // Any error below drops `txn`, which rolls every row back.
    store::write_all(&txn, tables)
        .await
        .map_err(|e| BundleError::Rejected(e.to_string()))?;
    let cards: Vec<(String, String)> = bundle
        .role_cards
        .into_iter()
        .map(|c| (c.key, c.text))
        .collect();
    if let Err(e) = crate::roles::put_own_cards(&txn, &cards).await? {
        return Err(BundleError::Rejected(format!(
            "the role card {} cannot be read: {}",
            e.file, e.reason
        )));
    }
    txn.commit().await?;
    // The rows still waiting carry the exporting company's seals; they are sealed here,
    // with this company's key, for the boss to decide on what this computer shows.
    if let Err(e) = core.approvals.reseal_waiting().await {
        tracing::warn!(error = %e, "imported approvals could not be sealed; they cannot be approved, only rejected");
    }
    tracing::info!(
        company = %report.company_name,
        rows = report.rows,
        "company bundle imported"
    );
    core.bus.publish(DomainEvent::CompanyUpdated { company_id });
    Ok(report)
}

/// A bundle is a file anyone could have edited, so nothing in it acts on this computer
/// until the boss says so here: network access for an employee's sandbox comes in off,
/// every approval policy looser than `key_steps` goes back to it (`manual` stays), an
/// action approved but never started comes in expired, and providers' base URLs and CLI
/// commands wait for the boss's confirmation ([`crate::imported`]). One still waiting keeps waiting:
/// the boss sees what it would do and decides it here.
fn distrust(tables: &mut Tables) {
    let manual = crate::types::ApprovalPolicy::Manual;
    for e in &mut tables.employee {
        e.network_access = false;
        // Stricter than the company's stays; anything looser goes.
        if e.approval_policy != Some(manual) {
            e.approval_policy = None;
        }
    }
    for c in &mut tables.company {
        // Never the bundle's: that name could be another company's on this computer,
        // whose keys it would then read. Drawn here, not left empty: an empty scope
        // means a database from before scopes, whose old entries get moved into it.
        c.secret_scope = Some(crate::secrets::draw_scope());
        if c.approval_policy != manual {
            c.approval_policy = crate::types::ApprovalPolicy::KeySteps;
        }
    }
    for p in &mut tables.person {
        if p.approval_policy != manual {
            p.approval_policy = crate::types::ApprovalPolicy::KeySteps;
        }
    }
    // Its decision seal stays as a record (it was made with another key, or for what the
    // row said before): nothing approved comes in runnable, whatever it carries.
    for a in &mut tables.approval {
        if a.status == crate::approvals::ApprovalStatus::Approved && a.run_started_at.is_none() {
            a.status = crate::approvals::ApprovalStatus::Expired;
        }
    }
    // Where prompts go and what `run_cli` runs wait for the boss to confirm them here.
    crate::imported::mark(tables);
}

fn count(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}
