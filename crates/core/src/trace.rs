//! Traces (SPEC §10): every boss instruction gets an id that the tasks, messages,
//! thoughts, model calls and mail it causes carry, so the boss can open one
//! instruction's whole story as a timeline with its cost. This module mints the ids,
//! records the instructions and reads a story back; carrying the id is the job of
//! whoever creates the row (chats, work, the engine, the gateway).

use chrono::{DateTime, Utc};
use cubicle_store::entity::trace;
use cubicle_store::{ConnectionTrait, Db, DbErr, chat as cq, trace as q};
use rand::Rng;
use sea_orm::ActiveEnum;
use sea_orm::ActiveValue::Set;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::chat::{Names, rfc3339};
use crate::error::{ErrorCode, IpcError};
use crate::work::TaskStatus;

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
    let id = new_id();
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
        let names = Names::load(db).await?;
        let chats: std::collections::HashMap<i32, String> = cq::list_chats(db)
            .await?
            .into_iter()
            .map(|c| (c.id, c.name))
            .collect();
        let chat_name = |id: Option<i32>| id.and_then(|id| chats.get(&id).cloned());
        let person =
            |id: Option<i32>| id.map_or_else(String::new, |id| names.person(id).to_owned());
        let mut events: Vec<(DateTime<Utc>, u8, TraceEventDto)> = Vec::new();
        let blank = |at: DateTime<Utc>, kind: TraceEventKind| TraceEventDto {
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
        };
        events.push((
            t.created_at,
            0,
            TraceEventDto {
                actor: names.boss().to_owned(),
                text: clip(&t.instruction),
                chat_id: t.chat_id,
                chat_name: chat_name(t.chat_id),
                ..blank(t.created_at, TraceEventKind::Instruction)
            },
        ));
        let tasks = q::tasks_of_trace(db, id).await?;
        let tasks_pending = tasks
            .iter()
            .filter(|t| t.status == TaskStatus::Pending)
            .count();
        for task in &tasks {
            let base = TraceEventDto {
                employee_id: Some(task.owner_id),
                actor: person(Some(task.owner_id)),
                task_id: Some(task.id),
                ..blank(task.created_at, TraceEventKind::TaskCreated)
            };
            events.push((
                task.created_at,
                1,
                TraceEventDto {
                    text: clip(&task.description),
                    ..base.clone()
                },
            ));
            if let Some(done) = task.resolved_at {
                let kind = if task.status == TaskStatus::Failed {
                    TraceEventKind::TaskFailed
                } else {
                    TraceEventKind::TaskResolved
                };
                events.push((
                    done,
                    4,
                    TraceEventDto {
                        at: rfc3339(done),
                        kind,
                        text: clip(task.result.as_deref().unwrap_or(&task.description)),
                        ..base
                    },
                ));
            }
        }
        let ledger = q::ledger_of_trace(db, id).await?;
        let mut tokens = 0u32;
        for call in &ledger {
            let used =
                u32::try_from(call.input_tokens.max(0) + call.output_tokens.max(0)).unwrap_or(0);
            tokens = tokens.saturating_add(used);
            events.push((
                call.at,
                2,
                TraceEventDto {
                    employee_id: call.employee_id,
                    actor: person(call.employee_id),
                    text: format!("{} · {}/{}", call.purpose, call.provider_id, call.model),
                    cost_usd: Some(call.cost_usd),
                    tokens: Some(used),
                    outcome: Some(call.outcome.clone()),
                    ..blank(call.at, TraceEventKind::ModelCall)
                },
            ));
        }
        let thoughts = q::thoughts_of_trace(db, id).await?;
        let steps = thoughts
            .iter()
            .filter(|t| crate::guard::is_step(t.spoke, t.silenced_by))
            .count();
        for th in &thoughts {
            let text = if th.inner_thoughts.is_empty() {
                &th.reason
            } else {
                &th.inner_thoughts
            };
            events.push((
                th.created_at,
                3,
                TraceEventDto {
                    employee_id: Some(th.employee_id),
                    actor: person(Some(th.employee_id)),
                    text: clip(text),
                    chat_id: th.chat_id,
                    chat_name: chat_name(th.chat_id),
                    outcome: th.silenced_by.map(|r| r.to_value()),
                    ..blank(th.created_at, TraceEventKind::Thought)
                },
            ));
        }
        for m in q::messages_of_trace(db, id).await? {
            let actor = match m.sender_kind.as_str() {
                "boss" => names.boss().to_owned(),
                "system" => String::new(),
                _ => person(m.sender_employee_id),
            };
            events.push((
                m.created_at,
                // A message is posted after the thought that wrote it.
                5,
                TraceEventDto {
                    employee_id: m.sender_employee_id,
                    actor,
                    text: clip(&m.text),
                    chat_id: Some(m.chat_id),
                    chat_name: chat_name(Some(m.chat_id)),
                    ..blank(m.created_at, TraceEventKind::Message)
                },
            ));
        }
        for mail in q::mail_of_trace(db, id).await? {
            events.push((
                mail.created_at,
                7,
                TraceEventDto {
                    employee_id: mail.employee_id,
                    actor: person(mail.employee_id),
                    text: clip(&mail.title),
                    chat_id: mail.chat_id,
                    chat_name: chat_name(mail.chat_id),
                    task_id: mail.task_id,
                    mail_id: Some(mail.id),
                    outcome: Some(mail.kind.to_value()),
                    ..blank(mail.created_at, TraceEventKind::Mail)
                },
            ));
        }
        for a in q::approvals_of_trace(db, id).await? {
            events.push((
                a.created_at,
                4,
                TraceEventDto {
                    employee_id: Some(a.employee_id),
                    actor: person(Some(a.employee_id)),
                    text: format!("{}: {}", a.tool, clip(&a.reason)),
                    chat_id: a.chat_id,
                    chat_name: chat_name(a.chat_id),
                    approval_id: Some(a.id),
                    outcome: Some(a.status.to_value()),
                    ..blank(a.created_at, TraceEventKind::Approval)
                },
            ));
        }
        for d in q::decisions_of_trace(db, id).await? {
            events.push((
                d.created_at,
                // Ruled on the turn that objected, so after its message.
                6,
                TraceEventDto {
                    employee_id: d.decided_by_employee_id,
                    actor: match d.decided_by_kind.as_str() {
                        "boss" => names.boss().to_owned(),
                        _ => person(d.decided_by_employee_id),
                    },
                    text: clip(&d.question),
                    chat_id: d.chat_id,
                    chat_name: chat_name(d.chat_id),
                    outcome: Some(d.outcome.clone()),
                    ..blank(d.created_at, TraceEventKind::Ruling)
                },
            ));
        }
        // Same instant: the instruction, then tasks, calls, thoughts, results, messages,
        // rulings and mail, in the order they happen inside one thought.
        events.sort_by(|a, b| a.0.cmp(&b.0).then(a.1.cmp(&b.1)));
        let cost: f64 = ledger.iter().map(|c| c.cost_usd).sum();
        Ok(Some(TraceDto {
            summary: summary(&t, ledger.len() as i64, cost),
            events: events.into_iter().map(|(_, _, e)| e).collect(),
            steps: u32::try_from(steps).unwrap_or(u32::MAX),
            tokens,
            tasks_pending: u32::try_from(tasks_pending).unwrap_or(u32::MAX),
        }))
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
