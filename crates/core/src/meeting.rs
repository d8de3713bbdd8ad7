//! Meetings / council (SPEC §9): a topic with a dynamic member set and a moderator.
//!
//! Owns the `meeting`, `moderator_note` and `decision` tables. The moderator
//! ([`moderator::next`]) and arbitration ([`arbitration::arbitrate`]) are pure; this
//! service feeds them from the database and carries out what they decide: it gives the
//! floor to one speaker, invites people, records the moderator's reasoning apart from
//! the chat (it never enters the meeting's context), rules on conflicts, and — as the
//! boss's proxy, the secretary — takes money, resources and external commitments to the
//! boss's mailbox while the meeting goes on. Closing a meeting takes minutes into every
//! member's memory and the boss's mailbox. The engine asks it who may speak.

pub mod arbitration;
mod inputs;
mod minutes;
pub mod moderator;
mod rulings;
pub mod stance;
pub mod view;

pub(crate) use inputs::skills;
pub use minutes::extractive_minutes;

use std::sync::Arc;

use cubicle_store::BeginWrite as _;
use cubicle_store::entity::{chat, chat_member, decision, meeting, moderator_note};
use cubicle_store::{Db, DbErr, chat as cq, meeting as q, org as oq};
use sea_orm::ActiveValue::{NotSet, Set};

use self::arbitration::Ruling;
use self::moderator::{Limits, Move, MoveKind, Strategy};
use crate::chat::ChatKind;
use crate::chat::Chats;
use crate::chat::gates::mode_for;
use crate::clock::SharedClock;
use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};
use crate::gateway::Gateway;
use crate::mailbox::Mailbox;
use crate::mind::minds::Minds;
use crate::providers::Providers;

/// How much the minutes matter in a member's long-term memory (1–10): a meeting's
/// outcome outranks chatter but not the boss's explicit instructions.
pub const MINUTES_IMPORTANCE: i32 = 6;

/// Whether a meeting still runs.
pub use cubicle_store::enums::MeetingStatus;

#[derive(Debug, thiserror::Error)]
pub enum MeetingError {
    #[error("{0}")]
    InvalidInput(String),
    #[error("no meeting in chat {0}")]
    NotFound(i32),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl From<MeetingError> for IpcError {
    fn from(e: MeetingError) -> Self {
        let code = match &e {
            MeetingError::InvalidInput(_) => ErrorCode::InvalidInput,
            MeetingError::NotFound(_) => ErrorCode::NotFound,
            MeetingError::Storage(inner) => {
                tracing::error!(error = %inner, "storage error");
                ErrorCode::Storage
            }
        };
        IpcError::new(code, e.to_string())
    }
}

pub type MeetingResult<T> = Result<T, MeetingError>;

/// A meeting to open.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenMeeting {
    pub topic: String,
    pub participant_ids: Vec<i32>,
    pub strategy: Strategy,
    /// Member turns before it closes; the moderator's default when `None`.
    pub max_turns: Option<usize>,
    /// The boss instruction that called it: the meeting's thoughts, model calls and
    /// rulings are part of that story.
    pub trace_id: Option<String>,
}

/// A ruling as recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Decided {
    pub record: decision::Model,
    pub ruling: Ruling,
}

#[derive(Clone)]
pub struct Meetings {
    db: Db,
    bus: EventBus,
    clock: SharedClock,
    chats: Chats,
    minds: Minds,
    mailbox: Mailbox,
    gateway: Gateway,
    providers: Arc<Providers>,
}

/// The services a meeting touches.
pub struct MeetingServices {
    pub db: Db,
    pub bus: EventBus,
    pub clock: SharedClock,
    pub chats: Chats,
    pub minds: Minds,
    pub mailbox: Mailbox,
    pub gateway: Gateway,
    pub providers: Arc<Providers>,
}

impl std::fmt::Debug for Meetings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Meetings").finish_non_exhaustive()
    }
}

impl Meetings {
    pub fn new(services: MeetingServices) -> Self {
        let MeetingServices {
            db,
            bus,
            clock,
            chats,
            minds,
            mailbox,
            gateway,
            providers,
        } = services;
        Self {
            db,
            bus,
            clock,
            chats,
            minds,
            mailbox,
            gateway,
            providers,
        }
    }

    /// Opens a meeting: the chat, its members and its moderation row in one
    /// transaction — so the engine never sees an unmoderated meeting — then the topic as
    /// a system note, which starts the moderator.
    pub async fn open(&self, input: OpenMeeting) -> MeetingResult<chat::Model> {
        let topic = input.topic.trim();
        if topic.is_empty() {
            return Err(MeetingError::InvalidInput("a meeting needs a topic".into()));
        }
        let mut ids = input.participant_ids.clone();
        ids.dedup();
        if ids.is_empty() {
            return Err(MeetingError::InvalidInput(
                "a meeting needs at least one participant".into(),
            ));
        }
        for id in &ids {
            if oq::find_employee(&self.db, *id)
                .await?
                .filter(|e| e.fired_at.is_none())
                .is_none()
            {
                return Err(MeetingError::InvalidInput(format!(
                    "employee {id} cannot attend"
                )));
            }
        }
        let now = self.clock.now();
        let max_turns = input
            .max_turns
            .unwrap_or(moderator::DEFAULT_MAX_TURNS)
            .max(1);
        let txn = self.db.begin_write().await?;
        let c = cq::insert_chat(
            &txn,
            chat::ActiveModel {
                id: NotSet,
                kind: Set(ChatKind::Meeting),
                name: Set(topic.to_owned()),
                department_id: Set(None),
                created_at: Set(now),
                mode: Set(mode_for(ChatKind::Meeting)),
                boss_last_read_message_id: Set(None),
                topic: Set(Some(topic.to_owned())),
            },
        )
        .await?;
        for id in &ids {
            cq::insert_member(
                &txn,
                chat_member::ActiveModel {
                    id: NotSet,
                    chat_id: Set(c.id),
                    employee_id: Set(*id),
                    joined_at: Set(now),
                    last_read_message_id: Set(None),
                },
            )
            .await?;
        }
        q::insert_meeting(
            &txn,
            meeting::ActiveModel {
                id: NotSet,
                chat_id: Set(c.id),
                strategy: Set(input.strategy),
                topic: Set(topic.to_owned()),
                status: Set(MeetingStatus::Open),
                max_turns: Set(i32::try_from(max_turns).unwrap_or(i32::MAX)),
                current_speaker_id: Set(None),
                minutes: Set(None),
                created_at: Set(now),
                closed_at: Set(None),
            },
        )
        .await?;
        txn.commit().await?;
        self.bus.publish(DomainEvent::ChatChanged { chat_id: c.id });
        self.chats
            .post_system_traced(c.id, topic, input.trace_id.clone())
            .await?;
        Ok(c)
    }

    /// The instruction the meeting belongs to: the trace its topic note carries.
    pub(crate) async fn trace_of(&self, chat_id: i32) -> Result<Option<String>, DbErr> {
        Ok(cq::messages(&self.db, chat_id)
            .await?
            .into_iter()
            .find_map(|m| m.trace_id))
    }

    /// The meeting held in `chat_id`, open or closed.
    pub async fn find(&self, chat_id: i32) -> Result<Option<meeting::Model>, DbErr> {
        q::find_meeting_by_chat(&self.db, chat_id).await
    }

    /// The moderator's notes of the meeting in `chat_id`, oldest first.
    pub async fn notes(&self, chat_id: i32) -> Result<Vec<moderator_note::Model>, DbErr> {
        match self.find(chat_id).await? {
            Some(m) => q::notes(&self.db, m.id).await,
            None => Ok(vec![]),
        }
    }

    pub async fn decisions(&self, chat_id: i32) -> Result<Vec<decision::Model>, DbErr> {
        q::decisions_in_chat(&self.db, chat_id).await
    }

    /// The moderator's next move in the open meeting of `chat_id` (`None` when there is
    /// none). The move is recorded with its reasoning as a moderator note, and a chosen
    /// speaker (or the first invitee) gets the floor.
    pub async fn next_move(&self, chat_id: i32) -> Result<Option<Move>, DbErr> {
        let Some(m) = self
            .find(chat_id)
            .await?
            .filter(|m| m.status == MeetingStatus::Open)
        else {
            return Ok(None);
        };
        let strategy = m.strategy;
        let participants = self.participants(chat_id).await?;
        let history = self.history(&m).await?;
        let limits = Limits {
            max_turns: usize::try_from(m.max_turns).unwrap_or(moderator::DEFAULT_MAX_TURNS),
            ..Limits::default()
        };
        let pick = match strategy {
            Strategy::ModelPicked => self.ask_model(&m, &participants, &history).await,
            _ => None,
        };
        let mv = moderator::next(
            strategy,
            &m.topic,
            &participants,
            &history,
            &limits,
            pick.as_ref(),
        );
        let (floor, about) = match &mv {
            Move::Speak { employee_id, .. } => (Some(*employee_id), Some(*employee_id)),
            Move::Invite { employee_ids, .. } => {
                (employee_ids.first().copied(), employee_ids.first().copied())
            }
            Move::Close { .. } => (None, None),
        };
        self.note(m.id, mv.kind(), about, mv.reason()).await?;
        q::set_current_speaker(&self.db, m.id, floor).await?;
        Ok(Some(mv))
    }

    /// The chosen speaker stayed silent: their turn counts as a pass.
    pub async fn record_pass(&self, chat_id: i32, employee_id: i32) -> Result<(), DbErr> {
        if let Some(m) = self.find(chat_id).await? {
            self.note(
                m.id,
                MoveKind::Pass,
                Some(employee_id),
                "the speaker stayed silent",
            )
            .await?;
        }
        Ok(())
    }

    /// Adds members mid-meeting, each announced with a short system note.
    pub async fn add_members(&self, chat_id: i32, employee_ids: &[i32]) -> Result<(), DbErr> {
        let language = self.mailbox.language().await?;
        for id in employee_ids {
            let Some(e) = oq::find_employee(&self.db, *id)
                .await?
                .filter(|e| e.fired_at.is_none())
            else {
                continue;
            };
            if cq::find_member(&self.db, chat_id, *id).await?.is_some() {
                continue;
            }
            self.chats.join(chat_id, *id).await?;
            let text = language.pick(
                format!("{} joined the meeting", e.name),
                format!("{} 加入了会议", e.name),
            );
            self.chats.post_system(chat_id, &text).await?;
        }
        Ok(())
    }

    async fn note(
        &self,
        meeting_id: i32,
        kind: MoveKind,
        employee_id: Option<i32>,
        reason: &str,
    ) -> Result<(), DbErr> {
        q::insert_note(
            &self.db,
            moderator_note::ActiveModel {
                id: NotSet,
                meeting_id: Set(meeting_id),
                move_kind: Set(kind),
                employee_id: Set(employee_id),
                reason: Set(reason.to_owned()),
                created_at: Set(self.clock.now()),
            },
        )
        .await?;
        Ok(())
    }
}
