//! A company written by more than one process: a desktop pointed at a shared server, or
//! `cubicle-cli post`, writes the database without the engine's event bus. The engine
//! picks those writes up on its periodic resync, once each.

use chrono::TimeDelta;
use cubicle_core::chat::PostMessage;
use cubicle_core::work::TaskOrigin;

use super::world::world;

async fn employee_replies_after(w: &super::world::World, message_id: i32) -> usize {
    w.co.core
        .chats
        .messages(w.dept_chat)
        .await
        .unwrap()
        .iter()
        .filter(|m| m.id > message_id && m.sender_employee_id.is_some())
        .count()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_boss_message_posted_by_another_process_is_picked_up_once() {
    let w = world().await;
    w.engine.bootstrap().await.unwrap();
    let desktop = w.co.another_process().await;
    let posted = desktop
        .chats
        .post_as_boss(PostMessage {
            chat_id: w.dept_chat,
            text: "Team, what blocks the launch?".into(),
        })
        .await
        .unwrap();

    // Not on this engine's bus: on its own, nobody hears it.
    w.run_for(TimeDelta::minutes(10)).await;
    assert_eq!(employee_replies_after(&w, posted.id).await, 0);
    assert!(w.engine.pending_for(w.id("Alice")).is_empty());

    // The resync finds it and nudges every member, as if it had been heard.
    w.engine.resync().await.unwrap();
    for p in &w.people {
        assert!(
            w.engine
                .pending_for(p.id)
                .iter()
                .any(|wake| matches!(wake.reason, cubicle_core::scheduler::WakeReason::Nudge { chat_id } if chat_id == w.dept_chat)),
            "{} was not nudged",
            p.name
        );
    }
    let queued = w.engine.pending();
    w.engine.resync().await.unwrap();
    assert_eq!(w.engine.pending(), queued, "a second resync adds nothing");

    w.run_for(TimeDelta::minutes(30)).await;
    assert!(employee_replies_after(&w, posted.id).await > 0);
    // The replies were heard on the bus: a resync now wakes nobody for them again.
    let queue = |w: &super::world::World| {
        w.people
            .iter()
            .map(|p| format!("{:?}", w.engine.pending_for(p.id)))
            .collect::<Vec<_>>()
    };
    let before = queue(&w);
    w.engine.resync().await.unwrap();
    assert_eq!(queue(&w), before);
}

#[tokio::test]
async fn a_task_given_by_another_process_reaches_its_owner() {
    let w = world().await;
    w.engine.bootstrap().await.unwrap();
    let desktop = w.co.another_process().await;
    let alice = w.id("Alice");
    desktop
        .work
        .assign(alice, "Write the launch checklist", TaskOrigin::Boss)
        .await
        .unwrap();
    assert!(w.engine.pending_for(alice).is_empty());
    w.engine.resync().await.unwrap();
    assert!(
        !w.engine.pending_for(alice).is_empty(),
        "Alice is told of her task"
    );
}

#[test]
fn a_boss_message_posted_by_another_process_is_picked_up_once_on_postgres() {
    crate::pg::on_postgres(a_boss_message_posted_by_another_process_is_picked_up_once);
}
