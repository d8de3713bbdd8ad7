//! Running commands: `run_shell` (an employee's `sh -c` in the company workspace) and
//! `run_cli` (a CLI employee's configured command in its own folder). Both are high
//! risk, have a time limit and capture stdout/stderr.
//!
//! What is contained, honestly:
//! - the command runs with the folder as its working directory, `HOME` set to it and a
//!   cleared environment (only `PATH` and `LANG` are kept, so no API key in the
//!   environment reaches it);
//! - `run_shell` refuses, before approval and again before running, a command that names
//!   a path outside the folder: an absolute path (except `/dev/null` and friends), a
//!   `..` that climbs out, a `~`, a symlink in the folder that points out, and any `$`
//!   expansion or backtick (they could compute such a path);
//! - on time-out the whole process group is killed.
//!
//! What is not: this is a check of the command's text, not a sandbox. A program the
//! command starts (`python -c …`, a script in the folder) runs as the user and may open
//! any path it computes, and may use the network. That is why both tools are high
//! risk and wait for the boss under `key_steps`; real isolation (namespaces, landlock)
//! is future work. `run_cli`'s command is the boss's own configuration and is not
//! checked, only run in the employee's folder.

use std::path::{Component, Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use tokio::io::AsyncWriteExt;

use super::{Risk, Tool, ToolContext, ToolError, clip, io_error};

/// Device files a command may name although they are outside the folder.
const ALLOWED_ABSOLUTE: [&str; 4] = ["/dev/null", "/dev/stdout", "/dev/stderr", "/dev/zero"];
/// Used when the app's own `PATH` is unset.
const FALLBACK_PATH: &str = "/usr/local/bin:/usr/bin:/bin";

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunShellArgs {
    /// A POSIX shell command, run with the company workspace as its working directory.
    pub command: String,
    /// Seconds before it is killed; at most the configured limit (60 by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<u64>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunCliArgs {
    /// Given to the command on stdin.
    #[serde(default)]
    pub input: String,
    /// Filled in from the employee's configuration when the call is made (whatever the
    /// caller put here): the approval shows and is bound to it.
    #[serde(default)]
    pub command: String,
    /// The employee's own folder, filled in like `command`.
    #[serde(default)]
    pub folder: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProcessOutput {
    /// `None` when a signal ended it.
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The folder it ran in.
    pub cwd: String,
}

/// Refuses a command whose text reaches outside `root` (canonical). See the module doc
/// for what this does and does not catch.
pub fn check_command(command: &str, root: &Path) -> Result<(), ToolError> {
    let outside = |why: String| Err(ToolError::OutsideWorkspace(why));
    if command.trim().is_empty() {
        return outside("an empty command".into());
    }
    if command.contains('`') || command.contains('$') {
        return outside(
            "`$` expansions and backticks are not allowed: they could name a path outside the workspace"
                .into(),
        );
    }
    let is_sep = |c: char| c.is_whitespace() || ";|&<>(){}'\"=,:".contains(c);
    for token in command.split(is_sep).filter(|t| !t.is_empty()) {
        if token.starts_with('~') {
            return outside(format!("{token}: the home folder is outside the workspace"));
        }
        let path = Path::new(token);
        if path.is_absolute() {
            if ALLOWED_ABSOLUTE.contains(&token) {
                continue;
            }
            if !inside(root, &normalize(path)) {
                return outside(format!("{token} is outside the workspace"));
            }
            continue;
        }
        if !token.contains('/') && token != ".." {
            continue;
        }
        // Relative to the working directory, which is `root` (a `cd` deeper first makes
        // this stricter than needed, never looser).
        if !inside(root, &normalize(&root.join(path))) {
            return outside(format!("{token} leads outside the workspace"));
        }
    }
    Ok(())
}

/// Removes `.` and resolves `..` by text (the path may not exist yet).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// Whether `p` (absolute, normalised) is under `root`, also after resolving the
/// symlinks of the part of it that exists.
fn inside(root: &Path, p: &Path) -> bool {
    if !p.starts_with(root) {
        return false;
    }
    let mut existing = p;
    while !existing.exists() {
        match existing.parent() {
            Some(parent) => existing = parent,
            None => return false,
        }
    }
    existing
        .canonicalize()
        .is_ok_and(|real| real.starts_with(root))
}

/// Runs `sh -c command` in `cwd` with a cleared environment, feeding `stdin`; kills the
/// process group after `timeout`.
pub(crate) async fn run_process(
    command: &str,
    cwd: &Path,
    stdin: Option<&str>,
    timeout: Duration,
    max_chars: usize,
) -> Result<ProcessOutput, ToolError> {
    let mut cmd = tokio::process::Command::new("sh");
    cmd.arg("-c")
        .arg(command)
        .current_dir(cwd)
        .env_clear()
        .env(
            "PATH",
            std::env::var("PATH").unwrap_or_else(|_| FALLBACK_PATH.to_owned()),
        )
        .env("HOME", cwd)
        .env("LANG", "C.UTF-8")
        .stdin(if stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    #[cfg(unix)]
    cmd.process_group(0);
    let mut child = cmd.spawn().map_err(io_error)?;
    let pid = child.id();
    if let (Some(text), Some(mut pipe)) = (stdin, child.stdin.take()) {
        let text = text.to_owned();
        // Written beside the wait so a command that answers before reading cannot block.
        tokio::spawn(async move {
            let _ = pipe.write_all(text.as_bytes()).await;
        });
    }
    match tokio::time::timeout(timeout, child.wait_with_output()).await {
        Ok(Ok(out)) => Ok(ProcessOutput {
            exit_code: out.status.code(),
            stdout: clip(&String::from_utf8_lossy(&out.stdout), max_chars),
            stderr: clip(&String::from_utf8_lossy(&out.stderr), max_chars),
            cwd: cwd.display().to_string(),
        }),
        Ok(Err(e)) => Err(io_error(e)),
        Err(_) => {
            // Dropping the child killed `sh`; its children are in its process group.
            #[cfg(unix)]
            if let Some(pid) = pid {
                let _ = std::process::Command::new("kill")
                    .args(["-KILL", "--", &format!("-{pid}")])
                    .stdout(Stdio::null())
                    .stderr(Stdio::null())
                    .status();
            }
            #[cfg(not(unix))]
            let _ = pid;
            Err(ToolError::Timeout(timeout.as_secs()))
        }
    }
}

pub struct RunShell;

impl Tool for RunShell {
    const NAME: &'static str = "run_shell";
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = "Run a shell command in the company workspace folder (time-limited; paths outside the folder are refused).";
    type Args = RunShellArgs;
    type Output = ProcessOutput;

    fn bind(cx: &ToolContext<'_>, args: RunShellArgs) -> Result<RunShellArgs, ToolError> {
        check_command(&args.command, &cx.runtime.workspace_root()?)?;
        Ok(args)
    }

    async fn run(cx: &ToolContext<'_>, args: RunShellArgs) -> Result<ProcessOutput, ToolError> {
        let root = cx.runtime.workspace_root()?;
        check_command(&args.command, &root)?;
        let limit = cx.runtime.config.shell_timeout;
        let timeout = args
            .timeout_secs
            .map_or(limit, |s| Duration::from_secs(s.max(1)).min(limit));
        run_process(
            &args.command,
            &root,
            None,
            timeout,
            cx.runtime.config.max_output_chars,
        )
        .await
    }

    fn describe(args: &RunShellArgs) -> String {
        format!("run `{}` in the company workspace", args.command)
    }
}

pub struct RunCli;

impl RunCli {
    fn configured(cx: &ToolContext<'_>) -> Result<(String, String), ToolError> {
        let command = cx
            .employee
            .cli_command
            .as_deref()
            .map(str::trim)
            .filter(|c| !c.is_empty())
            .ok_or_else(|| {
                ToolError::NotConfigured(format!("{} has no CLI command", cx.employee.name))
            })?
            .to_owned();
        let folder = cx.runtime.employee_dir(cx.employee.id)?;
        Ok((command, folder.display().to_string()))
    }
}

impl Tool for RunCli {
    const NAME: &'static str = "run_cli";
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = "Run this employee's configured command-line program in its own folder, with the input on stdin.";
    type Args = RunCliArgs;
    type Output = ProcessOutput;

    fn bind(cx: &ToolContext<'_>, args: RunCliArgs) -> Result<RunCliArgs, ToolError> {
        let (command, folder) = Self::configured(cx)?;
        Ok(RunCliArgs {
            input: args.input,
            command,
            folder,
        })
    }

    async fn run(cx: &ToolContext<'_>, args: RunCliArgs) -> Result<ProcessOutput, ToolError> {
        // What was approved must still be what is configured.
        if Self::configured(cx)? != (args.command.clone(), args.folder.clone()) {
            return Err(ToolError::ArgsChanged);
        }
        run_process(
            &args.command,
            Path::new(&args.folder),
            Some(&args.input),
            cx.runtime.config.cli_timeout,
            cx.runtime.config.max_output_chars,
        )
        .await
    }

    fn describe(args: &RunCliArgs) -> String {
        format!("run `{}` in {}", args.command, args.folder)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn commands_naming_outside_paths_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().canonicalize().unwrap();
        let ok = [
            "ls -la",
            "echo hi > notes/a.txt",
            "cat ./a.txt | wc -l",
            "grep x a.txt 2>/dev/null",
            "mkdir -p a/b && cd a/b && ls",
        ];
        for c in ok {
            assert!(check_command(c, &root).is_ok(), "{c}");
        }
        let inside_abs = format!("cat {}/a.txt", root.display());
        assert!(check_command(&inside_abs, &root).is_ok());
        let refused = [
            "cat /etc/passwd",
            "echo x > ../escape.txt",
            "cd .. && ls",
            "cp a.txt notes/../../b",
            "cat ~/.ssh/id_rsa",
            "echo $HOME",
            "cat `which ls`",
            "ls $(pwd)/..",
            "echo x >/tmp/escape",
            "",
        ];
        for c in refused {
            assert!(check_command(c, &root).is_err(), "{c}");
        }
    }
}
