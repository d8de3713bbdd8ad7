//! Deciding several approvals at once (the queue's "approve selected"): the batch's
//! claims are one transaction, and every approved action runs once however the batches
//! and the single decisions race.

use cubicle_core::approvals::{
    ApprovalError, ApprovalStatus, DecideApproval, DecideApprovals, DecidedVia, Decision,
    DecisionResult,
};
use cubicle_store::ConnectionTrait;
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{ask, company, runs_of, staff, waiting, workspace};
use crate::util::TestCompany;

/// Approving `ids` as their cards show them now.
async fn approve_shown(c: &TestCompany, ids: &[i32]) -> DecideApprovals {
    let mut decisions = Vec::new();
    for id in ids {
        decisions.push(DecideApproval {
            approval_id: *id,
            decision: Decision::Approve,
            note: None,
            args_hash: c.core.approvals.get(*id).await.unwrap().args_hash,
        });
    }
    DecideApprovals { decisions }
}

async fn status(c: &TestCompany, id: i32) -> ApprovalStatus {
    c.core.approvals.get(id).await.unwrap().status
}

// SQLite only: the refusing trigger is written in SQLite's dialect.
#[tokio::test]
async fn a_batch_whose_last_claim_fails_decides_nothing_and_runs_nothing() {
    let c = company().await;
    let dev = staff(&c, "Dev", &["write_file"]).await;
    let mut ids = Vec::new();
    for name in ["a.sh", "b.sh", "c.sh"] {
        let args = json!({"path": format!("employees/{}/{name}", dev.id), "content": "echo ok"});
        ids.push(waiting(ask(&c, &dev, "write_file", args).await));
    }
    let batch = approve_shown(&c, &ids).await;
    // The store refuses the claim of the batch's last approval, after the first two
    // were claimed in the same transaction: they must roll back with it.
    let db = c.db().await;
    db.execute_unprepared(&format!(
        "CREATE TRIGGER refuse_claim BEFORE UPDATE OF status ON approval WHEN NEW.id = {} \
         BEGIN SELECT RAISE(ABORT, 'claim refused'); END;",
        ids[2]
    ))
    .await
    .unwrap();
    let err = c
        .core
        .approvals
        .decide_all(batch.clone(), DecidedVia::Ui)
        .await
        .unwrap_err();
    assert!(
        matches!(&err, ApprovalError::Storage(e) if e.to_string().contains("claim refused")),
        "{err}"
    );
    for id in &ids {
        assert_eq!(
            status(&c, *id).await,
            ApprovalStatus::Waiting,
            "approval {id}"
        );
    }
    assert_eq!(
        runs_of(&c, &dev).await,
        0,
        "an action of a batch that failed ran"
    );
    assert!(
        !workspace(&c)
            .join(format!("employees/{}/a.sh", dev.id))
            .exists()
    );

    // Once the store takes the claims again, the same batch is decided whole, each
    // action run once.
    db.execute_unprepared("DROP TRIGGER refuse_claim")
        .await
        .unwrap();
    let results = c
        .core
        .approvals
        .decide_all(batch, DecidedVia::Ui)
        .await
        .unwrap();
    assert!(
        results.iter().all(|r| matches!(r, DecisionResult::Decided { approval } if approval.status == ApprovalStatus::Approved)),
        "{results:?}"
    );
    assert_eq!(runs_of(&c, &dev).await, 3);
    for name in ["a.sh", "b.sh", "c.sh"] {
        assert!(
            workspace(&c)
                .join(format!("employees/{}/{name}", dev.id))
                .exists()
        );
    }
}

/// Two batches land at once over the same approvals in opposite orders (one naming an
/// approval twice), while a notification approves one of them: every webhook is posted
/// exactly once, and each decider hears it approved.
async fn racing_batches_post_each_webhook_once() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .respond_with(ResponseTemplate::new(200).set_body_string("ok"))
        .expect(3)
        .mount(&server)
        .await;
    let c = company().await;
    c.allow_webhooks_to(&server.uri()).await;
    let ops = staff(&c, "Olga", &["post_webhook"]).await;
    let mut ids = Vec::new();
    for text in ["one", "two", "three"] {
        let args = json!({"url": format!("{}/hook", server.uri()), "text": text, "style": "slack"});
        ids.push(waiting(ask(&c, &ops, "post_webhook", args).await));
    }
    let first = approve_shown(&c, &[ids[0], ids[1], ids[0]]).await;
    let second = approve_shown(&c, &[ids[2], ids[1], ids[0]]).await;
    let single = approve_shown(&c, &[ids[1]]).await.decisions.remove(0);
    let (a, b, one) = (
        c.core.approvals.clone(),
        c.core.approvals.clone(),
        c.core.approvals.clone(),
    );
    let (first, second, single) = tokio::join!(
        tokio::spawn(async move { a.decide_all(first, DecidedVia::Ui).await }),
        tokio::spawn(async move { b.decide_all(second, DecidedVia::Ui).await }),
        tokio::spawn(async move { one.decide(single, DecidedVia::Notification).await }),
    );
    for r in first
        .unwrap()
        .unwrap()
        .iter()
        .chain(&second.unwrap().unwrap())
    {
        assert!(
            matches!(r, DecisionResult::Decided { approval } if approval.status == ApprovalStatus::Approved),
            "{r:?}"
        );
    }
    assert_eq!(single.unwrap().unwrap().status, ApprovalStatus::Approved);
    assert_eq!(server.received_requests().await.unwrap().len(), 3);
    server.verify().await;
    assert_eq!(runs_of(&c, &ops).await, 3);
}

// Several worker threads, so the deciders really race.
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_batches_and_a_notification_run_each_approved_action_once() {
    racing_batches_post_each_webhook_once().await;
}

#[test]
fn racing_batches_and_a_notification_run_each_approved_action_once_on_postgres() {
    crate::pg::on_postgres_threads(racing_batches_post_each_webhook_once());
}
