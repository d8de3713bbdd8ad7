//! Files in the company workspace: read (read-only), write (logged), delete (high risk).
//! Paths are relative to the workspace and never leave it ([`super::resolve_in`]).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::{Risk, Tool, ToolContext, ToolError, clip, io_error, resolve_in};

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

fn checked(cx: &ToolContext<'_>, path: &str) -> Result<std::path::PathBuf, ToolError> {
    resolve_in(&cx.runtime.workspace_root()?, path)
}

pub struct ReadFile;

impl Tool for ReadFile {
    const NAME: &'static str = "read_file";
    const RISK: Risk = Risk::ReadOnly;
    const DESCRIPTION: &'static str = "Read a text file from the company workspace.";
    type Args = PathArgs;
    type Output = FileContent;

    fn bind(cx: &ToolContext<'_>, args: PathArgs) -> Result<PathArgs, ToolError> {
        checked(cx, &args.path)?;
        Ok(args)
    }

    async fn run(cx: &ToolContext<'_>, args: PathArgs) -> Result<FileContent, ToolError> {
        let full = checked(cx, &args.path)?;
        let bytes = tokio::fs::read(&full).await.map_err(io_error)?;
        let text = String::from_utf8_lossy(&bytes);
        Ok(FileContent {
            content: clip(&text, cx.runtime.config.max_output_chars),
            path: args.path,
        })
    }

    fn describe(args: &PathArgs) -> String {
        format!("read {}", args.path)
    }
}

pub struct WriteFile;

impl Tool for WriteFile {
    const NAME: &'static str = "write_file";
    const RISK: Risk = Risk::Write;
    const DESCRIPTION: &'static str =
        "Create or replace a text file in the company workspace (logged).";
    type Args = WriteArgs;
    type Output = Written;

    fn bind(cx: &ToolContext<'_>, args: WriteArgs) -> Result<WriteArgs, ToolError> {
        checked(cx, &args.path)?;
        Ok(args)
    }

    async fn run(cx: &ToolContext<'_>, args: WriteArgs) -> Result<Written, ToolError> {
        let full = checked(cx, &args.path)?;
        if let Some(parent) = full.parent() {
            tokio::fs::create_dir_all(parent).await.map_err(io_error)?;
        }
        // Creating the folders may not have moved the file out (a racing symlink).
        let full = checked(cx, &args.path)?;
        tokio::fs::write(&full, args.content.as_bytes())
            .await
            .map_err(io_error)?;
        Ok(Written {
            path: args.path,
            bytes: args.content.len(),
        })
    }

    fn describe(args: &WriteArgs) -> String {
        format!("write {} ({} bytes)", args.path, args.content.len())
    }
}

pub struct DeleteFile;

impl Tool for DeleteFile {
    const NAME: &'static str = "delete_file";
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = "Delete one file (not a folder) from the company workspace.";
    type Args = PathArgs;
    type Output = Deleted;

    fn bind(cx: &ToolContext<'_>, args: PathArgs) -> Result<PathArgs, ToolError> {
        checked(cx, &args.path)?;
        Ok(args)
    }

    async fn run(cx: &ToolContext<'_>, args: PathArgs) -> Result<Deleted, ToolError> {
        let full = checked(cx, &args.path)?;
        let meta = tokio::fs::symlink_metadata(&full).await.map_err(io_error)?;
        if meta.is_dir() {
            return Err(ToolError::Io(format!(
                "{} is a folder; only files can be deleted",
                args.path
            )));
        }
        tokio::fs::remove_file(&full).await.map_err(io_error)?;
        Ok(Deleted { path: args.path })
    }

    fn describe(args: &PathArgs) -> String {
        format!("delete {}", args.path)
    }
}
