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
