//! The conversation engine on a manual clock with a scripted model: simulated hours run
//! in seconds, and every number of SPEC §4 is checked against what actually happened.

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::chat::{ChatMessageDto, PostMessage};
use cubicle_core::clock::{Clock as _, ManualClock};
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::mind::minds::ThoughtDto;
use cubicle_core::org::NewEmployee;
use cubicle_core::types::*;
use cubicle_core::work::TaskOrigin;

use crate::util::TestCompany;

mod addressed;
mod baselines;
mod budget_told;
mod crash;
mod lease;
mod other_process;
mod world;

use world::{Mood, start, world};

fn at(m: &cubicle_core::chat::ChatMessageDto) -> DateTime<Utc> {
    DateTime::parse_from_rfc3339(&m.created_at)
        .unwrap()
        .with_timezone(&Utc)
}

/// A simulated day: the boss asks the department to plan a step of the launch every
/// four hours from 01:00, and the engine runs to the next morning. The boss's messages'
/// ids and the real time the day took.
async fn a_day_with_the_boss_asking_every_four_hours(
    w: &world::World,
) -> (Vec<i32>, std::time::Duration) {
    let t0 = std::time::Instant::now();
    let mut boss_messages = Vec::new();
    for hour in [1, 5, 9, 13, 17, 21] {
        let target = start() + TimeDelta::hours(hour);
        w.engine.run_simulated(&w.clock, target).await;
        boss_messages.push(
            w.boss_says(
                w.dept_chat,
                &format!("Team, let's plan step {hour} of the launch."),
            )
            .await,
        );
    }
    w.engine
        .run_simulated(&w.clock, start() + TimeDelta::hours(24))
        .await;
    (boss_messages, t0.elapsed())
}

/// With CUBICLE_DEBUG_DAY set, the day's messages and thoughts, printed.
async fn print_the_day_when_debugging(w: &world::World, messages: &[ChatMessageDto]) {
    if std::env::var("CUBICLE_DEBUG_DAY").is_ok() {
        for m in messages {
            eprintln!("{} {:?} {}", m.created_at, m.sender_employee_id, m.text);
        }
        for t in w.co.core.chats.view(w.dept_chat).await.unwrap().thoughts {
            eprintln!(
                "{} {} spoke={} silenced={:?} sat={:?}",
                t.created_at, t.employee_id, t.spoke, t.silenced_by, t.saturation
            );
        }
    }
}

/// Every boss message got an answer within seconds (1–5 s nudge + 2–8 s absorb).
fn every_boss_message_was_answered_within_seconds(messages: &[ChatMessageDto], boss: &[i32]) {
    for id in boss {
        let boss = messages.iter().find(|m| m.id == *id).unwrap();
        let reply = messages
            .iter()
            .find(|m| m.id > *id && m.sender_kind == cubicle_core::chat::SenderKind::Employee)
            .expect("a reply to the boss");
        let lag = at(reply) - at(boss);
        assert!(lag <= TimeDelta::seconds(13), "boss answered after {lag}");
    }
}

/// The gates held for everyone: department chats are casual — at most 4 posts per
/// 10 minutes and 30 s between one's own posts — and everyone spoke.
fn the_casual_gates_held_for_everyone(w: &world::World, messages: &[ChatMessageDto]) {
    for p in &w.people {
        let mine: Vec<DateTime<Utc>> = messages
            .iter()
            .filter(|m| m.sender_employee_id == Some(p.id))
            .map(at)
            .collect();
        assert!(!mine.is_empty(), "{} never spoke", p.name);
        for pair in mine.windows(2) {
            assert!(
                pair[1] - pair[0] >= TimeDelta::seconds(30),
                "{} broke the cooldown: {:?}",
                p.name,
                pair
            );
        }
        for (i, first) in mine.iter().enumerate() {
            let in_window = mine[i..]
                .iter()
                .filter(|t| **t - *first < TimeDelta::minutes(10))
                .count();
            assert!(
                in_window <= 4,
                "{} posted {in_window} in 10 minutes",
                p.name
            );
        }
    }
}

/// Silent thoughts still applied their ops: Alice, silenced at times, kept memories
/// from spoken and silent thoughts alike (short-term capped), formed relationships with
/// clamped affinity, and the thoughts wrote the chat's rolling summary.
async fn silent_thoughts_still_applied_their_ops(w: &world::World, thoughts: &[ThoughtDto]) {
    let alice = w.co.core.minds.profile(w.id("Alice")).await.unwrap();
    let silenced_alice = alice
        .thoughts
        .iter()
        .chain(thoughts.iter())
        .filter(|t| t.employee_id == w.id("Alice") && t.silenced_by.is_some())
        .count();
    assert!(silenced_alice > 0);
    assert!(
        alice.memories.len() >= 10,
        "memories from spoken and silent thoughts alike: {}",
        alice.memories.len()
    );
    assert!(
        alice
            .memories
            .iter()
            .filter(|m| m.kind == cubicle_core::mind::memory_rules::MemoryKind::ShortTerm)
            .count()
            <= 20,
        "short-term cap"
    );
    // Relationships formed, affinity clamped to at most 100 and moved in steps.
    assert!(!alice.relationships.is_empty());
    assert!(alice.relationships.iter().all(|r| r.affinity <= 100));
    // The rolling chat summary is written by the thoughts.
    let summary = cubicle_store::mind::chat_summary(&w.co.db().await, w.dept_chat)
        .await
        .unwrap()
        .expect("a rolling summary");
    assert!(summary.summary.starts_with("The team discussed the plan"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_simulated_day_in_a_six_person_department_keeps_every_gate() {
    let w = world().await;
    let (boss_messages, elapsed) = a_day_with_the_boss_asking_every_four_hours(&w).await;

    let messages = w.co.core.chats.messages(w.dept_chat).await.unwrap();
    let stats = w.engine.stats();
    print_the_day_when_debugging(&w, &messages).await;
    eprintln!(
        "simulated day: {} messages, {stats:?}, in {elapsed:?}",
        messages.len()
    );
    assert!(
        elapsed < std::time::Duration::from_secs(60),
        "a simulated day must run in seconds, took {elapsed:?}"
    );

    every_boss_message_was_answered_within_seconds(&messages, &boss_messages);
    the_casual_gates_held_for_everyone(&w, &messages);

    // Conversations died down by themselves (saturation ≥ 7 forces silence) and the
    // employees then stopped costing anything: long quiet stretches without calls.
    let thoughts = w.co.core.chats.view(w.dept_chat).await.unwrap().thoughts;
    let silenced: Vec<_> = thoughts
        .iter()
        .filter(|t| t.silenced_by.is_some())
        .collect();
    assert!(
        silenced
            .iter()
            .any(|t| t.silenced_by == Some(cubicle_core::chat::gates::SilenceReason::Saturation)),
        "saturation silenced someone"
    );
    // The cooldown and anti-spam gates hold people back before they think: their
    // wake-up waits for the gate to reopen (no model call is spent meanwhile).
    assert!(
        stats.deferred > 0,
        "a spam gate held someone back: {stats:?}"
    );
    assert!(stats.idle_wakeups > 0, "idle wake-ups cost nothing");

    silent_thoughts_still_applied_their_ops(&w, &thoughts).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_at_mention_from_the_boss_overrides_saturation_for_that_employee_only() {
    let w = world().await;
    w.script.lock().unwrap().mood = Some(Mood::Tired);
    let msg = w
        .boss_says(w.dept_chat, "@Alice can you check the build?")
        .await;
    w.run_for(TimeDelta::seconds(30)).await;
    let messages = w.co.core.chats.messages(w.dept_chat).await.unwrap();
    let replies: Vec<_> = messages.iter().filter(|m| m.id > msg).collect();
    assert_eq!(replies.len(), 1, "{replies:?}");
    assert_eq!(replies[0].sender_employee_id, Some(w.id("Alice")));
    let thoughts = w.co.core.chats.view(w.dept_chat).await.unwrap().thoughts;
    let bob = thoughts
        .iter()
        .find(|t| t.employee_id == w.id("Bob"))
        .expect("Bob thought about it");
    assert_eq!(
        bob.silenced_by,
        Some(cubicle_core::chat::gates::SilenceReason::Saturation)
    );
    assert!(bob.should_speak, "Bob wanted to speak; the gate held him");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_malformed_thought_is_dropped_and_the_employee_keeps_working() {
    let w = world().await;
    w.script.lock().unwrap().broken = vec!["Bob".into()];
    let msg = w
        // An @mention: by the time his model works again, his colleagues have talked
        // the topic to saturation, which only the boss's @mention overrides.
        .boss_says(w.dept_chat, "@Bob what's the test status?")
        .await;
    w.run_for(TimeDelta::seconds(30)).await;
    let thoughts = w.co.core.chats.view(w.dept_chat).await.unwrap().thoughts;
    let bob: Vec<_> = thoughts
        .iter()
        .filter(|t| t.employee_id == w.id("Bob"))
        .collect();
    assert!(
        bob.iter()
            .any(|t| t.silenced_by == Some(cubicle_core::chat::gates::SilenceReason::Malformed))
    );
    assert!(w.engine.stats().malformed >= 1);
    // Nothing was marked read for him: the model recovers, and his next poll answers.
    w.script.lock().unwrap().broken.clear();
    w.run_for(TimeDelta::minutes(10)).await;
    let messages = w.co.core.chats.messages(w.dept_chat).await.unwrap();
    assert!(
        messages
            .iter()
            .any(|m| m.id > msg && m.sender_employee_id == Some(w.id("Bob"))),
        "Bob answered once his model worked again"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_idle_company_makes_no_model_calls() {
    let w = world().await;
    w.boss_says(w.dept_chat, "Morning all, quick hello?").await;
    w.run_for(TimeDelta::hours(2)).await;
    let calls_after_chat = w.script.lock().unwrap().calls;
    assert!(calls_after_chat > 0);
    // Everything is read and nothing is pending: hours pass without a single call, and
    // nobody is even polled any more (only memory expiry remains scheduled).
    w.run_for(TimeDelta::hours(6)).await;
    assert_eq!(w.script.lock().unwrap().calls, calls_after_chat);
    for p in &w.people {
        assert!(
            w.engine
                .pending_for(p.id)
                .iter()
                .all(|x| matches!(x.reason, cubicle_core::scheduler::WakeReason::MemoryExpiry)),
            "{} is still scheduled: {:?}",
            p.name,
            w.engine.pending_for(p.id)
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_task_from_the_boss_is_picked_up_and_escalates_while_pending() {
    let w = world().await;
    let alice = w.id("Alice");
    w.co.core
        .work
        .assign(alice, "research REST vs GraphQL", TaskOrigin::Boss)
        .await
        .unwrap();
    // Before anything happens she has a poll soon and escalations at 5/15/30 minutes.
    w.engine.drain_events().await;
    let pending = w.engine.pending_for(alice);
    assert!(
        pending
            .iter()
            .any(|x| x.reason == cubicle_core::scheduler::WakeReason::Poll)
    );
    assert!(pending.iter().any(|x| matches!(
        x.reason,
        cubicle_core::scheduler::WakeReason::TaskEscalation { .. }
    )));
    w.run_for(TimeDelta::minutes(31)).await;
    // She thought about it in her chat with the boss, repeatedly while it stayed pending.
    let profile = w.co.core.minds.profile(alice).await.unwrap();
    assert_eq!(profile.pending_tasks.len(), 1);
    let boss_chat = w.co.core.chats.boss_chat(alice).await.unwrap();
    let thoughts = w.co.core.chats.view(boss_chat.id).await.unwrap().thoughts;
    assert!(thoughts.len() >= 3, "{} thoughts", thoughts.len());
}

/// `name`, hired into department `dept` as `title` with `archetype`.
async fn hire_as(
    co: &TestCompany,
    dept: i32,
    (name, title): (&str, &str),
    archetype: Archetype,
) -> cubicle_core::org::EmployeeDto {
    co.core
        .org
        .hire(NewEmployee {
            name: name.into(),
            title: title.into(),
            department_id: Some(dept),
            manager_id: None,
            archetype: Some(archetype),
        })
        .await
        .unwrap()
}

/// Every message in every chat: their words may land in the department chat or in a DM
/// between them.
async fn everything_said(co: &TestCompany) -> Vec<ChatMessageDto> {
    let mut all = Vec::new();
    for c in co.core.chats.list().await.unwrap() {
        all.extend(co.core.chats.messages(c.id).await.unwrap());
    }
    all
}

fn spoke(messages: &[ChatMessageDto], id: i32) -> bool {
    messages.iter().any(|m| m.sender_employee_id == Some(id))
}

/// The boss keeps asking whoever has not spoken yet, by @mention (SPEC §4: an
/// instruction from the boss), for at most six rounds of three simulated minutes.
async fn the_boss_asks_until_both_have_spoken(
    co: &TestCompany,
    (engine, clock): (&Engine, &ManualClock),
    chat: i32,
    (alice, bob): (i32, i32),
) {
    let asks = [
        "@Alice @Bob please agree on how we test the new login page.",
        "@Bob what do you need from Alice to start testing?",
        "@Alice what will you give Bob?",
        "@Bob please answer Alice in one sentence.",
        "@Alice please answer Bob in one sentence.",
        "@Bob say hello to Alice.",
    ];
    for ask in asks {
        co.core
            .chats
            .post_as_boss(PostMessage {
                chat_id: chat,
                text: ask.into(),
            })
            .await
            .unwrap();
        let until = clock.now() + TimeDelta::minutes(3);
        engine.run_simulated(clock, until).await;
        let messages = everything_said(co).await;
        if spoke(&messages, alice) && spoke(&messages, bob) {
            break;
        }
    }
}

/// What was said and thought, printed for whoever reads the test's output.
async fn print_what_they_said_and_thought(
    co: &TestCompany,
    engine: &Engine,
    messages: &[ChatMessageDto],
    people: [i32; 2],
) {
    for m in messages {
        eprintln!("{:?} in #{}: {}", m.sender_employee_id, m.chat_id, m.text);
    }
    eprintln!("{:?}", engine.stats());
    for id in people {
        for t in co.core.minds.profile(id).await.unwrap().thoughts {
            eprintln!(
                "thought of {id}: speak={} spoke={} silenced={:?} reason={:?}",
                t.should_speak,
                t.spoke,
                t.silenced_by,
                t.reason.chars().take(160).collect::<String>()
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_employees_talk_through_the_real_built_in_model_offline() {
    // No provider, no route: every thought goes to the built-in GGUF model, offline.
    let clock = ManualClock::new(start());
    let co = TestCompany::with_clock(clock.shared()).await;
    let eng = co.dept("Engineering", None).await;
    let alice = hire_as(
        &co,
        eng.id,
        ("Alice", "Backend Engineer"),
        Archetype::Chatterbox,
    )
    .await;
    let bob = hire_as(&co, eng.id, ("Bob", "QA Engineer"), Archetype::WarmHearted).await;
    let chat = co
        .core
        .chats
        .find_department_chat(eng.id)
        .await
        .unwrap()
        .unwrap();
    let engine = Engine::new(
        &co.core,
        EngineConfig {
            seed: Some(11),
            ..EngineConfig::default()
        },
    );
    the_boss_asks_until_both_have_spoken(&co, (&engine, &clock), chat.id, (alice.id, bob.id)).await;
    let messages = everything_said(&co).await;
    print_what_they_said_and_thought(&co, &engine, &messages, [alice.id, bob.id]).await;
    assert!(spoke(&messages, alice.id), "Alice said something");
    assert!(spoke(&messages, bob.id), "Bob said something");
    let costs = co.core.minds.profile(alice.id).await.unwrap();
    assert!(!costs.thoughts.is_empty(), "her thoughts are stored");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_spent_budget_stops_thinking_until_a_new_message_or_the_next_day() {
    let w = world().await;
    // Expensive enough that the first thoughts spend the day's budget.
    w.expensive(0.5).await;
    w.boss_says(w.dept_chat, "Quick round: how is everyone?")
        .await;
    w.run_for(TimeDelta::minutes(10)).await;
    let calls = w.script.lock().unwrap().calls;
    assert!(
        (1..6).contains(&calls),
        "the budget stopped the calls: {calls}"
    );
    let thoughts = w.co.core.chats.view(w.dept_chat).await.unwrap().thoughts;
    assert!(
        thoughts
            .iter()
            .any(|t| t.silenced_by == Some(cubicle_core::chat::gates::SilenceReason::Budget))
    );
    // Nobody keeps polling into a spent budget: the next poll waits for the new day.
    w.run_for(TimeDelta::hours(3)).await;
    assert_eq!(w.script.lock().unwrap().calls, calls);
    let tomorrow = cubicle_core::gateway::start_of_day(w.clock.now()) + TimeDelta::days(1);
    let mut resuming = 0;
    for p in &w.people {
        for x in w.engine.pending_for(p.id) {
            if x.reason == cubicle_core::scheduler::WakeReason::Poll {
                assert!(x.at >= tomorrow, "{} polls today at {}", p.name, x.at);
                resuming += 1;
            }
        }
    }
    assert!(resuming > 0, "those stopped by the budget resume tomorrow");
    // The budget renews at midnight and the work that waited is picked up, with no
    // new message from anyone (it used to wait for one forever).
    w.run_for(TimeDelta::hours(24)).await;
    assert!(
        w.script.lock().unwrap().calls > calls,
        "nobody thought again on the new day"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_to_a_colleague_opens_a_dm_that_follows_the_chat_it_came_from() {
    let w = world().await;
    w.script.lock().unwrap().private = Some(("Alice".into(), "Bob".into()));
    w.boss_says(w.dept_chat, "Alice, sort out the test plan with Bob.")
        .await;
    w.run_for(TimeDelta::minutes(3)).await;
    let chats = w.co.core.chats.list().await.unwrap();
    let dm = chats
        .iter()
        .find(|c| c.kind == cubicle_core::chat::ChatKind::Dm)
        .expect("Alice opened a DM");
    let mut members = dm.member_ids.clone();
    members.sort_unstable();
    assert_eq!(members, vec![w.id("Alice"), w.id("Bob")]);
    // Started from the (casual) department chat, it follows that chat's gate table.
    assert_eq!(dm.mode, cubicle_core::chat::gates::ChatMode::Casual);
    let messages = w.co.core.chats.messages(dm.id).await.unwrap();
    assert_eq!(messages[0].sender_employee_id, Some(w.id("Alice")));
    assert!(
        messages
            .iter()
            .any(|m| m.sender_employee_id == Some(w.id("Bob"))),
        "Bob answered in the DM"
    );
    // Her words to Bob are not in the department chat.
    let dept = w.co.core.chats.messages(w.dept_chat).await.unwrap();
    assert!(
        dept.iter()
            .all(|m| m.sender_employee_id != Some(w.id("Alice")))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_thought_that_speaks_as_someone_else_is_regenerated_once_then_dropped() {
    let w = world().await;
    w.script.lock().unwrap().impostors = vec!["Alice".into()];
    let msg = w.boss_says(w.dept_chat, "@Alice what's the plan?").await;
    let before = w
        .script
        .lock()
        .unwrap()
        .by_name
        .get("Alice")
        .copied()
        .unwrap_or(0);
    w.run_for(TimeDelta::seconds(20)).await;
    let alice_calls = w
        .script
        .lock()
        .unwrap()
        .by_name
        .get("Alice")
        .copied()
        .unwrap_or(0)
        - before;
    assert!(alice_calls >= 2, "regenerated once: {alice_calls} calls");
    let messages = w.co.core.chats.messages(w.dept_chat).await.unwrap();
    assert!(
        messages
            .iter()
            .all(|m| !(m.id > msg && m.sender_employee_id == Some(w.id("Alice")))),
        "nothing posted in someone else's name"
    );
    let thoughts = w.co.core.chats.view(w.dept_chat).await.unwrap().thoughts;
    assert!(thoughts.iter().any(|t| t.employee_id == w.id("Alice")
        && t.silenced_by == Some(cubicle_core::chat::gates::SilenceReason::Identity)));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn resolving_a_task_in_a_thought_closes_it_and_restores_stamina() {
    let w = world().await;
    let alice = w.id("Alice");
    let task =
        w.co.core
            .work
            .assign(alice, "research REST vs GraphQL", TaskOrigin::Boss)
            .await
            .unwrap();
    w.co.core
        .minds
        .stamina_event(alice, cubicle_core::mind::stamina::StaminaEvent::TaskFailed)
        .await
        .unwrap();
    let tired = w.co.core.minds.stamina(alice).await.unwrap().comfort();
    w.script.lock().unwrap().resolves = Some(("Alice".into(), i64::from(task.id)));
    w.run_for(TimeDelta::minutes(2)).await;
    let profile = w.co.core.minds.profile(alice).await.unwrap();
    assert!(profile.pending_tasks.is_empty(), "the task is resolved");
    assert!(
        profile.stamina.comfort > tired,
        "task resolved: +20 patience, −15 fatigue, −15 stress"
    );
    // Its escalations are gone with it.
    assert!(w.engine.pending_for(alice).iter().all(|x| !matches!(
        x.reason,
        cubicle_core::scheduler::WakeReason::TaskEscalation { .. }
    )));
    // onResolve: she reported in her chat with the boss, in her own words, and a copy is
    // in the mailbox linking back to that chat.
    let boss_chat = w.co.core.chats.boss_chat(alice).await.unwrap();
    let said: Vec<String> =
        w.co.core
            .chats
            .messages(boss_chat.id)
            .await
            .unwrap()
            .into_iter()
            .filter(|m| m.sender_employee_id == Some(alice))
            .map(|m| m.text)
            .collect();
    assert!(!said.is_empty(), "a report in the boss chat");
    let mail =
        w.co.core
            .mailbox
            .list(cubicle_core::mailbox::MailFilter::default())
            .await
            .unwrap();
    let report = mail
        .items
        .iter()
        .find(|m| m.kind == cubicle_core::mailbox::MailKind::Report)
        .expect("a report in the mailbox");
    assert_eq!(report.task_id, Some(task.id));
    assert_eq!(report.chat_id, Some(boss_chat.id));
    assert_eq!(report.employee_name, "Alice");
    assert!(
        said.iter().any(|s| report.body.contains(s.as_str())),
        "{}",
        report.body
    );
    // One report; the run may also cross 6 pm local time, when the evening digest is filed.
    let digests = mail
        .items
        .iter()
        .filter(|m| m.kind == cubicle_core::mailbox::MailKind::Digest)
        .count();
    assert_eq!(mail.unread as usize, 1 + digests, "{:?}", mail.items);
    // The report prompt told her what was done.
    let thoughts = w.co.core.chats.view(boss_chat.id).await.unwrap().thoughts;
    assert!(!thoughts.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_overdue_task_escalates_to_the_mailbox_once_and_a_spent_budget_is_reported() {
    let w = world().await;
    let bob = w.id("Bob");
    w.co.core
        .work
        .assign(bob, "write the test plan", TaskOrigin::Boss)
        .await
        .unwrap();
    w.run_for(TimeDelta::minutes(45)).await;
    let mail =
        w.co.core
            .mailbox
            .list(cubicle_core::mailbox::MailFilter::default())
            .await
            .unwrap();
    let escalations: Vec<_> = mail
        .items
        .iter()
        .filter(|m| m.kind == cubicle_core::mailbox::MailKind::Escalation)
        .collect();
    assert_eq!(escalations.len(), 1, "{escalations:?}");
    assert!(escalations[0].title.contains("write the test plan"));

    // The budget runs out: one budget stop, however many calls are refused.
    // Expensive enough that the first thoughts spend the day's budget.
    w.expensive(0.01).await;
    w.boss_says(w.dept_chat, "Everyone: status please.").await;
    w.run_for(TimeDelta::minutes(5)).await;
    let budget: Vec<_> =
        w.co.core
            .mailbox
            .list(cubicle_core::mailbox::MailFilter::default())
            .await
            .unwrap()
            .items
            .into_iter()
            .filter(|m| m.kind == cubicle_core::mailbox::MailKind::Budget)
            .collect();
    assert_eq!(budget.len(), 1);
}

// The same scenarios on PostgreSQL, each company on a fresh database of its own
// (skipped, with a line saying so, when CUBICLE_TEST_PG_URL is unset).

#[test]
fn a_simulated_day_in_a_six_person_department_keeps_every_gate_on_postgres() {
    crate::pg::on_postgres(a_simulated_day_in_a_six_person_department_keeps_every_gate);
}

#[test]
fn a_task_from_the_boss_is_picked_up_and_escalates_while_pending_on_postgres() {
    crate::pg::on_postgres(a_task_from_the_boss_is_picked_up_and_escalates_while_pending);
}
