//! The tools' names, one closed set: each `Tool` impl names itself by a [`ToolName`], and
//! what people read about a tool — the approval queue's title, the tools card's label and
//! hint, a notification's "wants to …" — is written here once, in both languages, by an
//! exhaustive match. The UI reads the same words from the generated `toolTable.ts`, so a
//! new tool cannot reach a screen without them.
//!
//! A tool call keeps its tool as the text the model wrote (`ToolCall::tool`): a name that
//! is not a tool is refused, and logged as written.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{Language, name_of};

/// A tool, as models, the whitelist and the approvals name it (`run_shell`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ToolName {
    ReadMemory,
    ReadFile,
    WriteFile,
    DeleteFile,
    RunShell,
    RunCli,
    PostWebhook,
    RaiseBudget,
    Hire,
    Fire,
    ChangeTeamMemory,
    CommitToDate,
}

/// What a person reads about one tool, in one language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, TS)]
pub struct ToolWords {
    /// The action, as an approval's title names it: "Post to a webhook".
    pub action: &'static str,
    /// The ability, as the tools card lists it for granting: "Ask to hire".
    pub ability: &'static str,
    /// What granting it lets an employee do, under the ability.
    pub hint: &'static str,
    /// What the employee wants, after "Ann wants to" / "Ann 想要": "post to a webhook".
    pub wants: &'static str,
}

const fn words(
    action: &'static str,
    ability: &'static str,
    hint: &'static str,
    wants: &'static str,
) -> ToolWords {
    ToolWords {
        action,
        ability,
        hint,
        wants,
    }
}

impl ToolName {
    /// Every tool, in the catalogue's order (what the tools card and the prompt list).
    pub const ALL: [ToolName; 12] = [
        ToolName::ReadMemory,
        ToolName::ReadFile,
        ToolName::WriteFile,
        ToolName::DeleteFile,
        ToolName::RunShell,
        ToolName::RunCli,
        ToolName::PostWebhook,
        ToolName::RaiseBudget,
        ToolName::Hire,
        ToolName::Fire,
        ToolName::ChangeTeamMemory,
        ToolName::CommitToDate,
    ];

    /// The tool's words in `lang`.
    pub fn words(self, lang: Language) -> ToolWords {
        match lang {
            Language::En => self.en(),
            Language::ZhCn => self.zh(),
        }
    }

    fn en(self) -> ToolWords {
        match self {
            ToolName::ReadMemory => words(
                "Read memories",
                "Read memories",
                "Search the memories they may see: their own, their team's, the company's.",
                "read the company's memory",
            ),
            ToolName::ReadFile => words(
                "Read a file",
                "Read files",
                "Read a text file from the company workspace.",
                "read a file",
            ),
            ToolName::WriteFile => words(
                "Write a file",
                "Write files",
                "Create or replace a text file in the company workspace.",
                "write a file",
            ),
            ToolName::DeleteFile => words(
                "Delete a file",
                "Delete files",
                "Delete one file (not a folder) from the company workspace.",
                "delete a file",
            ),
            ToolName::RunShell => words(
                "Run a shell command",
                "Run shell commands",
                "Run a shell command in the company workspace folder, time-limited, in a sandbox: \
                 it writes only there, cannot see home folders, the keychain or the app's data, \
                 and has no network unless you allow it for them under Network below.",
                "run a shell command",
            ),
            ToolName::RunCli => words(
                "Run the CLI agent",
                "Run the CLI agent",
                "Run their own command-line program in their own folder, with the request on \
                 stdin, in the same sandbox: it writes only in that folder and has no network \
                 unless you allow it for them.",
                "run a command-line tool",
            ),
            ToolName::PostWebhook => words(
                "Post to a webhook",
                "Post to a webhook",
                "Post a message to a Slack, Feishu or DingTalk webhook outside the company.",
                "post to a webhook",
            ),
            ToolName::RaiseBudget => words(
                "Raise the budget",
                "Ask for more budget",
                "Ask to raise the company's daily model budget.",
                "raise the budget",
            ),
            ToolName::Hire => words(
                "Hire",
                "Ask to hire",
                "Ask you to hire someone.",
                "hire someone",
            ),
            ToolName::Fire => words(
                "Fire",
                "Ask to fire",
                "Ask you to let a colleague go.",
                "let someone go",
            ),
            ToolName::ChangeTeamMemory => words(
                "Change team memory",
                "Change team memory",
                "Add a memory their team or the whole company shares, or delete one they \
                 shared. A key step every employee has.",
                "change what the team remembers",
            ),
            ToolName::CommitToDate => words(
                "Commit to a date",
                "Commit to a date",
                "Ask before promising anyone a date, and promise it only once approved. A key \
                 step every employee has.",
                "commit to a date",
            ),
        }
    }

    fn zh(self) -> ToolWords {
        match self {
            ToolName::ReadMemory => words(
                "读取记忆",
                "读取记忆",
                "检索其可见的记忆：自己的、团队的、公司的。",
                "读取公司记忆",
            ),
            ToolName::ReadFile => words(
                "读取文件",
                "读取文件",
                "读取公司工作区中的文本文件。",
                "读取一个文件",
            ),
            ToolName::WriteFile => words(
                "写入文件",
                "写入文件",
                "在公司工作区中创建或覆盖文本文件。",
                "写入一个文件",
            ),
            ToolName::DeleteFile => words(
                "删除文件",
                "删除文件",
                "从公司工作区删除一个文件（不能删文件夹）。",
                "删除一个文件",
            ),
            ToolName::RunShell => words(
                "运行 Shell 命令",
                "运行 Shell 命令",
                "在公司工作区文件夹中运行 Shell 命令，有时间限制，并在沙箱中运行：只能写入该文件夹，\
                 看不到主目录、钥匙串和应用数据；除非你在下方“网络”中为该员工开启，否则不能联网。",
                "运行一条 Shell 命令",
            ),
            ToolName::RunCli => words(
                "运行命令行智能体",
                "运行命令行智能体",
                "在自己的文件夹中运行自己的命令行程序，请求内容从标准输入传入，在同样的沙箱中运行：\
                 只能写入该文件夹；除非你为该员工开启，否则不能联网。",
                "运行一个命令行工具",
            ),
            ToolName::PostWebhook => words(
                "发送到 Webhook",
                "发送到 Webhook",
                "向公司外部的 Slack、飞书或钉钉 Webhook 发送消息。",
                "向 Webhook 发送消息",
            ),
            ToolName::RaiseBudget => words(
                "提高预算",
                "申请提高预算",
                "申请提高公司每日的模型预算。",
                "提高预算",
            ),
            ToolName::Hire => words("招聘", "申请招聘", "请你招聘新人。", "招聘新员工"),
            ToolName::Fire => words("解雇", "申请解雇", "请你解雇一位同事。", "解雇一名员工"),
            ToolName::ChangeTeamMemory => words(
                "修改团队记忆",
                "修改团队记忆",
                "添加一条团队或全公司共享的记忆，或删除自己共享过的一条。每位员工都有的关键步骤。",
                "修改团队记忆",
            ),
            ToolName::CommitToDate => words(
                "承诺交付日期",
                "承诺交付日期",
                "向任何人承诺日期之前先申请，获批后才承诺。每位员工都有的关键步骤。",
                "承诺一个交付日期",
            ),
        }
    }
}

/// The serde name (`run_shell`).
impl fmt::Display for ToolName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&name_of(self))
    }
}

/// The text is not a tool's name.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("there is no tool named {0:?}")]
pub struct NotATool(pub String);

/// Reads a serde name exactly as written (no trimming: a whitelist entry or a stored call).
impl FromStr for ToolName {
    type Err = NotATool;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        serde_json::from_value(serde_json::Value::String(s.to_owned()))
            .map_err(|_| NotATool(s.to_owned()))
    }
}

impl PartialEq<ToolName> for str {
    fn eq(&self, other: &ToolName) -> bool {
        self.parse::<ToolName>().is_ok_and(|t| t == *other)
    }
}

impl PartialEq<ToolName> for String {
    fn eq(&self, other: &ToolName) -> bool {
        self.as_str() == other
    }
}

/// The words of every tool in both languages as TypeScript (`ui/src/bindings/toolTable.ts`):
/// the list of names in the catalogue's order and a table the i18n resources merge in.
pub fn words_module() -> String {
    let mut out = String::from(
        "// This file was generated from crates/core/src/types/tool_name.rs by \
         `cargo run -p cubicle-cli -- dev export-bindings`. Do not edit this file manually.\n\n\
         import type { Language } from \"./Language\";\n\
         import type { ToolName } from \"./ToolName\";\n\
         import type { ToolWords } from \"./ToolWords\";\n\n\
         /** Every tool, in the catalogue's order. */\n\
         export const TOOL_NAMES: readonly ToolName[] = [\n",
    );
    for name in ToolName::ALL {
        out.push_str(&format!("  \"{name}\",\n"));
    }
    out.push_str(
        "];\n\n/** What a person reads about each tool, in each language. */\n\
         export const TOOL_WORDS: Record<Language, Record<ToolName, ToolWords>> = {\n",
    );
    for lang in [Language::En, Language::ZhCn] {
        out.push_str(&format!("  \"{}\": {{\n", name_of(&lang)));
        for name in ToolName::ALL {
            let words = serde_json::to_string(&name.words(lang)).unwrap_or_default();
            out.push_str(&format!("    \"{name}\": {words},\n"));
        }
        out.push_str("  },\n");
    }
    out.push_str("};\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The derive's own list of the variants, as TypeScript reads them.
    fn variants() -> Vec<String> {
        ToolName::inline(&ts_rs::Config::default())
            .split(" | ")
            .map(|v| v.trim_matches('"').to_owned())
            .collect()
    }

    #[test]
    fn all_lists_every_variant_once() {
        let all: Vec<String> = ToolName::ALL.iter().map(ToString::to_string).collect();
        let mut sorted = all.clone();
        sorted.sort();
        sorted.dedup();
        assert_eq!(sorted.len(), all.len(), "no tool twice");
        let mut derived = variants();
        derived.sort();
        assert_eq!(sorted, derived);
    }

    #[test]
    fn names_read_back_and_nothing_else_is_a_tool() {
        for name in ToolName::ALL {
            assert_eq!(name.to_string().parse::<ToolName>(), Ok(name));
            assert!(*name.to_string() == name);
        }
        assert_eq!(ToolName::RunShell.to_string(), "run_shell");
        assert!("launch_rockets".parse::<ToolName>().is_err());
        assert!(
            " run_shell".parse::<ToolName>().is_err(),
            "exactly as written"
        );
    }

    #[test]
    fn every_tool_has_all_its_words_in_both_languages() {
        for name in ToolName::ALL {
            let (en, zh) = (name.words(Language::En), name.words(Language::ZhCn));
            for (w, what) in [
                (en.action, "action"),
                (en.ability, "ability"),
                (en.hint, "hint"),
                (en.wants, "wants"),
                (zh.action, "action"),
                (zh.ability, "ability"),
                (zh.hint, "hint"),
                (zh.wants, "wants"),
            ] {
                assert!(!w.trim().is_empty(), "{name} has no {what}");
            }
            assert_ne!(en.hint, zh.hint, "{name}'s hint is translated");
            assert!(!zh.action.is_ascii(), "{name}'s Chinese action is Chinese");
        }
    }

    #[test]
    fn the_generated_table_has_every_tool_in_both_languages() {
        let ts = words_module();
        for name in ToolName::ALL {
            assert_eq!(ts.matches(&format!("\"{name}\"")).count(), 3, "{name}");
        }
        assert!(ts.contains("\"zh-CN\": {"));
    }
}
