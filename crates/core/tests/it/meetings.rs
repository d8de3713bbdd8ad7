//! Meetings (SPEC §9) on a manual clock with a scripted model: the moderator gives the
//! floor to one speaker at a time, invites people mid-meeting, keeps its reasoning out
//! of the meeting, and the secretary takes money questions to the boss while the
//! meeting goes on.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::clock::{Clock as _, ManualClock};
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::gateway::Purpose;
use cubicle_core::mailbox::MailKind;
use cubicle_core::meeting::OpenMeeting;
use cubicle_core::meeting::arbitration::{DecisionType, Position, Stance};
use cubicle_core::meeting::moderator::Strategy;
use cubicle_core::mind::memory_rules::{MemoryKind, Visibility};
use cubicle_core::org::EmployeeDto;
use cubicle_core::providers::SetRoute;
use serde_json::{Value, json};
use wiremock::{MockServer, Request, Respond, ResponseTemplate};

use crate::util::{TestCompany, mail_of, scripted_company};

mod rulings;
mod story;

/// What the scripted model says: each employee's lines in order, the moderator's picks
/// in order; every prompt it received is kept.
#[derive(Default)]
struct Script {
    lines: HashMap<String, VecDeque<String>>,
    picks: VecDeque<(String, String)>,
    prompts: Vec<String>,
    spoken: HashMap<String, u32>,
}

#[derive(Clone)]
struct ScriptedModel(Arc<Mutex<Script>>);

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = text.find(start)? + start.len();
    let j = text[i..].find(end)? + i;
    Some(&text[i..j])
}

/// Lines that neither agree nor object, ask nothing of the boss and never repeat for
/// one speaker within a meeting.
fn plain_line(name: &str, n: u32) -> String {
    const LINES: [&str; 8] = [
        "the release notes need a clear owner",
        "we could write down the rollback steps",
        "monitoring alerts for checkout look thin",
        "the staging environment matches production now",
        "I can draft the announcement for the team",
        "error messages should be friendlier for users",
        "the feature flag lets us ship dark first",
        "documentation for the new endpoints is missing",
    ];
    let offset = name.bytes().map(u32::from).sum::<u32>();
    let i = usize::try_from((n + offset) % 8).unwrap_or(0);
    format!("{} ({name}, {n})", LINES[i])
}

impl Respond for ScriptedModel {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        let system = body["messages"][0]["content"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        let user = body["messages"][1]["content"]
            .as_str()
            .unwrap_or("")
            .to_owned();
        let mut s = self.0.lock().unwrap();
        s.prompts.push(format!("{system}\n{user}"));
        let content = if system.starts_with("You moderate") {
            let (speaker, reason) = s
                .picks
                .pop_front()
                .unwrap_or(("close".into(), "MODREASON-end nothing is left".into()));
            json!({"speaker": speaker, "reason": reason}).to_string()
        } else if system.starts_with("Write the minutes") {
            json!({"minutes": "MODEL-MINUTES: the team agreed on a plan."}).to_string()
        } else {
            let name = between(&system, "You are ", ",").unwrap_or("?").to_owned();
            let n = {
                let c = s.spoken.entry(name.clone()).or_default();
                *c += 1;
                *c
            };
            let line = s
                .lines
                .get_mut(&name)
                .and_then(VecDeque::pop_front)
                .unwrap_or_else(|| plain_line(&name, n));
            json!({
                "innerThoughts": format!("{name} thinks about turn {n}"),
                "interestLevel": 8,
                "topicSaturation": 2,
                "shouldSpeak": true,
                "reason": "my turn",
                "messages": [{"content": line}],
                "memoryOps": [],
                "relationshipOps": [],
                "taskOps": []
            })
            .to_string()
        };
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "t", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 500, "completion_tokens": 80}
        }))
    }
}

struct Room {
    co: TestCompany,
    clock: ManualClock,
    engine: Engine,
    script: Arc<Mutex<Script>>,
    provider_id: String,
    _model: MockServer,
    people: HashMap<String, EmployeeDto>,
}

fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-30T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// A company whose employees think through the scripted model: Alice leads
/// Engineering, Bob leads QA, Grace is in Legal.
async fn room(staff: &[(&str, &str)]) -> Room {
    let script = Arc::new(Mutex::new(Script::default()));
    let (co, clock, model, provider_id) =
        scripted_company(start(), ScriptedModel(script.clone())).await;
    let eng = co.dept("Engineering", None).await;
    let legal = co.dept("Legal", None).await;
    let qa = co.dept("QA", None).await;
    let mut people = HashMap::new();
    for (name, title) in staff {
        let dept = if title.contains("Legal") {
            legal.id
        } else if title.contains("QA") {
            qa.id
        } else {
            eng.id
        };
        people.insert((*name).to_owned(), co.hire(name, title, Some(dept)).await);
    }
    if let Some(alice) = people.get("Alice") {
        co.make_lead(eng.id, alice.id).await;
    }
    if let Some(bob) = people.get("Bob") {
        co.make_lead(qa.id, bob.id).await;
    }
    let engine = Engine::new(
        &co.core,
        EngineConfig {
            seed: Some(11),
            ..EngineConfig::default()
        },
    );
    Room {
        co,
        clock,
        engine,
        script,
        provider_id,
        _model: model,
        people,
    }
}

impl Room {
    fn id(&self, name: &str) -> i32 {
        self.people[name].id
    }

    fn say(&self, name: &str, lines: &[&str]) {
        self.script
            .lock()
            .unwrap()
            .lines
            .insert(name.into(), lines.iter().map(|l| (*l).to_owned()).collect());
    }

    async fn open(&self, topic: &str, who: &[&str], strategy: Strategy) -> i32 {
        self.co
            .core
            .meetings
            .open(OpenMeeting {
                topic: topic.into(),
                participant_ids: who.iter().map(|n| self.id(n)).collect(),
                strategy,
                max_turns: None,
                trace_id: None,
            })
            .await
            .unwrap()
            .id
    }

    async fn run_for(&self, d: TimeDelta) {
        let until = self.clock.now() + d;
        self.engine.run_simulated(&self.clock, until).await;
    }

    /// Who spoke, in order (employees only).
    async fn speakers(&self, chat_id: i32) -> Vec<String> {
        self.co
            .core
            .chats
            .messages(chat_id)
            .await
            .unwrap()
            .into_iter()
            .filter(|m| m.sender_kind == cubicle_core::chat::SenderKind::Employee)
            .map(|m| m.sender_name)
            .collect()
    }

    async fn texts(&self, chat_id: i32) -> Vec<String> {
        self.co
            .core
            .chats
            .messages(chat_id)
            .await
            .unwrap()
            .into_iter()
            .map(|m| m.text)
            .collect()
    }
}

const TRIO: [(&str, &str); 3] = [
    ("Alice", "Backend Engineer"),
    ("Bob", "QA Engineer"),
    ("Carol", "Frontend Engineer"),
];

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_round_robin_meeting_goes_round_in_order_then_closes_with_minutes_in_memory_and_mailbox()
{
    let r = room(&TRIO).await;
    let chat = r
        .open(
            "Release checklist",
            &["Alice", "Bob", "Carol"],
            Strategy::RoundRobin,
        )
        .await;
    r.run_for(TimeDelta::hours(2)).await;

    // Two rounds in the fixed order, one speaker at a time, then the close.
    assert_eq!(
        r.speakers(chat).await,
        ["Alice", "Bob", "Carol", "Alice", "Bob", "Carol"]
    );
    let meeting = r.co.core.meetings.find(chat).await.unwrap().unwrap();
    assert_eq!(meeting.status, cubicle_core::meeting::MeetingStatus::Closed);
    // Only the chosen speaker thought about the meeting: one thought per turn.
    let thoughts = r.co.core.chats.view(chat).await.unwrap().thoughts;
    assert_eq!(thoughts.len(), 6, "nobody but the speaker was woken");

    // No summary route: the minutes quote the turns.
    let minutes = meeting.minutes.unwrap();
    assert!(
        minutes.starts_with("Topic: Release checklist (6 turns)"),
        "{minutes}"
    );
    for name in ["Alice", "Bob", "Carol"] {
        assert!(minutes.contains(&format!("- {name}: ")), "{minutes}");
    }
    let mail = mail_of(&r.co.core, Some(MailKind::Minutes)).await;
    assert_eq!(mail.len(), 1);
    assert_eq!(mail[0].title, "Minutes: Release checklist");
    assert_eq!(mail[0].chat_id, Some(chat));
    assert_eq!(mail[0].body, minutes);
    for name in ["Alice", "Bob", "Carol"] {
        let memories = r.co.core.minds.profile(r.id(name)).await.unwrap().memories;
        let m = memories
            .iter()
            .find(|m| {
                m.content
                    .contains("Minutes of the meeting \"Release checklist\"")
            })
            .unwrap_or_else(|| panic!("{name} remembers the minutes"));
        assert_eq!(m.kind, MemoryKind::LongTerm);
        assert_eq!(m.visibility, Visibility::Team);
        assert_eq!(m.importance, 6);
    }
    // The closed meeting stays quiet: nobody returns to it on a poll.
    let before = r.texts(chat).await.len();
    r.run_for(TimeDelta::hours(3)).await;
    assert_eq!(r.texts(chat).await.len(), before);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_moderators_reasoning_never_reaches_the_meeting_or_any_prompt() {
    let r = room(&TRIO).await;
    // The summary model writes the minutes this time.
    r.co.core
        .providers
        .set_route(SetRoute {
            purpose: Purpose::Summary,
            provider_id: r.provider_id.clone(),
            model: "m".into(),
        })
        .await
        .unwrap();
    r.say(
        "Carol",
        &["@Alice does the API return the new error codes?"],
    );
    {
        let mut s = r.script.lock().unwrap();
        for (who, why) in [
            ("Bob", "MODREASON-1 Bob owns the load tests"),
            (
                "Carol",
                "MODREASON-2 Carol needs to weigh in on the screens",
            ),
            ("Nobody", "MODREASON-3 a name that is not in the room"),
            ("Bob", "MODREASON-4 back to testing"),
            ("close", "MODREASON-5 everything is settled"),
        ] {
            s.picks.push_back((who.into(), why.into()));
        }
    }
    let chat = r
        .open(
            "Error handling",
            &["Alice", "Bob", "Carol"],
            Strategy::ModelPicked,
        )
        .await;
    r.run_for(TimeDelta::hours(2)).await;

    // The model's valid picks were followed; its invalid pick fell back to the rules
    // (Carol addressed Alice, so Alice).
    assert_eq!(r.speakers(chat).await, ["Bob", "Carol", "Alice", "Bob"]);
    let notes = r.co.core.meetings.notes(chat).await.unwrap();
    let reasons: Vec<String> = notes.iter().map(|n| n.reason.clone()).collect();
    assert_eq!(notes.len(), 5, "{reasons:?}");
    assert!(reasons[2].contains("\"Nobody\"") && reasons[2].contains("by the rules"));
    assert!(reasons.iter().any(|r| r.starts_with("MODREASON-5")));

    let prompts = r.script.lock().unwrap().prompts.clone();
    let thought_prompts = prompts.iter().filter(|p| p.starts_with("You are ")).count();
    assert_eq!(thought_prompts, 4);
    for reason in &reasons {
        for p in &prompts {
            assert!(!p.contains(reason.as_str()), "a prompt carries {reason:?}");
        }
        for t in r.texts(chat).await {
            assert!(!t.contains(reason.as_str()), "the chat carries {reason:?}");
        }
    }
    for marker in ["MODREASON", "by the rules"] {
        assert!(prompts.iter().all(|p| !p.contains(marker)));
        assert!(r.texts(chat).await.iter().all(|t| !t.contains(marker)));
    }

    // The summary model wrote the minutes.
    let meeting = r.co.core.meetings.find(chat).await.unwrap().unwrap();
    assert_eq!(meeting.status, cubicle_core::meeting::MeetingStatus::Closed);
    assert_eq!(
        meeting.minutes.as_deref(),
        Some("MODEL-MINUTES: the team agreed on a plan.")
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_colleague_invited_mid_meeting_is_nudged_and_speaks() {
    let r = room(&[
        ("Alice", "Backend Engineer"),
        ("Bob", "QA Engineer"),
        ("Grace", "Legal Counsel"),
    ])
    .await;
    r.say(
        "Alice",
        &["The checkout stores card data, so we need a privacy review before release."],
    );
    r.say(
        "Grace",
        &["Keep the card numbers tokenised and we are fine."],
    );
    let chat = r
        .open(
            "Checkout release plan",
            &["Alice", "Bob"],
            Strategy::RuleBased,
        )
        .await;
    r.run_for(TimeDelta::hours(2)).await;

    let members = r.co.core.chats.members(chat).await.unwrap();
    assert!(members.contains(&r.id("Grace")), "Grace was invited");
    let texts = r.texts(chat).await;
    let joined = texts
        .iter()
        .position(|t| t == "Grace joined the meeting")
        .expect("a join note");
    let grace_spoke = texts
        .iter()
        .position(|t| t.starts_with("Keep the card numbers tokenised"))
        .expect("Grace spoke");
    assert!(grace_spoke > joined);
    let speakers = r.speakers(chat).await;
    assert_eq!(&speakers[..2], ["Alice", "Grace"], "{speakers:?}");
    let notes = r.co.core.meetings.notes(chat).await.unwrap();
    let invite = notes
        .iter()
        .find(|n| n.move_kind == cubicle_core::meeting::moderator::MoveKind::Invite)
        .unwrap();
    assert_eq!(invite.employee_id, Some(r.id("Grace")));
    assert!(invite.reason.contains("privacy"), "{}", invite.reason);
}

/// Bob's money question was escalated, not decided: one decision, of type money, for
/// the boss, proposed by Bob and escalated by the secretary, and one mail to the boss
/// pointing at the meeting.
async fn the_secretary_took_the_money_question_to_the_boss(r: &Room, chat: i32) {
    let decisions = r.co.core.meetings.decisions(chat).await.unwrap();
    assert_eq!(decisions.len(), 1);
    let d = &decisions[0];
    assert_eq!(
        d.question,
        "Should we spend $5,000 on a load-testing service?"
    );
    assert_eq!(
        (d.decision_type, d.status, d.decided_by_kind),
        (
            DecisionType::Money,
            cubicle_core::meeting::arbitration::DecisionStatus::Escalated,
            cubicle_core::meeting::arbitration::DecidedByKind::Boss
        )
    );
    let chain: Vec<Value> = serde_json::from_value(d.authorization_chain.clone()).unwrap();
    assert_eq!(chain[0]["who"], "Bob");
    assert_eq!(chain[0]["role"], "proposed");
    assert_eq!(chain.last().unwrap()["who"], "secretary");
    assert_eq!(chain.last().unwrap()["role"], "escalated");

    let mail = mail_of(&r.co.core, Some(MailKind::Escalation)).await;
    assert_eq!(mail.len(), 1);
    assert_eq!(
        mail[0].title,
        "Decision needed: Should we spend $5,000 on a load-testing service?"
    );
    assert_eq!(mail[0].chat_id, Some(chat));
}

/// The meeting was not held up: the secretary's note after the question, then the next
/// speakers in turn, to the close.
async fn the_meeting_went_on_to_its_close(r: &Room, chat: i32) {
    let texts = r.texts(chat).await;
    let note = texts
        .iter()
        .position(|t| t == "The secretary has taken this to the boss; the meeting goes on.")
        .expect("the secretary's note");
    let asked = texts.iter().position(|t| t.contains("$5,000")).unwrap();
    assert!(note > asked);
    assert_eq!(
        r.speakers(chat).await,
        ["Alice", "Bob", "Carol", "Alice", "Bob", "Carol"]
    );
    assert_eq!(
        r.co.core.meetings.find(chat).await.unwrap().unwrap().status,
        cubicle_core::meeting::MeetingStatus::Closed
    );
}

/// What the boss sees: the escalated decision with its chain, the moderator's moves
/// with their reasons, the minutes; a closed meeting cannot be ended again, and an
/// unknown one is not found.
async fn the_boss_sees_the_closed_meeting_whole(r: &Room, chat: i32) {
    let view = r.co.core.meetings.view(chat).await.unwrap();
    assert_eq!(view.status, cubicle_core::meeting::MeetingStatus::Closed);
    assert_eq!(view.strategy, Strategy::RoundRobin);
    assert_eq!(view.decisions.len(), 1);
    assert_eq!(
        view.decisions[0].status,
        cubicle_core::meeting::arbitration::DecisionStatus::Escalated
    );
    assert_eq!(view.decisions[0].authorization_chain[0].who, "Bob");
    assert!(view.notes.iter().any(
        |n| n.kind == cubicle_core::meeting::moderator::MoveKind::Speak && !n.reason.is_empty()
    ));
    assert!(
        view.notes
            .iter()
            .any(|n| n.kind == cubicle_core::meeting::moderator::MoveKind::Close)
    );
    assert!(view.minutes.as_deref().is_some_and(|m| !m.is_empty()));
    assert!(r.co.core.meetings.end(chat).await.is_err());
    assert!(r.co.core.meetings.view(chat + 100).await.is_err());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_question_goes_to_the_boss_and_the_meeting_goes_on() {
    let r = room(&TRIO).await;
    r.say(
        "Bob",
        &["Should we spend $5,000 on a load-testing service?"],
    );
    let chat = r
        .open(
            "Load testing",
            &["Alice", "Bob", "Carol"],
            Strategy::RoundRobin,
        )
        .await;
    r.run_for(TimeDelta::hours(2)).await;

    the_secretary_took_the_money_question_to_the_boss(&r, chat).await;
    the_meeting_went_on_to_its_close(&r, chat).await;
    the_boss_sees_the_closed_meeting_whole(&r, chat).await;

    // In Chinese, too.
    let zh =
        r.co.core
            .meetings
            .arbitrate(
                Some(chat),
                "要不要花五千块买压测服务",
                &[Position {
                    employee_id: r.id("Bob"),
                    stance: Stance::Support,
                    proposer: true,
                }],
                None,
            )
            .await
            .unwrap();
    assert_eq!(
        zh.record.status,
        cubicle_core::meeting::arbitration::DecisionStatus::Escalated
    );
    assert_eq!(zh.record.decision_type, DecisionType::Money);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_boss_can_end_a_meeting_early_and_still_gets_the_minutes() {
    let r = room(&TRIO).await;
    let chat = r
        .open(
            "Release checklist",
            &["Alice", "Bob", "Carol"],
            Strategy::RoundRobin,
        )
        .await;
    r.run_for(TimeDelta::minutes(1)).await;
    let spoke = r.speakers(chat).await.len();
    assert!(
        (1..6).contains(&spoke),
        "{spoke} turns before the boss ends it"
    );

    let view = r.co.core.meetings.end(chat).await.unwrap();
    assert_eq!(view.status, cubicle_core::meeting::MeetingStatus::Closed);
    assert!(view.closed_at.is_some());
    let minutes = view.minutes.unwrap();
    assert!(minutes.contains(&format!("({spoke} turns)")), "{minutes}");
    let mail = mail_of(&r.co.core, Some(MailKind::Minutes)).await;
    assert_eq!(mail.len(), 1);
    // Ended means ended: nobody is given the floor again.
    r.run_for(TimeDelta::hours(1)).await;
    assert_eq!(r.speakers(chat).await.len(), spoke);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meeting_opened_while_no_engine_runs_starts_when_the_engine_starts() {
    let r = room(&TRIO).await;
    // `cubicle-cli` opens the meeting and the boss posts into it; no engine is running.
    let cli = r.co.another_process().await;
    let ids = ["Alice", "Bob", "Carol"].map(|n| r.id(n)).to_vec();
    let chat = cli
        .meetings
        .open(OpenMeeting {
            topic: "Release checklist".into(),
            participant_ids: ids,
            strategy: Strategy::RoundRobin,
            max_turns: None,
            trace_id: None,
        })
        .await
        .unwrap()
        .id;
    cli.chats
        .post_as_boss(cubicle_core::chat::PostMessage {
            chat_id: chat,
            text: "Please start with what blocks the release.".into(),
        })
        .await
        .unwrap();

    // Later, `cubicle-cli run`: a new engine starts over the same database.
    let engine = Engine::new(
        &r.co.core,
        EngineConfig {
            seed: Some(11),
            ..EngineConfig::default()
        },
    );
    engine.bootstrap().await.unwrap();
    let until = r.clock.now() + TimeDelta::hours(2);
    engine.run_simulated(&r.clock, until).await;

    assert_eq!(
        r.speakers(chat).await,
        ["Alice", "Bob", "Carol", "Alice", "Bob", "Carol"]
    );
    let meeting = r.co.core.meetings.find(chat).await.unwrap().unwrap();
    assert_eq!(meeting.status, cubicle_core::meeting::MeetingStatus::Closed);
    assert!(
        r.texts(chat)
            .await
            .iter()
            .any(|t| t == "Please start with what blocks the release.")
    );
    // The boss's words reached the first speaker's prompt.
    let prompts = r.script.lock().unwrap().prompts.clone();
    assert!(
        prompts
            .iter()
            .any(|p| p.contains("Please start with what blocks the release.")),
        "the boss's post was in a speaker's prompt"
    );
}
