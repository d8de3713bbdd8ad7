//! Key steps that are part of every employee's ordinary work rather than tools someone
//! chose to give them (SPEC §8): changing what the team remembers, and committing to a
//! date. Every employee may propose them (no whitelist needed); the approval policy
//! decides whether they wait for the boss — under `key_steps` they do.
//!
//! The engine turns a thought's memory op with `team` or `public` visibility into a
//! `change_team_memory` call, so a shared memory is only written once approved; a
//! model asks for `commit_to_date` itself (its agent card says to, before promising).

use cubicle_store::{chat as cq, mind as mq, work as wq};
use schemars::JsonSchema;
use sea_orm::ActiveEnum;
use serde::{Deserialize, Serialize};

use super::{Risk, Tool, ToolContext, ToolError, ToolName};
use crate::mind::memory_rules::{MemoryKind, Visibility};
use crate::mind::minds::NewMemory;
use crate::types::Language;
use crate::types::read_name;

/// The longest commitment text (what is promised, to whom, by when).
const COMMITMENT_MAX_CHARS: usize = 300;
/// How much a commitment matters in its owner's memory (1–10).
const COMMITMENT_IMPORTANCE: i32 = 8;

/// The key steps every employee has, whatever their whitelist.
pub const BUILT_IN: [ToolName; 2] = [ChangeTeamMemory::NAME, CommitToDate::NAME];

/// The name the engine files a shared memory op under.
pub const CHANGE_TEAM_MEMORY: ToolName = ChangeTeamMemory::NAME;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
pub enum MemoryChange {
    Add,
    Delete,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChangeTeamMemoryArgs {
    pub action: MemoryChange,
    /// What to remember (for `add`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub content: Option<String>,
    /// 1–10 (for `add`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub importance: Option<i32>,
    /// `team` (the department, or the requirement it is about) or `public` (everyone).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub visibility: Option<String>,
    /// The requirement the memory is about (its team sees it).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub requirement_id: Option<i32>,
    /// The shared memory to delete (one of your own).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub memory_id: Option<i32>,
}

pub struct ChangeTeamMemory;

impl ChangeTeamMemory {
    fn invalid(message: &str) -> ToolError {
        ToolError::InvalidArgs {
            tool: Self::NAME.to_string(),
            message: message.into(),
        }
    }

    fn shared_visibility(v: Option<&str>) -> Result<Visibility, ToolError> {
        match v.map_or(Some(Visibility::Team), read_name) {
            Some(v @ (Visibility::Team | Visibility::Public)) => Ok(v),
            _ => Err(Self::invalid("visibility must be team or public")),
        }
    }
}

impl Tool for ChangeTeamMemory {
    const NAME: ToolName = ToolName::ChangeTeamMemory;
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str =
        "Add a memory your team (or the whole company) will share, or delete one you shared.";
    type Args = ChangeTeamMemoryArgs;
    type Output = serde_json::Value;

    /// Checked when asked, so the approval shows exactly what would change: the text,
    /// or the memory that would go (checked to be the employee's own when it runs).
    fn bind(
        _cx: &ToolContext<'_>,
        mut args: ChangeTeamMemoryArgs,
    ) -> Result<ChangeTeamMemoryArgs, ToolError> {
        match args.action {
            MemoryChange::Add => {
                let content = args.content.as_deref().map(str::trim).unwrap_or_default();
                if content.is_empty() {
                    return Err(Self::invalid("content is required to add a memory"));
                }
                args.content = Some(content.to_owned());
                args.visibility =
                    Some(Self::shared_visibility(args.visibility.as_deref())?.to_value());
                args.importance = args.importance.map(|i| i.clamp(1, 10));
                args.memory_id = None;
            }
            MemoryChange::Delete => {
                if args.memory_id.is_none() {
                    return Err(Self::invalid("memoryId is required to delete a memory"));
                }
                args.content = None;
                args.importance = None;
                args.visibility = None;
                args.requirement_id = None;
            }
        }
        Ok(args)
    }

    async fn run(
        cx: &ToolContext<'_>,
        args: ChangeTeamMemoryArgs,
    ) -> Result<serde_json::Value, ToolError> {
        let db = &cx.runtime.db;
        let me = cx.employee;
        match args.action {
            MemoryChange::Add => {
                // A requirement's team is whoever is in its chat: only one the employee
                // is in may scope the memory.
                let mine = cq::chats_of_employee(db, me.id).await?;
                let requirement_id = match args.requirement_id {
                    Some(id) => wq::list_requirements(db)
                        .await?
                        .into_iter()
                        .find(|r| {
                            r.id == id && r.chat_id.is_some_and(|c| mine.iter().any(|m| m.id == c))
                        })
                        .map(|r| r.id),
                    None => None,
                };
                let id = cx
                    .runtime
                    .minds
                    .remember(
                        me.id,
                        me.department_id,
                        NewMemory {
                            kind: MemoryKind::LongTerm,
                            content: args.content.unwrap_or_default(),
                            importance: args.importance,
                            ttl_hours: None,
                            visibility: Self::shared_visibility(args.visibility.as_deref())?,
                            requirement_id,
                            source_chat_id: None,
                        },
                    )
                    .await?;
                Ok(match id {
                    Some(id) => serde_json::json!({"added": id}),
                    None => serde_json::json!({"added": null, "why": "already remembered"}),
                })
            }
            MemoryChange::Delete => {
                let id = args.memory_id.unwrap_or_default();
                match mq::find_memory(db, id).await? {
                    Some(m) if m.employee_id == me.id => {
                        cx.runtime.minds.forget(me.id, id).await?;
                        Ok(serde_json::json!({"deleted": id}))
                    }
                    _ => Err(ToolError::Io(format!(
                        "memory #{id} is not one of {}'s",
                        me.name
                    ))),
                }
            }
        }
    }

    fn describe(args: &ChangeTeamMemoryArgs, lang: Language) -> String {
        let public = args.visibility.as_deref() == Some("public");
        let content = args.content.as_deref().unwrap_or_default();
        let id = args.memory_id.unwrap_or_default();
        match (args.action, lang) {
            (MemoryChange::Add, Language::En) => format!(
                "share with {}: {content:?}",
                if public {
                    "the whole company"
                } else {
                    "the team"
                },
            ),
            (MemoryChange::Add, Language::ZhCn) => format!(
                "与{}分享：“{content}”",
                if public { "全公司" } else { "团队" },
            ),
            (MemoryChange::Delete, Language::En) => format!("delete shared memory #{id}"),
            (MemoryChange::Delete, Language::ZhCn) => format!("删除共享记忆 #{id}"),
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct CommitToDateArgs {
    /// What will be delivered or done.
    pub what: String,
    /// By when (a date, e.g. 2026-12-15).
    pub date: String,
    /// To whom it is promised (a client, a partner, the boss, a colleague).
    pub to: String,
}

pub struct CommitToDate;

impl Tool for CommitToDate {
    const NAME: ToolName = ToolName::CommitToDate;
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str =
        "Before promising anyone a date, ask to commit to it; promise it only once approved.";
    type Args = CommitToDateArgs;
    type Output = serde_json::Value;

    fn bind(_cx: &ToolContext<'_>, args: CommitToDateArgs) -> Result<CommitToDateArgs, ToolError> {
        let trimmed = CommitToDateArgs {
            what: args.what.trim().to_owned(),
            date: args.date.trim().to_owned(),
            to: args.to.trim().to_owned(),
        };
        if trimmed.what.is_empty() || trimmed.date.is_empty() || trimmed.to.is_empty() {
            return Err(ToolError::InvalidArgs {
                tool: Self::NAME.to_string(),
                message: "what, date and to are all required".into(),
            });
        }
        if trimmed.what.chars().count() + trimmed.date.chars().count() + trimmed.to.chars().count()
            > COMMITMENT_MAX_CHARS
        {
            return Err(ToolError::InvalidArgs {
                tool: Self::NAME.to_string(),
                message: format!("a commitment fits in {COMMITMENT_MAX_CHARS} characters"),
            });
        }
        Ok(trimmed)
    }

    /// Approved: the commitment becomes something the team remembers, so whoever
    /// works on it knows the date.
    async fn run(
        cx: &ToolContext<'_>,
        args: CommitToDateArgs,
    ) -> Result<serde_json::Value, ToolError> {
        let me = cx.employee;
        let text = format!("Committed to {}: {} by {}", args.to, args.what, args.date);
        let id = cx
            .runtime
            .minds
            .remember(
                me.id,
                me.department_id,
                NewMemory {
                    kind: MemoryKind::LongTerm,
                    content: text.clone(),
                    importance: Some(COMMITMENT_IMPORTANCE),
                    ttl_hours: None,
                    visibility: Visibility::Team,
                    requirement_id: None,
                    source_chat_id: None,
                },
            )
            .await?;
        Ok(serde_json::json!({"committed": text, "memory": id}))
    }

    fn describe(args: &CommitToDateArgs, lang: Language) -> String {
        match lang {
            Language::En => format!("commit to {}: {} by {}", args.to, args.what, args.date),
            Language::ZhCn => format!("向{}承诺：{}，期限 {}", args.to, args.what, args.date),
        }
    }
}
