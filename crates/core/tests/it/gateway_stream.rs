//! Streaming through the gateway: budgeted, metered when the stream ends, retried while
//! opening, against a scripted OpenAI-compatible server.

use std::time::Duration;

use cubicle_core::gateway::{CallContext, Purpose};
use cubicle_core::org::SetBudget;
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::gateway::{Harness, add_provider, company, fast_config, ledger_eventually, req, route};

pub fn sse_body(parts: &[&str], done: bool) -> ResponseTemplate {
    let mut body = String::new();
    for (i, p) in parts.iter().enumerate() {
        let finish = if done && i + 1 == parts.len() {
            json!("stop")
        } else {
            Value::Null
        };
        let chunk = json!({"id": "c", "object": "chat.completion.chunk", "model": "m1",
            "choices": [{"index": 0, "delta": {"content": p}, "finish_reason": finish}]});
        body.push_str(&format!("data: {chunk}\n\n"));
    }
    if done {
        let usage = json!({"id": "c", "object": "chat.completion.chunk", "model": "m1", "choices": [],
            "usage": {"prompt_tokens": 1_000, "completion_tokens": 500}});
        body.push_str(&format!("data: {usage}\n\ndata: [DONE]\n\n"));
    }
    ResponseTemplate::new(200).set_body_raw(body, "text/event-stream")
}

async fn drain(stream: cubicle_llm::CompletionStream) -> (String, Option<cubicle_llm::LlmError>) {
    use futures::StreamExt;
    let mut text = String::new();
    let mut stream = stream;
    while let Some(item) = stream.next().await {
        match item {
            Ok(cubicle_llm::StreamEvent::Delta(d)) => text.push_str(&d),
            Ok(cubicle_llm::StreamEvent::Done { .. }) => {}
            Err(e) => return (text, Some(e)),
        }
    }
    (text, None)
}

/// One streamed call to a provider whose server answers `body`, priced at `price`.
async fn stream_once(
    body: ResponseTemplate,
    price: (f64, f64),
) -> (Harness, String, Option<cubicle_llm::LlmError>) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(body)
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, price).await;
    let reply = h
        .core
        .gateway
        .stream(&CallContext::new(Purpose::Report), route(&id), req("hi"))
        .await
        .unwrap();
    let (text, err) = drain(reply.value).await;
    (h, text, err)
}

#[tokio::test]
async fn a_streamed_reply_is_budgeted_and_recorded_when_it_ends() {
    let (h, text, err) = stream_once(sse_body(&["Hel", "lo ", "boss"], true), (2.0, 8.0)).await;
    assert_eq!(text, "Hello boss");
    assert!(err.is_none());
    // The row is written by the stream's task right after the end: give it a moment.
    let rows = ledger_eventually(&h).await;
    assert_eq!(rows.len(), 1);
    assert_eq!(
        (rows[0].outcome, rows[0].input_tokens, rows[0].output_tokens),
        (cubicle_core::gateway::LedgerOutcome::Ok, 1_000, 500)
    );
    assert!((rows[0].cost_usd - 0.006).abs() < 1e-9);
}

#[tokio::test]
async fn a_stream_cut_mid_way_is_an_error_in_the_ledger() {
    let (h, text, err) = stream_once(sse_body(&["partial ", "answer"], false), (0.0, 0.0)).await;
    assert_eq!(text, "partial answer");
    assert_eq!(err.map(|e| e.code()), Some("stream_cut"));
    let rows = ledger_eventually(&h).await;
    assert_eq!(rows[0].outcome, cubicle_core::gateway::LedgerOutcome::Error);
}

#[tokio::test]
async fn opening_a_stream_is_retried_and_the_budget_applies() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(sse_body(&["ok"], true))
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (2.0, 8.0)).await;
    let reply = h
        .core
        .gateway
        .stream(&CallContext::new(Purpose::Report), route(&id), req("hi"))
        .await
        .unwrap();
    assert_eq!(drain(reply.value).await.0, "ok");
    h.core
        .org
        .set_budget(SetBudget {
            daily_budget_usd: 0.001,
        })
        .await
        .unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    let err = h
        .core
        .gateway
        .stream(&CallContext::new(Purpose::Report), route(&id), req("hi"))
        .await
        .err()
        .expect("over budget");
    assert_eq!(err.code(), "budget_exceeded");
}
