//! Loops of held-back lines (SPEC §10): an employee whose every line is blocked — by the
//! repetition filter, or by the identity check for speaking as someone else — still
//! spends a thought, and a model call, on the instruction each time. Those thoughts
//! count against the instruction's steps; a run of them stops it, and the boss is told
//! why in the mailbox.

use chrono::TimeDelta;
use cubicle_core::guard::MAX_TRACE_STEPS;
use cubicle_core::mailbox::MailKind;
use cubicle_core::trace::TraceEventKind;
use cubicle_core::types::*;
use serde_json::{Value, json};

use super::playbook::{Seen, silent, speak};
use super::{Stage, engineering};
use crate::util::mail_of;

/// Bob takes the task on, then answers every poll with the same line.
fn repeats_himself(s: &Seen) -> Value {
    let line = "On it: the release note for v2 is in progress.";
    match s.name.as_str() {
        "Bob" if s.task("release note").is_none() => speak(
            "A clear ask; I'll make it a task.",
            &[(line, None)],
            json!([{"op": "create", "description": "Write the release note for v2"}]),
        ),
        "Bob" => speak("Still on it.", &[(line, None)], json!([])),
        name => silent(name),
    }
}

/// Bob takes the task on, and every line he writes speaks as Charlie.
fn speaks_as_charlie(s: &Seen) -> Value {
    let ops = if s.task("release note").is_none() {
        json!([{"op": "create", "description": "Write the release note for v2"}])
    } else {
        json!([])
    };
    match s.name.as_str() {
        "Bob" => speak(
            "Let Charlie say it.",
            &[(
                &format!("Charlie: the release note is moving ({})", s.prompt.len()),
                None,
            )],
            ops,
        ),
        name => silent(name),
    }
}

/// Runs `play` on "Bob, please write the release note for v2." for three simulated
/// hours and checks the instruction was stopped within its steps, with a mail that
/// names Bob and says why (`because`), and that nothing is spent on it afterwards.
async fn a_blocked_loop_is_stopped(play: fn(&Seen) -> Value, zh: bool, because: &str) -> Stage {
    let stage = Stage::new(play).await;
    let (_alice, bob, _charlie, group) = engineering(&stage).await;
    let core = &stage.co.core;
    if zh {
        stage.co.speak(Language::ZhCn).await;
    }
    let asked = stage
        .boss_says(group, "Bob, please write the release note for v2.")
        .await;
    let trace = asked.trace_id.unwrap();
    stage.run_for(TimeDelta::hours(3)).await;

    let story = core.traces.get(&trace).await.unwrap();
    let thoughts = story
        .events
        .iter()
        .filter(|e| e.kind == TraceEventKind::Thought)
        .count();
    let held_back = story
        .events
        .iter()
        .filter(|e| {
            e.kind == TraceEventKind::Thought
                && matches!(e.outcome.as_deref(), Some("repetition" | "identity"))
        })
        .count();
    assert!(held_back > 0, "lines were held back: {story:#?}");
    assert!(
        story.steps <= MAX_TRACE_STEPS,
        "held-back thoughts are steps: {} steps, {thoughts} thoughts",
        story.steps
    );
    assert!(
        thoughts <= MAX_TRACE_STEPS as usize,
        "{thoughts} thoughts were spent on it"
    );
    // Each thought is at most two calls (one regeneration for speaking as someone else).
    assert!(
        story.summary.calls <= 2 * MAX_TRACE_STEPS,
        "{} calls",
        story.summary.calls
    );

    let stopped_title = if zh { "已暂停：" } else { "Stopped: " };
    let mail = mail_of(core, Some(MailKind::Escalation)).await;
    let stops: Vec<_> = mail
        .iter()
        .filter(|m| m.title.starts_with(stopped_title))
        .collect();
    assert_eq!(stops.len(), 1, "{mail:#?}");
    assert_eq!(stops[0].employee_id, Some(bob));
    assert!(stops[0].body.contains("Bob"), "{}", stops[0].body);
    assert!(stops[0].body.contains(because), "{}", stops[0].body);
    assert_eq!(stops[0].trace_id.as_deref(), Some(trace.as_str()));

    // Stopped means stopped: hours later, no model call has been spent on it.
    let calls = stage.book.prompts.lock().unwrap().len();
    stage.run_for(TimeDelta::hours(5)).await;
    assert_eq!(stage.book.prompts.lock().unwrap().len(), calls);
    stage
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_employee_who_keeps_repeating_himself_is_stopped_and_the_boss_told_why() {
    a_blocked_loop_is_stopped(repeats_himself, false, "repeating").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_employee_who_keeps_speaking_as_someone_else_is_stopped_and_the_boss_told_why() {
    a_blocked_loop_is_stopped(speaks_as_charlie, false, "someone else").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_repetition_loop_is_stopped_with_a_chinese_mail_in_a_chinese_company() {
    a_blocked_loop_is_stopped(repeats_himself, true, "重复").await;
}
