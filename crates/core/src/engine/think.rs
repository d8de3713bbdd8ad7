//! One wake-up of one employee: gather the scene, think through the gateway, apply what
//! the thought says to remember, feel and do (always, even when silent), then pass its
//! messages through the gates and post what is left.

use std::collections::HashMap;

use chrono::TimeDelta;
use cubicle_store::entity::{chat, employee, thought as thought_row_entity};
use cubicle_store::{DbErr, chat as cq, mind as mq, org as oq};
use sea_orm::ActiveValue::{NotSet, Set};
use serde_json::json;

use super::pending::{self, Batch, Plan};
use super::plan::find_by_name;
use super::{Engine, Focus};
use crate::chat::gates::{self, ChatMode};
use crate::chat::polling;
use crate::gateway::{CallContext, GatewayError, Purpose};
use crate::guard::HeldBack;
use crate::mind::clean_chat_message;
use crate::mind::memory_rules::{self, Viewer};
use crate::mind::thought::{MAX_MESSAGES_PER_THOUGHT, Scene, SceneMessage, Thought, build, score};
use crate::org::{company_dto, employee_dto};
use crate::scheduler::WakeReason;

/// Messages shown to a thought (SPEC §4: the last 20).
const SCENE_MESSAGES: u64 = 20;
/// How far back an employee's own messages count for the repetition penalty.
const OWN_RECENT: usize = 5;

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
        interest: Option<u8>,
        saturation: Option<u8>,
        is_dm: bool,
        posted: usize,
        silenced: bool,
        malformed: bool,
        /// The thought could not be had (malformed answer or provider error).
        failed: bool,
        calls: u32,
        /// Time spent in the model calls (through the gateway).
        model_time: std::time::Duration,
        prompt_tokens: usize,
    },
}

pub(super) async fn think(
    engine: &Engine,
    employee_id: i32,
    chat_id: Option<i32>,
    focus: Focus,
) -> Result<ThinkOutcome, DbErr> {
    let core = engine.core();
    let db = &core.db;
    let Some(me) = oq::find_employee(db, employee_id)
        .await?
        .filter(|e| e.fired_at.is_none())
    else {
        return Ok(ThinkOutcome::Idle);
    };
    pending::finish_left_over(engine, employee_id).await?;
    let tasks = core.work.pending_of(employee_id).await?;
    // Only one-shot work is a reason to think on its own; ongoing and conditional tasks
    // are in the prompt whenever the employee thinks, but don't wake it every poll.
    let actionable = tasks.iter().any(|t| t.kind == "oneshot");
    let chat = match chat_id {
        Some(id) => cq::find_chat(db, id).await?,
        None => poll_chat(engine, employee_id, &tasks, actionable).await?,
    };
    let Some(chat) = chat else {
        return Ok(ThinkOutcome::Idle);
    };
    let Some(member) = cq::find_member(db, chat.id, employee_id).await? else {
        return Ok(ThinkOutcome::Idle);
    };
    let read_up_to = member.last_read_message_id.unwrap_or(0);
    let recent = cq::last_messages(db, chat.id, SCENE_MESSAGES).await?;
    let unread: Vec<_> = recent
        .iter()
        .filter(|m| m.id > read_up_to && m.sender_employee_id != Some(employee_id))
        .collect();
    // The task being reported, when this wake-up is an onResolve.
    let reporting = match focus {
        Focus::Report { task_id } => cubicle_store::work::find_task(db, task_id)
            .await?
            .filter(|t| t.owner_id == employee_id && t.status == "resolved"),
        _ => None,
    };
    if unread.is_empty() && !actionable && focus == Focus::Messages {
        return Ok(ThinkOutcome::Idle);
    }
    let latest_seen = recent.last().map(|m| m.id);
    // The boss instruction this thought works under (SPEC §10): the report's task; else
    // the newest new word from the boss; else the newest new message that belongs to
    // an instruction; else the oldest pending task's.
    let trace: Option<String> = match &reporting {
        Some(t) => t.trace_id.clone(),
        None => unread
            .iter()
            .rev()
            .find(|m| m.sender_kind == "boss" && m.trace_id.is_some())
            .or_else(|| unread.iter().rev().find(|m| m.trace_id.is_some()))
            .and_then(|m| m.trace_id.clone())
            .or_else(|| tasks.iter().find_map(|t| t.trace_id.clone())),
    };
    // Someone who may not speak here yet waits rather than think now and have what it
    // says thrown away by the gates: a question to it is answered (a report written)
    // once the cooldown or the anti-spam window lets it, and no model call is spent in
    // between.
    let wants_to_speak = match focus {
        Focus::Messages => !unread.is_empty(),
        Focus::Report { .. } => reporting.is_some(),
        Focus::Escalation | Focus::ToolResult => false,
    };
    if wants_to_speak {
        let now = engine.now();
        let (mode, posts) = my_gate_posts(db, &chat, employee_id, now).await?;
        if matches!(
            gates::check(mode, now, &posts, 0, false),
            Err(gates::GateReason::Cooldown | gates::GateReason::AntiSpam)
        ) {
            let again = match focus {
                Focus::Report { task_id } => WakeReason::Report { task_id },
                _ => WakeReason::Nudge { chat_id: chat.id },
            };
            engine.defer(employee_id, again, gates::next_open_at(mode, now, &posts));
            return Ok(ThinkOutcome::Deferred);
        }
    }
    // Loop protection: an instruction that has taken its steps, or whose last steps were
    // all held back, stops here and goes to the boss, once. A report is the step that
    // closes a story, so it is never stopped.
    if reporting.is_none()
        && let Some(id) = trace.as_deref()
        && let Some((stop, last)) = super::stop::trace_stop(engine, id).await?
    {
        if let Some(seen) = latest_seen {
            cq::set_member_read(db, chat.id, employee_id, seen).await?;
        }
        super::stop::guard_stop(engine, id, stop, &last, &chat).await?;
        return Ok(ThinkOutcome::Idle);
    }

    let me_dto = employee_dto(&me);
    let route = match core
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
    let profile = core.gateway.profile(&route).await.ok();
    if let Some(profile) = profile.filter(|p| p.small) {
        let unread_ids = unread.iter().map(|m| m.id).collect();
        return super::guided::think(
            engine,
            super::guided::Wakeup {
                me,
                chat,
                recent,
                unread: unread_ids,
                tasks,
                reporting,
                trace,
                latest_seen,
                route,
                profile,
                focus,
            },
        )
        .await;
    }
    let Some(company) = oq::find_company(db).await? else {
        return Ok(ThinkOutcome::Idle);
    };
    let company = company_dto(&company);
    let staff: HashMap<i32, employee::Model> = oq::list_employees(db, company.id, true)
        .await?
        .into_iter()
        .map(|e| (e.id, e))
        .collect();
    let department = match me.department_id {
        Some(d) => oq::find_department(db, d).await?,
        None => None,
    };
    let member_ids: Vec<i32> = cq::members(db, chat.id)
        .await?
        .into_iter()
        .map(|m| m.employee_id)
        .filter(|id| *id != employee_id)
        .collect();
    let others: Vec<(String, String)> = member_ids
        .iter()
        .filter_map(|id| staff.get(id))
        .filter(|e| e.fired_at.is_none())
        .map(|e| (e.name.clone(), e.title.clone()))
        .collect();
    let name_of = |m: &cubicle_store::entity::chat_message::Model| match m.sender_kind.as_str() {
        "boss" => company.boss_name.clone(),
        "system" => "(note)".to_owned(),
        _ => m
            .sender_employee_id
            .and_then(|id| staff.get(&id))
            .map_or_else(|| "someone".to_owned(), |e| e.name.clone()),
    };
    let messages: Vec<SceneMessage> = recent
        .iter()
        .map(|m| SceneMessage {
            id: m.id,
            sender: name_of(m),
            is_boss: m.sender_kind == "boss",
            is_me: m.sender_employee_id == Some(employee_id),
            text: m.text.clone(),
            unread: m.id > read_up_to && m.sender_employee_id != Some(employee_id),
            at: m.created_at,
        })
        .collect();
    // De-dup hint: who already answered what this employee has to answer — the boss's
    // newest word among what is new to them, else the first new message.
    let anchor = unread
        .iter()
        .rev()
        .find(|m| m.sender_kind == "boss")
        .or(unread.first());
    let already_replied: Vec<String> = match anchor {
        Some(first) => {
            let mut names: Vec<String> = recent
                .iter()
                .filter(|m| m.id > first.id && m.sender_kind == "employee")
                .filter(|m| m.sender_employee_id != Some(employee_id))
                .map(name_of)
                .collect();
            // Each name once, in the order they answered.
            let mut seen = std::collections::HashSet::new();
            names.retain(|n| seen.insert(n.clone()));
            names
        }
        None => vec![],
    };
    // The boss addressed this employee (by @mention or by name) in what is new to them.
    let addressed = unread.iter().any(|m| {
        m.sender_kind == "boss"
            && (m
                .mentions
                .as_ref()
                .and_then(|v| serde_json::from_value::<Vec<i32>>(v.clone()).ok())
                .is_some_and(|ids| ids.contains(&employee_id))
                || crate::chat::mentions::names(&m.text, &me.name))
    });
    let summary = mq::chat_summary(db, chat.id).await?;
    let context: String = recent
        .iter()
        .rev()
        .take(6)
        .map(|m| m.text.as_str())
        .collect::<Vec<_>>()
        .join(" ");
    // Team memories reach the employee's department and the projects it is part of.
    let my_chat_rows = cq::chats_of_employee(db, employee_id).await?;
    let my_chats: Vec<i32> = my_chat_rows.iter().map(|c| c.id).collect();
    // Group chats it can also post in (`"to": "#name"`).
    let other_groups: Vec<(i32, String)> = my_chat_rows
        .iter()
        .filter(|c| c.id != chat.id && !matches!(c.kind.as_str(), "dm" | "boss"))
        .map(|c| (c.id, c.name.clone()))
        .collect();
    let requirements = cubicle_store::work::list_requirements(db).await?;
    let requirement_ids: Vec<i32> = requirements
        .iter()
        .filter(|r| r.chat_id.is_some_and(|c| my_chats.contains(&c)))
        .map(|r| r.id)
        .collect();
    let chat_requirement = requirements
        .iter()
        .find(|r| r.chat_id == Some(chat.id))
        .map(|r| r.id);
    let viewer = Viewer {
        employee_id,
        department_id: me.department_id,
        requirement_ids,
    };
    let memories = core
        .minds
        .recall(&viewer, &context, engine.config().memory_recall)
        .await?;
    let impressions = core
        .minds
        .impressions(employee_id, &member_ids)
        .await?
        .into_iter()
        .filter_map(|(id, imp, aff)| staff.get(&id).map(|e| (e.name.clone(), imp, aff)))
        .collect();
    let now = engine.now();
    // Ongoing and conditional tasks say so and never age into urgency.
    let task_lines: Vec<(i32, String, TimeDelta)> = tasks
        .iter()
        .map(|t| match t.kind.as_str() {
            "long_running" => (
                t.id,
                format!("[ongoing] {}", t.description),
                TimeDelta::zero(),
            ),
            "conditional" => (
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
        .collect();
    let stamina = core.minds.stamina(employee_id).await?;
    let tool_results = recent_tool_results(engine, employee_id).await?;
    let seed = engine.pick_seed();
    let scene = Scene {
        me: &me_dto,
        company: &company,
        department: department.as_ref().map(|d| d.name.as_str()),
        department_mission: department.as_ref().map(|d| d.mission.as_str()),
        chat_name: &chat.name,
        chat_kind: &chat.kind,
        chat_topic: chat.topic.as_deref(),
        others,
        messages,
        summary: summary.as_ref().map(|s| s.summary.as_str()),
        memories,
        impressions,
        tasks: task_lines,
        already_replied,
        seed,
        stamina,
        addressed,
        other_chats: other_groups.iter().map(|(_, n)| n.clone()).collect(),
        tool_results,
        report: reporting.as_ref().map(|t| crate::mind::thought::Report {
            description: t.description.clone(),
            result: t.result.clone(),
            hint: t.on_resolve_hint.clone(),
        }),
    };
    let mut prompt = build(&scene);
    prompt.request.seed = engine.sampling_seed();
    let is_dm = matches!(chat.kind.as_str(), "dm" | "boss");
    let (default_interest, default_saturation) = polling::defaults(is_dm);

    // Think, and regenerate once when a message speaks as someone else (SPEC §10).
    let ctx = CallContext {
        purpose: Purpose::Thought,
        trace_id: trace.clone(),
        employee_id: Some(employee_id),
    };
    let other_names: Vec<String> = staff
        .values()
        .filter(|e| e.id != employee_id)
        .map(|e| e.name.clone())
        .chain(std::iter::once(company.boss_name.clone()))
        .collect();
    let other_refs: Vec<&str> = other_names.iter().map(String::as_str).collect();
    let mut calls = 0u32;
    let mut model_time = std::time::Duration::ZERO;
    let mut answer: Option<(Thought, Vec<Outgoing>, bool)> = None;
    let mut failure: Option<GatewayError> = None;
    for _ in 0..2 {
        calls += 1;
        let asked = std::time::Instant::now();
        let reply = core
            .gateway
            .complete_json::<Thought>(&ctx, route.clone(), prompt.request.clone())
            .await;
        model_time += asked.elapsed();
        match reply {
            Ok(reply) => {
                let t = reply.value;
                let cleaned: Vec<Option<Outgoing>> = t
                    .messages
                    .iter()
                    .filter(|m| !m.content.trim().is_empty())
                    .map(|m| {
                        let to = m.to.as_deref().map_or(Target::Here, |n| {
                            target_of(n, employee_id, &staff, &other_groups, &chat)
                        });
                        clean_chat_message(&m.content, &me_dto, &other_refs).map(|c| (to, c))
                    })
                    .collect();
                let impostor = cleaned.iter().any(Option::is_none);
                let kept: Vec<Outgoing> = cleaned.into_iter().flatten().collect();
                let done = !impostor;
                answer = Some((t, kept, impostor));
                failure = None;
                if done {
                    break;
                }
            }
            Err(e) => {
                failure = Some(e);
                break;
            }
        }
    }

    let Some((t, kept, impostor)) = answer else {
        let dropped = Dropped {
            employee_id,
            chat_id: chat.id,
            failure,
            seed: seed.id,
            prompt_tokens: prompt.tokens,
            trace: trace.clone(),
            is_dm,
            calls,
            model_time,
        };
        return drop_thought(engine, dropped).await;
    };

    let interest = score(t.interest_level, default_interest);
    let saturation = score(t.topic_saturation, default_saturation);
    // Where its messages go is decided through the gates before anything is written;
    // then the whole thought is written ahead as one row, and its effects after it,
    // each once (SPEC §10: a kill from here on is replayed at the next start, never
    // applied twice; before here the chat is still unread and it simply thinks again).
    let (posts, silenced_by, repetitions) = if t.should_speak && kept.is_empty() && impostor {
        (vec![], Some(HeldBack::Identity.as_str()), 0)
    } else if t.should_speak && !kept.is_empty() {
        let boss_mentioned_me = unread.iter().any(|m| {
            m.sender_kind == "boss"
                && m.mentions
                    .as_ref()
                    .and_then(|v| serde_json::from_value::<Vec<i32>>(v.clone()).ok())
                    .is_some_and(|ids| ids.contains(&employee_id))
        });
        plan_posts(
            engine,
            employee_id,
            &chat,
            &kept,
            saturation,
            boss_mentioned_me,
        )
        .await?
    } else {
        (vec![], None, 0)
    };
    let plan = Plan {
        thought: t,
        requirement: chat_requirement,
        latest_seen,
        trace: trace.clone(),
        follow_up: focus != Focus::ToolResult,
        posts,
        repetitions,
        silenced_by: silenced_by.map(str::to_owned),
        report_task: reporting.as_ref().map(|t| t.id),
        interest,
        saturation,
        seed: seed.id.to_owned(),
        prompt_tokens: prompt.tokens,
        at: now,
    };
    let posted = plan.posted();
    pending::write_and_apply(engine, employee_id, chat.id, plan).await?;
    Ok(ThinkOutcome::Thought {
        interest: Some(interest),
        saturation: Some(saturation),
        is_dm,
        posted,
        silenced: silenced_by.is_some(),
        malformed: false,
        failed: false,
        calls,
        model_time,
        prompt_tokens: prompt.tokens,
    })
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
    pub is_dm: bool,
    pub calls: u32,
    pub model_time: std::time::Duration,
}

/// A malformed or failed thought is dropped with a log line; the employee keeps working
/// (its next poll comes at the default pace) and nothing is marked read. A spent budget
/// is different: nothing can be done until the boss raises it or tomorrow comes, so it
/// waits for the next message or the new day instead of polling.
pub(super) async fn drop_thought(engine: &Engine, d: Dropped<'_>) -> Result<ThinkOutcome, DbErr> {
    let (why, budget) = match &d.failure {
        Some(GatewayError::Structured(_)) => ("malformed", false),
        Some(GatewayError::BudgetExceeded { .. }) => ("budget", true),
        _ => ("model_error", false),
    };
    let e = d
        .failure
        .map_or_else(|| "no answer".to_owned(), |e| e.to_string());
    tracing::warn!(employee = d.employee_id, chat = d.chat_id, error = %e, why, "thought dropped");
    engine
        .core()
        .minds
        .record_thought(thought_row(
            d.employee_id,
            d.chat_id,
            "",
            &e,
            false,
            false,
            Some(why),
            None,
            None,
            d.seed,
            d.prompt_tokens,
            json!({}),
            d.trace,
            engine.now(),
        ))
        .await?;
    if budget {
        // …but only until the budget does: the day's `max_cost` is spent, not the work.
        // Without this poll, pending tasks waited for a message that might never come
        // (found by `bench soak`).
        engine.resume_tomorrow(d.employee_id);
        return Ok(ThinkOutcome::Idle);
    }
    Ok(ThinkOutcome::Thought {
        interest: None,
        saturation: None,
        is_dm: d.is_dm,
        posted: 0,
        silenced: false,
        malformed: why == "malformed",
        failed: true,
        calls: d.calls,
        model_time: d.model_time,
        prompt_tokens: d.prompt_tokens,
    })
}

/// Where a thought's messages go and which of them the gates let through: the batches
/// to post (this chat first), why none were posted when none were, and how many were
/// dropped as repetitions. Nothing is posted here; a DM the thought writes to is opened.
pub(super) async fn plan_posts(
    engine: &Engine,
    employee_id: i32,
    chat: &chat::Model,
    kept: &[Outgoing],
    saturation: u8,
    boss_mentioned_me: bool,
) -> Result<(Vec<Batch>, Option<&'static str>, u32), DbErr> {
    let core = engine.core();
    let mut batches = Vec::new();
    let mut silenced_by = None;
    let mut repetitions = 0;
    let here: Vec<String> = kept
        .iter()
        .filter(|(to, _)| *to == Target::Here)
        .map(|(_, text)| text.clone())
        .collect();
    if !here.is_empty() {
        let (sent, why, reps) = gate(
            engine,
            employee_id,
            chat,
            &here,
            saturation,
            boss_mentioned_me,
        )
        .await?;
        repetitions += reps;
        silenced_by = why;
        batches.push(Batch {
            chat_id: chat.id,
            here: true,
            texts: sent,
        });
    }
    let mut targets: Vec<Target> = kept
        .iter()
        .map(|(to, _)| *to)
        .filter(|to| *to != Target::Here)
        .collect();
    targets.dedup();
    for target in targets {
        let texts: Vec<String> = kept
            .iter()
            .filter(|(to, _)| *to == target)
            .map(|(_, text)| text.clone())
            .collect();
        let elsewhere = match target {
            Target::Dm(other) => {
                let mode = ChatMode::for_dm_from(Some(&chat.kind));
                match core.chats.dm_from(employee_id, other, mode).await {
                    Ok(dm) => Some(dm),
                    Err(e) => {
                        tracing::info!(error = %e, "a DM could not be opened");
                        None
                    }
                }
            }
            Target::Chat(id) => cq::find_chat(&core.db, id).await?,
            Target::Here => None,
        };
        let Some(elsewhere) = elsewhere else {
            continue;
        };
        // A word elsewhere does not reset the topic: that chat has its own saturation.
        let (sent, why, reps) = gate(engine, employee_id, &elsewhere, &texts, 0, false).await?;
        repetitions += reps;
        if silenced_by.is_none() && sent.is_empty() {
            silenced_by = why;
        }
        batches.push(Batch {
            chat_id: elsewhere.id,
            here: false,
            texts: sent,
        });
    }
    Ok((batches, silenced_by, repetitions))
}

/// Passes one batch of messages for one chat through the gates (SPEC §4 layer 3) and
/// the repetition check: what may be posted, why nothing may when nothing may, and how
/// many were dropped as repeats.
async fn gate(
    engine: &Engine,
    employee_id: i32,
    chat: &chat::Model,
    texts: &[String],
    saturation: u8,
    boss_mentioned_me: bool,
) -> Result<(Vec<String>, Option<&'static str>, u32), DbErr> {
    let db = &engine.core().db;
    let now = engine.now();
    let (mode, my_posts) = my_gate_posts(db, chat, employee_id, now).await?;
    if let Err(reason) = gates::check(mode, now, &my_posts, saturation, boss_mentioned_me) {
        return Ok((vec![], Some(reason.as_str()), 0));
    }
    let room = gates::room_left(mode, now, &my_posts).min(MAX_MESSAGES_PER_THOUGHT);
    let mut own: Vec<String> = cq::last_messages(db, chat.id, SCENE_MESSAGES)
        .await?
        .into_iter()
        .rev()
        .filter(|m| m.sender_employee_id == Some(employee_id))
        .take(OWN_RECENT)
        .map(|m| m.text)
        .collect();
    let (mut kept, mut repeated) = (Vec::new(), 0u32);
    for text in texts.iter().take(room) {
        let refs: Vec<&str> = own.iter().map(String::as_str).collect();
        if memory_rules::is_duplicate(text, &refs) {
            // Saying the same thing again wears on the speaker (SPEC §7, ours).
            repeated += 1;
            continue;
        }
        own.push(text.clone());
        kept.push(text.clone());
    }
    let why = (kept.is_empty() && repeated > 0).then_some(HeldBack::Repetition.as_str());
    Ok((kept, why, repeated))
}

#[allow(clippy::too_many_arguments)] // one row, spelled out
pub(super) fn thought_row(
    employee_id: i32,
    chat_id: i32,
    inner: &str,
    reason: &str,
    should_speak: bool,
    spoke: bool,
    silenced_by: Option<&str>,
    interest: Option<u8>,
    saturation: Option<u8>,
    seed: &str,
    prompt_tokens: usize,
    ops: serde_json::Value,
    trace: Option<String>,
    now: chrono::DateTime<chrono::Utc>,
) -> thought_row_entity::ActiveModel {
    thought_row_entity::ActiveModel {
        id: NotSet,
        employee_id: Set(employee_id),
        chat_id: Set(Some(chat_id)),
        inner_thoughts: Set(inner.chars().take(2000).collect()),
        reason: Set(reason.chars().take(500).collect()),
        should_speak: Set(should_speak),
        spoke: Set(spoke),
        silenced_by: Set(silenced_by.map(str::to_owned)),
        interest: Set(interest.map(i32::from)),
        saturation: Set(saturation.map(i32::from)),
        perspective_seed: Set(seed.to_owned()),
        prompt_tokens: Set(i32::try_from(prompt_tokens).unwrap_or(i32::MAX)),
        ops: Set(ops),
        trace_id: Set(trace),
        created_at: Set(now),
    }
}

/// Where `"to": name` sends a message: a colleague's DM, else one of the employee's
/// group chats by name (`#name` or the bare name), else the chat itself.
fn target_of(
    name: &str,
    me: i32,
    staff: &HashMap<i32, employee::Model>,
    groups: &[(i32, String)],
    here: &chat::Model,
) -> Target {
    let bare = name.trim().trim_start_matches('#').trim();
    if !name.trim().starts_with('#')
        && let Some(id) = find_by_name(staff, bare).filter(|id| *id != me)
    {
        return Target::Dm(id);
    }
    let wanted = bare.to_lowercase();
    if here.name.to_lowercase() == wanted {
        return Target::Here;
    }
    match groups.iter().find(|(_, n)| n.to_lowercase() == wanted) {
        Some((id, _)) => Target::Chat(*id),
        None => Target::Here,
    }
}

/// The chat's gate table and the employee's own posts the gates look at (cooldown and
/// anti-spam window).
async fn my_gate_posts(
    db: &cubicle_store::Db,
    chat: &chat::Model,
    employee_id: i32,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(ChatMode, Vec<chrono::DateTime<chrono::Utc>>), DbErr> {
    let mode = ChatMode::of_stored(&chat.mode);
    let l = gates::limits(mode);
    let posts =
        cq::posts_by_since(db, chat.id, employee_id, now - l.window.max(l.cooldown)).await?;
    Ok((mode, posts))
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
    Ok(calls
        .into_iter()
        .filter(|c| c.created_at >= since)
        .map(|c| {
            let what = match c.outcome.as_str() {
                "waiting_approval" => "waiting for the boss's approval".to_owned(),
                "refused" => format!("refused: {}", c.output.unwrap_or_default()),
                "error" => format!("failed: {}", c.output.unwrap_or_default()),
                _ => c.output.unwrap_or_else(|| "done".to_owned()),
            };
            format!("{} → {what}", c.tool)
        })
        .collect())
}
