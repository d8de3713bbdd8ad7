//! A wake-up of an employee whose model is small (SPEC §13): the engine picks the next
//! step of the work from what it knows, and the model writes only that step's text.
//!
//! The steps of a task are those of seed 000's story: ask each colleague the task names,
//! wait for their answers, write the deliverable (saved as a file in the employee's
//! folder) and resolve the task, then report it with a link to the file. Around the
//! work, a colleague's question is answered, a group conversation gets a word when the
//! model chooses to add one, and an instruction from the boss becomes a task when the
//! model reads it as work. Everything a step decides goes through the same plan as a
//! full thought — gates, identity check, crash-safe effects, onResolve — so a small
//! model cannot post more, or anything else, than a large one could.

use crate::work::TaskOrigin;
use std::collections::HashMap;
use std::time::{Duration, Instant};

use chrono::TimeDelta;
use cubicle_llm::{CompletionRequest, FinishReason, ModelProfile, TextShape};
use cubicle_store::entity::{approval, chat, chat_message, employee, task};
use cubicle_store::enums::ApprovalStatus;
use cubicle_store::{DbErr, approval as aq, chat as cq, org as oq};

use super::pending::{self, Plan};
use super::think::{Outgoing, Target, ThinkOutcome, plan_posts};
use super::{Engine, Focus};
use crate::chat::polling::Mood;
use crate::chat::{ChatKind, SenderKind};
use crate::gateway::{CallContext, GatewayError, Purpose, Route};
use crate::mind::clean_chat_message;
use crate::mind::guided::{self, Choice, Writer};
use crate::mind::thought::{OutMessage, TaskOp, TaskVerb, Thought, approx_tokens};
use crate::org::{CompanyDto, EmployeeDto};
use crate::org::{company_dto, employee_dto};
use crate::types::Language;
use crate::work::{check, deliverables};

/// The perspective-seed field of a step's thought record: steps have none.
const SEED: &str = "guided";
/// A colleague who has not answered by the time the task is overdue is not waited for.
const WAIT_FOR_ANSWERS: TimeDelta = TimeDelta::minutes(15);
/// Chat lines a reply step sees.
const REPLY_CONTEXT: usize = 6;
/// Tries at a step whose text comes back unusable (empty, or speaking as someone else).
const TRIES: u32 = 2;

/// What the wake-up is about, gathered by [`super::think`].
pub(super) struct Wakeup {
    pub me: employee::Model,
    pub chat: chat::Model,
    pub recent: Vec<chat_message::Model>,
    pub unread: Vec<i32>,
    pub tasks: Vec<task::Model>,
    pub reporting: Option<task::Model>,
    pub trace: Option<String>,
    pub latest_seen: Option<i32>,
    pub route: Route,
    /// What the route's model can handle: every step's answer is sized to its output budget.
    pub profile: ModelProfile,
    pub focus: Focus,
}

/// The next step of the work.
enum Step {
    /// Report a resolved task in this chat.
    Report(Box<task::Model>),
    /// Plan a requirement this employee owns, in its group: the work goes to the
    /// colleague whose skills fit it best (or to the owner, alone in the department).
    Plan(Box<task::Model>, Box<Assignment>),
    /// Ask a colleague the task names for their input.
    Ask(Box<task::Model>, Box<employee::Model>),
    /// Write the task's deliverable with what colleagues said, and resolve it.
    Deliver(Box<task::Model>, Vec<(String, String)>),
    /// An action asked for while on the task was decided and carried out (or refused):
    /// the task ends with its outcome, no model needed.
    Outcome(Box<task::Model>, Box<approval::Model>),
    /// Answer what is new in this chat.
    Reply,
    /// A group conversation: the model chooses whether to add a word.
    MaybeReply,
    /// The boss wrote in the private chat: work to take on, or something to answer.
    TaskOrReply,
}

/// One piece of a requirement's plan: who does what.
struct Assignment {
    requirement: String,
    /// `None`: the owner does it.
    to: Option<employee::Model>,
    task: String,
}

/// What a step came to, before it is planned and written.
#[derive(Default)]
struct Draft {
    /// The engine's note on the step (shown to the boss as the thought).
    note: String,
    messages: Vec<Outgoing>,
    task_ops: Vec<TaskOp>,
    /// The step read what is new in this chat.
    consumed: bool,
    report_task: Option<i32>,
}

/// Model calls made so far in this wake-up.
#[derive(Default)]
struct Spent {
    calls: u32,
    time: Duration,
    prompt_tokens: usize,
}

/// Who and what a wake-up's steps need.
struct Ctx<'a> {
    engine: &'a Engine,
    w: &'a Wakeup,
    me: EmployeeDto,
    company: CompanyDto,
    staff: HashMap<i32, employee::Model>,
    /// The company's people, for lines they or their proxies wrote.
    people: HashMap<i32, String>,
}

impl Ctx<'_> {
    fn writer(&self) -> Writer<'_> {
        Writer {
            me: &self.me,
            company: &self.company,
            output_budget: self.w.profile.output_budget,
        }
    }

    /// The app's own words for a step, in the company's language.
    fn pick(&self, en: &str, zh: &str) -> String {
        self.company.language.pick(en, zh)
    }

    fn name_of(&self, m: &chat_message::Model) -> String {
        super::think::sender_name(m, &self.company.boss_name, &self.staff, &self.people)
    }

    fn unread(&self) -> Vec<&chat_message::Model> {
        self.w
            .recent
            .iter()
            .filter(|m| self.w.unread.contains(&m.id))
            .collect()
    }
}

pub(super) async fn think(engine: &Engine, w: Wakeup) -> Result<ThinkOutcome, DbErr> {
    let db = &engine.core().db;
    let Some(company) = oq::find_company(db).await? else {
        return Ok(ThinkOutcome::Idle);
    };
    let staff: HashMap<i32, employee::Model> = oq::list_employees(db, company.id, true)
        .await?
        .into_iter()
        .map(|e| (e.id, e))
        .collect();
    let people = super::think::people_names(db, company.id).await?;
    let cx = Ctx {
        engine,
        me: employee_dto(&w.me),
        company: company_dto(&company),
        staff,
        people,
        w: &w,
    };
    let Some(step) = next_step(&cx).await? else {
        return Ok(ThinkOutcome::Idle);
    };
    let mut spent = Spent::default();
    match run(&cx, step, &mut spent).await {
        Ok(draft) => commit(&cx, draft, spent).await,
        Err(failure) => {
            let dropped = super::think::Dropped {
                employee_id: w.me.id,
                chat_id: w.chat.id,
                failure: Some(failure),
                seed: SEED,
                prompt_tokens: spent.prompt_tokens,
                trace: w.trace.clone(),
                calls: spent.calls,
                model_time: spent.time,
            };
            super::think::drop_thought(engine, dropped).await
        }
    }
}

fn is_private(chat: &chat::Model) -> bool {
    matches!(chat.kind, ChatKind::Dm | ChatKind::Boss)
}

async fn next_step(cx: &Ctx<'_>) -> Result<Option<Step>, DbErr> {
    let w = cx.w;
    if let Some(t) = &w.reporting {
        return Ok(Some(Step::Report(Box::new(t.clone()))));
    }
    let actions = task_actions(cx).await?;
    if let Some((task, action)) = actions.decided {
        return Ok(Some(Step::Outcome(Box::new(task), Box::new(action))));
    }
    if w.focus == Focus::ToolResult {
        return Ok(None);
    }
    let oldest = w
        .tasks
        .iter()
        .filter(|t| t.kind == crate::work::TaskKind::Oneshot)
        // A task whose action waits for the boss is not worked on meanwhile.
        .filter(|t| !actions.waiting.contains(&t.id))
        .min_by_key(|t| (t.created_at, t.id));
    let planning = oldest.filter(|t| t.created_by == TaskOrigin::Plan);
    if let Some(task) = planning {
        // Planned in the requirement's group only; elsewhere, what is new comes first.
        if let Some(a) = assignment(cx, task).await? {
            return Ok(Some(Step::Plan(Box::new(task.clone()), Box::new(a))));
        }
    }
    if let Some(task) = oldest.filter(|_| planning.is_none()) {
        match consult(cx, task).await? {
            Consult::Ask(colleague) => {
                return Ok(Some(Step::Ask(Box::new(task.clone()), colleague)));
            }
            Consult::Ready(inputs) => {
                return Ok(Some(Step::Deliver(Box::new(task.clone()), inputs)));
            }
            Consult::Waiting => {}
        }
    }
    let unread = cx.unread();
    let Some(newest) = unread.last() else {
        return Ok(None);
    };
    Ok(Some(match w.chat.kind {
        ChatKind::Boss if newest.sender_kind == SenderKind::Boss => Step::TaskOrReply,
        ChatKind::Boss | ChatKind::Dm => Step::Reply,
        _ if unread.iter().any(|m| addresses(m, &w.me)) => Step::Reply,
        _ => Step::MaybeReply,
    }))
}

/// How many of an employee's newest approvals are looked at for a task's outcome.
const APPROVALS_LOOKED_AT: u64 = 20;

/// The actions asked for while on this employee's pending tasks (in a task's trace,
/// after it was made).
struct TaskActions {
    /// The oldest task whose action has an outcome (run, done or failed; or rejected,
    /// or expired), with the newest such action.
    decided: Option<(task::Model, approval::Model)>,
    /// Tasks whose action still waits for the boss (or to run).
    waiting: Vec<i32>,
}

async fn task_actions(cx: &Ctx<'_>) -> Result<TaskActions, DbErr> {
    let db = &cx.engine.core().db;
    let actions = aq::list_approvals(db, &[], Some(cx.w.me.id), APPROVALS_LOOKED_AT).await?;
    let ended = |a: &approval::Model| match a.status {
        ApprovalStatus::Approved => a.executed_at.is_some(),
        ApprovalStatus::Waiting => false,
        _ => true,
    };
    let on = |a: &approval::Model, t: &task::Model| {
        a.created_at >= t.created_at && t.trace_id.is_some() && a.trace_id == t.trace_id
    };
    let mut tasks: Vec<&task::Model> =
        cx.w.tasks
            .iter()
            .filter(|t| t.status == crate::work::TaskStatus::Pending)
            .filter(|t| t.kind == crate::work::TaskKind::Oneshot)
            .collect();
    tasks.sort_by_key(|t| (t.created_at, t.id));
    let mut out = TaskActions {
        decided: None,
        waiting: vec![],
    };
    for t in tasks {
        let mine: Vec<&approval::Model> = actions.iter().filter(|a| on(a, t)).collect();
        if mine.iter().any(|a| !ended(a)) {
            out.waiting.push(t.id);
        } else if out.decided.is_none()
            && let Some(a) = mine.first()
        {
            out.decided = Some((t.clone(), (*a).clone()));
        }
    }
    Ok(out)
}

/// The task's end by its action's outcome: resolved with what was done, or failed with
/// why not, in the company's language. The report follows as for any resolved task.
fn outcome(cx: &Ctx<'_>, task: &task::Model, action: &approval::Model) -> Draft {
    let lang = cx.company.language;
    let what = crate::tools::describe_short(&action.tool, &action.args, lang);
    let what = what.trim().trim_end_matches(['.', '。']);
    let subject: String = task.description.trim().chars().take(160).collect();
    let (resolved, result) = match (action.status, action.error.as_deref()) {
        (ApprovalStatus::Approved, None) => (
            true,
            lang.pick(
                format!("Done: {subject} — {what}: it ran."),
                format!("已完成：{subject}——{what}，已经执行。"),
            ),
        ),
        (ApprovalStatus::Approved, Some(e)) => (
            false,
            lang.pick(
                format!("Failed: {subject} — {what} did not go through: {e}"),
                format!("失败：{subject}——{what}没有成功：{e}"),
            ),
        ),
        (ApprovalStatus::Rejected, _) => (
            false,
            lang.pick(
                format!("Not done: {subject} — the boss rejected {what}."),
                format!("未完成：{subject}——老板拒绝了{what}。"),
            ),
        ),
        _ => (
            false,
            lang.pick(
                format!("Not done: {subject} — nobody approved {what} in time."),
                format!("未完成：{subject}——{what}没有在期限内得到批准。"),
            ),
        ),
    };
    Draft {
        note: lang.pick(
            format!(
                "Task #{} ends with its action's outcome (approval #{}).",
                task.id, action.id
            ),
            format!(
                "任务 #{} 以其操作的结果结束（审批 #{}）。",
                task.id, action.id
            ),
        ),
        task_ops: vec![TaskOp {
            op: if resolved {
                TaskVerb::Resolve
            } else {
                TaskVerb::Fail
            },
            id: Some(i64::from(task.id)),
            result: Some(result),
            ..TaskOp::default()
        }],
        ..Draft::default()
    }
}

/// The plan of a requirement, when this wake-up is in its group.
async fn assignment(cx: &Ctx<'_>, task: &task::Model) -> Result<Option<Assignment>, DbErr> {
    let db = &cx.engine.core().db;
    let Some(r) = task.requirement_id else {
        return Ok(None);
    };
    let Some(r) = cubicle_store::work::find_requirement(db, r)
        .await?
        .filter(|r| r.chat_id == Some(cx.w.chat.id))
    else {
        return Ok(None);
    };
    let to = crate::work::start::best_helper(&r, cx.w.me.id, cx.staff.values()).cloned();
    Ok(Some(Assignment {
        requirement: r.name.clone(),
        to,
        task: r.description.clone(),
    }))
}

/// The boss or a colleague spoke to `me` by @mention or by name.
fn addresses(m: &chat_message::Model, me: &employee::Model) -> bool {
    let mentioned = m
        .mentions
        .as_ref()
        .and_then(|v| serde_json::from_value::<Vec<i32>>(v.clone()).ok())
        .is_some_and(|ids| ids.contains(&me.id));
    mentioned || crate::chat::mentions::names(&m.text, &me.name)
}

/// Where a task stands with the colleagues it names.
enum Consult {
    /// This colleague has not been asked yet.
    Ask(Box<employee::Model>),
    /// Everyone asked has answered (or nobody is named, or the wait is over): what they said.
    Ready(Vec<(String, String)>),
    Waiting,
}

async fn consult(cx: &Ctx<'_>, task: &task::Model) -> Result<Consult, DbErr> {
    let db = &cx.engine.core().db;
    let me = &cx.w.me;
    let mut named: Vec<&employee::Model> = cx
        .staff
        .values()
        .filter(|e| {
            e.id != me.id
                && e.fired_at.is_none()
                && crate::chat::mentions::names(&task.description, &e.name)
        })
        .collect();
    named.sort_by_key(|e| e.id);
    let mut inputs = Vec::new();
    let mut waiting = false;
    for colleague in named {
        let dm = cq::find_dm(db, me.id, colleague.id).await?;
        let said = match &dm {
            Some(dm) => cq::last_messages(db, dm.id, 40).await?,
            None => vec![],
        };
        let since_task: Vec<&chat_message::Model> = said
            .iter()
            .filter(|m| m.created_at >= task.created_at)
            .collect();
        let Some(asked) = since_task
            .iter()
            .position(|m| m.sender_employee_id == Some(me.id))
        else {
            return Ok(Consult::Ask(Box::new(colleague.clone())));
        };
        let answers: Vec<&str> = since_task[asked..]
            .iter()
            .filter(|m| m.sender_employee_id == Some(colleague.id))
            .map(|m| m.text.as_str())
            .collect();
        if answers.is_empty() {
            waiting = true;
        } else {
            inputs.push((colleague.name.clone(), answers.join(" ")));
        }
    }
    let overdue = cx.engine.now() - task.created_at >= WAIT_FOR_ANSWERS;
    Ok(if waiting && !overdue {
        Consult::Waiting
    } else {
        Consult::Ready(inputs)
    })
}

async fn run(cx: &Ctx<'_>, step: Step, spent: &mut Spent) -> Result<Draft, GatewayError> {
    match step {
        Step::Report(task) => report(cx, &task, spent).await,
        Step::Plan(task, a) => plan(cx, &task, &a, spent).await,
        Step::Ask(task, colleague) => {
            let req = cx.writer().ask(&task.description, &colleague.name);
            let text = write_line(cx, req, Some(&colleague.name), spent).await?;
            Ok(Draft {
                note: cx.company.language.pick(
                    format!("Asking {} for input on task #{}.", colleague.name, task.id),
                    format!("就任务 #{} 请{}给意见。", task.id, colleague.name),
                ),
                messages: vec![(Target::Dm(colleague.id), text)],
                ..Draft::default()
            })
        }
        Step::Deliver(task, inputs) => deliver(cx, &task, &inputs, spent).await,
        Step::Outcome(task, action) => Ok(outcome(cx, &task, &action)),
        Step::Reply => {
            reply(
                cx,
                spent,
                &cx.pick("Answering what is new here.", "回应这里的新消息。"),
            )
            .await
        }
        Step::MaybeReply => {
            let lines = chat_lines(cx);
            let req = cx.writer().speak_or_not(&cx.w.chat.name, &lines);
            match choose(cx, req, spent).await? {
                Choice::Reply => {
                    reply(cx, spent, &cx.pick("Chose to add a word.", "决定说一句。")).await
                }
                _ => Ok(Draft {
                    note: cx.pick("Chose to stay silent.", "决定不说话。"),
                    consumed: true,
                    ..Draft::default()
                }),
            }
        }
        Step::TaskOrReply => {
            let text = cx
                .unread()
                .last()
                .map(|m| m.text.clone())
                .unwrap_or_default();
            let req = cx.writer().task_or_reply(&text);
            match choose(cx, req, spent).await? {
                Choice::Task => Ok(Draft {
                    note: cx.pick(
                        "Took the boss's words on as a task.",
                        "把老板的话接下来作为任务。",
                    ),
                    task_ops: vec![TaskOp {
                        op: TaskVerb::Create,
                        description: Some(text.chars().take(500).collect()),
                        ..TaskOp::default()
                    }],
                    consumed: true,
                    ..Draft::default()
                }),
                _ => reply(cx, spent, &cx.pick("Answering the boss.", "回复老板。")).await,
            }
        }
    }
}

fn chat_lines(cx: &Ctx<'_>) -> Vec<(String, String)> {
    let start = cx.w.recent.len().saturating_sub(REPLY_CONTEXT);
    cx.w.recent[start..]
        .iter()
        .map(|m| (cx.name_of(m), m.text.clone()))
        .collect()
}

async fn reply(cx: &Ctx<'_>, spent: &mut Spent, note: &str) -> Result<Draft, GatewayError> {
    let lines = chat_lines(cx);
    // A reply goes to whoever wrote last (not to oneself).
    let to = lines
        .last()
        .map(|(who, _)| who.clone())
        .filter(|who| *who != cx.w.me.name);
    let req = cx.writer().reply(&cx.w.chat.name, &lines);
    let text = write_line(cx, req, to.as_deref(), spent).await?;
    Ok(Draft {
        note: note.to_owned(),
        messages: vec![(Target::Here, text)],
        consumed: true,
        ..Draft::default()
    })
}

async fn deliver(
    cx: &Ctx<'_>,
    task: &task::Model,
    inputs: &[(String, String)],
    spent: &mut Spent,
) -> Result<Draft, GatewayError> {
    let req = cx.writer().document(&task.description, inputs);
    let max_chars = shape_chars(&req);
    let text = ask_model(cx, req, spent).await?;
    let document = guided::tidy_document(&text, max_chars);
    let document = document.as_str();
    if document.is_empty() {
        return Err(unusable("the document came back empty"));
    }
    if crate::mind::looks_like_json(document) {
        return Err(unusable("the document came back as raw JSON"));
    }
    // A small offline model's document is a draft, and says so where the boss reads it.
    let document = format!(
        "{document}\n\n{}",
        check::draft_note(&cx.w.route.model, cx.company.language)
    );
    let document = document.as_str();
    let saved = save_deliverable(cx, task.id, document).await.map_err(|e| {
        GatewayError::Structured(format!("the deliverable could not be saved: {e}"))
    })?;
    let title = document.lines().next().unwrap_or_default().trim();
    let title = title
        .trim_start_matches('#')
        .trim()
        .trim_matches('*')
        .trim();
    let names: Vec<&str> = inputs.iter().map(|(n, _)| n.as_str()).collect();
    // A document answers the woken chat's news only when that chat is where the
    // colleagues' answers came in.
    let consumed = is_private(&cx.w.chat) && cx.w.chat.kind == ChatKind::Dm;
    Ok(Draft {
        note: match (names.is_empty(), cx.company.language) {
            (true, Language::En) => format!("Wrote the deliverable of task #{}.", task.id),
            (true, Language::ZhCn) => format!("写好了任务 #{} 的交付物。", task.id),
            (false, Language::En) => format!(
                "Wrote the deliverable of task #{} with what {} said.",
                task.id,
                names.join(", ")
            ),
            (false, Language::ZhCn) => format!(
                "结合{}的意见，写好了任务 #{} 的交付物。",
                names.join("、"),
                task.id
            ),
        },
        task_ops: vec![TaskOp {
            op: TaskVerb::Resolve,
            id: Some(i64::from(task.id)),
            result: Some(format!("{title} ({saved})")),
            ..TaskOp::default()
        }],
        consumed,
        ..Draft::default()
    })
}

/// The owner's plan: one line to the group, the work given out, the planning task
/// resolved with who does what.
async fn plan(
    cx: &Ctx<'_>,
    task: &task::Model,
    a: &Assignment,
    spent: &mut Spent,
) -> Result<Draft, GatewayError> {
    let who =
        a.to.as_ref()
            .map_or(cx.w.me.name.as_str(), |e| e.name.as_str());
    let req = cx
        .writer()
        .plan(&a.requirement, &[(who.to_owned(), a.task.clone())]);
    let text = write_line(cx, req, None, spent).await?;
    let result = match cx.company.language {
        Language::ZhCn => format!("计划：{who}负责“{}”", a.task),
        Language::En => format!("Plan: {who} does \"{}\"", a.task),
    };
    Ok(Draft {
        note: cx.company.language.pick(
            format!(
                "Planning the requirement \"{}\": {who} does it.",
                a.requirement
            ),
            format!("规划需求“{}”：由{who}来做。", a.requirement),
        ),
        messages: vec![(Target::Here, text)],
        task_ops: vec![
            TaskOp {
                op: TaskVerb::Create,
                description: Some(a.task.clone()),
                assignee: a.to.as_ref().map(|e| e.name.clone()),
                ..TaskOp::default()
            },
            TaskOp {
                op: TaskVerb::Resolve,
                id: Some(i64::from(task.id)),
                result: Some(result),
                ..TaskOp::default()
            },
        ],
        consumed: true,
        ..Draft::default()
    })
}

async fn report(
    cx: &Ctx<'_>,
    task: &task::Model,
    spent: &mut Spent,
) -> Result<Draft, GatewayError> {
    let file = find_deliverable(cx, task.id).await;
    let outcome = file
        .as_ref()
        .map(|f| String::from_utf8_lossy(&f.bytes).into_owned())
        .or_else(|| task.result.clone())
        .unwrap_or_default();
    let to = cx.company.boss_name.clone();
    let req = cx.writer().report(&task.description, &outcome, &to);
    let mut text = write_line(cx, req, Some(&to), spent).await?;
    let lang = cx.company.language;
    // Said plainly by the app, not left to the model: whether the work is done, and that
    // a small offline model's work is a draft.
    if let Some(why) = task.needs_review {
        text.push_str(&format!("\n{}", check::needs_review_line(why, lang)));
    }
    if let Some(deliverables::Found { path: relative, .. }) = file {
        let note = check::draft_note(&cx.w.route.model, lang);
        text.push_str(&format!(
            "\n{}",
            note.trim_start_matches(check::APP_LINE_PREFIX)
        ));
        let label = match lang {
            Language::ZhCn => "交付物：",
            Language::En => "Deliverable: ",
        };
        text.push_str(&format!("\n{label}{relative}"));
    }
    Ok(Draft {
        note: cx.company.language.pick(
            format!("Reporting task #{}.", task.id),
            format!("汇报任务 #{}。", task.id),
        ),
        messages: vec![(Target::Here, text)],
        report_task: Some(task.id),
        ..Draft::default()
    })
}

/// One line the model writes to `to` (if it goes to one person), tidied and checked;
/// asked again once when unusable. A model that puts the addressee's name before the
/// line ("Bob: …", as Qwen does) is addressing them, not speaking as them.
async fn write_line(
    cx: &Ctx<'_>,
    req: CompletionRequest,
    to: Option<&str>,
    spent: &mut Spent,
) -> Result<String, GatewayError> {
    let max_chars = shape_chars(&req);
    let others: Vec<&str> = cx
        .staff
        .values()
        .filter(|e| e.id != cx.w.me.id)
        .map(|e| e.name.as_str())
        .chain(std::iter::once(cx.company.boss_name.as_str()))
        .collect();
    let mut last = String::new();
    for _ in 0..TRIES {
        let text = ask_model(cx, req.clone(), spent).await?;
        let tidy = guided::tidy_line(&text, max_chars);
        let addressed = guided::strip_address(&tidy, to.unwrap_or_default());
        if let Some(clean) = clean_chat_message(&addressed, &cx.me, &others) {
            return Ok(clean);
        }
        last = text;
    }
    Err(unusable(&format!(
        "the line was empty or spoke as someone else: {:?}",
        last.chars().take(120).collect::<String>()
    )))
}

/// One of the options the request offers.
async fn choose(
    cx: &Ctx<'_>,
    req: CompletionRequest,
    spent: &mut Spent,
) -> Result<Choice, GatewayError> {
    let text = ask_model(cx, req, spent).await?;
    Choice::read(&text).ok_or_else(|| unusable(&format!("no choice in {text:?}")))
}

/// The model's text for one step. An answer cut off at the token cap is not used.
async fn ask_model(
    cx: &Ctx<'_>,
    mut req: CompletionRequest,
    spent: &mut Spent,
) -> Result<String, GatewayError> {
    req.seed = cx.engine.sampling_seed();
    spent.prompt_tokens += req
        .messages
        .iter()
        .map(|m| approx_tokens(&m.content))
        .sum::<usize>();
    let ctx = CallContext {
        purpose: Purpose::Thought,
        trace_id: cx.w.trace.clone(),
        employee_id: Some(cx.w.me.id),
        max_retries: cx.w.me.max_retries.and_then(|n| u32::try_from(n).ok()),
    };
    spent.calls += 1;
    let asked = Instant::now();
    let reply = cx
        .engine
        .core()
        .gateway
        .complete(&ctx, cx.w.route.clone(), req)
        .await;
    spent.time += asked.elapsed();
    let reply = reply?;
    if reply.value.finish_reason == FinishReason::Length {
        return Err(unusable("the answer was cut off at the token limit"));
    }
    Ok(reply.value.text)
}

/// The most characters the request's shape allows.
fn shape_chars(req: &CompletionRequest) -> u32 {
    match &req.shape {
        Some(TextShape::Text { max_chars, .. }) => *max_chars,
        _ => u32::MAX,
    }
}

fn unusable(why: &str) -> GatewayError {
    GatewayError::Structured(why.to_owned())
}

/// Writes the document as `task-<id>-<slug>.md` (whole or not at all, and never through
/// anything planted at a name: see [`deliverables`]) and returns its path relative to
/// the workspace.
async fn save_deliverable(
    cx: &Ctx<'_>,
    task_id: i32,
    document: &str,
) -> Result<String, crate::tools::ToolError> {
    let title = document.lines().next().unwrap_or_default();
    let name = file_name(task_id, title);
    let runtime = cx.engine.core().approvals.runtime();
    deliverables::save(runtime, cx.w.me.id, task_id, &name, document).await
}

/// The task's saved deliverable, if any: where it is and its beginning.
async fn find_deliverable(cx: &Ctx<'_>, task_id: i32) -> Option<deliverables::Found> {
    let runtime = cx.engine.core().approvals.runtime();
    match deliverables::find(runtime, cx.w.me.id, task_id).await {
        Ok(found) => found,
        Err(e) => {
            tracing::warn!(task = task_id, error = %e, "the deliverable could not be read");
            None
        }
    }
}

/// `task-12-gripper-calibration-timeout.md` from a title; `task-12.md` when the title
/// has no Latin letters or digits to make a name of.
fn file_name(task_id: i32, title: &str) -> String {
    let mut slug = String::new();
    for c in title.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.is_empty() && !slug.ends_with('-') {
            slug.push('-');
        }
        if slug.len() >= 48 {
            break;
        }
    }
    let slug = slug.trim_end_matches('-');
    if slug.is_empty() {
        format!("task-{task_id}.md")
    } else {
        format!("task-{task_id}-{slug}.md")
    }
}

async fn commit(cx: &Ctx<'_>, draft: Draft, spent: Spent) -> Result<ThinkOutcome, DbErr> {
    let engine = cx.engine;
    let w = cx.w;
    let is_dm = is_private(&w.chat);
    // The guided steps ask no mood of the model: the chat's default paces the next poll.
    let mood = Mood::default_for(is_dm);
    let boss_mentioned_me = cx
        .unread()
        .iter()
        .any(|m| m.sender_kind == SenderKind::Boss && addresses(m, &w.me));
    let (posts, silenced_by, repetitions) = if draft.messages.is_empty() {
        (vec![], None, 0)
    } else {
        plan_posts(
            engine,
            w.me.id,
            &w.chat,
            &draft.messages,
            mood.saturation(),
            boss_mentioned_me,
        )
        .await?
    };
    let thought = Thought {
        inner_thoughts: draft.note,
        should_speak: !draft.messages.is_empty(),
        messages: draft
            .messages
            .iter()
            .map(|(to, text)| OutMessage {
                content: text.clone(),
                to: match to {
                    Target::Dm(id) => cx.staff.get(id).map(|e| e.name.clone()),
                    _ => None,
                },
            })
            .collect(),
        task_ops: draft.task_ops,
        ..Thought::default()
    };
    let requirement = cubicle_store::work::list_requirements(&engine.core().db)
        .await?
        .into_iter()
        .find(|r| r.chat_id == Some(w.chat.id))
        .map(|r| r.id);
    let plan = Plan {
        thought,
        requirement,
        latest_seen: if draft.consumed { w.latest_seen } else { None },
        trace: w.trace.clone(),
        serves: Default::default(),
        follow_up: true,
        posts,
        repetitions,
        silenced_by,
        report_task: draft.report_task,
        mood,
        seed: SEED.to_owned(),
        prompt_tokens: spent.prompt_tokens,
        at: engine.now(),
    };
    let posted = plan.posted();
    pending::write_and_apply(engine, w.me.id, w.chat.id, plan).await?;
    Ok(ThinkOutcome::Thought {
        mood,
        posted,
        silenced: silenced_by.is_some(),
        calls: spent.calls,
        model_time: spent.time,
        prompt_tokens: spent.prompt_tokens,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_found_as_words_or_characters() {
        assert!(crate::chat::mentions::names("discuss it with Bob", "Bob"));
        assert!(crate::chat::mentions::names("ask bob smith", "Bob Smith"));
        assert!(!crate::chat::mentions::names("the bobcat design", "Bob"));
        assert!(crate::chat::mentions::names("和王强讨论一下", "王强"));
        assert!(!crate::chat::mentions::names("和王明讨论一下", "王强"));
    }

    #[test]
    fn deliverables_get_readable_file_names() {
        assert_eq!(
            file_name(12, "# Gripper calibration timeout: a design note"),
            "task-12-gripper-calibration-timeout-a-design-note.md"
        );
        assert_eq!(file_name(3, "夹爪校准超时设计说明"), "task-3.md");
        assert!(file_name(4, &"word ".repeat(40)).len() < 70);
    }
}
