//! Arbitration in the meeting (SPEC §9): notices when a member's turn asks a question
//! only the boss may decide or objects to what was said, rules through the pure
//! [`super::arbitration`], records the decision with its authorization chain, and — as
//! the secretary, the boss's proxy — files the boss's questions to the mailbox while the
//! meeting goes on.

use cubicle_store::entity::{chat_message, decision, meeting};
use cubicle_store::{DbErr, chat as cq, meeting as q, org as oq};
use sea_orm::ActiveValue::{NotSet, Set};

use super::arbitration::{self, Outcome, Person, Position, Ruling, Stance};
use super::{Decided, Meetings, moderator, skills};
use crate::chat::SenderKind;
use crate::mailbox::{MailKind, NewMail};
use crate::types::Language;

impl Meetings {
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
        if message.sender_kind != SenderKind::Employee {
            return Ok(None);
        }
        let text = message.text.trim();
        if arbitration::goes_to_boss(arbitration::classify(text)) && raises_question(text) {
            return self.escalate_boss_question(&message, speaker, text).await;
        }
        if !moderator::disagrees(text) {
            return Ok(None);
        }
        self.rule_on_objection(&message, speaker).await
    }

    /// A question only the boss may decide goes to them, once per chat.
    async fn escalate_boss_question(
        &self,
        message: &chat_message::Model,
        speaker: i32,
        text: &str,
    ) -> Result<Option<Decided>, DbErr> {
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
        self.arbitrate(
            Some(message.chat_id),
            text,
            &positions,
            message.trace_id.clone(),
        )
        .await
        .map(Some)
    }

    /// An objection: the question is the last thing someone else said that was neither
    /// an objection nor a mere agreement; the positions are what everyone said since.
    async fn rule_on_objection(
        &self,
        message: &chat_message::Model,
        speaker: i32,
    ) -> Result<Option<Decided>, DbErr> {
        let turns = cq::messages(&self.db, message.chat_id).await?;
        let upto: Vec<&chat_message::Model> = turns.iter().filter(|m| m.id <= message.id).collect();
        let Some(proposal) = upto.iter().rev().find(|m| {
            m.sender_kind == SenderKind::Employee
                && m.sender_employee_id != Some(speaker)
                && !moderator::disagrees(&m.text)
                && !moderator::agrees(&m.text)
        }) else {
            return Ok(None);
        };
        let Some(proposer) = proposal.sender_employee_id else {
            return Ok(None);
        };
        let positions = positions_since(&upto, proposal.id, proposer);
        self.arbitrate(
            Some(message.chat_id),
            &proposal.text,
            &positions,
            message.trace_id.clone(),
        )
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
        trace_id: Option<String>,
    ) -> Result<Decided, DbErr> {
        let people = self.people().await?;
        let ruling = arbitration::arbitrate(question, positions, &people);
        let meeting = match chat_id {
            Some(c) => self.find(c).await?,
            None => None,
        };
        let record = self
            .record_decision(
                meeting.as_ref(),
                chat_id,
                question,
                &ruling,
                trace_id.clone(),
            )
            .await?;
        if ruling.outcome == Outcome::Escalated {
            let topic = meeting.as_ref().map_or("", |m| m.topic.as_str());
            let proposer = positions.iter().find(|p| p.proposer).map(|p| p.employee_id);
            self.file_for_boss(chat_id, topic, question, &ruling, proposer, trace_id)
                .await?;
        } else if let Some(c) = chat_id {
            self.announce_ruling(c, question, &ruling, &people).await?;
        }
        Ok(Decided { record, ruling })
    }

    /// Stores the ruling with its authorization chain.
    async fn record_decision(
        &self,
        meeting: Option<&meeting::Model>,
        chat_id: Option<i32>,
        question: &str,
        ruling: &Ruling,
        trace_id: Option<String>,
    ) -> Result<decision::Model, DbErr> {
        let (kind, by) = ruling.decided_by.stored();
        q::insert_decision(
            &self.db,
            decision::ActiveModel {
                id: NotSet,
                meeting_id: Set(meeting.map(|m| m.id)),
                chat_id: Set(chat_id),
                trace_id: Set(trace_id),
                question: Set(question.to_owned()),
                decision_type: Set(ruling.decision_type),
                outcome: Set(ruling.outcome),
                decided_by_kind: Set(kind),
                decided_by_employee_id: Set(by),
                status: Set(ruling.status()),
                authorization_chain: Set(
                    serde_json::to_value(&ruling.authorization_chain).unwrap_or_default()
                ),
                created_at: Set(self.clock.now()),
            },
        )
        .await
    }

    /// The secretary files a question for the boss to the mailbox and tells the meeting
    /// it goes on.
    async fn file_for_boss(
        &self,
        chat_id: Option<i32>,
        topic: &str,
        question: &str,
        ruling: &Ruling,
        proposer: Option<i32>,
        trace_id: Option<String>,
    ) -> Result<(), DbErr> {
        let language = self.mailbox.language().await?;
        self.mailbox
            .file(NewMail {
                kind: MailKind::Escalation,
                employee_id: proposer,
                chat_id,
                task_id: None,
                trace_id,
                title: language.pick(
                    format!("Decision needed: {question}"),
                    format!("需要你决定：{question}"),
                ),
                body: language.pick(
                    format!(
                        "In the meeting \"{topic}\" (chat {}) a {} question came up that only you can decide: {question}\nThe secretary noted it for you; the meeting goes on.",
                        chat_id.unwrap_or_default(),
                        arbitration::type_label(ruling.decision_type, Language::En)
                    ),
                    format!(
                        "会议“{topic}”（会话 {}）中提出了一个只有老板能决定的{}问题：{question}\n秘书代你记下了，会议照常进行。",
                        chat_id.unwrap_or_default(),
                        arbitration::type_label(ruling.decision_type, Language::ZhCn)
                    ),
                ),
            })
            .await?;
        if let Some(c) = chat_id {
            self.chats
                .post_system(
                    c,
                    &language.pick(
                        "The secretary has taken this to the boss; the meeting goes on.",
                        "秘书已把这个问题转给老板，会议继续。",
                    ),
                )
                .await?;
        }
        Ok(())
    }

    /// Tells the meeting how a question was ruled and by whom.
    async fn announce_ruling(
        &self,
        chat_id: i32,
        question: &str,
        ruling: &Ruling,
        people: &[Person],
    ) -> Result<(), DbErr> {
        let language = self.mailbox.language().await?;
        let by_whom = match &ruling.decided_by {
            arbitration::DecidedBy::Lead { employee_id } => people
                .iter()
                .find(|p| p.id == *employee_id)
                .map_or_else(String::new, |p| p.name.clone()),
            _ => language.pick("a vote", "投票"),
        };
        let text = match (language, ruling.outcome) {
            (Language::ZhCn, Outcome::Approved) => format!("裁定：“{question}”通过（{by_whom}）。"),
            (Language::ZhCn, _) => format!("裁定：“{question}”不通过（{by_whom}）。"),
            (Language::En, Outcome::Approved) => {
                format!("Ruling: \"{question}\" is approved ({by_whom}).")
            }
            (Language::En, _) => format!("Ruling: \"{question}\" is rejected ({by_whom})."),
        };
        self.chats.post_system(chat_id, &text).await?;
        Ok(())
    }

    /// Everyone on staff as arbitration sees them.
    pub(super) async fn people(&self) -> Result<Vec<Person>, DbErr> {
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
}

/// The proposer's support, then each other member's latest agreement or objection after
/// the proposal.
fn positions_since(
    upto: &[&chat_message::Model],
    proposal_id: i32,
    proposer: i32,
) -> Vec<Position> {
    let mut positions = vec![Position {
        employee_id: proposer,
        stance: Stance::Support,
        proposer: true,
    }];
    for m in upto.iter().filter(|m| m.id > proposal_id) {
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
    positions
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
