//! Structured output in the form each provider accepts: a refused form falls back at once
//! and is remembered (in memory and in the settings, so a restart does not ask again),
//! and cached prompt tokens reach the ledger.

use std::sync::Arc;

use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::gateway::{CallContext, Purpose};
use serde_json::{Value, json};
use wiremock::matchers::{body_partial_json, method};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::gateway::{NoSecrets, add_provider, chat, company, fast_config, ledger, req, route};

#[derive(Debug, serde::Deserialize, schemars::JsonSchema, PartialEq)]
struct Verdict {
    ok: bool,
    reason: String,
}

const GOOD: &str = r#"{"ok": true, "reason": "fine"}"#;

/// A server like llama-cpp-python's: `json_schema` is a 500 that names `response_format`;
/// `json_object` with a schema is fine.
async fn llama_cpp_python_like() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(body_partial_json(
        json!({"response_format": {"type": "json_schema"}}),
    ))
    .respond_with(ResponseTemplate::new(500).set_body_json(json!({"detail": [{
            "loc": ["body", "response_format", "type"],
            "msg": "Input should be 'text' or 'json_object'"}]})))
    .mount(&server)
    .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat(GOOD, 30, 6)))
        .mount(&server)
        .await;
    server
}

async fn formats_sent(server: &MockServer) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| r.body_json::<Value>().unwrap()["response_format"].clone())
        .collect()
}

#[tokio::test]
async fn a_refused_form_falls_back_once_and_is_remembered_across_a_restart() {
    let server = llama_cpp_python_like().await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let ctx = CallContext::new(Purpose::Intent);

    let first = h
        .core
        .gateway
        .complete_json::<Verdict>(&ctx, route(&id), req("judge"))
        .await
        .unwrap();
    assert!(first.value.ok);
    let rows = ledger(&h).await;
    assert_eq!(rows.len(), 2, "one refusal, one answer");
    assert_eq!(rows[0].outcome, cubicle_core::gateway::LedgerOutcome::Error);
    assert!(
        rows[0]
            .error
            .as_deref()
            .is_some_and(|e| e.starts_with("unsupported_json_form")),
        "{:?}",
        rows[0].error
    );
    assert_eq!(
        rows[0].backoff_ms, None,
        "a refusal is not waited on and retried"
    );
    assert_eq!(
        rows[1].output,
        Some(cubicle_core::gateway::StructuredOutput::Valid)
    );

    h.core
        .gateway
        .complete_json::<Verdict>(&ctx, route(&id), req("judge again"))
        .await
        .unwrap();
    assert_eq!(ledger(&h).await.len(), 3, "the second call is one request");
    let formats = formats_sent(&server).await;
    assert_eq!(formats[0]["type"], "json_schema");
    for f in &formats[1..] {
        assert_eq!(f["type"], "json_object");
        assert!(f["schema"].is_object(), "{f}");
    }

    // A restart on the same database: the settings remember.
    let reopened = AppCore::open_with(
        &h.url,
        CoreOptions {
            secrets: Arc::new(NoSecrets),
            ..CoreOptions::default()
        },
    )
    .await
    .unwrap();
    reopened
        .gateway
        .complete_json::<Verdict>(&ctx, route(&id), req("and once more"))
        .await
        .unwrap();
    let formats = formats_sent(&server).await;
    assert_eq!(formats.len(), 4);
    assert_eq!(formats[3]["type"], "json_object");
}

#[tokio::test]
async fn plain_completions_never_carry_a_structured_form() {
    let server = llama_cpp_python_like().await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    h.core
        .gateway
        .complete(&CallContext::new(Purpose::Ask), route(&id), req("hi"))
        .await
        .unwrap();
    assert_eq!(formats_sent(&server).await, vec![Value::Null]);
}

#[tokio::test]
async fn cached_prompt_tokens_are_recorded_in_the_ledger() {
    let server = MockServer::start().await;
    let mut answer = chat("hello", 2006, 12);
    answer["usage"]["prompt_tokens_details"] = json!({"cached_tokens": 1920});
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(answer))
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    h.core
        .gateway
        .complete(&CallContext::new(Purpose::Ask), route(&id), req("hi"))
        .await
        .unwrap();
    let row = ledger(&h).await.pop().unwrap();
    assert_eq!((row.input_tokens, row.cached_tokens), (2006, 1920));
}
