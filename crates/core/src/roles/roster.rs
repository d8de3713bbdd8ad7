//! Reading a roster before any card is parsed: a folder of card files, an archive of one
//! (zip, tar, tar.gz — GitHub's "Download ZIP" of a roster included), or card files picked
//! one by one in the app. Each gives `(key, bytes)`: the card's path in the roster without
//! `.md`, so a folder and its archive import onto the same cards.
//!
//! An archive is a file anyone could have made: an entry whose path leaves the roster is
//! refused (the whole archive, with its name), only `.md` entries are read and each at most
//! one byte past the card limit, and the unpacked size of a tar stream is bounded.

use std::io::{Cursor, Read};
use std::path::{Component, Path};

use base64::Engine as _;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::card::MAX_CARD_BYTES;
use super::library::RolesError;

/// A roster bigger than this is not a roster; reading stops instead of reading a disk.
pub(super) const MAX_ROSTER_FILES: usize = 5000;
/// Divisions nest a level or two; deeper is not a roster layout.
pub(super) const MAX_ROSTER_DEPTH: usize = 8;
/// Entries of any kind an archive may hold (folders, images, licences…).
const MAX_ARCHIVE_ENTRIES: usize = 50_000;
/// A tar stream unpacked past this is not a roster (a gzip bomb stops here).
const MAX_UNPACKED_BYTES: u64 = 256 * 1024 * 1024;
/// What macOS's archiver adds beside every file; never a card.
const MAC_METADATA: &str = "__MACOSX";

/// One card file of a roster: its key (`marketing/growth-hacker`) and its bytes, read up to
/// one byte past [`MAX_CARD_BYTES`] (enough to say it is too large).
pub(super) type Entry = (String, Vec<u8>);

/// A card file found in an archive or a pick: its path as folder and file names, and bytes.
type Found = (Vec<String>, Vec<u8>);

/// A file the boss picked in the app: its name (with the folders above it, for a folder
/// pick) and its bytes in base64, as the webview reads them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RosterFile {
    pub name: String,
    pub base64: String,
}

/// A roster picked in the app: archives of cards, or the card files themselves.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RosterUpload {
    pub files: Vec<RosterFile>,
}

impl RosterUpload {
    /// The files as `(name, bytes)`; a file that is not base64 is refused with its name.
    pub fn decode(self) -> Result<Vec<(String, Vec<u8>)>, RolesError> {
        self.files
            .into_iter()
            .map(|f| {
                base64::engine::general_purpose::STANDARD
                    .decode(f.base64.as_bytes())
                    .map(|bytes| (f.name.clone(), bytes))
                    .map_err(|e| RolesError::InvalidInput(format!("{}: not base64 ({e})", f.name)))
            })
            .collect()
    }
}

/// The cards at `path`: a folder's, an archive's, or one card file's.
pub(super) fn read_path(path: &Path) -> Result<Vec<Entry>, RolesError> {
    if path.is_dir() {
        let mut out = Vec::new();
        walk(path, path, 0, &mut out)?;
        out.sort_by(|a, b| a.0.cmp(&b.0));
        return Ok(out);
    }
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let bytes = std::fs::read(path).map_err(|e| io(path, e))?;
    read_files(vec![(name, bytes)])
}

/// The cards in picked files: each an archive (by its first bytes) or one `.md` card. Card
/// files picked from a folder keep their folders below the picked one.
pub(super) fn read_files(files: Vec<(String, Vec<u8>)>) -> Result<Vec<Entry>, RolesError> {
    let mut out = Vec::new();
    let mut loose = Vec::new();
    for (name, bytes) in files {
        match Kind::of(&bytes) {
            Some(kind) => out.extend(read_archive(&name, kind, bytes)?),
            None if is_card_file(&name) => {
                let parts = parts_of(&name).ok_or_else(|| leaves(&name, &name))?;
                loose.push((parts, bytes));
            }
            None => {
                return Err(RolesError::InvalidInput(format!(
                    "{name} is neither a card (.md) nor an archive (.zip, .tar, .tar.gz)"
                )));
            }
        }
    }
    out.extend(keyed(strip_common_folder(loose)));
    check_count(out.len())?;
    out.sort_by(|a, b| a.0.cmp(&b.0));
    if let Some(w) = out.windows(2).find(|w| w[0].0 == w[1].0) {
        return Err(RolesError::InvalidInput(format!(
            "two files are the card {}.md: pick one of them",
            w[0].0
        )));
    }
    Ok(out)
}

#[derive(Clone, Copy)]
enum Kind {
    Zip,
    Gzip,
    Tar,
}

impl Kind {
    /// By the format's magic bytes, not the file's name.
    fn of(bytes: &[u8]) -> Option<Self> {
        if bytes.starts_with(b"PK\x03\x04") || bytes.starts_with(b"PK\x05\x06") {
            Some(Self::Zip)
        } else if bytes.starts_with(&[0x1f, 0x8b]) {
            Some(Self::Gzip)
        } else if bytes.get(257..262) == Some(b"ustar") {
            Some(Self::Tar)
        } else {
            None
        }
    }
}

fn read_archive(name: &str, kind: Kind, bytes: Vec<u8>) -> Result<Vec<Entry>, RolesError> {
    let files = match kind {
        Kind::Zip => zip_cards(name, bytes)?,
        Kind::Gzip => {
            let gz = flate2::read::GzDecoder::new(Cursor::new(bytes));
            tar_cards(name, gz.take(MAX_UNPACKED_BYTES))?
        }
        Kind::Tar => tar_cards(name, Cursor::new(bytes))?,
    };
    Ok(keyed(strip_common_folder(files)))
}

fn zip_cards(name: &str, bytes: Vec<u8>) -> Result<Vec<Found>, RolesError> {
    let read = |e: zip::result::ZipError| RolesError::InvalidInput(format!("{name}: {e}"));
    let mut archive = zip::ZipArchive::new(Cursor::new(bytes)).map_err(read)?;
    if archive.len() > MAX_ARCHIVE_ENTRIES {
        return Err(too_many(name));
    }
    let mut out = Vec::new();
    for i in 0..archive.len() {
        let mut file = archive.by_index(i).map_err(read)?;
        if file.is_dir() || !is_card_file(file.name()) {
            continue;
        }
        let entry = file.name().to_owned();
        let parts = parts_of(&entry).ok_or_else(|| leaves(name, &entry))?;
        if parts.iter().any(|p| p == MAC_METADATA) {
            continue;
        }
        let mut body = Vec::new();
        (&mut file)
            .take(MAX_CARD_BYTES as u64 + 1)
            .read_to_end(&mut body)
            .map_err(|e| RolesError::InvalidInput(format!("{name}: {entry}: {e}")))?;
        out.push((parts, body));
        check_count(out.len())?;
    }
    Ok(out)
}

fn tar_cards(name: &str, reader: impl Read) -> Result<Vec<Found>, RolesError> {
    let bad = |e: std::io::Error| {
        RolesError::InvalidInput(format!(
            "{name}: {e} (a damaged archive, or more than {} MB unpacked)",
            MAX_UNPACKED_BYTES / (1024 * 1024)
        ))
    };
    let mut archive = tar::Archive::new(reader);
    let mut out = Vec::new();
    for (n, entry) in archive.entries().map_err(bad)?.enumerate() {
        if n >= MAX_ARCHIVE_ENTRIES {
            return Err(too_many(name));
        }
        let mut entry = entry.map_err(bad)?;
        let path = entry.path().map_err(bad)?.to_string_lossy().into_owned();
        if !entry.header().entry_type().is_file() || !is_card_file(&path) {
            continue;
        }
        let parts = parts_of(&path).ok_or_else(|| leaves(name, &path))?;
        if parts.iter().any(|p| p == MAC_METADATA) {
            continue;
        }
        let mut body = Vec::new();
        (&mut entry)
            .take(MAX_CARD_BYTES as u64 + 1)
            .read_to_end(&mut body)
            .map_err(bad)?;
        out.push((parts, body));
        check_count(out.len())?;
    }
    Ok(out)
}

/// Every card file under `dir`, hidden entries and links left out.
fn walk(root: &Path, dir: &Path, depth: usize, out: &mut Vec<Entry>) -> Result<(), RolesError> {
    let mut entries: Vec<_> = std::fs::read_dir(dir)
        .map_err(|e| io(dir, e))?
        .collect::<Result<_, _>>()
        .map_err(|e| io(dir, e))?;
    entries.sort_by_key(std::fs::DirEntry::file_name);
    for entry in entries {
        let name = entry.file_name().to_string_lossy().into_owned();
        if name.starts_with('.') || name == MAC_METADATA {
            continue;
        }
        let kind = entry.file_type().map_err(|e| io(dir, e))?;
        let path = entry.path();
        if kind.is_dir() && depth < MAX_ROSTER_DEPTH {
            walk(root, &path, depth + 1, out)?;
        } else if kind.is_file() && is_card_file(&name) {
            let Some(key) = key_of(root, &path) else {
                continue;
            };
            let mut body = Vec::new();
            std::fs::File::open(&path)
                .and_then(|f| f.take(MAX_CARD_BYTES as u64 + 1).read_to_end(&mut body))
                .map_err(|e| io(&path, e))?;
            out.push((key, body));
            check_count(out.len())?;
        }
    }
    Ok(())
}

/// `ROOT/marketing/growth-hacker.md` → `marketing/growth-hacker`.
fn key_of(root: &Path, path: &Path) -> Option<String> {
    let rel = path.strip_prefix(root).ok()?;
    let parts = parts_of(rel.to_str()?)?;
    Some(key_from(&parts))
}

fn is_card_file(name: &str) -> bool {
    Path::new(name)
        .extension()
        .is_some_and(|x| x.eq_ignore_ascii_case("md"))
}

/// A path inside a roster as its folder and file names; `None` when it could leave the
/// roster (`..`, an absolute path, a drive).
fn parts_of(path: &str) -> Option<Vec<String>> {
    let path = path.replace('\\', "/");
    let parts: Vec<String> = Path::new(&path)
        .components()
        .filter(|c| *c != Component::CurDir)
        .map(|c| match c {
            Component::Normal(s) => s.to_str().filter(|s| !s.contains(':')).map(str::to_owned),
            _ => None,
        })
        .collect::<Option<_>>()?;
    (!parts.is_empty()).then_some(parts)
}

/// Hidden files and folders below the roster's own and anything nested deeper than a
/// roster is: left out, as a folder import leaves them.
fn skipped(parts: &[String]) -> bool {
    parts.len() > MAX_ROSTER_DEPTH + 1 || parts.iter().any(|p| p.starts_with('.'))
}

/// An archive of a roster folder (`agency-agents-main/marketing/…`) holds the folder
/// itself: when every card sits under one top folder, the keys start below it, as they
/// would for an import of that folder.
fn strip_common_folder(mut files: Vec<Found>) -> Vec<Found> {
    let top = match files.first() {
        Some((parts, _)) if parts.len() > 1 => parts[0].clone(),
        _ => return files,
    };
    if files.iter().all(|(p, _)| p.len() > 1 && p[0] == top) {
        for (parts, _) in &mut files {
            parts.remove(0);
        }
    }
    files
}

fn keyed(files: Vec<Found>) -> Vec<Entry> {
    let mut out: Vec<Entry> = files
        .into_iter()
        .filter(|(p, _)| !skipped(p))
        .map(|(p, b)| (key_from(&p), b))
        .collect();
    out.sort_by(|a, b| a.0.cmp(&b.0));
    out
}

/// `["marketing", "growth-hacker.md"]` → `marketing/growth-hacker`.
fn key_from(parts: &[String]) -> String {
    let joined = parts.join("/");
    let cut = joined.len() - ".md".len();
    joined[..cut].to_owned()
}

fn check_count(n: usize) -> Result<(), RolesError> {
    if n > MAX_ROSTER_FILES {
        return Err(RolesError::InvalidInput(format!(
            "more than {MAX_ROSTER_FILES} card files: not a roster"
        )));
    }
    Ok(())
}

fn too_many(name: &str) -> RolesError {
    RolesError::InvalidInput(format!(
        "{name}: more than {MAX_ARCHIVE_ENTRIES} entries: not a roster"
    ))
}

fn leaves(archive: &str, entry: &str) -> RolesError {
    RolesError::InvalidInput(format!(
        "{archive}: the entry {entry:?} points outside the roster; nothing was imported"
    ))
}

fn io(path: &Path, e: std::io::Error) -> RolesError {
    RolesError::Io(format!("{}: {e}", path.display()))
}
