//! What the boss sees of a meeting (SPEC §9, §11): its moderation, the moderator's
//! moves with their reasons (shown to the boss, never to the members), and every
//! decision with its authorization chain.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::arbitration::{DecidedByKind, DecisionStatus, DecisionType, Link, Outcome};
use super::moderator::{MoveKind, Strategy};
use super::{MeetingError, MeetingResult, MeetingStatus, Meetings};
use crate::chat::{Names, rfc3339};

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ModeratorNoteDto {
    pub kind: MoveKind,
    pub employee_id: Option<i32>,
    pub employee_name: String,
    pub reason: String,
    pub at: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DecisionDto {
    pub id: i32,
    pub question: String,
    pub decision_type: DecisionType,
    pub outcome: Outcome,
    pub decided_by_kind: DecidedByKind,
    pub decided_by_name: Option<String>,
    pub status: DecisionStatus,
    pub authorization_chain: Vec<Link>,
    pub trace_id: Option<String>,
    pub created_at: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MeetingViewDto {
    pub chat_id: i32,
    pub topic: String,
    pub strategy: Strategy,
    pub status: MeetingStatus,
    pub max_turns: u32,
    /// Who has the floor now.
    pub speaker_id: Option<i32>,
    pub speaker_name: Option<String>,
    pub minutes: Option<String>,
    pub notes: Vec<ModeratorNoteDto>,
    pub decisions: Vec<DecisionDto>,
    pub created_at: String,
    pub closed_at: Option<String>,
}

/// A decision with the meeting it was taken in (`cubicle-cli decisions`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DecisionRecord {
    pub chat_id: Option<i32>,
    /// The meeting's topic; `None` for a ruling outside a meeting.
    pub topic: Option<String>,
    #[serde(flatten)]
    pub decision: DecisionDto,
}

fn decision_dto(d: cubicle_store::entity::decision::Model, names: &Names) -> DecisionDto {
    DecisionDto {
        id: d.id,
        question: d.question,
        decision_type: d.decision_type,
        outcome: d.outcome,
        decided_by_kind: d.decided_by_kind,
        decided_by_name: d
            .decided_by_employee_id
            .map(|id| names.person(id).to_owned()),
        status: d.status,
        authorization_chain: serde_json::from_value(d.authorization_chain).unwrap_or_default(),
        trace_id: d.trace_id,
        created_at: rfc3339(d.created_at),
    }
}

/// Which meeting.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct MeetingRef {
    pub chat_id: i32,
}

impl Meetings {
    /// The meeting held in `chat_id`, as the boss sees it.
    pub async fn view(&self, chat_id: i32) -> MeetingResult<MeetingViewDto> {
        let m = self
            .find(chat_id)
            .await?
            .ok_or(MeetingError::NotFound(chat_id))?;
        let names = Names::load(&self.db).await?;
        let person = |id: Option<i32>| id.map(|id| names.person(id).to_owned());
        let notes = self
            .notes(chat_id)
            .await?
            .into_iter()
            .map(|n| ModeratorNoteDto {
                kind: n.move_kind,
                employee_id: n.employee_id,
                employee_name: person(n.employee_id).unwrap_or_default(),
                reason: n.reason,
                at: rfc3339(n.created_at),
            })
            .collect();
        let decisions = self
            .decisions(chat_id)
            .await?
            .into_iter()
            .map(|d| decision_dto(d, &names))
            .collect();
        Ok(MeetingViewDto {
            chat_id,
            topic: m.topic,
            strategy: m.strategy,
            status: m.status,
            max_turns: u32::try_from(m.max_turns).unwrap_or(0),
            speaker_id: m.current_speaker_id,
            speaker_name: person(m.current_speaker_id),
            minutes: m.minutes,
            notes,
            decisions,
            created_at: rfc3339(m.created_at),
            closed_at: m.closed_at.map(rfc3339),
        })
    }

    /// Every decision of the company, oldest first, each with its meeting.
    pub async fn all_decisions(&self) -> Result<Vec<DecisionRecord>, cubicle_store::DbErr> {
        let names = Names::load(&self.db).await?;
        let mut out = Vec::new();
        for d in cubicle_store::meeting::all_decisions(&self.db).await? {
            let topic = match d.chat_id {
                Some(c) => self.find(c).await?.map(|m| m.topic),
                None => None,
            };
            out.push(DecisionRecord {
                chat_id: d.chat_id,
                topic,
                decision: decision_dto(d, &names),
            });
        }
        Ok(out)
    }

    /// The boss ends a meeting now: minutes are taken as at a natural close.
    pub async fn end(&self, chat_id: i32) -> MeetingResult<MeetingViewDto> {
        let open = self
            .find(chat_id)
            .await?
            .ok_or(MeetingError::NotFound(chat_id))?;
        if open.status != MeetingStatus::Open {
            return Err(MeetingError::InvalidInput(
                "this meeting is already closed".into(),
            ));
        }
        self.close(chat_id).await?;
        self.view(chat_id).await
    }
}
