use std::time::Duration;

use cubicle_llm::{Anthropic, LlmClient, LlmError, OpenAiCompatible, client_for, preset};
use serde_json::json;
use wiremock::matchers::{header, method};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::util::*;

const KEY: &str = "sk-test-SECRET-4242";

fn assert_hidden(err: &LlmError) {
    for shown in [err.to_string(), format!("{err:?}")] {
        assert!(!shown.contains(KEY), "the key leaked: {shown}");
    }
}

#[tokio::test]
async fn the_key_is_sent_as_a_bearer_header_and_never_shown_in_errors() {
    let server = MockServer::start().await;
    // Providers echo the key they rejected; the error must not repeat it.
    Mock::given(method("POST"))
        .and(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(ResponseTemplate::new(401).set_body_json(json!({
            "error": {"message": format!("Incorrect API key provided: {KEY}")}})))
        .expect(1)
        .mount(&server)
        .await;
    let client =
        OpenAiCompatible::new(config(&server, caps(true, true), Some(KEY), TIMEOUT)).unwrap();

    let err = client.complete(ask("x")).await.unwrap_err();

    assert!(
        matches!(err, LlmError::Http { status: 401, ref body } if body.contains("***")),
        "{err:?}"
    );
    assert_hidden(&err);
    assert!(!format!("{client:?}").contains(KEY));
}

#[tokio::test]
async fn an_echoed_key_in_a_200_error_or_a_stream_is_scrubbed_too() {
    let server = MockServer::start().await;
    let body = json!({"error": {"message": format!("key {KEY} has no quota")}});
    mount_chat(
        &server,
        ResponseTemplate::new(200).set_body_json(body.clone()),
    )
    .await;
    let client =
        OpenAiCompatible::new(config(&server, caps(true, true), Some(KEY), TIMEOUT)).unwrap();
    assert_hidden(&client.complete(ask("x")).await.unwrap_err());

    let server = MockServer::start().await;
    mount_chat(&server, sse(&[("", body.to_string())])).await;
    let client =
        OpenAiCompatible::new(config(&server, caps(true, true), Some(KEY), TIMEOUT)).unwrap();
    let items = drain(client.stream(ask("x")).await.unwrap()).await;
    let err = items.into_iter().find_map(Result::err).unwrap();
    assert!(matches!(err, LlmError::Provider(_)));
    assert_hidden(&err);

    let server = MockServer::start().await;
    mount_chat(
        &server,
        ResponseTemplate::new(200).set_body_string(format!("not json {KEY}")),
    )
    .await;
    let client =
        OpenAiCompatible::new(config(&server, caps(true, true), Some(KEY), TIMEOUT)).unwrap();
    assert_hidden(&client.complete(ask("x")).await.unwrap_err());
}

#[tokio::test]
async fn anthropic_sends_the_key_as_x_api_key_and_hides_it() {
    let server = MockServer::start().await;
    Mock::given(header("x-api-key", KEY))
        .respond_with(ResponseTemplate::new(401).set_body_json(json!({"type": "error",
            "error": {"type": "authentication_error", "message": format!("invalid x-api-key {KEY}")}})))
        .expect(1)
        .mount(&server)
        .await;
    let client = Anthropic::new(config(&server, caps(false, false), Some(KEY), TIMEOUT)).unwrap();

    let err = client.complete(ask("x")).await.unwrap_err();

    assert!(matches!(err, LlmError::Http { status: 401, .. }));
    assert_hidden(&err);
}

#[tokio::test]
async fn a_preset_with_a_base_url_override_reaches_the_server_with_the_key() {
    let server = MockServer::start().await;
    Mock::given(header("authorization", format!("Bearer {KEY}").as_str()))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("hello")))
        .expect(1)
        .mount(&server)
        .await;
    let base = format!("{}/v1", server.uri());
    let client = client_for(
        preset("deepseek").unwrap(),
        Some(&base),
        Some(cubicle_llm::ApiKey::new(KEY)),
        Duration::from_secs(5),
    )
    .unwrap();

    assert_eq!(client.provider_id(), "deepseek");
    assert_eq!(client.complete(ask("x")).await.unwrap().text, "hello");
    let body = &request_bodies(&server).await[0];
    assert_eq!(body["model"], json!("deepseek-chat"));
}
