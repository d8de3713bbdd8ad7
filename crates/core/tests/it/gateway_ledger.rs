//! What the ledger shows of the guard rails: the fate of each structured
//! answer, and the breaker on the company's clock.

use std::sync::Arc;
use std::time::Duration;

use cubicle_core::gateway::{CallContext, GatewayConfig, GatewayError, Purpose, StructuredOutput};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::gateway::{
    NoSecrets, add_provider, chat, company, company_on, fast_config, ledger, req, route,
};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema, PartialEq)]
struct Verdict {
    ok: bool,
    reason: String,
}

#[tokio::test]
async fn structured_calls_are_typed_and_every_attempt_is_metered() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("{\"ok\": \"maybe\"}", 10, 5)))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat(
            "```json\n{\"ok\": true, \"reason\": \"fine\",}\n```",
            20,
            8,
        )))
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let reply = h
        .core
        .gateway
        .complete_json::<Verdict>(&CallContext::new(Purpose::Intent), route(&id), req("judge"))
        .await
        .unwrap();
    assert_eq!(
        reply.value,
        Verdict {
            ok: true,
            reason: "fine".into()
        }
    );
    let rows = ledger(&h).await;
    assert_eq!(
        rows.iter().map(|r| r.attempt).collect::<Vec<_>>(),
        vec![1, 2]
    );
    assert_eq!(rows[1].input_tokens, 20);
    // What became of each answer: the first reported back, the second repaired.
    assert_eq!(
        rows.iter().map(|r| r.output).collect::<Vec<_>>(),
        vec![
            Some(StructuredOutput::Rejected),
            Some(StructuredOutput::Repaired)
        ]
    );
}

#[tokio::test]
async fn an_answer_still_unusable_after_the_feedback_is_dropped_and_the_ledger_says_so() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("{\"ok\": \"maybe\"}", 10, 5)))
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let err = h
        .core
        .gateway
        .complete_json::<Verdict>(&CallContext::new(Purpose::Intent), route(&id), req("judge"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "invalid_output");
    let rows = ledger(&h).await;
    assert_eq!(
        rows.iter().map(|r| r.output).collect::<Vec<_>>(),
        vec![
            Some(StructuredOutput::Rejected),
            Some(StructuredOutput::Dropped)
        ]
    );
    // An unusable answer says nothing about the provider's health: no breaker change.
    assert!(rows.iter().all(|r| r.attempt > 0));
}

#[tokio::test]
async fn on_a_manual_clock_the_breaker_reopens_after_thirty_simulated_seconds() {
    // In a simulated run the breaker's 30 s are simulated seconds: it used to wait 30
    // real seconds, hours of simulated work refused meanwhile (found by `bench soak`).
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .up_to_n_times(12)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("back", 1, 1)))
        .mount(&server)
        .await;
    let clock = cubicle_core::clock::ManualClock::new(chrono::Utc::now());
    let config = GatewayConfig {
        backoff: vec![Duration::from_millis(1); 3],
        breaker_open_for: Duration::from_secs(30),
        ..fast_config()
    };
    let h = company_on(config, None, Arc::new(NoSecrets), clock.shared()).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let gw = &h.core.gateway;
    let ctx = CallContext::new(Purpose::Thought);
    for _ in 0..3 {
        assert!(gw.complete(&ctx, route(&id), req("x")).await.is_err());
    }
    clock.advance(chrono::TimeDelta::seconds(29));
    let err = gw.complete(&ctx, route(&id), req("x")).await.unwrap_err();
    assert!(matches!(err, GatewayError::BreakerOpen { .. }), "{err}");
    // No real time passes: only the company's clock moves.
    clock.advance(chrono::TimeDelta::seconds(1));
    let reply = gw.complete(&ctx, route(&id), req("x")).await.unwrap();
    assert_eq!(reply.value.text, "back");
}
