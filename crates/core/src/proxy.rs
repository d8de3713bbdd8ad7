//! Each person's proxy (SPEC §12): a private secretary that speaks and acts in its
//! person's name, inside its person's rights.
//!
//! A person tells their proxy what they want; the proxy asks, tells or answers another
//! person in the chat between the two of them (a chat the boss sees, never a side
//! channel), tells an employee something in their department's chat, or gives a task to
//! an employee its person answers for. What it writes is marked as proxy-written
//! ([`SenderKind::Proxy`]) and listed for its person, who can correct it. What comes in
//! for a person lands in their conversation with their proxy; a proxy never answers for
//! its person on its own (an answer may be a commitment, and commitments are the
//! person's). What only the boss may do (hires, policies, people, meetings) it declines.
//!
//! Each turn — the person's line, what was posted, the proxy's reply and the lines for
//! the other person — is one transaction.

mod look;
mod mask;
mod parse;
mod words;

pub use look::PrivacyModel;
pub use parse::{Request, parse};

use chrono::Utc;
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{chat, chat_message, proxy_line};
use cubicle_store::{
    ConnectionTrait, DatabaseTransaction, Db, DbErr, chat as cq, org as oq, people as pq,
    proxy as q,
};
use sea_orm::ActiveValue::{NotSet, Set};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::approvals::{Approvals, Decider};
use crate::chat::gates::ChatMode;
use crate::chat::{ChatMessageDto, Names, SenderKind, message_dto, rfc3339};
use crate::clock::SharedClock;
use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};
use crate::people::{Approver, People, PersonDto};
use crate::types::{ApprovalPolicy, Language};
use crate::work::{NewTask, TaskOrigin, Work};

pub use cubicle_store::enums::ProxySpeaker;

/// Lines of a conversation the app loads at once.
pub const CONVERSATION_LIMIT: u64 = 200;
/// Longest thing a person may ask of their proxy at once.
pub const MAX_REQUEST_CHARS: usize = 2_000;

#[derive(Debug, thiserror::Error)]
pub enum ProxyError {
    #[error("say something first")]
    Empty,
    #[error("a request can be at most {MAX_REQUEST_CHARS} characters")]
    TooLong,
    #[error("person {0} does not exist")]
    NoPerson(i32),
    #[error("message {0} does not exist")]
    NoMessage(i32),
    #[error("only {person} can correct what their proxy wrote in their name")]
    NotYours { person: String },
    #[error("this is {person}'s proxy: signed in as someone else, you cannot speak through it")]
    OthersProxy { person: String },
    #[error("message {0} was not written by a proxy")]
    NotProxyWritten(i32),
    #[error("message {0} was already corrected")]
    AlreadyCorrected(i32),
    #[error(transparent)]
    Org(#[from] crate::org::OrgError),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl From<ProxyError> for IpcError {
    fn from(e: ProxyError) -> Self {
        let code = match &e {
            ProxyError::Empty
            | ProxyError::TooLong
            | ProxyError::NotProxyWritten(_)
            | ProxyError::AlreadyCorrected(_) => ErrorCode::InvalidInput,
            ProxyError::NoPerson(_) | ProxyError::NoMessage(_) => ErrorCode::NotFound,
            ProxyError::NotYours { .. } | ProxyError::OthersProxy { .. } => {
                ErrorCode::NotYourDecision
            }
            ProxyError::Org(o) => o.code(),
            ProxyError::Storage(_) => ErrorCode::Storage,
        };
        IpcError::new(code, e.to_string())
    }
}

pub type ProxyResult<T> = Result<T, ProxyError>;

/// One line of a person's conversation with their proxy.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProxyLineDto {
    pub id: i32,
    pub person_id: i32,
    pub at: String,
    pub speaker: ProxySpeaker,
    pub text: String,
    /// The chat line this one is about (what the proxy wrote, or what came in).
    pub chat_message_id: Option<i32>,
    pub trace_id: Option<String>,
}

/// A person's request and their proxy's reply.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProxyTurn {
    pub said: ProxyLineDto,
    pub reply: ProxyLineDto,
    /// What the proxy wrote in the person's name, when it wrote something.
    pub posted: Option<ChatMessageDto>,
}

/// A person tells their proxy something.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SayToProxy {
    pub person_id: i32,
    pub text: String,
}

/// A person replaces a line their proxy wrote in their name with their own words.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CorrectProxyLine {
    pub person_id: i32,
    pub message_id: i32,
    pub text: String,
}

/// A line a proxy wrote in its person's name, and the person's own line that replaced it
/// when they corrected it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct WrittenLine {
    pub message: ChatMessageDto,
    pub corrected_by: Option<i32>,
}

/// A proxy's agent card (seed 001 §2.1): whom it represents and what it may do.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ProxyCard {
    pub person: PersonDto,
    /// "Lin's proxy".
    pub name: String,
    /// The departments and employees its person answers for, by name.
    pub answers_for: Vec<String>,
    pub may: Vec<String>,
    pub may_not: Vec<String>,
}

/// What one request comes to: a reply, and maybe a line posted in the person's name.
struct Plan {
    reply: String,
    post: Option<Post>,
    /// What the person said went to someone else without a post (a task's text).
    handed_on: bool,
}

impl Plan {
    /// Only a reply: nothing is posted.
    fn say(reply: String) -> Self {
        Self {
            reply,
            post: None,
            handed_on: false,
        }
    }

    /// A reply, and a post in the person's name.
    fn posting(reply: String, post: Post) -> Self {
        Self {
            post: Some(post),
            ..Self::say(reply)
        }
    }

    /// Whether anything of what the person said left their conversation.
    fn shared(&self) -> bool {
        self.post.is_some() || self.handed_on
    }
}

/// A line the proxy posts in its person's name, and who hears of it.
struct Post {
    chat: Target,
    text: String,
    /// Other people's conversations that get a line about it.
    notify: Vec<(i32, String)>,
}

enum Target {
    /// The chat between the person and another person (made on first use).
    People(i32),
    /// An existing chat (an employee's department chat).
    Chat(i32),
}

#[derive(Clone)]
pub struct Proxies {
    db: Db,
    bus: EventBus,
    clock: SharedClock,
    people: People,
    work: Work,
    approvals: Approvals,
    privacy: PrivacyModel,
}

impl std::fmt::Debug for Proxies {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Proxies").finish_non_exhaustive()
    }
}

/// Who is in the company, for one request.
struct Company {
    boss: String,
    people: Vec<PersonDto>,
    employees: Vec<(i32, String, Option<i32>)>,
}

impl Proxies {
    pub fn new(
        db: Db,
        bus: EventBus,
        clock: SharedClock,
        people: People,
        work: Work,
        approvals: Approvals,
        privacy: PrivacyModel,
    ) -> Self {
        Self {
            db,
            bus,
            clock,
            people,
            work,
            approvals,
            privacy,
        }
    }

    /// A person's conversation with their proxy, oldest first.
    pub async fn conversation(&self, person_id: i32) -> ProxyResult<Vec<ProxyLineDto>> {
        self.person(person_id).await?;
        Ok(q::recent_lines(&self.db, person_id, CONVERSATION_LIMIT)
            .await?
            .iter()
            .map(line_dto)
            .collect())
    }

    /// What a person's proxy wrote in their name, newest first.
    pub async fn written_for(&self, person_id: i32) -> ProxyResult<Vec<ChatMessageDto>> {
        self.person(person_id).await?;
        let names = Names::load(&self.db).await?;
        Ok(q::written_for(&self.db, person_id, CONVERSATION_LIMIT)
            .await?
            .iter()
            .map(|m| message_dto(m, &names))
            .collect())
    }

    /// [`Proxies::written_for`], each with whether (and by which line) its person
    /// corrected it: what the app lists with Correct.
    pub async fn written_lines(&self, person_id: i32) -> ProxyResult<Vec<WrittenLine>> {
        let written = self.written_for(person_id).await?;
        let ids: Vec<i32> = written.iter().map(|m| m.id).collect();
        let corrections = q::corrections_of(&self.db, &ids).await?;
        Ok(written
            .into_iter()
            .map(|message| WrittenLine {
                corrected_by: corrections
                    .iter()
                    .find(|c| c.corrects_id == Some(message.id))
                    .map(|c| c.id),
                message,
            })
            .collect())
    }

    /// The person whose proxy this is; signed in to a server as someone, only theirs.
    async fn person(&self, person_id: i32) -> ProxyResult<PersonDto> {
        match self.people.get(person_id).await {
            Ok(p) if self.approvals.signed_in().is_some_and(|me| me != p.id) => {
                Err(ProxyError::OthersProxy { person: p.name })
            }
            Ok(p) => Ok(p),
            Err(crate::org::OrgError::NotFound { .. }) => Err(ProxyError::NoPerson(person_id)),
            Err(e) => Err(e.into()),
        }
    }

    async fn company(&self) -> ProxyResult<Company> {
        let c = crate::org::require_company(&self.db).await?;
        Ok(Company {
            boss: c.boss_name,
            people: self.people.list().await?,
            employees: oq::list_employees(&self.db, c.id, false)
                .await?
                .into_iter()
                .map(|e| (e.id, e.name, e.department_id))
                .collect(),
        })
    }

    /// The proxy's agent card.
    pub async fn card(&self, person_id: i32) -> ProxyResult<ProxyCard> {
        let person = self.person(person_id).await?;
        let c = crate::org::require_company(&self.db).await?;
        let departments = oq::list_departments(&self.db, c.id).await?;
        let employees = oq::list_employees(&self.db, c.id, false).await?;
        let answers_for = departments
            .iter()
            .filter(|d| person.departments.contains(&d.id))
            .map(|d| d.name.clone())
            .chain(
                employees
                    .iter()
                    .filter(|e| person.employees.contains(&e.id))
                    .map(|e| e.name.clone()),
            )
            .collect();
        let lang = person.language;
        Ok(ProxyCard {
            name: lang.pick(
                format!("{}'s proxy", person.name),
                format!("{}的代理", person.name),
            ),
            answers_for,
            may: card_may(lang, person.approval_policy),
            may_not: vec![
                lang.pick(
                    "answer or commit for its person on its own",
                    "不经本人同意替其答复或承诺",
                ),
                lang.pick(
                    format!("change the company (only {} may)", c.boss_name),
                    format!("调整公司（只有{}可以）", c.boss_name),
                ),
                lang.pick(
                    "give tasks to employees its person does not answer for",
                    "给本人不负责的员工安排任务",
                ),
            ],
            person,
        })
    }

    /// One request from a person to their proxy.
    pub async fn say(&self, input: SayToProxy) -> ProxyResult<ProxyTurn> {
        let text = input.text.trim();
        if text.is_empty() {
            return Err(ProxyError::Empty);
        }
        if text.chars().count() > MAX_REQUEST_CHARS {
            return Err(ProxyError::TooLong);
        }
        let me = self.person(input.person_id).await?;
        let company = self.company().await?;
        let others: Vec<&str> = company
            .people
            .iter()
            .filter(|p| p.id != me.id)
            .map(|p| p.name.as_str())
            .collect();
        let staff: Vec<&str> = company.employees.iter().map(|e| e.1.as_str()).collect();
        // What goes to others is masked first; the person's own line keeps it all.
        let (request, masked, look) = self
            .mask_request(parse(text, &others, &staff), me.language)
            .await;
        let mut plan = self.plan(&me, &company, request, text).await?;
        if plan.shared() {
            let notes = [
                mask::note(&masked, me.language),
                look::note(look, me.language),
            ];
            for note in notes.into_iter().flatten() {
                plan.reply = format!("{} {note}", plan.reply);
            }
        }
        self.record(&me, text, plan).await
    }

    /// The request with its private details masked — by the rules ([`mask`]), then by the
    /// local model when one is set ([`look`]) — which kinds were, and whether a model looked.
    async fn mask_request(
        &self,
        mut request: Request,
        lang: Language,
    ) -> (Request, Vec<mask::Private>, look::Look) {
        let Some(what) = request.what_mut() else {
            return (request, vec![], look::Look::NoModel);
        };
        let (masked, look) = self.privacy.look(mask::mask(what, lang), lang).await;
        *what = masked.text;
        (request, masked.kinds, look)
    }

    /// What a request comes to. A task is created here (the work service owns tasks);
    /// everything else is written by [`Self::record`] in one transaction.
    async fn plan(
        &self,
        me: &PersonDto,
        company: &Company,
        request: Request,
        text: &str,
    ) -> ProxyResult<Plan> {
        let lang = me.language;
        let reply = |reply: String| Ok(Plan::say(reply));
        match request {
            Request::Ask { ref to, .. }
            | Request::Tell { ref to, .. }
            | Request::Answer { ref to, .. }
                if person_named(company, to).is_none() && employee_named(company, to).is_none() =>
            {
                reply(words::unknown_name(lang, to))
            }
            Request::Ask { to, what } => Ok(to_person(me, company, &to, what, Said::Ask)),
            Request::Answer { to, what } => Ok(to_person(me, company, &to, what, Said::Answer)),
            Request::Tell { to, what } if person_named(company, &to).is_some() => {
                Ok(to_person(me, company, &to, what, Said::Tell))
            }
            Request::Tell { to, what } => self.tell_employee(me, company, &to, &what).await,
            Request::Task { to, what } => self.task(me, company, &to, &what, text).await,
            Request::Waiting => reply(self.waiting(me).await?),
            Request::BossOnly(_) => reply(words::boss_only(lang, &company.boss)),
            Request::Unclear => reply(words::help(lang)),
        }
    }

    /// Tells an employee something in their department's chat, as the person's proxy.
    async fn tell_employee(
        &self,
        me: &PersonDto,
        company: &Company,
        to: &str,
        what: &str,
    ) -> ProxyResult<Plan> {
        let lang = me.language;
        let Some((_, name, department)) = employee_named(company, to) else {
            return Ok(Plan::say(words::unknown_name(lang, to)));
        };
        let chat = match department {
            Some(d) => cq::find_department_chat(&self.db, *d).await?,
            None => None,
        };
        let Some(chat) = chat else {
            return Ok(Plan::say(words::no_chat(lang, name)));
        };
        let text = format!("@{name} {}", words::said(what));
        Ok(Plan::posting(
            words::done_tell(lang, name, &text),
            Post {
                chat: Target::Chat(chat.id),
                text,
                notify: vec![],
            },
        ))
    }

    /// Gives an employee a task in the person's name, when the person answers for them.
    async fn task(
        &self,
        me: &PersonDto,
        company: &Company,
        to: &str,
        what: &str,
        text: &str,
    ) -> ProxyResult<Plan> {
        let lang = me.language;
        let Some((id, name, _)) = employee_named(company, to) else {
            return Ok(Plan::say(words::unknown_name(lang, to)));
        };
        let approver = self.people.approver_for(*id).await?;
        if approver.person_id() != Some(me.id) {
            let who = match &approver {
                Approver::Boss { name }
                | Approver::Person {
                    person: PersonDto { name, .. },
                } => name.clone(),
            };
            return Ok(Plan::say(words::not_yours(lang, name, &who)));
        }
        let trace = crate::trace::start(
            &self.db,
            crate::trace::Origin::Proxy,
            text,
            None,
            self.clock.now(),
        )
        .await?;
        let task = self
            .work
            .create(NewTask {
                trace_id: Some(trace),
                ..NewTask::new(*id, what, TaskOrigin::Person)
            })
            .await?;
        Ok(Plan {
            handed_on: true,
            ..Plan::say(words::done_task(lang, name, what, task.id))
        })
    }

    /// The approvals waiting for the person.
    async fn waiting(&self, me: &PersonDto) -> ProxyResult<String> {
        let pending = self
            .approvals
            .pending_for(Decider::Person { person_id: me.id })
            .await
            .map_err(|e| DbErr::Custom(e.to_string()))?;
        if pending.is_empty() {
            return Ok(words::nothing_waiting(me.language));
        }
        let items: Vec<String> = pending
            .iter()
            .map(|a| format!("#{} {}: {}", a.id, a.requester_name, a.summary))
            .collect();
        Ok(words::waiting(me.language, &items))
    }

    /// Writes one turn: the person's line, the post in their name with the lines for
    /// whoever hears of it, and the proxy's reply, in one transaction.
    async fn record(&self, me: &PersonDto, text: &str, plan: Plan) -> ProxyResult<ProxyTurn> {
        let now = self.clock.now();
        let txn = self.db.begin_write().await?;
        let said = insert_line(&txn, me.id, ProxySpeaker::Person, text, None, now).await?;
        let mut notified = Vec::new();
        let posted = match plan.post {
            Some(post) => {
                let chat_id = match post.chat {
                    Target::Chat(id) => id,
                    Target::People(other) => people_chat(&txn, me, other, now).await?.id,
                };
                let m = insert_post(&txn, chat_id, me.id, &post.text, None, now).await?;
                for (person, line) in post.notify {
                    insert_line(&txn, person, ProxySpeaker::Proxy, &line, Some(m.id), now).await?;
                    notified.push(person);
                }
                Some(m)
            }
            None => None,
        };
        let reply = insert_line(
            &txn,
            me.id,
            ProxySpeaker::Proxy,
            &plan.reply,
            posted.as_ref().map(|m| m.id),
            now,
        )
        .await?;
        txn.commit().await?;
        self.announce(me.id, &notified, posted.as_ref());
        let names = Names::load(&self.db).await?;
        Ok(ProxyTurn {
            said: line_dto(&said),
            reply: line_dto(&reply),
            posted: posted.as_ref().map(|m| message_dto(m, &names)),
        })
    }

    fn announce(&self, me: i32, notified: &[i32], posted: Option<&chat_message::Model>) {
        for person_id in std::iter::once(&me).chain(notified) {
            self.bus.publish(DomainEvent::ProxyConversation {
                person_id: *person_id,
            });
        }
        if let Some(m) = posted {
            self.bus.publish(DomainEvent::ChatMessagePosted {
                chat_id: m.chat_id,
                message_id: m.id,
            });
        }
    }

    /// A person replaces what their proxy wrote in their name with their own words: the
    /// correction is posted in the same chat as theirs, and whoever heard of the
    /// original hears of the correction.
    pub async fn correct(&self, input: CorrectProxyLine) -> ProxyResult<ChatMessageDto> {
        let text = input.text.trim();
        if text.is_empty() {
            return Err(ProxyError::Empty);
        }
        if text.chars().count() > MAX_REQUEST_CHARS {
            return Err(ProxyError::TooLong);
        }
        let me = self.person(input.person_id).await?;
        let original = q::find_message(&self.db, input.message_id)
            .await?
            .ok_or(ProxyError::NoMessage(input.message_id))?;
        if original.sender_kind != SenderKind::Proxy {
            return Err(ProxyError::NotProxyWritten(original.id));
        }
        if original.sender_person_id != Some(me.id) {
            let names = Names::load(&self.db).await?;
            let person = original
                .sender_person_id
                .map(|p| names.human(p).to_owned())
                .unwrap_or_default();
            return Err(ProxyError::NotYours { person });
        }
        if q::correction_of(&self.db, original.id).await?.is_some() {
            return Err(ProxyError::AlreadyCorrected(original.id));
        }
        let now = self.clock.now();
        let listeners: Vec<PersonDto> = {
            let in_chat = q::chat_people(&self.db, original.chat_id).await?;
            let everyone = self.people.list().await?;
            everyone
                .into_iter()
                .filter(|p| p.id != me.id && in_chat.contains(&p.id))
                .collect()
        };
        let txn = self.db.begin_write().await?;
        let m = insert_post(&txn, original.chat_id, me.id, text, Some(original.id), now).await?;
        for p in &listeners {
            let line = words::came_in_correction(p.language, &me.name, text);
            insert_line(&txn, p.id, ProxySpeaker::Proxy, &line, Some(m.id), now).await?;
        }
        txn.commit().await?;
        let heard: Vec<i32> = listeners.iter().map(|p| p.id).collect();
        self.announce(me.id, &heard, Some(&m));
        let names = Names::load(&self.db).await?;
        Ok(message_dto(&m, &names))
    }
}

/// The three ways a proxy speaks to another person.
#[derive(Clone, Copy)]
enum Said {
    Ask,
    Tell,
    Answer,
}

/// A line to another person in the chat between the two, and the line their proxy
/// gives them about it (in their language).
fn to_person(me: &PersonDto, company: &Company, to: &str, what: String, said: Said) -> Plan {
    let Some(other) = person_named(company, to) else {
        return Plan::say(words::unknown_name(me.language, to));
    };
    let lang = me.language;
    let text = match said {
        Said::Ask => words::asked(lang, &me.name, &what),
        Said::Tell | Said::Answer => words::said(&what),
    };
    let (reply, heard) = match said {
        Said::Ask => (
            words::done_ask(lang, &other.name, &text),
            words::came_in_ask(other.language, &me.name, &text),
        ),
        Said::Tell => (
            words::done_tell(lang, &other.name, &text),
            words::came_in_tell(other.language, &me.name, &text),
        ),
        Said::Answer => (
            words::done_answer(lang, &other.name, &text),
            words::came_in_answer(other.language, &me.name, &text),
        ),
    };
    Plan::posting(
        reply,
        Post {
            chat: Target::People(other.id),
            text,
            notify: vec![(other.id, heard)],
        },
    )
}

fn person_named<'a>(company: &'a Company, name: &str) -> Option<&'a PersonDto> {
    company
        .people
        .iter()
        .find(|p| p.name.eq_ignore_ascii_case(name))
}

fn employee_named<'a>(company: &'a Company, name: &str) -> Option<&'a (i32, String, Option<i32>)> {
    company
        .employees
        .iter()
        .find(|e| e.1.eq_ignore_ascii_case(name))
}

fn card_may(lang: Language, policy: ApprovalPolicy) -> Vec<String> {
    let decide = match policy {
        ApprovalPolicy::Auto => lang.pick(
            "let the approvals routed to its person run without asking (their policy is auto)",
            "按本人的自动策略放行路由给本人的审批",
        ),
        _ => lang.pick(
            "list the approvals waiting for its person, who decides them",
            "列出等本人决定的审批，由本人决定",
        ),
    };
    vec![
        lang.pick(
            "ask, tell and answer other people in its person's name",
            "以本人名义向其他人提问、告知和答复",
        ),
        lang.pick(
            "tell employees something in their department's chat",
            "在员工所在部门群里转告消息",
        ),
        lang.pick(
            "give tasks to the employees its person answers for",
            "给本人负责的员工安排任务",
        ),
        decide,
    ]
}

fn line_dto(l: &proxy_line::Model) -> ProxyLineDto {
    ProxyLineDto {
        id: l.id,
        person_id: l.person_id,
        at: rfc3339(l.at),
        speaker: l.speaker,
        text: l.text.clone(),
        chat_message_id: l.chat_message_id,
        trace_id: l.trace_id.clone(),
    }
}

async fn insert_line(
    txn: &DatabaseTransaction,
    person_id: i32,
    speaker: ProxySpeaker,
    text: &str,
    chat_message_id: Option<i32>,
    at: chrono::DateTime<Utc>,
) -> Result<proxy_line::Model, DbErr> {
    q::insert_line(
        txn,
        proxy_line::ActiveModel {
            id: NotSet,
            person_id: Set(person_id),
            at: Set(at),
            speaker: Set(speaker),
            text: Set(text.to_owned()),
            chat_message_id: Set(chat_message_id),
            trace_id: Set(None),
        },
    )
    .await
}

/// The chat between the person and another person, made on first use.
async fn people_chat(
    txn: &DatabaseTransaction,
    me: &PersonDto,
    other: i32,
    now: chrono::DateTime<Utc>,
) -> Result<chat::Model, DbErr> {
    if let Some(c) = q::people_chat(txn, me.id, other).await? {
        return Ok(c);
    }
    // Both people's turns, lower id first, then asked again: two proxies writing to each
    // other in the same instant make one chat.
    let mut other_name = String::new();
    for id in [me.id.min(other), me.id.max(other)] {
        let p = pq::lock_person(txn, id).await?;
        if id == other {
            other_name = p.map(|p| p.name).unwrap_or_default();
        }
    }
    if let Some(c) = q::people_chat(txn, me.id, other).await? {
        return Ok(c);
    }
    let c = crate::chat::insert_chat(
        txn,
        crate::chat::ChatKind::People,
        ChatMode::Work,
        &format!("{} · {}", me.name, other_name),
        None,
        None,
        now,
    )
    .await?;
    q::insert_chat_person(txn, c.id, me.id).await?;
    q::insert_chat_person(txn, c.id, other).await?;
    Ok(c)
}

async fn insert_post(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    person_id: i32,
    text: &str,
    corrects: Option<i32>,
    now: chrono::DateTime<Utc>,
) -> Result<chat_message::Model, DbErr> {
    cq::insert_message(
        conn,
        chat_message::ActiveModel {
            id: NotSet,
            chat_id: Set(chat_id),
            sender_kind: Set(match corrects {
                Some(_) => SenderKind::Person,
                None => SenderKind::Proxy,
            }),
            sender_employee_id: Set(None),
            text: Set(text.to_owned()),
            trace_id: Set(None),
            created_at: Set(now),
            mentions: Set(mentions(conn, chat_id, text).await?),
            sender_person_id: Set(Some(person_id)),
            corrects_id: Set(corrects),
        },
    )
    .await
}

/// The chat's members an @mention in `text` names, as the chat stores them.
async fn mentions(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    text: &str,
) -> Result<Option<serde_json::Value>, DbErr> {
    let names = Names::load(conn).await?;
    let members: Vec<(i32, String)> = cq::members(conn, chat_id)
        .await?
        .into_iter()
        .map(|m| (m.employee_id, names.person(m.employee_id).to_owned()))
        .filter(|(_, n)| !n.is_empty())
        .collect();
    let found = crate::chat::mentions::find(text, &members);
    Ok((!found.is_empty()).then(|| serde_json::json!(found)))
}
