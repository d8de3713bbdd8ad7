use cubicle_llm::{CompletionRequest, FinishReason, LlmClient, LlmError, StreamEvent, Usage};
use serde_json::json;
use wiremock::matchers::{body_partial_json, header, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::util::*;

#[tokio::test]
async fn complete_moves_system_to_the_top_and_defaults_max_tokens() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/messages"))
        .and(header("x-api-key", "sk-ant-test"))
        .and(header("anthropic-version", "2023-06-01"))
        .and(body_partial_json(json!({
            "model": "test-model",
            "max_tokens": 1024,
            "system": [{"type": "text", "text": "You are Ann, an engineer.",
                        "cache_control": {"type": "ephemeral"}}],
            "messages": [{"role": "user", "content": "Status?"}],
            "stop_sequences": ["END"]
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(message("All green.")))
        .expect(1)
        .mount(&server)
        .await;

    let req = CompletionRequest {
        stop: vec!["END".into()],
        ..ask("Status?")
    };
    let resp = anthropic(&server).complete(req).await.unwrap();

    assert_eq!(resp.text, "All green.");
    assert_eq!(
        resp.usage,
        Usage {
            input_tokens: 21,
            output_tokens: 9,
            ..Usage::default()
        }
    );
    assert_eq!(resp.finish_reason, FinishReason::Stop);
    let body = &request_bodies(&server).await[0];
    assert_eq!(
        body["messages"].as_array().unwrap().len(),
        1,
        "no system message left in messages"
    );
}

fn event(name: &'static str, data: serde_json::Value) -> (&'static str, String) {
    (name, data.to_string())
}

fn opening() -> Vec<(&'static str, String)> {
    vec![
        event(
            "message_start",
            json!({"type": "message_start", "message": {
            "id": "msg_1", "type": "message", "role": "assistant", "content": [], "model": "claude-test",
            "usage": {"input_tokens": 25, "output_tokens": 1}}}),
        ),
        event(
            "content_block_start",
            json!({"type": "content_block_start", "index": 0,
            "content_block": {"type": "text", "text": ""}}),
        ),
        event("ping", json!({"type": "ping"})),
    ]
}

fn delta(text: &str) -> (&'static str, String) {
    event(
        "content_block_delta",
        json!({"type": "content_block_delta", "index": 0,
        "delta": {"type": "text_delta", "text": text}}),
    )
}

#[tokio::test]
async fn stream_yields_deltas_then_usage_and_stop_reason() {
    let server = MockServer::start().await;
    let mut events = opening();
    events.extend([
        delta("Shipping "),
        delta("today."),
        event("content_block_stop", json!({"type": "content_block_stop", "index": 0})),
        event("message_delta", json!({"type": "message_delta",
            "delta": {"stop_reason": "max_tokens", "stop_sequence": null}, "usage": {"output_tokens": 15}})),
        event("message_stop", json!({"type": "message_stop"})),
    ]);
    Mock::given(path("/v1/messages"))
        .and(body_partial_json(json!({"stream": true})))
        .respond_with(sse(&events))
        .expect(1)
        .mount(&server)
        .await;

    let items = drain(anthropic(&server).stream(ask("Plan?")).await.unwrap()).await;
    let items: Vec<StreamEvent> = items.into_iter().map(Result::unwrap).collect();
    assert_eq!(
        items,
        vec![
            StreamEvent::Delta("Shipping ".into()),
            StreamEvent::Delta("today.".into()),
            StreamEvent::Done {
                usage: Usage {
                    input_tokens: 25,
                    output_tokens: 15,
                    ..Usage::default()
                },
                finish_reason: FinishReason::Length
            },
        ]
    );
}

#[tokio::test]
async fn a_stream_without_message_stop_is_cut() {
    let server = MockServer::start().await;
    let mut events = opening();
    events.push(delta("Half an"));
    Mock::given(path("/v1/messages"))
        .respond_with(sse(&events))
        .mount(&server)
        .await;

    let items = drain(anthropic(&server).stream(ask("Plan?")).await.unwrap()).await;
    assert!(matches!(&items[0], Ok(StreamEvent::Delta(t)) if t == "Half an"));
    assert!(matches!(items[1], Err(LlmError::StreamCut)));
    assert_eq!(items.len(), 2);
}

#[tokio::test]
async fn an_overloaded_error_event_is_retryable() {
    let server = MockServer::start().await;
    let mut events = opening();
    events.push(event(
        "error",
        json!({"type": "error",
        "error": {"type": "overloaded_error", "message": "Overloaded"}}),
    ));
    Mock::given(path("/v1/messages"))
        .respond_with(sse(&events))
        .mount(&server)
        .await;

    let items = drain(anthropic(&server).stream(ask("Plan?")).await.unwrap()).await;
    let err = items.into_iter().find_map(Result::err).unwrap();
    assert!(matches!(err, LlmError::Http { status: 529, .. }), "{err:?}");
    assert!(err.is_retryable());
}

#[tokio::test]
async fn a_529_status_is_retryable_http() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/messages"))
        .respond_with(
            ResponseTemplate::new(529).set_body_json(json!({"type": "error",
            "error": {"type": "overloaded_error", "message": "Overloaded"}})),
        )
        .mount(&server)
        .await;
    let err = anthropic(&server).complete(ask("x")).await.unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 529, ref body } if body.contains("Overloaded")));
    assert!(err.is_retryable());
}
