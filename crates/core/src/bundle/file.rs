//! Saving a bundle as a file the user can find: a plain name in a folder they know (the
//! desktop passes their Downloads folder), never over an existing file.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::BundleError;

/// Where an exported bundle went.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SavedBundle {
    /// The full path of the file written.
    pub path: String,
    #[ts(type = "number")]
    pub bytes: u64,
}

/// Tries `name.json`, then `name-2.json`, … up to this many.
const MAX_SUFFIX: u32 = 100;

/// Writes `json` as `file_name` in `dir` (created if missing). An existing file is never
/// replaced: the name gets `-2`, `-3`, …. The file appears whole or not at all (written
/// beside it, then renamed).
pub fn write_file(json: &str, dir: &Path, file_name: &str) -> Result<SavedBundle, BundleError> {
    let stem = file_name
        .strip_suffix(".json")
        .filter(|s| {
            !s.is_empty()
                && !s.starts_with('.')
                && !s.contains(['/', '\\', '\0'])
                && s.chars().count() <= 120
        })
        .ok_or_else(|| {
            BundleError::BadFileName(format!(
                "{file_name:?}: a bundle file is a plain name ending in .json"
            ))
        })?;
    let io = |what: &str, e: std::io::Error| {
        BundleError::Write(format!("{what} {}: {e}", dir.display()))
    };
    std::fs::create_dir_all(dir).map_err(|e| io("could not create", e))?;
    let target = (1..=MAX_SUFFIX)
        .map(|n| match n {
            1 => dir.join(format!("{stem}.json")),
            n => dir.join(format!("{stem}-{n}.json")),
        })
        .find(|p| !p.exists())
        .ok_or_else(|| {
            BundleError::Write(format!("too many {stem}*.json files in {}", dir.display()))
        })?;
    let partial: PathBuf = target.with_extension("json.partial");
    std::fs::write(&partial, json).map_err(|e| io("could not write in", e))?;
    if let Err(e) = std::fs::rename(&partial, &target) {
        let _ = std::fs::remove_file(&partial);
        return Err(io("could not save in", e));
    }
    Ok(SavedBundle {
        path: target.display().to_string(),
        bytes: json.len() as u64,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bundle_is_saved_whole_and_never_over_another_file() {
        let dir = tempfile::tempdir().unwrap();
        let into = dir.path().join("Downloads");
        let a = write_file("{\"a\":1}", &into, "cubicle-acme-2026-11-30.json").unwrap();
        assert_eq!(
            a.path,
            into.join("cubicle-acme-2026-11-30.json")
                .display()
                .to_string()
        );
        assert_eq!(a.bytes, 7);
        let b = write_file("{\"b\":2}", &into, "cubicle-acme-2026-11-30.json").unwrap();
        assert!(
            b.path.ends_with("cubicle-acme-2026-11-30-2.json"),
            "{}",
            b.path
        );
        assert_eq!(std::fs::read_to_string(&a.path).unwrap(), "{\"a\":1}");
        assert_eq!(std::fs::read_to_string(&b.path).unwrap(), "{\"b\":2}");
        let left: Vec<_> = std::fs::read_dir(&into).unwrap().collect();
        assert_eq!(left.len(), 2, "no partial file left behind");
    }

    #[test]
    fn only_a_plain_json_name_is_accepted() {
        let dir = tempfile::tempdir().unwrap();
        for bad in [
            "../x.json",
            "a/b.json",
            ".json",
            ".hidden.json",
            "x.txt",
            "",
        ] {
            let err = write_file("{}", dir.path(), bad).unwrap_err();
            assert!(matches!(err, BundleError::BadFileName(_)), "{bad}: {err}");
        }
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
    }
}
