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
pub mod moderator;

use std::collections::HashMap;
use std::sync::Arc;

use cubicle_llm::{ChatMessage, CompletionRequest};
use cubicle_store::entity::{chat, chat_member, chat_message, decision, meeting, moderator_note};
use cubicle_store::{Db, DbErr, TransactionTrait, chat as cq, meeting as q, org as oq};
use sea_orm::ActiveValue::{NotSet, Set};
use serde::Deserialize;

use self::arbitration::{Outcome, Person, Position, Ruling, Stance};
use self::moderator::{Limits, ModelPick, Move, Participant, Strategy, Turn};
use crate::chat::Chats;
use crate::chat::gates::ChatMode;
use crate::clock::SharedClock;
use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};
use crate::gateway::{CallContext, Gateway, Purpose};
use crate::mailbox::{MailKind, Mailbox, NewMail};
use crate::mind::memory_rules::{MemoryKind, Visibility};
use crate::mind::profile::{Minds, NewMemory};
use crate::providers::Providers;

/// How much the minutes matter in a member's long-term memory (1–10): a meeting's
/// outcome outranks chatter but not the boss's explicit instructions.
pub const MINUTES_IMPORTANCE: i32 = 6;
/// Turns shown to the model that picks the next speaker.
const PICK_CONTEXT_TURNS: usize = 20;
/// Characters of one turn quoted in the extractive minutes.
const MINUTES_QUOTE_CHARS: usize = 160;

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
}

/// A ruling as recorded.
#[derive(Clone, Debug, PartialEq)]
pub struct Decided {
    pub record: decision::Model,
    pub ruling: Ruling,
}

#[derive(Deserialize, schemars::JsonSchema)]
struct MinutesReply {
    minutes: String,
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

impl std::fmt::Debug for Meetings {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Meetings").finish_non_exhaustive()
    }
}

impl Meetings {
    #[allow(clippy::too_many_arguments)] // the services a meeting touches, spelled out
    pub fn new(
        db: Db,
        bus: EventBus,
        clock: SharedClock,
        chats: Chats,
        minds: Minds,
        mailbox: Mailbox,
        gateway: Gateway,
        providers: Arc<Providers>,
    ) -> Self {
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
        let txn = self.db.begin().await?;
        let c = cq::insert_chat(
            &txn,
            chat::ActiveModel {
                id: NotSet,
                kind: Set("meeting".into()),
                name: Set(topic.to_owned()),
                department_id: Set(None),
                created_at: Set(now),
                mode: Set(ChatMode::for_chat_kind("meeting").as_str().into()),
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
                strategy: Set(input.strategy.as_str().into()),
                topic: Set(topic.to_owned()),
                status: Set("open".into()),
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
        self.chats.post_system(c.id, topic).await?;
        Ok(c)
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
        let Some(m) = self.find(chat_id).await?.filter(|m| m.status == "open") else {
            return Ok(None);
        };
        let strategy = Strategy::parse(&m.strategy).unwrap_or_default();
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
            self.note(m.id, "pass", Some(employee_id), "the speaker stayed silent")
                .await?;
        }
        Ok(())
    }

    /// Adds members mid-meeting, each announced with a short system note.
    pub async fn add_members(&self, chat_id: i32, employee_ids: &[i32]) -> Result<(), DbErr> {
        let zh = self.mailbox.chinese().await?;
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
            let text = if zh {
                format!("{} 加入了会议", e.name)
            } else {
                format!("{} joined the meeting", e.name)
            };
            self.chats.post_system(chat_id, &text).await?;
        }
        Ok(())
    }

    /// Closes the meeting: minutes (by the summary model when one is configured, else
    /// quoted from the turns) into every member's long-term memory and the boss's
    /// mailbox. Returns the minutes; `None` when there was no open meeting.
    pub async fn close(&self, chat_id: i32) -> Result<Option<String>, DbErr> {
        let Some(m) = self.find(chat_id).await?.filter(|m| m.status == "open") else {
            return Ok(None);
        };
        let zh = self.mailbox.chinese().await?;
        let minutes = self.minutes(&m, zh).await?;
        if !q::close_meeting(&self.db, m.id, &minutes, self.clock.now()).await? {
            return Ok(None);
        }
        let content = if zh {
            format!("会议“{}”纪要：{minutes}", m.topic)
        } else {
            format!("Minutes of the meeting \"{}\": {minutes}", m.topic)
        };
        for member in cq::members(&self.db, chat_id).await? {
            let Some(e) = oq::find_employee(&self.db, member.employee_id).await? else {
                continue;
            };
            self.minds
                .remember(
                    e.id,
                    e.department_id,
                    NewMemory {
                        kind: MemoryKind::LongTerm,
                        content: content.clone(),
                        importance: Some(MINUTES_IMPORTANCE),
                        ttl_hours: None,
                        visibility: Visibility::Team,
                        requirement_id: None,
                        source_chat_id: Some(chat_id),
                    },
                )
                .await?;
        }
        self.mailbox
            .file(NewMail {
                kind: MailKind::Minutes,
                employee_id: None,
                chat_id: Some(chat_id),
                task_id: None,
                title: if zh {
                    format!("会议纪要：{}", m.topic)
                } else {
                    format!("Minutes: {}", m.topic)
                },
                body: minutes.clone(),
            })
            .await?;
        self.chats
            .post_system(
                chat_id,
                if zh {
                    "会议结束，纪要已存入每位成员的记忆并发到老板的邮箱。"
                } else {
                    "The meeting is closed; the minutes went to every member's memory and the boss's mailbox."
                },
            )
            .await?;
        // The meeting is over and its outcome is in everyone's memory: polls should not
        // bring its members back to it.
        if let Some(last) = cq::latest_message_id(&self.db, chat_id).await? {
            for member in cq::members(&self.db, chat_id).await? {
                cq::set_member_read(&self.db, chat_id, member.employee_id, last).await?;
            }
        }
        Ok(Some(minutes))
    }

    /// Arbitration's hook on a member's turn (SPEC §9): a question only the boss may
    /// decide is escalated at once; an objection to what was said gets a ruling. The
    /// meeting is never held up by either.
    pub async fn on_turn(&self, message_id: i32) -> Result<Option<Decided>, DbErr> {
        let Some(message) = cq::find_message(&self.db, message_id).await? else {
            return Ok(None);
        };
        let Some(speaker) = message.sender_employee_id else {
            return Ok(None);
        };
        if message.sender_kind != "employee" {
            return Ok(None);
        }
        let text = message.text.trim();
        let t = arbitration::classify(text);
        if t.goes_to_boss() && raises_question(text) {
            let asked = q::decisions_in_chat(&self.db, message.chat_id)
                .await?
                .iter()
                .any(|d| d.question == text);
            if asked {
                return Ok(None);
            }
            let positions = [Position {
                employee_id: speaker,
                stance: Stance::Support,
                proposer: true,
            }];
            return self
                .arbitrate(Some(message.chat_id), text, &positions)
                .await
                .map(Some);
        }
        if !moderator::disagrees(text) {
            return Ok(None);
        }
        // The question is the last thing someone else said that was neither an
        // objection nor a mere agreement; the positions are what everyone said since.
        let turns = cq::messages(&self.db, message.chat_id).await?;
        let upto: Vec<&chat_message::Model> = turns.iter().filter(|m| m.id <= message.id).collect();
        let Some(proposal) = upto.iter().rev().find(|m| {
            m.sender_kind == "employee"
                && m.sender_employee_id != Some(speaker)
                && !moderator::disagrees(&m.text)
                && !moderator::agrees(&m.text)
        }) else {
            return Ok(None);
        };
        let Some(proposer) = proposal.sender_employee_id else {
            return Ok(None);
        };
        let mut positions = vec![Position {
            employee_id: proposer,
            stance: Stance::Support,
            proposer: true,
        }];
        for m in upto.iter().filter(|m| m.id > proposal.id) {
            let Some(id) = m.sender_employee_id.filter(|id| *id != proposer) else {
                continue;
            };
            let stance = if moderator::disagrees(&m.text) {
                Stance::Oppose
            } else if moderator::agrees(&m.text) {
                Stance::Support
            } else {
                continue;
            };
            positions.retain(|p| p.employee_id != id);
            positions.push(Position {
                employee_id: id,
                stance,
                proposer: false,
            });
        }
        self.arbitrate(Some(message.chat_id), &proposal.text, &positions)
            .await
            .map(Some)
    }

    /// Rules on `question` and records the decision with its authorization chain. A
    /// question for the boss is recorded as escalated and filed to the mailbox by the
    /// secretary, with a short note in the meeting that it goes on; any other ruling is
    /// recorded as decided and announced.
    pub async fn arbitrate(
        &self,
        chat_id: Option<i32>,
        question: &str,
        positions: &[Position],
    ) -> Result<Decided, DbErr> {
        let people = self.people().await?;
        let ruling = arbitration::arbitrate(question, positions, &people);
        let meeting = match chat_id {
            Some(c) => self.find(c).await?,
            None => None,
        };
        let escalated = ruling.outcome == Outcome::Escalated;
        let (kind, by) = match &ruling.decided_by {
            arbitration::DecidedBy::Lead { employee_id } => ("lead", Some(*employee_id)),
            arbitration::DecidedBy::Vote { .. } => ("vote", None),
            arbitration::DecidedBy::Boss => ("boss", None),
        };
        let record = q::insert_decision(
            &self.db,
            decision::ActiveModel {
                id: NotSet,
                meeting_id: Set(meeting.as_ref().map(|m| m.id)),
                chat_id: Set(chat_id),
                trace_id: Set(None),
                question: Set(question.to_owned()),
                decision_type: Set(ruling.decision_type.as_str().into()),
                outcome: Set(ruling.outcome.as_str().into()),
                decided_by_kind: Set(kind.into()),
                decided_by_employee_id: Set(by),
                status: Set(if escalated { "escalated" } else { "decided" }.into()),
                authorization_chain: Set(
                    serde_json::to_value(&ruling.authorization_chain).unwrap_or_default()
                ),
                created_at: Set(self.clock.now()),
            },
        )
        .await?;
        let zh = self.mailbox.chinese().await?;
        if escalated {
            let topic = meeting.as_ref().map_or("", |m| m.topic.as_str());
            self.mailbox
                .file(NewMail {
                    kind: MailKind::Escalation,
                    employee_id: positions.iter().find(|p| p.proposer).map(|p| p.employee_id),
                    chat_id,
                    task_id: None,
                    title: if zh {
                        format!("需要你决定：{question}")
                    } else {
                        format!("Decision needed: {question}")
                    },
                    body: if zh {
                        format!(
                            "会议“{topic}”（会话 {}）中提出了一个只有老板能决定的{}问题：{question}\n秘书代你记下了，会议照常进行。",
                            chat_id.unwrap_or_default(),
                            ruling.decision_type.as_str()
                        )
                    } else {
                        format!(
                            "In the meeting \"{topic}\" (chat {}) a {} question came up that only you can decide: {question}\nThe secretary noted it for you; the meeting goes on.",
                            chat_id.unwrap_or_default(),
                            ruling.decision_type.as_str()
                        )
                    },
                })
                .await?;
            if let Some(c) = chat_id {
                self.chats
                    .post_system(
                        c,
                        if zh {
                            "秘书已把这个问题转给老板，会议继续。"
                        } else {
                            "The secretary has taken this to the boss; the meeting goes on."
                        },
                    )
                    .await?;
            }
        } else if let Some(c) = chat_id {
            let by_whom = match &ruling.decided_by {
                arbitration::DecidedBy::Lead { employee_id } => people
                    .iter()
                    .find(|p| p.id == *employee_id)
                    .map_or_else(String::new, |p| p.name.clone()),
                _ => if zh { "投票" } else { "a vote" }.to_owned(),
            };
            let text = match (zh, ruling.outcome) {
                (true, Outcome::Approved) => format!("裁定：“{question}”通过（{by_whom}）。"),
                (true, _) => format!("裁定：“{question}”不通过（{by_whom}）。"),
                (false, Outcome::Approved) => {
                    format!("Ruling: \"{question}\" is approved ({by_whom}).")
                }
                (false, _) => format!("Ruling: \"{question}\" is rejected ({by_whom})."),
            };
            self.chats.post_system(c, &text).await?;
        }
        Ok(Decided { record, ruling })
    }

    /// Members (present) and everyone else on staff (candidates), in join order.
    async fn participants(&self, chat_id: i32) -> Result<Vec<Participant>, DbErr> {
        let Some(company) = oq::find_company(&self.db).await? else {
            return Ok(vec![]);
        };
        let departments: HashMap<i32, String> = oq::list_departments(&self.db, company.id)
            .await?
            .into_iter()
            .map(|d| (d.id, d.name))
            .collect();
        let members: Vec<i32> = cq::members(&self.db, chat_id)
            .await?
            .into_iter()
            .map(|m| m.employee_id)
            .collect();
        let staff = oq::list_employees(&self.db, company.id, false).await?;
        let mut out: Vec<Participant> = Vec::new();
        for id in &members {
            if let Some(e) = staff.iter().find(|e| e.id == *id) {
                out.push(participant(e, &departments, true));
            }
        }
        for e in staff.iter().filter(|e| !members.contains(&e.id)) {
            out.push(participant(e, &departments, false));
        }
        Ok(out)
    }

    /// Everyone on staff as arbitration sees them.
    async fn people(&self) -> Result<Vec<Person>, DbErr> {
        let Some(company) = oq::find_company(&self.db).await? else {
            return Ok(vec![]);
        };
        let departments = oq::list_departments(&self.db, company.id).await?;
        Ok(oq::list_employees(&self.db, company.id, false)
            .await?
            .into_iter()
            .map(|e| {
                let dept = e
                    .department_id
                    .and_then(|d| departments.iter().find(|x| x.id == d));
                Person {
                    id: e.id,
                    name: e.name.clone(),
                    title: e.title.clone(),
                    department: dept.map(|d| d.name.clone()),
                    is_lead: departments.iter().any(|d| d.lead_id == Some(e.id)),
                    expertise: skills(&e),
                }
            })
            .collect())
    }

    /// What members said (and the boss, who may speak anywhere), with the passes of
    /// silent speakers, in time order. System notes are not turns.
    async fn history(&self, m: &meeting::Model) -> Result<Vec<Turn>, DbErr> {
        let mut turns: Vec<(chrono::DateTime<chrono::Utc>, u8, i32, Turn)> =
            cq::messages(&self.db, m.chat_id)
                .await?
                .into_iter()
                .filter(|msg| msg.sender_kind != "system")
                .map(|msg| {
                    (
                        msg.created_at,
                        0,
                        msg.id,
                        Turn {
                            speaker_id: msg.sender_employee_id,
                            text: msg.text,
                            passed: false,
                        },
                    )
                })
                .collect();
        for n in q::notes(&self.db, m.id).await? {
            if n.move_kind == "pass" {
                turns.push((
                    n.created_at,
                    1,
                    n.id,
                    Turn {
                        speaker_id: n.employee_id,
                        text: String::new(),
                        passed: true,
                    },
                ));
            }
        }
        turns.sort_by_key(|(at, order, id, _)| (*at, *order, *id));
        Ok(turns.into_iter().map(|(.., t)| t).collect())
    }

    /// Asks the model who should speak next; `None` on any failure (the moderator then
    /// falls back to its rules). The prompt holds only what members said — never an
    /// earlier move's reasoning.
    async fn ask_model(
        &self,
        m: &meeting::Model,
        participants: &[Participant],
        history: &[Turn],
    ) -> Option<ModelPick> {
        let name = |id: Option<i32>| match id {
            Some(id) => participants
                .iter()
                .find(|p| p.id == id)
                .map_or("someone", |p| p.name.as_str()),
            None => "the boss",
        };
        let roster = |present: bool| {
            participants
                .iter()
                .filter(|p| p.present == present)
                .map(|p| format!("- {} ({}; {})", p.name, p.title, p.expertise.join(", ")))
                .collect::<Vec<_>>()
                .join("\n")
        };
        let transcript = history
            .iter()
            .rev()
            .take(PICK_CONTEXT_TURNS)
            .rev()
            .map(|t| {
                if t.passed {
                    format!("{}: (passed)", name(t.speaker_id))
                } else {
                    format!("{}: {}", name(t.speaker_id), t.text)
                }
            })
            .collect::<Vec<_>>()
            .join("\n");
        let request = CompletionRequest {
            messages: vec![
                ChatMessage::system(
                    "You moderate a work meeting. Pick who should speak next: a member, or \
                     someone from the invitable list when the discussion needs them, or \
                     \"close\" when the meeting has reached its conclusion. Never pick the \
                     last speaker again. Answer with JSON {\"speaker\": name, \"reason\": why}.",
                ),
                ChatMessage::user(format!(
                    "Topic: {}\n\nMembers:\n{}\n\nInvitable:\n{}\n\nTranscript:\n{}",
                    m.topic,
                    roster(true),
                    roster(false),
                    transcript
                )),
            ],
            temperature: Some(0.2),
            max_tokens: Some(200),
            ..Default::default()
        };
        let route = match self.providers.route_for(Purpose::Thought).await {
            Ok(r) => r,
            Err(e) => {
                tracing::info!(error = %e, "no route for the moderator; rules decide");
                return None;
            }
        };
        match self
            .gateway
            .complete_json::<ModelPick>(&CallContext::new(Purpose::Thought), route, request)
            .await
        {
            Ok(reply) => Some(reply.value),
            Err(e) => {
                tracing::info!(error = %e, "the moderator model failed; rules decide");
                None
            }
        }
    }

    /// The meeting's minutes: the summary model's when a summary route is configured
    /// and answers, else quoted from the turns.
    async fn minutes(&self, m: &meeting::Model, zh: bool) -> Result<String, DbErr> {
        let names = crate::chat::Names::load(&self.db).await?;
        let said: Vec<(String, String)> = cq::messages(&self.db, m.chat_id)
            .await?
            .into_iter()
            .filter(|msg| msg.sender_kind != "system")
            .map(|msg| {
                let who = match msg.sender_employee_id {
                    Some(id) => names.person(id).to_owned(),
                    None => names.boss().to_owned(),
                };
                (who, msg.text)
            })
            .collect();
        let decisions = q::decisions_in_chat(&self.db, m.chat_id).await?;
        if let Ok(Some(route)) = self.providers.configured_route(Purpose::Summary).await {
            let transcript = said
                .iter()
                .map(|(who, text)| format!("{who}: {text}"))
                .collect::<Vec<_>>()
                .join("\n");
            let request = CompletionRequest {
                messages: vec![
                    ChatMessage::system(format!(
                        "Write the minutes of a work meeting in {}: what was said that matters, \
                         what was decided, what is open. At most 120 words. Answer with JSON \
                         {{\"minutes\": text}}.",
                        if zh { "Chinese" } else { "English" }
                    )),
                    ChatMessage::user(format!("Topic: {}\n\n{transcript}", m.topic)),
                ],
                temperature: Some(0.2),
                max_tokens: Some(400),
                ..Default::default()
            };
            match self
                .gateway
                .complete_json::<MinutesReply>(&CallContext::new(Purpose::Summary), route, request)
                .await
            {
                Ok(reply) if !reply.value.minutes.trim().is_empty() => {
                    return Ok(reply.value.minutes.trim().to_owned());
                }
                Ok(_) => tracing::info!("the summary model wrote empty minutes; quoting"),
                Err(e) => tracing::info!(error = %e, "no model minutes; quoting the turns"),
            }
        }
        Ok(extractive_minutes(&m.topic, &said, &decisions, zh))
    }

    async fn note(
        &self,
        meeting_id: i32,
        kind: &str,
        employee_id: Option<i32>,
        reason: &str,
    ) -> Result<(), DbErr> {
        q::insert_note(
            &self.db,
            moderator_note::ActiveModel {
                id: NotSet,
                meeting_id: Set(meeting_id),
                move_kind: Set(kind.into()),
                employee_id: Set(employee_id),
                reason: Set(reason.to_owned()),
                created_at: Set(self.clock.now()),
            },
        )
        .await?;
        Ok(())
    }
}

/// Whether a turn asks for a decision: a question, or a proposal to act.
fn raises_question(text: &str) -> bool {
    const MARKERS: [&str; 16] = [
        "?",
        "？",
        "should we",
        "shall we",
        "can we",
        "let's",
        "we need",
        "propose",
        "suggest",
        "要不要",
        "是否",
        "能不能",
        "可不可以",
        "建议",
        "我们需要",
        "吗",
    ];
    let t = text.to_lowercase();
    MARKERS.iter().any(|k| t.contains(k))
}

/// Skill keywords, lower-case.
fn skills(e: &cubicle_store::entity::employee::Model) -> Vec<String> {
    serde_json::from_value::<Vec<String>>(e.skills.clone())
        .unwrap_or_default()
        .into_iter()
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

/// Title words that say nothing about what someone knows.
const GENERIC_TITLE_WORDS: [&str; 12] = [
    "engineer",
    "senior",
    "junior",
    "lead",
    "manager",
    "head",
    "staff",
    "principal",
    "the",
    "and",
    "of",
    "intern",
];

fn participant(
    e: &cubicle_store::entity::employee::Model,
    departments: &HashMap<i32, String>,
    present: bool,
) -> Participant {
    let mut expertise = skills(e);
    for w in e
        .title
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric())
        .filter(|w| w.chars().count() >= 2 && !GENERIC_TITLE_WORDS.contains(w))
    {
        if !expertise.iter().any(|k| k == w) {
            expertise.push(w.to_owned());
        }
    }
    Participant {
        id: e.id,
        name: e.name.clone(),
        title: e.title.clone(),
        expertise,
        department: e.department_id.and_then(|d| departments.get(&d).cloned()),
        present,
    }
}

/// Minutes without a model: who said what (each turn's first sentence), then the
/// decisions and what went to the boss.
pub fn extractive_minutes(
    topic: &str,
    said: &[(String, String)],
    decisions: &[decision::Model],
    zh: bool,
) -> String {
    let mut out = if zh {
        format!("议题：{topic}（{} 次发言）\n", said.len())
    } else {
        format!("Topic: {topic} ({} turns)\n", said.len())
    };
    for (who, text) in said {
        let first = text
            .split_inclusive(['.', '!', '?', '。', '！', '？'])
            .next()
            .unwrap_or(text)
            .trim();
        let quote: String = first.chars().take(MINUTES_QUOTE_CHARS).collect();
        out.push_str(&format!("- {who}: {quote}\n"));
    }
    for d in decisions {
        let line = match (zh, d.status.as_str()) {
            (true, "escalated") => format!("待老板决定：{}\n", d.question),
            (true, _) => format!(
                "决定（{}）：{} → {}\n",
                d.decision_type, d.question, d.outcome
            ),
            (false, "escalated") => format!("For the boss to decide: {}\n", d.question),
            (false, _) => format!(
                "Decided ({}): {} → {}\n",
                d.decision_type, d.question, d.outcome
            ),
        };
        out.push_str(&line);
    }
    out.trim_end().to_owned()
}
