//! The tools an employee can use (SPEC §8). Each is typed: a name, a risk level, an
//! argument struct (its JSON schema comes from schemars), an output and [`ToolError`].
//!
//! This module only knows how to check and run a tool. Whether a call may run now,
//! must wait for the boss, or is refused is decided in [`crate::approvals`], which is
//! the only caller of [`execute`]: nothing here is reachable from a model's output
//! without passing the whitelist and the approval policy first.

pub mod beneath;
pub mod company;
pub mod files;
pub mod key_steps;
pub mod sandbox;
pub mod shell;
pub mod webhook;

use std::future::Future;
use std::path::PathBuf;
use std::time::Duration;

use cubicle_store::entity::employee;
use cubicle_store::{Db, DbErr};
use schemars::JsonSchema;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::chat::Chats;
use crate::clock::SharedClock;
use crate::error::{ErrorCode, IpcError};
use crate::mind::minds::Minds;
use crate::org::{OrgError, OrgService};
pub use crate::types::Language;
pub use crate::types::ToolName;

pub use company::{Fire, Hire, RaiseBudget, ReadMemory};
pub use files::{DeleteFile, ReadFile, WriteFile};
pub use key_steps::{ChangeTeamMemory, CommitToDate};
pub use shell::{RunCli, RunShell};
pub use webhook::{PostWebhook, WebhookStyle};

pub use cubicle_store::enums::Risk;

/// What an employee asks to do: the tool, its arguments and why.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolCall {
    pub tool: String,
    pub args: serde_json::Value,
    pub reason: String,
    /// Colleagues who backed the request (recorded in the authorization chain).
    #[serde(default)]
    pub supported_by: Vec<i32>,
    /// Asked by a pending thought (`pt<id>:tool:<n>`): filed or run at most once however
    /// often the thought is replayed after a kill (SPEC §10).
    #[serde(skip)]
    pub effect_key: Option<String>,
}

impl ToolCall {
    /// A call of `tool`: a [`ToolName`], or a name as a model wrote it.
    pub fn new(tool: impl ToString, args: serde_json::Value, reason: &str) -> Self {
        Self {
            tool: tool.to_string(),
            args,
            reason: reason.to_owned(),
            supported_by: Vec::new(),
            effect_key: None,
        }
    }

    /// The same call, asked under a pending thought's effect key.
    pub fn keyed(mut self, key: String) -> Self {
        self.effect_key = Some(key);
        self
    }
}

#[derive(Debug, thiserror::Error)]
pub enum ToolError {
    #[error("there is no tool named {0:?}")]
    UnknownTool(String),
    #[error("invalid arguments for {tool}: {message}")]
    InvalidArgs { tool: String, message: String },
    #[error("{0}")]
    OutsideWorkspace(String),
    #[error("timed out after {0} s")]
    Timeout(u64),
    #[error("{0}")]
    Io(String),
    #[error("webhook: {0}")]
    Webhook(#[from] cubicle_llm::PostError),
    #[error("{0}")]
    NotConfigured(String),
    /// Came in with an imported company; the boss has not confirmed it here.
    #[error("{0}")]
    NotConfirmed(String),
    #[error("employee {0} does not exist")]
    EmployeeNotFound(i32),
    #[error("the arguments no longer match the approved ones")]
    ArgsChanged,
    /// The box could not be built: the command did not run.
    #[error(transparent)]
    Sandbox(#[from] sandbox::SandboxError),
    /// The approval key could not be had: nothing was filed or run.
    #[error(transparent)]
    Seal(#[from] crate::approvals::SealError),

    #[error(transparent)]
    Org(#[from] OrgError),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
    /// Approved, but not by a decision the engine can stand behind: nothing ran.
    #[error(transparent)]
    NotRun(#[from] crate::approvals::NotRun),
}

impl ToolError {
    pub fn code(&self) -> ErrorCode {
        match self {
            ToolError::UnknownTool(_) | ToolError::EmployeeNotFound(_) => ErrorCode::NotFound,
            ToolError::InvalidArgs { .. } | ToolError::OutsideWorkspace(_) => {
                ErrorCode::InvalidInput
            }
            ToolError::Org(e) => e.code(),
            ToolError::NotConfirmed(_) => ErrorCode::NotConfirmed,
            ToolError::Storage(_) => ErrorCode::Storage,
            _ => ErrorCode::ToolFailed,
        }
    }

    /// The error as the company reads it (SPEC §17): the requester's line, the approval's
    /// outcome and the tool-call log say it in the company's language. What a program
    /// below said in its own words (an OS error, a server's text) is not repeated in a
    /// Chinese line; the log keeps the English one.
    pub fn in_language(&self, lang: Language) -> String {
        use cubicle_llm::PostError as P;
        if lang == Language::En {
            return self.to_string();
        }
        match self {
            ToolError::UnknownTool(t) => format!("没有名为 {t} 的工具"),
            ToolError::InvalidArgs { tool, .. } => format!("{tool} 的参数无效"),
            ToolError::OutsideWorkspace(_) => "路径不在公司工作区内".to_owned(),
            ToolError::Timeout(s) => format!("{s} 秒后超时"),
            ToolError::Webhook(P::InvalidUrl(u)) => format!("只能发往 http 或 https 地址：{u}"),
            ToolError::Webhook(P::NotAllowed(h)) => {
                format!("{h} 不在老板的 webhook 目标列表中（设置 → Webhook）")
            }
            ToolError::Webhook(P::PrivateAddress { host, addr, kind }) => {
                use cubicle_llm::webhook::AddressKind as K;
                let kind = match kind {
                    K::Loopback => "本机",
                    K::Private | K::UniqueLocal => "内网",
                    K::LinkLocal => "链路本地",
                    K::SharedCgnat | K::Unspecified | K::Reserved => "非公网",
                };
                format!("{host} 解析到 {addr}，是{kind}地址：webhook 只能发往公网地址")
            }
            ToolError::Webhook(P::Resolve(h, _)) => format!("无法解析主机名 {h}"),
            ToolError::Webhook(P::Transport(_)) => "请求没有完成（网络出错）".to_owned(),
            ToolError::Webhook(P::Redirect(code)) => {
                format!("对方服务器返回 {code}（重定向，不会跟随）")
            }
            ToolError::Webhook(P::Status(code)) => format!("对方服务器返回 {code}"),
            ToolError::EmployeeNotFound(id) => format!("员工 #{id} 不存在"),
            ToolError::ArgsChanged => "参数与批准时的不一致".to_owned(),
            ToolError::Storage(_) => "公司数据读写出错".to_owned(),
            ToolError::Sandbox(_) => "沙箱没能运行这条命令".to_owned(),
            ToolError::Io(_) => "读写文件出错".to_owned(),
            ToolError::NotRun(crate::approvals::NotRun::Unsealed) => {
                "没有 Cubicle 密封的决定就被标记为已批准（在应用之外改过）；未执行".to_owned()
            }
            ToolError::NotRun(crate::approvals::NotRun::Late) => {
                "已获批准，但审批过期前没有开始执行；未执行".to_owned()
            }
            ToolError::NotConfigured(_)
            | ToolError::NotConfirmed(_)
            | ToolError::Seal(_)
            | ToolError::Org(_) => "执行出错".to_owned(),
        }
    }

    fn invalid(tool: ToolName, message: impl Into<String>) -> Self {
        ToolError::InvalidArgs {
            tool: tool.to_string(),
            message: message.into(),
        }
    }
}

impl From<ToolError> for IpcError {
    fn from(e: ToolError) -> Self {
        if let ToolError::Storage(inner) = &e {
            tracing::error!(error = %inner, "storage error");
        }
        IpcError::new(e.code(), e.to_string())
    }
}

/// Time limits and caps of the tools (SPEC §10 asks for a time limit on anything that
/// can hang).
#[derive(Clone, Debug)]
pub struct ToolsConfig {
    /// Default and longest run of `run_shell` (a call may ask for less).
    pub shell_timeout: Duration,
    /// A CLI employee's run (`run_cli`).
    pub cli_timeout: Duration,
    pub webhook_timeout: Duration,
    /// Captured stdout/stderr and file reads are cut here.
    pub max_output_chars: usize,
    /// The box `run_shell` and `run_cli` run in.
    pub sandbox: sandbox::SandboxConfig,
    /// Lets webhooks reach loopback addresses (every other check stays). Tests only:
    /// they have no public server; set in code, never from anything a model writes.
    pub webhook_loopback_for_tests: bool,
}

/// Whether `CUBICLE_TEST_WEBHOOK_LOOPBACK=1` lets webhooks reach 127.0.0.1: the CLI's and
/// the desktop app's own end-to-end tests post to receivers there. Debug builds only: a
/// release binary has no switch that lets a webhook reach this machine.
pub fn loopback_webhooks_for_tests_from_env() -> bool {
    cfg!(debug_assertions) && std::env::var("CUBICLE_TEST_WEBHOOK_LOOPBACK").is_ok_and(|v| v == "1")
}

impl Default for ToolsConfig {
    fn default() -> Self {
        Self {
            shell_timeout: Duration::from_secs(60),
            cli_timeout: Duration::from_secs(300),
            webhook_timeout: Duration::from_secs(20),
            max_output_chars: 16_000,
            sandbox: sandbox::SandboxConfig::default(),
            webhook_loopback_for_tests: false,
        }
    }
}

/// What tools run with: the services they call and the company workspace folder.
#[derive(Clone)]
pub struct ToolRuntime {
    pub db: Db,
    pub org: OrgService,
    pub chats: Chats,
    pub minds: Minds,
    pub clock: SharedClock,
    /// The company workspace; files tools and `run_shell` never leave it.
    pub workspace: PathBuf,
    pub config: ToolsConfig,
}

impl std::fmt::Debug for ToolRuntime {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ToolRuntime")
            .field("workspace", &self.workspace)
            .finish_non_exhaustive()
    }
}

impl ToolRuntime {
    /// The workspace, created on first use, as a canonical path.
    pub fn workspace_root(&self) -> Result<PathBuf, ToolError> {
        std::fs::create_dir_all(&self.workspace).map_err(io_error)?;
        self.workspace.canonicalize().map_err(io_error)
    }

    /// The workspace as the folder of a box (`run_shell`'s).
    pub fn workspace_folder(&self) -> Result<sandbox::BoxFolder, ToolError> {
        Ok(sandbox::BoxFolder::open(&self.workspace_root()?)?)
    }

    /// A CLI employee's own folder (`employees/<id>`) as the folder of its box: walked
    /// from the workspace without following a link, made when missing, and held by its
    /// handle from then on — whatever a colleague's box puts at that name, the box gets
    /// this folder or none.
    pub fn employee_folder(&self, employee_id: i32) -> Result<sandbox::BoxFolder, ToolError> {
        let root = self.workspace_root()?;
        let rel = format!("employees/{employee_id}");
        let dir = beneath::Beneath::open(&root)?.dir(&rel)?;
        Ok(sandbox::BoxFolder::checked(dir, root.join(rel))?)
    }
}

/// One call in progress: who calls, with what.
pub struct ToolContext<'a> {
    pub runtime: &'a ToolRuntime,
    pub employee: &'a employee::Model,
}

/// A typed tool. `bind` runs when the call is made (before any approval) and may fill
/// in what the approval must show and be bound to; `run` runs only when allowed.
pub trait Tool {
    /// Its name; [`dispatch!`] maps the name back to this impl.
    const NAME: ToolName;
    const RISK: Risk;
    const DESCRIPTION: &'static str;
    type Args: DeserializeOwned + Serialize + JsonSchema + Send + Sync;
    type Output: Serialize + Send;

    /// Checks and completes the arguments at request time.
    fn bind(_cx: &ToolContext<'_>, args: Self::Args) -> Result<Self::Args, ToolError> {
        Ok(args)
    }

    /// The risk of this very call, once bound: the tool's own by default; a tool whose
    /// effect depends on its arguments (a write to a dotfile) raises it. May refuse.
    fn assess(
        _cx: &ToolContext<'_>,
        _args: &Self::Args,
    ) -> impl Future<Output = Result<Risk, ToolError>> + Send {
        async { Ok(Self::RISK) }
    }

    fn run(
        cx: &ToolContext<'_>,
        args: Self::Args,
    ) -> impl Future<Output = Result<Self::Output, ToolError>> + Send;

    /// One line for an approval card or a notification, in the company's language.
    fn describe(args: &Self::Args, lang: Language) -> String;

    /// What approving it would cost in USD, when known.
    fn cost_estimate(_args: &Self::Args) -> f64 {
        0.0
    }
}

/// A tool as the UI and the thought prompt list it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ToolSpec {
    pub name: String,
    pub risk: Risk,
    pub description: String,
    /// JSON schema of the arguments.
    #[ts(type = "unknown")]
    pub args_schema: serde_json::Value,
}

fn spec<T: Tool>() -> ToolSpec {
    ToolSpec {
        name: T::NAME.to_string(),
        risk: T::RISK,
        description: T::DESCRIPTION.to_owned(),
        args_schema: serde_json::to_value(schemars::schema_for!(T::Args)).unwrap_or_default(),
    }
}

/// Calls `$f::<Tool>($args)` for the tool `$tool` (a [`ToolName`]). The match is
/// exhaustive: a name without an impl does not compile, and
/// `each_name_dispatches_to_the_tool_of_that_name` checks that each arm's impl is the one
/// that names itself so.
macro_rules! for_tool {
    ($tool:expr, $f:ident, ($($args:expr),*)) => {
        match $tool {
            ToolName::ReadMemory => $f::<ReadMemory>($($args),*),
            ToolName::ReadFile => $f::<ReadFile>($($args),*),
            ToolName::WriteFile => $f::<WriteFile>($($args),*),
            ToolName::DeleteFile => $f::<DeleteFile>($($args),*),
            ToolName::RunShell => $f::<RunShell>($($args),*),
            ToolName::RunCli => $f::<RunCli>($($args),*),
            ToolName::PostWebhook => $f::<PostWebhook>($($args),*),
            ToolName::RaiseBudget => $f::<RaiseBudget>($($args),*),
            ToolName::Hire => $f::<Hire>($($args),*),
            ToolName::Fire => $f::<Fire>($($args),*),
            ToolName::ChangeTeamMemory => $f::<ChangeTeamMemory>($($args),*),
            ToolName::CommitToDate => $f::<CommitToDate>($($args),*),
        }
    };
}

/// [`for_tool!`] for the tool named `$name` (a `&str`), or evaluates `$none` when it
/// names none.
macro_rules! dispatch {
    ($name:expr, $f:ident, ($($args:expr),*), $none:expr) => {
        match $name.parse::<ToolName>() {
            Ok(tool) => for_tool!(tool, $f, ($($args),*)),
            Err(_) => $none,
        }
    };
}

/// Every tool, in [`ToolName::ALL`]'s order.
pub fn catalogue() -> Vec<ToolSpec> {
    ToolName::ALL
        .iter()
        .map(|&name| for_tool!(name, spec, ()))
        .collect()
}

/// The tools a whitelist can grant: the catalogue without the key steps every
/// employee has anyway.
pub fn grantable() -> Vec<ToolSpec> {
    catalogue()
        .into_iter()
        .filter(|t| !key_steps::BUILT_IN.iter().any(|b| t.name == *b))
        .collect()
}

fn risk_typed<T: Tool>() -> Option<Risk> {
    Some(T::RISK)
}

/// The risk of the tool named `name`, if there is one.
/// A tool as a prompt lists it: `post_webhook(url, text, style?)`; `None` for a name
/// that is not a tool.
pub fn signature(name: &str) -> Option<String> {
    let spec = catalogue().into_iter().find(|t| t.name == name)?;
    let props = spec.args_schema.get("properties")?.as_object()?;
    let required: Vec<&str> = spec
        .args_schema
        .get("required")
        .and_then(serde_json::Value::as_array)
        .map(|r| r.iter().filter_map(serde_json::Value::as_str).collect())
        .unwrap_or_default();
    let args: Vec<String> = props
        .keys()
        .map(|k| {
            if required.contains(&k.as_str()) {
                k.clone()
            } else {
                format!("{k}?")
            }
        })
        .collect();
    Some(format!("{}({})", spec.name, args.join(", ")))
}

pub fn risk_of(name: &str) -> Option<Risk> {
    dispatch!(name, risk_typed, (), None)
}

fn parse<T: Tool>(args: serde_json::Value) -> Result<T::Args, ToolError> {
    serde_json::from_value(args).map_err(|e| ToolError::invalid(T::NAME, e.to_string()))
}

fn to_value<T: Tool>(v: &impl Serialize) -> Result<serde_json::Value, ToolError> {
    serde_json::to_value(v).map_err(|e| ToolError::invalid(T::NAME, e.to_string()))
}

fn bind_typed<T: Tool>(
    cx: &ToolContext<'_>,
    args: serde_json::Value,
) -> Result<serde_json::Value, ToolError> {
    let args = T::bind(cx, parse::<T>(args)?)?;
    to_value::<T>(&args)
}

/// Checks `args` and returns them normalised (defaults filled in, bound to the caller's
/// configuration): the form that is stored, hashed, approved and later run.
pub fn bind(
    cx: &ToolContext<'_>,
    name: &str,
    args: serde_json::Value,
) -> Result<serde_json::Value, ToolError> {
    dispatch!(
        name,
        bind_typed,
        (cx, args),
        Err(ToolError::UnknownTool(name.to_owned()))
    )
}

async fn assess_typed<T: Tool>(
    cx: &ToolContext<'_>,
    args: &serde_json::Value,
) -> Result<Risk, ToolError> {
    T::assess(cx, &parse::<T>(args.clone())?).await
}

type BoxedRisk<'a> = std::pin::Pin<Box<dyn Future<Output = Result<Risk, ToolError>> + Send + 'a>>;

fn assess_boxed<'a, T: Tool + 'a>(
    cx: &'a ToolContext<'a>,
    args: &'a serde_json::Value,
) -> BoxedRisk<'a> {
    Box::pin(assess_typed::<T>(cx, args))
}

/// The risk of a bound call (see [`Tool::assess`]): what the policy weighs.
pub async fn assess(
    cx: &ToolContext<'_>,
    name: &str,
    args: &serde_json::Value,
) -> Result<Risk, ToolError> {
    let unknown = ToolError::UnknownTool(name.to_owned());
    dispatch!(
        name,
        assess_boxed,
        (cx, args),
        Box::pin(async move { Err(unknown) }) as BoxedRisk<'_>
    )
    .await
}

async fn run_typed<T: Tool>(
    cx: &ToolContext<'_>,
    args: serde_json::Value,
) -> Result<serde_json::Value, ToolError> {
    let out = T::run(cx, parse::<T>(args)?).await?;
    to_value::<T>(&out)
}

/// Runs the tool. Only [`crate::approvals`] calls this, after whitelist and policy.
pub(crate) async fn execute(
    cx: &ToolContext<'_>,
    name: &str,
    args: serde_json::Value,
) -> Result<serde_json::Value, ToolError> {
    let unknown = ToolError::UnknownTool(name.to_owned());
    dispatch!(
        name,
        run_boxed,
        (cx, args),
        Box::pin(async move { Err(unknown) }) as BoxedRun<'_>
    )
    .await
}

type BoxedRun<'a> =
    std::pin::Pin<Box<dyn Future<Output = Result<serde_json::Value, ToolError>> + Send + 'a>>;

// `dispatch!` needs every arm to have one type; boxing the typed futures gives them one.
fn run_boxed<'a, T: Tool + 'a>(cx: &'a ToolContext<'a>, args: serde_json::Value) -> BoxedRun<'a> {
    Box::pin(run_typed::<T>(cx, args))
}

fn describe_typed<T: Tool>(args: &serde_json::Value, lang: Language) -> (String, f64) {
    match serde_json::from_value::<T::Args>(args.clone()) {
        Ok(a) => (T::describe(&a, lang), T::cost_estimate(&a)),
        Err(_) => (T::NAME.to_string(), 0.0),
    }
}

/// One line describing the call in `lang`, and its cost estimate in USD.
pub fn describe(name: &str, args: &serde_json::Value, lang: Language) -> (String, f64) {
    dispatch!(name, describe_typed, (args, lang), (name.to_owned(), 0.0))
}

/// The most of an action's description a chat line or a mail quotes; the queue and the
/// approval's own view show all of it.
pub const SHORT_DESCRIPTION_CHARS: usize = 200;

/// [`describe`], cut for a chat line or a mail.
pub fn describe_short(name: &str, args: &serde_json::Value, lang: Language) -> String {
    clip(&describe(name, args, lang).0, SHORT_DESCRIPTION_CHARS)
}

/// Whether `tool` is on the whitelist. The key steps every employee has
/// ([`key_steps::BUILT_IN`]) always are; names from before the tools existed
/// (`read_company_docs`, `write_workspace_file`) grant what they meant.
pub fn whitelisted(whitelist: &[String], tool: &str) -> bool {
    let named = tool.parse::<ToolName>().ok();
    named.is_some_and(|t| key_steps::BUILT_IN.contains(&t))
        || whitelist.iter().any(|w| {
            w == tool
                || (w == "read_company_docs"
                    && matches!(named, Some(ToolName::ReadFile | ToolName::ReadMemory)))
                || (w == "write_workspace_file" && named == Some(ToolName::WriteFile))
        })
}

/// JSON with object keys sorted at every level and no whitespace: the same value always
/// gives the same text, whatever order its keys were written in.
pub fn canonical_json(v: &serde_json::Value) -> String {
    fn write(v: &serde_json::Value, out: &mut String) {
        match v {
            serde_json::Value::Object(map) => {
                let mut keys: Vec<&String> = map.keys().collect();
                keys.sort();
                out.push('{');
                for (i, k) in keys.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    out.push_str(&serde_json::Value::String((*k).clone()).to_string());
                    out.push(':');
                    if let Some(x) = map.get(*k) {
                        write(x, out);
                    }
                }
                out.push('}');
            }
            serde_json::Value::Array(items) => {
                out.push('[');
                for (i, x) in items.iter().enumerate() {
                    if i > 0 {
                        out.push(',');
                    }
                    write(x, out);
                }
                out.push(']');
            }
            other => out.push_str(&other.to_string()),
        }
    }
    let mut out = String::new();
    write(v, &mut out);
    out
}

pub(crate) fn io_error(e: std::io::Error) -> ToolError {
    ToolError::Io(e.to_string())
}

/// Cuts `s` to `max` characters, saying so.
pub(crate) fn clip(s: &str, max: usize) -> String {
    if s.chars().count() <= max {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(max).collect();
    out.push_str("\n[… cut]");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn canonical_json_sorts_keys_at_every_level() {
        let a = serde_json::json!({"b": 1, "a": {"y": [1, {"k": 2, "j": 3}], "x": "s"}});
        let b: serde_json::Value =
            serde_json::from_str(r#"{"a":{"x":"s","y":[1,{"j":3,"k":2}]},"b":1}"#).unwrap();
        assert_eq!(canonical_json(&a), canonical_json(&b));
        assert_eq!(
            canonical_json(&a),
            r#"{"a":{"x":"s","y":[1,{"j":3,"k":2}]},"b":1}"#
        );
    }

    #[test]
    fn every_tool_has_a_risk_and_a_schema() {
        let all = catalogue();
        assert_eq!(all.len(), 12);
        for t in &all {
            assert_eq!(risk_of(&t.name), Some(t.risk));
            assert!(t.args_schema.is_object(), "{}", t.name);
        }
        assert_eq!(risk_of("read_memory"), Some(Risk::ReadOnly));
        assert_eq!(risk_of("write_file"), Some(Risk::Write));
        assert_eq!(risk_of("run_shell"), Some(Risk::High));
        assert_eq!(risk_of("launch_rockets"), None);
        // The key steps are high risk, and every employee has them.
        for step in key_steps::BUILT_IN {
            assert_eq!(risk_of(&step.to_string()), Some(Risk::High));
            assert!(whitelisted(&[], &step.to_string()));
        }
    }

    fn name_of_impl<T: Tool>() -> ToolName {
        T::NAME
    }

    /// Every registered tool has a name and every name a tool: `dispatch!` is exhaustive
    /// over [`ToolName`], and here each name reaches the impl that names itself so.
    #[test]
    fn each_name_dispatches_to_the_tool_of_that_name() {
        for name in ToolName::ALL {
            assert_eq!(for_tool!(name, name_of_impl, ()), name);
        }
        let listed: Vec<String> = catalogue().into_iter().map(|t| t.name).collect();
        let all: Vec<String> = ToolName::ALL.iter().map(ToString::to_string).collect();
        assert_eq!(listed, all);
    }

    #[test]
    fn a_refused_private_address_is_named_in_chinese_by_its_kind() {
        use cubicle_llm::webhook::AddressKind;
        let refused = |kind| {
            ToolError::Webhook(cubicle_llm::PostError::PrivateAddress {
                host: "hooks.internal".into(),
                addr: "10.0.0.1".parse().unwrap(),
                kind,
            })
        };
        let zh = |kind| refused(kind).in_language(Language::ZhCn);
        assert!(zh(AddressKind::Loopback).contains("是本机地址"));
        assert!(zh(AddressKind::UniqueLocal).contains("是内网地址"));
        assert!(zh(AddressKind::LinkLocal).contains("是链路本地地址"));
        assert!(zh(AddressKind::SharedCgnat).contains("是非公网地址"));
        assert!(
            refused(AddressKind::SharedCgnat)
                .in_language(Language::En)
                .contains("a shared (CGNAT) address")
        );
    }

    #[test]
    fn legacy_whitelist_names_still_grant_their_tools() {
        let old = vec!["read_company_docs".to_owned()];
        assert!(whitelisted(&old, "read_file"));
        assert!(!whitelisted(&old, "write_file"));
        assert!(whitelisted(&["write_file".to_owned()], "write_file"));
        assert!(!whitelisted(&[], "read_file"));
    }
}
