//! The dashboard's figures: pending work by urgency, the latest activity with links.

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::chat::PostMessage;
use cubicle_core::clock::ManualClock;
use cubicle_core::dashboard::ActivityKind;
use cubicle_core::mailbox::{MailKind, NewMail};
use cubicle_core::work::TaskOrigin;
use cubicle_core::work::urgency::Urgency;

use crate::util::TestCompany;

#[tokio::test]
async fn pending_work_is_ordered_by_urgency_and_the_feed_links_to_its_sources() {
    let start = DateTime::parse_from_rfc3339("2026-11-30T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc);
    let clock = ManualClock::new(start);
    let co = TestCompany::with_clock(clock.shared()).await;
    let eng = co.dept("Engineering", None).await;
    let alice = co.hire("Alice", "Backend Engineer", Some(eng.id)).await;
    let bob = co.hire("Bob", "QA Engineer", Some(eng.id)).await;
    let old = co
        .core
        .work
        .assign(alice.id, "migrate the database", TaskOrigin::Boss)
        .await
        .unwrap();
    clock.advance(TimeDelta::minutes(20));
    let fresh = co
        .core
        .work
        .assign(bob.id, "write the test plan", TaskOrigin::Boss)
        .await
        .unwrap();
    let chat = co
        .core
        .chats
        .department_chat(eng.id, "Engineering")
        .await
        .unwrap();
    clock.advance(TimeDelta::minutes(1));
    co.core
        .chats
        .post_as_boss(PostMessage {
            chat_id: chat.id,
            text: "How are we doing?".into(),
        })
        .await
        .unwrap();
    clock.advance(TimeDelta::minutes(1));
    co.core
        .mailbox
        .file(NewMail {
            kind: MailKind::Report,
            employee_id: Some(alice.id),
            chat_id: Some(chat.id),
            task_id: None,
            title: "Done: the schema".into(),
            body: "Schema ready.".into(),
            trace_id: None,
        })
        .await
        .unwrap();

    let d = co.core.dashboard().await.unwrap();
    assert_eq!(d.tasks.len(), 2);
    assert_eq!(d.tasks[0].id, old.id, "the overdue one first");
    assert_eq!(d.tasks[0].urgency, Urgency::Overdue);
    assert_eq!(d.tasks[0].owner_name, "Alice");
    assert_eq!(d.tasks[1].id, fresh.id);
    assert_eq!(d.tasks[1].urgency, Urgency::Normal);

    let kinds: Vec<ActivityKind> = d.activity.iter().map(|a| a.kind).collect();
    assert_eq!(kinds[0], ActivityKind::Mail, "newest first: {kinds:?}");
    assert!(d.activity[0].mail_id.is_some());
    let message = d
        .activity
        .iter()
        .find(|a| a.kind == ActivityKind::Message)
        .unwrap();
    assert_eq!(message.actor, "Ada");
    assert_eq!(message.chat_id, Some(chat.id));
    assert!(
        d.activity
            .iter()
            .any(|a| a.kind == ActivityKind::Task && a.task_id == Some(fresh.id))
    );
}

// The same scenarios on PostgreSQL, each company on a fresh database of its own
// (skipped, with a line saying so, when CUBICLE_TEST_PG_URL is unset).

#[test]
fn pending_work_is_ordered_by_urgency_and_the_feed_links_to_its_sources_on_postgres() {
    crate::pg::on_postgres(pending_work_is_ordered_by_urgency_and_the_feed_links_to_its_sources);
}
