//! Work gets done (SPEC §6, §10): the seed-000 story told by a scripted model that only
//! plays people, onResolve to each kind of target, and the loop guards — on SQLite with
//! a manual clock.

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::AppCore;
use cubicle_core::chat::{ChatMessageDto, PostMessage};
use cubicle_core::clock::{Clock as _, ManualClock};
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::mailbox::{MailFilter, MailKind};
use cubicle_core::org::NewEmployee;
use cubicle_core::trace::TraceEventKind;
use cubicle_core::types::*;
use cubicle_core::work::TaskOrigin;
use serde_json::{Value, json};
use wiremock::MockServer;

use crate::util::{TestCompany, mail_of};

mod flagged_review;
mod honest;
mod key_steps;
mod loops;
mod offline;
mod outcomes;
pub(crate) mod playbook;
mod reports;
mod requirements;
mod review;
pub(crate) mod small_model;
mod tools;

use playbook::{Playbook, Seen, silent, speak};

pub(crate) fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-30T09:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

/// A company whose every thought is answered by `play`.
pub(crate) struct Stage {
    pub(crate) co: TestCompany,
    pub(crate) clock: ManualClock,
    engine: Engine,
    book: Playbook,
    _model: MockServer,
}

impl Stage {
    pub(crate) async fn new(play: impl Fn(&Seen) -> Value + Send + Sync + 'static) -> Self {
        Self::with_options(play, cubicle_core::app::CoreOptions::default()).await
    }

    /// A stage whose company is opened with `options`.
    pub(crate) async fn with_options(
        play: impl Fn(&Seen) -> Value + Send + Sync + 'static,
        options: cubicle_core::app::CoreOptions,
    ) -> Self {
        let book = Playbook::new(play);
        let (co, clock, model, _) =
            crate::util::scripted_company_with(start(), book.clone(), options).await;
        let engine = Engine::new(
            &co.core,
            EngineConfig {
                seed: Some(11),
                ..EngineConfig::default()
            },
        );
        Self {
            co,
            clock,
            engine,
            book,
            _model: model,
        }
    }

    pub(crate) async fn run_for(&self, d: TimeDelta) {
        let until = self.clock.now() + d;
        self.engine.run_simulated(&self.clock, until).await;
    }

    pub(crate) async fn boss_says(
        &self,
        chat_id: i32,
        text: &str,
    ) -> cubicle_core::chat::ChatMessageDto {
        self.co
            .core
            .chats
            .post_as_boss(PostMessage {
                chat_id,
                text: text.into(),
            })
            .await
            .unwrap()
    }
}

/// Seed 000 as each person would play it. Alice is asked by the boss; she takes it on,
/// asks Bob in the project group, asks Charlie privately for numbers, resolves the task
/// when she has them, and reports. Bob and Charlie answer what they are asked.
pub(crate) fn seed_000(s: &Seen) -> Value {
    match s.name.as_str() {
        "Alice" if s.reporting => speak(
            "Bob's view and Charlie's numbers agree; tell Ada plainly.",
            &[(
                "Ada, my recommendation: REST for the public API, GraphQL for the dashboard. Bob likes GraphQL's flexible queries; Charlie's load test puts REST at p99 80 ms vs 95 ms for GraphQL.",
                None,
            )],
            json!([]),
        ),
        "Alice" if s.private_with_boss && s.new_from("Ada", "REST vs GraphQL") => speak(
            "A real question; I'll make it a task and ask Bob, who built our last API.",
            &[
                (
                    "On it, Ada. I'll check with the team and come back to you.",
                    None,
                ),
                (
                    "@Bob quick one for the new API: REST or GraphQL, what would you pick and why?",
                    Some("#API design"),
                ),
            ],
            json!([{"op": "create", "description": "Research REST vs GraphQL for the new API"}]),
        ),
        "Alice" if s.chat == "API design" && s.new_from("Bob", "GraphQL") => speak(
            "Bob's argument is about flexibility; I need numbers before I recommend anything.",
            &[(
                "Charlie, do you have performance data on REST vs GraphQL from the load tests?",
                Some("Charlie"),
            )],
            json!([]),
        ),
        "Alice" if s.private && s.new_from("Charlie", "p99") => match s.task("REST vs GraphQL") {
            Some(id) => speak(
                "That settles it.",
                &[("Thanks Charlie, that's what I needed.", None)],
                json!([{"op": "resolve", "id": id, "result": "REST for the public API (p99 80 ms vs 95 ms), GraphQL for the dashboard"}]),
            ),
            None => silent("Alice"),
        },
        "Bob" if s.new_from("Alice", "REST or GraphQL") => speak(
            "I've shipped both.",
            &[(
                "GraphQL: one endpoint and clients fetch exactly what they need. REST is simpler to cache.",
                None,
            )],
            json!([]),
        ),
        "Charlie" if s.private && s.new_from("Alice", "performance data") => speak(
            "I have last month's numbers.",
            &[(
                "From our load test: REST p99 80 ms, GraphQL p99 95 ms with batching on.",
                None,
            )],
            json!([]),
        ),
        name => silent(name),
    }
}

/// Engineering with Alice, Bob and Charlie, and a project group "API design" they share.
pub(crate) async fn engineering(stage: &Stage) -> (i32, i32, i32, i32) {
    let co = &stage.co;
    let eng = co.dept("Engineering", None).await;
    let alice = co
        .core
        .org
        .hire(hire("Alice", "Backend Engineer", eng.id))
        .await
        .unwrap();
    let bob = co
        .core
        .org
        .hire(hire("Bob", "API Engineer", eng.id))
        .await
        .unwrap();
    let charlie = co
        .core
        .org
        .hire(hire("Charlie", "Performance Engineer", eng.id))
        .await
        .unwrap();
    let req = co
        .core
        .work
        .create_requirement("API design", "the new public API", Some(eng.id))
        .await
        .unwrap();
    // The department that owns the requirement is in its group chat.
    let group = req.chat_id.unwrap();
    let mut members = co.core.chats.members(group).await.unwrap();
    members.sort_unstable();
    assert_eq!(members, [alice.id, bob.id, charlie.id]);
    (alice.id, bob.id, charlie.id, group)
}

fn hire(name: &str, title: &str, dept: i32) -> NewEmployee {
    NewEmployee {
        name: name.into(),
        title: title.into(),
        department_id: Some(dept),
        manager_id: None,
        archetype: Some(Archetype::OldHand),
    }
}

/// The task: Alice made it herself, under the boss's instruction `trace`, and resolved
/// it with Charlie's numbers.
async fn alice_made_the_task_herself_and_resolved_it(
    core: &AppCore,
    alice: i32,
    trace: &str,
) -> cubicle_core::work::TaskDto {
    let tasks = core.work.all().await.unwrap();
    assert_eq!(tasks.len(), 1, "{tasks:?}");
    let task = tasks[0].clone();
    assert_eq!(task.owner_id, alice);
    assert_eq!(task.created_by, TaskOrigin::Own);
    assert_eq!(task.status, cubicle_core::work::TaskStatus::Resolved);
    assert_eq!(task.trace_id.as_deref(), Some(trace));
    assert!(task.result.as_deref().unwrap().contains("p99 80 ms"));
    task
}

/// The questions and answers, where each was asked: Alice asks Bob in the project
/// group and he answers there; she opens a private chat with Charlie, who answers with
/// numbers. The group's and the private chat's messages.
async fn questions_and_answers_where_each_was_asked(
    core: &AppCore,
    (alice, bob, charlie): (i32, i32, i32),
    group: i32,
) -> (Vec<ChatMessageDto>, Vec<ChatMessageDto>) {
    let in_group = core.chats.messages(group).await.unwrap();
    let question = in_group
        .iter()
        .find(|m| m.sender_employee_id == Some(alice) && m.text.contains("REST or GraphQL"))
        .expect("Alice asks Bob in the project group");
    let answer = in_group
        .iter()
        .find(|m| m.sender_employee_id == Some(bob))
        .expect("Bob answers in the group");
    assert!(answer.id > question.id);
    let dm = core
        .chats
        .list()
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.kind == cubicle_core::chat::ChatKind::Dm)
        .expect("Alice opened a private chat with Charlie");
    assert!(dm.member_ids.contains(&alice) && dm.member_ids.contains(&charlie));
    let private = core.chats.messages(dm.id).await.unwrap();
    assert!(
        private
            .iter()
            .any(|m| m.sender_employee_id == Some(alice) && m.text.contains("performance data"))
    );
    (in_group, private)
}

/// The report, in Alice's voice, in the boss chat after Charlie's numbers — and its
/// copy in the mailbox, for her task. The boss chat's messages.
async fn the_report_is_in_the_boss_chat_and_the_mailbox(
    core: &AppCore,
    boss_chat: i32,
    (alice, task): (i32, i32),
    numbers: i32,
) -> Vec<ChatMessageDto> {
    let said = core.chats.messages(boss_chat).await.unwrap();
    let report = said
        .iter()
        .find(|m| m.sender_employee_id == Some(alice) && m.text.contains("my recommendation"))
        .expect("Alice reports in the boss chat");
    assert!(report.id > numbers);
    let mail = core.mailbox.list(MailFilter::default()).await.unwrap();
    let copy = mail
        .items
        .iter()
        .find(|m| m.kind == MailKind::Report)
        .expect("a report in the mailbox");
    assert_eq!(copy.body, report.text);
    assert_eq!(copy.employee_id, Some(alice));
    assert_eq!(copy.task_id, Some(task));
    said
}

/// The trace tells the story: it starts with the instruction, has every kind of step,
/// every model call of the story with its tokens, the messages in the order they were
/// said, and is the most recent trace.
async fn the_trace_tells_the_story_in_order(stage: &Stage, trace: &str) {
    let core = &stage.co.core;
    let story = core.traces.view(trace).await.unwrap().expect("the trace");
    assert!(story.summary.instruction.contains("REST vs GraphQL"));
    let kinds: Vec<TraceEventKind> = story.events.iter().map(|e| e.kind).collect();
    assert_eq!(kinds[0], TraceEventKind::Instruction);
    for k in [
        TraceEventKind::TaskCreated,
        TraceEventKind::Thought,
        TraceEventKind::ModelCall,
        TraceEventKind::Message,
        TraceEventKind::TaskResolved,
        TraceEventKind::Mail,
    ] {
        assert!(kinds.contains(&k), "{k:?} missing from {kinds:?}");
    }
    let calls = stage.book.prompts.lock().unwrap().len();
    assert_eq!(
        story.summary.calls as usize, calls,
        "every model call of the story is in the trace"
    );
    assert!(story.summary.cost_usd >= 0.0);
    assert!(story.tokens >= 890 * calls as u32);
    // In order: the question before the answer before the numbers before the report.
    let pos = |text: &str| {
        story
            .events
            .iter()
            .position(|e| e.kind == TraceEventKind::Message && e.text.contains(text))
            .unwrap_or_else(|| panic!("{text} not in the trace"))
    };
    assert!(pos("REST or GraphQL") < pos("one endpoint"));
    assert!(pos("one endpoint") < pos("p99 80 ms, GraphQL"));
    assert!(pos("p99 80 ms, GraphQL") < pos("my recommendation"));
    let recent = core.traces.recent(10).await.unwrap();
    assert_eq!(recent[0].id, trace);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seed_000_rest_vs_graphql_is_researched_resolved_and_reported_under_one_trace() {
    let stage = Stage::new(seed_000).await;
    let (alice, bob, charlie, group) = engineering(&stage).await;
    let core = &stage.co.core;
    let boss_chat = core.chats.boss_chat(alice).await.unwrap();
    let asked = stage
        .boss_says(
            boss_chat.id,
            "Alice, could you research REST vs GraphQL for our new API and tell me what you recommend?",
        )
        .await;
    let trace = asked
        .trace_id
        .clone()
        .expect("a boss message starts a trace");
    stage.run_for(TimeDelta::minutes(30)).await;

    let task = alice_made_the_task_herself_and_resolved_it(core, alice, &trace).await;
    let (in_group, private) =
        questions_and_answers_where_each_was_asked(core, (alice, bob, charlie), group).await;
    let numbers = private
        .iter()
        .find(|m| m.sender_employee_id == Some(charlie))
        .expect("Charlie answers with numbers");
    assert!(numbers.text.contains("p99"));

    // The report, in Alice's voice, in the boss chat — and its copy in the mailbox.
    let said = the_report_is_in_the_boss_chat_and_the_mailbox(
        core,
        boss_chat.id,
        (alice, task.id),
        numbers.id,
    )
    .await;

    // One trace across all of it: every employee message, every thought, every model
    // call and the mail carry the boss's instruction's id.
    for m in in_group.iter().chain(&private).chain(&said) {
        if m.sender_kind == cubicle_core::chat::SenderKind::Employee {
            assert_eq!(m.trace_id.as_deref(), Some(trace.as_str()), "{}", m.text);
        }
    }
    the_trace_tells_the_story_in_order(&stage, &trace).await;
}

/// Two people who always have one more thing to say to each other (each line new, so
/// the repetition check lets it through: only the step cap can end it).
fn ping_pong(s: &Seen) -> Value {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static SAID: AtomicUsize = AtomicUsize::new(0);
    const POINTS: [&str; 20] = [
        "naming should follow the domain model",
        "short names read better in code review",
        "consistency with the old API matters more",
        "we can alias the old names for one release",
        "users never see these names anyway",
        "the linter can enforce whichever we pick",
        "plural collections are the REST convention",
        "verbs in paths are a smell",
        "our SDK generator prefers snake case",
        "mobile already ships the camelCase client",
        "documentation examples use kebab case",
        "the gateway rewrites paths for free",
        "versioning in the header keeps paths clean",
        "nested resources deeper than two levels hurt",
        "search endpoints deserve their own prefix",
        "bulk operations need a separate verb",
        "errors should mirror the resource names",
        "legacy clients pin the v1 prefix forever",
        "the style guide from 2019 is outdated",
        "product wants readable URLs in emails",
    ];
    match s.name.as_str() {
        "Bob" | "Charlie" if !s.unread.is_empty() => {
            let n = SAID.fetch_add(1, Ordering::SeqCst);
            speak(
                "I disagree, and I'll say so.",
                &[(
                    &format!("{} (round {n}): {}", s.name, POINTS[n % POINTS.len()]),
                    None,
                )],
                json!([]),
            )
        }
        name => silent(name),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ping_pong_between_two_employees_stops_at_the_step_cap_and_escalates() {
    let stage = Stage::new(ping_pong).await;
    let (_alice, bob, charlie, group) = engineering(&stage).await;
    let core = &stage.co.core;
    let asked = stage
        .boss_says(
            group,
            "Bob, Charlie: settle the endpoint naming between you.",
        )
        .await;
    let trace = asked.trace_id.unwrap();
    stage.run_for(TimeDelta::hours(3)).await;

    let story = core.traces.get(&trace).await.unwrap();
    assert_eq!(story.steps, 15, "the instruction stops at its 15th step");
    let talk: Vec<_> = core
        .chats
        .messages(group)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.sender_kind == cubicle_core::chat::SenderKind::Employee)
        .collect();
    assert_eq!(talk.len(), 15, "one message per step");
    assert!(talk.iter().any(|m| m.sender_employee_id == Some(bob)));
    assert!(talk.iter().any(|m| m.sender_employee_id == Some(charlie)));
    // The boss hears of it once, and the chat says why it went quiet.
    let mail = mail_of(core, None).await;
    let stops: Vec<_> = mail
        .iter()
        .filter(|m| m.kind == MailKind::Escalation && m.title.starts_with("Stopped:"))
        .collect();
    assert_eq!(stops.len(), 1, "{mail:?}");
    assert!(stops[0].body.contains("15 steps"));
    // It names who took the 15th step, not whoever woke up next.
    let last = talk.last().unwrap();
    let (other, other_name) = if last.sender_employee_id == Some(bob) {
        (charlie, "Charlie")
    } else {
        (bob, "Bob")
    };
    assert_eq!(
        stops[0].employee_id, last.sender_employee_id,
        "{}",
        stops[0].body
    );
    assert_ne!(stops[0].employee_id, Some(other));
    assert!(
        stops[0].body.contains(&format!("by {})", last.sender_name)),
        "{}",
        stops[0].body
    );
    assert!(!stops[0].body.contains(other_name), "{}", stops[0].body);
    assert_eq!(stops[0].chat_id, Some(group));
    let notes = core.chats.messages(group).await.unwrap();
    assert!(
        notes
            .iter()
            .any(|m| m.sender_kind == cubicle_core::chat::SenderKind::System
                && m.text.contains("paused"))
    );

    // Stopped means stopped: hours later, no model call has been spent on it.
    let calls = stage.book.prompts.lock().unwrap().len();
    stage.run_for(TimeDelta::hours(5)).await;
    assert_eq!(stage.book.prompts.lock().unwrap().len(), calls);
    // A new word from the boss is a new instruction, with its own steps.
    stage
        .boss_says(group, "Charlie, one last word on it?")
        .await;
    stage.run_for(TimeDelta::minutes(2)).await;
    assert!(stage.book.prompts.lock().unwrap().len() > calls);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_resolve_reports_in_the_target_chat_a_group_or_a_dm_and_by_default_the_boss_chat() {
    fn play(s: &Seen) -> Value {
        match (s.name.as_str(), s.tasks.first()) {
            ("Alice", Some((id, d))) => speak(
                "Done.",
                &[],
                json!([{"op": "resolve", "id": id, "result": format!("finished: {d}")}]),
            ),
            ("Alice", None) if s.reporting => speak(
                "Report it here.",
                &[(&format!("Report from {}: done.", s.chat), None)],
                json!([]),
            ),
            (name, _) => silent(name),
        }
    }
    let stage = Stage::new(play).await;
    let (alice, bob, _charlie, group) = engineering(&stage).await;
    let core = &stage.co.core;
    let dm = core
        .chats
        .dm_from(alice, bob, cubicle_core::chat::gates::ChatMode::Work)
        .await
        .unwrap();
    for (what, target) in [
        ("the group task", Some(format!("chat:{group}"))),
        ("the dm task", Some(format!("chat:{}", dm.id))),
        ("the default task", None),
    ] {
        core.work
            .create(cubicle_core::work::NewTask {
                on_resolve_target: target,
                ..cubicle_core::work::NewTask::new(alice, what, TaskOrigin::Boss)
            })
            .await
            .unwrap();
        stage.run_for(TimeDelta::minutes(20)).await;
    }
    let boss_chat = core.chats.boss_chat(alice).await.unwrap();
    for (chat, name) in [
        (group, "API design"),
        (dm.id, dm.name.as_str()),
        (boss_chat.id, boss_chat.name.as_str()),
    ] {
        let said = core.chats.messages(chat).await.unwrap();
        assert!(
            said.iter().any(|m| m.sender_employee_id == Some(alice)
                && m.text == format!("Report from {name}: done.")),
            "no report in {name}: {said:?}"
        );
    }
    let reports = mail_of(core, None).await;
    assert_eq!(
        reports
            .iter()
            .filter(|m| m.kind == MailKind::Report)
            .count(),
        3,
        "each report is copied to the mailbox"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_evening_digest_sums_up_the_day_once_and_a_quiet_day_gets_none() {
    let stage = Stage::new(seed_000).await;
    let (alice, _bob, _charlie, _group) = engineering(&stage).await;
    let core = &stage.co.core;
    let boss_chat = core.chats.boss_chat(alice).await.unwrap();
    stage
        .boss_says(
            boss_chat.id,
            "Alice, could you research REST vs GraphQL for our new API?",
        )
        .await;
    // Through the evening and the next day, which is quiet.
    stage.run_for(TimeDelta::hours(36)).await;

    let digests: Vec<_> = mail_of(core, Some(MailKind::Digest)).await;
    assert_eq!(digests.len(), 1, "one busy day, one digest: {digests:?}");
    let d = &digests[0];
    assert_eq!(d.title, "Today at Acme Robotics");
    assert!(
        d.body
            .starts_with("Tasks: 1 resolved, 0 failed, 1 new, 0 pending."),
        "{}",
        d.body
    );
    assert!(d.body.contains("1 instruction from you."), "{}", d.body);
    assert!(
        d.body.contains("Mailbox: 1 report, 0 items that need you."),
        "{}",
        d.body
    );
    let local = chrono::DateTime::parse_from_rfc3339(&d.created_at)
        .unwrap()
        .with_timezone(&chrono::Local);
    assert_eq!(
        local.format("%H:%M").to_string(),
        "18:00",
        "filed at six in the evening"
    );
}

/// Alice takes on ongoing and conditional work, and reports the conditional one to Bob.
fn watcher(s: &Seen) -> Value {
    match s.name.as_str() {
        "Alice" if s.reporting => speak(
            "Bob wanted to know.",
            &[("Bob, the nightly build is green again.", None)],
            json!([]),
        ),
        "Alice" if s.new_from("Ada", "keep an eye") => speak(
            "Two things: watch it, and tell Bob once it passes.",
            &[("Will do, Ada.", None)],
            json!([
                {"op": "create", "type": "long_running", "description": "Watch the nightly build"},
                {"op": "create", "type": "conditional", "condition": "the nightly build passes",
                 "description": "Tell Bob the build is green", "reportTo": "Bob"}
            ]),
        ),
        "Alice" if s.new_from("Ada", "passed") => match s.task("Tell Bob") {
            Some(id) => speak(
                "The condition is met.",
                &[],
                json!([{"op": "resolve", "id": id, "result": "the nightly build passed"}]),
            ),
            None => silent("Alice"),
        },
        name => silent(name),
    }
}

/// Alice made one ongoing and one conditional task of the boss's words; 45 minutes on,
/// neither is overdue, no escalation reached the boss, and such work did not wake her
/// on every poll (only one-shot tasks do).
async fn alice_keeps_an_ongoing_and_a_conditional_task_without_escalation(stage: &Stage) {
    let core = &stage.co.core;
    let tasks = core.work.all().await.unwrap();
    assert_eq!(tasks.len(), 2, "{tasks:?}");
    let ongoing = tasks
        .iter()
        .find(|t| t.description == "Watch the nightly build")
        .unwrap();
    assert_eq!(ongoing.kind, cubicle_core::work::TaskKind::LongRunning);
    let conditional = tasks
        .iter()
        .find(|t| t.description.starts_with("Tell Bob"))
        .unwrap();
    assert_eq!(conditional.kind, cubicle_core::work::TaskKind::Conditional);
    assert_eq!(
        conditional.condition.as_deref(),
        Some("the nightly build passes")
    );
    // 45 minutes on, neither is overdue: no escalation reached the boss.
    let mail = mail_of(core, None).await;
    assert!(
        mail.iter().all(|m| m.kind != MailKind::Escalation),
        "{mail:?}"
    );
    // Such work does not wake her on every poll (only one-shot tasks do).
    let hers = |book: &Playbook| {
        book.prompts
            .lock()
            .unwrap()
            .iter()
            .filter(|p| p.name == "Alice")
            .count()
    };
    assert!(
        hers(&stage.book) <= 2,
        "{} thoughts in 45 minutes over ongoing work",
        hers(&stage.book)
    );
}

/// When she thinks about the news, her prompt says what kind of work each task is,
/// without urgency.
fn her_prompt_shows_each_kind_of_work_without_urgency(stage: &Stage) {
    let prompts = stage.book.prompts.lock().unwrap();
    let asked = prompts
        .iter()
        .find(|p| p.name == "Alice" && p.new_from("Ada", "passed"))
        .expect("Alice thought about the news");
    assert!(
        asked.prompt.contains("[ongoing] Watch the nightly build"),
        "{}",
        asked.prompt
    );
    assert!(
        asked
            .prompt
            .contains("[when: the nightly build passes] Tell Bob the build is green"),
        "{}",
        asked.prompt
    );
    assert!(!asked.prompt.contains("overdue") && !asked.prompt.contains("critical"));
}

/// The conditional task's report went where it was asked to: a DM with Bob where Alice
/// tells him, and the mailbox copy points at that DM.
async fn bob_is_told_in_a_dm_and_the_report_points_there(core: &AppCore, alice: i32, bob: i32) {
    let dm = core
        .chats
        .list()
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.kind == cubicle_core::chat::ChatKind::Dm)
        .expect("the report opened a DM with Bob");
    assert!(dm.member_ids.contains(&alice) && dm.member_ids.contains(&bob));
    let said = core.chats.messages(dm.id).await.unwrap();
    assert!(said.iter().any(|m| m.sender_employee_id == Some(alice)
        && m.text == "Bob, the nightly build is green again."));
    let mail = mail_of(core, None).await;
    let report = mail.iter().find(|m| m.kind == MailKind::Report).unwrap();
    assert_eq!(report.chat_id, Some(dm.id));
    assert_eq!(report.title, "Done: Tell Bob the build is green");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ongoing_and_conditional_tasks_never_escalate_and_report_where_they_were_asked_to() {
    let stage = Stage::new(watcher).await;
    let (alice, bob, _charlie, _group) = engineering(&stage).await;
    let core = &stage.co.core;
    let boss_chat = core.chats.boss_chat(alice).await.unwrap();
    stage
        .boss_says(
            boss_chat.id,
            "Alice, keep an eye on the nightly build and tell Bob once it passes.",
        )
        .await;
    stage.run_for(TimeDelta::minutes(45)).await;
    alice_keeps_an_ongoing_and_a_conditional_task_without_escalation(&stage).await;

    stage
        .boss_says(boss_chat.id, "Alice, the nightly build passed.")
        .await;
    stage.run_for(TimeDelta::minutes(10)).await;
    // When she thinks again, her prompt says what kind of work each task is, without
    // urgency.
    her_prompt_shows_each_kind_of_work_without_urgency(&stage);
    bob_is_told_in_a_dm_and_the_report_points_there(core, alice, bob).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn whoever_gets_a_task_in_a_requirement_joins_its_group_chat() {
    let stage = Stage::new(|s: &Seen| silent(&s.name)).await;
    let (_alice, _bob, _charlie, group) = engineering(&stage).await;
    let co = &stage.co;
    let design = co.dept("Design", None).await;
    let dana = co.hire("Dana", "UI Designer", Some(design.id)).await;
    assert!(
        !co.core
            .chats
            .members(group)
            .await
            .unwrap()
            .contains(&dana.id)
    );
    let req = co.core.work.requirements().await.unwrap()[0].id;
    co.core
        .work
        .create(cubicle_core::work::NewTask {
            requirement_id: Some(req),
            ..cubicle_core::work::NewTask::new(
                dana.id,
                "Mock up the API docs page",
                TaskOrigin::Boss,
            )
        })
        .await
        .unwrap();
    assert!(
        co.core
            .chats
            .members(group)
            .await
            .unwrap()
            .contains(&dana.id)
    );
    // The requirement is now in progress on the board.
    let board = co.core.work.board().await.unwrap();
    let col = board
        .columns
        .iter()
        .find(|c| c.status == cubicle_core::work::board::RequirementStatus::InProgress)
        .unwrap();
    assert_eq!(col.items.len(), 1);
    assert_eq!(col.items[0].tasks_pending, 1);
}

// The same scenarios on PostgreSQL, each company on a fresh database of its own
// (skipped, with a line saying so, when CUBICLE_TEST_PG_URL is unset).

#[test]
fn seed_000_rest_vs_graphql_is_researched_resolved_and_reported_under_one_trace_on_postgres() {
    crate::pg::on_postgres(
        seed_000_rest_vs_graphql_is_researched_resolved_and_reported_under_one_trace,
    );
}
