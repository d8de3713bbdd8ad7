use cubicle_llm::structured::complete_json;
use cubicle_llm::{LlmError, Role, StructuredError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use wiremock::matchers::{body_partial_json, body_string_contains, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::util::*;

/// What the secretary's model tier might return for "hire a frontend engineer for Product".
#[derive(Debug, PartialEq, Deserialize, JsonSchema)]
struct Hire {
    name: String,
    department: String,
    level: u8,
}

fn bob() -> Hire {
    Hire {
        name: "Bob".into(),
        department: "Product".into(),
        level: 2,
    }
}

const GOOD: &str = r#"{"name": "Bob", "department": "Product", "level": 2}"#;
const WRONG_TYPE: &str = r#"{"name": "Bob", "department": "Product", "level": "senior"}"#;

/// Answers the first request with `first`, and any retry (recognised by the error report
/// it must carry) with `retry`.
async fn script(server: &MockServer, first: &str, retry: &str) {
    Mock::given(path("/v1/chat/completions"))
        .and(body_string_contains("could not be used"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat(retry)))
        .with_priority(1)
        .mount(server)
        .await;
    Mock::given(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat(first)))
        .up_to_n_times(1)
        .mount(server)
        .await;
}

fn system_text(body: &Value) -> String {
    body["messages"][0]["content"].as_str().unwrap().to_owned()
}

#[tokio::test]
async fn native_json_schema_is_requested_and_the_answer_typed() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/chat/completions"))
        .and(body_partial_json(json!({"response_format": {
            "type": "json_schema",
            "json_schema": {"name": "Hire", "strict": true,
                            "schema": {"type": "object", "additionalProperties": false}}
        }})))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat(GOOD)))
        .expect(1)
        .mount(&server)
        .await;

    let out = complete_json::<Hire>(
        &openai(&server, caps(true, true)),
        ask("hire a frontend engineer"),
    )
    .await
    .unwrap();

    assert_eq!(out.value, bob());
    assert!(!out.repaired);
    assert_eq!(out.responses.len(), 1);
    assert_eq!(out.responses[0].usage.output_tokens, 7);
    let body = &request_bodies(&server).await[0];
    let required = body["response_format"]["json_schema"]["schema"]["required"]
        .as_array()
        .unwrap();
    assert_eq!(required.len(), 3);
    assert!(
        !system_text(body).contains("JSON Schema"),
        "native mode needs no prompt instruction"
    );
}

#[tokio::test]
async fn json_object_mode_also_carries_the_schema_in_the_prompt() {
    let server = MockServer::start().await;
    Mock::given(body_partial_json(
        json!({"response_format": {"type": "json_object"}}),
    ))
    .respond_with(ResponseTemplate::new(200).set_body_json(chat(GOOD)))
    .expect(1)
    .mount(&server)
    .await;

    let out = complete_json::<Hire>(&openai(&server, caps(false, true)), ask("hire"))
        .await
        .unwrap();

    assert_eq!(out.value, bob());
    let system = system_text(&request_bodies(&server).await[0]);
    assert!(system.starts_with("You are Ann, an engineer."));
    assert!(
        system.contains("JSON Schema") && system.contains("\"department\""),
        "{system}"
    );
}

#[tokio::test]
async fn anthropic_gets_the_schema_in_its_system_prompt_only() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/messages"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(message(&format!("Here you go:\n{GOOD}"))),
        )
        .expect(1)
        .mount(&server)
        .await;

    let out = complete_json::<Hire>(&anthropic(&server), ask("hire"))
        .await
        .unwrap();

    assert_eq!(out.value, bob());
    let body = &request_bodies(&server).await[0];
    assert!(body.get("response_format").is_none());
    assert!(body["system"].as_str().unwrap().contains("\"level\""));
}

#[tokio::test]
async fn fenced_json_with_a_trailing_comma_is_repaired() {
    let server = MockServer::start().await;
    let answer = "```json\n{\"name\": \"Bob\", \"department\": \"Product\", \"level\": 2,}\n```";
    mount_chat(
        &server,
        ResponseTemplate::new(200).set_body_json(chat(answer)),
    )
    .await;

    let out = complete_json::<Hire>(&openai(&server, caps(false, false)), ask("hire"))
        .await
        .unwrap();

    assert_eq!(out.value, bob());
    assert!(out.repaired);
    assert_eq!(out.responses.len(), 1);
}

#[tokio::test]
async fn a_schema_violation_is_reported_back_once_and_the_retry_succeeds() {
    let server = MockServer::start().await;
    script(&server, WRONG_TYPE, GOOD).await;

    let out = complete_json::<Hire>(&openai(&server, caps(true, true)), ask("hire"))
        .await
        .unwrap();

    assert_eq!(out.value, bob());
    assert_eq!(out.responses.len(), 2);
    let bodies = request_bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    let messages = bodies[1]["messages"].as_array().unwrap();
    let n = messages.len();
    assert_eq!(messages[n - 2]["role"], json!("assistant"));
    assert_eq!(messages[n - 2]["content"], json!(WRONG_TYPE));
    assert_eq!(messages[n - 1]["role"], json!("user"));
    let report = messages[n - 1]["content"].as_str().unwrap();
    assert!(
        report.contains("/level") && report.contains("\"senior\""),
        "{report}"
    );
}

#[tokio::test]
async fn two_invalid_answers_end_in_invalid_with_both_responses() {
    let server = MockServer::start().await;
    script(&server, WRONG_TYPE, r#"{"name": "Bob"}"#).await;

    let err = complete_json::<Hire>(&openai(&server, caps(true, true)), ask("hire"))
        .await
        .unwrap_err();

    match err {
        StructuredError::Invalid {
            last_error,
            raw,
            responses,
        } => {
            assert!(last_error.contains("department"), "{last_error}");
            assert_eq!(raw, r#"{"name": "Bob"}"#);
            assert_eq!(responses.len(), 2);
        }
        other => panic!("expected Invalid, got {other:?}"),
    }
    assert_eq!(request_bodies(&server).await.len(), 2, "exactly one retry");
}

#[tokio::test]
async fn prose_without_json_is_invalid_not_a_guess() {
    let server = MockServer::start().await;
    script(&server, "I'd rather not.", "Still no.").await;

    let err = complete_json::<Hire>(&openai(&server, caps(false, false)), ask("hire"))
        .await
        .unwrap_err();

    assert!(
        matches!(err, StructuredError::Invalid { ref last_error, .. } if last_error.contains("no JSON"))
    );
}

#[tokio::test]
async fn an_answer_cut_at_the_token_limit_is_retried_not_patched() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/chat/completions"))
        .and(body_string_contains("could not be used"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat(GOOD)))
        .with_priority(1)
        .mount(&server)
        .await;
    let cut = r#"{"name": "Bob", "department": "Prod"#;
    Mock::given(path("/v1/chat/completions"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat_with(cut, "length")))
        .up_to_n_times(1)
        .mount(&server)
        .await;

    let out = complete_json::<Hire>(&openai(&server, caps(false, false)), ask("hire"))
        .await
        .unwrap();

    assert_eq!(out.value.department, "Product");
    let bodies = request_bodies(&server).await;
    let last = bodies[1]["messages"]
        .as_array()
        .unwrap()
        .last()
        .unwrap()
        .clone();
    assert_eq!(last["role"], json!(Role::User));
    assert!(last["content"].as_str().unwrap().contains("token limit"));
}

#[tokio::test]
async fn transport_failures_pass_through_untouched() {
    let server = MockServer::start().await;
    mount_chat(&server, ResponseTemplate::new(503).set_body_string("busy")).await;

    let err = complete_json::<Hire>(&openai(&server, caps(true, true)), ask("hire"))
        .await
        .unwrap_err();

    assert!(
        matches!(
            err,
            StructuredError::Llm(LlmError::Http { status: 503, .. })
        ),
        "{err:?}"
    );
    assert_eq!(
        request_bodies(&server).await.len(),
        1,
        "the gateway, not the parser, retries transport"
    );
}
