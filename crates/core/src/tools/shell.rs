//! Running commands: `run_shell` (an employee's `sh -c` in the company workspace) and
//! `run_cli` (a CLI employee's configured command in its own folder). Both are high
//! risk, wait for the boss under `key_steps`, have a time limit and capture
//! stdout/stderr.
//!
//! Both run in a box ([`super::sandbox`]): the folder is the only place they can
//! write, the user's files, keychain, D-Bus and the engine's environment are out of
//! reach, and the network is off unless the boss allowed it for the employee. The box,
//! not the command's text, is the boundary, so the text is not filtered (a filter of
//! shell text can always be got round: `cd '.''.'`). Whether the network is on is
//! bound into the arguments when the call is made, so the approval shows it and a
//! change of the setting after approval refuses the run.

use std::time::Duration;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

use super::sandbox::{self, BoxFolder, BoxSpec, Stopped};
use super::{Risk, Tool, ToolContext, ToolError, ToolName, clip};
use crate::types::Language;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct RunShellArgs {
    /// A POSIX shell command, run in a sandbox with the company workspace as its working
    /// directory.
    pub command: String,
    /// Seconds before it is killed; at most the configured limit (60 by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub timeout_secs: Option<u64>,
    /// Whether the box has the network: filled in from the employee's setting when the
    /// call is made (whatever the caller put here), so the approval shows it.
    #[serde(default)]
    #[schemars(skip)]
    pub network: bool,
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
    /// Whether the box has the network, filled in like `command`.
    #[serde(default)]
    #[schemars(skip)]
    pub network: bool,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "camelCase")]
pub struct ProcessOutput {
    /// `None` when a signal ended it (or the box was stopped).
    pub exit_code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
    /// The folder it ran in.
    pub cwd: String,
    /// Set when the box was stopped before the command ended (its output was too long).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stopped: Option<Stopped>,
}

/// What the sandbox lets a command do, said the same way in both tools' descriptions.
macro_rules! box_rules {
    () => {
        "It runs in a sandbox: it can write only in that folder; the rest of the file system is \
         read-only, and home folders, /tmp, /run and the app's data are hidden (HOME is an empty \
         temporary folder); no network unless the boss allowed it for this employee; no access \
         to the keychain, D-Bus or other processes; limits on CPU time, memory, processes and \
         output; everything it started is killed when it ends."
    };
}

/// "network on/off" for an approval line.
fn network_note(network: bool, lang: Language) -> &'static str {
    match (network, lang) {
        (true, Language::En) => "sandboxed, network allowed",
        (false, Language::En) => "sandboxed, no network",
        (true, Language::ZhCn) => "在沙箱中，允许联网",
        (false, Language::ZhCn) => "在沙箱中，不能联网",
    }
}

/// Runs `sh -c command` in a box on `folder`, feeding `stdin`.
pub(crate) async fn run_process(
    cx: &ToolContext<'_>,
    spec: BoxSpec<'_>,
) -> Result<ProcessOutput, ToolError> {
    let config = &cx.runtime.config;
    let out = sandbox::run(&config.sandbox, &spec).await?;
    if out.stopped == Some(Stopped::TimedOut) {
        return Err(ToolError::Timeout(spec.timeout.as_secs()));
    }
    Ok(ProcessOutput {
        exit_code: out.exit_code,
        stdout: clip(
            &String::from_utf8_lossy(&out.stdout),
            config.max_output_chars,
        ),
        stderr: clip(
            &String::from_utf8_lossy(&out.stderr),
            config.max_output_chars,
        ),
        cwd: spec.folder.path().display().to_string(),
        stopped: out.stopped,
    })
}

pub struct RunShell;

impl Tool for RunShell {
    const NAME: ToolName = ToolName::RunShell;
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = concat!(
        "Run a shell command (sh -c) in the company workspace folder, time-limited. ",
        box_rules!()
    );
    type Args = RunShellArgs;
    type Output = ProcessOutput;

    fn bind(cx: &ToolContext<'_>, args: RunShellArgs) -> Result<RunShellArgs, ToolError> {
        if args.command.trim().is_empty() {
            return Err(ToolError::InvalidArgs {
                tool: Self::NAME.to_string(),
                message: "the command is empty".into(),
            });
        }
        Ok(RunShellArgs {
            network: cx.employee.network_access,
            ..args
        })
    }

    async fn run(cx: &ToolContext<'_>, args: RunShellArgs) -> Result<ProcessOutput, ToolError> {
        // What was approved must still be what the boss allows.
        if args.network != cx.employee.network_access {
            return Err(ToolError::ArgsChanged);
        }
        let folder = cx.runtime.workspace_folder()?;
        let limit = cx.runtime.config.shell_timeout;
        let timeout = args
            .timeout_secs
            .map_or(limit, |s| Duration::from_secs(s.max(1)).min(limit));
        let spec = BoxSpec {
            command: &args.command,
            folder: &folder,
            network: args.network,
            stdin: None,
            timeout,
        };
        run_process(cx, spec).await
    }

    fn describe(args: &RunShellArgs, lang: Language) -> String {
        let (command, note) = (&args.command, network_note(args.network, lang));
        match lang {
            Language::En => format!("run `{command}` in the company workspace ({note})"),
            Language::ZhCn => format!("在公司工作区运行 `{command}`（{note}）"),
        }
    }
}

pub struct RunCli;

/// What `run_cli` runs, as configured now.
#[derive(PartialEq)]
struct Configured {
    command: String,
    folder: String,
    network: bool,
}

impl RunCli {
    /// What is configured now, and the employee's folder it would run in.
    fn configured(cx: &ToolContext<'_>) -> Result<(Configured, BoxFolder), ToolError> {
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
        // Checked when the call is made and again when it would run: an imported waiting
        // approval must not run it either.
        if crate::imported::cli_unconfirmed(cx.employee) {
            return Err(ToolError::NotConfirmed(crate::imported::cli_refusal(
                cx.employee,
            )));
        }
        let folder = cx.runtime.employee_folder(cx.employee.id)?;
        let configured = Configured {
            command,
            folder: folder.path().display().to_string(),
            network: cx.employee.network_access,
        };
        Ok((configured, folder))
    }
}

impl Tool for RunCli {
    const NAME: ToolName = ToolName::RunCli;
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = concat!(
        "Run this employee's configured command-line program in its own folder, with the input \
         on stdin. ",
        box_rules!()
    );
    type Args = RunCliArgs;
    type Output = ProcessOutput;

    fn bind(cx: &ToolContext<'_>, args: RunCliArgs) -> Result<RunCliArgs, ToolError> {
        let (c, _) = Self::configured(cx)?;
        Ok(RunCliArgs {
            input: args.input,
            command: c.command,
            folder: c.folder,
            network: c.network,
        })
    }

    async fn run(cx: &ToolContext<'_>, args: RunCliArgs) -> Result<ProcessOutput, ToolError> {
        // What was approved must still be what is configured.
        let approved = Configured {
            command: args.command.clone(),
            folder: args.folder.clone(),
            network: args.network,
        };
        let (now, folder) = Self::configured(cx)?;
        if now != approved {
            return Err(ToolError::ArgsChanged);
        }
        let spec = BoxSpec {
            command: &args.command,
            folder: &folder,
            network: args.network,
            stdin: Some(&args.input),
            timeout: cx.runtime.config.cli_timeout,
        };
        run_process(cx, spec).await
    }

    fn describe(args: &RunCliArgs, lang: Language) -> String {
        // The input is what the agent acts on: approving the command is approving it.
        let (command, folder, note) = (
            &args.command,
            &args.folder,
            network_note(args.network, lang),
        );
        let input = &args.input;
        match (lang, input.is_empty()) {
            (Language::En, true) => format!("run `{command}` in {folder} ({note})"),
            (Language::En, false) => {
                format!("run `{command}` in {folder} ({note}) with input: {input}")
            }
            (Language::ZhCn, true) => format!("在 {folder} 运行 `{command}`（{note}）"),
            (Language::ZhCn, false) => {
                format!("在 {folder} 运行 `{command}`（{note}），输入：{input}")
            }
        }
    }
}
