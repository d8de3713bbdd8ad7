//! Crash safety (SPEC §10): a thought interrupted between its writes is finished at
//! the next start without a model call and without writing anything twice; an approved
//! action interrupted before its run is shown to the boss and never run again.
//! (`crates/cli/tests/it/crash.rs` kills real processes; these check each case exactly.)

use chrono::{TimeZone, Utc};
use cubicle_core::approvals::{ApprovalFilter, ApprovalStatus, CallOutcome};
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::org::EmployeeDto;
use cubicle_core::tools::ToolCall;
use cubicle_core::types::*;
use serde_json::json;

use crate::util::TestCompany;

async fn two_in_a_department() -> (TestCompany, EmployeeDto, EmployeeDto, i32) {
    let co = TestCompany::with_clock(
        cubicle_core::clock::ManualClock::new(Utc.with_ymd_and_hms(2026, 3, 2, 9, 0, 0).unwrap())
            .shared(),
    )
    .await;
    let d = co.dept("Engineering", None).await;
    let alice = co.hire("Alice", "Backend Engineer", Some(d.id)).await;
    let bob = co.hire("Bob", "QA Engineer", Some(d.id)).await;
    let chat = co
        .core
        .chats
        .department_chat(d.id, "Engineering")
        .await
        .unwrap();
    for p in [&alice, &bob] {
        co.core.chats.join(chat.id, p.id).await.unwrap();
    }
    (co, alice, bob, chat.id)
}

/// Alice's thought as the engine wrote it ahead, answering `boss` in `chat`: two
/// messages, a new task, a warmer feeling about Bob.
fn alices_thought_written_ahead(
    chat: i32,
    boss: &cubicle_core::chat::ChatMessageDto,
) -> serde_json::Value {
    json!({
        "thought": {
            "innerThoughts": "Bob found it; I fix it today.",
            "shouldSpeak": true,
            "reason": "the boss asked me",
            "messages": [{"content": "The login bug is a stale session cookie."},
                         {"content": "Fix goes out this afternoon, Bob will verify."}],
            "relationshipOps": [{"name": "Bob", "affinity": 90, "impression": "sharp tester"}],
            "taskOps": [{"op": "create", "description": "Ship the session cookie fix"}]
        },
        "requirement": null,
        "latestSeen": boss.id,
        "trace": boss.trace_id,
        "followUp": true,
        "posts": [{"chatId": chat, "here": true, "texts": [
            "The login bug is a stale session cookie.",
            "Fix goes out this afternoon, Bob will verify."]}],
        "repetitions": 0,
        "silencedBy": null,
        "reportTask": null,
        "interest": 8,
        "saturation": 2,
        "seed": "none",
        "promptTokens": 100,
        "at": "2026-03-02T09:00:05Z"
    })
}

/// What the pending thought `row` had written when it was killed: the affinity change
/// and the first message, each under its effect key.
async fn killed_after_the_feeling_and_the_first_message(
    co: &TestCompany,
    (alice, bob): (&EmployeeDto, &EmployeeDto),
    chat: i32,
    row: i32,
) {
    let key = format!("pt{row}:");
    co.core
        .minds
        .relate_keyed(
            alice.id,
            bob.id,
            Some("sharp tester"),
            Some(90),
            &format!("{key}rel:0"),
        )
        .await
        .unwrap()
        .expect("first time");
    co.core
        .chats
        .post_keyed(
            chat,
            alice.id,
            "The login bug is a stale session cookie.",
            None,
            &format!("{key}msg:0:0"),
        )
        .await
        .unwrap()
        .expect("first time");
}

/// After the replay, every effect of the thought is there once: both messages in
/// order, the task, one step of affinity, the chat read up to what it saw, one thought.
async fn every_effect_is_there_once(
    co: &TestCompany,
    db: &cubicle_store::Db,
    (alice, bob): (&EmployeeDto, &EmployeeDto),
    chat: i32,
    boss: i32,
) {
    let said: Vec<String> = co
        .core
        .chats
        .messages(chat)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.sender_employee_id == Some(alice.id))
        .map(|m| m.text)
        .collect();
    assert_eq!(
        said,
        [
            "The login bug is a stale session cookie.",
            "Fix goes out this afternoon, Bob will verify."
        ],
        "the missing message is posted, the written one not again"
    );
    let tasks = co.core.work.pending_of(alice.id).await.unwrap();
    assert_eq!(tasks.len(), 1);
    assert_eq!(tasks[0].description, "Ship the session cookie fix");
    let rel = co.core.minds.relationships(alice.id).await.unwrap();
    let to_bob = rel
        .iter()
        .find(|r| r.other_id == bob.id)
        .expect("a relationship");
    assert_eq!(to_bob.affinity, 65, "one step of 15 from 50, not two");
    // The chat is read up to what the thought saw, and the thought is on record once.
    let member = cubicle_store::chat::find_member(db, chat, alice.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(member.last_read_message_id, Some(boss));
    let thoughts = cubicle_store::mind::thoughts_in_chat(db, chat, 10)
        .await
        .unwrap();
    assert_eq!(thoughts.len(), 1);
    assert!(thoughts[0].spoke);
}

#[tokio::test]
async fn a_thought_killed_between_its_writes_is_finished_at_start_and_nothing_twice() {
    let (co, alice, bob, chat) = two_in_a_department().await;
    let db = &co.db().await;
    let boss = co
        .core
        .chats
        .post_as_boss(cubicle_core::chat::PostMessage {
            chat_id: chat,
            text: "Alice, where are we with the login bug?".into(),
        })
        .await
        .unwrap();
    // The thought as the engine wrote it ahead: two messages, a new task, a warmer
    // feeling about Bob.
    let plan = alices_thought_written_ahead(chat, &boss);
    let row = cubicle_store::effect::insert_pending(db, alice.id, chat, plan, co.core.clock.now())
        .await
        .unwrap();
    // The kill fell after the affinity change and the first message were written.
    killed_after_the_feeling_and_the_first_message(&co, (&alice, &bob), chat, row.id).await;

    // The next start finishes it before anything else.
    let engine = Engine::new(&co.core, EngineConfig::default());
    engine.bootstrap().await.unwrap();
    assert_eq!(engine.stats().replayed, 1);
    assert!(
        cubicle_store::effect::pending_thoughts(db)
            .await
            .unwrap()
            .is_empty()
    );
    every_effect_is_there_once(&co, db, (&alice, &bob), chat, boss.id).await;

    // Another start finds nothing left to do.
    let again = Engine::new(&co.core, EngineConfig::default());
    again.bootstrap().await.unwrap();
    assert_eq!(again.stats().replayed, 0);
    assert_eq!(co.core.work.pending_of(alice.id).await.unwrap().len(), 1);
    assert_eq!(co.core.chats.messages(chat).await.unwrap().len(), 3);
}

/// Alice may post to a webhook receiver that must never be called, and asks to
/// announce the release: the request waits for the boss. The receiver and the id.
async fn alice_asks_to_announce_to_a_hook_never_called(
    co: &TestCompany,
    alice: &EmployeeDto,
) -> (wiremock::MockServer, i32) {
    let hook = wiremock::MockServer::start().await;
    wiremock::Mock::given(wiremock::matchers::method("POST"))
        .respond_with(wiremock::ResponseTemplate::new(200))
        .expect(0)
        .mount(&hook)
        .await;
    co.core
        .approvals
        .set_tool_whitelist(alice.id, vec!["post_webhook".into()])
        .await
        .unwrap();
    co.allow_webhooks_to(&hook.uri()).await;
    let outcome = co
        .core
        .approvals
        .request(
            alice.id,
            ToolCall::new(
                "post_webhook",
                json!({"url": format!("{}/hook", hook.uri()), "text": "Release is out", "style": "slack"}),
                "announce",
            ),
            None,
            None,
        )
        .await
        .unwrap();
    let CallOutcome::Waiting(id) = outcome else {
        panic!("post_webhook waits for the boss: {outcome:?}");
    };
    (hook, id)
}

/// The boss's decision and the run of approval `id` were claimed, then the process
/// died before the POST.
async fn approved_and_claimed_then_the_process_died(co: &TestCompany, id: i32) {
    let claimed = cubicle_store::approval::claim_decision(
        &co.db().await,
        id,
        cubicle_store::approval::Claim {
            status: cubicle_core::approvals::ApprovalStatus::Approved,
            decided_at: co.core.clock.now(),
            decided_via: cubicle_core::approvals::DecidedVia::Ui,
            note: None,
            authorization_chain: json!([]),
            unexpired_at: None,
            // It was being run here.
            run_started_at: Some(co.core.clock.now()),
            decided_by: None,
            decision_seal: None,
        },
    )
    .await
    .unwrap();
    assert!(claimed);
}

/// The interrupted approval `id` stays approved, marked interrupted and not run; the
/// boss gets one "Did not run" mail and Alice no longer waits. The boss's mail count.
async fn the_boss_is_told_it_did_not_run_and_nobody_waits(
    co: &TestCompany,
    alice: &EmployeeDto,
    id: i32,
) -> usize {
    let a = co.core.approvals.get(id).await.unwrap();
    assert_eq!(a.status, ApprovalStatus::Approved, "the decision stands");
    assert_eq!(
        a.error.as_deref(),
        Some(cubicle_core::approvals::INTERRUPTED)
    );
    assert!(a.executed_at.is_none(), "not run");
    let mail = crate::util::mail_of(&co.core, None).await;
    assert_eq!(
        mail.iter()
            .filter(|m| m.title == "Did not run: post_webhook")
            .count(),
        1,
        "{mail:?}"
    );
    let alice_now = co
        .core
        .org
        .all_employees()
        .await
        .unwrap()
        .into_iter()
        .find(|e| e.id == alice.id)
        .unwrap();
    assert_eq!(
        alice_now.status,
        EmployeeStatus::Idle,
        "nobody waits for it"
    );
    mail.len()
}

#[tokio::test]
async fn an_approved_action_killed_before_it_ran_is_shown_to_the_boss_and_not_run_again() {
    let (co, alice, _bob, _chat) = two_in_a_department().await;
    let (hook, id) = alice_asks_to_announce_to_a_hook_never_called(&co, &alice).await;
    // The boss's decision and the run were claimed, then the process died before the POST.
    approved_and_claimed_then_the_process_died(&co, id).await;

    let engine = Engine::new(&co.core, EngineConfig::default());
    engine.bootstrap().await.unwrap();
    assert_eq!(engine.stats().interrupted, 1);
    let mail = the_boss_is_told_it_did_not_run_and_nobody_waits(&co, &alice, id).await;

    // A second start neither runs it nor tells the boss again.
    let again = Engine::new(&co.core, EngineConfig::default());
    again.bootstrap().await.unwrap();
    assert_eq!(again.stats().interrupted, 0);
    assert_eq!(crate::util::mail_of(&co.core, None).await.len(), mail);
    assert!(
        co.core
            .approvals
            .list(ApprovalFilter::Pending)
            .await
            .unwrap()
            .is_empty()
    );
    hook.verify().await;
}
