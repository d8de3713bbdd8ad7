//! Webhook SSRF: the model picks the URL. Only hosts the boss allowed, only public
//! addresses (checked after DNS, connected to as checked), no redirects, and nothing of
//! the answer but its status.

use crate::util::DecideShown;
use std::time::Duration;

use cubicle_core::app::CoreOptions;
use cubicle_core::approvals::{ApprovalsConfig, CallOutcome, DecidedVia, Decision};
use cubicle_core::tools::ToolsConfig;
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{ask, staff, waiting};
use crate::util::TestCompany;

/// A company as in production: no test escape for loopback webhooks.
async fn fenced() -> TestCompany {
    TestCompany::fenced(CoreOptions {
        approvals: ApprovalsConfig {
            tools: ToolsConfig {
                webhook_timeout: Duration::from_secs(3),
                ..ToolsConfig::default()
            },
            ..ApprovalsConfig::default()
        },
        ..CoreOptions::default()
    })
    .await
}

async fn answering(status: u16, body: &str) -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(status).set_body_string(body))
        .mount(&server)
        .await;
    server
}

/// The boss approves `url` (the host allowed, the request approved); the action's error.
async fn approved_post(c: &TestCompany, url: &str) -> Option<String> {
    c.allow_webhooks_to(url).await;
    let ops = staff(c, "Olga", &["post_webhook"]).await;
    let id = waiting(
        ask(c, &ops, "post_webhook", json!({"url": url, "text": "hi"}))
            .await
            .unwrap(),
    );
    let a = c
        .core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    a.error
}

#[tokio::test]
async fn a_webhook_to_loopback_is_refused_even_when_the_boss_allowed_and_approved_it() {
    let server = answering(200, "ok").await;
    let c = fenced().await;
    let err = approved_post(&c, &format!("{}/hook", server.uri())).await;
    let err = err.expect("refused");
    assert!(err.contains("loopback"), "{err}");
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_name_that_resolves_to_loopback_is_refused_after_resolution() {
    let server = answering(200, "ok").await;
    let port = server.address().port();
    let c = fenced().await;
    let err = approved_post(&c, &format!("http://localhost:{port}/hook")).await;
    let err = err.expect("refused");
    assert!(
        err.contains("localhost resolves to") && err.contains("loopback"),
        "{err}"
    );
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn the_cloud_metadata_address_is_refused_before_any_connection() {
    let c = fenced().await;
    let started = std::time::Instant::now();
    let err = approved_post(&c, "http://169.254.169.254/latest/meta-data/iam").await;
    let err = err.expect("refused");
    assert!(
        err.contains("169.254.169.254") && err.contains("link-local"),
        "{err}"
    );
    assert!(
        started.elapsed() < Duration::from_secs(3),
        "no connection was tried"
    );
    for private in [
        "http://10.0.0.8/hook",
        "http://[fd00::1]/hook",
        "http://[::ffff:127.0.0.1]:9/hook",
    ] {
        let c = fenced().await;
        let err = approved_post(&c, private).await.expect("refused");
        assert!(
            err.contains("webhooks only go to public addresses"),
            "{private}: {err}"
        );
    }
}

#[tokio::test]
async fn a_redirect_is_not_followed() {
    let inner = answering(200, "metadata").await;
    let outer = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .respond_with(
            ResponseTemplate::new(307).insert_header("location", format!("{}/steal", inner.uri())),
        )
        .mount(&outer)
        .await;
    // The test escape lets loopback through; everything else stays fenced.
    let c = TestCompany::new().await;
    c.allow_webhooks_to(&inner.uri()).await;
    let err = approved_post(&c, &format!("{}/hook", outer.uri())).await;
    let err = err.expect("refused");
    assert!(
        err.contains("307") && err.contains("redirects are not followed"),
        "{err}"
    );
    assert_eq!(outer.received_requests().await.unwrap().len(), 1);
    assert!(
        inner.received_requests().await.unwrap().is_empty(),
        "not followed"
    );
}

/// With only `allowed` on the boss's list, a post to a receiver on this machine is
/// refused when asked: nothing waits for the boss and nothing is sent.
async fn refused_when_asked_with_only(allowed: &str) {
    let server = answering(200, "ok").await;
    let c = TestCompany::new().await;
    c.allow_webhooks_to(allowed).await;
    let ops = staff(&c, "Olga", &["post_webhook"]).await;
    let outcome = ask(
        &c,
        &ops,
        "post_webhook",
        json!({"url": format!("{}/hook", server.uri()), "text": "hi"}),
    )
    .await
    .unwrap();
    let CallOutcome::Refused(why) = outcome else {
        panic!("refused when asked: {outcome:?}");
    };
    assert!(why.contains("not on the boss's list"), "{why}");
    assert_eq!(c.core.approvals.pending_count().await.unwrap(), 0);
    assert!(server.received_requests().await.unwrap().is_empty());
}

#[tokio::test]
async fn a_host_not_on_the_allowlist_is_refused_when_asked_and_never_waits() {
    refused_when_asked_with_only("https://hooks.slack.com").await;
}

/// The boss allowed a host, not every service on it: a URL to another port of that host
/// (its SSH, database or admin port) is refused when asked, and nothing is sent.
#[tokio::test]
async fn a_host_allowed_without_a_port_does_not_open_its_other_ports() {
    refused_when_asked_with_only("http://127.0.0.1").await;
}

#[tokio::test]
async fn the_webhook_answer_never_reaches_the_model_or_the_log() {
    let server = answering(200, "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI").await;
    let c = TestCompany::new().await;
    assert!(
        approved_post(&c, &format!("{}/hook", server.uri()))
            .await
            .is_none()
    );
    let runs = c.core.approvals.tool_calls(None).await.unwrap();
    let ran = runs
        .iter()
        .find(|t| t.outcome == cubicle_core::approvals::CallLogOutcome::Ok)
        .expect("it ran");
    assert_eq!(ran.output.as_deref(), Some(r#"{"status":200}"#));
    let failing = answering(500, "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI").await;
    let c = TestCompany::new().await;
    let err = approved_post(&c, &format!("{}/hook", failing.uri()))
        .await
        .unwrap();
    assert!(err.contains("500") && !err.contains("AWS_SECRET"), "{err}");
}

#[tokio::test]
async fn a_bundle_keeps_where_a_webhook_went_but_not_its_secret_and_it_cannot_run_after_import() {
    let c = TestCompany::new().await;
    let secret = "https://hooks.slack.com/services/T0/B0/xoxb-bearer-secret";
    c.allow_webhooks_to(secret).await;
    let ops = staff(&c, "Olga", &["post_webhook"]).await;
    waiting(
        ask(
            &c,
            &ops,
            "post_webhook",
            json!({"url": secret, "text": "hi"}),
        )
        .await
        .unwrap(),
    );
    let bundle = cubicle_core::bundle::export(&c.core).await.unwrap();
    let text = cubicle_core::bundle::to_json(&bundle).unwrap();
    assert!(
        !text.contains("xoxb-bearer-secret"),
        "the token is not exported"
    );
    assert!(
        text.contains("https://hooks.slack.com/…"),
        "where it went is kept"
    );

    let fresh = crate::bundle::empty_db(cubicle_core::clock::SystemClock::shared()).await;
    cubicle_core::bundle::import(&fresh.core, bundle)
        .await
        .unwrap();
    let waiting = fresh
        .core
        .approvals
        .list(cubicle_core::approvals::ApprovalFilter::Pending)
        .await
        .unwrap();
    let a = fresh
        .core
        .approvals
        .decide_shown(waiting[0].id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    // Sealed anew on import, it can be decided here; what it carries is the redacted
    // URL, which goes nowhere.
    let error = a.error.clone().expect("never posted");
    assert!(error.contains("hooks.slack.com"), "{error}");
    assert!(a.result.is_none(), "{a:?}");
}
