//! The documents employees deliver: one Markdown file per task in the owner's folder of
//! the company workspace (`employees/<id>/deliverables/task-<id>-<slug>.md`), written by
//! the engine and opened by the boss from the report that links it.
//!
//! The engine runs outside any box, and an employee's folder is writable from every
//! employee's `run_shell`: whatever is at a name there may have been planted (a link to
//! the boss's `~/.bashrc`, a FIFO). So the folder is walked from the workspace root
//! without following a link ([`Beneath`]), listed and read through that one handle, only
//! regular files are read, and a save writes a fresh file of its own there and renames
//! it into place — never through anything found at a name.

use std::ffi::{OsStr, OsString};
use std::path::Path;

use cap_std::fs::Dir;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ErrorCode, IpcError};
use crate::tools::beneath::{self, Beneath};
use crate::tools::{ToolError, ToolRuntime};

/// The most of a deliverable the app shows; a longer file is cut, and says so.
pub const SHOWN_MAX_BYTES: usize = 64 * 1024;

/// Which task's deliverable to open.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DeliverableRef {
    pub task_id: i32,
}

/// A task's deliverable, as saved.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DeliverableDto {
    pub task_id: i32,
    /// Where it is, relative to the company workspace.
    pub path: String,
    pub text: String,
    /// The file is longer than [`SHOWN_MAX_BYTES`] and `text` is its beginning.
    pub cut: bool,
}

/// A deliverable as found: where it is (relative to the workspace) and its first
/// [`SHOWN_MAX_BYTES`] bytes and one more (so a longer file shows as cut).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    pub path: String,
    pub bytes: Vec<u8>,
}

/// `employee_id`'s folder of deliverables, relative to the workspace.
fn folder_rel(employee_id: i32) -> String {
    format!("employees/{employee_id}/deliverables")
}

/// Whether `name` is `task_id`'s deliverable (`task-<id>.md` or `task-<id>-<slug>.md`).
fn is_deliverable_of(name: &OsStr, task_id: i32) -> bool {
    let Some(name) = name.to_str() else {
        return false;
    };
    name == format!("task-{task_id}.md")
        || (name.starts_with(&format!("task-{task_id}-")) && name.ends_with(".md"))
}

/// The entries of `dir` named as `task_id`'s deliverable and passing `keep` (given what
/// is there, seen without following a link), sorted by name.
fn named_for(
    dir: &Dir,
    task_id: i32,
    keep: impl Fn(&cap_std::fs::Metadata) -> bool,
) -> Result<Vec<OsString>, ToolError> {
    let mut out = Vec::new();
    for entry in dir.entries().map_err(crate::tools::io_error)? {
        let name = entry.map_err(crate::tools::io_error)?.file_name();
        if is_deliverable_of(&name, task_id) && dir.symlink_metadata(&name).is_ok_and(|m| keep(&m))
        {
            out.push(name);
        }
    }
    out.sort();
    Ok(out)
}

/// Saves `document` as `name` (a deliverable name of `task_id`) in `employee_id`'s
/// folder beneath `workspace`, replacing the task's earlier deliverables, and returns its
/// path relative to the workspace. The file is whole or not there at all.
fn save_in(
    workspace: &Path,
    employee_id: i32,
    task_id: i32,
    name: &str,
    document: &str,
) -> Result<String, ToolError> {
    let rel = folder_rel(employee_id);
    let dir = Beneath::open(workspace)?.dir(&rel)?;
    // Earlier versions, and any link put at one of the task's names: removing a name
    // never follows it.
    for old in named_for(&dir, task_id, |m| !m.is_dir())? {
        if old != OsStr::new(name) {
            dir.remove_file(&old).map_err(crate::tools::io_error)?;
        }
    }
    let path = format!("{rel}/{name}");
    let text = format!("{}\n", document.trim_end());
    beneath::replace_in(&dir, &path, OsStr::new(name), text.as_bytes())?;
    Ok(path)
}

/// `task_id`'s deliverable in `employee_id`'s folder beneath `workspace`, if a regular
/// file is saved there (a link or anything else at its name is not it).
fn find_in(workspace: &Path, employee_id: i32, task_id: i32) -> Result<Option<Found>, ToolError> {
    let rel = folder_rel(employee_id);
    let Some(dir) = Beneath::open(workspace)?.existing_dir(&rel)? else {
        return Ok(None);
    };
    let Some(name) = named_for(&dir, task_id, cap_std::fs::Metadata::is_file)?
        .into_iter()
        .next()
    else {
        return Ok(None);
    };
    let path = format!("{rel}/{}", name.to_string_lossy());
    let bytes = beneath::read_in(&dir, &path, &name, SHOWN_MAX_BYTES as u64 + 1)?;
    Ok(Some(Found { path, bytes }))
}

/// Saves `document` as task `task_id`'s deliverable, file `name`, in `employee_id`'s
/// folder (see [`save_in`]), within the time limit of a file step.
pub async fn save(
    runtime: &ToolRuntime,
    employee_id: i32,
    task_id: i32,
    name: &str,
    document: &str,
) -> Result<String, ToolError> {
    let workspace = runtime.workspace_root()?;
    let (name, document) = (name.to_owned(), document.to_owned());
    beneath::blocking_within(beneath::FILE_STEP_LIMIT, move || {
        save_in(&workspace, employee_id, task_id, &name, &document)
    })
    .await
}

/// Task `task_id`'s deliverable in `employee_id`'s folder, if one is saved (see
/// [`find_in`]), within the time limit of a file step.
pub async fn find(
    runtime: &ToolRuntime,
    employee_id: i32,
    task_id: i32,
) -> Result<Option<Found>, ToolError> {
    let workspace = runtime.workspace_root()?;
    beneath::blocking_within(beneath::FILE_STEP_LIMIT, move || {
        find_in(&workspace, employee_id, task_id)
    })
    .await
}

impl crate::AppCore {
    /// The deliverable of task `task_id`, read from its owner's folder. The task id is
    /// all the caller gives: no path from the webview is ever opened.
    pub async fn deliverable(&self, input: DeliverableRef) -> Result<DeliverableDto, IpcError> {
        let not_found = || {
            IpcError::new(
                ErrorCode::NotFound,
                format!("task #{} has no saved deliverable", input.task_id),
            )
        };
        let task = cubicle_store::work::find_task(&self.db, input.task_id)
            .await
            .map_err(|e| IpcError::new(ErrorCode::Storage, e.to_string()))?
            .ok_or_else(not_found)?;
        let found = find(self.approvals.runtime(), task.owner_id, task.id)
            .await
            .map_err(|e| {
                IpcError::new(
                    ErrorCode::Internal,
                    format!("the deliverable could not be read: {e}"),
                )
            })?
            .ok_or_else(not_found)?;
        let cut = found.bytes.len() > SHOWN_MAX_BYTES;
        let shown = &found.bytes[..found.bytes.len().min(SHOWN_MAX_BYTES)];
        Ok(DeliverableDto {
            task_id: task.id,
            path: found.path,
            text: String::from_utf8_lossy(shown).into_owned(),
            cut,
        })
    }
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn only_the_tasks_own_names_are_its_deliverables() {
        for (name, yes) in [
            ("task-12.md", true),
            ("task-12-gripper-note.md", true),
            ("task-123.md", false),
            ("task-12-gripper-note.md.partial", false),
            (".task-12-gripper-note.md.partial", false),
            ("task-1.md", false),
        ] {
            assert_eq!(is_deliverable_of(OsStr::new(name), 12), yes, "{name}");
        }
    }

    #[cfg(unix)]
    #[test]
    fn a_save_goes_around_links_planted_at_its_names() {
        let tmp = tempfile::tempdir().unwrap();
        let (ws, bashrc) = (tmp.path().join("ws"), tmp.path().join(".bashrc"));
        let folder = ws.join("employees/3/deliverables");
        std::fs::create_dir_all(&folder).unwrap();
        std::fs::write(&bashrc, "alias ls='ls -F'\n").unwrap();
        for planted in [
            ".task-7-note.md.partial",
            "task-7-note.md",
            "task-7-older.md",
        ] {
            std::os::unix::fs::symlink(&bashrc, folder.join(planted)).unwrap();
        }
        let path = save_in(&ws, 3, 7, "task-7-note.md", "# Note\nbody").unwrap();
        assert_eq!(path, "employees/3/deliverables/task-7-note.md");
        assert_eq!(std::fs::read(&bashrc).unwrap(), b"alias ls='ls -F'\n");
        assert!(std::fs::symlink_metadata(ws.join(&path)).unwrap().is_file());
        assert!(!folder.join("task-7-older.md").exists());
        let found = find_in(&ws, 3, 7).unwrap().unwrap();
        assert_eq!(
            (found.path.as_str(), found.bytes.as_slice()),
            (path.as_str(), b"# Note\nbody\n".as_slice())
        );
    }

    #[cfg(unix)]
    #[test]
    fn a_linked_folder_of_deliverables_is_neither_written_nor_read() {
        let tmp = tempfile::tempdir().unwrap();
        let (ws, elsewhere) = (tmp.path().join("ws"), tmp.path().join("elsewhere"));
        std::fs::create_dir_all(ws.join("employees/3")).unwrap();
        std::fs::create_dir_all(&elsewhere).unwrap();
        std::fs::write(elsewhere.join("task-7.md"), "secret").unwrap();
        std::os::unix::fs::symlink(&elsewhere, ws.join("employees/3/deliverables")).unwrap();
        assert!(save_in(&ws, 3, 7, "task-7.md", "x").is_err());
        assert!(find_in(&ws, 3, 7).is_err());
        assert_eq!(
            std::fs::read(elsewhere.join("task-7.md")).unwrap(),
            b"secret"
        );
    }
}
