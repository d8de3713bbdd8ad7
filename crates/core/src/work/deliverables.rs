//! The documents employees deliver: one Markdown file per task in the owner's folder of
//! the company workspace (`employees/<id>/deliverables/task-<id>-<slug>.md`), written by
//! the engine and opened by the boss from the report that links it.

use std::path::{Path, PathBuf};

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ErrorCode, IpcError};
use crate::tools::ToolRuntime;

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

/// The workspace root and `employee_id`'s folder of deliverables, created on first use.
pub fn folder(runtime: &ToolRuntime, employee_id: i32) -> std::io::Result<(PathBuf, PathBuf)> {
    let root = runtime
        .workspace_root()
        .map_err(|e| std::io::Error::other(e.to_string()))?;
    let dir = runtime
        .employee_dir(employee_id)
        .map_err(|e| std::io::Error::other(e.to_string()))?
        .join("deliverables");
    std::fs::create_dir_all(&dir)?;
    Ok((root, dir))
}

/// The files in `dir` that are `task_id`'s deliverable (`task-<id>.md` or
/// `task-<id>-<slug>.md`), as (file name, path). Links are not followed.
pub fn existing(dir: &Path, task_id: i32) -> Vec<(String, PathBuf)> {
    let exact = format!("task-{task_id}.md");
    let prefix = format!("task-{task_id}-");
    let Ok(entries) = std::fs::read_dir(dir) else {
        return vec![];
    };
    entries
        .filter_map(Result::ok)
        .filter(|e| e.file_type().is_ok_and(|t| t.is_file()))
        .map(|e| (e.file_name().to_string_lossy().into_owned(), e.path()))
        .filter(|(n, _)| n == &exact || (n.starts_with(&prefix) && n.ends_with(".md")))
        .collect()
}

/// The file's first [`SHOWN_MAX_BYTES`] bytes and one more (so a longer file shows as
/// cut); refused when the last component is a link (an employee's folder is
/// theirs to write, and a link swapped in for a deliverable must not show the boss
/// another file).
pub fn read_no_follow(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read;
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.custom_flags(libc::O_NOFOLLOW);
    }
    let mut file = options.open(path)?;
    let mut bytes = Vec::new();
    file.by_ref()
        .take(SHOWN_MAX_BYTES as u64 + 1)
        .read_to_end(&mut bytes)?;
    Ok(bytes)
}

/// `path` relative to the workspace `root`, as the report shows it.
pub fn relative(root: &Path, path: &Path) -> String {
    path.strip_prefix(root)
        .unwrap_or(path)
        .to_string_lossy()
        .into_owned()
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
        let (root, dir) = folder(self.approvals.runtime(), task.owner_id)
            .map_err(|e| IpcError::new(ErrorCode::Internal, e.to_string()))?;
        let (_, path) = existing(&dir, task.id)
            .into_iter()
            .next()
            .ok_or_else(not_found)?;
        let bytes = read_no_follow(&path).map_err(|e| {
            IpcError::new(
                ErrorCode::Internal,
                format!("the deliverable could not be read: {e}"),
            )
        })?;
        let cut = bytes.len() > SHOWN_MAX_BYTES;
        let shown = &bytes[..bytes.len().min(SHOWN_MAX_BYTES)];
        Ok(DeliverableDto {
            task_id: task.id,
            path: relative(&root, &path),
            text: String::from_utf8_lossy(shown).into_owned(),
            cut,
        })
    }
}
