//! A meeting the boss convenes through the secretary is part of that instruction's
//! story: its trace shows the meeting's model calls, the turns as steps, the rulings
//! and the minutes.

use chrono::TimeDelta;
use cubicle_core::trace::{TraceDto, TraceEventKind};
use cubicle_core::types::*;

use super::{TRIO, room};

/// Bob's proposal, Alice's objection, Carol's agreement and the boss's ask to convene
/// them, in Chinese or English.
fn lines_and_the_ask(zh: bool) -> (&'static str, &'static str, &'static str, &'static str) {
    if zh {
        (
            "我们这个季度把API迁到GraphQL吧",
            "这个方案不可以，REST对我们两个客户端就够了",
            "同意，就按这个来",
            "召集Bob、Alice和Carol开会讨论API路线图",
        )
    } else {
        (
            "Let's move the API to GraphQL this quarter.",
            "I disagree, REST is enough for our two clients.",
            "Agree with Bob, GraphQL would save the frontend a lot.",
            "convene a meeting with Bob, Alice and Carol about the API roadmap",
        )
    }
}

/// The story has the meeting's model calls, each turn as a step with each speaker's
/// thought and message in the meeting, and one ruling: Alice, the engineering lead,
/// rejected the proposal.
fn the_story_has_the_calls_turns_and_ruling(story: &TraceDto, chat: i32, proposal: &str) {
    let of = |kind: TraceEventKind| story.events.iter().filter(move |e| e.kind == kind);
    assert!(
        story.summary.calls >= 3,
        "the meeting's model calls: {}",
        story.summary.calls
    );
    assert!(of(TraceEventKind::ModelCall).count() >= 3);
    assert!(story.steps >= 3, "each turn is a step: {}", story.steps);
    for name in ["Alice", "Bob", "Carol"] {
        assert!(
            of(TraceEventKind::Thought).any(|e| e.actor == name),
            "{name}'s thought is in the story"
        );
        assert!(
            of(TraceEventKind::Message).any(|e| e.actor == name && e.chat_id == Some(chat)),
            "{name}'s turn is in the story"
        );
    }
    let rulings: Vec<_> = of(TraceEventKind::Ruling).collect();
    assert_eq!(rulings.len(), 1, "{:#?}", story.events);
    let r0 = rulings[0];
    assert!(r0.text.contains(proposal), "{}", r0.text);
    assert_eq!(r0.actor, "Alice", "the engineering lead ruled");
    assert_eq!(r0.outcome.as_deref(), Some("rejected"));
    assert_eq!(r0.chat_id, Some(chat));
}

/// Rulings come after the turn that made them, and the minutes, titled in the
/// company's language, close the story.
fn the_ruling_follows_the_objection_and_the_minutes_close(
    story: &TraceDto,
    objection: &str,
    zh: bool,
) {
    let pos = |pred: &dyn Fn(&cubicle_core::trace::TraceEventDto) -> bool| {
        story.events.iter().position(pred).unwrap()
    };
    let objected = pos(&|e| e.kind == TraceEventKind::Message && e.text == objection);
    let ruled = pos(&|e| e.kind == TraceEventKind::Ruling);
    assert!(objected < ruled);
    let minutes =
        pos(&|e| e.kind == TraceEventKind::Mail && e.outcome.as_deref() == Some("minutes"));
    assert!(ruled < minutes);
    let minutes_title = if zh { "会议纪要：" } else { "Minutes: " };
    assert!(story.events[minutes].text.starts_with(minutes_title));
}

/// The boss convenes the meeting in `zh` or English; Bob proposes, Alice objects, Carol
/// agrees; the instruction's trace tells the meeting's story.
async fn a_convened_meeting_tells_its_story(zh: bool) {
    let r = room(&TRIO).await;
    if zh {
        r.co.speak(Language::ZhCn).await;
    }
    let (proposal, objection, agreement, ask) = lines_and_the_ask(zh);
    r.say("Bob", &[proposal]);
    r.say("Alice", &[objection]);
    r.say("Carol", &[agreement]);
    let turn = r.co.core.secretary.say(ask, true).await.unwrap();
    let trace = turn
        .boss
        .trace_id
        .clone()
        .expect("the convening is an instruction");
    r.run_for(TimeDelta::hours(2)).await;

    let decisions = r.co.core.meetings.all_decisions().await.unwrap();
    let ruling = decisions
        .iter()
        .find(|d| d.decision.question == proposal)
        .unwrap_or_else(|| panic!("no ruling on the proposal: {decisions:#?}"));
    let chat = ruling.chat_id.unwrap();
    assert_eq!(
        r.co.core.meetings.find(chat).await.unwrap().unwrap().status,
        cubicle_core::meeting::MeetingStatus::Closed
    );

    let story = r.co.core.traces.get(&trace).await.unwrap();
    the_story_has_the_calls_turns_and_ruling(&story, chat, proposal);
    // Rulings come after the turn that made them, and the minutes close the story.
    the_ruling_follows_the_objection_and_the_minutes_close(&story, objection, zh);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meetings_trace_has_its_model_calls_steps_rulings_and_minutes() {
    a_convened_meeting_tells_its_story(false).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_meeting_convened_in_chinese_has_its_story_in_its_trace() {
    a_convened_meeting_tells_its_story(true).await;
}
