//! What the moderator is fed: who is in the room and who could be invited (with their
//! expertise), what has been said (with the passes of silent speakers), and — for the
//! model-picked strategy — the model's pick. Only what members said goes to the model:
//! never an earlier move's reasoning.

use std::collections::HashMap;

use cubicle_llm::{ChatMessage, CompletionRequest};
use cubicle_store::entity::meeting;
use cubicle_store::{DbErr, chat as cq, meeting as q, org as oq};

use super::Meetings;
use super::moderator::{ModelPick, MoveKind, Participant, Turn};
use crate::chat::SenderKind;
use crate::gateway::{CallContext, Purpose};

/// Turns shown to the model that picks the next speaker.
const PICK_CONTEXT_TURNS: usize = 20;

impl Meetings {
    /// Members (present) and everyone else on staff (candidates), in join order.
    pub(super) async fn participants(&self, chat_id: i32) -> Result<Vec<Participant>, DbErr> {
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

    /// What members said (and the boss, who may speak anywhere), with the passes of
    /// silent speakers, in time order. System notes are not turns.
    pub(super) async fn history(&self, m: &meeting::Model) -> Result<Vec<Turn>, DbErr> {
        let mut turns: Vec<(chrono::DateTime<chrono::Utc>, u8, i32, Turn)> =
            cq::messages(&self.db, m.chat_id)
                .await?
                .into_iter()
                .filter(|msg| msg.sender_kind != SenderKind::System)
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
            if n.move_kind == MoveKind::Pass {
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
    pub(super) async fn ask_model(
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
        let context = CallContext {
            trace_id: self.trace_of(m.chat_id).await.ok().flatten(),
            ..CallContext::new(Purpose::Thought)
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
            .complete_json::<ModelPick>(&context, route, request)
            .await
        {
            Ok(reply) => Some(reply.value),
            Err(e) => {
                tracing::info!(error = %e, "the moderator model failed; rules decide");
                None
            }
        }
    }
}

/// Skill keywords, lower-case.
pub(crate) fn skills(e: &cubicle_store::entity::employee::Model) -> Vec<String> {
    serde_json::from_value::<Vec<String>>(e.skills.clone())
        .unwrap_or_default()
        .into_iter()
        .map(|s| s.trim().to_lowercase())
        .filter(|s| !s.is_empty())
        .collect()
}

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
