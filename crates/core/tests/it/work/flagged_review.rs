//! A deliverable the check flagged as needing review is done once someone looks: a
//! colleague's passed review clears the flag (the requirement then settles as done), a
//! rejected one keeps it, and the boss moving the requirement to done clears it too —
//! each seen where the boss looks (the board and the dashboard).

use chrono::TimeDelta;
use cubicle_core::work::board::{RequirementStatus, SetRequirementStatus, SetReviewer};
use cubicle_core::work::{NewTask, ReviewReason, TaskDto, TaskOrigin};
use serde_json::{Value, json};

use super::playbook::{Seen, silent, speak};
use super::{Stage, engineering};

const NOTE: &str = "Write a short design note on the gripper calibration timeout";
/// Says nothing about the gripper: the check flags it as off topic.
const OFF_TOPIC: &str = "Team lunch\nWe could order pizza for everyone on Friday afternoon.";

/// Alice resolves the note with an off-topic text (never touching a rework); Bob, the
/// reviewer, passes or rejects what he is given.
fn play(bob_passes: bool) -> impl Fn(&Seen) -> Value + Send + Sync + 'static {
    move |s: &Seen| match s.name.as_str() {
        "Alice" => match s.tasks.iter().find(|(_, d)| d.starts_with("Write")) {
            Some((id, _)) => speak(
                "Here it is.",
                &[("The note is ready for review.", None)],
                json!([{"op": "resolve", "id": id, "result": OFF_TOPIC}]),
            ),
            None => silent("Alice"),
        },
        "Bob" => match s.task("Review") {
            Some(id) if bob_passes => speak(
                "Fine by me.",
                &[("Reviewed: fine.", None)],
                json!([{"op": "resolve", "id": id, "result": "pass"}]),
            ),
            Some(id) => speak(
                "This is not the note.",
                &[("Sent back: this says nothing about the gripper.", None)],
                json!([{"op": "fail", "id": id, "result": "write about the gripper timeout"}]),
            ),
            None => silent("Bob"),
        },
        name => silent(name),
    }
}

/// The note as a task of the "API design" requirement, reviewed by Bob when `reviewed`.
async fn the_note(stage: &Stage, reviewed: bool) -> (i32, i32) {
    let (alice, bob, ..) = engineering(stage).await;
    let core = &stage.co.core;
    let req = core.work.requirements().await.unwrap()[0].id;
    if reviewed {
        core.work
            .set_reviewer(SetReviewer {
                requirement_id: req,
                reviewer_id: Some(bob),
            })
            .await
            .unwrap();
    }
    let task = core
        .work
        .create(NewTask {
            requirement_id: Some(req),
            ..NewTask::new(alice, NOTE, TaskOrigin::Boss)
        })
        .await
        .unwrap();
    stage.engine.bootstrap().await.unwrap();
    (req, task.id)
}

/// The task as the board's tree shows it, and the column its requirement is in.
async fn on_the_board(
    core: &cubicle_core::AppCore,
    req: i32,
    id: i32,
) -> (TaskDto, RequirementStatus) {
    let board = core.work.board().await.unwrap();
    let (column, item) = board
        .columns
        .iter()
        .flat_map(|c| c.items.iter().map(move |i| (c.status, i)))
        .find(|(_, i)| i.requirement.id == req)
        .unwrap();
    let node = item
        .tree
        .iter()
        .find(|n| n.task.id == id)
        .unwrap_or_else(|| panic!("task {id} is a root of the tree: {:#?}", item.tree));
    (node.task.clone(), column)
}

/// The task's status in the dashboard's activity feed.
async fn on_the_dashboard(core: &cubicle_core::AppCore, id: i32) -> String {
    let d = core.dashboard().await.unwrap();
    d.activity
        .iter()
        .find(|a| a.task_id == Some(id) && a.status.is_some())
        .and_then(|a| a.status.clone())
        .unwrap_or_else(|| panic!("task {id} in the activity: {:#?}", d.activity))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_passed_review_clears_the_needs_review_flag_and_the_requirement_is_done() {
    let stage = Stage::new(play(true)).await;
    let (req, id) = the_note(&stage, true).await;
    let core = &stage.co.core;
    stage.run_for(TimeDelta::hours(1)).await;
    let reviews: Vec<TaskDto> = core
        .work
        .all()
        .await
        .unwrap()
        .into_iter()
        .filter(|t| t.review_of == Some(id))
        .collect();
    assert_eq!(reviews.len(), 1, "Bob reviewed it once: {reviews:#?}");
    assert_eq!(reviews[0].status, cubicle_core::work::TaskStatus::Resolved);
    let (task, column) = on_the_board(core, req, id).await;
    assert_eq!(task.needs_review, None, "{task:?}");
    assert_eq!(column, RequirementStatus::Done);
    assert_eq!(on_the_dashboard(core, id).await, "resolved");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_rejected_review_keeps_the_needs_review_flag() {
    let stage = Stage::new(play(false)).await;
    let (req, id) = the_note(&stage, true).await;
    let core = &stage.co.core;
    stage.run_for(TimeDelta::hours(1)).await;
    let tasks = core.work.all().await.unwrap();
    assert!(
        tasks
            .iter()
            .any(|t| t.review_of == Some(id) && t.status == cubicle_core::work::TaskStatus::Failed),
        "Bob sent it back: {tasks:#?}"
    );
    let (task, column) = on_the_board(core, req, id).await;
    assert_eq!(task.needs_review, Some(ReviewReason::OffTopic), "{task:?}");
    assert_ne!(column, RequirementStatus::Done);
    assert_eq!(on_the_dashboard(core, id).await, "needs_review");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_boss_moving_the_requirement_to_done_clears_the_flag() {
    let stage = Stage::new(play(true)).await;
    let (req, id) = the_note(&stage, false).await;
    let core = &stage.co.core;
    stage.run_for(TimeDelta::minutes(30)).await;
    let (task, column) = on_the_board(core, req, id).await;
    assert_eq!(task.needs_review, Some(ReviewReason::OffTopic), "{task:?}");
    assert_eq!(column, RequirementStatus::WaitingForBoss);
    assert_eq!(on_the_dashboard(core, id).await, "needs_review");
    // Moving it elsewhere is not accepting it.
    core.work
        .set_requirement_status(SetRequirementStatus {
            requirement_id: req,
            status: RequirementStatus::InReview,
        })
        .await
        .unwrap();
    assert!(on_the_board(core, req, id).await.0.needs_review.is_some());
    core.work
        .set_requirement_status(SetRequirementStatus {
            requirement_id: req,
            status: RequirementStatus::Done,
        })
        .await
        .unwrap();
    let (task, column) = on_the_board(core, req, id).await;
    assert_eq!(task.needs_review, None, "{task:?}");
    assert_eq!(column, RequirementStatus::Done);
    assert_eq!(on_the_dashboard(core, id).await, "resolved");
}
