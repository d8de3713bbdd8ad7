//! Casting the scene of one thought: the people around it, what it remembers and
//! feels, its tasks, its latest tool results, and the chat's messages as the prompt
//! shows them.

use std::collections::HashMap;

use chrono::TimeDelta;
use cubicle_store::entity::{chat_message, employee, task};
use cubicle_store::{DbErr, chat as cq, mind as mq, org as oq};

use super::Woken;
use crate::approvals::CallLogOutcome;
use crate::chat::SenderKind;
use crate::engine::{Engine, PromptMode};
use crate::mind::memory_rules::Viewer;
use crate::mind::thought::{Scene, SceneMessage};
use crate::org::company_dto;
use crate::work::TaskKind;

/// The people around the thought: the company, its staff, the employee's department
/// and the chat's other members.
pub(super) struct Cast {
    pub(super) company: crate::org::CompanyDto,
    pub(super) staff: HashMap<i32, employee::Model>,
    /// The company's people, for lines they or their proxies wrote.
    pub(super) people: HashMap<i32, String>,
    pub(super) department: Option<cubicle_store::entity::department::Model>,
    pub(super) member_ids: Vec<i32>,
}

impl Cast {
    pub(super) async fn load(engine: &Engine, w: &Woken) -> Result<Option<Self>, DbErr> {
        let db = &engine.core().db;
        let Some(company) = oq::find_company(db).await? else {
            return Ok(None);
        };
        let company = company_dto(&company);
        let staff = oq::list_employees(db, company.id, true)
            .await?
            .into_iter()
            .map(|e| (e.id, e))
            .collect();
        let department = match w.me.department_id {
            Some(d) => oq::find_department(db, d).await?,
            None => None,
        };
        let member_ids = cq::members(db, w.chat.id)
            .await?
            .into_iter()
            .map(|m| m.employee_id)
            .filter(|id| *id != w.me.id)
            .collect();
        let people = people_names(db, company.id).await?;
        Ok(Some(Self {
            company,
            staff,
            people,
            department,
            member_ids,
        }))
    }

    /// How a message's sender is called in the scene.
    fn name_of(&self, m: &chat_message::Model) -> String {
        sender_name(m, &self.company.boss_name, &self.staff, &self.people)
    }

    /// Everyone a message could wrongly speak as: colleagues and the boss.
    pub(super) fn other_names(&self, me: i32) -> Vec<String> {
        self.staff
            .values()
            .filter(|e| e.id != me)
            .map(|e| e.name.clone())
            .chain(std::iter::once(self.company.boss_name.clone()))
            .collect()
    }
}

/// What the scene says besides the people: memories, impressions, tasks, other chats.
pub(super) struct Lines {
    pub(super) summary: Option<String>,
    pub(super) memories: Vec<crate::mind::memory_rules::MemoryItem>,
    pub(super) impressions: Vec<(String, String, i32)>,
    pub(super) tasks: Vec<(i32, String, TimeDelta)>,
    pub(super) stamina: crate::mind::stamina::Stamina,
    pub(super) tool_results: Vec<String>,
    pub(super) other_groups: Vec<(i32, String)>,
    pub(super) chat_requirement: Option<i32>,
    /// When the scene was cast: the tasks' ages and the thought's time.
    pub(super) now: chrono::DateTime<chrono::Utc>,
}

impl Lines {
    pub(super) async fn load(engine: &Engine, w: &Woken, cast: &Cast) -> Result<Self, DbErr> {
        let core = engine.core();
        let db = &core.db;
        let employee_id = w.me.id;
        let context: String = w
            .recent
            .iter()
            .rev()
            .take(6)
            .map(|m| m.text.as_str())
            .collect::<Vec<_>>()
            .join(" ");
        // Team memories reach the employee's department and the projects it is part of.
        let my_chat_rows = cq::chats_of_employee(db, employee_id).await?;
        let my_chats: Vec<i32> = my_chat_rows.iter().map(|c| c.id).collect();
        let requirements = cubicle_store::work::list_requirements(db).await?;
        let viewer = Viewer {
            employee_id,
            department_id: w.me.department_id,
            requirement_ids: requirements
                .iter()
                .filter(|r| r.chat_id.is_some_and(|c| my_chats.contains(&c)))
                .map(|r| r.id)
                .collect(),
        };
        let now = engine.now();
        // The naive prompt holds every memory it can see and every relationship it has.
        let whole = engine.config().prompt == PromptMode::WholeHistory;
        let (recall, of) = if whole {
            (usize::MAX, cast.staff.keys().copied().collect())
        } else {
            (engine.config().memory_recall, cast.member_ids.clone())
        };
        let impressions = core
            .minds
            .impressions(employee_id, &of)
            .await?
            .into_iter()
            .filter_map(|(id, imp, aff)| cast.staff.get(&id).map(|e| (e.name.clone(), imp, aff)))
            .collect();
        Ok(Self {
            summary: mq::chat_summary(db, w.chat.id).await?.map(|s| s.summary),
            memories: core.minds.recall(&viewer, &context, recall).await?,
            impressions,
            tasks: task_lines(&w.tasks, now),
            stamina: core.minds.stamina(employee_id).await?,
            tool_results: recent_tool_results(engine, employee_id).await?,
            // Group chats it can also post in (`"to": "#name"`).
            other_groups: my_chat_rows
                .iter()
                .filter(|c| {
                    c.id != w.chat.id
                        && !matches!(
                            c.kind,
                            crate::chat::ChatKind::Dm | crate::chat::ChatKind::Boss
                        )
                })
                .map(|c| (c.id, c.name.clone()))
                .collect(),
            chat_requirement: requirements
                .iter()
                .find(|r| r.chat_id == Some(w.chat.id))
                .map(|r| r.id),
            now,
        })
    }

    /// The whole scene of one thought.
    pub(super) fn scene<'a>(
        &'a self,
        w: &'a Woken,
        cast: &'a Cast,
        me: &'a crate::org::EmployeeDto,
        seed: &'static crate::mind::seeds::Seed,
    ) -> Scene<'a> {
        let department = cast.department.as_ref();
        Scene {
            me,
            company: &cast.company,
            department: department.map(|d| d.name.as_str()),
            department_mission: department.map(|d| d.mission.as_str()),
            chat_name: &w.chat.name,
            chat_kind: w.chat.kind,
            chat_topic: w.chat.topic.as_deref(),
            others: cast
                .member_ids
                .iter()
                .filter_map(|id| cast.staff.get(id))
                .filter(|e| e.fired_at.is_none())
                .map(|e| (e.name.clone(), e.title.clone()))
                .collect(),
            messages: scene_messages(w, cast),
            summary: self.summary.as_deref(),
            memories: self.memories.clone(),
            impressions: self.impressions.clone(),
            tasks: self.tasks.clone(),
            already_replied: already_replied(w, cast),
            seed,
            stamina: self.stamina,
            addressed: addressed(w),
            other_chats: self.other_groups.iter().map(|(_, n)| n.clone()).collect(),
            tool_results: self.tool_results.clone(),
            report: w.reporting.as_ref().map(|t| crate::mind::thought::Report {
                description: t.description.clone(),
                result: t.result.clone(),
                hint: t.on_resolve_hint.clone(),
            }),
        }
    }
}

/// How a message's sender is called in a prompt: the boss by name, a note as a note,
/// a colleague by name, a person by name (their proxy as their proxy).
pub(in crate::engine) fn sender_name(
    m: &chat_message::Model,
    boss: &str,
    staff: &HashMap<i32, employee::Model>,
    people: &HashMap<i32, String>,
) -> String {
    let person = || {
        m.sender_person_id
            .and_then(|id| people.get(&id))
            .map_or("someone", String::as_str)
    };
    match m.sender_kind {
        SenderKind::Boss => boss.to_owned(),
        SenderKind::System => "(note)".to_owned(),
        SenderKind::Employee => m
            .sender_employee_id
            .and_then(|id| staff.get(&id))
            .map_or_else(|| "someone".to_owned(), |e| e.name.clone()),
        SenderKind::Person => person().to_owned(),
        SenderKind::Proxy => format!("{} (via their proxy)", person()),
    }
}

/// The company's people by id.
pub(in crate::engine) async fn people_names(
    conn: &impl cubicle_store::ConnectionTrait,
    company_id: i32,
) -> Result<HashMap<i32, String>, DbErr> {
    Ok(cubicle_store::people::list_people(conn, company_id)
        .await?
        .into_iter()
        .map(|p| (p.id, p.name))
        .collect())
}

fn scene_messages(w: &Woken, cast: &Cast) -> Vec<SceneMessage> {
    w.recent
        .iter()
        .map(|m| SceneMessage {
            id: m.id,
            sender: cast.name_of(m),
            is_boss: m.sender_kind == SenderKind::Boss,
            is_me: m.sender_employee_id == Some(w.me.id),
            text: m.text.clone(),
            unread: m.id > w.read_up_to && m.sender_employee_id != Some(w.me.id),
            at: m.created_at,
        })
        .collect()
}

/// De-dup hint: who already answered what this employee has to answer — the boss's
/// newest word among what is new to them, else the first new message. Each name once,
/// in the order they answered.
fn already_replied(w: &Woken, cast: &Cast) -> Vec<String> {
    let unread: Vec<_> = w.unread().collect();
    let Some(anchor) = unread
        .iter()
        .rev()
        .find(|m| m.sender_kind == SenderKind::Boss)
        .or(unread.first())
    else {
        return vec![];
    };
    let mut seen = std::collections::HashSet::new();
    w.recent
        .iter()
        .filter(|m| m.id > anchor.id && m.sender_kind == SenderKind::Employee)
        .filter(|m| m.sender_employee_id != Some(w.me.id))
        .map(|m| cast.name_of(m))
        .filter(|n| seen.insert(n.clone()))
        .collect()
}

/// Whether the boss @mentioned this employee in what is new to it.
pub(super) fn boss_mentioned(w: &Woken) -> bool {
    w.unread().any(|m| {
        m.sender_kind == SenderKind::Boss
            && m.mentions
                .as_ref()
                .and_then(|v| serde_json::from_value::<Vec<i32>>(v.clone()).ok())
                .is_some_and(|ids| ids.contains(&w.me.id))
    })
}

/// Whether the boss addressed this employee (by @mention or by name) in what is new.
fn addressed(w: &Woken) -> bool {
    boss_mentioned(w)
        || w.unread().any(|m| {
            m.sender_kind == SenderKind::Boss && crate::chat::mentions::names(&m.text, &w.me.name)
        })
}

/// The tasks as the scene lists them: ongoing and conditional ones say so and never
/// age into urgency.
fn task_lines(
    tasks: &[task::Model],
    now: chrono::DateTime<chrono::Utc>,
) -> Vec<(i32, String, TimeDelta)> {
    tasks
        .iter()
        .map(|t| match t.kind {
            TaskKind::LongRunning => (
                t.id,
                format!("[ongoing] {}", t.description),
                TimeDelta::zero(),
            ),
            TaskKind::Conditional => (
                t.id,
                format!(
                    "[when: {}] {}",
                    t.condition.as_deref().unwrap_or("?"),
                    t.description
                ),
                TimeDelta::zero(),
            ),
            _ => (t.id, t.description.clone(), now - t.created_at),
        })
        .collect()
}

/// How recent a tool call must be to be shown in a thought.
const TOOL_RESULTS_WINDOW: TimeDelta = TimeDelta::hours(2);
/// How many tool results a thought shows.
const TOOL_RESULTS_SHOWN: usize = 3;

/// The employee's latest tool calls and what they came to, newest first.
async fn recent_tool_results(engine: &Engine, employee_id: i32) -> Result<Vec<String>, DbErr> {
    let since = engine.now() - TOOL_RESULTS_WINDOW;
    let calls = cubicle_store::approval::list_tool_calls(
        &engine.core().db,
        Some(employee_id),
        None,
        TOOL_RESULTS_SHOWN as u64,
    )
    .await?;
    // The day's budget stopped her last thought: she is told, so she does not speak
    // as if she had answered then, nor promise what was never started.
    let stopped = mq::thoughts_of(&engine.core().db, employee_id, 1)
        .await?
        .first()
        .is_some_and(|t| t.silenced_by == Some(crate::chat::gates::SilenceReason::Budget));
    let budget = if stopped {
        let lang = engine.core().mailbox.language().await?;
        Some(crate::approvals::budget_note(lang))
    } else {
        None
    };
    let calls = calls
        .into_iter()
        .filter(|c| c.created_at >= since)
        .map(|c| {
            let what = match c.outcome {
                CallLogOutcome::WaitingApproval => "waiting for the boss's approval".to_owned(),
                CallLogOutcome::Refused => format!("refused: {}", c.output.unwrap_or_default()),
                CallLogOutcome::Error => format!("failed: {}", c.output.unwrap_or_default()),
                _ => c.output.unwrap_or_else(|| "done".to_owned()),
            };
            format!("{} → {what}", c.tool)
        });
    Ok(budget.into_iter().chain(calls).collect())
}
