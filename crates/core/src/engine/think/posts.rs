//! Where a thought's messages go and which of them may be posted: the gates (cooldown,
//! anti-spam, saturation) and the repetition check, chat by chat. Nothing is posted
//! here.

use std::collections::HashMap;

use cubicle_store::entity::{chat, employee};
use cubicle_store::{DbErr, chat as cq};

use super::{Outgoing, SCENE_MESSAGES, Target};
use crate::chat::gates::{self, ChatMode, SilenceReason};
use crate::engine::Engine;
use crate::engine::pending::Batch;
use crate::engine::plan::find_by_name;
use crate::mind::memory_rules;
use crate::mind::thought::MAX_MESSAGES_PER_THOUGHT;

/// How far back an employee's own messages count for the repetition penalty.
const OWN_RECENT: usize = 5;

/// Where a thought's messages go and which of them the gates let through: the batches
/// to post (this chat first), why none were posted when none were, and how many were
/// dropped as repetitions. Nothing is posted here; a DM the thought writes to is opened.
pub(in crate::engine) async fn plan_posts(
    engine: &Engine,
    employee_id: i32,
    chat: &chat::Model,
    kept: &[Outgoing],
    saturation: u8,
    boss_mentioned_me: bool,
) -> Result<(Vec<Batch>, Option<SilenceReason>, u32), DbErr> {
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
            Target::Dm(other) => open_dm(engine, employee_id, chat, other).await?,
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
) -> Result<(Vec<String>, Option<SilenceReason>, u32), DbErr> {
    let db = &engine.core().db;
    let now = engine.now();
    let room = if engine.config().gates {
        let (mode, my_posts) = my_gate_posts(db, chat, employee_id, now).await?;
        if let Err(reason) = gates::check(mode, now, &my_posts, saturation, boss_mentioned_me) {
            return Ok((vec![], Some(reason), 0));
        }
        gates::room_left(mode, now, &my_posts).min(MAX_MESSAGES_PER_THOUGHT)
    } else {
        MAX_MESSAGES_PER_THOUGHT
    };
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
    let why = (kept.is_empty() && repeated > 0).then_some(SilenceReason::Repetition);
    Ok((kept, why, repeated))
}

/// Where `"to": name` sends a message: a colleague's DM, else one of the employee's
/// group chats by name (`#name` or the bare name), else the chat itself.
pub(super) fn target_of(
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
pub(super) async fn my_gate_posts(
    db: &cubicle_store::Db,
    chat: &chat::Model,
    employee_id: i32,
    now: chrono::DateTime<chrono::Utc>,
) -> Result<(ChatMode, Vec<chrono::DateTime<chrono::Utc>>), DbErr> {
    let mode = chat.mode;
    let l = gates::limits(mode);
    let posts =
        cq::posts_by_since(db, chat.id, employee_id, now - l.window.max(l.cooldown)).await?;
    Ok((mode, posts))
}

/// The DM a thought in `chat` writes to `other` in, opened if need be; `None` when it
/// cannot be. A private word while on a task is about the work: the DM it opens is a work
/// chat, whatever chat the thought was in, and a casual DM the work now goes through is
/// labelled for what it is.
async fn open_dm(
    engine: &Engine,
    employee_id: i32,
    chat: &chat::Model,
    other: i32,
) -> Result<Option<chat::Model>, DbErr> {
    let core = engine.core();
    let on_task = cubicle_store::work::pending_tasks_of(&core.db, employee_id)
        .await?
        .iter()
        .any(|t| t.kind == crate::work::TaskKind::Oneshot);
    let mode = if on_task {
        ChatMode::Work
    } else {
        crate::chat::gates::mode_for_dm_from(Some(chat.kind))
    };
    Ok(match core.chats.dm_from(employee_id, other, mode).await {
        Ok(mut dm) if on_task && dm.mode == ChatMode::Casual => {
            cq::set_chat_mode(&core.db, dm.id, ChatMode::Work).await?;
            core.bus
                .publish(crate::events::DomainEvent::ChatChanged { chat_id: dm.id });
            dm.mode = ChatMode::Work;
            Some(dm)
        }
        Ok(dm) => Some(dm),
        Err(e) => {
            tracing::info!(error = %e, "a DM could not be opened");
            None
        }
    })
}
