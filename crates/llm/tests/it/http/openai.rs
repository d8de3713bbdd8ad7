use cubicle_llm::{CompletionRequest, FinishReason, LlmClient, StreamEvent, Usage};
use serde_json::json;
use wiremock::matchers::{body_partial_json, method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::util::*;

#[tokio::test]
async fn complete_sends_the_request_and_reads_text_usage_and_reason() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(body_partial_json(json!({
            "model": "test-model",
            "messages": [
                {"role": "system", "content": "You are Ann, an engineer."},
                {"role": "user", "content": "Say hi"}
            ],
            "temperature": 0.5,
            "max_tokens": 64,
            "stop": ["\n\n"]
        })))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("Hi boss!")))
        .expect(1)
        .mount(&server)
        .await;

    let req = CompletionRequest {
        temperature: Some(0.5),
        max_tokens: Some(64),
        stop: vec!["\n\n".into()],
        ..ask("Say hi")
    };
    let resp = openai(&server, caps(true, true))
        .complete(req)
        .await
        .unwrap();

    assert_eq!(resp.text, "Hi boss!");
    assert_eq!(
        resp.usage,
        Usage {
            input_tokens: 11,
            output_tokens: 7,
            ..Usage::default()
        }
    );
    assert_eq!(resp.finish_reason, FinishReason::Stop);
    assert_eq!(resp.model, "test-model-0613");
    let body = &request_bodies(&server).await[0];
    assert!(body.get("response_format").is_none());
    assert!(body.get("stream").is_none());
}

#[tokio::test]
async fn an_explicit_model_wins_over_the_default_and_length_is_reported() {
    let server = MockServer::start().await;
    Mock::given(body_partial_json(json!({"model": "big-model"})))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat_with("cut", "length")))
        .expect(1)
        .mount(&server)
        .await;
    let req = CompletionRequest {
        model: "big-model".into(),
        ..ask("Write a novel")
    };
    let resp = openai(&server, caps(false, false))
        .complete(req)
        .await
        .unwrap();
    assert_eq!(resp.finish_reason, FinishReason::Length);
}

#[tokio::test]
async fn stream_yields_deltas_in_order_then_usage() {
    let server = MockServer::start().await;
    let usage =
        json!({"id": "c", "choices": [], "usage": {"prompt_tokens": 9, "completion_tokens": 3}});
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .and(body_partial_json(
            json!({"stream": true, "stream_options": {"include_usage": true}}),
        ))
        .respond_with(sse(&[
            openai_chunk("", None),
            openai_chunk("Hel", None),
            openai_chunk("lo, ", None),
            openai_chunk("boss", Some("stop")),
            ("", usage.to_string()),
            ("", "[DONE]".into()),
        ]))
        .expect(1)
        .mount(&server)
        .await;

    let stream = openai(&server, caps(true, true))
        .stream(ask("Greet me"))
        .await
        .unwrap();
    let events: Vec<StreamEvent> = drain(stream)
        .await
        .into_iter()
        .map(Result::unwrap)
        .collect();

    assert_eq!(
        events,
        vec![
            StreamEvent::Delta("Hel".into()),
            StreamEvent::Delta("lo, ".into()),
            StreamEvent::Delta("boss".into()),
            StreamEvent::Done {
                usage: Usage {
                    input_tokens: 9,
                    output_tokens: 3,
                    ..Usage::default()
                },
                finish_reason: FinishReason::Stop
            },
        ]
    );
}

#[tokio::test]
async fn a_stream_with_a_finish_reason_but_no_done_marker_still_completes() {
    let server = MockServer::start().await;
    mount_chat(
        &server,
        sse(&[openai_chunk("ok", None), openai_chunk("", Some("length"))]),
    )
    .await;
    let events = drain(
        openai(&server, caps(false, false))
            .stream(ask("x"))
            .await
            .unwrap(),
    )
    .await;
    assert_eq!(events.len(), 2);
    assert!(matches!(
        events[1],
        Ok(StreamEvent::Done {
            finish_reason: FinishReason::Length,
            ..
        })
    ));
}

#[tokio::test]
async fn json_object_mode_is_sent_when_schema_mode_is_not_available() {
    let server = MockServer::start().await;
    Mock::given(body_partial_json(
        json!({"response_format": {"type": "json_object"}}),
    ))
    .respond_with(ResponseTemplate::new(200).set_body_json(chat("{}")))
    .expect(1)
    .mount(&server)
    .await;
    let req = CompletionRequest {
        json_schema: Some(cubicle_llm::JsonSchemaSpec {
            name: "x".into(),
            schema: json!({"type": "object"}),
        }),
        ..ask("json please")
    };
    openai(&server, caps(false, true))
        .complete(req)
        .await
        .unwrap();
}
