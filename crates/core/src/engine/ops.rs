//! What a thought does besides speaking: its memory, relationship and task ops (applied
//! whether or not it speaks), the rolling chat summary, and the mailbox copy of a
//! report.

use crate::work::TaskOrigin;
use std::collections::HashMap;

use cubicle_store::entity::{chat, employee};
use cubicle_store::{DbErr, mind as mq};
use serde_json::json;

use super::Engine;
use super::plan::{self, MemoryPlan, TaskPlan, find_by_name};
use crate::chat::ChatKind;
use crate::mailbox::{MailKind, NewMail};
use crate::mind::memory_rules::{self, MemoryKind, Visibility};
use crate::mind::minds::NewMemory;
use crate::mind::thought::Thought;
use crate::types::Language;
use crate::work::{NewTask, TaskKind, check, deliverables, urgency};

/// Where a thought happened: its chat, the requirement that chat belongs to, the newest
/// message it saw and the boss instruction it works under.
pub(super) struct Scope<'a> {
    pub chat: &'a chat::Model,
    pub requirement: Option<i32>,
    pub latest_seen: Option<i32>,
    pub trace: Option<&'a str>,
    /// The instruction each tool call and new task serves, where not `trace`.
    pub serves: &'a super::think::Serves,
    /// Whether a tool that ran (or was refused) wakes the employee to see the result;
    /// false in the thought that looks at results, so a model that keeps calling can't
    /// keep itself awake.
    pub follow_up: bool,
    /// The pending thought's key prefix (`pt<id>:`): every effect is written under
    /// `<prefix><what>:<n>`, once however often the thought is replayed (SPEC §10).
    pub key: &'a str,
}

/// Applies the thought's memory, relationship and task ops and its chat summary; returns
/// what was applied, for the thought record. Safe to run again for the same pending
/// thought: what is keyed is skipped when its key is there (`{"already": key}` in the
/// record), a memory repeats nothing (duplicates are refused), and deleting or
/// summarising again changes nothing.
pub(super) async fn apply_ops(
    engine: &Engine,
    me: &employee::Model,
    scope: &Scope<'_>,
    t: &Thought,
    staff: &HashMap<i32, employee::Model>,
) -> Result<serde_json::Value, DbErr> {
    let key = scope.key;
    let plan = plan::plan(t, me.id, staff);
    let cx = Cx {
        engine,
        me,
        scope,
        staff,
        now: engine.now(),
    };
    let mut applied = Vec::new();
    for (i, op) in plan.memory.into_iter().enumerate() {
        applied.extend(cx.memory(op, format!("{key}mem:{i}")).await?);
    }
    for (j, op) in plan.relationships.into_iter().enumerate() {
        applied.push(cx.relationship(op, format!("{key}rel:{j}")).await?);
    }
    for (k, op) in plan.tasks.into_iter().enumerate() {
        let task_key = format!("{key}task:{k}");
        match op {
            TaskPlan::Create {
                description,
                kind,
                condition,
                report_to,
                assignee,
            } => {
                let own = OwnTask {
                    description,
                    kind,
                    condition,
                    report_to,
                    assignee,
                };
                let trace = scope.serves.task(k).or(scope.trace);
                applied.push(cx.create_task(own, task_key, trace).await?);
            }
            TaskPlan::Finish {
                id,
                resolved,
                result,
            } => applied.extend(cx.finish_task(id, resolved, result, task_key).await?),
        }
    }
    // Tools go through the approval policy, whatever the thought claims: a thought has
    // no way to approve anything (SPEC §8, fail closed).
    for (l, request) in plan.tool_calls.into_iter().enumerate() {
        let tool_key = format!("{key}tool:{l}");
        let trace = scope.serves.tool(l).or(scope.trace);
        applied.push(request_tool(engine, me, scope, trace, request, tool_key).await?);
    }
    if let (Some(summary), Some(upto)) = (plan.summary, scope.latest_seen) {
        mq::upsert_chat_summary(&engine.core().db, scope.chat.id, &summary, upto, cx.now).await?;
    }
    Ok(json!(applied))
}

/// One thought's ops being applied: who, where, and when.
struct Cx<'a> {
    engine: &'a Engine,
    me: &'a employee::Model,
    scope: &'a Scope<'a>,
    staff: &'a HashMap<i32, employee::Model>,
    now: chrono::DateTime<chrono::Utc>,
}

/// A task the thought makes: its own, or (by a requirement's owner) a colleague's.
struct OwnTask {
    description: String,
    kind: TaskKind,
    condition: Option<String>,
    report_to: Option<String>,
    assignee: Option<i32>,
}

impl Cx<'_> {
    /// One memory op; what was applied, if anything.
    async fn memory(
        &self,
        op: MemoryPlan,
        tool_key: String,
    ) -> Result<Option<serde_json::Value>, DbErr> {
        match op {
            MemoryPlan::Add {
                kind,
                content,
                importance,
                ttl_hours,
                visibility,
            } => {
                let memory = NewMemory {
                    kind,
                    content,
                    importance: Some(importance),
                    ttl_hours,
                    visibility,
                    requirement_id: self.scope.requirement,
                    source_chat_id: Some(self.scope.chat.id),
                };
                self.add_memory(memory, tool_key).await
            }
            MemoryPlan::Delete { id } => self.forget_memory(id, tool_key).await,
        }
    }

    /// A private memory is written at once (a short-term one scheduled to expire); one the
    /// team would see is asked for instead.
    async fn add_memory(
        &self,
        memory: NewMemory,
        tool_key: String,
    ) -> Result<Option<serde_json::Value>, DbErr> {
        let Cx {
            engine, me, scope, ..
        } = *self;
        // Changing what the team remembers is a key step (SPEC §8): it goes
        // through the approval policy like a tool, and is only written once allowed.
        if memory.visibility != Visibility::Private {
            let call = crate::tools::ToolCall::new(
                crate::tools::key_steps::CHANGE_TEAM_MEMORY,
                json!({
                    "action": "add",
                    "content": memory.content,
                    "importance": memory.importance,
                    "visibility": memory.visibility,
                    "requirementId": memory.requirement_id,
                }),
                "share a memory",
            );
            return Ok(Some(
                request_tool(engine, me, scope, scope.trace, call, tool_key).await?,
            ));
        }
        let (kind, ttl_hours) = (memory.kind, memory.ttl_hours);
        let added = engine
            .core()
            .minds
            .remember(me.id, me.department_id, memory)
            .await?;
        let Some(id) = added else {
            return Ok(None);
        };
        if kind == MemoryKind::ShortTerm {
            let at = memory_rules::short_term_expires_at(self.now, ttl_hours);
            engine.schedule_expiry(me.id, at);
        }
        Ok(Some(json!({"memory": "add", "id": id, "kind": kind})))
    }

    /// Forgets a private memory; forgetting one the team shares is asked for instead.
    async fn forget_memory(
        &self,
        id: i32,
        tool_key: String,
    ) -> Result<Option<serde_json::Value>, DbErr> {
        let Cx {
            engine, me, scope, ..
        } = *self;
        let core = engine.core();
        let shared = mq::find_memory(&core.db, id)
            .await?
            .is_some_and(|m| m.employee_id == me.id && m.visibility != Visibility::Private);
        if shared {
            let call = crate::tools::ToolCall::new(
                crate::tools::key_steps::CHANGE_TEAM_MEMORY,
                json!({"action": "delete", "memoryId": id}),
                "forget a shared memory",
            );
            return Ok(Some(
                request_tool(engine, me, scope, scope.trace, call, tool_key).await?,
            ));
        }
        Ok(core
            .minds
            .forget(me.id, id)
            .await?
            .then(|| json!({"memory": "delete", "id": id})))
    }

    /// One relationship op.
    async fn relationship(
        &self,
        op: plan::RelationshipPlan,
        rel_key: String,
    ) -> Result<serde_json::Value, DbErr> {
        let affinity = self
            .engine
            .core()
            .minds
            .relate_keyed(
                self.me.id,
                op.other,
                op.impression.as_deref(),
                op.affinity,
                &rel_key,
            )
            .await?;
        Ok(match affinity {
            Some(affinity) => json!({"relationship": op.other, "affinity": affinity}),
            None => json!({"already": rel_key}),
        })
    }

    /// Makes a task the thought asked for, in the trace of the instruction it serves.
    async fn create_task(
        &self,
        own: OwnTask,
        task_key: String,
        trace: Option<&str>,
    ) -> Result<serde_json::Value, DbErr> {
        let Cx {
            engine,
            me,
            scope,
            staff,
            now,
        } = *self;
        let (core, chat, chat_requirement) = (engine.core(), scope.chat, scope.requirement);
        let OwnTask {
            description,
            kind,
            condition,
            report_to,
            assignee,
        } = own;
        // A task made while working on an instruction belongs to it, and to the
        // requirement whose chat it was made in.
        let report_to = match report_to.as_deref() {
            Some(to) => report_target(engine, me, chat, staff, to).await?,
            None => None,
        };
        // The requirement's owner gives out its work; anyone else's task is theirs.
        let given = match (assignee, chat_requirement) {
            (Some(a), Some(r)) if owns(engine, me.id, r).await? => Some(a),
            _ => None,
        };
        let task = core
            .work
            .create(NewTask {
                trace_id: trace.map(str::to_owned),
                requirement_id: chat_requirement,
                kind,
                condition,
                on_resolve_target: report_to,
                effect_key: Some(task_key),
                ..NewTask::new(
                    given.unwrap_or(me.id),
                    &description,
                    if given.is_some() {
                        TaskOrigin::Owner
                    } else {
                        TaskOrigin::Own
                    },
                )
            })
            .await?;
        // A colleague hears of a task given to them like of one from the boss.
        if given.is_none() {
            engine.know_task(task.id);
            if kind == TaskKind::Oneshot
                && let Some(at) = urgency::next_escalation(now, now)
            {
                engine.schedule_escalation(me.id, task.id, at);
            }
        }
        Ok(json!({"task": "create", "id": task.id, "owner": task.owner_id}))
    }

    /// Resolves or fails a task, then what follows it (review, report) — each once.
    async fn finish_task(
        &self,
        id: i32,
        resolved: bool,
        result: Option<String>,
        task_key: String,
    ) -> Result<Vec<serde_json::Value>, DbErr> {
        let Cx {
            engine,
            me,
            scope,
            now,
            ..
        } = *self;
        let (core, chat) = (engine.core(), scope.chat);
        let mut out = Vec::new();
        let op_name = if resolved { "resolve" } else { "fail" };
        let after_key = format!("{task_key}:after");
        let task = match cubicle_store::effect::applied(&core.db, &task_key).await? {
            // Finished by an earlier run of this thought: only what follows
            // (review, report) may be missing.
            Some(_) => {
                out.push(json!({"already": task_key}));
                match cubicle_store::effect::applied(&core.db, &after_key).await? {
                    Some(_) => None,
                    None => cubicle_store::work::find_task(&core.db, id).await?,
                }
            }
            None => {
                let needs_review = if resolved {
                    self.judge_deliverable(id, result.as_deref()).await?
                } else {
                    None
                };
                let task = core
                    .work
                    .finish_keyed(
                        me.id,
                        id,
                        resolved,
                        result.as_deref(),
                        needs_review,
                        &task_key,
                    )
                    .await?;
                if task.is_some() {
                    out.push(json!({"task": op_name, "id": id}));
                }
                task
            }
        };
        if let Some(task) = task {
            engine.cancel_escalation(me.id, id);
            super::review::after_finish(engine, me, chat, &task, Some(&after_key)).await?;
            cubicle_store::effect::claim(&core.db, &after_key, now).await?;
        }
        Ok(out)
    }
}

impl Cx<'_> {
    /// Whether the deliverable of task `id` (its saved document, else the result the
    /// thought gives) addresses the task, on every model; why not, if it does not.
    /// Plans and reviews are the engine's own bookkeeping and are not judged.
    async fn judge_deliverable(
        &self,
        id: i32,
        result: Option<&str>,
    ) -> Result<Option<crate::work::ReviewReason>, DbErr> {
        let core = self.engine.core();
        let Some(task) = cubicle_store::work::find_task(&core.db, id)
            .await?
            .filter(|t| t.owner_id == self.me.id)
            .filter(|t| t.review_of.is_none() && t.created_by != TaskOrigin::Plan)
        else {
            return Ok(None);
        };
        let saved = match deliverables::find(core.approvals.runtime(), self.me.id, id).await {
            Ok(found) => found.map(|f| String::from_utf8_lossy(&f.bytes).into_owned()),
            Err(e) => {
                tracing::warn!(task = id, error = %e, "the deliverable could not be read");
                None
            }
        };
        let text = saved
            .or_else(|| result.map(str::to_owned))
            .unwrap_or_default();
        // What colleagues wrote where the author was, while on the task (the boss's own
        // words may well be the answer: "the build passed").
        let mut said = Vec::new();
        for chat in cubicle_store::chat::chats_of_employee(&core.db, self.me.id).await? {
            for m in cubicle_store::chat::last_messages(&core.db, chat.id, COPY_CONTEXT).await? {
                if m.created_at >= task.created_at
                    && m.sender_kind == crate::chat::SenderKind::Employee
                    && m.sender_employee_id != Some(self.me.id)
                {
                    said.push(m.text);
                }
            }
        }
        let said: Vec<&str> = said.iter().map(String::as_str).collect();
        let mut names: Vec<&str> = self.staff.values().map(|e| e.name.as_str()).collect();
        let company = cubicle_store::org::find_company(&core.db).await?;
        if let Some(c) = &company {
            names.push(&c.boss_name);
        }
        let lang = company.as_ref().map_or(Language::En, |c| c.language);
        let verdict = check::judge(&task.description, &text, &said, &names, lang);
        if let Some(why) = verdict {
            tracing::info!(task = id, why = %why, "the deliverable needs the boss's review");
        }
        Ok(verdict)
    }
}

/// Messages of each chat a deliverable is compared with, newest first.
const COPY_CONTEXT: u64 = 40;

/// Asks the approvals service to run `call` for `me` under the company's policy and
/// says what happened, for the thought record; the call, its approval and its outcome
/// are recorded in `trace`, the instruction it serves. What ran or was refused wakes
/// the employee to see it (unless this thought is already the one that looks).
async fn request_tool(
    engine: &Engine,
    me: &employee::Model,
    scope: &Scope<'_>,
    trace: Option<&str>,
    call: crate::tools::ToolCall,
    key: String,
) -> Result<serde_json::Value, DbErr> {
    // Asked before this thought was interrupted: filed, run or refused then, never twice.
    if cubicle_store::effect::applied(&engine.core().db, &key)
        .await?
        .is_some()
    {
        return Ok(json!({"already": key}));
    }
    let call = call.keyed(key);
    let tool = call.tool.clone();
    let wake = || {
        if scope.follow_up {
            engine.see_tool_result(me.id, scope.chat.id);
        }
    };
    Ok(
        match engine
            .core()
            .approvals
            .request(me.id, call, trace, Some(scope.chat.id))
            .await
        {
            Ok(crate::approvals::CallOutcome::Done(_)) => {
                wake();
                json!({"tool": tool, "outcome": "done"})
            }
            Ok(crate::approvals::CallOutcome::Waiting(id)) => {
                json!({"tool": tool, "outcome": crate::approvals::ApprovalStatus::Waiting, "approval": id})
            }
            Ok(crate::approvals::CallOutcome::Refused(why)) => {
                // Told at once, so it can say it can't rather than wait for nothing.
                wake();
                json!({"tool": tool, "outcome": "refused", "why": why})
            }
            Err(e) => {
                // A bad call (unknown tool, wrong arguments) is the model's mistake: logged
                // and shown to it next time, never a reason to stop.
                tracing::info!(employee = me.id, tool = %tool, error = %e, "tool call failed");
                json!({"tool": tool, "outcome": "error"})
            }
        },
    )
}

/// The copy of a report in the boss's mailbox: what the employee posted, in its own
/// voice; when the gates or its own judgement kept it silent, the task's result. Filed
/// once under the pending thought's `key`.
pub(super) async fn file_report(
    engine: &Engine,
    me: &employee::Model,
    chat: &chat::Model,
    task: &cubicle_store::entity::task::Model,
    said: &[String],
    key: &str,
) -> Result<(), DbErr> {
    let lang = engine.core().mailbox.language().await?;
    let result = task.result.as_deref().unwrap_or(match lang {
        Language::ZhCn => "（未给出）",
        Language::En => "(none given)",
    });
    let mut body = match (said.is_empty(), lang) {
        (false, _) => said.join("\n\n"),
        (true, Language::ZhCn) => format!("{}完成了任务，但没有写汇报。结果：{result}", me.name),
        (true, Language::En) => format!(
            "{} resolved the task but wrote no report. Result: {result}",
            me.name
        ),
    };
    // A rework is reported under the name of the work it finally got done.
    let what = super::review::root_description(engine, task).await?;
    // A deliverable that does not address its task is not reported as done.
    let title = match task.needs_review {
        Some(why) => {
            let line = check::needs_review_line(why, lang);
            if !body.contains(&line) {
                body = format!("{line}\n\n{body}");
            }
            lang.pick(format!("Needs review: {what}"), format!("待审阅：{what}"))
        }
        None => lang.pick(format!("Done: {what}"), format!("完成：{what}")),
    };
    engine
        .core()
        .mailbox
        .file_keyed(
            NewMail {
                kind: MailKind::Report,
                employee_id: Some(me.id),
                chat_id: Some(chat.id),
                task_id: Some(task.id),
                title,
                body,
                trace_id: task.trace_id.clone(),
            },
            key,
        )
        .await?;
    Ok(())
}

/// Where a task made in a thought reports when done (`reportTo`): one of the
/// employee's group chats by name (`#name`), or a colleague's DM (opened now); `None`
/// (the boss chat) when it names neither.
async fn report_target(
    engine: &Engine,
    me: &employee::Model,
    here: &chat::Model,
    staff: &HashMap<i32, employee::Model>,
    to: &str,
) -> Result<Option<String>, DbErr> {
    let core = engine.core();
    let bare = to.trim().trim_start_matches('#').trim().to_lowercase();
    if bare.is_empty() || matches!(bare.as_str(), "boss" | "老板") {
        return Ok(None);
    }
    if !to.trim().starts_with('#')
        && let Some(other) = find_by_name(staff, &bare).filter(|id| *id != me.id)
    {
        let mode = crate::chat::gates::mode_for_dm_from(Some(here.kind));
        return Ok(match core.chats.dm_from(me.id, other, mode).await {
            Ok(dm) => Some(format!("chat:{}", dm.id)),
            Err(e) => {
                tracing::info!(error = %e, "a report DM could not be opened");
                None
            }
        });
    }
    Ok(cubicle_store::chat::chats_of_employee(&core.db, me.id)
        .await?
        .into_iter()
        .find(|c| c.name.to_lowercase() == bare && !matches!(c.kind, ChatKind::Dm | ChatKind::Boss))
        .map(|c| format!("chat:{}", c.id)))
}

/// Whether `employee_id` owns requirement `id`.
async fn owns(engine: &Engine, employee_id: i32, id: i32) -> Result<bool, DbErr> {
    Ok(cubicle_store::work::find_requirement(&engine.core().db, id)
        .await?
        .is_some_and(|r| r.owner_id == Some(employee_id)))
}
