//! What follows the end of a task (SPEC §6, §10; seed 002's reviewer). A plain task
//! resolved is reported (onResolve); one failed goes to the boss. In a requirement with
//! a reviewer, a resolved task's result is its deliverable: it goes to the reviewer as a
//! review task, which the reviewer resolves to pass it or fails with comments to send it
//! back. A rejection becomes a rework task for the author; the third rejection, a rework
//! that repeats the previous attempt (no progress), or a task redone too often goes to
//! the boss instead. Pass and reject feed the author's stamina.

use crate::work::TaskOrigin;
use cubicle_store::entity::{chat, employee, task};
use cubicle_store::{DbErr, work as wq};

use super::Engine;
use crate::guard::{self, Rerun};
use crate::mailbox::{MailKind, NewMail};
use crate::mind::stamina::StaminaEvent;
use crate::types::Language;
use crate::work::{NewTask, TaskStatus};

/// After `task` (owned by `me`) was resolved or failed in a thought in `chat`. Under a
/// pending thought's `key` the review or rework task it makes is made once however
/// often this runs again after a kill.
pub(super) async fn after_finish(
    engine: &Engine,
    me: &employee::Model,
    chat: &chat::Model,
    task: &task::Model,
    key: Option<&str>,
) -> Result<(), DbErr> {
    follow_up(engine, me, chat, task, key).await?;
    if task.status == TaskStatus::Resolved {
        engine.core().work.work_left_with_owner(task).await?;
    }
    match task.requirement_id {
        Some(r) => settle(engine, r, task.trace_id.as_deref()).await,
        None => Ok(()),
    }
}

/// Review, rework, report or escalation: what the end of one task calls for.
async fn follow_up(
    engine: &Engine,
    me: &employee::Model,
    chat: &chat::Model,
    task: &task::Model,
    key: Option<&str>,
) -> Result<(), DbErr> {
    let core = engine.core();
    let resolved = task.status == TaskStatus::Resolved;
    if let Some(reviewed) = task.review_of {
        // Reviewing is the reviewer's job done, whatever the verdict.
        core.minds
            .stamina_event(me.id, StaminaEvent::TaskResolved)
            .await?;
        return verdict(engine, me, task, reviewed, resolved, key).await;
    }
    let event = if resolved {
        StaminaEvent::TaskResolved
    } else {
        StaminaEvent::TaskFailed
    };
    core.minds.stamina_event(me.id, event).await?;
    if !resolved {
        return failed(engine, me, chat, task).await;
    }
    match reviewer_for(engine, task).await? {
        Some(reviewer) if reviewer != me.id => submit(engine, me, task, reviewer, key).await,
        _ => engine.owe_report(me.id, task.id).await,
    }
}

/// The reviewer of the requirement a task belongs to, if it has one.
async fn reviewer_for(engine: &Engine, task: &task::Model) -> Result<Option<i32>, DbErr> {
    // A plan is the owner's own call: the work it gives out is what gets reviewed.
    let Some(req) = task
        .requirement_id
        .filter(|_| task.created_by != TaskOrigin::Plan)
    else {
        return Ok(None);
    };
    Ok(wq::find_requirement(&engine.core().db, req)
        .await?
        .and_then(|r| r.reviewer_id))
}

/// A deliverable goes to review, unless it repeats the attempt before it.
async fn submit(
    engine: &Engine,
    me: &employee::Model,
    task: &task::Model,
    reviewer: i32,
    key: Option<&str>,
) -> Result<(), DbErr> {
    let core = engine.core();
    let result = task.result.as_deref().unwrap_or("");
    if task.attempt > 0
        && let Some(previous) = match task.parent_task_id {
            Some(id) => wq::find_task(&core.db, id).await?,
            None => None,
        }
        && guard::judge_attempt(previous.result.as_deref(), result) == Rerun::NoProgress
    {
        let lang = core.mailbox.language().await?;
        let what = root_description(engine, task).await?;
        return to_boss(
            engine,
            task,
            me.id,
            match lang {
                Language::ZhCn => format!("没有进展：{what}"),
                Language::En => format!("No progress: {what}"),
            },
            match lang {
                Language::ZhCn => format!(
                    "{}第 {} 次提交的结果和上一次几乎一样，已停止重做，等你决定。结果：{result}",
                    me.name,
                    task.attempt + 1
                ),
                Language::En => format!(
                    "{}'s attempt {} repeats the previous one almost word for word, so the retry has stopped and waits for you. Result: {result}",
                    me.name,
                    task.attempt + 1
                ),
            },
        )
        .await;
    }
    let what = root_description(engine, task).await?;
    // In the company's language: the board shows it, and a Chinese team reads it.
    let description = core.mailbox.language().await?.pick(
        format!(
            "Review {}'s work on \"{what}\": {result} — resolve this task to pass it, or fail it with your comments to send it back.",
            me.name
        ),
        format!(
            "评审{}在“{what}”上的工作：{result} —— 通过就 resolve 这项任务，不通过就 fail 并写上意见，退回重做。",
            me.name
        ),
    );
    core.work
        .create(NewTask {
            trace_id: task.trace_id.clone(),
            requirement_id: task.requirement_id,
            review_of: Some(task.id),
            effect_key: key.map(|k| format!("{k}:task")),
            ..NewTask::new(reviewer, &description, TaskOrigin::Review)
        })
        .await?;
    Ok(())
}

/// The reviewer passed (`passed`) or rejected the work of task `reviewed`.
async fn verdict(
    engine: &Engine,
    reviewer: &employee::Model,
    review: &task::Model,
    reviewed: i32,
    passed: bool,
    key: Option<&str>,
) -> Result<(), DbErr> {
    let core = engine.core();
    let Some(work) = wq::find_task(&core.db, reviewed).await? else {
        return Ok(());
    };
    let author = work.owner_id;
    if passed {
        // A colleague looked and passed it: a deliverable the check flagged is done now
        // (the requirement settles after this, and the report says "Done"). A rejection
        // leaves the flag as it is.
        core.work.clear_needs_review(work.id).await?;
        core.minds
            .stamina_event(author, StaminaEvent::ReviewPassed)
            .await?;
        return engine.owe_report(author, work.id).await;
    }
    // This work's rejections so far, this one included: one per attempt.
    let nth = u32::try_from(work.attempt).unwrap_or(0) + 1;
    core.minds
        .stamina_event(author, StaminaEvent::ReviewRejected { nth })
        .await?;
    let comments = match review.result.clone() {
        Some(c) => c,
        None => core
            .mailbox
            .language()
            .await?
            .pick("(no comments)", "（没有意见）"),
    };
    let what = root_description(engine, &work).await?;
    if nth >= 3 || !guard::may_rerun(work.attempt) {
        let lang = core.mailbox.language().await?;
        return to_boss(
            engine,
            &work,
            author,
            match lang {
                Language::ZhCn => format!("第 {nth} 次被驳回：{what}"),
                Language::En => format!("Rejected {nth} times: {what}"),
            },
            match lang {
                Language::ZhCn => format!(
                    "{}再次驳回了这项工作，需要你来决定。意见：{comments}",
                    reviewer.name
                ),
                Language::En => format!(
                    "{} rejected this work again; it needs your decision. Comments: {comments}",
                    reviewer.name
                ),
            },
        )
        .await;
    }
    let description = core.mailbox.language().await?.pick(
        format!(
            "Rework \"{what}\" (attempt {}): {} sent it back — {comments}",
            work.attempt + 2,
            reviewer.name
        ),
        format!(
            "返工“{what}”（第 {} 次）：{}退回了它 —— {comments}",
            work.attempt + 2,
            reviewer.name
        ),
    );
    core.work
        .create(NewTask {
            trace_id: work.trace_id.clone(),
            requirement_id: work.requirement_id,
            parent_task_id: Some(work.id),
            attempt: work.attempt + 1,
            on_resolve_target: work.on_resolve_target.clone(),
            effect_key: key.map(|k| format!("{k}:task")),
            ..NewTask::new(author, &description, TaskOrigin::Review)
        })
        .await?;
    Ok(())
}

/// A failed task needs the boss: straight to the mailbox.
async fn failed(
    engine: &Engine,
    me: &employee::Model,
    chat: &chat::Model,
    task: &task::Model,
) -> Result<(), DbErr> {
    let mailbox = &engine.core().mailbox;
    engine.core().work.escalate(task.id).await?;
    mailbox
        .file(NewMail {
            kind: MailKind::Escalation,
            employee_id: Some(me.id),
            chat_id: Some(chat.id),
            task_id: Some(task.id),
            title: mailbox.language().await?.pick(
                format!("Could not finish: {}", task.description),
                format!("未能完成：{}", task.description),
            ),
            body: match task.result.clone() {
                Some(result) => result,
                None => mailbox.language().await?.pick(
                    format!("{} gave up on the task without saying why.", me.name),
                    format!("{}放弃了这项任务，没有说明原因。", me.name),
                ),
            },
            trace_id: task.trace_id.clone(),
        })
        .await?;
    Ok(())
}

async fn to_boss(
    engine: &Engine,
    task: &task::Model,
    employee_id: i32,
    title: String,
    body: String,
) -> Result<(), DbErr> {
    engine.core().work.escalate(task.id).await?;
    engine
        .core()
        .mailbox
        .file(NewMail {
            kind: MailKind::Escalation,
            employee_id: Some(employee_id),
            chat_id: None,
            task_id: Some(task.id),
            title,
            body,
            trace_id: task.trace_id.clone(),
        })
        .await?;
    Ok(())
}

/// The description of the first attempt, for titles that don't nest "Rework …".
pub(super) async fn root_description(engine: &Engine, task: &task::Model) -> Result<String, DbErr> {
    let mut t = task.clone();
    // Bounded: attempts are capped, and a broken chain must not loop.
    for _ in 0..=guard::MAX_RERUNS {
        match t.parent_task_id {
            Some(id) if t.attempt > 0 => match wq::find_task(&engine.core().db, id).await? {
                Some(parent) => t = parent,
                None => break,
            },
            _ => break,
        }
    }
    Ok(t.description)
}

/// After a task of requirement `id` ended: the requirement moves on, and when this was
/// the last of its work the boss hears that it is done (mailbox) and its group sees it.
async fn settle(engine: &Engine, id: i32, trace: Option<&str>) -> Result<(), DbErr> {
    let core = engine.core();
    let Some(done) = core.work.settle_requirement(id).await? else {
        return Ok(());
    };
    let lang = core.mailbox.language().await?;
    let names = crate::chat::Names::load(&core.db).await?;
    let reviewed = match done.reviewer_id {
        Some(r) if done.reviews_passed > 0 => {
            let who = names.person(r);
            match lang {
                Language::ZhCn => format!("{who}评审通过了 {} 项。", done.reviews_passed),
                Language::En => format!("{who} passed {} review(s).", done.reviews_passed),
            }
        }
        _ => String::new(),
    };
    let lines: Vec<String> = done
        .deliverables
        .iter()
        .map(|(what, result)| match result {
            Some(r) => format!("- {what}: {r}"),
            None => format!("- {what}"),
        })
        .collect();
    let (title, note) = match lang {
        Language::ZhCn => (
            format!("需求完成：{}", done.name),
            format!(
                "需求“{}”已完成：{} 项工作全部结束。{reviewed}",
                done.name,
                lines.len()
            ),
        ),
        Language::En => (
            format!("Requirement done: {}", done.name),
            format!(
                "The requirement \"{}\" is done: all {} piece(s) of work finished. {reviewed}",
                done.name,
                lines.len()
            ),
        ),
    };
    core.mailbox
        .file(NewMail {
            kind: MailKind::Report,
            employee_id: done.owner_id,
            chat_id: done.chat_id,
            task_id: None,
            title,
            body: format!("{}\n{}", note.trim_end(), lines.join("\n")),
            trace_id: trace.map(str::to_owned),
        })
        .await?;
    if let Some(chat) = done.chat_id {
        core.chats.post_system(chat, note.trim_end()).await?;
    }
    Ok(())
}
