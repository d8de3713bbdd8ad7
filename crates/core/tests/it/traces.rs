//! A trace tells what happened (SPEC §10, §17): the boss asks Alice for a webhook post
//! that takes a task, waits for the boss, and then fails on the wire. The trace shows the
//! model calls, the approval, what became of the call after the approval, and the task as
//! it stands — not a spotless story with a negative zero cost.

use chrono::TimeDelta;
use cubicle_core::approvals::{ApprovalFilter, DecidedVia, Decision};
use cubicle_core::trace::{TraceDto, TraceEventKind};
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::util::DecideShown;
use crate::work::playbook::{Seen, silent, speak};
use crate::work::{Stage, engineering};

/// Alice takes the post as a task and asks for it; once she sees the result she marks
/// the task failed when it did not go out.
fn poster(hook: String) -> impl Fn(&Seen) -> Value + Send + Sync + 'static {
    move |s: &Seen| match s.name.as_str() {
        "Alice" if s.prompt.contains("post_webhook → failed") => match s.task("release note") {
            Some(id) => speak(
                "It did not go out.",
                &[(
                    "Ada, the post failed; the hook answered with an error.",
                    None,
                )],
                json!([{"op": "fail", "id": id, "result": "the team hook answered 502"}]),
            ),
            _ => silent("Alice"),
        },
        "Alice" if s.new_from("Ada", "release note") => {
            let mut v = speak(
                "I'll ask to post it.",
                &[("I'll post it once you approve.", None)],
                json!([{"op": "create", "description": "Post the release note to the team webhook"}]),
            );
            v["toolCalls"] = json!([{
                "tool": "post_webhook",
                "args": {"url": hook, "text": "Release 2.3 is out", "style": "feishu"},
                "reason": "the boss asked for the release note"
            }]);
            v
        }
        name => silent(name),
    }
}

async fn story(stage: &Stage, trace: &str) -> TraceDto {
    stage.co.core.traces.get(trace).await.unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_failed_post_after_approval_is_in_the_trace_with_its_calls_and_the_task_as_it_stands() {
    let hook = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(502))
        .mount(&hook)
        .await;
    let url = format!("{}/hook", hook.uri());
    let stage = Stage::new(poster(url.clone())).await;
    let (alice, _, _, group) = engineering(&stage).await;
    let core = &stage.co.core;
    core.approvals
        .set_tool_whitelist(alice, vec!["post_webhook".into()])
        .await
        .unwrap();
    stage.co.allow_webhooks_to(&hook.uri()).await;
    let asked = stage
        .boss_says(
            group,
            "Alice, please post the release note to the team webhook.",
        )
        .await;
    let trace = asked.trace_id.clone().unwrap();
    stage.run_for(TimeDelta::minutes(5)).await;

    let before = story(&stage, &trace).await;
    assert!(
        before.summary.calls > 0,
        "Alice's thoughts are the trace's calls"
    );
    assert_eq!(
        before.summary.calls as usize,
        before
            .events
            .iter()
            .filter(|e| e.kind == TraceEventKind::ModelCall)
            .count()
    );
    assert_eq!(before.tasks_pending, 1, "{before:#?}");

    let waiting = core.approvals.list(ApprovalFilter::Pending).await.unwrap();
    assert_eq!(waiting.len(), 1);
    core.approvals
        .decide_shown(waiting[0].id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    stage.run_for(TimeDelta::minutes(10)).await;

    let after = story(&stage, &trace).await;
    eprintln!("{after:#?}");
    let ran: Vec<_> = after
        .events
        .iter()
        .filter(|e| e.kind == TraceEventKind::ToolCall)
        .collect();
    assert!(
        ran.iter().any(|e| e.outcome.as_deref() == Some("error")
            && e.approval_id == Some(waiting[0].id)
            && e.text.contains("502")),
        "the failed post is in the story: {ran:#?}"
    );
    assert!(
        after
            .events
            .iter()
            .any(|e| e.kind == TraceEventKind::Approval && e.outcome.as_deref() == Some("approved")),
        "the decision is in the story"
    );
    assert_eq!(
        after.tasks_pending, 0,
        "the task failed: nothing is pending"
    );
    assert!(
        after
            .events
            .iter()
            .any(|e| e.kind == TraceEventKind::TaskFailed)
    );
}

/// A trace with no model call costs zero, not minus zero (an empty `f64` sum is −0.0,
/// which a currency format shows as "-US$0.00").
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_trace_without_calls_costs_a_plain_zero() {
    let stage = Stage::new(|s: &Seen| silent(&s.name)).await;
    let (_, _, _, group) = engineering(&stage).await;
    let asked = stage.boss_says(group, "Good morning, everyone.").await;
    let trace = asked.trace_id.unwrap();
    let t = story(&stage, &trace).await;
    assert_eq!(t.summary.calls, 0);
    assert!(
        t.summary.cost_usd.is_sign_positive(),
        "{}",
        t.summary.cost_usd
    );
    let listed = stage.co.core.traces.recent(10).await.unwrap();
    let listed = listed.iter().find(|s| s.id == trace).unwrap();
    assert!(listed.cost_usd.is_sign_positive());
    let json = serde_json::to_string(&t.summary).unwrap();
    assert!(!json.contains("-0"), "{json}");
}

/// Alice takes both of the boss's posts in one thought: a task and a call for each, the
/// teaser to a channel the boss has not allowed, the release note to the team hook.
fn two_posts(hook: String) -> impl Fn(&Seen) -> Value + Send + Sync + 'static {
    move |s: &Seen| match s.name.as_str() {
        "Alice" if s.new_from("Ada", "launch teaser") && s.new_from("Ada", "release note") => {
            let mut v = speak(
                "Two posts: the teaser and the release note.",
                &[("I'll post both; the release note once you approve.", None)],
                json!([
                    {"op": "create", "description": "Post the launch teaser to the launch channel"},
                    {"op": "create", "description": "Post the release note to the team webhook"}
                ]),
            );
            v["toolCalls"] = json!([
                {
                    "tool": "post_webhook",
                    "args": {
                        "url": "https://hooks.slack.com/services/T0/B0/launch",
                        "text": "Something new is coming next week",
                        "style": "slack"
                    },
                    "reason": "the boss asked for a teaser on the launch channel"
                },
                {
                    "tool": "post_webhook",
                    "args": {"url": hook, "text": "Release 2.3 is out", "style": "feishu"},
                    "reason": "the boss asked for the release note"
                }
            ]);
            v
        }
        name => silent(name),
    }
}

fn tool_calls(t: &TraceDto) -> Vec<(String, Option<i32>)> {
    t.events
        .iter()
        .filter(|e| e.kind == TraceEventKind::ToolCall)
        .map(|e| (e.outcome.clone().unwrap_or_default(), e.approval_id))
        .collect()
}

fn count(t: &TraceDto, kind: TraceEventKind) -> usize {
    t.events.iter().filter(|e| e.kind == kind).count()
}

/// What the trace list and the trace's header say agree with its lines, at a plain zero
/// or more.
fn summary_matches_lines(t: &TraceDto) {
    assert_eq!(
        t.summary.calls as usize,
        count(t, TraceEventKind::ModelCall),
        "{t:#?}"
    );
    assert!(
        t.summary.cost_usd.is_sign_positive(),
        "{}",
        t.summary.cost_usd
    );
}

/// One thought answers two instructions: each call, and what became of it, is in the
/// story of the instruction it serves — the refused teaser in the teaser's, the release
/// note's approval and its run in the release note's — and neither story says nothing
/// was done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn each_call_of_a_thought_answering_two_instructions_is_in_its_own_instruction() {
    let hook = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200))
        .mount(&hook)
        .await;
    let stage = Stage::new(two_posts(format!("{}/hook", hook.uri()))).await;
    let (teaser, release) = two_instructions_at_once(&stage, &hook.uri()).await;
    stage.run_for(TimeDelta::minutes(5)).await;
    let core = &stage.co.core;

    let old = story(&stage, &teaser).await;
    let new = story(&stage, &release).await;
    assert_eq!(
        tool_calls(&old),
        [("refused".to_owned(), None)],
        "the refused teaser is in the teaser's story: {old:#?}"
    );
    let waiting = core.approvals.list(ApprovalFilter::Pending).await.unwrap();
    assert_eq!(waiting.len(), 1);
    let approval = waiting[0].id;
    assert_eq!(waiting[0].trace_id.as_deref(), Some(release.as_str()));
    assert_eq!(
        tool_calls(&new),
        [("waiting_approval".to_owned(), Some(approval))],
        "only the release note's call is in its story: {new:#?}"
    );
    assert_eq!(count(&old, TraceEventKind::Approval), 0);
    assert_eq!(count(&new, TraceEventKind::Approval), 1);
    // Each task in its own story, pending.
    assert_eq!((old.tasks_pending, new.tasks_pending), (1, 1));
    assert!(
        old.events
            .iter()
            .any(|e| e.kind == TraceEventKind::TaskCreated && e.text.contains("teaser"))
    );
    // Alice looked at the refusal in a thought of the teaser's own.
    assert!(old.summary.calls > 0, "{old:#?}");
    assert!(new.summary.calls > 0, "{new:#?}");
    summary_matches_lines(&old);
    summary_matches_lines(&new);

    core.approvals
        .decide_shown(approval, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    stage.run_for(TimeDelta::minutes(10)).await;
    the_run_is_in_the_release_notes_story_alone(&stage, (&teaser, &release), approval).await;
}

/// Alice may post to the team hook (not to the launch channel), and the boss asks her
/// for the teaser, then for the release note, before she has read either; their traces.
async fn two_instructions_at_once(stage: &Stage, allowed: &str) -> (String, String) {
    let (alice, _, _, group) = engineering(stage).await;
    let core = &stage.co.core;
    core.approvals
        .set_tool_whitelist(alice, vec!["post_webhook".into()])
        .await
        .unwrap();
    stage.co.allow_webhooks_to(allowed).await;
    let teaser = stage
        .boss_says(
            group,
            "Alice, please post the launch teaser to the launch channel.",
        )
        .await
        .trace_id
        .unwrap();
    let release = stage
        .boss_says(
            group,
            "Alice, please post the release note to the team webhook.",
        )
        .await
        .trace_id
        .unwrap();
    (teaser, release)
}

/// After the approval: the post ran in the release note's story; the teaser's still
/// holds its refusal and nothing else; the list agrees with both.
async fn the_run_is_in_the_release_notes_story_alone(
    stage: &Stage,
    (teaser, release): (&str, &str),
    approval: i32,
) {
    let core = &stage.co.core;
    let old = story(stage, teaser).await;
    let new = story(stage, release).await;
    assert_eq!(tool_calls(&old), [("refused".to_owned(), None)], "{old:#?}");
    assert_eq!(count(&old, TraceEventKind::Approval), 0, "{old:#?}");
    let calls = tool_calls(&new);
    assert!(
        calls.contains(&("ok".to_owned(), Some(approval))),
        "the post's run is in the release note's story: {calls:?}"
    );
    assert!(
        new.events
            .iter()
            .any(|e| e.kind == TraceEventKind::Approval && e.outcome.as_deref() == Some("approved"))
    );
    summary_matches_lines(&old);
    summary_matches_lines(&new);
    let listed = core.traces.recent(10).await.unwrap();
    for t in [&old, &new] {
        let row = listed.iter().find(|s| s.id == t.summary.id).unwrap();
        assert_eq!(row.calls, t.summary.calls);
        assert!(row.cost_usd.is_sign_positive());
    }
}
