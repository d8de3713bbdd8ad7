//! Loop protection (SPEC §10): an instruction that has taken its steps, or whose last
//! steps were all held back (the same line again, lines in someone else's name), is
//! stopped. The boss hears of it once, in the mailbox, naming who took the last step
//! and why; the chat gets a note (under the same trace, so nobody spends a thought on
//! it); a new word from the boss starts afresh.

use cubicle_store::entity::{chat, thought};
use cubicle_store::{DbErr, chat as cq, org as oq};

use super::Engine;
use crate::guard::{self, HeldBack, TraceStop};
use crate::mailbox::{MailKind, NewMail};
use crate::types::Language;

/// Whether the instruction `trace` must stop now, with the step that ended it.
pub(super) async fn trace_stop(
    engine: &Engine,
    trace: &str,
) -> Result<Option<(TraceStop, thought::Model)>, DbErr> {
    let held_back = HeldBack::REASONS;
    let mut steps =
        cubicle_store::trace::steps_of_trace(&engine.core().db, trace, &held_back).await?;
    let kinds: Vec<Option<HeldBack>> = steps
        .iter()
        .map(|t| {
            (!t.spoke)
                .then(|| t.silenced_by.and_then(HeldBack::of))
                .flatten()
        })
        .collect();
    let Some(stop) = guard::judge_trace(&kinds, engine.config().max_trace_steps) else {
        return Ok(None);
    };
    Ok(steps.pop().map(|last| (stop, last)))
}

/// Stops the instruction `trace` for `stop`: one mail to the boss naming the employee
/// of the `last` step, and a note in its chat (`here`, when the step has no chat).
pub(super) async fn guard_stop(
    engine: &Engine,
    trace: &str,
    stop: TraceStop,
    last: &thought::Model,
    here: &chat::Model,
) -> Result<(), DbErr> {
    let core = engine.core();
    let db = &core.db;
    let already = cubicle_store::trace::mail_of_trace(db, trace)
        .await?
        .iter()
        .any(|m| m.kind == MailKind::Escalation && m.task_id.is_none());
    if already {
        return Ok(());
    }
    let chat = match last.chat_id {
        Some(id) if id != here.id => cq::find_chat(db, id).await?.unwrap_or_else(|| here.clone()),
        _ => here.clone(),
    };
    let who = oq::find_employee(db, last.employee_id)
        .await?
        .map(|e| e.name)
        .unwrap_or_default();
    let instruction = cubicle_store::trace::find_trace(db, trace)
        .await?
        .map(|t| t.instruction)
        .unwrap_or_default();
    let lang = core.mailbox.language().await?;
    let words = Words {
        steps: engine.config().max_trace_steps,
        chat: &chat.name,
        who: &who,
        instruction: &instruction,
    };
    let (title, body, note) = match lang {
        Language::ZhCn => words.zh(stop),
        Language::En => words.en(stop),
    };
    core.mailbox
        .file(NewMail {
            kind: MailKind::Escalation,
            employee_id: Some(last.employee_id),
            chat_id: Some(chat.id),
            task_id: None,
            title,
            body,
            trace_id: Some(trace.to_owned()),
        })
        .await?;
    core.chats
        .post_system_traced(chat.id, &note, Some(trace.to_owned()))
        .await?;
    Ok(())
}

/// What the stop says: the mail's title and body, and the chat's note.
struct Words<'a> {
    steps: u32,
    chat: &'a str,
    who: &'a str,
    instruction: &'a str,
}

impl Words<'_> {
    fn en(&self, stop: TraceStop) -> (String, String, String) {
        let Words {
            steps,
            chat,
            who,
            instruction,
        } = *self;
        let run = guard::MAX_HELD_BACK_IN_A_ROW;
        let title = format!("Stopped: {instruction}");
        let again = "Reply in the chat or give a new instruction to carry on.";
        match stop {
            TraceStop::Steps => (
                title,
                format!(
                    "This instruction has taken {steps} steps (the last in \"{chat}\", by {who}) without finishing, so work on it has stopped rather than go round in circles. {again}"
                ),
                format!(
                    "This instruction has taken its {steps} steps: paused, and the boss has been told."
                ),
            ),
            TraceStop::HeldBack(why) => {
                let why = match why {
                    HeldBack::Repetition => "kept repeating what had just been said",
                    HeldBack::Identity => "kept speaking as someone else",
                };
                (
                    title,
                    format!(
                        "Work on this instruction has stopped: its last {run} attempts to speak were held back because they {why} (the last in \"{chat}\", by {who}). Each attempt still cost a model call, so it stopped rather than go round in circles. {again}"
                    ),
                    format!(
                        "Paused: the last {run} attempts to answer {why} and were held back; the boss has been told."
                    ),
                )
            }
        }
    }

    fn zh(&self, stop: TraceStop) -> (String, String, String) {
        let Words {
            steps,
            chat,
            who,
            instruction,
        } = *self;
        let run = guard::MAX_HELD_BACK_IN_A_ROW;
        let title = format!("已暂停：{instruction}");
        let again = "在聊天里回复或给出新指示即可继续。";
        match stop {
            TraceStop::Steps => (
                title,
                format!(
                    "这条指示已经走了 {steps} 步（最后一步在“{chat}”，{who}），还没有结束，工作已暂停以免空转。{again}"
                ),
                format!("这条指示已走满 {steps} 步，已暂停并告知老板。"),
            ),
            TraceStop::HeldBack(why) => {
                let why = match why {
                    HeldBack::Repetition => "一直在重复刚说过的话",
                    HeldBack::Identity => "一直在以别人的身份说话",
                };
                (
                    title,
                    format!(
                        "这条指示的工作已暂停：最近 {run} 次发言都被拦下，因为{why}（最后一次在“{chat}”，{who}）。每次尝试都花了一次模型调用，所以先停下，以免空转。{again}"
                    ),
                    format!("已暂停：最近 {run} 次发言{why}，都被拦下，已告知老板。"),
                )
            }
        }
    }
}
