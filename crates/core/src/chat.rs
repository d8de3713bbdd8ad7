//! Chats (SPEC §4): department and requirement groups, meetings, boss ↔ employee chats,
//! employee DMs and casual groups, all in the same tables. Every post is persisted
//! (with its @mentions) before it is announced on the bus; the engine hears the
//! announcement and nudges the other members. Times come from the engine's clock so a
//! simulated day keeps its own calendar.

pub mod gates;
pub mod mentions;
pub mod polling;
mod thoughts;

use chrono::{DateTime, SecondsFormat, Utc};
use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{chat, chat_member, chat_message};
use cubicle_store::{ConnectionTrait, Db, DbErr, chat as q, mind as mq, org as oq};
use sea_orm::ActiveValue::{NotSet, Set};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::chat::gates::ChatMode;
use crate::clock::SharedClock;
use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};

/// The longest message the boss can post; a chat is not a document store.
pub const MAX_MESSAGE_CHARS: usize = 4000;
/// How many of a chat's latest messages (and thoughts) its view shows.
pub const VIEW_LIMIT: u64 = 200;

#[derive(Debug, thiserror::Error)]
pub enum ChatError {
    #[error("{what} {id} does not exist")]
    NotFound { what: &'static str, id: i32 },
    #[error("{0}")]
    InvalidInput(String),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl ChatError {
    pub fn code(&self) -> ErrorCode {
        match self {
            ChatError::NotFound { .. } => ErrorCode::NotFound,
            ChatError::InvalidInput(_) => ErrorCode::InvalidInput,
            ChatError::Storage(_) => ErrorCode::Storage,
        }
    }
}

impl From<ChatError> for IpcError {
    fn from(e: ChatError) -> Self {
        if let ChatError::Storage(inner) = &e {
            tracing::error!(error = %inner, "storage error");
        }
        IpcError::new(e.code(), e.to_string())
    }
}

pub type ChatResult<T> = Result<T, ChatError>;

/// What a chat is for; its gate table follows from it (see [`ChatMode`]).
pub use cubicle_store::enums::ChatKind;
pub use thoughts::ThoughtDto;
pub(crate) use thoughts::thought_dto;

/// Who wrote a chat message: the boss, an employee, or the app itself.
pub use cubicle_store::enums::SenderKind;

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatMessageDto {
    pub id: i32,
    pub chat_id: i32,
    pub sender_kind: SenderKind,
    pub sender_employee_id: Option<i32>,
    /// For a person's line and their proxy's: the person it speaks for.
    pub sender_person_id: Option<i32>,
    /// The boss's, the employee's or the person's name (also for those who have left);
    /// empty for system notes.
    pub sender_name: String,
    pub text: String,
    /// Employees @mentioned in the text.
    pub mentions: Vec<i32>,
    /// The boss instruction this message belongs to (SPEC §10), when it belongs to one.
    pub trace_id: Option<String>,
    pub created_at: String,
    /// A person's correction: the line their proxy wrote that this one replaces.
    pub corrects_id: Option<i32>,
}

/// A chat as the boss's chat list shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatDto {
    pub id: i32,
    pub kind: ChatKind,
    pub mode: ChatMode,
    pub name: String,
    pub topic: Option<String>,
    pub department_id: Option<i32>,
    pub member_ids: Vec<i32>,
    /// Messages the boss has not read (their own never count).
    pub unread: u32,
    pub last_message: Option<ChatMessageDto>,
    pub created_at: String,
}

/// One chat opened: its latest messages and, for the inner-thoughts toggle, what its
/// members thought about them (never posted).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ChatViewDto {
    pub chat: ChatDto,
    pub messages: Vec<ChatMessageDto>,
    pub thoughts: Vec<ThoughtDto>,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct PostMessage {
    pub chat_id: i32,
    pub text: String,
}

/// A group chat the boss puts together (social by default).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CreateGroup {
    pub name: String,
    pub member_ids: Vec<i32>,
    pub mode: ChatMode,
}

#[derive(Clone, Debug)]
pub struct Chats {
    db: Db,
    bus: EventBus,
    clock: SharedClock,
}

impl Chats {
    /// The chats holding messages `employee_id` has not read (others' messages after its
    /// last read one).
    pub async fn unread_chats_of(&self, employee_id: i32) -> Result<Vec<i32>, DbErr> {
        cubicle_store::chat::chats_with_unread_for(&self.db, employee_id).await
    }

    pub fn new(db: Db, bus: EventBus, clock: SharedClock) -> Self {
        Self { db, bus, clock }
    }

    pub fn now(&self) -> DateTime<Utc> {
        self.clock.now()
    }

    /// The department's group chat, created on first use.
    pub async fn department_chat(
        &self,
        department_id: i32,
        name: &str,
    ) -> Result<chat::Model, DbErr> {
        if let Some(c) = q::find_department_chat(&self.db, department_id).await? {
            return Ok(c);
        }
        let txn = self.db.begin_write().await?;
        // Under the lock: a hire into the department (`follow_department`) or another
        // first use may have made it meanwhile.
        oq::lock_department(&txn, department_id).await?;
        if let Some(c) = q::find_department_chat(&txn, department_id).await? {
            return Ok(c);
        }
        let c = insert_chat(
            &txn,
            ChatKind::Department,
            mode_of(ChatKind::Department),
            name,
            Some(department_id),
            None,
            self.now(),
        )
        .await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::ChatChanged { chat_id: c.id });
        Ok(c)
    }

    /// Adds an employee to a chat (once).
    pub async fn join(&self, chat_id: i32, employee_id: i32) -> Result<(), DbErr> {
        if q::find_member(&self.db, chat_id, employee_id)
            .await?
            .is_none()
        {
            insert_member(&self.db, chat_id, employee_id, self.now()).await?;
            self.bus.publish(DomainEvent::ChatChanged { chat_id });
        }
        Ok(())
    }

    pub async fn post_as_employee(
        &self,
        chat_id: i32,
        employee_id: i32,
        text: &str,
    ) -> Result<ChatMessageDto, DbErr> {
        self.post(chat_id, SenderKind::Employee, Some(employee_id), text, None)
            .await
    }

    /// An employee's message that belongs to a boss instruction (SPEC §10).
    pub async fn post_traced(
        &self,
        chat_id: i32,
        employee_id: i32,
        text: &str,
        trace_id: Option<String>,
    ) -> Result<ChatMessageDto, DbErr> {
        self.post(
            chat_id,
            SenderKind::Employee,
            Some(employee_id),
            text,
            trace_id,
        )
        .await
    }

    /// The boss posts in any chat at any time (SPEC §4: no special API for human in the
    /// loop); employees treat it as an instruction. Posting also marks the chat read.
    pub async fn post_as_boss(&self, input: PostMessage) -> ChatResult<ChatMessageDto> {
        let text = input.text.trim();
        if text.is_empty() {
            return Err(ChatError::InvalidInput("the message is empty".into()));
        }
        if text.chars().count() > MAX_MESSAGE_CHARS {
            return Err(ChatError::InvalidInput(format!(
                "a message can be at most {MAX_MESSAGE_CHARS} characters"
            )));
        }
        self.require(input.chat_id).await?;
        let names = Names::load(&self.db).await?;
        let mentioned = self.mentioned(input.chat_id, text, &names).await?;
        let now = self.now();
        // The instruction, its message and the boss's read mark are one write: a failure
        // leaves neither an instruction nobody can see nor the boss's own line unread.
        let txn = self.db.begin_write().await?;
        // Every word from the boss is an instruction with its own trace (SPEC §10).
        let trace = crate::trace::start(
            &txn,
            crate::trace::Origin::Chat,
            text,
            Some(input.chat_id),
            now,
        )
        .await?;
        let m = insert_line(
            &txn,
            Line {
                chat_id: input.chat_id,
                sender_kind: SenderKind::Boss,
                sender_employee_id: None,
                text,
                trace_id: Some(trace),
                mentioned: &mentioned,
                at: now,
            },
        )
        .await?;
        q::set_boss_read(&txn, input.chat_id, m.id).await?;
        txn.commit().await?;
        self.announce(&m);
        Ok(message_dto(&m, &names))
    }

    /// A note from the system in a chat (a meeting's topic, a task's escalation …).
    pub async fn post_system(&self, chat_id: i32, text: &str) -> Result<ChatMessageDto, DbErr> {
        self.post(chat_id, SenderKind::System, None, text, None)
            .await
    }

    /// A system note that belongs to a boss instruction.
    pub async fn post_system_traced(
        &self,
        chat_id: i32,
        text: &str,
        trace_id: Option<String>,
    ) -> Result<ChatMessageDto, DbErr> {
        self.post(chat_id, SenderKind::System, None, text, trace_id)
            .await
    }

    async fn post(
        &self,
        chat_id: i32,
        sender_kind: SenderKind,
        sender_employee_id: Option<i32>,
        text: &str,
        trace_id: Option<String>,
    ) -> Result<ChatMessageDto, DbErr> {
        let posted = self
            .post_once(
                chat_id,
                sender_kind,
                sender_employee_id,
                text,
                trace_id,
                None,
            )
            .await?;
        posted.ok_or_else(|| DbErr::Custom("an unkeyed post was skipped".into()))
    }

    /// An employee's message written once under `key` (a pending thought's effect, SPEC
    /// §10): the message and its key are one transaction, so a replay after a kill
    /// posts what is missing and nothing twice. `None` when it was already posted.
    pub async fn post_keyed(
        &self,
        chat_id: i32,
        employee_id: i32,
        text: &str,
        trace_id: Option<String>,
        key: &str,
    ) -> Result<Option<ChatMessageDto>, DbErr> {
        self.post_once(
            chat_id,
            SenderKind::Employee,
            Some(employee_id),
            text,
            trace_id,
            Some(key),
        )
        .await
    }

    async fn post_once(
        &self,
        chat_id: i32,
        sender_kind: SenderKind,
        sender_employee_id: Option<i32>,
        text: &str,
        trace_id: Option<String>,
        key: Option<&str>,
    ) -> Result<Option<ChatMessageDto>, DbErr> {
        let names = Names::load(&self.db).await?;
        let mentioned = self.mentioned(chat_id, text, &names).await?;
        let txn = self.db.begin_write().await?;
        if let Some(key) = key
            && !cubicle_store::effect::claim(&txn, key, self.now()).await?
        {
            return Ok(None);
        }
        let m = insert_line(
            &txn,
            Line {
                chat_id,
                sender_kind,
                sender_employee_id,
                text,
                trace_id,
                mentioned: &mentioned,
                at: self.now(),
            },
        )
        .await?;
        if let Some(key) = key {
            cubicle_store::effect::set_row(&txn, key, m.id).await?;
        }
        txn.commit().await?;
        self.announce(&m);
        Ok(Some(message_dto(&m, &names)))
    }

    /// The members of `chat_id` that `text` @mentions.
    async fn mentioned(&self, chat_id: i32, text: &str, names: &Names) -> Result<Vec<i32>, DbErr> {
        let members: Vec<(i32, String)> = q::members(&self.db, chat_id)
            .await?
            .into_iter()
            .filter_map(|m| {
                names
                    .people
                    .get(&m.employee_id)
                    .map(|n| (m.employee_id, n.clone()))
            })
            .collect();
        Ok(mentions::find(text, &members))
    }

    /// Tells the bus about a message once it is stored.
    fn announce(&self, m: &chat_message::Model) {
        self.bus.publish(DomainEvent::ChatMessagePosted {
            chat_id: m.chat_id,
            message_id: m.id,
        });
    }

    pub async fn messages(&self, chat_id: i32) -> Result<Vec<ChatMessageDto>, DbErr> {
        let names = Names::load(&self.db).await?;
        Ok(q::messages(&self.db, chat_id)
            .await?
            .iter()
            .map(|m| message_dto(m, &names))
            .collect())
    }

    pub async fn members(&self, chat_id: i32) -> Result<Vec<i32>, DbErr> {
        Ok(q::members(&self.db, chat_id)
            .await?
            .into_iter()
            .map(|m| m.employee_id)
            .collect())
    }

    /// Every chat as the boss's list shows it, the most recently active first.
    pub async fn list(&self) -> ChatResult<Vec<ChatDto>> {
        let names = Names::load(&self.db).await?;
        let mut out = Vec::new();
        for c in q::list_chats(&self.db).await? {
            out.push(self.dto(&c, &names).await?);
        }
        out.sort_by(|a, b| {
            let at = |c: &ChatDto| {
                c.last_message
                    .as_ref()
                    .map_or(c.created_at.clone(), |m| m.created_at.clone())
            };
            at(b).cmp(&at(a)).then(b.id.cmp(&a.id))
        });
        Ok(out)
    }

    /// One chat with its latest messages and its members' recent thoughts.
    pub async fn view(&self, chat_id: i32) -> ChatResult<ChatViewDto> {
        let c = self.require(chat_id).await?;
        let names = Names::load(&self.db).await?;
        let messages = q::last_messages(&self.db, chat_id, VIEW_LIMIT)
            .await?
            .iter()
            .map(|m| message_dto(m, &names))
            .collect();
        let thoughts = mq::thoughts_in_chat(&self.db, chat_id, VIEW_LIMIT)
            .await?
            .iter()
            .map(|t| thought_dto(t, names.person(t.employee_id)))
            .collect();
        Ok(ChatViewDto {
            chat: self.dto(&c, &names).await?,
            messages,
            thoughts,
        })
    }

    /// The boss has read everything in the chat so far.
    pub async fn mark_read(&self, chat_id: i32) -> ChatResult<()> {
        self.require(chat_id).await?;
        if let Some(last) = q::latest_message_id(&self.db, chat_id).await? {
            q::set_boss_read(&self.db, chat_id, last).await?;
        }
        self.bus.publish(DomainEvent::ChatRead { chat_id });
        Ok(())
    }

    /// The boss's own chat with one employee, created on first use.
    pub async fn boss_chat(&self, employee_id: i32) -> ChatResult<ChatDto> {
        let c = self.boss_chat_model(employee_id).await?;
        self.dto(&c, &Names::load(&self.db).await?).await
    }

    /// [`Chats::boss_chat`] as stored (the engine thinks and reports in it).
    pub async fn boss_chat_model(&self, employee_id: i32) -> ChatResult<chat::Model> {
        if let Some(c) = q::find_boss_chat(&self.db, employee_id).await? {
            return Ok(c);
        }
        let txn = self.db.begin_write().await?;
        let e = oq::lock_employee(&txn, employee_id)
            .await?
            .filter(|e| e.fired_at.is_none())
            .ok_or(ChatError::NotFound {
                what: "employee",
                id: employee_id,
            })?;
        // Asked again under the lock: a racing first use may have made it meanwhile.
        if let Some(c) = q::find_boss_chat(&txn, employee_id).await? {
            return Ok(c);
        }
        let c = insert_chat(
            &txn,
            ChatKind::Boss,
            mode_of(ChatKind::Boss),
            &e.name,
            None,
            None,
            self.now(),
        )
        .await?;
        insert_member(&txn, c.id, e.id, self.now()).await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::ChatChanged { chat_id: c.id });
        Ok(c)
    }

    /// The DM between two employees, created on first use (SPEC §4: work by default).
    pub async fn dm(&self, a: i32, b: i32) -> ChatResult<chat::Model> {
        self.dm_from(a, b, mode_of(ChatKind::Dm)).await
    }

    /// The DM between two employees; a new one follows the kind of the chat it was
    /// started from (`mode`).
    pub async fn dm_from(&self, a: i32, b: i32, mode: ChatMode) -> ChatResult<chat::Model> {
        if a == b {
            return Err(ChatError::InvalidInput(
                "a DM needs two different people".into(),
            ));
        }
        if let Some(c) = q::find_dm(&self.db, a, b).await? {
            return Ok(c);
        }
        let txn = self.db.begin_write().await?;
        // Both locked, lower id first, so two racing first uses take turns and never
        // wait on each other crosswise.
        let mut names = Vec::new();
        for id in [a.min(b), a.max(b)] {
            let e = oq::lock_employee(&txn, id)
                .await?
                .filter(|e| e.fired_at.is_none())
                .ok_or(ChatError::NotFound {
                    what: "employee",
                    id,
                })?;
            names.push(e.name);
        }
        if let Some(c) = q::find_dm(&txn, a, b).await? {
            return Ok(c);
        }
        // Named in the order asked: "a · b".
        if a > b {
            names.reverse();
        }
        let c = insert_chat(
            &txn,
            ChatKind::Dm,
            mode,
            &names.join(" · "),
            None,
            None,
            self.now(),
        )
        .await?;
        insert_member(&txn, c.id, a, self.now()).await?;
        insert_member(&txn, c.id, b, self.now()).await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::ChatChanged { chat_id: c.id });
        Ok(c)
    }

    /// A group of the boss's choosing: a social group, or a working group.
    pub async fn create_group(&self, input: CreateGroup) -> ChatResult<ChatDto> {
        let name = input.name.trim();
        if name.is_empty() {
            return Err(ChatError::InvalidInput("the group needs a name".into()));
        }
        let mut members = input.member_ids.clone();
        members.sort_unstable();
        members.dedup();
        if members.len() < 2 {
            return Err(ChatError::InvalidInput(
                "a group needs at least two people".into(),
            ));
        }
        for id in &members {
            oq::find_employee(&self.db, *id)
                .await?
                .filter(|e| e.fired_at.is_none())
                .ok_or(ChatError::NotFound {
                    what: "employee",
                    id: *id,
                })?;
        }
        let txn = self.db.begin_write().await?;
        let c = insert_chat(
            &txn,
            ChatKind::Group,
            input.mode,
            name,
            None,
            None,
            self.now(),
        )
        .await?;
        for id in &members {
            insert_member(&txn, c.id, *id, self.now()).await?;
        }
        txn.commit().await?;
        self.bus.publish(DomainEvent::ChatChanged { chat_id: c.id });
        self.dto(&c, &Names::load(&self.db).await?).await
    }

    /// A meeting (SPEC §9): a work chat on a topic with its participants, opened by a
    /// system message that states the topic.
    pub async fn create_meeting(
        &self,
        topic: &str,
        participant_ids: &[i32],
    ) -> Result<chat::Model, DbErr> {
        let txn = self.db.begin_write().await?;
        let now = self.now();
        let c = insert_chat(
            &txn,
            ChatKind::Meeting,
            mode_of(ChatKind::Meeting),
            topic,
            None,
            Some(topic),
            now,
        )
        .await?;
        for id in participant_ids {
            insert_member(&txn, c.id, *id, now).await?;
        }
        txn.commit().await?;
        self.bus.publish(DomainEvent::ChatChanged { chat_id: c.id });
        self.post_system(c.id, topic).await?;
        Ok(c)
    }

    /// Every chat, oldest first.
    pub async fn all(&self) -> Result<Vec<chat::Model>, DbErr> {
        q::list_chats(&self.db).await
    }

    /// Takes back a meeting convened by mistake, with its messages.
    pub async fn end_meeting(&self, chat_id: i32) -> Result<(), DbErr> {
        q::delete_chat(&self.db, chat_id).await?;
        self.bus.publish(DomainEvent::ChatChanged { chat_id });
        Ok(())
    }

    pub async fn find_department_chat(
        &self,
        department_id: i32,
    ) -> Result<Option<chat::Model>, DbErr> {
        q::find_department_chat(&self.db, department_id).await
    }

    async fn require(&self, chat_id: i32) -> ChatResult<chat::Model> {
        q::find_chat(&self.db, chat_id)
            .await?
            .ok_or(ChatError::NotFound {
                what: "chat",
                id: chat_id,
            })
    }

    async fn dto(&self, c: &chat::Model, names: &Names) -> ChatResult<ChatDto> {
        let member_ids = q::members(&self.db, c.id)
            .await?
            .into_iter()
            .map(|m| m.employee_id)
            .collect();
        let unread = q::unread_for_boss(&self.db, c.id).await?;
        let last_message = q::last_messages(&self.db, c.id, 1)
            .await?
            .first()
            .map(|m| message_dto(m, names));
        Ok(ChatDto {
            id: c.id,
            kind: c.kind,
            mode: c.mode,
            name: c.name.clone(),
            topic: c.topic.clone(),
            department_id: c.department_id,
            member_ids,
            unread: u32::try_from(unread).unwrap_or(u32::MAX),
            last_message,
            created_at: rfc3339(c.created_at),
        })
    }
}

/// The mode a new chat of this kind starts in (SPEC §4's table).
fn mode_of(kind: ChatKind) -> ChatMode {
    gates::mode_for(kind)
}

/// One message as it is written.
struct Line<'a> {
    chat_id: i32,
    sender_kind: SenderKind,
    sender_employee_id: Option<i32>,
    text: &'a str,
    trace_id: Option<String>,
    mentioned: &'a [i32],
    at: DateTime<Utc>,
}

async fn insert_line(
    conn: &impl ConnectionTrait,
    line: Line<'_>,
) -> Result<chat_message::Model, DbErr> {
    q::insert_message(
        conn,
        chat_message::ActiveModel {
            id: NotSet,
            chat_id: Set(line.chat_id),
            sender_kind: Set(line.sender_kind),
            sender_employee_id: Set(line.sender_employee_id),
            text: Set(line.text.to_owned()),
            trace_id: Set(line.trace_id),
            created_at: Set(line.at),
            mentions: Set((!line.mentioned.is_empty()).then(|| serde_json::json!(line.mentioned))),
            sender_person_id: Set(None),
            corrects_id: Set(None),
        },
    )
    .await
}

pub(crate) async fn insert_chat(
    conn: &impl ConnectionTrait,
    kind: ChatKind,
    mode: ChatMode,
    name: &str,
    department_id: Option<i32>,
    topic: Option<&str>,
    now: DateTime<Utc>,
) -> Result<chat::Model, DbErr> {
    q::insert_chat(
        conn,
        chat::ActiveModel {
            id: NotSet,
            kind: Set(kind),
            name: Set(name.to_owned()),
            department_id: Set(department_id),
            created_at: Set(now),
            mode: Set(mode),
            boss_last_read_message_id: Set(None),
            topic: Set(topic.map(str::to_owned)),
        },
    )
    .await
}

/// The org chart's rule for group chats: an employee is in their own department's group
/// chat (created on first use) and in no other department's. Runs inside the org
/// change's own transaction, so a hire or a move and its chat membership land together
/// or not at all; returns the chats whose members changed, to announce after commit.
pub(crate) async fn follow_department(
    conn: &impl ConnectionTrait,
    employee_id: i32,
    department_id: Option<i32>,
    now: DateTime<Utc>,
) -> Result<Vec<i32>, DbErr> {
    let mut changed = Vec::new();
    for c in q::chats_of_employee(conn, employee_id).await? {
        if c.kind == ChatKind::Department && c.department_id != department_id {
            q::delete_member(conn, c.id, employee_id).await?;
            changed.push(c.id);
        }
    }
    let Some(d) = department_id else {
        return Ok(changed);
    };
    // Locked, so two hires into a department without its chat make it once.
    let Some(dept) = oq::lock_department(conn, d).await? else {
        return Ok(changed);
    };
    let c = match q::find_department_chat(conn, d).await? {
        Some(c) => c,
        None => {
            let kind = ChatKind::Department;
            insert_chat(conn, kind, mode_of(kind), &dept.name, Some(d), None, now).await?
        }
    };
    if q::find_member(conn, c.id, employee_id).await?.is_none() {
        insert_member(conn, c.id, employee_id, now).await?;
        changed.push(c.id);
    }
    Ok(changed)
}

pub(crate) async fn insert_member(
    conn: &impl ConnectionTrait,
    chat_id: i32,
    employee_id: i32,
    now: DateTime<Utc>,
) -> Result<chat_member::Model, DbErr> {
    q::insert_member(
        conn,
        chat_member::ActiveModel {
            id: NotSet,
            chat_id: Set(chat_id),
            employee_id: Set(employee_id),
            joined_at: Set(now),
            last_read_message_id: Set(None),
        },
    )
    .await
}

/// Who is who, for messages and thoughts: the boss and every employee ever hired (a
/// fired colleague's old messages keep their name).
pub(crate) struct Names {
    boss: String,
    people: std::collections::HashMap<i32, String>,
    /// The company's people (humans besides the boss), by person id.
    humans: std::collections::HashMap<i32, String>,
}

impl Names {
    pub(crate) async fn load(conn: &impl ConnectionTrait) -> Result<Self, DbErr> {
        let Some(company) = oq::find_company(conn).await? else {
            return Ok(Self {
                boss: String::new(),
                people: Default::default(),
                humans: Default::default(),
            });
        };
        Ok(Self {
            boss: company.boss_name,
            people: oq::list_employees(conn, company.id, true)
                .await?
                .into_iter()
                .map(|e| (e.id, e.name))
                .collect(),
            humans: cubicle_store::people::list_people(conn, company.id)
                .await?
                .into_iter()
                .map(|p| (p.id, p.name))
                .collect(),
        })
    }

    pub(crate) fn boss(&self) -> &str {
        &self.boss
    }

    pub(crate) fn person(&self, id: i32) -> &str {
        self.people.get(&id).map_or("", String::as_str)
    }

    /// A person's name (a human of the company besides the boss).
    pub(crate) fn human(&self, id: i32) -> &str {
        self.humans.get(&id).map_or("", String::as_str)
    }
}

pub(crate) fn rfc3339(t: DateTime<Utc>) -> String {
    t.to_rfc3339_opts(SecondsFormat::Secs, true)
}

pub(crate) fn message_dto(m: &chat_message::Model, names: &Names) -> ChatMessageDto {
    ChatMessageDto {
        id: m.id,
        chat_id: m.chat_id,
        sender_kind: m.sender_kind,
        sender_employee_id: m.sender_employee_id,
        sender_person_id: m.sender_person_id,
        sender_name: match m.sender_kind {
            SenderKind::Boss => names.boss.clone(),
            SenderKind::Employee | SenderKind::System => m
                .sender_employee_id
                .map(|id| names.person(id).to_owned())
                .unwrap_or_default(),
            SenderKind::Person | SenderKind::Proxy => m
                .sender_person_id
                .map(|id| names.human(id).to_owned())
                .unwrap_or_default(),
        },
        text: m.text.clone(),
        mentions: m
            .mentions
            .as_ref()
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default(),
        trace_id: m.trace_id.clone(),
        created_at: rfc3339(m.created_at),
        corrects_id: m.corrects_id,
    }
}
