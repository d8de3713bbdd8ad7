//! Review (seed 002): deliverables go to the requirement's reviewer; a rejection is
//! reworked, a rework that repeats itself stops, the third rejection goes to the boss.

use chrono::TimeDelta;
use cubicle_core::mailbox::MailKind;
use cubicle_core::work::TaskOrigin;
use cubicle_core::work::TaskStatus;
use cubicle_core::work::board::RequirementStatus;
use serde_json::{Value, json};

use super::playbook::{Seen, silent, speak};
use super::{Stage, engineering};
use crate::util::mail_of;

/// Alice's work on the login page goes to Bob for review. Bob rejects until the work
/// says "with rate limiting"; Alice's rework is a real change only when `learns`.
fn review_play(learns: bool) -> impl Fn(&Seen) -> Value + Send + Sync + 'static {
    move |s: &Seen| match s.name.as_str() {
        "Alice" => match s.task("login") {
            Some(id) => {
                let reworks = s.tasks.iter().any(|(_, d)| d.starts_with("Rework"));
                let result = if reworks && learns {
                    "Login endpoint done, now with rate limiting: 5 tries a minute per account"
                } else {
                    "Login endpoint done: POST /login returns a session token"
                };
                let id = s
                    .tasks
                    .iter()
                    .find(|(_, d)| d.starts_with("Rework"))
                    .map_or(id, |(rid, _)| *rid);
                speak(
                    "Done, hand it over.",
                    &[("The login endpoint is ready for review.", None)],
                    json!([{"op": "resolve", "id": id, "result": result}]),
                )
            }
            None if s.reporting => speak(
                "Tell Ada.",
                &[("Ada, the login endpoint passed review and is done.", None)],
                json!([]),
            ),
            None => silent("Alice"),
        },
        "Bob" => match s.task("Review") {
            Some(id) if s.prompt.contains("rate limiting") => speak(
                "Good.",
                &[("Reviewed: looks good.", None)],
                json!([{"op": "resolve", "id": id, "result": "pass"}]),
            ),
            Some(id) => speak(
                "Missing something.",
                &[("Sent back: needs rate limiting.", None)],
                json!([{"op": "fail", "id": id, "result": "add rate limiting before this ships"}]),
            ),
            None => silent("Bob"),
        },
        name => silent(name),
    }
}

async fn login_requirement(stage: &Stage) -> (i32, i32, i32, String) {
    let (alice, bob, _charlie, group) = engineering(stage).await;
    let core = &stage.co.core;
    let req = core
        .work
        .board()
        .await
        .unwrap()
        .columns
        .into_iter()
        .flat_map(|c| c.items)
        .next()
        .unwrap()
        .requirement;
    core.work
        .set_reviewer(cubicle_core::work::board::SetReviewer {
            requirement_id: req.id,
            reviewer_id: Some(bob),
        })
        .await
        .unwrap();
    let asked = stage
        .boss_says(group, "Alice, please build the login endpoint.")
        .await;
    let trace = asked.trace_id.unwrap();
    core.work
        .create(cubicle_core::work::NewTask {
            trace_id: Some(trace.clone()),
            requirement_id: Some(req.id),
            ..cubicle_core::work::NewTask::new(alice, "Build the login endpoint", TaskOrigin::Boss)
        })
        .await
        .unwrap();
    (alice, bob, req.id, trace)
}

/// The board shows Bob as reviewer and the tree: one root, the work itself, with the
/// rework and each review under it.
async fn the_board_shows_the_rework_and_reviews_under_the_work(
    core: &cubicle_core::AppCore,
    req: i32,
    first: i32,
    rework: i32,
) {
    let board = core.work.board().await.unwrap();
    let item = board
        .columns
        .iter()
        .flat_map(|c| &c.items)
        .find(|i| i.requirement.id == req)
        .unwrap();
    assert_eq!(item.reviewer_name.as_deref(), Some("Bob"));
    assert_eq!(item.tree.len(), 1, "one root: the work itself");
    let root = &item.tree[0];
    assert_eq!(root.task.id, first);
    assert!(root.children.iter().any(|c| c.task.id == rework));
    assert!(
        root.children
            .iter()
            .any(|c| c.task.review_of == Some(first))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_deliverable_is_reworked_reviewed_again_passed_and_then_reported() {
    let stage = Stage::new(review_play(true)).await;
    let (alice, bob, req, trace) = login_requirement(&stage).await;
    let core = &stage.co.core;
    let before = core.minds.profile(alice).await.unwrap().stamina;
    stage.run_for(TimeDelta::hours(1)).await;

    let tasks = core.work.all().await.unwrap();
    let first = tasks
        .iter()
        .find(|t| t.description == "Build the login endpoint")
        .unwrap();
    assert_eq!(first.status, cubicle_core::work::TaskStatus::Resolved);
    let mut reviews: Vec<_> = tasks.iter().filter(|t| t.review_of.is_some()).collect();
    reviews.sort_by_key(|t| t.id);
    assert_eq!(reviews.len(), 2, "reviewed twice: {tasks:#?}");
    assert!(
        reviews
            .iter()
            .all(|r| r.owner_id == bob && r.status != cubicle_core::work::TaskStatus::Pending)
    );
    assert_eq!(
        reviews[0].status,
        cubicle_core::work::TaskStatus::Failed,
        "the first review rejects"
    );
    assert_eq!(
        reviews[1].status,
        cubicle_core::work::TaskStatus::Resolved,
        "the second passes"
    );
    let rework = tasks
        .iter()
        .find(|t| t.parent_task_id == Some(first.id))
        .expect("a rework task for the author");
    assert_eq!((rework.owner_id, rework.attempt), (alice, 1));
    assert!(rework.description.contains("add rate limiting"));
    assert!(
        tasks
            .iter()
            .all(|t| t.trace_id.as_deref() == Some(trace.as_str()))
    );
    // Bob saw the deliverable itself in his review task.
    assert!(
        stage
            .book
            .prompts
            .lock()
            .unwrap()
            .iter()
            .any(|p| p.name == "Bob" && p.prompt.contains("POST /login returns a session token"))
    );
    // Passed: Alice reports, and her stamina shows the review passing.
    let mail = mail_of(core, None).await;
    let report = mail
        .iter()
        .find(|m| m.kind == MailKind::Report)
        .expect("a report");
    assert!(report.body.contains("passed review"));
    assert_eq!(report.title, "Done: Build the login endpoint");
    let after = core.minds.profile(alice).await.unwrap().stamina;
    assert!(after.patience >= before.patience, "{before:?} → {after:?}");
    // The board shows the tree: the rework under the work, each review under its work.
    the_board_shows_the_rework_and_reviews_under_the_work(core, req, first.id, rework.id).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rework_that_repeats_the_last_attempt_stops_the_retry_and_goes_to_the_boss() {
    let stage = Stage::new(review_play(false)).await;
    let (alice, _bob, req, trace) = login_requirement(&stage).await;
    let core = &stage.co.core;
    stage.run_for(TimeDelta::hours(2)).await;

    let tasks = core.work.all().await.unwrap();
    // One rejection, one rework that says the same again: no second review.
    assert_eq!(tasks.iter().filter(|t| t.review_of.is_some()).count(), 1);
    let rework = tasks.iter().find(|t| t.attempt == 1).unwrap();
    assert_eq!(rework.owner_id, alice);
    // Done by Alice but stopped on its way: it waits for the boss, it is not "resolved",
    // and so does its requirement.
    assert_eq!(rework.status, TaskStatus::Escalated);
    assert_eq!(
        requirement_status(core, req).await,
        RequirementStatus::WaitingForBoss
    );
    assert!(tasks.iter().all(|t| t.attempt <= 1), "no further retry");
    let mail = mail_of(core, None).await;
    let stop = mail
        .iter()
        .find(|m| m.title.starts_with("No progress:"))
        .expect("the boss hears of it");
    assert_eq!(stop.kind, MailKind::Escalation);
    assert!(stop.title.contains("Build the login endpoint"));
    assert_eq!(stop.task_id, Some(rework.id));
    assert!(
        !mail.iter().any(|m| m.kind == MailKind::Report),
        "nothing to report"
    );
    // The stop is part of the instruction's story.
    let story = core.traces.get(&trace).await.unwrap();
    assert!(
        story
            .events
            .iter()
            .any(|e| e.text.starts_with("No progress:"))
    );
}

/// A reviewer who never passes anything, and an author who really tries again.
fn never_satisfied(s: &Seen) -> Value {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static VERSION: AtomicUsize = AtomicUsize::new(0);
    const VERSIONS: [&str; 4] = [
        "Login endpoint: POST /login with a session cookie",
        "Rewrote it around OAuth device flow, tokens expire in 15 minutes",
        "Third take: passwordless magic links by email, no passwords stored at all",
        "Fourth: WebAuthn passkeys with a recovery code fallback",
    ];
    match s.name.as_str() {
        "Alice" => match s.tasks.last() {
            Some((id, _)) => speak(
                "Another try.",
                &[("Here is a new version.", None)],
                json!([{"op": "resolve", "id": id, "result": VERSIONS[VERSION.fetch_add(1, Ordering::SeqCst) % VERSIONS.len()]}]),
            ),
            None => silent("Alice"),
        },
        "Bob" => match s.task("Review") {
            Some(id) => speak(
                "No.",
                &[("Sent back again.", None)],
                json!([{"op": "fail", "id": id, "result": format!("not good enough ({})", s.prompt.len() % 11)}]),
            ),
            None => silent("Bob"),
        },
        name => silent(name),
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_third_rejection_goes_to_the_boss_and_wears_on_the_author() {
    let stage = Stage::new(never_satisfied).await;
    let (alice, _bob, req, _trace) = login_requirement(&stage).await;
    let core = &stage.co.core;
    stage.run_for(TimeDelta::hours(3)).await;

    let tasks = core.work.all().await.unwrap();
    let reviews = tasks.iter().filter(|t| t.review_of.is_some()).count();
    assert_eq!(reviews, 3, "{tasks:#?}");
    assert_eq!(
        tasks.iter().map(|t| t.attempt).max(),
        Some(2),
        "two reworks, no third"
    );
    let mail = mail_of(core, None).await;
    let esc = mail
        .iter()
        .find(|m| m.title.starts_with("Rejected 3 times"))
        .expect("escalated at the third rejection");
    assert!(esc.body.contains("not good enough"));
    assert_eq!(
        mail.iter()
            .filter(|m| m.title.starts_with("Rejected"))
            .count(),
        1
    );
    let stamina = core.minds.profile(alice).await.unwrap().stamina;
    assert!(stamina.stress > 0.0, "{stamina:?}");
    let rejected = tasks.iter().find(|t| t.attempt == 2).unwrap();
    assert_eq!(rejected.status, TaskStatus::Escalated);
    assert_eq!(
        requirement_status(core, req).await,
        RequirementStatus::WaitingForBoss
    );
    // Asked how things stand, the secretary says what waits for the boss.
    let turn = core
        .secretary
        .say("How is the company doing?", false)
        .await
        .unwrap();
    assert!(
        turn.reply
            .text
            .contains("Waiting for your decision (see the mailbox): API design."),
        "{}",
        turn.reply.text
    );
}

async fn requirement_status(core: &cubicle_core::AppCore, id: i32) -> RequirementStatus {
    core.work
        .board()
        .await
        .unwrap()
        .columns
        .into_iter()
        .find(|c| c.items.iter().any(|i| i.requirement.id == id))
        .map(|c| c.status)
        .unwrap()
}
