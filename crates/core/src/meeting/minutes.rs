//! Closing a meeting: the minutes — the summary model's when one is configured, else
//! quoted from the turns — go into every member's long-term memory and the boss's
//! mailbox.

use cubicle_llm::{ChatMessage, CompletionRequest};
use cubicle_store::entity::{decision, meeting};
use cubicle_store::{DbErr, chat as cq, meeting as q, org as oq};
use serde::Deserialize;

use super::arbitration::DecisionStatus;
use super::arbitration::{outcome_label, type_label};
use super::{MINUTES_IMPORTANCE, MeetingStatus, Meetings};
use crate::chat::SenderKind;
use crate::gateway::{CallContext, Purpose};
use crate::mailbox::{MailKind, NewMail};
use crate::mind::memory_rules::{MemoryKind, Visibility};
use crate::mind::minds::NewMemory;
use crate::types::Language;

/// Characters of one turn quoted in the extractive minutes.
const MINUTES_QUOTE_CHARS: usize = 160;

impl Meetings {
    /// Closes the meeting: minutes (by the summary model when one is configured, else
    /// quoted from the turns) into every member's long-term memory and the boss's
    /// mailbox. Returns the minutes; `None` when there was no open meeting.
    pub async fn close(&self, chat_id: i32) -> Result<Option<String>, DbErr> {
        let Some(m) = self
            .find(chat_id)
            .await?
            .filter(|m| m.status == MeetingStatus::Open)
        else {
            return Ok(None);
        };
        let lang = self.mailbox.language().await?;
        let zh = lang == Language::ZhCn;
        let minutes = self.minutes(&m, lang).await?;
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
                // A meeting the boss convened ends that instruction's story.
                trace_id: self.trace_of(chat_id).await?,
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

    /// The meeting's minutes: the summary model's when a summary route is configured
    /// and answers, else quoted from the turns.
    pub(super) async fn minutes(
        &self,
        m: &meeting::Model,
        lang: Language,
    ) -> Result<String, DbErr> {
        let names = crate::chat::Names::load(&self.db).await?;
        let said: Vec<(String, String)> = cq::messages(&self.db, m.chat_id)
            .await?
            .into_iter()
            .filter(|msg| msg.sender_kind != SenderKind::System)
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
            let context = CallContext {
                trace_id: self.trace_of(m.chat_id).await?,
                ..CallContext::new(Purpose::Summary)
            };
            let request = CompletionRequest {
                messages: vec![
                    ChatMessage::system(format!(
                        "Write the minutes of a work meeting in {}: what was said that matters, \
                         what was decided, what is open. At most 120 words. Answer with JSON \
                         {{\"minutes\": text}}.",
                        match lang {
                            Language::En => "English",
                            Language::ZhCn => "Chinese",
                        }
                    )),
                    ChatMessage::user(format!("Topic: {}\n\n{transcript}", m.topic)),
                ],
                temperature: Some(0.2),
                max_tokens: Some(400),
                ..Default::default()
            };
            match self
                .gateway
                .complete_json::<MinutesReply>(&context, route, request)
                .await
            {
                Ok(reply) if !reply.value.minutes.trim().is_empty() => {
                    let rulings = decision_lines(&decisions, lang);
                    let text = reply.value.minutes.trim();
                    return Ok(if rulings.is_empty() {
                        text.to_owned()
                    } else {
                        format!("{text}\n{}", rulings.trim_end())
                    });
                }
                Ok(_) => tracing::info!("the summary model wrote empty minutes; quoting"),
                Err(e) => tracing::info!(error = %e, "no model minutes; quoting the turns"),
            }
        }
        Ok(extractive_minutes(&m.topic, &said, &decisions, lang))
    }
}

/// Minutes without a model: who said what (each turn's first sentence), then the
/// decisions and what went to the boss.
pub fn extractive_minutes(
    topic: &str,
    said: &[(String, String)],
    decisions: &[decision::Model],
    lang: Language,
) -> String {
    let mut out = match lang {
        Language::En => format!("Topic: {topic} ({} turns)\n", said.len()),
        Language::ZhCn => format!("议题：{topic}（{} 次发言）\n", said.len()),
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
    out.push_str(&decision_lines(decisions, lang));
    out.trim_end().to_owned()
}

/// The meeting's rulings and what went to the boss, one line each, in the company's
/// language. Both kinds of minutes end with these: a summary model may leave a ruling
/// out, the record may not.
pub fn decision_lines(decisions: &[decision::Model], lang: Language) -> String {
    let mut out = String::new();
    for d in decisions {
        let kind = type_label(d.decision_type, lang);
        let outcome = outcome_label(d.outcome, lang);
        let line = match (lang, d.status) {
            (Language::ZhCn, DecisionStatus::Escalated) => {
                format!("待老板决定（{kind}）：{}\n", d.question)
            }
            (Language::ZhCn, DecisionStatus::Decided) => {
                format!("裁定（{kind}）：{} → {outcome}\n", d.question)
            }
            (Language::En, DecisionStatus::Escalated) => {
                format!("For the boss to decide ({kind}): {}\n", d.question)
            }
            (Language::En, DecisionStatus::Decided) => {
                format!("Ruled ({kind}): {} → {outcome}\n", d.question)
            }
        };
        out.push_str(&line);
    }
    out
}

#[derive(Deserialize, schemars::JsonSchema)]
struct MinutesReply {
    minutes: String,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::meeting::arbitration::{DecidedByKind, DecisionType, Outcome};

    fn decided(question: &str, status: DecisionStatus, outcome: Outcome) -> decision::Model {
        decision::Model {
            id: 1,
            meeting_id: None,
            chat_id: None,
            trace_id: None,
            question: question.into(),
            decision_type: DecisionType::Tech,
            outcome,
            decided_by_kind: DecidedByKind::Lead,
            decided_by_employee_id: None,
            status,
            authorization_chain: serde_json::json!([]),
            created_at: chrono::Utc::now(),
        }
    }

    #[test]
    fn extractive_minutes_quote_each_turns_first_sentence_and_list_the_decisions() {
        let said = vec![
            (
                "Alice".to_owned(),
                "REST is enough. GraphQL later.".to_owned(),
            ),
            ("Bob".to_owned(), "要不要买压测服务？先问老板。".to_owned()),
        ];
        let decisions = [
            decided(
                "Move to GraphQL?",
                DecisionStatus::Decided,
                Outcome::Rejected,
            ),
            decided(
                "Spend $5,000?",
                DecisionStatus::Escalated,
                Outcome::Escalated,
            ),
        ];
        assert_eq!(
            extractive_minutes("API", &said, &decisions, Language::En),
            "Topic: API (2 turns)\n- Alice: REST is enough.\n- Bob: 要不要买压测服务？\n\
             Ruled (technical): Move to GraphQL? → rejected\nFor the boss to decide (technical): Spend $5,000?"
        );
        let zh = extractive_minutes("接口", &said, &decisions, Language::ZhCn);
        assert!(zh.starts_with("议题：接口（2 次发言）"), "{zh}");
        assert!(
            zh.contains("裁定（技术）：Move to GraphQL? → 不通过"),
            "{zh}"
        );
        assert!(zh.ends_with("待老板决定（技术）：Spend $5,000?"), "{zh}");
        assert!(!zh.contains("tech") && !zh.contains("rejected"), "{zh}");
    }
}
