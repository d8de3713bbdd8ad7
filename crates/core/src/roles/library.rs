//! The company's cards (built-in and the boss's), importing a roster folder with its
//! preview, and exporting the cards back to files of the same shape.
//!
//! A roster is a folder of card files, one per role, divisions as sub-folders (the
//! agency-agents layout). A card's key is its path in the roster without `.md`
//! (`marketing/growth-hacker`), so the same file always lands on the same card and an
//! export puts it back where it came from. An import writes every readable card in one
//! transaction: an error leaves nothing half-imported; a card that does not parse is
//! listed with where and why, and the rest still come in.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use cubicle_store::BeginWrite as _;
use cubicle_store::{ConnectionTrait, DbErr, entity::role_template, org as q};
use sea_orm::ActiveValue::{NotSet, Set};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::card::{CardError, MAX_CARD_BYTES, RoleCard, parse};
use super::roster::{self, Entry, RosterUpload};
use crate::app::AppCore;
use crate::error::{ErrorCode, IpcError};
use crate::types::Archetype;

/// A model route that means "the company's": sub-agent files say `inherit`.
const INHERIT: &str = "inherit";

/// One card of the company's library, as stored and as read.
#[derive(Clone, Debug, PartialEq)]
pub struct LibraryCard {
    pub key: String,
    pub builtin: bool,
    pub text: String,
    pub card: RoleCard,
}

/// A card as the CLI and the UI list it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RoleCardDto {
    pub key: String,
    /// The shipped card, as shipped.
    pub builtin: bool,
    /// A card of this key ships with Cubicle: deleting the boss's edit brings it back.
    pub shipped: bool,
    /// The whole file, header and persona, as written.
    pub text: String,
    pub card: RoleCard,
    /// Tools the card names that Cubicle does not have: shown, never granted.
    pub unknown_tools: Vec<String>,
}

/// A card's tools that Cubicle does not have.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UnknownTools {
    pub key: String,
    pub tools: Vec<String>,
}

/// What an import found (and, unless it was a dry run, did): cards by key.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RoleImport {
    pub new: Vec<String>,
    pub changed: Vec<String>,
    pub unchanged: Vec<String>,
    /// Cards that do not parse: where and why. They are left out; the rest come in.
    pub unreadable: Vec<CardError>,
    /// Markdown files without a card header (a README): not cards, left alone.
    pub skipped: Vec<String>,
    pub unknown_tools: Vec<UnknownTools>,
    /// False for a preview (`dry_run`): nothing was written.
    pub applied: bool,
}

/// Where an export wrote the cards.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RoleExport {
    pub dir: String,
    pub files: Vec<String>,
}

/// What a hire takes from its card.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct HireDefaults {
    pub archetype: Option<Archetype>,
    pub skills: Vec<String>,
    /// Only the tools Cubicle has; the others are never granted.
    pub tools: Vec<String>,
    pub persona: Option<String>,
    pub temperature: Option<f64>,
    pub max_retries: Option<u32>,
    /// `(provider, model)` when the card names a provider this company has.
    pub backend: Option<(String, String)>,
}

/// The card's tools split into those Cubicle has and those it does not.
pub fn split_tools(tools: &[String]) -> (Vec<String>, Vec<String>) {
    let known: Vec<String> = crate::tools::catalogue()
        .into_iter()
        .map(|t| t.name)
        .collect();
    tools.iter().cloned().partition(|t| known.contains(t))
}

/// Every card of the company, built-in first, in the order they came.
pub async fn library(conn: &impl ConnectionTrait) -> Result<Vec<LibraryCard>, DbErr> {
    Ok(q::list_role_templates(conn)
        .await?
        .into_iter()
        .filter_map(|row| match parse(&format!("{}.md", row.key), &row.card) {
            Ok(card) => Some(LibraryCard {
                key: row.key,
                builtin: row.builtin,
                text: row.card,
                card,
            }),
            Err(e) => {
                // Only cards that parsed are stored; this is a row from before cards.
                tracing::warn!(error = %e, "a stored role card does not parse");
                None
            }
        })
        .collect())
}

/// The card a hire of `title` starts from: the card `role_key` names, else the one whose
/// name (English or Chinese) or key is the title.
pub async fn hire_defaults(
    conn: &impl ConnectionTrait,
    role_key: Option<&str>,
    title: &str,
) -> Result<Option<HireDefaults>, DbErr> {
    let cards = library(conn).await?;
    let found = match role_key {
        Some(key) => cards.iter().find(|c| c.key == key),
        None => super::fit::by_title(&cards, title),
    };
    let Some(c) = found else { return Ok(None) };
    let backend = match model_route(c.card.model.as_deref()) {
        Some((provider, model)) if provider_exists(conn, &provider).await? => {
            Some((provider, model))
        }
        _ => None,
    };
    // Skills as the company speaks: a Chinese company's hire lists them in Chinese.
    let lang = cubicle_store::org::find_company(conn)
        .await?
        .map_or(crate::types::Language::En, |co| co.language);
    Ok(Some(HireDefaults {
        archetype: c.card.archetype,
        skills: c.card.skills_in(lang).to_vec(),
        tools: split_tools(&c.card.tools).0,
        persona: Some(c.card.persona.clone()).filter(|p| !p.is_empty()),
        temperature: c.card.temperature,
        max_retries: c.card.max_retries,
        backend,
    }))
}

/// `provider/model` → `(provider, model)`; `inherit`, a bare model name (`sonnet`) or
/// nothing → the company's route.
pub fn model_route(model: Option<&str>) -> Option<(String, String)> {
    let m = model?.trim();
    if m.is_empty() || m == INHERIT {
        return None;
    }
    let (provider, model) = m.split_once('/')?;
    Some((provider.trim().to_owned(), model.trim().to_owned()))
}

async fn provider_exists(conn: &impl ConnectionTrait, id: &str) -> Result<bool, DbErr> {
    Ok(id == crate::gateway::BUILTIN
        || cubicle_store::models::find_provider(conn, id)
            .await?
            .is_some())
}

/// A card of this key ships with the app.
pub(super) fn is_shipped(key: &str) -> bool {
    super::CATALOGUE.iter().any(|r| r.key == key)
}

/// Sets a row's columns from its card.
pub(super) fn fill(
    am: &mut role_template::ActiveModel,
    card: &RoleCard,
    text: &str,
    builtin: bool,
) {
    am.title = Set(card.name.clone());
    am.title_zh = Set(card.name_zh.clone().unwrap_or_else(|| card.name.clone()));
    am.archetype = Set(card.archetype.unwrap_or(super::FALLBACK_ARCHETYPE));
    am.skills = Set(serde_json::json!(card.skills));
    am.tools = Set(serde_json::json!(card.tools));
    am.description = Set(card.description.clone());
    am.card = Set(text.to_owned());
    am.builtin = Set(builtin);
}

/// The boss's own cards (not the shipped ones), as written: what a company bundle
/// carries of the card library.
pub(crate) async fn own_cards(conn: &impl ConnectionTrait) -> Result<Vec<(String, String)>, DbErr> {
    Ok(q::list_role_templates(conn)
        .await?
        .into_iter()
        .filter(|r| !r.builtin)
        .map(|r| (r.key, r.card))
        .collect())
}

/// Writes `cards` (key, text) as the boss's own, each replacing a card of the same key;
/// the first that does not parse stops it with why (the caller's transaction rolls back).
pub(crate) async fn put_own_cards(
    conn: &impl ConnectionTrait,
    cards: &[(String, String)],
) -> Result<Result<(), CardError>, DbErr> {
    for (key, text) in cards {
        // A bundle is a file anyone could have edited: a key becomes a path on export.
        if path_of(key).is_none() {
            return Ok(Err(CardError {
                file: key.clone(),
                line: 0,
                key: None,
                reason: "not a card key (words and folders, like marketing/growth-hacker)".into(),
            }));
        }
        let card = match parse(&format!("{key}.md"), text) {
            Ok(card) => card,
            Err(e) => return Ok(Err(e)),
        };
        let mut am = match q::find_role_template(conn, key).await? {
            Some(row) => row.into(),
            None => role_template::ActiveModel {
                id: NotSet,
                key: Set(key.clone()),
                ..Default::default()
            },
        };
        fill(&mut am, &card, text, false);
        match am.id {
            sea_orm::ActiveValue::Unchanged(_) => q::update_role_template(conn, am).await?,
            _ => q::insert_role_template(conn, am).await?,
        };
    }
    Ok(Ok(()))
}

/// A card file read from a roster: its key, and its text and card or why not.
type Read = (String, Result<(String, RoleCard), CardError>);

/// The cards of a roster (see `roster`): each parsed, or why not; Markdown files without
/// a card header (a README) are set aside as not cards.
fn read_cards(entries: Vec<Entry>) -> (Vec<Read>, Vec<String>) {
    let mut cards = Vec::new();
    let mut skipped = Vec::new();
    for (key, bytes) in entries {
        let file = format!("{key}.md");
        if bytes.len() > MAX_CARD_BYTES {
            let reason = format!("larger than {} KB", MAX_CARD_BYTES / 1024);
            cards.push((key, Err(CardError::whole_file(file, reason))));
            continue;
        }
        let Ok(text) = String::from_utf8(bytes) else {
            let reason = "not UTF-8 text".to_owned();
            cards.push((key, Err(CardError::whole_file(file, reason))));
            continue;
        };
        if !text.trim_start_matches('\u{feff}').starts_with("---") {
            skipped.push(file);
            continue;
        }
        let parsed = parse(&file, &text).map(|card| (text, card));
        cards.push((key, parsed));
    }
    (cards, skipped)
}

/// A stored key as a relative path, refusing anything that could leave the export folder.
pub(super) fn path_of(key: &str) -> Option<PathBuf> {
    let ok = !key.is_empty()
        && !key.contains('\\')
        && key
            .split('/')
            .all(|p| !p.is_empty() && p != "." && p != ".." && !p.contains(':'));
    ok.then(|| PathBuf::from(format!("{key}.md")))
}

/// Sorts what was read against the library: new, changed, unchanged, unreadable.
fn preview(
    read: Vec<Read>,
    skipped: Vec<String>,
    have: &HashMap<String, String>,
) -> (RoleImport, Vec<(String, String, RoleCard)>) {
    let mut report = RoleImport {
        skipped,
        ..RoleImport::default()
    };
    let mut writes = Vec::new();
    for (key, parsed) in read {
        let (text, card) = match parsed {
            Ok(ok) => ok,
            Err(e) => {
                report.unreadable.push(e);
                continue;
            }
        };
        let unknown = split_tools(&card.tools).1;
        if !unknown.is_empty() {
            report.unknown_tools.push(UnknownTools {
                key: key.clone(),
                tools: unknown,
            });
        }
        match have.get(&key) {
            Some(old) if *old == text => report.unchanged.push(key),
            Some(_) => {
                report.changed.push(key.clone());
                writes.push((key, text, card));
            }
            None => {
                report.new.push(key.clone());
                writes.push((key, text, card));
            }
        }
    }
    (report, writes)
}

#[derive(Debug, thiserror::Error)]
pub enum RolesError {
    #[error("no role card {0}")]
    NotFound(String),
    #[error("{0}")]
    Io(String),
    #[error("{0}")]
    InvalidInput(String),
    #[error("storage: {0}")]
    Storage(#[from] DbErr),
}

impl From<RolesError> for IpcError {
    fn from(e: RolesError) -> Self {
        let code = match &e {
            RolesError::NotFound(_) => ErrorCode::NotFound,
            RolesError::Io(_) | RolesError::InvalidInput(_) => ErrorCode::InvalidInput,
            RolesError::Storage(inner) => {
                tracing::error!(error = %inner, "storage error");
                ErrorCode::Storage
            }
        };
        IpcError::new(code, e.to_string())
    }
}

impl AppCore {
    /// Every role card of the company: the built-in ones, then the boss's.
    pub async fn role_cards(&self) -> Result<Vec<RoleCardDto>, RolesError> {
        Ok(library(&self.db)
            .await?
            .into_iter()
            .map(|c| RoleCardDto {
                unknown_tools: split_tools(&c.card.tools).1,
                shipped: is_shipped(&c.key),
                key: c.key,
                builtin: c.builtin,
                text: c.text,
                card: c.card,
            })
            .collect())
    }

    /// Imports the roster at `path`: a folder, an archive of one (zip, tar, tar.gz) or one
    /// card file (or only says what it would do, `dry_run`).
    pub async fn import_roles(&self, path: &Path, dry_run: bool) -> Result<RoleImport, RolesError> {
        if !path.exists() {
            return Err(RolesError::InvalidInput(format!(
                "{} does not exist: give a roster folder, an archive of one, or a card file",
                path.display()
            )));
        }
        let owned = path.to_owned();
        let entries = tokio::task::spawn_blocking(move || roster::read_path(&owned))
            .await
            .map_err(|e| RolesError::Io(e.to_string()))??;
        self.import_entries(entries, dry_run).await
    }

    /// Imports the files the boss picked in the app: archives of cards or card files.
    pub async fn import_roster_upload(
        &self,
        upload: RosterUpload,
        dry_run: bool,
    ) -> Result<RoleImport, RolesError> {
        let entries = tokio::task::spawn_blocking(move || roster::read_files(upload.decode()?))
            .await
            .map_err(|e| RolesError::Io(e.to_string()))??;
        self.import_entries(entries, dry_run).await
    }

    /// Sorts the roster's cards against the library and, unless `dry_run`, writes every
    /// new or changed readable card in one transaction.
    async fn import_entries(
        &self,
        entries: Vec<Entry>,
        dry_run: bool,
    ) -> Result<RoleImport, RolesError> {
        let (read, skipped) = read_cards(entries);
        let txn = self.db.begin_write().await?;
        let rows = q::list_role_templates(&txn).await?;
        let have: HashMap<String, String> = rows
            .iter()
            .map(|r| (r.key.clone(), r.card.clone()))
            .collect();
        let (mut report, writes) = preview(read, skipped, &have);
        if dry_run {
            return Ok(report);
        }
        for (key, text, card) in writes {
            match rows.iter().find(|r| r.key == key) {
                Some(row) => {
                    let mut am: role_template::ActiveModel = row.clone().into();
                    fill(&mut am, &card, &text, false);
                    q::update_role_template(&txn, am).await?;
                }
                None => {
                    let mut am = role_template::ActiveModel {
                        id: NotSet,
                        key: Set(key),
                        ..Default::default()
                    };
                    fill(&mut am, &card, &text, false);
                    q::insert_role_template(&txn, am).await?;
                }
            }
        }
        txn.commit().await?;
        report.applied = true;
        Ok(report)
    }

    /// Writes every card to `dir` as a roster of the same shape (one file per card, at
    /// its key's path). `dir` must not exist or be empty; the files are written into a
    /// staging folder beside it first, which becomes `dir` only when all are written.
    pub async fn export_roles(&self, dir: &Path) -> Result<RoleExport, RolesError> {
        let cards = library(&self.db).await?;
        let dir = dir.to_owned();
        tokio::task::spawn_blocking(move || write_roster(&dir, &cards))
            .await
            .map_err(|e| RolesError::Io(e.to_string()))?
    }
}

fn write_roster(dir: &Path, cards: &[LibraryCard]) -> Result<RoleExport, RolesError> {
    let io = |p: &Path, e: std::io::Error| RolesError::Io(format!("{}: {e}", p.display()));
    if dir.exists() {
        let mut entries = std::fs::read_dir(dir).map_err(|e| io(dir, e))?;
        if entries.next().is_some() {
            return Err(RolesError::InvalidInput(format!(
                "{} is not empty: export into a new folder",
                dir.display()
            )));
        }
    }
    let name = dir
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "roles".into());
    let staging = dir.with_file_name(format!(".{name}.partial-{}", std::process::id()));
    let written = write_files(&staging, cards);
    let files = match written {
        Ok(files) => files,
        Err(e) => {
            let _ = std::fs::remove_dir_all(&staging);
            return Err(e);
        }
    };
    if dir.exists() {
        std::fs::remove_dir(dir).map_err(|e| io(dir, e))?;
    }
    std::fs::rename(&staging, dir).map_err(|e| io(dir, e))?;
    Ok(RoleExport {
        dir: dir.display().to_string(),
        files,
    })
}

fn write_files(root: &Path, cards: &[LibraryCard]) -> Result<Vec<String>, RolesError> {
    let io = |p: &Path, e: std::io::Error| RolesError::Io(format!("{}: {e}", p.display()));
    std::fs::create_dir_all(root).map_err(|e| io(root, e))?;
    let mut files = Vec::new();
    for c in cards {
        let Some(rel) = path_of(&c.key) else {
            return Err(RolesError::InvalidInput(format!(
                "the card key {:?} is not a file path",
                c.key
            )));
        };
        let path = root.join(&rel);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent).map_err(|e| io(parent, e))?;
        }
        std::fs::write(&path, &c.text).map_err(|e| io(&path, e))?;
        files.push(format!("{}.md", c.key));
    }
    Ok(files)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_routes_read_provider_and_model_or_fall_back_to_the_company() {
        assert_eq!(
            model_route(Some("deepseek/deepseek-chat")),
            Some(("deepseek".into(), "deepseek-chat".into()))
        );
        assert_eq!(model_route(Some("inherit")), None);
        assert_eq!(model_route(Some("sonnet")), None);
        assert_eq!(model_route(None), None);
    }

    #[test]
    fn export_paths_never_leave_the_folder() {
        assert_eq!(
            path_of("marketing/growth-hacker"),
            Some(PathBuf::from("marketing/growth-hacker.md"))
        );
        for bad in ["../x", "a//b", "/abs", "a\\b", "", "c:/x"] {
            assert_eq!(path_of(bad), None, "{bad}");
        }
    }
}
