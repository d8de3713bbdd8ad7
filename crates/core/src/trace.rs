//! Traces (SPEC §10): every boss instruction gets an id that the tasks, messages,
//! thoughts, model calls and mail it causes carry, so the boss can open one
//! instruction's whole story as a timeline with its cost. This module mints the ids,
//! records the instructions and reads a story back; carrying the id is the job of
//! whoever creates the row (chats, work, the engine, the gateway).

use chrono::{DateTime, Utc};
use std::collections::HashMap;

use cubicle_store::entity::{
    approval, chat_message, cost_ledger, decision, mail, task, thought, tool_call, trace,
};
use cubicle_store::enums::{DecidedByKind, TaskStatus};
use cubicle_store::{ConnectionTrait, Db, DbErr, chat as cq, trace as q};
use rand::Rng;
use sea_orm::ActiveEnum;
use sea_orm::ActiveValue::Set;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::chat::{Names, SenderKind, rfc3339};
use crate::error::{ErrorCode, IpcError};

/// How much of an instruction, message or thought a timeline line shows.
const LINE_CHARS: usize = 280;

/// A fresh trace id: short enough to type into `cubicle-cli trace`.
pub fn new_id() -> String {
    let n: u64 = rand::rng().random();
    format!("tr-{:012x}", n & 0xffff_ffff_ffff)
}

/// Records a boss instruction and returns its trace id.
pub(crate) async fn start(
    conn: &impl ConnectionTrait,
    origin: Origin,
    instruction: &str,
    chat_id: Option<i32>,
    at: DateTime<Utc>,
) -> Result<String, DbErr> {
    start_as(conn, new_id(), origin, instruction, chat_id, at).await
}

/// Records a boss instruction under `id`, minted (by [`new_id`]) before what it caused
/// was known — the secretary's model call that understood it.
pub(crate) async fn start_as(
    conn: &impl ConnectionTrait,
    id: String,
    origin: Origin,
    instruction: &str,
    chat_id: Option<i32>,
    at: DateTime<Utc>,
) -> Result<String, DbErr> {
    q::insert_trace(
        conn,
        trace::ActiveModel {
            id: Set(id.clone()),
            origin: Set(origin),
            instruction: Set(instruction.chars().take(2000).collect()),
            chat_id: Set(chat_id),
            created_at: Set(at),
        },
    )
    .await?;
    Ok(id)
}

/// Where an instruction came from.
pub use cubicle_store::enums::TraceOrigin as Origin;

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum TraceEventKind {
    Instruction,
    TaskCreated,
    TaskResolved,
    TaskFailed,
    Message,
    Thought,
    ModelCall,
    Mail,
    /// An action that waited for the boss (`outcome`: its status).
    Approval,
    /// A tool call an employee made: `outcome` is what became of it (`ok`, `error`,
    /// `refused`, `waiting_approval`), `text` the tool and its output or reason;
    /// `approval_id` the approval it waited for or ran under.
    ToolCall,
    /// A meeting's ruling on conflicting opinions: the question, who decided (`actor`:
    /// the lead, empty for a vote or the boss) and `outcome`: `approved`, `rejected` or
    /// `escalated`.
    Ruling,
}

/// One line of a trace's timeline.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TraceEventDto {
    pub at: String,
    pub kind: TraceEventKind,
    pub employee_id: Option<i32>,
    /// Who: an employee, the boss, or empty for the system.
    pub actor: String,
    pub text: String,
    pub chat_id: Option<i32>,
    pub chat_name: Option<String>,
    pub task_id: Option<i32>,
    pub mail_id: Option<i32>,
    pub approval_id: Option<i32>,
    /// Model calls: what the call cost and how many tokens went in and out.
    pub cost_usd: Option<f64>,
    pub tokens: Option<u32>,
    /// Model calls: `ok`, `error`, `budget_exceeded`, `breaker_open`; thoughts: why
    /// nothing was said, when nothing was.
    pub outcome: Option<String>,
}

/// One instruction in the list of traces.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TraceSummaryDto {
    pub id: String,
    pub origin: Origin,
    pub instruction: String,
    pub chat_id: Option<i32>,
    pub created_at: String,
    pub calls: u32,
    pub cost_usd: f64,
}

/// One instruction's whole story.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TraceDto {
    pub summary: TraceSummaryDto,
    pub events: Vec<TraceEventDto>,
    /// Thoughts under this trace that said something or wanted to and were held back
    /// (the loop guard counts these).
    pub steps: u32,
    pub tokens: u32,
    pub tasks_pending: u32,
}

/// Which trace to open.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct TraceRef {
    pub id: String,
}

#[derive(Debug, thiserror::Error)]
pub enum TraceError {
    #[error("trace {0} does not exist")]
    NotFound(String),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl From<TraceError> for IpcError {
    fn from(e: TraceError) -> Self {
        let code = match &e {
            TraceError::NotFound(_) => ErrorCode::NotFound,
            TraceError::Storage(inner) => {
                tracing::error!(error = %inner, "storage error");
                ErrorCode::Storage
            }
        };
        IpcError::new(code, e.to_string())
    }
}

/// How many instructions the trace list shows.
pub const RECENT_TRACES: u64 = 100;

#[derive(Clone, Debug)]
pub struct Traces {
    db: Db,
}

impl Traces {
    pub fn new(db: Db) -> Self {
        Self { db }
    }

    /// The newest instructions with what each cost so far.
    pub async fn recent(&self, limit: u64) -> Result<Vec<TraceSummaryDto>, DbErr> {
        let rows = q::recent_traces(&self.db, limit).await?;
        let costs =
            q::cost_of_traces(&self.db, rows.iter().map(|t| t.id.clone()).collect()).await?;
        Ok(rows
            .iter()
            .map(|t| {
                let (calls, cost) = costs
                    .iter()
                    .find(|(id, _, _)| *id == t.id)
                    .map_or((0, 0.0), |(_, n, c)| (*n, *c));
                summary(t, calls, cost)
            })
            .collect())
    }

    /// One instruction's story, or `NotFound`.
    pub async fn get(&self, id: &str) -> Result<TraceDto, TraceError> {
        self.view(id.trim())
            .await?
            .ok_or_else(|| TraceError::NotFound(id.trim().to_owned()))
    }

    /// One instruction's story, oldest first; `None` for an unknown id.
    pub async fn view(&self, id: &str) -> Result<Option<TraceDto>, DbErr> {
        let db = &self.db;
        let Some(t) = q::find_trace(db, id).await? else {
            return Ok(None);
        };
        let mut line = Timeline {
            names: Names::load(db).await?,
            chats: cq::list_chats(db)
                .await?
                .into_iter()
                .map(|c| (c.id, c.name))
                .collect(),
            events: Vec::new(),
        };
        line.instruction(&t);
        let tasks = q::tasks_of_trace(db, id).await?;
        line.tasks(&tasks);
        let ledger = q::ledger_of_trace(db, id).await?;
        let tokens = line.calls(&ledger);
        let thoughts = q::thoughts_of_trace(db, id).await?;
        line.thoughts(&thoughts);
        line.messages(q::messages_of_trace(db, id).await?);
        line.mail(q::mail_of_trace(db, id).await?);
        line.approvals(q::approvals_of_trace(db, id).await?);
        line.tool_calls(q::tool_calls_of_trace(db, id).await?);
        line.rulings(q::decisions_of_trace(db, id).await?);
        let steps = thoughts
            .iter()
            .filter(|t| crate::guard::is_step(t.spoke, t.silenced_by))
            .count();
        let tasks_pending = tasks
            .iter()
            .filter(|t| t.status == TaskStatus::Pending)
            .count();
        // Folded from +0.0: `Sum for f64` starts at −0.0, which a currency format shows
        // as "-US$0.00" for a trace with no calls.
        let cost = ledger.iter().fold(0.0, |sum, c| sum + c.cost_usd);
        Ok(Some(TraceDto {
            summary: summary(&t, ledger.len() as i64, cost),
            events: line.into_events(),
            steps: u32::try_from(steps).unwrap_or(u32::MAX),
            tokens,
            tasks_pending: u32::try_from(tasks_pending).unwrap_or(u32::MAX),
        }))
    }
}

/// Where an event goes among those of the same instant: the instruction, then tasks, calls,
/// thoughts, results, messages, rulings and mail, in the order they happen inside one thought.
#[derive(Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Rank {
    Instruction,
    TaskCreated,
    ModelCall,
    Thought,
    /// A task's result, or an approval the thought asked for.
    Outcome,
    /// A message is posted after the thought that wrote it.
    Message,
    /// Ruled on the turn that objected, so after its message.
    Ruling,
    Mail,
}

/// One trace's timeline as it is assembled: the names its rows point at, and its events.
struct Timeline {
    names: Names,
    chats: HashMap<i32, String>,
    events: Vec<(DateTime<Utc>, Rank, TraceEventDto)>,
}

impl Timeline {
    /// An event that names nobody and nothing yet.
    fn blank(at: DateTime<Utc>, kind: TraceEventKind) -> TraceEventDto {
        TraceEventDto {
            at: rfc3339(at),
            kind,
            employee_id: None,
            actor: String::new(),
            text: String::new(),
            chat_id: None,
            chat_name: None,
            task_id: None,
            mail_id: None,
            approval_id: None,
            cost_usd: None,
            tokens: None,
            outcome: None,
        }
    }

    fn chat_name(&self, id: Option<i32>) -> Option<String> {
        id.and_then(|id| self.chats.get(&id).cloned())
    }

    fn person(&self, id: Option<i32>) -> String {
        id.map_or_else(String::new, |id| self.names.person(id).to_owned())
    }

    fn instruction(&mut self, t: &trace::Model) {
        let e = TraceEventDto {
            actor: self.names.boss().to_owned(),
            text: clip(&t.instruction),
            chat_id: t.chat_id,
            chat_name: self.chat_name(t.chat_id),
            ..Self::blank(t.created_at, TraceEventKind::Instruction)
        };
        self.events.push((t.created_at, Rank::Instruction, e));
    }

    /// Each task when it was created, and again when it was resolved.
    fn tasks(&mut self, tasks: &[task::Model]) {
        for task in tasks {
            let base = TraceEventDto {
                employee_id: Some(task.owner_id),
                actor: self.person(Some(task.owner_id)),
                task_id: Some(task.id),
                ..Self::blank(task.created_at, TraceEventKind::TaskCreated)
            };
            let created = TraceEventDto {
                text: clip(&task.description),
                ..base.clone()
            };
            self.events
                .push((task.created_at, Rank::TaskCreated, created));
            if let Some(done) = task.resolved_at {
                let kind = if task.status == TaskStatus::Failed {
                    TraceEventKind::TaskFailed
                } else {
                    TraceEventKind::TaskResolved
                };
                let resolved = TraceEventDto {
                    at: rfc3339(done),
                    kind,
                    text: clip(task.result.as_deref().unwrap_or(&task.description)),
                    ..base
                };
                self.events.push((done, Rank::Outcome, resolved));
            }
        }
    }

    /// Each model call with its cost; returns the tokens they used together.
    fn calls(&mut self, ledger: &[cost_ledger::Model]) -> u32 {
        let mut tokens = 0u32;
        for call in ledger {
            let used =
                u32::try_from(call.input_tokens.max(0) + call.output_tokens.max(0)).unwrap_or(0);
            tokens = tokens.saturating_add(used);
            let e = TraceEventDto {
                employee_id: call.employee_id,
                actor: self.person(call.employee_id),
                text: format!("{} · {}/{}", call.purpose, call.provider_id, call.model),
                cost_usd: Some(call.cost_usd),
                tokens: Some(used),
                outcome: Some(call.outcome.to_value()),
                ..Self::blank(call.at, TraceEventKind::ModelCall)
            };
            self.events.push((call.at, Rank::ModelCall, e));
        }
        tokens
    }

    fn thoughts(&mut self, thoughts: &[thought::Model]) {
        for th in thoughts {
            let text = if th.inner_thoughts.is_empty() {
                &th.reason
            } else {
                &th.inner_thoughts
            };
            let e = TraceEventDto {
                employee_id: Some(th.employee_id),
                actor: self.person(Some(th.employee_id)),
                text: clip(text),
                chat_id: th.chat_id,
                chat_name: self.chat_name(th.chat_id),
                outcome: th.silenced_by.map(|r| r.to_value()),
                ..Self::blank(th.created_at, TraceEventKind::Thought)
            };
            self.events.push((th.created_at, Rank::Thought, e));
        }
    }

    fn messages(&mut self, messages: Vec<chat_message::Model>) {
        for m in messages {
            let actor = match m.sender_kind {
                SenderKind::Boss => self.names.boss().to_owned(),
                SenderKind::System => String::new(),
                SenderKind::Employee => self.person(m.sender_employee_id),
                SenderKind::Person | SenderKind::Proxy => m
                    .sender_person_id
                    .map(|id| self.names.human(id).to_owned())
                    .unwrap_or_default(),
            };
            let e = TraceEventDto {
                employee_id: m.sender_employee_id,
                actor,
                text: clip(&m.text),
                chat_id: Some(m.chat_id),
                chat_name: self.chat_name(Some(m.chat_id)),
                ..Self::blank(m.created_at, TraceEventKind::Message)
            };
            self.events.push((m.created_at, Rank::Message, e));
        }
    }

    fn mail(&mut self, mails: Vec<mail::Model>) {
        for mail in mails {
            let e = TraceEventDto {
                employee_id: mail.employee_id,
                actor: self.person(mail.employee_id),
                text: clip(&mail.title),
                chat_id: mail.chat_id,
                chat_name: self.chat_name(mail.chat_id),
                task_id: mail.task_id,
                mail_id: Some(mail.id),
                outcome: Some(mail.kind.to_value()),
                ..Self::blank(mail.created_at, TraceEventKind::Mail)
            };
            self.events.push((mail.created_at, Rank::Mail, e));
        }
    }

    fn approvals(&mut self, approvals: Vec<approval::Model>) {
        for a in approvals {
            let e = TraceEventDto {
                employee_id: Some(a.employee_id),
                actor: self.person(Some(a.employee_id)),
                text: format!("{}: {}", a.tool, clip(&a.reason)),
                chat_id: a.chat_id,
                chat_name: self.chat_name(a.chat_id),
                approval_id: Some(a.id),
                outcome: Some(a.status.to_value()),
                ..Self::blank(a.created_at, TraceEventKind::Approval)
            };
            self.events.push((a.created_at, Rank::Outcome, e));
        }
    }

    /// Each tool call with what became of it: refused (and why), waiting, run or failed
    /// (and the error) — a refusal that lives only in the log is a silent one.
    fn tool_calls(&mut self, calls: Vec<tool_call::Model>) {
        for c in calls {
            let text = match c.output.as_deref().map(str::trim) {
                Some(out) if !out.is_empty() => format!("{}: {}", c.tool, clip(out)),
                _ => c.tool.clone(),
            };
            let e = TraceEventDto {
                employee_id: Some(c.employee_id),
                actor: self.person(Some(c.employee_id)),
                text,
                approval_id: c.approval_id,
                outcome: Some(c.outcome.to_value()),
                ..Self::blank(c.created_at, TraceEventKind::ToolCall)
            };
            self.events.push((c.created_at, Rank::Outcome, e));
        }
    }

    fn rulings(&mut self, decisions: Vec<decision::Model>) {
        for d in decisions {
            let actor = match d.decided_by_kind {
                DecidedByKind::Boss => self.names.boss().to_owned(),
                DecidedByKind::Lead | DecidedByKind::Vote => self.person(d.decided_by_employee_id),
            };
            let e = TraceEventDto {
                employee_id: d.decided_by_employee_id,
                actor,
                text: clip(&d.question),
                chat_id: d.chat_id,
                chat_name: self.chat_name(d.chat_id),
                outcome: Some(d.outcome.to_string()),
                ..Self::blank(d.created_at, TraceEventKind::Ruling)
            };
            self.events.push((d.created_at, Rank::Ruling, e));
        }
    }

    /// The events oldest first, ranked within one instant.
    fn into_events(mut self) -> Vec<TraceEventDto> {
        self.events
            .sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        self.events.into_iter().map(|(_, _, e)| e).collect()
    }
}

fn summary(t: &trace::Model, calls: i64, cost: f64) -> TraceSummaryDto {
    TraceSummaryDto {
        id: t.id.clone(),
        origin: t.origin,
        instruction: clip(&t.instruction),
        chat_id: t.chat_id,
        created_at: rfc3339(t.created_at),
        calls: u32::try_from(calls).unwrap_or(0),
        cost_usd: cost,
    }
}

fn clip(s: &str) -> String {
    if s.chars().count() <= LINE_CHARS {
        return s.to_owned();
    }
    let mut out: String = s.chars().take(LINE_CHARS - 1).collect();
    out.push('…');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_short_distinct_and_typeable() {
        let a = new_id();
        let b = new_id();
        assert_ne!(a, b);
        assert_eq!(a.len(), 15);
        assert!(a.starts_with("tr-"));
        assert!(a[3..].chars().all(|c| c.is_ascii_hexdigit()));
    }

    #[test]
    fn long_lines_are_clipped_with_an_ellipsis() {
        let long = "字".repeat(400);
        let c = clip(&long);
        assert_eq!(c.chars().count(), LINE_CHARS);
        assert!(c.ends_with('…'));
        assert_eq!(clip("short"), "short");
    }
}
