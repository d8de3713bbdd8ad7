//! Crash safety of a thought (SPEC §10: after a kill nothing is lost and nothing is
//! applied twice).
//!
//! A thought is one model call, then many writes: ops, tool requests, messages, the
//! report, the read mark and the thought record. Once the model's reply is in hand and
//! it is decided what goes where, the whole thought is written ahead as one
//! `pending_thought` row (its [`Plan`]); then each effect is written under a key made
//! from that row's id (`pt<id>:msg:<batch>:<n>`, `pt<id>:task:<n>`, …), the key in
//! the same transaction as the effect; last, one transaction marks the chat read,
//! records the thought, settles the gauges and deletes the pending row.
//!
//! A kill before the pending row leaves the chat unread: the employee thinks again (a
//! new model call; the first call's ledger row stays, it was spent). A kill after it
//! leaves the row: at the next start [`replay_all`] writes what is missing, without a
//! model call, before anything else runs.

use std::collections::HashMap;

use chrono::{DateTime, Utc};
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{chat, employee};
use cubicle_store::{DbErr, chat as cq, effect, mind as mq, org as oq};
use serde::{Deserialize, Serialize};

use super::Engine;
use super::ops::{Scope, apply_ops, file_report};
use super::think::{Serves, ThoughtRecord};
use crate::chat::gates::SilenceReason;
use crate::chat::polling::Mood;
use crate::mind::minds::Minds;
use crate::mind::thought::Thought;

/// Messages to post in one chat.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Batch {
    pub chat_id: i32,
    /// The chat the thought is in (its words there are a report's words).
    pub here: bool,
    pub texts: Vec<String>,
}

/// Everything a thought will write, decided before the first write.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) struct Plan {
    pub thought: Thought,
    pub requirement: Option<i32>,
    pub latest_seen: Option<i32>,
    pub trace: Option<String>,
    /// The instruction each tool call and new task serves, where not the thought's.
    #[serde(default)]
    pub serves: Serves,
    pub follow_up: bool,
    /// What the gates let through, chat by chat.
    pub posts: Vec<Batch>,
    /// Messages dropped as repeats (each costs stamina).
    pub repetitions: u32,
    pub silenced_by: Option<SilenceReason>,
    /// The task this thought reports on (onResolve).
    pub report_task: Option<i32>,
    /// Stored as its two fields beside the others, as plans written before it were.
    #[serde(flatten)]
    pub mood: Mood,
    pub seed: String,
    pub prompt_tokens: usize,
    pub at: DateTime<Utc>,
}

impl Plan {
    pub fn posted(&self) -> usize {
        self.posts.iter().map(|b| b.texts.len()).sum()
    }
}

impl Engine {
    /// After a kill (SPEC §10): every thought whose reply was in hand is written to the
    /// end without a new model call; every approved action whose run began and never
    /// ended is marked interrupted and shown to the boss — never run again on its own.
    /// (Approved actions nobody started, decided on an attached desktop, are not
    /// interrupted: the real-time loop runs them.)
    pub async fn recover(&self) -> Result<(), cubicle_store::DbErr> {
        let replayed = replay_all(self).await?;
        let interrupted = match self.core().approvals.flag_interrupted().await {
            Ok(ids) => ids.len(),
            Err(crate::approvals::ApprovalError::Storage(e)) => return Err(e),
            Err(e) => {
                tracing::warn!(error = %e, "interrupted approvals could not be flagged");
                0
            }
        };
        // Said every time (supervisors and tests wait for it): from here on, a run begun
        // and not ended is someone's live run, not one a stop interrupted.
        tracing::info!(replayed, interrupted, "recovery done");
        // Found now rather than at the first approval, so a server without a lasting
        // approval key says so when it starts, not hours later.
        match self.core().approvals.seal().source().await {
            Ok(source) => tracing::info!(?source, "approval key ready"),
            // Found once the company is set up, when the first action waits.
            Err(crate::approvals::SealError::NoCompany) => {}
            Err(e) => {
                tracing::warn!(error = %e, "no approval key: actions cannot wait for the boss")
            }
        }
        let mut s = super::lock(&self.inner.stats);
        s.replayed += replayed as u64;
        s.interrupted += interrupted as u64;
        Ok(())
    }
}

/// Writes the thought ahead, then its effects.
pub(super) async fn write_and_apply(
    engine: &Engine,
    employee_id: i32,
    chat_id: i32,
    plan: Plan,
) -> Result<(), DbErr> {
    let value = serde_json::to_value(&plan).map_err(|e| DbErr::Json(e.to_string()))?;
    let row =
        effect::insert_pending(&engine.core().db, employee_id, chat_id, value, plan.at).await?;
    apply(engine, row.id, employee_id, chat_id, &plan).await
}

/// Replays every pending thought left by a kill (no model call), oldest first.
/// Returns how many were replayed.
pub(super) async fn replay_all(engine: &Engine) -> Result<usize, DbErr> {
    let db = &engine.core().db;
    let mut replayed = 0;
    for row in effect::pending_thoughts(db).await? {
        match serde_json::from_value::<Plan>(row.plan.clone()) {
            Ok(plan) => {
                tracing::info!(
                    pending = row.id,
                    employee = row.employee_id,
                    "replaying a thought interrupted by a stop"
                );
                apply(engine, row.id, row.employee_id, row.chat_id, &plan).await?;
                replayed += 1;
            }
            Err(e) => {
                // Written by this code, so unreadable only if the format changed: the
                // chat stays unread and the employee thinks again.
                tracing::warn!(pending = row.id, error = %e, "a pending thought could not be read; dropped");
                effect::delete_pending(db, row.id).await?;
            }
        }
    }
    Ok(replayed)
}

/// Finishes a thought of this employee's that a failed write left pending (before it
/// thinks again, so the same messages are not answered by two thoughts).
pub(super) async fn finish_left_over(engine: &Engine, employee_id: i32) -> Result<(), DbErr> {
    for row in effect::pending_thoughts(&engine.core().db).await? {
        if row.employee_id != employee_id {
            continue;
        }
        if let Ok(plan) = serde_json::from_value::<Plan>(row.plan.clone()) {
            apply(engine, row.id, row.employee_id, row.chat_id, &plan).await?;
        }
    }
    Ok(())
}

/// Writes whatever of the plan is not written yet; the last step removes the pending
/// row. Running it again for the same row writes nothing twice.
async fn apply(
    engine: &Engine,
    pending_id: i32,
    employee_id: i32,
    chat_id: i32,
    plan: &Plan,
) -> Result<(), DbErr> {
    let db = &engine.core().db;
    let Some(Scene { me, chat, staff }) = load_scene(engine, employee_id, chat_id).await? else {
        // Its employee or chat is gone (the foreign keys cascade); nothing to write.
        effect::delete_pending(db, pending_id).await?;
        return Ok(());
    };
    let key = format!("pt{pending_id}:");
    let scope = Scope {
        chat: &chat,
        requirement: plan.requirement,
        latest_seen: plan.latest_seen,
        trace: plan.trace.as_deref(),
        serves: &plan.serves,
        follow_up: plan.follow_up,
        key: &key,
    };
    let ops = apply_ops(engine, &me, &scope, &plan.thought, &staff).await?;
    post_messages(engine, employee_id, plan, &key).await?;
    report_on_task(engine, &me, &chat, plan, &key).await?;
    record_thought(engine, pending_id, employee_id, chat_id, plan, ops).await
}

/// Who thinks, where, and the staff their ops may name.
struct Scene {
    me: employee::Model,
    chat: chat::Model,
    staff: HashMap<i32, employee::Model>,
}

/// The thinker, its chat and the company's staff; `None` when the employee, the chat
/// or the company is gone.
async fn load_scene(
    engine: &Engine,
    employee_id: i32,
    chat_id: i32,
) -> Result<Option<Scene>, DbErr> {
    let db = &engine.core().db;
    let me = oq::find_employee(db, employee_id).await?;
    let chat = cq::find_chat(db, chat_id).await?;
    let company = oq::find_company(db).await?;
    let (Some(me), Some(chat), Some(company)) = (me, chat, company) else {
        return Ok(None);
    };
    let staff = oq::list_employees(db, company.id, true)
        .await?
        .into_iter()
        .map(|e| (e.id, e))
        .collect();
    Ok(Some(Scene { me, chat, staff }))
}

/// Posts what the gates let through, each message once under its own key.
async fn post_messages(
    engine: &Engine,
    employee_id: i32,
    plan: &Plan,
    key: &str,
) -> Result<(), DbErr> {
    for (b, batch) in plan.posts.iter().enumerate() {
        for (n, text) in batch.texts.iter().enumerate() {
            engine
                .core()
                .chats
                .post_keyed(
                    batch.chat_id,
                    employee_id,
                    text,
                    plan.trace.clone(),
                    &format!("{key}msg:{b}:{n}"),
                )
                .await?;
        }
    }
    Ok(())
}

/// Files the report the thought owes on its task (from what it said in this chat) and
/// clears the task's report due.
async fn report_on_task(
    engine: &Engine,
    me: &employee::Model,
    chat: &chat::Model,
    plan: &Plan,
    key: &str,
) -> Result<(), DbErr> {
    let db = &engine.core().db;
    if let Some(task_id) = plan.report_task
        && let Some(task) = cubicle_store::work::find_task(db, task_id).await?
    {
        let said: Vec<String> = plan
            .posts
            .iter()
            .filter(|b| b.here)
            .flat_map(|b| b.texts.iter().cloned())
            .collect();
        file_report(engine, me, chat, &task, &said, &format!("{key}report")).await?;
        cubicle_store::work::set_report_due(db, task_id, None).await?;
    }
    Ok(())
}

/// The last step, one transaction: removes the pending row, marks the chat read,
/// records the thought and settles the gauges; then tells the UI.
async fn record_thought(
    engine: &Engine,
    pending_id: i32,
    employee_id: i32,
    chat_id: i32,
    plan: &Plan,
    ops: serde_json::Value,
) -> Result<(), DbErr> {
    let t = &plan.thought;
    let txn = engine.core().db.begin_write().await?;
    if effect::delete_pending(&txn, pending_id).await? == 0 {
        // Finished meanwhile by another run of the same row.
        return Ok(());
    }
    if let Some(last) = plan.latest_seen {
        cq::set_member_read(&txn, chat_id, employee_id, last).await?;
    }
    let row = mq::insert_thought(
        &txn,
        ThoughtRecord {
            employee_id,
            chat_id,
            inner: &t.inner_thoughts,
            reason: &t.reason,
            should_speak: t.should_speak,
            spoke: plan.posted() > 0,
            silenced_by: plan.silenced_by,
            mood: Some(plan.mood),
            seed: &plan.seed,
            prompt_tokens: plan.prompt_tokens,
            ops,
            trace: plan.trace.clone(),
            at: plan.at,
        }
        .row(),
    )
    .await?;
    Minds::settle_in(&txn, employee_id, plan.repetitions, engine.now()).await?;
    txn.commit().await?;
    engine.core().minds.announce(&row);
    Ok(())
}
