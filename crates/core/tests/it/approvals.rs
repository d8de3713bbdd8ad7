//! Approvals and tools (SPEC §8): policies, the whitelist, fail-closed execution,
//! race-safe idempotent decisions, expiry, and what each tool may touch.

use crate::util::DecideShown;
use cubicle_core::approvals::CallLogOutcome;
use std::time::Duration;

use chrono::{TimeDelta, TimeZone, Utc};
use cubicle_core::app::CoreOptions;
use cubicle_core::approvals::{
    ApprovalError, ApprovalFilter, ApprovalStatus, ApprovalsConfig, CallOutcome, DecidedVia,
    Decision,
};
use cubicle_core::clock::{Clock as _, ManualClock};
use cubicle_core::mailbox::{MailFilter, MailKind};
use cubicle_core::meeting::arbitration::Role;
use cubicle_core::mind::memory_rules::{MemoryKind, Visibility};
use cubicle_core::mind::minds::NewMemory;
use cubicle_core::org::{EmployeeDto, FireEmployee};
use cubicle_core::tools::{ToolCall, ToolError, ToolsConfig};
use cubicle_core::types::*;
use serde_json::json;
use wiremock::matchers::{body_json, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::util::TestCompany;

mod decide;
mod employee_tools;
mod on_server;
mod told;
mod tools;

async fn company_with(clock: &ManualClock, tools: ToolsConfig) -> TestCompany {
    TestCompany::with_options(CoreOptions {
        clock: clock.shared(),
        approvals: ApprovalsConfig {
            tools,
            ..ApprovalsConfig::default()
        },
        ..CoreOptions::default()
    })
    .await
}

fn start() -> ManualClock {
    ManualClock::new(Utc.with_ymd_and_hms(2026, 11, 30, 9, 0, 0).unwrap())
}

async fn company() -> TestCompany {
    company_with(&start(), ToolsConfig::default()).await
}

/// An employee who may use exactly `tools`.
async fn staff(c: &TestCompany, name: &str, tools: &[&str]) -> EmployeeDto {
    let e = c.hire(name, "Engineer", None).await;
    c.core
        .approvals
        .set_tool_whitelist(e.id, tools.iter().map(|t| t.to_string()).collect())
        .await
        .unwrap();
    e
}

/// A path in `e`'s own folder, where a plain write of their own runs at once.
fn own(e: &EmployeeDto, path: &str) -> String {
    format!("employees/{}/{path}", e.id)
}

fn workspace(c: &TestCompany) -> std::path::PathBuf {
    c.core.approvals.runtime().workspace_root().unwrap()
}

async fn ask(c: &TestCompany, e: &EmployeeDto, tool: &str, args: serde_json::Value) -> CallOutcome {
    c.core
        .approvals
        .request(
            e.id,
            ToolCall::new(tool, args, "needed for the task"),
            Some("t-1"),
            None,
        )
        .await
        .unwrap()
}

fn waiting(o: CallOutcome) -> i32 {
    match o {
        CallOutcome::Waiting(id) => id,
        other => panic!("expected to wait, got {other:?}"),
    }
}

/// How many of `e`'s tool calls ran (logged `ok`).
async fn runs_of(c: &TestCompany, e: &EmployeeDto) -> usize {
    c.core
        .approvals
        .tool_calls(Some(e.id))
        .await
        .unwrap()
        .into_iter()
        .filter(|t| t.outcome == cubicle_core::approvals::CallLogOutcome::Ok)
        .count()
}

async fn status_of(c: &TestCompany, id: i32) -> EmployeeStatus {
    c.core
        .org
        .all_employees()
        .await
        .unwrap()
        .into_iter()
        .find(|e| e.id == id)
        .unwrap()
        .status
}

#[tokio::test]
async fn key_steps_runs_reads_and_writes_at_once_but_holds_high_risk_actions() {
    let c = company().await;
    let alice = staff(&c, "Alice", &["read_file", "write_file", "delete_file"]).await;

    let wrote = ask(
        &c,
        &alice,
        "write_file",
        json!({"path": own(&alice, "notes/a.txt"), "content": "hi"}),
    )
    .await;
    assert!(matches!(wrote, CallOutcome::Done(_)), "{wrote:?}");
    assert_eq!(
        std::fs::read_to_string(workspace(&c).join(own(&alice, "notes/a.txt"))).unwrap(),
        "hi"
    );
    let read = ask(
        &c,
        &alice,
        "read_file",
        json!({"path": own(&alice, "notes/a.txt")}),
    )
    .await;
    assert_eq!(
        read,
        CallOutcome::Done(json!({"path": own(&alice, "notes/a.txt"), "content": "hi"}))
    );

    let id = waiting(
        ask(
            &c,
            &alice,
            "delete_file",
            json!({"path": own(&alice, "notes/a.txt")}),
        )
        .await,
    );
    assert!(
        workspace(&c).join(own(&alice, "notes/a.txt")).exists(),
        "nothing runs before approval"
    );
    assert_eq!(
        status_of(&c, alice.id).await,
        EmployeeStatus::WaitingApproval
    );
    assert_eq!(c.core.approvals.pending_count().await.unwrap(), 1);

    let a = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert_eq!(a.status, ApprovalStatus::Approved);
    assert!(a.executed_at.is_some() && a.error.is_none(), "{a:?}");
    assert!(!workspace(&c).join(own(&alice, "notes/a.txt")).exists());
    assert_eq!(status_of(&c, alice.id).await, EmployeeStatus::Idle);

    // Every call is in the log, writes included.
    let log = c.core.approvals.tool_calls(Some(alice.id)).await.unwrap();
    let outcomes: Vec<(&str, CallLogOutcome)> = log
        .iter()
        .rev()
        .map(|t| (t.tool.as_str(), t.outcome))
        .collect();
    assert_eq!(
        outcomes,
        [
            ("write_file", CallLogOutcome::Ok),
            ("read_file", CallLogOutcome::Ok),
            ("delete_file", CallLogOutcome::WaitingApproval),
            ("delete_file", CallLogOutcome::Ok),
        ]
    );
}

#[tokio::test]
async fn manual_policy_holds_every_write_and_nothing_is_written_before_approval() {
    let c = company().await;
    c.core
        .org
        .set_approval_policy(ApprovalPolicy::Manual)
        .await
        .unwrap();
    let alice = staff(&c, "Alice", &["read_file", "write_file"]).await;

    let id = waiting(
        ask(
            &c,
            &alice,
            "write_file",
            json!({"path": "plan.md", "content": "v1"}),
        )
        .await,
    );
    assert!(
        !workspace(&c).join("plan.md").exists(),
        "fail closed: no file yet"
    );
    // Read-only tools still run at once.
    std::fs::write(workspace(&c).join("readme.md"), "hello").unwrap();
    let read = ask(&c, &alice, "read_file", json!({"path": "readme.md"})).await;
    assert!(matches!(read, CallOutcome::Done(_)), "{read:?}");

    c.core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Cli, None)
        .await
        .unwrap();
    assert_eq!(
        std::fs::read_to_string(workspace(&c).join("plan.md")).unwrap(),
        "v1"
    );
}

#[tokio::test]
async fn auto_policy_runs_high_risk_actions_and_records_the_policy_as_decider() {
    let c = company().await;
    c.core
        .org
        .set_approval_policy(ApprovalPolicy::Auto)
        .await
        .unwrap();
    let alice = staff(&c, "Alice", &["delete_file", "write_file"]).await;
    ask(
        &c,
        &alice,
        "write_file",
        json!({"path": own(&alice, "old.txt"), "content": "x"}),
    )
    .await;

    let done = ask(
        &c,
        &alice,
        "delete_file",
        json!({"path": own(&alice, "old.txt")}),
    )
    .await;
    assert!(matches!(done, CallOutcome::Done(_)), "{done:?}");
    assert!(!workspace(&c).join(own(&alice, "old.txt")).exists());
    let history = c
        .core
        .approvals
        .list(ApprovalFilter::History {
            status: None,
            employee_id: Some(alice.id),
        })
        .await
        .unwrap();
    assert_eq!(history.len(), 1);
    let a = &history[0];
    assert_eq!(a.status, ApprovalStatus::Approved);
    assert_eq!(a.decided_via, Some(DecidedVia::Policy));
    let last = a.authorization_chain.last().unwrap();
    assert_eq!((last.who.as_str(), last.role), ("policy", Role::Decided));
    assert!(last.rule.contains("auto"), "{}", last.rule);
    assert_eq!(c.core.approvals.pending_count().await.unwrap(), 0);
}

#[tokio::test]
async fn an_employees_own_policy_overrides_the_companys() {
    let c = company().await;
    let alice = staff(&c, "Alice", &["write_file"]).await;
    c.core
        .approvals
        .set_employee_policy(alice.id, Some(ApprovalPolicy::Manual))
        .await
        .unwrap();
    let me = c.core.org.all_employees().await.unwrap();
    assert_eq!(me[0].approval_policy, Some(ApprovalPolicy::Manual));

    waiting(
        ask(
            &c,
            &alice,
            "write_file",
            json!({"path": own(&alice, "a.txt"), "content": "x"}),
        )
        .await,
    );
    c.core
        .approvals
        .set_employee_policy(alice.id, None)
        .await
        .unwrap();
    let done = ask(
        &c,
        &alice,
        "write_file",
        json!({"path": own(&alice, "b.txt"), "content": "x"}),
    )
    .await;
    assert!(
        matches!(done, CallOutcome::Done(_)),
        "company's key_steps again"
    );
}

#[tokio::test]
async fn a_tool_outside_the_whitelist_is_refused_and_logged() {
    let c = company().await;
    let alice = staff(&c, "Alice", &["read_file"]).await;

    let out = ask(&c, &alice, "run_shell", json!({"command": "ls"})).await;
    let CallOutcome::Refused(why) = out else {
        panic!("expected a refusal, got {out:?}")
    };
    assert!(why.contains("run_shell") && why.contains("Alice"), "{why}");
    let unknown = ask(&c, &alice, "launch_rockets", json!({})).await;
    assert!(matches!(unknown, CallOutcome::Refused(_)));
    assert_eq!(c.core.approvals.pending_count().await.unwrap(), 0);

    let log = c.core.approvals.tool_calls(Some(alice.id)).await.unwrap();
    assert_eq!(log.len(), 2);
    assert!(log.iter().all(
        |t| t.outcome == cubicle_core::approvals::CallLogOutcome::Refused && t.output.is_some()
    ));
    assert_eq!(log[1].tool, "run_shell");
    assert_eq!(log[1].trace_id.as_deref(), Some("t-1"));
}

#[tokio::test]
async fn a_rejected_action_never_runs() {
    let c = company().await;
    let alice = staff(&c, "Alice", &["write_file", "delete_file"]).await;
    ask(
        &c,
        &alice,
        "write_file",
        json!({"path": own(&alice, "keep.txt"), "content": "x"}),
    )
    .await;
    let id = waiting(
        ask(
            &c,
            &alice,
            "delete_file",
            json!({"path": own(&alice, "keep.txt")}),
        )
        .await,
    );

    let a = c
        .core
        .approvals
        .decide_shown(
            id,
            Decision::Reject,
            DecidedVia::Notification,
            Some("not now".into()),
        )
        .await
        .unwrap();
    assert_eq!(a.status, ApprovalStatus::Rejected);
    assert!(a.executed_at.is_none() && a.result.is_none());
    assert!(workspace(&c).join(own(&alice, "keep.txt")).exists());
    assert_eq!(status_of(&c, alice.id).await, EmployeeStatus::Idle);
}

// Several worker threads, so the deciders really race.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn twenty_concurrent_approvals_post_the_webhook_exactly_once() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .and(body_json(
            json!({"msg_type": "text", "content": {"text": "Release 1.2 is out"}}),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_string("ok"))
        .expect(1)
        .mount(&server)
        .await;
    let c = company().await;
    c.allow_webhooks_to(&server.uri()).await;
    let ops = staff(&c, "Olga", &["post_webhook"]).await;
    let id = waiting(
        ask(
            &c,
            &ops,
            "post_webhook",
            json!({"url": format!("{}/hook", server.uri()), "text": "Release 1.2 is out", "style": "feishu"}),
        )
        .await,
    );
    assert!(
        server.received_requests().await.unwrap().is_empty(),
        "nothing leaves the company before approval"
    );

    let mut handles = Vec::new();
    for i in 0..20 {
        let approvals = c.core.approvals.clone();
        let via = if i % 2 == 0 {
            DecidedVia::Ui
        } else {
            DecidedVia::Notification
        };
        handles.push(tokio::spawn(async move {
            approvals
                .decide_shown(id, Decision::Approve, via, None)
                .await
        }));
    }
    for h in handles {
        let a = h.await.unwrap().unwrap();
        assert_eq!(a.status, ApprovalStatus::Approved);
    }
    assert_eq!(server.received_requests().await.unwrap().len(), 1);
    server.verify().await;
    let a = c.core.approvals.get(id).await.unwrap();
    assert_eq!(a.result, Some(json!({"status": 200})));
    assert_eq!(runs_of(&c, &ops).await, 1);
}

#[tokio::test]
async fn the_webhook_receives_the_slack_payload_only_after_approval() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(body_json(json!({"text": "hello"})))
        .respond_with(ResponseTemplate::new(200))
        .mount(&server)
        .await;
    let c = company().await;
    c.allow_webhooks_to(&server.uri()).await;
    let ops = staff(&c, "Olga", &["post_webhook"]).await;
    let id = waiting(
        ask(
            &c,
            &ops,
            "post_webhook",
            json!({"url": server.uri(), "text": "hello"}),
        )
        .await,
    );
    let pending = c
        .core
        .approvals
        .list(ApprovalFilter::Pending)
        .await
        .unwrap();
    assert_eq!(pending.len(), 1);
    assert!(
        pending[0].summary.contains("hello"),
        "{}",
        pending[0].summary
    );
    assert_eq!(pending[0].requester_name, "Olga");
    assert!(server.received_requests().await.unwrap().is_empty());

    let a = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert!(a.error.is_none(), "{a:?}");
    let got = server.received_requests().await.unwrap();
    assert_eq!(got.len(), 1);
    let body: serde_json::Value = serde_json::from_slice(&got[0].body).unwrap();
    assert_eq!(body, json!({"text": "hello"}));
}

#[tokio::test]
async fn changed_arguments_cannot_ride_an_existing_approval() {
    let c = company().await;
    c.core
        .org
        .set_approval_policy(ApprovalPolicy::Manual)
        .await
        .unwrap();
    let alice = staff(&c, "Alice", &["write_file"]).await;
    let id = waiting(
        ask(
            &c,
            &alice,
            "write_file",
            json!({"path": "a.txt", "content": "benign"}),
        )
        .await,
    );

    // The same request again joins the waiting approval; different arguments do not.
    let again = waiting(
        ask(
            &c,
            &alice,
            "write_file",
            json!({"content": "benign", "path": "a.txt"}),
        )
        .await,
    );
    assert_eq!(again, id);
    let other = waiting(
        ask(
            &c,
            &alice,
            "write_file",
            json!({"path": "a.txt", "content": "evil"}),
        )
        .await,
    );
    assert_ne!(other, id);

    // Someone edits the stored arguments behind the approval's back.
    use cubicle_store::ConnectionTrait;
    c.db()
        .await
        .execute_unprepared(&format!(
            r#"UPDATE approval SET args = '{{"path": "b.txt", "content": "evil"}}' WHERE id = {id}"#
        ))
        .await
        .unwrap();
    let err = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap_err();
    assert!(
        matches!(err, cubicle_core::approvals::ApprovalError::Unverified(i) if i == id),
        "{err:?}"
    );
    assert!(
        err.to_string().contains("no longer matches its seal"),
        "{err}"
    );
    assert_eq!(
        c.core.approvals.get(id).await.unwrap().status,
        ApprovalStatus::Waiting,
        "nothing decided"
    );
    assert!(!workspace(&c).join("b.txt").exists());
    assert!(!workspace(&c).join("a.txt").exists());
}

/// Hana (HR) asks to hire Quinn with Bob's support, under trace `t-42`. The waiting
/// approval's id.
async fn hana_asks_to_hire_quinn_with_bobs_support(c: &TestCompany) -> i32 {
    let hr = staff(c, "Hana", &["hire"]).await;
    let bob = c.hire("Bob", "Engineer", None).await;
    let mut call = ToolCall::new(
        "hire",
        json!({"name": "Quinn", "title": "QA Engineer"}),
        "we need tests",
    );
    call.supported_by = vec![bob.id];
    let out = c
        .core
        .approvals
        .request(hr.id, call, Some("t-42"), None)
        .await
        .unwrap();
    waiting(out)
}

/// The boss approves from a notification: the decision keeps its trace, way and note,
/// the chain reads Hana proposed, Bob supported, the boss decided, and Quinn is hired.
async fn approve_from_a_notification_with_its_chain(
    c: &TestCompany,
    id: i32,
) -> cubicle_core::approvals::ApprovalDto {
    let a = c
        .core
        .approvals
        .decide_shown(
            id,
            Decision::Approve,
            DecidedVia::Notification,
            Some("go ahead".into()),
        )
        .await
        .unwrap();
    assert_eq!(a.trace_id.as_deref(), Some("t-42"));
    assert_eq!(a.decided_via, Some(DecidedVia::Notification));
    assert_eq!(a.note.as_deref(), Some("go ahead"));
    assert!(a.decided_at.is_some());
    let chain: Vec<(&str, Role)> = a
        .authorization_chain
        .iter()
        .map(|l| (l.who.as_str(), l.role))
        .collect();
    assert_eq!(
        chain,
        [
            ("Hana", Role::Proposed),
            ("Bob", Role::Supported),
            ("boss", Role::Decided)
        ]
    );
    assert_eq!(a.authorization_chain[0].rule, "we need tests");
    assert!(a.authorization_chain[2].rule.contains("notification"));
    let staff_now = c.core.org.all_employees().await.unwrap();
    assert!(
        staff_now.iter().any(|e| e.name == "Quinn"),
        "hired on approval"
    );
    a
}

#[tokio::test]
async fn a_decision_records_its_authorization_chain_and_is_idempotent() {
    let c = company().await;
    let id = hana_asks_to_hire_quinn_with_bobs_support(&c).await;
    let a = approve_from_a_notification_with_its_chain(&c, id).await;

    // The same decision again changes nothing; the opposite one is refused.
    let again = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert_eq!(again, a);
    let err = c
        .core
        .approvals
        .decide_shown(id, Decision::Reject, DecidedVia::Ui, None)
        .await
        .unwrap_err();
    assert!(matches!(
        err,
        ApprovalError::AlreadyDecided {
            status: ApprovalStatus::Approved,
            ..
        }
    ));
    let hires = c
        .core
        .org
        .all_employees()
        .await
        .unwrap()
        .into_iter()
        .filter(|e| e.name == "Quinn")
        .count();
    assert_eq!(hires, 1);
}

#[tokio::test]
async fn an_expired_approval_cannot_be_approved_and_the_requester_is_told() {
    let clock = start();
    let c = company_with(&clock, ToolsConfig::default()).await;
    let fin = staff(&c, "Fay", &["raise_budget"]).await;
    let before = c
        .core
        .org
        .company()
        .await
        .unwrap()
        .unwrap()
        .daily_budget_usd;
    let id = waiting(ask(&c, &fin, "raise_budget", json!({"amountUsd": 3.0})).await);
    let a = c.core.approvals.get(id).await.unwrap();
    assert_eq!(a.cost_estimate_usd, 3.0);
    assert_eq!(
        c.core.approvals.next_expiry().await.unwrap(),
        Some(clock.now() + TimeDelta::hours(24))
    );

    clock.advance(TimeDelta::hours(23));
    assert!(
        c.core
            .approvals
            .expire_due(clock.now())
            .await
            .unwrap()
            .is_empty()
    );
    clock.advance(TimeDelta::hours(2));
    let expired = c.core.approvals.expire_due(clock.now()).await.unwrap();
    assert_eq!(expired.len(), 1);
    assert_eq!(expired[0].status, ApprovalStatus::Expired);

    let err = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap_err();
    assert!(matches!(err, ApprovalError::Expired(_)), "{err}");
    assert_eq!(
        c.core
            .org
            .company()
            .await
            .unwrap()
            .unwrap()
            .daily_budget_usd,
        before
    );
    assert_eq!(status_of(&c, fin.id).await, EmployeeStatus::Idle);

    let chat = c.core.chats.boss_chat(fin.id).await.unwrap();
    let view = c.core.chats.view(chat.id).await.unwrap();
    assert!(
        view.messages
            .iter()
            .any(|m| m.sender_kind == cubicle_core::chat::SenderKind::System
                && m.text.contains("expired")),
        "{:?}",
        view.messages
    );
    let mail = c.core.mailbox.list(MailFilter::default()).await.unwrap();
    assert!(
        mail.items
            .iter()
            .any(|m| m.kind == MailKind::Escalation && m.employee_id == Some(fin.id))
    );
}

#[tokio::test]
async fn an_approval_past_its_time_expires_when_someone_tries_to_approve_it() {
    let clock = start();
    let c = company_with(&clock, ToolsConfig::default()).await;
    let fin = staff(&c, "Fay", &["raise_budget"]).await;
    let id = waiting(ask(&c, &fin, "raise_budget", json!({"amountUsd": 1.0})).await);
    clock.advance(TimeDelta::hours(25));
    let err = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Notification, None)
        .await
        .unwrap_err();
    assert!(matches!(err, ApprovalError::Expired(_)));
    let a = c.core.approvals.get(id).await.unwrap();
    assert_eq!(a.status, ApprovalStatus::Expired);
    assert_eq!(a.decided_via, Some(DecidedVia::Policy));
}

#[tokio::test]
async fn a_former_employee_can_no_longer_use_tools() {
    let c = company().await;
    let alice = staff(&c, "Alice", &["write_file"]).await;
    c.core
        .org
        .fire(FireEmployee {
            employee_id: alice.id,
        })
        .await
        .unwrap();
    let out = ask(
        &c,
        &alice,
        "write_file",
        json!({"path": "a.txt", "content": "x"}),
    )
    .await;
    assert!(matches!(out, CallOutcome::Refused(_)));
    assert!(!workspace(&c).join("a.txt").exists());
}

// The same scenarios on PostgreSQL, each company on a fresh database of its own
// (skipped, with a line saying so, when CUBICLE_TEST_PG_URL is unset).

#[test]
fn twenty_concurrent_approvals_post_the_webhook_exactly_once_on_postgres() {
    crate::pg::on_postgres(twenty_concurrent_approvals_post_the_webhook_exactly_once);
}

#[test]
fn the_webhook_receives_the_slack_payload_only_after_approval_on_postgres() {
    crate::pg::on_postgres(the_webhook_receives_the_slack_payload_only_after_approval);
}

#[test]
fn a_decision_records_its_authorization_chain_and_is_idempotent_on_postgres() {
    crate::pg::on_postgres(a_decision_records_its_authorization_chain_and_is_idempotent);
}

#[test]
fn an_approval_decided_on_an_attached_desktop_runs_once_on_the_server_on_postgres() {
    crate::pg::on_postgres(
        on_server::an_approval_decided_on_an_attached_desktop_runs_once_on_the_server,
    );
}
