//! A small model's task whose only step is an action the boss decides (issue 37): while
//! the action waits, the task is not worked on; once it has run, the task ends with its
//! outcome — resolved with what was done, or failed with why — and is reported; nothing
//! stays "1 pending task".

use chrono::TimeDelta;
use cubicle_core::approvals::ApprovalFilter;
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::tools::ToolCall;
use cubicle_core::work::{TaskDto, TaskStatus};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::small_model::{SmallModel, cooperative};
use super::start;
use crate::util::TestCompany;

struct Posted {
    task: TaskDto,
    /// What Mia said in her chat with the boss.
    said: Vec<String>,
    posts: usize,
    /// Steps the small model was asked for while the action waited.
    asked_while_waiting: usize,
}

/// Mia, on a small model, is asked through the secretary to post the release note to
/// the team's webhook (answering `status`); she asks for the post in the task's trace,
/// as a full thought would; the engine runs an hour, the boss approves, the engine runs
/// another hour.
async fn mia_posts_the_release_note(status: u16) -> Posted {
    let clock = cubicle_core::clock::ManualClock::new(start());
    let co = TestCompany::with_clock(clock.shared()).await;
    let model = SmallModel::new(cooperative);
    let _server = model.clone().serve_everyone(&co).await;
    let marketing = co.dept("Marketing", None).await;
    let mia = co
        .hire("Mia", "Marketing Manager", Some(marketing.id))
        .await
        .id;
    let hook = hook_answering(status).await;
    let core = &co.core;
    co.allow_webhooks_to(&hook.uri()).await;
    core.approvals
        .set_tool_whitelist(mia, vec!["post_webhook".into()])
        .await
        .unwrap();
    let engine = Engine::new(
        &co.core,
        EngineConfig {
            seed: Some(7),
            ..EngineConfig::default()
        },
    );
    engine.bootstrap().await.unwrap();
    core.secretary
        .say("ask Mia to post the release note to the team webhook", true)
        .await
        .unwrap();
    let task = mias_task(&co, mia).await;
    let call = ToolCall::new(
        "post_webhook",
        json!({"url": format!("{}/hook", hook.uri()), "text": "Release 2.3 is out", "style": "feishu"}),
        "the boss asked for the release note",
    );
    core.approvals
        .request(mia, call, task.trace_id.as_deref(), None)
        .await
        .unwrap();
    let waiting = core.approvals.list(ApprovalFilter::Pending).await.unwrap();
    assert_eq!(waiting.len(), 1, "{waiting:?}");

    let before = model.asked().len();
    let run_for = |d: TimeDelta| {
        let until = cubicle_core::clock::Clock::now(&clock) + d;
        let engine = &engine;
        let clock = &clock;
        async move { engine.run_simulated(clock, until).await }
    };
    run_for(TimeDelta::hours(1)).await;
    let asked_while_waiting = model
        .asked()
        .iter()
        .skip(before)
        .filter(|a| a.name == "Mia")
        .count();
    assert_eq!(
        mias_task(&co, mia).await.status,
        TaskStatus::Pending,
        "nothing ends the task while its action waits"
    );

    core.secretary
        .say(&format!("approve #{}", waiting[0].id), false)
        .await
        .unwrap();
    run_for(TimeDelta::hours(1)).await;
    let said = said_to_the_boss(&co, mia).await;
    Posted {
        task: mias_task(&co, mia).await,
        said,
        posts: hook.received_requests().await.unwrap_or_default().len(),
        asked_while_waiting,
    }
}

async fn hook_answering(status: u16) -> MockServer {
    let hook = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .respond_with(ResponseTemplate::new(status).set_body_json(json!({"code": 0})))
        .mount(&hook)
        .await;
    hook
}

async fn said_to_the_boss(co: &TestCompany, mia: i32) -> Vec<String> {
    let boss_chat = co.core.chats.boss_chat(mia).await.unwrap();
    co.core
        .chats
        .messages(boss_chat.id)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.sender_employee_id == Some(mia))
        .map(|m| m.text)
        .collect()
}

async fn mias_task(co: &TestCompany, mia: i32) -> TaskDto {
    co.core
        .work
        .all()
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.owner_id == mia)
        .expect("the secretary gave Mia the task")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_models_task_ends_with_its_approved_actions_outcome() {
    let done = mia_posts_the_release_note(200).await;
    assert_eq!(done.posts, 1);
    assert_eq!(
        done.asked_while_waiting, 0,
        "no document written for a task whose action waits"
    );
    assert_eq!(done.task.status, TaskStatus::Resolved, "{:?}", done.task);
    let result = done.task.result.clone().unwrap_or_default();
    assert!(
        result.starts_with("Done: ") && result.contains("release note"),
        "{result}"
    );
    assert_eq!(done.task.needs_review, None, "{:?}", done.task);
    assert!(
        !done.said.is_empty(),
        "the resolved task is reported to the boss"
    );

    let failed = mia_posts_the_release_note(500).await;
    assert_eq!(failed.posts, 1);
    assert_eq!(failed.task.status, TaskStatus::Failed, "{:?}", failed.task);
    let result = failed.task.result.clone().unwrap_or_default();
    assert!(result.starts_with("Failed: "), "{result}");
    assert!(result.contains("500"), "the error is said: {result}");
}
