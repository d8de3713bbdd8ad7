//! One wake-up of one employee: gather the scene, think through the gateway, apply what
//! the thought says to remember, feel and do (always, even when silent), then pass its
//! messages through the gates and post what is left.

use cubicle_store::entity::{chat, chat_message, employee, task, thought as thought_row_entity};
use cubicle_store::{DbErr, chat as cq, org as oq};
use sea_orm::ActiveEnum;
use sea_orm::ActiveValue::{NotSet, Set};
use serde_json::json;

use super::pending::{self, Plan};
use super::{Engine, Focus};
use crate::chat::gates;
use crate::chat::gates::SilenceReason;
use crate::chat::polling::Mood;
use crate::chat::{ChatKind, SenderKind};
use crate::engine::{PromptMode, WakeMode};
use crate::gateway::{CallContext, GatewayError, Purpose};
use crate::mind::clean_chat_message;
use crate::mind::thought::{Thought, build, build_unbudgeted};
use crate::org::employee_dto;
use crate::scheduler::WakeReason;
use crate::work::{TaskKind, TaskStatus};

mod posts;
mod scene;
mod serves;

pub(super) use posts::plan_posts;
use posts::{my_gate_posts, target_of};
use scene::{Cast, Lines, boss_mentioned};
pub(super) use scene::{people_names, sender_name};
pub(super) use serves::Serves;

/// Messages shown to a thought (SPEC §4: the last 20).
const SCENE_MESSAGES: u64 = 20;
/// Every message of a chat, for the naive whole-history prompt (a bound SQLite takes).
const WHOLE_HISTORY: u64 = i64::MAX as u64;

/// Where a message of a thought goes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Target {
    /// The chat the thought is in.
    Here,
    /// A private chat with a colleague.
    Dm(i32),
    /// Another group chat the employee is a member of (`"to": "#name"`).
    Chat(i32),
}

pub(super) type Outgoing = (Target, String);

/// What one wake-up came to.
#[derive(Clone, Debug, PartialEq)]
pub enum ThinkOutcome {
    /// Nothing new and nothing pending: no model call (zero-cost idle).
    Idle,
    /// The chat's cooldown or anti-spam gate is closed for this employee: no thought
    /// now; it thinks when the gate reopens (a nudge is scheduled), with everything
    /// that arrived meanwhile still new to it.
    Deferred,
    Thought {
        /// What the next poll is spaced by.
        mood: Mood,
        posted: usize,
        silenced: bool,
        calls: u32,
        /// Time spent in the model calls (through the gateway).
        model_time: std::time::Duration,
        prompt_tokens: usize,
    },
    /// The thought could not be had (a malformed answer or a provider error): asked
    /// again after a growing pause, not at the mood's pace.
    Failed {
        malformed: bool,
        calls: u32,
        model_time: std::time::Duration,
        prompt_tokens: usize,
    },
}

/// One wake-up, stage by stage: gather what is new, hold back when the gates or the
/// loop guard say so, pick the route (a small model gets guided steps instead), cast
/// the scene, ask the model, then plan and apply what it said.
pub(super) async fn think(
    engine: &Engine,
    employee_id: i32,
    chat_id: Option<i32>,
    focus: Focus,
) -> Result<ThinkOutcome, DbErr> {
    let Some(w) = gather(engine, employee_id, chat_id, focus).await? else {
        return Ok(ThinkOutcome::Idle);
    };
    if let Some(held) = hold(engine, &w).await? {
        return Ok(held);
    }
    let me_dto = employee_dto(&w.me);
    let route = match engine
        .core()
        .providers
        .route_for_employee(Purpose::Thought, &me_dto.backend)
        .await
    {
        Ok(r) => r,
        Err(e) => {
            tracing::warn!(error = %e, employee = employee_id, "no route for a thought");
            return Ok(ThinkOutcome::Idle);
        }
    };
    // A small model gets the work in short steps it can carry, not one JSON thought.
    let profile = engine.core().gateway.profile(&route).await.ok();
    if let Some(profile) = profile.filter(|p| p.small) {
        return super::guided::think(engine, w.guided(route, profile)).await;
    }
    let Some(cast) = Cast::load(engine, &w).await? else {
        return Ok(ThinkOutcome::Idle);
    };
    let lines = Lines::load(engine, &w, &cast).await?;
    let seed = engine.pick_seed();
    let scene = lines.scene(&w, &cast, &me_dto, seed);
    let mut prompt = match engine.config().prompt {
        PromptMode::Budgeted => build(&scene),
        PromptMode::WholeHistory => build_unbudgeted(&scene),
    };
    prompt.request.seed = engine.sampling_seed();
    let asked = ask(
        engine,
        &w,
        &cast,
        &lines.other_groups,
        &me_dto,
        route,
        &prompt.request,
    )
    .await;
    let Some((t, kept, impostor)) = asked.answer else {
        let dropped = Dropped {
            employee_id,
            chat_id: w.chat.id,
            failure: asked.failure,
            seed: seed.id,
            prompt_tokens: prompt.tokens,
            trace: w.trace.clone(),
            calls: asked.calls,
            model_time: asked.model_time,
        };
        return drop_thought(engine, dropped).await;
    };
    let said = Said {
        thought: t,
        kept,
        impostor,
        chat_requirement: lines.chat_requirement,
        at: lines.now,
        seed: seed.id,
        prompt_tokens: prompt.tokens,
        calls: asked.calls,
        model_time: asked.model_time,
    };
    settle(engine, &w, said).await
}

/// What one wake-up found before anything is asked of a model.
pub(super) struct Woken {
    pub me: employee::Model,
    pub tasks: Vec<task::Model>,
    pub chat: chat::Model,
    /// The last message it had read in this chat before this wake-up.
    pub read_up_to: i32,
    pub recent: Vec<chat_message::Model>,
    /// The task being reported, when this wake-up is an onResolve.
    pub reporting: Option<task::Model>,
    /// The boss instruction this thought works under (SPEC §10).
    pub trace: Option<String>,
    pub latest_seen: Option<i32>,
    pub focus: Focus,
}

impl Woken {
    /// What is new to it: others' messages after the last it read.
    fn unread(&self) -> impl Iterator<Item = &chat_message::Model> {
        self.recent
            .iter()
            .filter(|m| m.id > self.read_up_to && m.sender_employee_id != Some(self.me.id))
    }

    fn guided(
        self,
        route: crate::gateway::Route,
        profile: cubicle_llm::ModelProfile,
    ) -> super::guided::Wakeup {
        let unread = self.unread().map(|m| m.id).collect();
        super::guided::Wakeup {
            me: self.me,
            chat: self.chat,
            recent: self.recent,
            unread,
            tasks: self.tasks,
            reporting: self.reporting,
            trace: self.trace,
            latest_seen: self.latest_seen,
            route,
            profile,
            focus: self.focus,
        }
    }
}

/// Who is waking, where, and what is new; `None` when there is nothing to think about.
async fn gather(
    engine: &Engine,
    employee_id: i32,
    chat_id: Option<i32>,
    focus: Focus,
) -> Result<Option<Woken>, DbErr> {
    let core = engine.core();
    let db = &core.db;
    let Some(me) = oq::find_employee(db, employee_id)
        .await?
        .filter(|e| e.fired_at.is_none())
    else {
        return Ok(None);
    };
    pending::finish_left_over(engine, employee_id).await?;
    let tasks = core.work.pending_of(employee_id).await?;
    // Only one-shot work is a reason to think on its own; ongoing and conditional tasks
    // are in the prompt whenever the employee thinks, but don't wake it every poll.
    let actionable = tasks.iter().any(|t| t.kind == TaskKind::Oneshot);
    let chat = match chat_id {
        Some(id) => cq::find_chat(db, id).await?,
        None => poll_chat(engine, employee_id, &tasks, actionable).await?,
    };
    let Some(chat) = chat else {
        return Ok(None);
    };
    let Some(member) = cq::find_member(db, chat.id, employee_id).await? else {
        return Ok(None);
    };
    let reporting = match focus {
        Focus::Report { task_id } => cubicle_store::work::find_task(db, task_id)
            .await?
            .filter(|t| t.owner_id == employee_id && t.status == TaskStatus::Resolved),
        // A report due here comes first, whatever woke the employee.
        _ => engine.report_due_in(employee_id, chat.id).await?,
    };
    let shown = match engine.config().prompt {
        PromptMode::Budgeted => SCENE_MESSAGES,
        PromptMode::WholeHistory => WHOLE_HISTORY,
    };
    let mut w = Woken {
        recent: cq::last_messages(db, chat.id, shown).await?,
        read_up_to: member.last_read_message_id.unwrap_or(0),
        me,
        tasks,
        chat,
        reporting,
        trace: None,
        latest_seen: None,
        focus,
    };
    // A fixed-interval poller thinks at every poll, new messages or not.
    let polls_everyone = matches!(engine.config().wake, WakeMode::FixedInterval { .. });
    if w.unread().next().is_none() && !actionable && focus == Focus::Messages && !polls_everyone {
        return Ok(None);
    }
    w.latest_seen = w.recent.last().map(|m| m.id);
    w.trace = instruction_of(&w);
    Ok(Some(w))
}

/// The boss instruction a thought works under: the report's task; else the newest new
/// word from the boss; else the newest new message that belongs to an instruction;
/// else the oldest pending task's.
fn instruction_of(w: &Woken) -> Option<String> {
    if let Some(t) = &w.reporting {
        return t.trace_id.clone();
    }
    let unread: Vec<_> = w.unread().collect();
    unread
        .iter()
        .rev()
        .find(|m| m.sender_kind == SenderKind::Boss && m.trace_id.is_some())
        .or_else(|| unread.iter().rev().find(|m| m.trace_id.is_some()))
        .and_then(|m| m.trace_id.clone())
        .or_else(|| w.tasks.iter().find_map(|t| t.trace_id.clone()))
}

/// Holds the thought back before any model call: someone who may not speak here yet
/// waits for the gate (a nudge is scheduled), and an instruction that has taken its
/// steps stops and goes to the boss, once.
async fn hold(engine: &Engine, w: &Woken) -> Result<Option<ThinkOutcome>, DbErr> {
    let db = &engine.core().db;
    // A question to it is answered (a report written) once the cooldown or the
    // anti-spam window lets it, and no model call is spent in between.
    let wants_to_speak = w.reporting.is_some()
        || match w.focus {
            Focus::Messages => w.unread().next().is_some(),
            Focus::Report { .. } | Focus::Escalation | Focus::ToolResult => false,
        };
    if wants_to_speak && engine.config().gates {
        let now = engine.now();
        let (mode, posts) = my_gate_posts(db, &w.chat, w.me.id, now).await?;
        if matches!(
            gates::check(mode, now, &posts, 0, false),
            Err(SilenceReason::Cooldown | SilenceReason::AntiSpam)
        ) {
            let again = match &w.reporting {
                Some(t) => WakeReason::Report { task_id: t.id },
                None => WakeReason::Nudge { chat_id: w.chat.id },
            };
            engine.defer(w.me.id, again, gates::next_open_at(mode, now, &posts));
            return Ok(Some(ThinkOutcome::Deferred));
        }
    }
    // A report is the step that closes a story, so it is never stopped.
    if w.reporting.is_none()
        && let Some(id) = w.trace.as_deref()
        && let Some((stop, last)) = super::stop::trace_stop(engine, id).await?
    {
        if let Some(seen) = w.latest_seen {
            cq::set_member_read(db, w.chat.id, w.me.id, seen).await?;
        }
        super::stop::guard_stop(engine, id, stop, &last, &w.chat).await?;
        return Ok(Some(ThinkOutcome::Idle));
    }
    Ok(None)
}

/// What asking the model came to.
struct Asked {
    /// The thought, its messages that passed the identity check (with where each goes),
    /// and whether one spoke as someone else even after the retry.
    answer: Option<(Thought, Vec<Outgoing>, bool)>,
    failure: Option<GatewayError>,
    calls: u32,
    model_time: std::time::Duration,
}

/// Asks for the thought, and once more when a message speaks as someone else (SPEC §10).
async fn ask(
    engine: &Engine,
    w: &Woken,
    cast: &Cast,
    groups: &[(i32, String)],
    me: &crate::org::EmployeeDto,
    route: crate::gateway::Route,
    request: &cubicle_llm::CompletionRequest,
) -> Asked {
    let ctx = CallContext {
        purpose: Purpose::Thought,
        trace_id: w.trace.clone(),
        employee_id: Some(w.me.id),
        max_retries: w.me.max_retries.and_then(|n| u32::try_from(n).ok()),
    };
    let other_names = cast.other_names(w.me.id);
    let other_refs: Vec<&str> = other_names.iter().map(String::as_str).collect();
    let mut asked = Asked {
        answer: None,
        failure: None,
        calls: 0,
        model_time: std::time::Duration::ZERO,
    };
    for _ in 0..2 {
        asked.calls += 1;
        let started = std::time::Instant::now();
        let reply = engine
            .core()
            .gateway
            .complete_json::<Thought>(&ctx, route.clone(), request.clone())
            .await;
        asked.model_time += started.elapsed();
        let t = match reply {
            Ok(reply) => reply.value,
            Err(e) => {
                asked.failure = Some(e);
                break;
            }
        };
        let cleaned: Vec<Option<Outgoing>> = t
            .messages
            .iter()
            .filter(|m| !m.content.trim().is_empty())
            .map(|m| {
                let to = m.to.as_deref().map_or(Target::Here, |n| {
                    target_of(n, w.me.id, &cast.staff, groups, &w.chat)
                });
                clean_chat_message(&m.content, me, &other_refs).map(|c| (to, c))
            })
            .collect();
        let impostor = cleaned.iter().any(Option::is_none);
        asked.answer = Some((t, cleaned.into_iter().flatten().collect(), impostor));
        asked.failure = None;
        if !impostor {
            break;
        }
    }
    asked
}

/// What the thought said, ready to be planned and applied.
struct Said<'a> {
    thought: Thought,
    kept: Vec<Outgoing>,
    impostor: bool,
    chat_requirement: Option<i32>,
    at: chrono::DateTime<chrono::Utc>,
    seed: &'a str,
    prompt_tokens: usize,
    calls: u32,
    model_time: std::time::Duration,
}

/// Where its messages go is decided through the gates before anything is written; then
/// the whole thought is written ahead as one row, and its effects after it, each once
/// (SPEC §10: a kill from here on is replayed at the next start, never applied twice;
/// before here the chat is still unread and it simply thinks again).
async fn settle(engine: &Engine, w: &Woken, said: Said<'_>) -> Result<ThinkOutcome, DbErr> {
    let is_dm = matches!(w.chat.kind, ChatKind::Dm | ChatKind::Boss);
    let t = said.thought;
    let mood = Mood::from_answer(t.interest_level, t.topic_saturation, is_dm);
    let mut kept = said.kept;
    // A call refused outright is told in this chat (the refusal line) and to her at
    // once; what she wrote here beside it speaks of something that will not happen
    // ("it goes out once you approve"), so none of it is posted (SPEC §17). A call
    // that waits for approval is a true promise and holds nothing back.
    let held_back = t.should_speak
        && kept.iter().any(|(to, _)| *to == Target::Here)
        && refused_here(engine, w.me.id, &t).await?;
    if held_back {
        kept.retain(|(to, _)| *to != Target::Here);
        tracing::info!(
            employee = w.me.id,
            chat = w.chat.id,
            "messages beside a refused call held back"
        );
    }
    let (posts, silenced_by, repetitions) =
        if t.should_speak && kept.is_empty() && said.impostor && !held_back {
            (vec![], Some(SilenceReason::Identity), 0)
        } else if t.should_speak && !kept.is_empty() {
            plan_posts(
                engine,
                w.me.id,
                &w.chat,
                &kept,
                mood.saturation(),
                boss_mentioned(w),
            )
            .await?
        } else {
            (vec![], None, 0)
        };
    let serves = acts_served(engine, w, &t).await?;
    let plan = Plan {
        thought: t,
        requirement: said.chat_requirement,
        latest_seen: w.latest_seen,
        trace: w.trace.clone(),
        serves,
        follow_up: w.focus != Focus::ToolResult,
        posts,
        repetitions,
        silenced_by,
        report_task: w.reporting.as_ref().map(|t| t.id),
        mood,
        seed: said.seed.to_owned(),
        prompt_tokens: said.prompt_tokens,
        at: said.at,
    };
    let posted = plan.posted();
    pending::write_and_apply(engine, w.me.id, w.chat.id, plan).await?;
    Ok(ThinkOutcome::Thought {
        mood,
        posted,
        silenced: silenced_by.is_some(),
        calls: said.calls,
        model_time: said.model_time,
        prompt_tokens: said.prompt_tokens,
    })
}

/// Which instruction each tool call and new task of the thought serves, when the
/// thought may be answering more than one (see `serves`).
async fn acts_served(engine: &Engine, w: &Woken, t: &Thought) -> Result<Serves, DbErr> {
    // The acts in the order `ops::apply_ops` takes them; which exist does not depend
    // on the staff (only whom a task is given to does), so none is needed here.
    let acts = super::plan::plan(t, w.me.id, &std::collections::HashMap::new());
    let creates = acts
        .tasks
        .iter()
        .any(|op| matches!(op, super::plan::TaskPlan::Create { .. }));
    if acts.tool_calls.is_empty() && !creates {
        return Ok(Serves::default());
    }
    let instructions = serves::Instructions::load(&engine.core().db, w).await?;
    Ok(instructions.serves(&acts))
}

/// Whether one of the thought's tool calls will be refused outright (asked in this
/// thought's chat, like every call of a thought).
async fn refused_here(engine: &Engine, employee_id: i32, t: &Thought) -> Result<bool, DbErr> {
    let approvals = &engine.core().approvals;
    for call in t
        .tool_calls
        .iter()
        .take(super::plan::MAX_TOOL_CALLS)
        .filter_map(super::plan::tool_call)
    {
        if approvals.would_refuse(employee_id, &call).await? {
            return Ok(true);
        }
    }
    Ok(false)
}

/// Where a poll thinks: a requirement to plan first (its plan is made and posted in
/// its group); else the first chat with unread messages; with only tasks pending, the
/// group of the requirement the work is for, else the boss chat, where reports go.
/// `None` when there is nothing to think about.
async fn poll_chat(
    engine: &Engine,
    employee_id: i32,
    tasks: &[cubicle_store::entity::task::Model],
    actionable: bool,
) -> Result<Option<chat::Model>, DbErr> {
    let db = &engine.core().db;
    if let Some(group) = engine.work_chat(employee_id, tasks, true).await? {
        return Ok(Some(group));
    }
    if let Some(id) = cq::chats_with_unread_for(db, employee_id).await?.first() {
        return cq::find_chat(db, *id).await;
    }
    if !actionable {
        // A fixed-interval poller looks at its first chat even with nothing new there.
        if matches!(engine.config().wake, WakeMode::FixedInterval { .. }) {
            return Ok(cq::chats_of_employee(db, employee_id)
                .await?
                .into_iter()
                .next());
        }
        return Ok(None);
    }
    match engine.work_chat(employee_id, tasks, false).await? {
        Some(group) => Ok(Some(group)),
        None => Ok(Some(engine.boss_chat(employee_id).await?)),
    }
}

/// A thought that could not be had: what the record and the outcome need.
pub(super) struct Dropped<'a> {
    pub employee_id: i32,
    pub chat_id: i32,
    pub failure: Option<GatewayError>,
    pub seed: &'a str,
    pub prompt_tokens: usize,
    pub trace: Option<String>,
    pub calls: u32,
    pub model_time: std::time::Duration,
}

/// A malformed or failed thought is dropped with a log line; the employee keeps working
/// (asked again after a growing pause) and nothing is marked read. A spent budget
/// is different: nothing can be done until the boss raises it or tomorrow comes, so it
/// waits for the next message or the new day instead of polling.
pub(super) async fn drop_thought(engine: &Engine, d: Dropped<'_>) -> Result<ThinkOutcome, DbErr> {
    let (why, budget) = match &d.failure {
        Some(GatewayError::Structured(_)) => (SilenceReason::Malformed, false),
        Some(GatewayError::BudgetExceeded { spent, budget }) => {
            tell_budget_stop(engine, &d, *spent, *budget).await?;
            (SilenceReason::Budget, true)
        }
        _ => (SilenceReason::ModelError, false),
    };
    let e = d
        .failure
        .map_or_else(|| "no answer".to_owned(), |e| e.to_string());
    tracing::warn!(employee = d.employee_id, chat = d.chat_id, error = %e, why = %why.to_value(), "thought dropped");
    engine
        .core()
        .minds
        .record_thought(
            ThoughtRecord {
                employee_id: d.employee_id,
                chat_id: d.chat_id,
                inner: "",
                reason: &e,
                should_speak: false,
                spoke: false,
                silenced_by: Some(why),
                mood: None,
                seed: d.seed,
                prompt_tokens: d.prompt_tokens,
                ops: json!({}),
                trace: d.trace,
                at: engine.now(),
            }
            .row(),
        )
        .await?;
    if budget {
        // …but only until the budget does: the day's `max_cost` is spent, not the work.
        // Without this poll, pending tasks waited for a message that might never come
        // (found by `bench soak`).
        engine.resume_tomorrow(d.employee_id);
        return Ok(ThinkOutcome::Idle);
    }
    Ok(ThinkOutcome::Failed {
        malformed: why == SilenceReason::Malformed,
        calls: d.calls,
        model_time: d.model_time,
        prompt_tokens: d.prompt_tokens,
    })
}

/// A thought the day's budget stopped is told in the chat where it was to be had, in
/// the company's language, once a day per chat (and per budget, so a raised budget
/// that is spent again is told again) — not once per blocked call, however many
/// colleagues it stops there. The employee's next thought is told too (see
/// `scene::recent_tool_results`), and the boss by the budget mail and its notification.
async fn tell_budget_stop(
    engine: &Engine,
    d: &Dropped<'_>,
    spent: f64,
    budget: f64,
) -> Result<(), DbErr> {
    let core = engine.core();
    let now = engine.now();
    let day = crate::gateway::start_of_day(now).date_naive();
    let key = format!("budget-stop:{}:{day}:{budget:.2}", d.chat_id);
    if !cubicle_store::effect::claim(&core.db, &key, now).await? {
        return Ok(());
    }
    let name = oq::find_employee(&core.db, d.employee_id)
        .await?
        .map(|e| e.name)
        .unwrap_or_default();
    let lang = core.mailbox.language().await?;
    let line = crate::approvals::budget_line(&name, spent, budget, lang);
    core.chats
        .post_system_traced(d.chat_id, &line, d.trace.clone())
        .await?;
    Ok(())
}

/// One thought as its row records it.
pub(super) struct ThoughtRecord<'a> {
    pub employee_id: i32,
    pub chat_id: i32,
    pub inner: &'a str,
    pub reason: &'a str,
    pub should_speak: bool,
    pub spoke: bool,
    pub silenced_by: Option<SilenceReason>,
    /// None when the thought was dropped: the model said nothing to read a mood from.
    pub mood: Option<Mood>,
    pub seed: &'a str,
    pub prompt_tokens: usize,
    pub ops: serde_json::Value,
    pub trace: Option<String>,
    pub at: chrono::DateTime<chrono::Utc>,
}

impl ThoughtRecord<'_> {
    pub(super) fn row(self) -> thought_row_entity::ActiveModel {
        thought_row_entity::ActiveModel {
            id: NotSet,
            employee_id: Set(self.employee_id),
            chat_id: Set(Some(self.chat_id)),
            inner_thoughts: Set(self.inner.chars().take(2000).collect()),
            reason: Set(self.reason.chars().take(500).collect()),
            should_speak: Set(self.should_speak),
            spoke: Set(self.spoke),
            silenced_by: Set(self.silenced_by),
            interest: Set(self.mood.map(|m| i32::from(m.interest()))),
            saturation: Set(self.mood.map(|m| i32::from(m.saturation()))),
            perspective_seed: Set(self.seed.to_owned()),
            prompt_tokens: Set(i32::try_from(self.prompt_tokens).unwrap_or(i32::MAX)),
            ops: Set(self.ops),
            trace_id: Set(self.trace),
            created_at: Set(self.at),
        }
    }
}
