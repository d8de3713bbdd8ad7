//! The committed TypeScript bindings must match the Rust types.
//! Regenerate with `cargo run -p cubicle-cli -- dev export-bindings`.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

fn read_dir(dir: &Path) -> BTreeMap<String, String> {
    std::fs::read_dir(dir)
        .expect("bindings dir")
        .filter_map(Result::ok)
        .filter(|e| e.path().extension().is_some_and(|x| x == "ts"))
        .map(|e| {
            (
                e.file_name().to_string_lossy().into_owned(),
                std::fs::read_to_string(e.path()).expect("read binding"),
            )
        })
        .collect()
}

#[test]
fn ui_bindings_are_fresh() {
    let committed_dir: PathBuf = [
        env!("CARGO_MANIFEST_DIR"),
        "..",
        "..",
        "ui",
        "src",
        "bindings",
    ]
    .iter()
    .collect();
    let fresh_dir = tempfile::tempdir().expect("tmp");
    cubicle_core::bindings::export_all(fresh_dir.path()).expect("export");
    let fresh = read_dir(fresh_dir.path());
    let committed = read_dir(&committed_dir);
    assert!(!fresh.is_empty());
    for (name, text) in &fresh {
        assert_eq!(
            committed.get(name),
            Some(text),
            "ui/src/bindings/{name} is stale or missing: run `cargo run -p cubicle-cli -- dev export-bindings`"
        );
    }
    for name in committed.keys() {
        assert!(
            fresh.contains_key(name),
            "ui/src/bindings/{name} no longer matches a Rust type: delete it and re-export"
        );
    }
}
