//! Well-known instruct GGUFs that run on a laptop CPU (0.5B–8B), as data: the bundled
//! `catalogue.json`. Each entry pins one file by size and SHA-256, and its `source` says
//! where those figures were found published; the download manager refuses any other
//! bytes. RAM figures are the file plus a working context (about 1–2 GB), rounded up.
//!
//! `CUBICLE_MODEL_CATALOGUE` may name a JSON file of more entries in the same shape (an
//! internal mirror, a model of one's own); an entry with a bundled id replaces it.

use std::path::Path;

use serde::{Deserialize, Serialize};

/// Environment variable naming an extra catalogue file.
pub const CATALOGUE_ENV: &str = "CUBICLE_MODEL_CATALOGUE";

const BUNDLED: &str = include_str!("catalogue.json");

/// One downloadable model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CatalogueEntry {
    /// Stable id used by the CLI, the UI and the wizard.
    pub id: String,
    pub name: String,
    /// Parameter count as the publisher states it.
    pub params: String,
    pub quantization: String,
    pub file_name: String,
    pub url: String,
    pub size_bytes: u64,
    /// Lower-case hex.
    pub sha256: String,
    pub ram_bytes: u64,
    /// ISO 639-1 codes of the languages the publisher lists as supported.
    pub languages: Vec<String>,
    /// Writes readable Chinese (the first-run recommendation for zh-CN companies).
    pub writes_chinese: bool,
    pub licence: String,
    pub licence_url: String,
    /// Where the size and the hash were found.
    pub source: String,
}

/// The model the first run suggests to a company writing in Chinese: the smallest
/// catalogue model that writes it well and still runs on a modest laptop.
pub const RECOMMENDED_FOR_ZH: &str = "qwen2.5-1.5b-instruct-q4_k_m";

#[derive(Debug, thiserror::Error)]
pub enum CatalogueError {
    #[error("cannot read the model catalogue {path}: {message}")]
    Read { path: String, message: String },
    #[error("model catalogue entry {id:?}: {problem}")]
    Invalid { id: String, problem: String },
}

/// The bundled entries (checked by a unit test, so this cannot fail in a release).
pub fn bundled() -> Vec<CatalogueEntry> {
    match parse(BUNDLED, "catalogue.json") {
        Ok(entries) => entries,
        Err(e) => {
            tracing::error!(error = %e, "the bundled model catalogue is broken");
            Vec::new()
        }
    }
}

/// The bundled entries plus those of `$CUBICLE_MODEL_CATALOGUE`, when set.
pub fn load() -> Result<Vec<CatalogueEntry>, CatalogueError> {
    let mut entries = bundled();
    if let Some(path) = std::env::var_os(CATALOGUE_ENV).filter(|p| !p.is_empty()) {
        for extra in read(Path::new(&path))? {
            entries.retain(|e| e.id != extra.id);
            entries.push(extra);
        }
    }
    Ok(entries)
}

pub fn read(path: &Path) -> Result<Vec<CatalogueEntry>, CatalogueError> {
    let text = std::fs::read_to_string(path).map_err(|e| CatalogueError::Read {
        path: path.display().to_string(),
        message: e.to_string(),
    })?;
    parse(&text, &path.display().to_string())
}

fn parse(text: &str, origin: &str) -> Result<Vec<CatalogueEntry>, CatalogueError> {
    let entries: Vec<CatalogueEntry> =
        serde_json::from_str(text).map_err(|e| CatalogueError::Read {
            path: origin.to_owned(),
            message: e.to_string(),
        })?;
    for e in &entries {
        check(e).map_err(|problem| CatalogueError::Invalid {
            id: e.id.clone(),
            problem,
        })?;
    }
    Ok(entries)
}

/// What the download manager relies on: a plain file name, a pinned hash, a size.
fn check(e: &CatalogueEntry) -> Result<(), String> {
    if e.id.trim().is_empty() || e.id.chars().any(char::is_whitespace) {
        return Err("the id must be one word".into());
    }
    let name = Path::new(&e.file_name);
    if name.file_name().map(|n| n.to_string_lossy()) != Some(e.file_name.as_str().into())
        || e.file_name.starts_with('.')
        || !e.file_name.ends_with(".gguf")
    {
        return Err("the file name must be a plain `*.gguf` name".into());
    }
    if e.sha256.len() != 64
        || !e
            .sha256
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b))
    {
        return Err("sha256 must be 64 lower-case hex digits".into());
    }
    if e.size_bytes == 0 {
        return Err("size_bytes must be the file's size".into());
    }
    if !(e.url.starts_with("https://") || e.url.starts_with("http://")) {
        return Err("the URL must be http(s)".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_bundled_catalogue_is_pinned_and_unique() {
        let entries = parse(BUNDLED, "catalogue.json").unwrap();
        assert!(entries.len() >= 5);
        let mut ids = std::collections::BTreeSet::new();
        let mut files = std::collections::BTreeSet::new();
        for e in &entries {
            assert!(ids.insert(&e.id), "duplicate id {}", e.id);
            assert!(files.insert(&e.file_name), "duplicate file {}", e.file_name);
            assert!(e.url.starts_with("https://huggingface.co/"), "{}", e.id);
            assert!(e.url.ends_with(&e.file_name), "{}", e.id);
            assert!(
                e.ram_bytes > e.size_bytes,
                "{} needs more RAM than its file",
                e.id
            );
            assert!(!e.source.is_empty(), "{} says where its hash is from", e.id);
        }
        let zh = entries.iter().find(|e| e.id == RECOMMENDED_FOR_ZH);
        assert_eq!(zh.map(|e| e.writes_chinese), Some(true));
    }

    #[test]
    fn a_catalogue_entry_with_a_path_or_a_short_hash_is_refused() {
        let good = &bundled()[0];
        let mut bad = good.clone();
        bad.file_name = "../evil.gguf".into();
        assert!(check(&bad).is_err());
        let mut bad = good.clone();
        bad.sha256 = "abc".into();
        assert!(check(&bad).is_err());
        let mut bad = good.clone();
        bad.sha256 = good.sha256.to_uppercase();
        assert!(check(&bad).is_err());
        assert!(check(good).is_ok());
    }
}
