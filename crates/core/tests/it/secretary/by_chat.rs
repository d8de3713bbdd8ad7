//! The secretary by chat beyond hiring: deleting a department, calling a meeting,
//! pronouns across intents, a task for a department, and small talk streamed from a
//! configured model.

use cubicle_core::events::DomainEvent;
use cubicle_core::gateway::Purpose;
use cubicle_core::org::NewEmployee;
use cubicle_core::secretary::actions::{ActionStatus, Proposal};
use cubicle_core::types::*;
use wiremock::Mock;
use wiremock::matchers::method;

use super::{with_scripted_model, zh_company};
use crate::util::TestCompany;

#[tokio::test]
async fn deleting_a_department_by_chat_asks_where_people_go_confirms_and_undoes() {
    let co = TestCompany::new().await;
    let marketing = co.dept("Marketing", None).await;
    let sales = co.dept("Sales", None).await;
    let social = co.dept("Social", Some(marketing.id)).await;
    let ann = co.hire("Ann", "Content Writer", Some(marketing.id)).await;
    let ben = co.hire("Ben", "Growth Marketer", Some(marketing.id)).await;
    co.make_lead(marketing.id, ann.id).await;
    let chat = co
        .core
        .chats
        .department_chat(marketing.id, "Marketing")
        .await
        .unwrap();
    let s = &co.core.secretary;

    // Not empty and no destination: a question, no card.
    let t = s
        .say("delete the Marketing department", true)
        .await
        .unwrap();
    assert!(t.reply.actions.is_empty(), "{}", t.reply.text);
    assert!(t.reply.text.contains("2 people"), "{}", t.reply.text);

    // With a destination: a card that waits even with --yes (destructive).
    let t = s
        .say("delete Marketing and move its people to Sales", true)
        .await
        .unwrap();
    let card = &t.reply.actions[0];
    assert_eq!(card.status, ActionStatus::Proposed, "{}", t.reply.text);
    assert!(matches!(
        &card.proposal,
        Proposal::DeleteDepartment { destination_id: Some(d), headcount: 2, .. } if *d == sales.id
    ));
    let applied = s.confirm(card.id, None).await.unwrap();
    assert_eq!(applied.status, ActionStatus::Applied, "{:?}", applied.error);
    let snap = co.core.org.snapshot().await.unwrap();
    assert!(snap.departments.iter().all(|d| d.id != marketing.id));
    for e in snap
        .employees
        .iter()
        .filter(|e| [ann.id, ben.id].contains(&e.id))
    {
        assert_eq!(e.department_id, Some(sales.id));
    }
    let moved = snap.departments.iter().find(|d| d.id == social.id).unwrap();
    assert_eq!(moved.parent_id, Some(sales.id));

    // Undo brings it back: name, people, sub-department, lead and its group chat.
    s.undo(card.id).await.unwrap();
    let snap = co.core.org.snapshot().await.unwrap();
    let back = snap
        .departments
        .iter()
        .find(|d| d.name == "Marketing")
        .unwrap();
    assert_eq!(back.lead_id, Some(ann.id));
    for e in snap
        .employees
        .iter()
        .filter(|e| [ann.id, ben.id].contains(&e.id))
    {
        assert_eq!(e.department_id, Some(back.id));
    }
    let social = snap.departments.iter().find(|d| d.id == social.id).unwrap();
    assert_eq!(social.parent_id, Some(back.id));
    let relinked = co
        .core
        .chats
        .find_department_chat(back.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(relinked.id, chat.id);
}

#[tokio::test]
async fn a_meeting_by_chat_opens_a_meeting_chat_with_its_people_and_undo_removes_it() {
    let co = zh_company().await;
    let eng = co.dept("工程部", None).await;
    let zhang = co.hire("张伟", "后端工程师", Some(eng.id)).await;
    let li = co.hire("李娜", "测试工程师", Some(eng.id)).await;
    let s = &co.core.secretary;

    let t = s.say("开个会讨论一下Q3计划", true).await.unwrap();
    assert!(
        t.reply.actions.is_empty(),
        "who joins is asked: {}",
        t.reply.text
    );

    let t = s
        .say("开个会讨论一下Q3计划，叫上张伟和李娜", true)
        .await
        .unwrap();
    let card = &t.reply.actions[0];
    assert_eq!(card.status, ActionStatus::Applied, "{}", t.reply.text);
    let chats = co.core.chats.all().await.unwrap();
    let meeting = chats
        .iter()
        .find(|c| c.kind == cubicle_core::chat::ChatKind::Meeting)
        .unwrap();
    assert_eq!(meeting.name, "Q3计划");
    let mut members = co.core.chats.members(meeting.id).await.unwrap();
    members.sort_unstable();
    assert_eq!(members, vec![zhang.id, li.id]);
    let messages = co.core.chats.messages(meeting.id).await.unwrap();
    assert_eq!(
        messages[0].sender_kind,
        cubicle_core::chat::SenderKind::System
    );
    assert_eq!(messages[0].text, "Q3计划");
    // The secretary's meetings are moderated, by the rules unless told otherwise.
    let moderated = co.core.meetings.find(meeting.id).await.unwrap().unwrap();
    assert_eq!(
        (moderated.strategy, moderated.status),
        (
            cubicle_core::meeting::moderator::Strategy::RuleBased,
            cubicle_core::meeting::MeetingStatus::Open
        )
    );

    s.undo(card.id).await.unwrap();
    let chats = co.core.chats.all().await.unwrap();
    assert!(
        chats
            .iter()
            .all(|c| c.kind != cubicle_core::chat::ChatKind::Meeting)
    );
    assert!(co.core.meetings.find(meeting.id).await.unwrap().is_none());

    // A department among the participants brings all its people.
    let t = s
        .say("convene 工程部 to discuss the launch", true)
        .await
        .unwrap();
    assert!(
        matches!(&t.reply.actions[0].proposal, Proposal::ConveneMeeting { participant_ids, .. } if participant_ids.len() == 2),
        "{}",
        t.reply.text
    );
}

#[tokio::test]
async fn a_pronoun_refers_to_the_person_named_before_it() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let design = co.dept("Design", None).await;
    let carol = co.hire("Carol", "Product Designer", Some(eng.id)).await;
    let s = &co.core.secretary;
    let t = s
        .say(
            "move Carol to Design and ask her to draft the onboarding flow",
            true,
        )
        .await
        .unwrap();
    assert_eq!(t.reply.actions.len(), 2, "{}", t.reply.text);
    assert!(
        t.reply
            .actions
            .iter()
            .all(|a| a.status == ActionStatus::Applied)
    );
    let snap = co.core.org.snapshot().await.unwrap();
    let c = snap.employees.iter().find(|e| e.id == carol.id).unwrap();
    assert_eq!(c.department_id, Some(design.id));
    let tasks = co.core.work.pending().await.unwrap();
    assert_eq!(tasks.len(), 1);
    assert_eq!(tasks[0].owner_id, carol.id);
    assert_eq!(tasks[0].description, "draft the onboarding flow");
}

#[tokio::test]
async fn small_talk_is_written_by_the_configured_model_and_streams_as_it_comes() {
    use wiremock::matchers::body_partial_json;
    let (mut co, model) = with_scripted_model(Purpose::Intent, "not used").await;
    Mock::given(method("POST"))
        .and(body_partial_json(serde_json::json!({"stream": true})))
        .respond_with(crate::gateway_stream::sse_body(
            &["Good ", "morning, ", "Ada!"],
            true,
        ))
        .with_priority(1)
        .mount(&model)
        .await;
    co.drain_events();
    let turn = co.core.secretary.say("good morning!", false).await.unwrap();
    assert_eq!(turn.reply.text, "Good morning, Ada!");
    assert!(turn.reply.actions.is_empty());
    let deltas: Vec<String> = co
        .drain_events()
        .into_iter()
        .filter_map(|e| match e {
            DomainEvent::SecretaryReplyDelta { text, .. } => Some(text),
            _ => None,
        })
        .collect();
    assert_eq!(
        deltas,
        vec!["Good ", "Good morning, ", "Good morning, Ada!"]
    );
    // It is saved like every reply.
    let history = co.core.secretary.history().await.unwrap();
    assert_eq!(history.last().unwrap().text, "Good morning, Ada!");
}

#[tokio::test]
async fn small_talk_falls_back_to_the_fixed_greeting_when_the_stream_breaks() {
    use wiremock::matchers::body_partial_json;
    let (co, model) = with_scripted_model(Purpose::Intent, "not used").await;
    Mock::given(method("POST"))
        .and(body_partial_json(serde_json::json!({"stream": true})))
        .respond_with(crate::gateway_stream::sse_body(&["Good ", "mor"], false))
        .with_priority(1)
        .mount(&model)
        .await;
    let turn = co.core.secretary.say("hello", false).await.unwrap();
    assert!(
        turn.reply.text.starts_with("Hello! Tell me"),
        "{}",
        turn.reply.text
    );
}

#[tokio::test]
async fn a_task_for_a_department_without_a_lead_goes_to_its_most_willing_member() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    for (name, archetype) in [
        ("Zed", Archetype::ZenSlacker),
        ("Gil", Archetype::UltraGrinder),
        ("Sue", Archetype::ShyIntrovert),
    ] {
        co.core
            .org
            .hire(NewEmployee {
                name: name.into(),
                title: "Engineer".into(),
                department_id: Some(eng.id),
                manager_id: None,
                archetype: Some(archetype),
            })
            .await
            .unwrap();
    }
    let t = co
        .core
        .secretary
        .say("ask Engineering to fix the flaky tests", false)
        .await
        .unwrap();
    assert!(
        matches!(&t.reply.actions[0].proposal, Proposal::AssignTask { name, .. } if name == "Gil"),
        "{}",
        t.reply.text
    );
}
