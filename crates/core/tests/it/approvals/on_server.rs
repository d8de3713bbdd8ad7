//! A company on a shared server (SPEC §8 with docs/server.md): a desktop attached to it
//! records the boss's decision, and the server's engine runs the approved action — once,
//! however many desktops decide or engines look — in the server's workspace.

use crate::util::DecideShown;
use cubicle_core::engine::{Engine, EngineConfig};

use super::*;

fn hook(server: &MockServer, text: &str) -> serde_json::Value {
    json!({"url": format!("{}/hook", server.uri()), "text": text, "style": "slack"})
}

async fn posts(server: &MockServer) -> usize {
    server.received_requests().await.unwrap().len()
}

fn engine_resync() -> std::time::Duration {
    cubicle_core::engine::RESYNC_EVERY
}

/// Waits (real time) until approval `id` has run.
async fn executed(c: &TestCompany, id: i32) -> cubicle_core::approvals::ApprovalDto {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    loop {
        let a = c.core.approvals.get(id).await.unwrap();
        if a.executed_at.is_some() {
            return a;
        }
        assert!(std::time::Instant::now() < deadline, "never ran: {a:?}");
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
}

/// A webhook receiver on 127.0.0.1 that answers every post with 200.
async fn webhook_receiver() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .respond_with(ResponseTemplate::new(200).set_body_string("ok"))
        .mount(&server)
        .await;
    server
}

/// The boss approves `id` on two desktops at once, while no engine runs: both see it
/// approved, nothing runs on a desktop, and Olga no longer waits.
async fn two_desktops_approve_at_once_and_nothing_runs(
    c: &TestCompany,
    desktops: &[cubicle_core::AppCore; 2],
    ops: &EmployeeDto,
    server: &MockServer,
    id: i32,
) {
    let (a, b) = tokio::join!(
        desktops[0].approvals.decide_shown(
            id,
            Decision::Approve,
            DecidedVia::Ui,
            Some("ship it".into())
        ),
        desktops[1]
            .approvals
            .decide_shown(id, Decision::Approve, DecidedVia::Notification, None),
    );
    for decided in [a.unwrap(), b.unwrap()] {
        assert_eq!(decided.status, ApprovalStatus::Approved);
        assert!(decided.executed_at.is_none() && decided.error.is_none());
    }
    assert_eq!(posts(server).await, 0, "nothing runs on a desktop");
    assert_eq!(
        status_of(c, ops.id).await,
        EmployeeStatus::Idle,
        "decided, so Olga no longer waits"
    );
    assert!(desktops[0].approvals.run_queued().await.unwrap().is_empty());
    assert_eq!(posts(server).await, 0);
}

/// The server's engine runs the queued approval `id` once, as never begun (not
/// interrupted), with one desktop's decision and note standing.
async fn the_server_engine_runs_it_once(
    c: &TestCompany,
    engine: &Engine,
    server: &MockServer,
    id: i32,
) {
    let ran = executed(c, id).await;
    assert_eq!(engine.stats().interrupted, 0);
    assert_eq!(posts(server).await, 1);
    assert_eq!(ran.result, Some(json!({"status": 200})));
    assert!(ran.error.is_none());
    // One desktop's decision stands, with its note.
    assert!(
        matches!(
            (ran.decided_via, ran.note.as_deref()),
            (Some(DecidedVia::Ui), Some("ship it")) | (Some(DecidedVia::Notification), None)
        ),
        "{ran:?}"
    );
}

/// Olga asks for two more posts; one desktop approves the first, the other rejects the
/// second, and another engine keeps running the queue until the approved one has run.
/// The (approved, rejected) ids.
async fn desktops_approve_one_and_reject_one_while_engines_run(
    c: &TestCompany,
    desktops: &[cubicle_core::AppCore; 2],
    ops: &EmployeeDto,
    server: &MockServer,
) -> (i32, i32) {
    let second = waiting(ask(c, ops, "post_webhook", hook(server, "Release 1.3 is out")).await);
    let rejected = waiting(ask(c, ops, "post_webhook", hook(server, "Ship it unreviewed")).await);
    desktops[1]
        .approvals
        .decide_shown(second, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    desktops[0]
        .approvals
        .decide_shown(
            rejected,
            Decision::Reject,
            DecidedVia::Ui,
            Some("no".into()),
        )
        .await
        .unwrap();
    let other_engine = c.another_process().await;
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(15);
    while c
        .core
        .approvals
        .get(second)
        .await
        .unwrap()
        .executed_at
        .is_none()
    {
        assert!(std::time::Instant::now() < deadline, "never ran");
        other_engine.approvals.run_queued().await.unwrap();
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    }
    (second, rejected)
}

/// Olga hears in her chat with the boss that both approved posts were done; nothing is
/// left to run, by anyone.
async fn olga_hears_both_were_done_and_nothing_is_left(
    c: &TestCompany,
    ops: &EmployeeDto,
    server: &MockServer,
) {
    let chat = c.core.chats.boss_chat(ops.id).await.unwrap();
    let notes: Vec<String> = c
        .core
        .chats
        .messages(chat.id)
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.text)
        .collect();
    assert_eq!(
        notes
            .iter()
            .filter(|t| t.contains("approved your request") && t.contains("It was done."))
            .count(),
        2,
        "{notes:?}"
    );
    // Nothing is left to run, by anyone.
    assert!(c.core.approvals.run_queued().await.unwrap().is_empty());
    assert_eq!(runs_of(c, ops).await, 2);
    assert_eq!(posts(server).await, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
pub(super) async fn an_approval_decided_on_an_attached_desktop_runs_once_on_the_server() {
    let server = webhook_receiver().await;
    let c = company().await;
    if c.db().await.get_database_backend() != sea_orm::DbBackend::Postgres {
        // A company server is PostgreSQL, whose rights vouch for a decision made on a
        // desktop without the key; in a SQLite file no decision goes unsealed.
        eprintln!("SKIPPED: a desktop attached to a company server, on SQLite");
        return;
    }
    c.allow_webhooks_to(&server.uri()).await;
    let ops = staff(&c, "Olga", &["post_webhook"]).await;
    let first = waiting(
        ask(
            &c,
            &ops,
            "post_webhook",
            hook(&server, "Release 1.2 is out"),
        )
        .await,
    );

    // The boss approves on two desktops at once, while no engine runs.
    let desktops = [c.attached_desktop().await, c.attached_desktop().await];
    two_desktops_approve_at_once_and_nothing_runs(&c, &desktops, &ops, &server, first).await;

    // The server's engine starts: a queued action never began, so it is run, not
    // flagged as interrupted.
    let engine = Engine::new(&c.core, EngineConfig::default());
    let stop = tokio_util::sync::CancellationToken::new();
    let running = engine.spawn(stop.clone());
    the_server_engine_runs_it_once(&c, &engine, &server, first).await;

    // While the engine runs: the next approval decided on a desktop is picked up by its
    // periodic look at the database, while another engine keeps trying to run it too.
    let (second, rejected) =
        desktops_approve_one_and_reject_one_while_engines_run(&c, &desktops, &ops, &server).await;
    // Long enough for the engine's next look.
    tokio::time::sleep(engine_resync() + std::time::Duration::from_millis(500)).await;
    stop.cancel();
    running.await.unwrap();
    assert_eq!(posts(&server).await, 2, "each approved action posted once");
    let ran = c.core.approvals.get(second).await.unwrap();
    assert!(ran.executed_at.is_some(), "{ran:?}");
    let no = c.core.approvals.get(rejected).await.unwrap();
    assert_eq!(no.status, ApprovalStatus::Rejected);
    assert!(no.executed_at.is_none());

    // Olga hears how each went, in her chat with the boss.
    olga_hears_both_were_done_and_nothing_is_left(&c, &ops, &server).await;
}
