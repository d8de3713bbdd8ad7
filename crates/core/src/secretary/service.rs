//! The secretary's turn: boss text → intents (rule tier) → names resolved against the
//! real company → an answer from database facts, a clarifying question, or action cards
//! the boss confirms, edits or cancels; applied actions can be undone for 10 minutes.
//!
//! Everything goes through the org service; nothing here changes the org directly.

use chrono::Utc;
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{secretary_action, secretary_message};
use cubicle_store::{Db, DbErr, secretary as q};
use sea_orm::ActiveValue::{NotSet, Set};

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use tokio_util::task::TaskTracker;

use super::actions::*;
use super::intent::{Intent, IntentKind, Parse};
use super::rules::{TypedAnswer, parse_rules_knowing, typed_answer};
use super::text::{Pick, capabilities, clarify, pick, pick_department};
use crate::chat::Chats;
use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};
use crate::gateway::{CallContext, Gateway, Purpose};
use crate::mind;
use crate::org::{DepartmentDto, EmployeeDto, OrgSnapshot};
use crate::org::{OrgError, OrgService};
use crate::providers::Providers;
use crate::roles;
use crate::types::*;
use crate::work::Work;
use cubicle_llm::{ChatMessage, CompletionRequest};

/// Messages the chat page loads at once.
pub const HISTORY_LIMIT: u64 = 200;
/// Small talk stays small, whatever the model would like to write.
const SMALL_TALK_MAX_TOKENS: u32 = 80;
/// A hire the rules read but could not name a role for, once a card fits the words: as
/// sure as a hire that named a catalogue role with a weak trigger ("we need …").
const FITTED_ROLE_CONFIDENCE: f32 = 0.88;
const SMALL_TALK_MAX_CHARS: usize = 300;

/// An action's status as an error message says it.
fn status_words(status: ActionStatus) -> String {
    match status {
        ActionStatus::InProgress => "being handled".to_owned(),
        other => other.to_string(),
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SecretaryError {
    #[error("say something first")]
    Empty,
    #[error("action {0} does not exist")]
    NoAction(i32),
    #[error("action {id} is {}; only a {expected} action can do that", status_words(*.status))]
    WrongStatus {
        id: i32,
        status: ActionStatus,
        expected: ActionStatus,
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
    pub(super) db: Db,
    pub(super) org: OrgService,
    pub(super) chats: Chats,
    /// Meetings the secretary convenes are moderated (SPEC §9).
    pub(super) meetings: crate::meeting::Meetings,
    pub(super) approvals: crate::approvals::Approvals,
    /// The humans of the company, whom the secretary invites.
    pub(super) people: crate::people::People,
    gateway: Gateway,
    providers: Arc<Providers>,
    pub(super) work: Work,
    bus: EventBus,
    /// Numbers the streamed replies so the UI follows the right one.
    streams: Arc<AtomicU32>,
    /// Background work (introductions) so callers can wait for it before exiting.
    tasks: TaskTracker,
}

/// The services the secretary acts through.
pub struct SecretaryServices {
    pub db: Db,
    pub org: OrgService,
    pub chats: Chats,
    pub meetings: crate::meeting::Meetings,
    pub approvals: crate::approvals::Approvals,
    pub people: crate::people::People,
    pub gateway: Gateway,
    pub providers: Arc<Providers>,
    pub work: Work,
    pub bus: EventBus,
}

impl std::fmt::Debug for Secretary {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Secretary").finish_non_exhaustive()
    }
}

/// A turn as stored: both messages, and each card's id with whether it is destructive.
struct StoredTurn {
    boss: secretary_message::Model,
    reply: secretary_message::Model,
    cards: Vec<(i32, bool)>,
}

/// What the secretary makes of one intent.
pub(super) enum Outcome {
    Say(String),
    Propose(Vec<Proposal>, String),
}

impl Secretary {
    pub fn new(services: SecretaryServices) -> Self {
        let SecretaryServices {
            db,
            org,
            chats,
            meetings,
            approvals,
            people,
            gateway,
            providers,
            work,
            bus,
        } = services;
        Self {
            db,
            org,
            chats,
            meetings,
            approvals,
            people,
            gateway,
            providers,
            work,
            bus,
            streams: Arc::new(AtomicU32::new(0)),
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

    /// A new hire (already in their department's group chat: the hire put them there)
    /// posts a self-introduction written by their own model. The writing runs in the background
    /// (a model may take seconds); a failure is logged, never faked.
    pub(super) async fn welcome(&self, e: &EmployeeDto) -> Result<(), DbErr> {
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
        // The hire already put them in this chat; the greeting goes there.
        let chat = self.chats.department_chat(dept.id, &dept.name).await?;
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
                max_retries: None,
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
            // Speaking as someone else, or in another language than the company's, is
            // discarded and regenerated once (SPEC §10); then the app introduces them itself.
            for attempt in 1..=2 {
                match gateway.complete(&ctx, route.clone(), req.clone()).await {
                    Ok(reply) => match mind::introduction_in(&reply.value.text, &me, &company, &others) {
                        Some(text) => {
                            if let Err(err) = chats.post_as_employee(chat.id, me.id, &text).await {
                                // e.g. the hire was undone meanwhile: the row is gone.
                                tracing::info!(error = %err, employee = me.id, "introduction not posted");
                            }
                            return;
                        }
                        None => tracing::warn!(employee = me.id, attempt, "introduction discarded (identity or language)"),
                    },
                    Err(err) => {
                        tracing::warn!(error = %err, employee = me.id, "no introduction: the model call failed");
                        return;
                    }
                }
            }
            let text = mind::own_introduction(&me, &company);
            if let Err(err) = chats.post_as_employee(chat.id, me.id, &text).await {
                tracing::info!(error = %err, employee = me.id, "introduction not posted");
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
        // Before the company is set up the secretary speaks English.
        let lang = snap.company.as_ref().map_or(Language::En, |c| c.language);
        // The instruction's trace id, minted before the model tier is asked so the call
        // that understood it is part of its story (SPEC §10). A turn that proposes
        // nothing records no trace; its call keeps the id, which then names no story.
        let trace = crate::trace::new_id();
        let parse = self.parse_with(text, &snap, Some(&trace)).await;
        let (lines, proposals) = self.answer(text, &parse, &snap, lang).await?;
        let StoredTurn { boss, reply, cards } =
            self.record_turn(text, &lines, &proposals, trace).await?;
        // What the model tier proposes always waits for the boss, even with --yes.
        if auto_confirm && parse.tier == super::intent::Tier::Rules {
            for (id, destructive) in &cards {
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

    /// The reply's lines and the cards it proposes: small talk written by the model, or
    /// one answer per intent; a clarifying question when nothing came of it.
    async fn answer(
        &self,
        text: &str,
        parse: &Parse,
        snap: &OrgSnapshot,
        lang: Language,
    ) -> SecretaryResult<(Vec<String>, Vec<Proposal>)> {
        let mut lines = Vec::new();
        let mut proposals = Vec::new();
        // Names proposed earlier in this message count as taken for the next hire.
        let mut taken: Vec<String> = snap.employees.iter().map(|e| e.name.clone()).collect();
        let small_talk = parse.intents.iter().all(|i| i.kind == IntentKind::Chitchat);
        let written = match small_talk {
            true => self.small_talk(text, snap, lang).await,
            false => None,
        };
        let todo: &[Intent] = if written.is_some() {
            &[]
        } else {
            &parse.intents
        };
        lines.extend(written);
        // Only the rules' own reading of a bare yes/no answers a card.
        let typed = match parse.tier {
            super::intent::Tier::Rules => typed_answer(text),
            super::intent::Tier::Model => None,
        };
        for intent in todo {
            match self
                .handle(intent, parse.tier, snap, lang, &mut taken, typed)
                .await?
            {
                Outcome::Say(s) => lines.push(s),
                Outcome::Propose(ps, s) => {
                    lines.push(s);
                    proposals.extend(ps);
                }
            }
        }
        if lines.is_empty() {
            lines.push(clarify(lang, snap));
        }
        Ok((lines, proposals))
    }

    /// Stores the boss's message, the reply and its cards in one transaction.
    async fn record_turn(
        &self,
        text: &str,
        lines: &[String],
        proposals: &[Proposal],
        trace: String,
    ) -> SecretaryResult<StoredTurn> {
        let now = Utc::now();
        let txn = self.db.begin_write().await?;
        // A turn that proposes actions is an instruction: what its cards cause carries
        // its trace (SPEC §10).
        let trace = if proposals.is_empty() {
            None
        } else {
            let origin = crate::trace::Origin::Secretary;
            Some(crate::trace::start_as(&txn, trace, origin, text, None, now).await?)
        };
        let message = |role: Speaker, text: String| secretary_message::ActiveModel {
            id: NotSet,
            at: Set(now),
            role: Set(role),
            text: Set(text),
            trace_id: Set(trace.clone()),
        };
        let boss = q::insert_message(&txn, message(Speaker::Boss, text.to_owned())).await?;
        let reply = q::insert_message(&txn, message(Speaker::Secretary, lines.join("\n"))).await?;
        let mut cards = Vec::new();
        for p in proposals {
            let row = q::insert_action(
                &txn,
                secretary_action::ActiveModel {
                    id: NotSet,
                    message_id: Set(reply.id),
                    created_at: Set(now),
                    kind: Set(p.kind()),
                    status: Set(ActionStatus::Proposed),
                    proposal: Set(serde_json::to_value(p).unwrap_or_default()),
                    undo: Set(None),
                    diff: Set(None),
                    undo_until: Set(None),
                    error: Set(None),
                },
            )
            .await?;
            cards.push((row.id, p.is_destructive()));
        }
        txn.commit().await?;
        Ok(StoredTurn { boss, reply, cards })
    }

    /// Small talk is written by the secretary's model and streamed to the UI as it
    /// comes. It may only be pleasant: the prompt forbids claims about the company, and
    /// anything the boss wants done goes through the rules and cards. `None` (the fixed
    /// greeting is used) when no model answers. Like the model tier, only a configured
    /// model writes it: the 135M built-in rambles and invents colleagues ("I'm Emily, the
    /// team's leader"), which a secretary whose answers must be true cannot say.
    async fn small_talk(&self, text: &str, snap: &OrgSnapshot, lang: Language) -> Option<String> {
        use futures::StreamExt;
        let route = self
            .providers
            .configured_route(Purpose::Intent)
            .await
            .ok()
            .flatten()?;
        let (company, boss) = snap
            .company
            .as_ref()
            .map(|c| (c.name.as_str(), c.boss_name.as_str()))
            .unwrap_or(("the company", "the boss"));
        let req = CompletionRequest {
            messages: vec![
                ChatMessage::system(format!(
                    "You are the secretary of {company}, an AI company run by {boss} (the boss). \
                     Answer the boss's small talk in one or two short, warm sentences in {language}. \
                     Never claim you did anything and never state facts about the company or its people. \
                     If it fits, remind them you can hire, move or let people go, create departments, \
                     assign tasks and report on the company.",
                    language = lang.pick("English", "Simplified Chinese"),
                )),
                ChatMessage::user(text),
            ],
            max_tokens: Some(SMALL_TALK_MAX_TOKENS),
            temperature: Some(0.7),
            ..Default::default()
        };
        let ctx = CallContext::new(Purpose::Intent);
        let mut stream = match self.gateway.stream(&ctx, route, req).await {
            Ok(reply) => reply.value,
            Err(e) => {
                tracing::info!(error = %e, "small talk: no model answered; using the fixed greeting");
                return None;
            }
        };
        let stream_id = self.streams.fetch_add(1, Ordering::Relaxed) + 1;
        let mut so_far = String::new();
        while let Some(item) = stream.next().await {
            match item {
                Ok(cubicle_llm::StreamEvent::Delta(d)) => {
                    so_far.push_str(&d);
                    if so_far.chars().count() > SMALL_TALK_MAX_CHARS {
                        break;
                    }
                    self.bus.publish(DomainEvent::SecretaryReplyDelta {
                        stream_id,
                        text: so_far.trim_start().to_owned(),
                    });
                }
                Ok(cubicle_llm::StreamEvent::Done { .. }) => break,
                Err(e) => {
                    tracing::info!(error = %e, "small talk: the stream broke; using the fixed greeting");
                    return None;
                }
            }
        }
        let reply: String = so_far.trim().chars().take(SMALL_TALK_MAX_CHARS).collect();
        (!reply.is_empty()).then_some(reply)
    }

    /// What the secretary understands from a message, with no change to the company:
    /// the rules when they are sure, else the model tier when one is configured.
    pub async fn understand(&self, text: &str) -> SecretaryResult<Parse> {
        let snap = self.org.snapshot().await?;
        Ok(self.parse_with(text.trim(), &snap, None).await)
    }

    async fn parse_with(&self, text: &str, snap: &OrgSnapshot, trace: Option<&str>) -> Parse {
        let known: Vec<&str> = snap.employees.iter().map(|e| e.name.as_str()).collect();
        let mut rules = parse_rules_knowing(text, &known);
        self.fit_roles(text, &mut rules).await;
        if rules
            .intents
            .iter()
            .any(|i| i.is_confident() && i.kind != IntentKind::Unknown)
        {
            return rules;
        }
        // The rules are unsure: ask the model tier, keeping the rules' answer if it fails.
        match self.model_parse(text, snap, trace).await {
            Some(mut parse) => {
                self.fit_roles(text, &mut parse).await;
                parse
            }
            None => rules,
        }
    }

    /// A hire whose role the words did not name from the built-in catalogue ("hire a
    /// growth hacker into Marketing") takes the company's card that fits the message
    /// best, imported cards included; with none fitting it stays a question.
    async fn fit_roles(&self, text: &str, parse: &mut Parse) {
        let roleless = |i: &Intent| i.kind == IntentKind::HireEmployee && i.slots.role.is_none();
        if !parse.intents.iter().any(roleless) {
            return;
        }
        let cards = match roles::library(&self.db).await {
            Ok(cards) => cards,
            Err(e) => {
                tracing::warn!(error = %e, "could not read the role cards");
                return;
            }
        };
        for intent in parse.intents.iter_mut().filter(|i| roleless(i)) {
            let exclude: Vec<&str> = intent.slots.department.as_deref().into_iter().collect();
            if let Some(fit) = roles::best_fit(text, &exclude, &cards) {
                intent.slots.role = Some(fit.card.card.name.clone());
                intent.slots.role_fit = fit.words;
                intent.confidence = intent.confidence.max(FITTED_ROLE_CONFIDENCE);
            }
        }
    }

    /// The model tier (SPEC §3): the intent route's model, constrained to the `Parse`
    /// schema through the gateway. `None` when it fails or is no surer than the rules;
    /// its intents are then still held to the same confidence bar.
    async fn model_parse(
        &self,
        text: &str,
        snap: &OrgSnapshot,
        trace: Option<&str>,
    ) -> Option<Parse> {
        let route = self
            .providers
            .configured_route(Purpose::Intent)
            .await
            .ok()
            .flatten()?;
        let departments: Vec<&str> = snap.departments.iter().map(|d| d.name.as_str()).collect();
        let people: Vec<&str> = snap.employees.iter().map(|e| e.name.as_str()).collect();
        let cards = roles::library(&self.db).await.unwrap_or_default();
        let roles: Vec<&str> = cards.iter().map(|c| c.card.name.as_str()).collect();
        let system = format!(
            "You turn the boss's message into intents for an AI company's secretary. \
             Kinds: hire_employee (slots role, department, name, count), fire_employee (name), \
             transfer_employee (name, target_department), create_department (department), \
             rename_department (department, new_name), delete_department (department), \
             assign_task (assignee, description, participants, requirement), \
             create_requirement (description, department, reviewer), \
             ask_status (name or department), request_report (department or topic), \
             convene_meeting (topic, participants), set_reviewer (reviewer, requirement), \
             invite_person (a human joining the company: name, role as the boss put it, department they answer for, level), set_policy (level auto|key_steps|manual, amount in USD), \
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
        let ctx = CallContext {
            trace_id: trace.map(str::to_owned),
            ..CallContext::new(Purpose::Intent)
        };
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
        tier: super::intent::Tier,
        snap: &OrgSnapshot,
        lang: Language,
        taken: &mut Vec<String>,
        typed: Option<TypedAnswer>,
    ) -> SecretaryResult<Outcome> {
        let s = &intent.slots;
        if !intent.is_confident()
            && !matches!(intent.kind, IntentKind::Chitchat | IntentKind::Question)
        {
            return Ok(Outcome::Say(unsure(intent.kind, lang, snap)));
        }
        Ok(match intent.kind {
            IntentKind::HireEmployee => {
                let cards = roles::library(&self.db).await?;
                self.hire(s, snap, &cards, lang, taken)
            }
            IntentKind::FireEmployee => self.fire(s, snap, lang),
            IntentKind::TransferEmployee => self.transfer(s, snap, lang),
            IntentKind::CreateDepartment => self.create_department(s, snap, lang),
            IntentKind::RenameDepartment => self.rename_department(s, snap, lang),
            IntentKind::DeleteDepartment => self.delete_department(s, snap, lang),
            IntentKind::SetPolicy => set_policy(s, lang),
            IntentKind::AskStatus | IntentKind::RequestReport => {
                let tasks = self.work.pending().await?;
                let requirements = self.work.requirements().await?;
                Outcome::Say(self.facts(s, snap, lang, &tasks, &requirements))
            }
            // The boss decides by saying so: "approve #12", or "approve it" / "reject
            // it" when exactly one thing waits; with several, the secretary lists them
            // and asks which. It decides nothing on its own, and never on a model's
            // reading of the boss's words: only the rules' plain reading decides.
            IntentKind::Approve | IntentKind::Reject => {
                let approve = matches!(intent.kind, IntentKind::Approve);
                self.decide_by_chat(s, tier, snap, lang, approve, typed)
                    .await?
            }
            IntentKind::Chitchat => Outcome::Say(lang.pick(
                "Hello! Tell me whom to hire, move or let go, or ask how the company is doing.",
                "你好！可以让我招人、调岗、辞退，或者问问公司现在的情况。",
            )),
            IntentKind::Question => Outcome::Say(capabilities(lang)),
            IntentKind::AssignTask => {
                let requirements = match s.requirement {
                    Some(_) => self.work.requirements().await?,
                    None => vec![],
                };
                let cards = roles::library(&self.db).await?;
                self.assign_task(s, snap, &requirements, &cards, lang)
            }
            IntentKind::SetReviewer => {
                let requirements = self.work.requirements().await?;
                self.set_reviewer(s, snap, &requirements, lang)
            }
            IntentKind::CreateRequirement => self.create_requirement(s, snap, lang),
            IntentKind::ConveneMeeting => self.convene_meeting(s, snap, lang),
            IntentKind::InvitePerson => {
                let people = self.people.list().await?;
                self.invite_person(s, snap, &people, lang)
            }
            IntentKind::Unknown => Outcome::Say(clarify(lang, snap)),
        })
    }

    /// A current employee by (fuzzy) name, or the question to ask instead.
    pub(super) fn person<'a>(
        &self,
        name: Option<&str>,
        snap: &'a OrgSnapshot,
        lang: Language,
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

    /// Whether `name` is one of the company's people (exactly or by a unique fuzzy match).
    pub(super) fn is_person(&self, name: &str, snap: &OrgSnapshot) -> bool {
        matches!(
            pick(name, &snap.employees, |e| e.id, |e| &e.name),
            Pick::One(_)
        )
    }

    /// A department by (fuzzy) name — or by its other name in either language — or the
    /// question to ask instead.
    pub(super) fn department<'a>(
        &self,
        name: Option<&str>,
        snap: &'a OrgSnapshot,
        lang: Language,
    ) -> Result<&'a DepartmentDto, String> {
        let Some(name) = name else {
            return Err(lang.pick("Which department?", "哪个部门？"));
        };
        let all: Vec<&str> = snap.departments.iter().map(|d| d.name.as_str()).collect();
        match pick_department(name, &snap.departments) {
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
}

fn message_dto(
    m: &secretary_message::Model,
    actions: Vec<&secretary_action::Model>,
) -> SecretaryMessageDto {
    SecretaryMessageDto {
        id: m.id,
        at: m.at.to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        role: m.role,
        text: m.text.clone(),
        actions: actions.into_iter().map(action_dto).collect(),
        trace_id: m.trace_id.clone(),
    }
}

pub(super) fn action_dto(a: &secretary_action::Model) -> ActionDto {
    let proposal: Option<Proposal> = serde_json::from_value(a.proposal.clone()).ok();
    ActionDto {
        id: a.id,
        status: a.status,
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

/// What to ask when the secretary is not sure what the boss wants done.
fn unsure(kind: IntentKind, lang: Language, snap: &OrgSnapshot) -> String {
    match kind {
        IntentKind::HireEmployee => {
            let example = super::text::hire_example(lang, snap);
            lang.pick(
                format!("Whom should I hire? Tell me the role, e.g. \"{example}\"."),
                format!("要招什么岗位呢？比如“{example}”。"),
            )
        }
        _ => clarify(lang, snap),
    }
}

/// A policy card when the boss named a level or a budget; otherwise ask which.
fn set_policy(s: &super::intent::Slots, lang: Language) -> Outcome {
    if s.level.is_none() && s.amount.is_none() {
        return Outcome::Say(lang.pick(
            "Which policy should change? Say e.g. \"approvals: manual\" or \"daily budget $5\".",
            "要改哪项设置？比如“审批改成手动”或“每日预算5美元”。",
        ));
    }
    Outcome::Propose(
        vec![Proposal::SetPolicy {
            level: s.level,
            daily_budget_usd: s.amount,
        }],
        lang.pick(
            "I'll update the company policy.",
            "我来更新公司的审批和预算设置。",
        ),
    )
}
