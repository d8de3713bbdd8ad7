//! A resolved task's report is owed until it is written (SPEC §6 onResolve, §10): a
//! stop between the thought that resolved the task and the thought that reports it, or
//! a report thought the model botched, loses nothing — the report is written later,
//! once.

use cubicle_core::work::TaskOrigin;
use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use super::*;

/// Alice resolves whatever task she has and reports it in her own words.
fn alice_reports(s: &Seen) -> Value {
    match (s.name.as_str(), s.tasks.first()) {
        ("Alice", Some((id, _))) => speak(
            "Done, the numbers are in.",
            &[],
            json!([{"op": "resolve", "id": id, "result": "p99 is 80 ms under load"}]),
        ),
        ("Alice", None) if s.reporting => speak(
            "Tell Ada.",
            &[("Ada, the load test is done: p99 is 80 ms.", None)],
            json!([]),
        ),
        (name, _) => silent(name),
    }
}

async fn give_alice_a_task(stage: &Stage) -> (i32, i32) {
    let (alice, ..) = engineering(stage).await;
    (alice, give(stage, alice, "Run the load test").await)
}

/// A task from the boss for `employee`; its id.
async fn give(stage: &Stage, employee: i32, what: &str) -> i32 {
    let new = cubicle_core::work::NewTask::new(employee, what, TaskOrigin::Boss);
    stage.co.core.work.create(new).await.unwrap().id
}

async fn task(stage: &Stage, id: i32) -> cubicle_store::entity::task::Model {
    cubicle_store::work::find_task(&stage.co.db().await, id)
        .await
        .unwrap()
        .unwrap()
}

async fn reports_of(stage: &Stage, task_id: i32) -> Vec<cubicle_core::mailbox::MailDto> {
    mail_of(&stage.co.core, Some(MailKind::Report))
        .await
        .into_iter()
        .filter(|m| m.task_id == Some(task_id))
        .collect()
}

/// A new engine on the same database: what a restart after a kill is (the old one's
/// queue of wake-ups is gone with it).
fn restart(stage: &mut Stage) {
    stage.engine = Engine::new(
        &stage.co.core,
        EngineConfig {
            seed: Some(12),
            ..EngineConfig::default()
        },
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_owed_when_the_engine_stopped_is_written_after_the_restart_once() {
    let mut stage = Stage::new(alice_reports).await;
    let (alice, task_id) = give_alice_a_task(&stage).await;
    // Second by second until the thought that resolves the task; the report's wake-up
    // (a few seconds later) is still in the queue when the engine "dies".
    let mut waited = 0;
    while task(&stage, task_id).await.status != cubicle_core::work::TaskStatus::Resolved {
        stage.run_for(TimeDelta::seconds(1)).await;
        waited += 1;
        assert!(waited < 3_600, "Alice never resolved the task");
    }
    let resolved = task(&stage, task_id).await;
    assert!(resolved.report_due_at.is_some(), "the report is owed");
    assert!(reports_of(&stage, task_id).await.is_empty());

    restart(&mut stage);
    stage.engine.bootstrap().await.unwrap();
    stage.run_for(TimeDelta::minutes(10)).await;

    let reports = reports_of(&stage, task_id).await;
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(reports[0].body, "Ada, the load test is done: p99 is 80 ms.");
    assert!(task(&stage, task_id).await.report_due_at.is_none());
    let boss_chat = stage.co.core.chats.boss_chat(alice).await.unwrap();
    let said = stage.co.core.chats.messages(boss_chat.id).await.unwrap();
    assert_eq!(
        said.iter()
            .filter(|m| m.text == "Ada, the load test is done: p99 is 80 ms.")
            .count(),
        1,
        "{said:?}"
    );

    // Another restart finds nothing owed: no second report, no second model call for it.
    let report_prompts = |stage: &Stage| {
        stage
            .book
            .prompts
            .lock()
            .unwrap()
            .iter()
            .filter(|s| s.reporting)
            .count()
    };
    let asked = report_prompts(&stage);
    restart(&mut stage);
    stage.engine.bootstrap().await.unwrap();
    stage.run_for(TimeDelta::minutes(30)).await;
    assert_eq!(reports_of(&stage, task_id).await.len(), 1);
    assert_eq!(report_prompts(&stage), asked);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_thought_the_model_botched_is_tried_again_until_it_is_written() {
    // The first report thoughts get an answer that is no thought at all.
    let botched = Arc::new(AtomicU32::new(0));
    let count = botched.clone();
    let stage = Stage::new(move |s: &Seen| {
        if s.reporting && count.fetch_add(1, Ordering::SeqCst) < 3 {
            return json!("I'd rather not answer in JSON today.");
        }
        alice_reports(s)
    })
    .await;
    let (alice, task_id) = give_alice_a_task(&stage).await;
    stage.run_for(TimeDelta::hours(3)).await;

    assert!(
        botched.load(Ordering::SeqCst) > 3,
        "the report was asked for again after the botched answers"
    );
    let dropped = cubicle_store::mind::thoughts_in_chat(
        &stage.co.db().await,
        stage.co.core.chats.boss_chat(alice).await.unwrap().id,
        50,
    )
    .await
    .unwrap()
    .into_iter()
    .filter(|t| t.silenced_by == Some(cubicle_core::chat::gates::SilenceReason::Malformed))
    .count();
    assert!(dropped >= 1, "a report thought was dropped as malformed");
    let reports = reports_of(&stage, task_id).await;
    assert_eq!(reports.len(), 1, "{reports:?}");
    assert_eq!(reports[0].body, "Ada, the load test is done: p99 is 80 ms.");
    assert!(task(&stage, task_id).await.report_due_at.is_none());
}

/// Alice resolves the load test and keeps working on the migration, saying so whenever
/// she thinks; a report thought reports.
fn alice_busy_after_resolving(s: &Seen) -> Value {
    if s.name != "Alice" {
        return silent(&s.name);
    }
    if s.reporting {
        return speak(
            "Tell Ada.",
            &[("Ada, the load test is done: p99 is 80 ms.", None)],
            json!([]),
        );
    }
    match s.task("load test") {
        Some(id) => speak(
            "Done, the numbers are in.",
            &[],
            json!([{"op": "resolve", "id": id, "result": "p99 is 80 ms under load"}]),
        ),
        None => speak(
            "Back to the migration.",
            &[("Still on the migration, Ada.", None)],
            json!([]),
        ),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_report_due_in_a_chat_comes_before_anything_else_its_owner_says_there() {
    let mut stage = Stage::new(alice_busy_after_resolving).await;
    let (alice, task_id) = give_alice_a_task(&stage).await;
    give(&stage, alice, "Migrate the billing tables").await;
    let mut waited = 0;
    while task(&stage, task_id).await.status != cubicle_core::work::TaskStatus::Resolved {
        stage.run_for(TimeDelta::seconds(1)).await;
        waited += 1;
        assert!(waited < 3_600, "Alice never resolved the task");
    }
    // The report's own wake-up is lost (a restart that has not bootstrapped yet), and
    // the report falls due; then the boss asks Alice something in the chat it goes to.
    restart(&mut stage);
    stage.run_for(TimeDelta::minutes(2)).await;
    assert!(task(&stage, task_id).await.report_due_at.is_some());
    let asked = stage.book.prompts.lock().unwrap().len();
    let boss_chat = stage.co.core.chats.boss_chat(alice).await.unwrap();
    let question = stage
        .boss_says(boss_chat.id, "Alice, how is it going?")
        .await;
    stage.run_for(TimeDelta::minutes(1)).await;

    let first = stage.book.prompts.lock().unwrap()[asked..]
        .iter()
        .find(|s| s.name == "Alice")
        .map(|s| s.reporting);
    assert_eq!(first, Some(true), "her next thought there is the report");
    assert_eq!(reports_of(&stage, task_id).await.len(), 1);
    assert!(task(&stage, task_id).await.report_due_at.is_none());
    let said = stage.co.core.chats.messages(boss_chat.id).await.unwrap();
    let mine: Vec<&str> = said
        .iter()
        .filter(|m| m.sender_employee_id == Some(alice) && m.id > question.id)
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(
        mine.first(),
        Some(&"Ada, the load test is done: p99 is 80 ms."),
        "{mine:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_second_simulated_run_resumes_where_the_record_ends_never_before_it() {
    let stage = Stage::new(alice_reports).await;
    let (alice, task_id) = give_alice_a_task(&stage).await;
    stage.run_for(TimeDelta::hours(3)).await;
    assert_eq!(reports_of(&stage, task_id).await.len(), 1);
    let boss_chat = stage.co.core.chats.boss_chat(alice).await.unwrap();
    let said = stage.co.core.chats.messages(boss_chat.id).await.unwrap();
    let last: DateTime<Utc> = said
        .iter()
        .map(|m| DateTime::parse_from_rfc3339(&m.created_at).unwrap().into())
        .max()
        .unwrap();

    // A new simulated calendar started from an earlier moment (the wall clock of a later
    // `cubicle-cli run --virtual-clock`) moves on to the end of the record ...
    let calendar = ManualClock::new(start());
    assert!(calendar.now() < last);
    stage.engine.resume_calendar(&calendar).await.unwrap();
    assert!(calendar.now() >= last, "{} < {last}", calendar.now());
    // ... and one already past it stays where it is.
    let later = ManualClock::new(last + TimeDelta::days(2));
    stage.engine.resume_calendar(&later).await.unwrap();
    assert_eq!(later.now(), last + TimeDelta::days(2));
}
