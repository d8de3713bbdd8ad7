//! Files escape through symlinks: a link inside the workspace — dangling, to a folder
//! outside, or to a dotfolder inside — must not carry a file tool anywhere else.

#![cfg(unix)]

use crate::util::DecideShown;
use std::os::unix::fs::symlink;

use cubicle_core::approvals::{CallOutcome, DecidedVia, Decision};
use serde_json::json;

use super::{ask, staff, workspace};
use crate::util::TestCompany;

/// Asks for a write and, should it wait, approves it: whatever the policy, the link
/// must not be followed.
async fn write_anyway(c: &TestCompany, e: &cubicle_core::org::EmployeeDto, path: &str) {
    let asked = ask(
        c,
        e,
        "write_file",
        json!({"path": path, "content": "pwned"}),
    )
    .await;
    if let Ok(CallOutcome::Waiting(id)) = asked {
        let a = c
            .core
            .approvals
            .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
            .await
            .unwrap();
        let err = a.error.expect("the approved write still fails");
        assert!(err.contains("symbolic link"), "{err}");
    } else {
        let err = asked.expect_err("refused when asked");
        assert!(err.to_string().contains("symbolic link"), "{err}");
    }
}

#[tokio::test]
async fn a_dangling_symlink_cannot_make_write_file_create_a_file_outside() {
    let c = TestCompany::new().await;
    let alice = staff(&c, "Alice", &["write_file"]).await;
    let outside = tempfile::tempdir().unwrap();
    let target = outside.path().join("created-by-the-model.txt");
    let own = workspace(&c).join(format!("employees/{}", alice.id));
    std::fs::create_dir_all(&own).unwrap();
    symlink(&target, own.join("notes.txt")).unwrap();

    write_anyway(&c, &alice, &format!("employees/{}/notes.txt", alice.id)).await;
    assert!(
        !target.exists(),
        "nothing was created outside the workspace"
    );
}

#[tokio::test]
async fn a_symlinked_directory_leads_nowhere_outside_or_in() {
    let c = TestCompany::new().await;
    let alice = staff(&c, "Alice", &["write_file", "read_file"]).await;
    let ws = workspace(&c);
    let own = ws.join(format!("employees/{}", alice.id));
    std::fs::create_dir_all(&own).unwrap();

    // Out: a folder outside, with a secret in it.
    let outside = tempfile::tempdir().unwrap();
    std::fs::write(outside.path().join("id_rsa"), "PRIVATE KEY").unwrap();
    symlink(outside.path(), own.join("ssh")).unwrap();
    write_anyway(
        &c,
        &alice,
        &format!("employees/{}/ssh/authorized_keys", alice.id),
    )
    .await;
    assert!(!outside.path().join("authorized_keys").exists());
    let read = ask(
        &c,
        &alice,
        "read_file",
        json!({"path": format!("employees/{}/ssh/id_rsa", alice.id)}),
    )
    .await;
    assert!(read.is_err(), "{read:?}");

    // In: a plain-looking folder of her own that is really the repository's hooks, so a
    // write there would be a git hook that the next innocent `git commit` runs.
    std::fs::create_dir_all(ws.join(".git/hooks")).unwrap();
    symlink(ws.join(".git/hooks"), own.join("drafts")).unwrap();
    write_anyway(
        &c,
        &alice,
        &format!("employees/{}/drafts/pre-commit", alice.id),
    )
    .await;
    assert!(!ws.join(".git/hooks/pre-commit").exists());
}
