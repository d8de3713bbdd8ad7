//! File tools on the company workspace: read (read-only), write (logged, or high risk by
//! its effect — see [`write_risk`]), delete (high risk). Paths are relative to the
//! workspace and opened beneath it without following links ([`super::beneath`]); only
//! regular files are read, a write replaces the name instead of writing through what is
//! there, and every step on the disk has a time limit.

use std::ffi::OsStr;

use cubicle_store::approval as q;
use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::beneath::{self, Beneath, Existing};
use super::{Risk, Tool, ToolContext, ToolError, ToolName, clip};
use crate::types::Language;

/// How far back the tool-call log is searched for who last wrote a file.
const WRITER_LOOKBACK: u64 = 5_000;
/// Names that run as programs or are run by ordinary commands (`make`, `npm test`, `cargo
/// build`): writing one is writing code that a later, innocent-looking command runs.
const EXECUTABLE_SUFFIXES: [&str; 12] = [
    ".sh",
    ".bash",
    ".zsh",
    ".fish",
    ".command",
    ".ps1",
    ".bat",
    ".cmd",
    ".exe",
    ".com",
    ".appimage",
    ".run",
];
const RUN_BY_TOOLS: [&str; 7] = [
    "makefile",
    "gnumakefile",
    "justfile",
    "build.rs",
    "package.json",
    "cargo.toml",
    "setup.py",
];

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PathArgs {
    /// A path relative to the company workspace.
    pub path: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct FileContent {
    pub path: String,
    pub content: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct WriteArgs {
    /// A path relative to the company workspace; missing folders are created.
    pub path: String,
    /// The whole new content of the file.
    pub content: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Written {
    pub path: String,
    pub bytes: usize,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Deleted {
    pub path: String,
}

fn workspace(cx: &ToolContext<'_>) -> Result<Beneath, ToolError> {
    Beneath::open(&cx.runtime.workspace_root()?)
}

/// Checked when asked: a clear refusal for a path out of the workspace or through a link.
fn checked(cx: &ToolContext<'_>, path: &str) -> Result<Existing, ToolError> {
    workspace(cx)?.existing(path)
}

/// Runs a blocking file operation beneath the workspace off the async threads, for at
/// most [`beneath::FILE_STEP_LIMIT`]: a step stuck on something that is not a plain file
/// fails this call alone (and is logged like any failure), never the engine.
async fn on_workspace<T: Send + 'static>(
    cx: &ToolContext<'_>,
    f: impl FnOnce(Beneath) -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    let ws = workspace(cx)?;
    beneath::blocking_within(beneath::FILE_STEP_LIMIT, move || f(ws)).await
}

/// What writing a file would do, beyond writing text in one's own folder.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WriteEffect {
    /// Outside `employees/<own id>/`.
    pub outside_own_folder: bool,
    /// A part of the path starts with `.` (`.bashrc`, `.git/hooks/…`).
    pub dotfile: bool,
    /// A script, a program, a build file, or a file already marked executable.
    pub executable: bool,
    /// Replaces a file that someone else wrote last (or that no tool call wrote).
    pub overwrites_others: bool,
    /// The file at the path has other names too (a hard link): whatever the path says,
    /// it is the same file as one somewhere else — the workspace's `Makefile`, say. The
    /// write replaces this name only, but what the employee meant by it is unknown.
    pub shared_with_another_name: bool,
    /// Something other than a regular file is at the path (a FIFO, a device, a socket):
    /// nothing an employee's own notes would be.
    pub not_a_regular_file: bool,
}

/// SPEC §8 by effect: a write is an ordinary logged write only inside the employee's own
/// folder, to a plain file of their own; anything else waits under `key_steps`.
pub fn write_risk(effect: WriteEffect) -> Risk {
    let WriteEffect {
        outside_own_folder,
        dotfile,
        executable,
        overwrites_others,
        shared_with_another_name,
        not_a_regular_file,
    } = effect;
    if outside_own_folder
        || dotfile
        || executable
        || overwrites_others
        || shared_with_another_name
        || not_a_regular_file
    {
        Risk::High
    } else {
        Risk::Write
    }
}

fn looks_executable(names: &[&OsStr], content: &str) -> bool {
    let last = names
        .last()
        .map(|n| n.to_string_lossy().to_ascii_lowercase())
        .unwrap_or_default();
    content.starts_with("#!")
        || EXECUTABLE_SUFFIXES.iter().any(|s| last.ends_with(s))
        || RUN_BY_TOOLS.contains(&last.as_str())
}

fn same_path(a: &str, b: &[&OsStr]) -> bool {
    beneath::parts(a).is_ok_and(|p| p == b)
}

/// Who ran the newest write of `names` (a path's parts), from the tool-call log.
async fn last_writer(cx: &ToolContext<'_>, names: &[&OsStr]) -> Result<Option<i32>, ToolError> {
    let calls = q::ok_calls_of_tool(
        &cx.runtime.db,
        &WriteFile::NAME.to_string(),
        WRITER_LOOKBACK,
    )
    .await?;
    Ok(calls
        .iter()
        .find(|c| {
            c.args
                .get("path")
                .and_then(serde_json::Value::as_str)
                .is_some_and(|p| same_path(p, names))
        })
        .map(|c| c.employee_id))
}

async fn write_effect(cx: &ToolContext<'_>, args: &WriteArgs) -> Result<WriteEffect, ToolError> {
    let names = beneath::parts(&args.path)?;
    let me = cx.employee.id.to_string();
    let own = names.len() > 2 && names[0] == "employees" && names[1] == me.as_str();
    let existing = checked(cx, &args.path)?;
    let overwrites_others = match existing {
        Existing::Nothing => false,
        _ => last_writer(cx, &names).await? != Some(cx.employee.id),
    };
    // Judged by what the file is, not only by its name.
    Ok(WriteEffect {
        outside_own_folder: !own,
        dotfile: names.iter().any(|n| n.to_string_lossy().starts_with('.')),
        executable: looks_executable(&names, &args.content)
            || matches!(
                existing,
                Existing::File {
                    executable: true,
                    ..
                }
            ),
        overwrites_others,
        shared_with_another_name: matches!(existing, Existing::File { links, .. } if links > 1),
        not_a_regular_file: existing == Existing::Other,
    })
}

pub struct ReadFile;

impl Tool for ReadFile {
    const NAME: ToolName = ToolName::ReadFile;
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Read a text file from the company workspace.";
    type Args = PathArgs;
    type Output = FileContent;

    fn bind(cx: &ToolContext<'_>, args: PathArgs) -> Result<PathArgs, ToolError> {
        // Said when asked; the read checks again, on the very file it opens.
        if checked(cx, &args.path)? == Existing::Other {
            return Err(beneath::not_regular(&args.path));
        }
        Ok(args)
    }

    async fn run(cx: &ToolContext<'_>, args: PathArgs) -> Result<FileContent, ToolError> {
        // Enough bytes for the character cap whatever the encoding (UTF-8: ≤ 4 per char).
        let max = (cx.runtime.config.max_output_chars as u64 + 1) * 4;
        let path = args.path.clone();
        let bytes = on_workspace(cx, move |ws| ws.read(&path, max)).await?;
        let text = String::from_utf8_lossy(&bytes);
        Ok(FileContent {
            content: clip(&text, cx.runtime.config.max_output_chars),
            path: args.path,
        })
    }

    fn describe(args: &PathArgs, lang: Language) -> String {
        match lang {
            Language::En => format!("read {}", args.path),
            Language::ZhCn => format!("读取 {}", args.path),
        }
    }
}

pub struct WriteFile;

impl Tool for WriteFile {
    const NAME: ToolName = ToolName::WriteFile;
    const RISK: Risk = Risk::Write;
    const DESCRIPTION: &'static str = "Create or replace a text file in the company workspace \
         (logged). In your own folder, employees/<your id>/, a plain file of your own is written at \
         once; anywhere else, a dotfile, a script or executable, someone else's file, or a file \
         with other names (a hard link) waits for the boss. Links are not followed: the name is \
         replaced with a new file.";
    type Args = WriteArgs;
    type Output = Written;

    fn bind(cx: &ToolContext<'_>, args: WriteArgs) -> Result<WriteArgs, ToolError> {
        checked(cx, &args.path)?;
        Ok(args)
    }

    async fn assess(cx: &ToolContext<'_>, args: &WriteArgs) -> Result<Risk, ToolError> {
        Ok(write_risk(write_effect(cx, args).await?))
    }

    async fn run(cx: &ToolContext<'_>, args: WriteArgs) -> Result<Written, ToolError> {
        let (path, content) = (args.path.clone(), args.content.clone());
        on_workspace(cx, move |ws| ws.write(&path, content.as_bytes())).await?;
        Ok(Written {
            path: args.path,
            bytes: args.content.len(),
        })
    }

    fn describe(args: &WriteArgs, lang: Language) -> String {
        // The content is what a script or dotfile would do: shown whole, not summed up.
        let (path, n, content) = (&args.path, args.content.len(), &args.content);
        match lang {
            Language::En => format!("write {path} ({n} bytes): {content}"),
            Language::ZhCn => format!("写入 {path}（{n} 字节）：{content}"),
        }
    }
}

pub struct DeleteFile;

impl Tool for DeleteFile {
    const NAME: ToolName = ToolName::DeleteFile;
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = "Delete one file (not a folder) from the company workspace.";
    type Args = PathArgs;
    type Output = Deleted;

    fn bind(cx: &ToolContext<'_>, args: PathArgs) -> Result<PathArgs, ToolError> {
        checked(cx, &args.path)?;
        Ok(args)
    }

    async fn run(cx: &ToolContext<'_>, args: PathArgs) -> Result<Deleted, ToolError> {
        let path = args.path.clone();
        on_workspace(cx, move |ws| ws.remove_file(&path)).await?;
        Ok(Deleted { path: args.path })
    }

    fn describe(args: &PathArgs, lang: Language) -> String {
        match lang {
            Language::En => format!("delete {}", args.path),
            Language::ZhCn => format!("删除 {}", args.path),
        }
    }
}
