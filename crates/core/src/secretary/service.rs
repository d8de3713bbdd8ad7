//! The secretary's turn: boss text → intents (rule tier) → names resolved against the
//! real company → an answer from database facts, a clarifying question, or action cards
//! the boss confirms, edits or cancels; applied actions can be undone for 10 minutes.
//!
//! Everything goes through the org service; nothing here changes the org directly.

use chrono::{Duration as ChronoDuration, Utc};
use cubicle_store::entity::{secretary_action, secretary_message};
use cubicle_store::{Db, DbErr, TransactionTrait, secretary as q};
use sea_orm::ActiveValue::{NotSet, Set};
use sea_orm::IntoActiveModel;

use std::sync::Arc;

use tokio_util::task::TaskTracker;

use super::actions::*;
use super::intent::{Intent, IntentKind, Parse, Slots};
use super::names::{NameMatch, match_name};
use super::rules::parse_rules;
use crate::chat::Chats;
use crate::error::{ErrorCode, IpcError};
use crate::gateway::{CallContext, Gateway, Purpose};
use crate::mind;
use crate::org::{OrgError, OrgService};
use crate::providers::Providers;
use crate::roles;
use crate::types::*;
use crate::work::{RequirementDto, TaskDto, Work};
use cubicle_llm::{ChatMessage, CompletionRequest};

/// Status of an action while one caller applies or undoes it; no other caller can.
const CLAIMED: &str = "in_progress";

/// Messages the chat page loads at once.
pub const HISTORY_LIMIT: u64 = 200;

#[derive(Debug, thiserror::Error)]
pub enum SecretaryError {
    #[error("say something first")]
    Empty,
    #[error("action {0} does not exist")]
    NoAction(i32),
    #[error("action {id} is {status}; only a {expected} action can do that")]
    WrongStatus {
        id: i32,
        status: &'static str,
        expected: &'static str,
    },
    #[error("the 10 minutes to undo this have passed")]
    UndoExpired,
    #[error("this action cannot be undone")]
    NotUndoable,
    #[error(transparent)]
    Org(#[from] OrgError),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl From<SecretaryError> for IpcError {
    fn from(e: SecretaryError) -> Self {
        let code = match &e {
            SecretaryError::Empty | SecretaryError::WrongStatus { .. } => ErrorCode::InvalidInput,
            SecretaryError::UndoExpired | SecretaryError::NotUndoable => ErrorCode::InvalidInput,
            SecretaryError::NoAction(_) => ErrorCode::NotFound,
            SecretaryError::Org(o) => o.code(),
            SecretaryError::Storage(_) => ErrorCode::Storage,
        };
        IpcError::new(code, e.to_string())
    }
}

pub type SecretaryResult<T> = Result<T, SecretaryError>;

/// One exchange: what the boss said, how it was parsed, and the secretary's reply.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "camelCase")]
pub struct SecretaryTurn {
    pub boss: SecretaryMessageDto,
    pub parse: Parse,
    pub reply: SecretaryMessageDto,
}

#[derive(Clone)]
pub struct Secretary {
    db: Db,
    org: OrgService,
    chats: Chats,
    gateway: Gateway,
    providers: Arc<Providers>,
    work: Work,
    /// Background work (introductions) so callers can wait for it before exiting.
    tasks: TaskTracker,
}

impl std::fmt::Debug for Secretary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secretary").finish_non_exhaustive()
    }
}

/// Reply text in the company's language.
#[derive(Clone, Copy, PartialEq)]
enum Lang {
    En,
    Zh,
}

impl Lang {
    fn pick(self, en: impl Into<String>, zh: impl Into<String>) -> String {
        match self {
            Lang::En => en.into(),
            Lang::Zh => zh.into(),
        }
    }
}

/// What the secretary makes of one intent.
enum Outcome {
    Say(String),
    Propose(Vec<Proposal>, String),
}

impl Secretary {
    pub fn new(
        db: Db,
        org: OrgService,
        chats: Chats,
        gateway: Gateway,
        providers: Arc<Providers>,
        work: Work,
    ) -> Self {
        Self {
            db,
            org,
            chats,
            gateway,
            providers,
            work,
            tasks: TaskTracker::new(),
        }
    }

    /// Waits for background work started so far (the CLI calls this before exiting so a
    /// new hire's introduction is not cut off).
    pub async fn settle(&self) {
        self.tasks.close();
        self.tasks.wait().await;
        self.tasks.reopen();
    }

    /// A new hire joins their department's group chat at once, then posts a
    /// self-introduction written by their own model. The writing runs in the background
    /// (a model may take seconds); a failure is logged, never faked.
    async fn welcome(&self, e: &EmployeeDto) -> Result<(), DbErr> {
        let Some(dept_id) = e.department_id else {
            return Ok(());
        };
        let snap = self
            .org
            .snapshot()
            .await
            .map_err(|x| DbErr::Custom(x.to_string()))?;
        let (Some(company), Some(dept)) = (
            snap.company.clone(),
            snap.departments.iter().find(|d| d.id == dept_id).cloned(),
        ) else {
            return Ok(());
        };
        let chat = self.chats.department_chat(dept.id, &dept.name).await?;
        self.chats.join(chat.id, e.id).await?;
        let others: Vec<String> = snap
            .employees
            .iter()
            .filter(|x| x.id != e.id)
            .map(|x| x.name.clone())
            .collect();
        let (me, chats, gateway, providers) = (
            e.clone(),
            self.chats.clone(),
            self.gateway.clone(),
            self.providers.clone(),
        );
        self.tasks.spawn(async move {
            let ctx = CallContext {
                purpose: Purpose::Thought,
                trace_id: None,
                employee_id: Some(me.id),
            };
            let route = match providers
                .route_for_employee(Purpose::Thought, &me.backend)
                .await
            {
                Ok(r) => r,
                Err(err) => {
                    tracing::warn!(error = %err, employee = me.id, "no route for the introduction");
                    return;
                }
            };
            let req = mind::introduction_request(&me, &company, &dept.name);
            let others: Vec<&str> = others.iter().map(String::as_str).collect();
            // Speaking as someone else is discarded and regenerated once (SPEC §10).
            for attempt in 1..=2 {
                match gateway.complete(&ctx, route.clone(), req.clone()).await {
                    Ok(reply) => match mind::clean_introduction(&reply.value.text, &me, &others) {
                        Some(text) => {
                            if let Err(err) = chats.post_as_employee(chat.id, me.id, &text).await {
                                // e.g. the hire was undone meanwhile: the row is gone.
                                tracing::info!(error = %err, employee = me.id, "introduction not posted");
                            }
                            return;
                        }
                        None => tracing::warn!(employee = me.id, attempt, "introduction discarded by the identity check"),
                    },
                    Err(err) => {
                        tracing::warn!(error = %err, employee = me.id, "no introduction: the model call failed");
                        return;
                    }
                }
            }
        });
        Ok(())
    }

    pub async fn history(&self) -> SecretaryResult<Vec<SecretaryMessageDto>> {
        let messages = q::recent_messages(&self.db, HISTORY_LIMIT).await?;
        let actions =
            q::actions_of_messages(&self.db, messages.iter().map(|m| m.id).collect()).await?;
        Ok(messages
            .iter()
            .map(|m| message_dto(m, actions.iter().filter(|a| a.message_id == m.id).collect()))
            .collect())
    }

    /// One turn of the conversation. With `auto_confirm` (the CLI's `--yes`) every
    /// non-destructive proposal is applied at once; destructive ones still wait.
    pub async fn say(&self, text: &str, auto_confirm: bool) -> SecretaryResult<SecretaryTurn> {
        let text = text.trim();
        if text.is_empty() {
            return Err(SecretaryError::Empty);
        }
        let snap = self.org.snapshot().await?;
        let lang = match snap.company.as_ref().map(|c| c.language) {
            Some(Language::ZhCn) => Lang::Zh,
            _ => Lang::En,
        };
        let rules = parse_rules(text);
        let parse = if rules
            .intents
            .iter()
            .any(|i| i.is_confident() && i.kind != IntentKind::Unknown)
        {
            rules
        } else {
            // The rules are unsure: ask the model tier, keeping the rules' answer if it fails.
            self.model_parse(text, &snap).await.unwrap_or(rules)
        };
        let mut lines = Vec::new();
        let mut proposals = Vec::new();
        // Names proposed earlier in this message count as taken for the next hire.
        let mut taken: Vec<String> = snap.employees.iter().map(|e| e.name.clone()).collect();
        for intent in &parse.intents {
            match self.handle(intent, &snap, lang, &mut taken).await? {
                Outcome::Say(s) => lines.push(s),
                Outcome::Propose(ps, s) => {
                    lines.push(s);
                    proposals.extend(ps);
                }
            }
        }
        if lines.is_empty() {
            lines.push(clarify(lang));
        }

        let now = Utc::now();
        let txn = self.db.begin().await?;
        let boss = q::insert_message(
            &txn,
            secretary_message::ActiveModel {
                id: NotSet,
                at: Set(now),
                role: Set("boss".into()),
                text: Set(text.to_owned()),
                trace_id: Set(None),
            },
        )
        .await?;
        let reply = q::insert_message(
            &txn,
            secretary_message::ActiveModel {
                id: NotSet,
                at: Set(now),
                role: Set("secretary".into()),
                text: Set(lines.join("\n")),
                trace_id: Set(None),
            },
        )
        .await?;
        let mut ids = Vec::new();
        for p in &proposals {
            let row = q::insert_action(
                &txn,
                secretary_action::ActiveModel {
                    id: NotSet,
                    message_id: Set(reply.id),
                    created_at: Set(now),
                    kind: Set(p.kind().into()),
                    status: Set(ActionStatus::Proposed.as_str().into()),
                    proposal: Set(serde_json::to_value(p).unwrap_or_default()),
                    undo: Set(None),
                    diff: Set(None),
                    undo_until: Set(None),
                    error: Set(None),
                },
            )
            .await?;
            ids.push((row.id, p.is_destructive()));
        }
        txn.commit().await?;

        // What the model tier proposes always waits for the boss, even with --yes.
        if auto_confirm && parse.tier == super::intent::Tier::Rules {
            for (id, destructive) in &ids {
                if !destructive {
                    // A failure is recorded on the card; the turn itself still succeeds.
                    let _ = self.confirm(*id, None).await;
                }
            }
        }
        let actions = q::actions_of_messages(&self.db, vec![reply.id]).await?;
        Ok(SecretaryTurn {
            boss: message_dto(&boss, vec![]),
            parse,
            reply: message_dto(&reply, actions.iter().collect()),
        })
    }

    /// The model tier (SPEC §3): the intent route's model, constrained to the `Parse`
    /// schema through the gateway. `None` when it fails or is no surer than the rules;
    /// its intents are then still held to the same confidence bar.
    async fn model_parse(&self, text: &str, snap: &OrgSnapshot) -> Option<Parse> {
        let route = self
            .providers
            .configured_route(Purpose::Intent)
            .await
            .ok()
            .flatten()?;
        let departments: Vec<&str> = snap.departments.iter().map(|d| d.name.as_str()).collect();
        let people: Vec<&str> = snap.employees.iter().map(|e| e.name.as_str()).collect();
        let roles: Vec<&str> = roles::CATALOGUE.iter().map(|r| r.title).collect();
        let system = format!(
            "You turn the boss's message into intents for an AI company's secretary. \
             Kinds: hire_employee (slots role, department, name, count), fire_employee (name), \
             transfer_employee (name, target_department), create_department (department), \
             rename_department (department, new_name), delete_department (department), \
             assign_task (assignee, description), create_requirement (description, department), \
             ask_status (name or department), request_report (department or topic), \
             convene_meeting (topic, participants), set_policy (level auto|key_steps|manual, amount in USD), \
             approve, reject, chitchat, question, unknown. Use role titles from: {roles}. \
             Departments: {departments}. People: {people}. Set confidence below 0.5 and kind unknown \
             when unsure; never invent names. Set tier to \"model\".",
            roles = roles.join(", "),
            departments = if departments.is_empty() {
                "none".into()
            } else {
                departments.join(", ")
            },
            people = if people.is_empty() {
                "none".into()
            } else {
                people.join(", ")
            },
        );
        let req = CompletionRequest {
            messages: vec![ChatMessage::system(system), ChatMessage::user(text)],
            temperature: Some(0.0),
            max_tokens: Some(400),
            ..Default::default()
        };
        let ctx = CallContext::new(Purpose::Intent);
        match self.gateway.complete_json::<Parse>(&ctx, route, req).await {
            Ok(reply) => {
                let mut parse = reply.value;
                parse.tier = super::intent::Tier::Model;
                parse.intents.retain(|i| i.kind != IntentKind::Unknown);
                parse
                    .intents
                    .iter()
                    .any(Intent::is_confident)
                    .then_some(parse)
            }
            Err(e) => {
                tracing::info!(error = %e, "the model tier could not parse the message");
                None
            }
        }
    }

    async fn handle(
        &self,
        intent: &Intent,
        snap: &OrgSnapshot,
        lang: Lang,
        taken: &mut Vec<String>,
    ) -> SecretaryResult<Outcome> {
        let s = &intent.slots;
        if !intent.is_confident()
            && !matches!(intent.kind, IntentKind::Chitchat | IntentKind::Question)
        {
            return Ok(Outcome::Say(match intent.kind {
                IntentKind::HireEmployee => lang.pick(
                    "Whom should I hire? Tell me the role, e.g. \"hire a frontend engineer for Engineering\".",
                    "要招什么岗位呢？比如“给工程部招一个前端工程师”。",
                ),
                _ => clarify(lang),
            }));
        }
        Ok(match intent.kind {
            IntentKind::HireEmployee => self.hire(s, snap, lang, taken),
            IntentKind::FireEmployee => match self.person(s.name.as_deref(), snap, lang) {
                Err(q) => Outcome::Say(q),
                Ok(e) => Outcome::Propose(
                    vec![Proposal::Fire {
                        employee_id: e.id,
                        name: e.name.clone(),
                    }],
                    lang.pick(
                        format!("Firing {} can't be taken back lightly — please confirm.", e.name),
                        format!("确定要辞退{}吗？请确认。", e.name),
                    ),
                ),
            },
            IntentKind::TransferEmployee => {
                let target = s.target_department.as_deref().or(s.department.as_deref());
                match (self.person(s.name.as_deref(), snap, lang), self.department(target, snap, lang)) {
                    (Err(q), _) | (_, Err(q)) => Outcome::Say(q),
                    (Ok(e), Ok(d)) if e.department_id == Some(d.id) => Outcome::Say(lang.pick(
                        format!("{} is already in {}.", e.name, d.name),
                        format!("{}已经在{}了。", e.name, d.name),
                    )),
                    (Ok(e), Ok(d)) => Outcome::Propose(
                        vec![Proposal::Transfer {
                            employee_id: e.id,
                            name: e.name.clone(),
                            department_id: d.id,
                            department_name: d.name.clone(),
                        }],
                        lang.pick(
                            format!("I'll move {} to {}.", e.name, d.name),
                            format!("我来把{}调到{}。", e.name, d.name),
                        ),
                    ),
                }
            }
            IntentKind::CreateDepartment => {
                let Some(name) = s.department.as_deref().or(s.new_name.as_deref()) else {
                    return Ok(Outcome::Say(lang.pick("What should the new department be called?", "新部门叫什么名字？")));
                };
                let parent = match s.target_department.as_deref() {
                    None => None,
                    Some(p) => match self.department(Some(p), snap, lang) {
                        Ok(d) => Some(d),
                        Err(q) => return Ok(Outcome::Say(q)),
                    },
                };
                Outcome::Propose(
                    vec![Proposal::CreateDepartment {
                        name: name.to_owned(),
                        parent_id: parent.map(|d| d.id),
                        parent_name: parent.map(|d| d.name.clone()),
                    }],
                    lang.pick(format!("I'll create the {name} department."), format!("我来新建{name}。")),
                )
            }
            IntentKind::RenameDepartment => match (self.department(s.department.as_deref(), snap, lang), s.new_name.as_deref()) {
                (Err(q), _) => Outcome::Say(q),
                (Ok(_), None) => Outcome::Say(lang.pick("What should it be called?", "要改成什么名字？")),
                (Ok(d), Some(new_name)) => Outcome::Propose(
                    vec![Proposal::RenameDepartment {
                        department_id: d.id,
                        old_name: d.name.clone(),
                        new_name: new_name.to_owned(),
                    }],
                    lang.pick(format!("I'll rename {} to {new_name}.", d.name), format!("我来把{}改名为{new_name}。", d.name)),
                ),
            },
            IntentKind::SetPolicy if s.level.is_some() || s.amount.is_some() => Outcome::Propose(
                vec![Proposal::SetPolicy {
                    level: s.level,
                    daily_budget_usd: s.amount,
                }],
                lang.pick("I'll update the company policy.", "我来更新公司的审批和预算设置。"),
            ),
                        IntentKind::AskStatus | IntentKind::RequestReport => {
                let tasks = self.work.pending().await?;
                let requirements = self.work.requirements().await?;
                Outcome::Say(self.facts(s, snap, lang, &tasks, &requirements))
            }
            IntentKind::Approve | IntentKind::Reject => Outcome::Say(lang.pick(
                "Nothing is waiting for your approval right now.",
                "目前没有等待你审批的事项。",
            )),
            IntentKind::Chitchat => Outcome::Say(lang.pick(
                "Hello! Tell me whom to hire, move or let go, or ask how the company is doing.",
                "你好！可以让我招人、调岗、辞退，或者问问公司现在的情况。",
            )),
            IntentKind::Question => Outcome::Say(capabilities(lang)),
            IntentKind::DeleteDepartment => Outcome::Say(lang.pick(
                "Deleting a department means deciding where its people go; please do it on the org chart, where you can choose.",
                "删除部门需要决定人员去向，请在组织架构页操作，那里可以选择。",
            )),
            IntentKind::AssignTask => self.assign_task(s, snap, lang),
            IntentKind::CreateRequirement => self.create_requirement(s, snap, lang),
            IntentKind::SetPolicy | IntentKind::ConveneMeeting => Outcome::Say(lang.pick(
                format!(
                    "I understood \"{}\", but I can't do that yet. {}",
                    intent.kind.as_str().replace('_', " "),
                    capabilities(Lang::En)
                ),
                format!("我明白你的意思（{}），但这个我还做不到。{}", intent.kind.as_str(), capabilities(Lang::Zh)),
            )),
            IntentKind::Unknown => Outcome::Say(clarify(lang)),
        })
    }

    fn hire(&self, s: &Slots, snap: &OrgSnapshot, lang: Lang, taken: &mut Vec<String>) -> Outcome {
        let Some(role) = s.role.as_deref() else {
            return Outcome::Say(lang.pick("Which role should I hire for?", "要招什么岗位？"));
        };
        let dept = match s.department.as_deref() {
            Some(name) => match self.department(Some(name), snap, lang) {
                Ok(d) => Some(d),
                Err(q) => return Outcome::Say(q),
            },
            None if snap.departments.len() == 1 => snap.departments.first(),
            None if snap.departments.is_empty() => None,
            None => {
                let names: Vec<_> = snap.departments.iter().map(|d| d.name.as_str()).collect();
                return Outcome::Say(lang.pick(
                    format!(
                        "Which department should the new {role} join: {}?",
                        names.join(", ")
                    ),
                    format!("新的{role}要加入哪个部门：{}？", names.join("、")),
                ));
            }
        };
        let template = roles::match_title(role);
        let title = match (template, lang) {
            (Some(t), Lang::Zh) => t.title_zh.to_owned(),
            (Some(t), Lang::En) => t.title.to_owned(),
            (None, _) => role.to_owned(),
        };
        let archetype = template
            .map(|t| t.archetype)
            .unwrap_or(Archetype::WarmHearted);
        let skills: Vec<String> = template
            .map(|t| t.skills.iter().map(|x| (*x).to_owned()).collect())
            .unwrap_or_default();
        let lead = dept
            .and_then(|d| d.lead_id)
            .and_then(|id| snap.employees.iter().find(|e| e.id == id));
        let count = s.count.unwrap_or(1).clamp(1, 10);
        let mut proposals = Vec::new();
        for i in 0..count {
            let name = match (&s.name, i) {
                (Some(n), 0) => n.clone(),
                _ => next_name(lang, taken),
            };
            taken.push(name.clone());
            proposals.push(Proposal::Hire {
                name,
                title: title.clone(),
                department_id: dept.map(|d| d.id),
                department_name: dept.map(|d| d.name.clone()),
                manager_id: lead.map(|e| e.id),
                manager_name: lead.map(|e| e.name.clone()),
                archetype,
                skills: skills.clone(),
            });
        }
        let where_ = dept.map(|d| d.name.clone());
        let say = match (lang, where_) {
            (Lang::En, Some(d)) => format!(
                "Here is my proposal for {count} × {title} in {d}. Confirm, edit or cancel."
            ),
            (Lang::En, None) => {
                format!("Here is my proposal for {count} × {title}. Confirm, edit or cancel.")
            }
            (Lang::Zh, Some(d)) => {
                format!("为{d}招聘{count}名{title}的方案如下，请确认、修改或取消。")
            }
            (Lang::Zh, None) => format!("招聘{count}名{title}的方案如下，请确认、修改或取消。"),
        };
        Outcome::Propose(proposals, say)
    }

    /// A task for a person, or for a department (its lead takes it).
    fn assign_task(&self, s: &Slots, snap: &OrgSnapshot, lang: Lang) -> Outcome {
        let Some(description) = s.description.as_deref().filter(|d| !d.trim().is_empty()) else {
            return Outcome::Say(lang.pick("What should the task be?", "要安排什么任务？"));
        };
        let who = s.assignee.as_deref().or(s.name.as_deref());
        let owner = match self.person(who, snap, lang) {
            Ok(e) => e,
            Err(question) => {
                // "ask Engineering to …": the department's lead takes it.
                let dept =
                    who.and_then(
                        |w| match pick(w, &snap.departments, |d| d.id, |d| &d.name) {
                            Pick::One(d) => Some(d),
                            _ => None,
                        },
                    );
                match dept.map(|d| {
                    (
                        d,
                        d.lead_id
                            .and_then(|id| snap.employees.iter().find(|e| e.id == id)),
                    )
                }) {
                    Some((_, Some(lead))) => lead,
                    Some((d, None)) => {
                        return Outcome::Say(lang.pick(
                            format!(
                                "{} has no lead to take the task; who in it should do it?",
                                d.name
                            ),
                            format!("{}还没有负责人，这个任务交给谁？", d.name),
                        ));
                    }
                    None => return Outcome::Say(question),
                }
            }
        };
        Outcome::Propose(
            vec![Proposal::AssignTask {
                employee_id: owner.id,
                name: owner.name.clone(),
                description: description.trim().to_owned(),
            }],
            lang.pick(
                format!("I'll give {} the task: {}.", owner.name, description.trim()),
                format!("我来把这个任务交给{}：{}。", owner.name, description.trim()),
            ),
        )
    }

    /// A requirement (project) in a department, with its own group chat.
    fn create_requirement(&self, s: &Slots, snap: &OrgSnapshot, lang: Lang) -> Outcome {
        let Some(description) = s
            .description
            .as_deref()
            .or(s.topic.as_deref())
            .filter(|d| !d.trim().is_empty())
        else {
            return Outcome::Say(
                lang.pick("What is the requirement about?", "这个需求是关于什么的？"),
            );
        };
        let dept = match s.department.as_deref() {
            Some(name) => match self.department(Some(name), snap, lang) {
                Ok(d) => Some(d),
                Err(q) => return Outcome::Say(q),
            },
            None if snap.departments.len() <= 1 => snap.departments.first(),
            None => {
                let names: Vec<_> = snap.departments.iter().map(|d| d.name.as_str()).collect();
                return Outcome::Say(lang.pick(
                    format!("Which department owns it: {}?", names.join(", ")),
                    format!("这个需求归哪个部门：{}？", names.join("、")),
                ));
            }
        };
        let name: String = description.trim().chars().take(60).collect();
        Outcome::Propose(
            vec![Proposal::CreateRequirement {
                name: name.clone(),
                description: description.trim().to_owned(),
                department_id: dept.map(|d| d.id),
                department_name: dept.map(|d| d.name.clone()),
            }],
            lang.pick(
                format!("I'll open a requirement \"{name}\" with its own group chat."),
                format!("我来新建需求“{name}”，并为它建一个群聊。"),
            ),
        )
    }

    /// A current employee by (fuzzy) name, or the question to ask instead.
    fn person<'a>(
        &self,
        name: Option<&str>,
        snap: &'a OrgSnapshot,
        lang: Lang,
    ) -> Result<&'a EmployeeDto, String> {
        let Some(name) = name else {
            return Err(lang.pick("Who do you mean?", "你说的是谁？"));
        };
        match pick(name, &snap.employees, |e| e.id, |e| &e.name) {
            Pick::One(e) => Ok(e),
            Pick::Many(names) => Err(lang.pick(
                format!(
                    "Several people match \"{name}\": {}. Which one?",
                    names.join(", ")
                ),
                format!("有好几位符合“{name}”：{}。是哪一位？", names.join("、")),
            )),
            Pick::None => Err(lang.pick(
                format!("I can't find anyone called \"{name}\" in the company."),
                format!("公司里没有找到叫“{name}”的人。"),
            )),
        }
    }

    /// A department by (fuzzy) name, or the question to ask instead.
    fn department<'a>(
        &self,
        name: Option<&str>,
        snap: &'a OrgSnapshot,
        lang: Lang,
    ) -> Result<&'a DepartmentDto, String> {
        let Some(name) = name else {
            return Err(lang.pick("Which department?", "哪个部门？"));
        };
        let all: Vec<&str> = snap.departments.iter().map(|d| d.name.as_str()).collect();
        match pick(name, &snap.departments, |d| d.id, |d| &d.name) {
            Pick::One(d) => Ok(d),
            Pick::Many(names) => Err(lang.pick(
                format!("Several departments match \"{name}\": {}. Which one?", names.join(", ")),
                format!("有几个部门符合“{name}”：{}。是哪一个？", names.join("、")),
            )),
            Pick::None if all.is_empty() => Err(lang.pick(
                format!("There is no department called \"{name}\" yet — the company has no departments. Create it first?"),
                format!("还没有“{name}”这个部门——公司目前没有任何部门。先新建它吗？"),
            )),
            Pick::None => Err(lang.pick(
                format!("There is no department called \"{name}\". Departments: {}.", all.join(", ")),
                format!("没有叫“{name}”的部门。现有部门：{}。", all.join("、")),
            )),
        }
    }

    /// Answers from the database only: who is where, headcounts, leads.
    fn facts(
        &self,
        s: &Slots,
        snap: &OrgSnapshot,
        lang: Lang,
        tasks: &[TaskDto],
        requirements: &[RequirementDto],
    ) -> String {
        let tasks_of = |id: i32| -> Vec<&str> {
            tasks
                .iter()
                .filter(|t| t.owner_id == id)
                .map(|t| t.description.as_str())
                .collect()
        };
        let dept_name = |id: Option<i32>| {
            id.and_then(|id| snap.departments.iter().find(|d| d.id == id))
                .map(|d| d.name.clone())
        };
        if let Some(name) = s.name.as_deref().or(s.assignee.as_deref()) {
            return match self.person(Some(name), snap, lang) {
                Err(q) => q,
                Ok(e) => {
                    let dept = dept_name(e.department_id)
                        .unwrap_or_else(|| lang.pick("no department", "未分配部门"));
                    let manager = e
                        .manager_id
                        .and_then(|m| snap.employees.iter().find(|x| x.id == m))
                        .map(|m| m.name.clone());
                    let mut out = match (lang, manager) {
                        (Lang::En, Some(m)) => format!(
                            "{} is a {} in {dept}, reporting to {m}. Status: {}.",
                            e.name,
                            e.title,
                            e.status.as_str()
                        ),
                        (Lang::En, None) => format!(
                            "{} is a {} in {dept}. Status: {}.",
                            e.name,
                            e.title,
                            e.status.as_str()
                        ),
                        (Lang::Zh, Some(m)) => format!(
                            "{}是{}的{}，汇报给{m}。状态：{}。",
                            e.name,
                            dept,
                            e.title,
                            e.status.as_str()
                        ),
                        (Lang::Zh, None) => format!(
                            "{}是{}的{}。状态：{}。",
                            e.name,
                            dept,
                            e.title,
                            e.status.as_str()
                        ),
                    };
                    let mine = tasks_of(e.id);
                    out.push(' ');
                    out.push_str(&if mine.is_empty() {
                        lang.pick("No pending tasks.", "目前没有待办任务。")
                    } else {
                        lang.pick(
                            format!("Pending tasks: {}.", mine.join("; ")),
                            format!("待办任务：{}。", mine.join("；")),
                        )
                    });
                    out
                }
            };
        }
        if let Some(name) = s.department.as_deref() {
            return match self.department(Some(name), snap, lang) {
                Err(q) => q,
                Ok(d) => {
                    let people: Vec<_> = snap
                        .employees
                        .iter()
                        .filter(|e| e.department_id == Some(d.id))
                        .map(|e| format!("{} ({})", e.name, e.title))
                        .collect();
                    let subs: Vec<_> = snap
                        .departments
                        .iter()
                        .filter(|x| x.parent_id == Some(d.id))
                        .map(|x| x.name.as_str())
                        .collect();
                    let lead = d
                        .lead_id
                        .and_then(|id| snap.employees.iter().find(|e| e.id == id))
                        .map(|e| e.name.clone());
                    let mut out = lang.pick(
                        format!("{} has {}", d.name, people_count(people.len())),
                        format!("{}有{}人", d.name, people.len()),
                    );
                    if !people.is_empty() {
                        out.push_str(&lang.pick(
                            format!(": {}", people.join(", ")),
                            format!("：{}", people.join("、")),
                        ));
                    }
                    out.push('.');
                    if let Some(l) = lead {
                        out.push_str(&lang.pick(format!(" Lead: {l}."), format!(" 负责人：{l}。")));
                    }
                    if !subs.is_empty() {
                        out.push_str(&lang.pick(
                            format!(" Sub-departments: {}.", subs.join(", ")),
                            format!(" 下属部门：{}。", subs.join("、")),
                        ));
                    }
                    out
                }
            };
        }
        let mut out = lang.pick(
            format!(
                "{} in {}.",
                people_count(snap.employees.len()),
                match snap.departments.len() {
                    1 => "1 department".to_owned(),
                    n => format!("{n} departments"),
                }
            ),
            format!(
                "公司共有{}人，{}个部门。",
                snap.employees.len(),
                snap.departments.len()
            ),
        );
        for d in &snap.departments {
            let n = snap
                .employees
                .iter()
                .filter(|e| e.department_id == Some(d.id))
                .count();
            out.push_str(&lang.pick(
                format!("\n· {}: {n}", d.name),
                format!("\n· {}：{n}人", d.name),
            ));
        }
        let unassigned = snap
            .employees
            .iter()
            .filter(|e| e.department_id.is_none())
            .count();
        if unassigned > 0 {
            out.push_str(&lang.pick(
                format!("\n· not in a department: {unassigned}"),
                format!("\n· 未分配部门：{unassigned}人"),
            ));
        }
        let open = requirements.iter().filter(|r| r.status == "open").count();
        out.push_str(&lang.pick(
            format!(
                "\nPending tasks: {}. Open requirements: {open}. Nothing is waiting for your approval.",
                tasks.len()
            ),
            format!(
                "\n待办任务：{}个。进行中的需求：{open}个。没有等待你审批的事项。",
                tasks.len()
            ),
        ));
        out
    }

    // ---------- confirm / cancel / undo ----------

    pub async fn confirm(
        &self,
        action_id: i32,
        edits: Option<HireEdits>,
    ) -> SecretaryResult<ActionDto> {
        let row = self.require(action_id, ActionStatus::Proposed).await?;
        // Claim it first: of two clicks racing on Confirm, exactly one applies it.
        self.claim(action_id, ActionStatus::Proposed, CLAIMED)
            .await?;
        let mut proposal: Proposal = serde_json::from_value(row.proposal.clone())
            .map_err(|e| SecretaryError::Storage(DbErr::Custom(format!("bad proposal: {e}"))))?;
        if let (
            Some(ed),
            Proposal::Hire {
                name,
                title,
                department_id,
                department_name,
                manager_id,
                manager_name,
                archetype,
                ..
            },
        ) = (edits, &mut proposal)
        {
            let snap = self.org.snapshot().await?;
            if let Some(v) = ed.name {
                *name = v;
            }
            if let Some(v) = ed.title {
                *title = v;
            }
            // The card keeps names for display: they follow the edited ids.
            if let Some(id) = ed.department_id {
                *department_id = Some(id);
                *department_name = snap
                    .departments
                    .iter()
                    .find(|d| d.id == id)
                    .map(|d| d.name.clone());
            }
            if let Some(id) = ed.manager_id {
                *manager_id = Some(id);
                *manager_name = snap
                    .employees
                    .iter()
                    .find(|e| e.id == id)
                    .map(|e| e.name.clone());
            }
            if let Some(v) = ed.archetype {
                *archetype = v;
            }
        }
        let applied = self.apply(&proposal).await;
        let mut am = row.into_active_model();
        am.proposal = Set(serde_json::to_value(&proposal).unwrap_or_default());
        match applied {
            Ok((undo, diff)) => {
                am.status = Set(ActionStatus::Applied.as_str().into());
                am.diff = Set(Some(diff));
                am.undo_until = Set(undo
                    .as_ref()
                    .map(|_| Utc::now() + ChronoDuration::minutes(UNDO_WINDOW_MINUTES)));
                am.undo = Set(undo.map(|u| serde_json::to_value(u).unwrap_or_default()));
                am.error = Set(None);
            }
            Err(e) => {
                am.status = Set(ActionStatus::Failed.as_str().into());
                am.error = Set(Some(e.to_string()));
            }
        }
        let row = q::update_action(&self.db, am).await?;
        Ok(action_dto(&row))
    }

    pub async fn cancel(&self, action_id: i32) -> SecretaryResult<ActionDto> {
        self.require(action_id, ActionStatus::Proposed).await?;
        self.claim(
            action_id,
            ActionStatus::Proposed,
            ActionStatus::Cancelled.as_str(),
        )
        .await?;
        let row = self.require(action_id, ActionStatus::Cancelled).await?;
        Ok(action_dto(&row))
    }

    pub async fn undo(&self, action_id: i32) -> SecretaryResult<ActionDto> {
        let row = self.require(action_id, ActionStatus::Applied).await?;
        let (Some(undo), Some(until)) = (row.undo.clone(), row.undo_until) else {
            return Err(SecretaryError::NotUndoable);
        };
        if Utc::now() > until {
            return Err(SecretaryError::UndoExpired);
        }
        let undo: Undo = serde_json::from_value(undo)
            .map_err(|e| SecretaryError::Storage(DbErr::Custom(format!("bad undo: {e}"))))?;
        self.claim(action_id, ActionStatus::Applied, CLAIMED)
            .await?;
        if let Err(e) = self.reverse(undo).await {
            // Nothing was reversed: the action stays applied (and undoable while time lasts).
            q::transition_action(&self.db, action_id, CLAIMED, ActionStatus::Applied.as_str())
                .await?;
            return Err(e.into());
        }
        let mut am = row.into_active_model();
        am.status = Set(ActionStatus::Undone.as_str().into());
        Ok(action_dto(&q::update_action(&self.db, am).await?))
    }

    async fn claim(&self, id: i32, from: ActionStatus, to: &str) -> SecretaryResult<()> {
        if q::transition_action(&self.db, id, from.as_str(), to).await? {
            Ok(())
        } else {
            Err(SecretaryError::WrongStatus {
                id,
                status: "being handled",
                expected: from.as_str(),
            })
        }
    }

    async fn require(
        &self,
        id: i32,
        expected: ActionStatus,
    ) -> SecretaryResult<secretary_action::Model> {
        let row = q::find_action(&self.db, id)
            .await?
            .ok_or(SecretaryError::NoAction(id))?;
        let status = ActionStatus::parse(&row.status).unwrap_or(ActionStatus::Failed);
        if status != expected {
            return Err(SecretaryError::WrongStatus {
                id,
                status: status.as_str(),
                expected: expected.as_str(),
            });
        }
        Ok(row)
    }

    /// Applies a proposal through the org service: (how to undo it, the diff).
    async fn apply(&self, p: &Proposal) -> Result<(Option<Undo>, String), OrgError> {
        let org = &self.org;
        Ok(match p {
            Proposal::Hire {
                name,
                title,
                department_id,
                department_name,
                manager_id,
                manager_name,
                archetype,
                ..
            } => {
                let e = org
                    .hire(NewEmployee {
                        name: name.clone(),
                        title: title.clone(),
                        department_id: *department_id,
                        manager_id: *manager_id,
                        archetype: Some(*archetype),
                    })
                    .await?;
                if let Err(err) = self.welcome(&e).await {
                    tracing::warn!(error = %err, employee = e.id, "could not add the new hire to their department chat");
                }
                let mut diff = format!("+1 {} ({})", e.title, e.name);
                if let Some(d) = department_name {
                    diff.push_str(&format!(" → {d}"));
                }
                if let (Some(_), Some(m)) = (manager_id, manager_name) {
                    diff.push_str(&format!(", reports to {m}"));
                }
                (Some(Undo::RemoveHire { employee_id: e.id }), diff)
            }
            Proposal::Fire { employee_id, name } => {
                let snap = org.snapshot().await?;
                let reports = snap
                    .employees
                    .iter()
                    .filter(|e| e.manager_id == Some(*employee_id))
                    .map(|e| e.id)
                    .collect();
                let led = snap
                    .departments
                    .iter()
                    .filter(|d| d.lead_id == Some(*employee_id))
                    .map(|d| d.id)
                    .collect();
                org.fire(FireEmployee {
                    employee_id: *employee_id,
                })
                .await?;
                (
                    Some(Undo::Unfire {
                        employee_id: *employee_id,
                        reports,
                        led_departments: led,
                    }),
                    format!("−1 {name} (record kept)"),
                )
            }
            Proposal::Transfer {
                employee_id,
                name,
                department_id,
                department_name,
            } => {
                let snap = org.snapshot().await?;
                let from = snap
                    .employees
                    .iter()
                    .find(|e| e.id == *employee_id)
                    .and_then(|e| e.department_id);
                org.move_employee(MoveEmployee {
                    employee_id: *employee_id,
                    department_id: Some(*department_id),
                })
                .await?;
                let from_name = from
                    .and_then(|id| snap.departments.iter().find(|d| d.id == id))
                    .map(|d| d.name.clone())
                    .unwrap_or_else(|| "—".into());
                (
                    Some(Undo::MoveBack {
                        employee_id: *employee_id,
                        department_id: from,
                    }),
                    format!("{name}: {from_name} → {department_name}"),
                )
            }
            Proposal::CreateDepartment {
                name,
                parent_id,
                parent_name,
            } => {
                let d = org
                    .create_department(NewDepartment {
                        name: name.clone(),
                        parent_id: *parent_id,
                        mission: None,
                    })
                    .await?;
                let diff = match parent_name {
                    Some(p) => format!("+ department {} (in {p})", d.name),
                    None => format!("+ department {}", d.name),
                };
                (
                    Some(Undo::DeleteDepartment {
                        department_id: d.id,
                    }),
                    diff,
                )
            }
            Proposal::RenameDepartment {
                department_id,
                old_name,
                new_name,
            } => {
                org.rename_department(RenameDepartment {
                    id: *department_id,
                    name: new_name.clone(),
                })
                .await?;
                (
                    Some(Undo::RenameBack {
                        department_id: *department_id,
                        name: old_name.clone(),
                    }),
                    format!("department {old_name} → {new_name}"),
                )
            }
            Proposal::AssignTask {
                employee_id,
                name,
                description,
            } => {
                let t = self
                    .work
                    .assign(*employee_id, description, "secretary")
                    .await?;
                (
                    Some(Undo::WithdrawTask { task_id: t.id }),
                    format!("+ task for {name}: {description}"),
                )
            }
            Proposal::CreateRequirement {
                name,
                description,
                department_id,
                department_name,
            } => {
                let r = self
                    .work
                    .create_requirement(name, description, *department_id)
                    .await?;
                let diff = match department_name {
                    Some(d) => format!("+ requirement \"{name}\" in {d}, with its group chat"),
                    None => format!("+ requirement \"{name}\", with its group chat"),
                };
                (
                    Some(Undo::RemoveRequirement {
                        requirement_id: r.id,
                        chat_id: r.chat_id,
                    }),
                    diff,
                )
            }
            Proposal::SetPolicy {
                level,
                daily_budget_usd,
            } => {
                let before = org.company().await?.ok_or(OrgError::CompanyMissing)?;
                let mut diff = Vec::new();
                if let Some(b) = daily_budget_usd {
                    org.set_budget(SetBudget {
                        daily_budget_usd: *b,
                    })
                    .await?;
                    diff.push(format!(
                        "daily budget ${:.2} → ${b:.2}",
                        before.daily_budget_usd
                    ));
                }
                if let Some(l) = level {
                    org.set_approval_policy(*l).await?;
                    diff.push(format!(
                        "approvals {} → {}",
                        before.approval_policy.as_str(),
                        l.as_str()
                    ));
                }
                (
                    Some(Undo::RestorePolicy {
                        level: before.approval_policy,
                        daily_budget_usd: before.daily_budget_usd,
                    }),
                    diff.join("; "),
                )
            }
        })
    }

    async fn reverse(&self, undo: Undo) -> Result<(), OrgError> {
        let org = &self.org;
        match undo {
            Undo::RemoveHire { employee_id } => org.undo_hire(employee_id).await,
            Undo::Unfire {
                employee_id,
                reports,
                led_departments,
            } => org
                .undo_fire(employee_id, &reports, &led_departments)
                .await
                .map(|_| ()),
            Undo::MoveBack {
                employee_id,
                department_id,
            } => org
                .move_employee(MoveEmployee {
                    employee_id,
                    department_id,
                })
                .await
                .map(|_| ()),
            Undo::DeleteDepartment { department_id } => {
                org.delete_department(DeleteDepartment {
                    id: department_id,
                    reassign_to: None,
                })
                .await
            }
            Undo::RenameBack {
                department_id,
                name,
            } => org
                .rename_department(RenameDepartment {
                    id: department_id,
                    name,
                })
                .await
                .map(|_| ()),
            Undo::WithdrawTask { task_id } => {
                if self.work.withdraw_task(task_id).await? {
                    Ok(())
                } else {
                    Err(OrgError::InvalidInput(
                        "the task has already been worked on".into(),
                    ))
                }
            }
            Undo::RemoveRequirement {
                requirement_id,
                chat_id,
            } => Ok(self
                .work
                .remove_requirement(requirement_id, chat_id)
                .await?),
            Undo::RestorePolicy {
                level,
                daily_budget_usd,
            } => {
                org.set_budget(SetBudget { daily_budget_usd }).await?;
                org.set_approval_policy(level).await.map(|_| ())
            }
        }
    }
}

/// What fuzzy matching found among `items`.
enum Pick<'a, T> {
    One(&'a T),
    /// The names of every item that fits equally well.
    Many(Vec<&'a str>),
    None,
}

fn pick<'a, T>(
    query: &str,
    items: &'a [T],
    id: impl Fn(&T) -> i32,
    name: impl Fn(&'a T) -> &'a str,
) -> Pick<'a, T> {
    let candidates: Vec<(i32, &str)> = items.iter().map(|x| (id(x), name(x))).collect();
    match match_name(query, &candidates) {
        NameMatch::Exact(i) | NameMatch::Unique(i) => items
            .iter()
            .find(|x| id(x) == i)
            .map_or(Pick::None, Pick::One),
        NameMatch::Ambiguous(ids) => Pick::Many(
            items
                .iter()
                .filter(|x| ids.contains(&id(x)))
                .map(name)
                .collect(),
        ),
        NameMatch::None => Pick::None,
    }
}

fn people_count(n: usize) -> String {
    if n == 1 {
        "1 person".into()
    } else {
        format!("{n} people")
    }
}

fn clarify(lang: Lang) -> String {
    lang.pick(
        "I'm not sure what you'd like me to do. Could you say it another way? For example: \"hire a QA engineer for Engineering\".",
        "我不太确定你想让我做什么，能换个说法吗？比如：“给工程部招一个测试工程师”。",
    )
}

fn capabilities(lang: Lang) -> String {
    lang.pick(
        "Right now I can hire, fire and move people, create and rename departments, give someone a task, open a requirement, change the approval policy and daily budget, and tell you who is where and what is pending.",
        "目前我可以招人、辞退、调岗，新建和重命名部门，给员工安排任务，新建需求，调整审批策略和每日预算，以及告诉你谁在哪个部门、有哪些待办。",
    )
}

const NAMES_EN: [&str; 24] = [
    "Alice Chen",
    "Bob Martin",
    "Carol Diaz",
    "Dan Okafor",
    "Eve Novak",
    "Frank Li",
    "Grace Kim",
    "Hugo Silva",
    "Ivy Park",
    "Jack Moreau",
    "Kara Singh",
    "Leo Rossi",
    "Mia Tanaka",
    "Nate Cohen",
    "Olga Petrova",
    "Priya Nair",
    "Quinn Walsh",
    "Ravi Shah",
    "Sara Lind",
    "Tom Becker",
    "Uma Rao",
    "Victor Hugo",
    "Wen Zhou",
    "Yara Haddad",
];
const NAMES_ZH: [&str; 24] = [
    "张伟", "王芳", "李娜", "刘洋", "陈静", "杨磊", "赵敏", "黄勇", "周婷", "吴昊", "徐丽", "孙杰",
    "马超", "朱琳", "胡斌", "郭佳", "何平", "高翔", "林悦", "罗成", "梁静", "宋涛", "谢晨", "韩雪",
];

/// The first name from the pool nobody in the company has; numbered once the pool runs out.
fn next_name(lang: Lang, taken: &[String]) -> String {
    let pool: &[&str] = match lang {
        Lang::En => &NAMES_EN,
        Lang::Zh => &NAMES_ZH,
    };
    let free = |n: &str| !taken.iter().any(|t| t.eq_ignore_ascii_case(n));
    if let Some(n) = pool.iter().find(|n| free(n)) {
        return (*n).to_owned();
    }
    (2..)
        .flat_map(|i| pool.iter().map(move |n| format!("{n} {i}")))
        .find(|n| free(n))
        .unwrap_or_else(|| "New Hire".into())
}

fn message_dto(
    m: &secretary_message::Model,
    actions: Vec<&secretary_action::Model>,
) -> SecretaryMessageDto {
    SecretaryMessageDto {
        id: m.id,
        at: m.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        role: if m.role == "boss" {
            Speaker::Boss
        } else {
            Speaker::Secretary
        },
        text: m.text.clone(),
        actions: actions.into_iter().map(action_dto).collect(),
    }
}

fn action_dto(a: &secretary_action::Model) -> ActionDto {
    let proposal: Option<Proposal> = serde_json::from_value(a.proposal.clone()).ok();
    ActionDto {
        id: a.id,
        status: ActionStatus::parse(&a.status).unwrap_or(ActionStatus::Failed),
        destructive: proposal.as_ref().is_some_and(Proposal::is_destructive),
        proposal: proposal.unwrap_or(Proposal::SetPolicy {
            level: None,
            daily_budget_usd: None,
        }),
        diff: a.diff.clone(),
        undo_until: a
            .undo_until
            .map(|t| t.to_rfc3339_opts(chrono::SecondsFormat::Secs, true)),
        error: a.error.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn new_names_avoid_people_already_there() {
        let taken = vec!["Alice Chen".to_owned(), "bob martin".to_owned()];
        assert_eq!(next_name(Lang::En, &taken), "Carol Diaz");
        let all: Vec<String> = NAMES_ZH.iter().map(|n| (*n).to_owned()).collect();
        assert_eq!(next_name(Lang::Zh, &all), "张伟 2");
    }
}
