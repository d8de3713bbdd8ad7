//! The crates' arrows (ARCHITECTURE.md), held by `cargo metadata`: the shell and the CLI
//! reach the database only through core; the store and the model client know nothing of
//! core; the model client knows nothing of the store. A forbidden dependency fails here
//! before it spreads.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::collections::BTreeMap;
use std::process::Command;

/// Each package's normal (non-dev, non-build) dependencies, by package name.
fn normal_dependencies() -> BTreeMap<String, Vec<String>> {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".to_owned());
    let out = Command::new(cargo)
        .args([
            "metadata",
            "--format-version",
            "1",
            "--no-deps",
            "--offline",
        ])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).expect("metadata JSON");
    let mut deps = BTreeMap::new();
    for p in meta["packages"].as_array().expect("packages") {
        let normal = p["dependencies"]
            .as_array()
            .expect("dependencies")
            .iter()
            .filter(|d| d["kind"].is_null())
            .map(|d| d["name"].as_str().expect("name").to_owned())
            .collect();
        deps.insert(p["name"].as_str().expect("name").to_owned(), normal);
    }
    deps
}

/// Which package may never depend on which, and why.
const FORBIDDEN: &[(&str, &[&str], &str)] = &[
    (
        "cubicle",
        &[
            "cubicle-store",
            "sea-orm",
            "sea-orm-migration",
            "sqlx",
            "cubicle-migrations",
        ],
        "the shell calls core; core alone opens the database",
    ),
    (
        "cubicle-cli",
        &[
            "cubicle-store",
            "sea-orm",
            "sea-orm-migration",
            "sqlx",
            "cubicle-migrations",
        ],
        "the CLI calls core; core alone opens the database",
    ),
    (
        "cubicle-store",
        &["cubicle-core", "cubicle-llm", "tauri"],
        "the store holds rows and queries, no rules and no models",
    ),
    (
        "cubicle-llm",
        &["cubicle-core", "cubicle-store", "sea-orm", "tauri"],
        "the model client speaks HTTP and llama.cpp, nothing of the company",
    ),
    (
        "cubicle-core",
        &["tauri"],
        "core runs the same under the app, the CLI and a server",
    ),
];

#[test]
fn no_crate_reaches_past_its_neighbours() {
    let deps = normal_dependencies();
    let mut broken = Vec::new();
    for (package, never, why) in FORBIDDEN {
        let Some(has) = deps.get(*package) else {
            panic!("no package {package} in the workspace: {:?}", deps.keys());
        };
        for d in has.iter().filter(|d| never.contains(&d.as_str())) {
            broken.push(format!("{package} depends on {d}: {why}"));
        }
    }
    assert!(broken.is_empty(), "{}", broken.join("\n"));
}

#[test]
fn the_check_sees_the_arrows_that_must_exist() {
    // A metadata read that found nothing would pass the test above for the wrong reason.
    let deps = normal_dependencies();
    for (package, needs) in [
        ("cubicle", "cubicle-core"),
        ("cubicle-cli", "cubicle-core"),
        ("cubicle-core", "cubicle-store"),
        ("cubicle-core", "cubicle-llm"),
        ("cubicle-store", "sea-orm"),
    ] {
        assert!(
            deps.get(package)
                .is_some_and(|d| d.iter().any(|x| x == needs)),
            "{package} should depend on {needs}: {:?}",
            deps.get(package)
        );
    }
}
