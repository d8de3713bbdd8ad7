use std::time::Duration;

use cubicle_llm::{HttpConfig, LlmClient, LlmError, OpenAiCompatible, StreamEvent};
use serde_json::json;
use wiremock::{MockServer, ResponseTemplate};

use super::util::*;

#[tokio::test]
async fn a_429_carries_the_retry_after_delay() {
    let server = MockServer::start().await;
    mount_chat(
        &server,
        ResponseTemplate::new(429).insert_header("Retry-After", "7"),
    )
    .await;

    let err = openai(&server, caps(true, true))
        .complete(ask("x"))
        .await
        .unwrap_err();

    assert!(
        matches!(err, LlmError::RateLimited { retry_after: Some(d) } if d == Duration::from_secs(7)),
        "{err:?}"
    );
    assert!(err.is_retryable());
    assert_eq!(err.code(), "rate_limited");
}

#[tokio::test]
async fn a_500_is_retryable_http_with_the_body() {
    let server = MockServer::start().await;
    let body = format!("upstream exploded {}", "x".repeat(2000));
    mount_chat(&server, ResponseTemplate::new(500).set_body_string(body)).await;

    let err = openai(&server, caps(true, true))
        .complete(ask("x"))
        .await
        .unwrap_err();

    match &err {
        LlmError::Http { status: 500, body } => {
            assert!(body.starts_with("upstream exploded"));
            assert!(body.chars().count() <= 501, "error bodies are truncated");
        }
        other => panic!("expected Http 500, got {other:?}"),
    }
    assert!(err.is_retryable());
}

#[tokio::test]
async fn a_4xx_is_not_retryable() {
    let server = MockServer::start().await;
    mount_chat(
        &server,
        ResponseTemplate::new(400).set_body_json(json!({"error": {"message": "bad model"}})),
    )
    .await;
    let err = openai(&server, caps(true, true))
        .complete(ask("x"))
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Http { status: 400, ref body } if body.contains("bad model")));
    assert!(!err.is_retryable());
}

#[tokio::test]
async fn a_server_slower_than_the_timeout_times_out() {
    let server = MockServer::start().await;
    let slow = ResponseTemplate::new(200)
        .set_body_json(chat("late"))
        .set_delay(Duration::from_secs(5));
    mount_chat(&server, slow).await;
    let client = OpenAiCompatible::new(config(
        &server,
        caps(true, true),
        None,
        Duration::from_millis(300),
    ))
    .unwrap();

    let err = client.complete(ask("x")).await.unwrap_err();
    assert!(matches!(err, LlmError::Timeout), "{err:?}");

    let err = client.stream(ask("x")).await.err().unwrap();
    assert!(matches!(err, LlmError::Timeout), "{err:?}");
}

#[tokio::test]
async fn a_stream_cut_midway_errors_after_the_deltas() {
    let server = MockServer::start().await;
    mount_chat(
        &server,
        sse(&[openai_chunk("The plan ", None), openai_chunk("is to", None)]),
    )
    .await;

    let items = drain(
        openai(&server, caps(true, true))
            .stream(ask("x"))
            .await
            .unwrap(),
    )
    .await;

    assert_eq!(items.len(), 3);
    assert!(matches!(&items[0], Ok(StreamEvent::Delta(t)) if t == "The plan "));
    assert!(matches!(&items[1], Ok(StreamEvent::Delta(t)) if t == "is to"));
    assert!(matches!(items[2], Err(LlmError::StreamCut)));
    assert!(items[2].as_ref().unwrap_err().is_retryable());
}

#[tokio::test]
async fn a_garbage_body_is_a_bad_response() {
    let server = MockServer::start().await;
    mount_chat(
        &server,
        ResponseTemplate::new(200).set_body_string("<html>Gateway page</html>"),
    )
    .await;
    let err = openai(&server, caps(true, true))
        .complete(ask("x"))
        .await
        .unwrap_err();
    assert!(
        matches!(err, LlmError::BadResponse(ref m) if m.contains("Gateway page")),
        "{err:?}"
    );
    assert!(!err.is_retryable());

    let server = MockServer::start().await;
    mount_chat(
        &server,
        ResponseTemplate::new(200).set_body_json(json!({"object": "list", "data": []})),
    )
    .await;
    let err = openai(&server, caps(true, true))
        .complete(ask("x"))
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::BadResponse(_)), "{err:?}");
}

#[tokio::test]
async fn garbage_inside_a_stream_is_a_bad_response() {
    let server = MockServer::start().await;
    mount_chat(
        &server,
        sse(&[openai_chunk("ok", None), ("", "{not json".into())]),
    )
    .await;
    let items = drain(
        openai(&server, caps(true, true))
            .stream(ask("x"))
            .await
            .unwrap(),
    )
    .await;
    assert!(
        matches!(items.last(), Some(Err(LlmError::BadResponse(_)))),
        "{items:?}"
    );
}

#[tokio::test]
async fn an_error_object_in_a_200_is_a_provider_error() {
    let server = MockServer::start().await;
    let body = json!({"error": {"message": "model overloaded, try later", "code": "1234"}});
    mount_chat(&server, ResponseTemplate::new(200).set_body_json(body)).await;
    let err = openai(&server, caps(true, true))
        .complete(ask("x"))
        .await
        .unwrap_err();
    assert!(
        matches!(err, LlmError::Provider(ref m) if m == "model overloaded, try later"),
        "{err:?}"
    );
}

#[tokio::test]
async fn an_unreachable_server_is_a_transport_error() {
    let server = MockServer::start().await;
    // wiremock pools its servers, so a closed port comes from a listener we drop ourselves.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let cfg = HttpConfig {
        base_url: format!("http://127.0.0.1:{port}/v1"),
        ..config(&server, caps(true, true), None, TIMEOUT)
    };
    let err = OpenAiCompatible::new(cfg)
        .unwrap()
        .complete(ask("x"))
        .await
        .unwrap_err();
    assert!(matches!(err, LlmError::Transport(_)), "{err:?}");
    assert!(err.is_retryable());
}
