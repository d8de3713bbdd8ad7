use cubicle_llm::structured::complete_json;
use cubicle_llm::{AnswerNote, CompletionRequest, JsonForm, LlmError, Role, StructuredError};
use schemars::JsonSchema;
use serde::Deserialize;
use serde_json::{Value, json};
use wiremock::matchers::{body_partial_json, body_string_contains, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::util::*;

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
async fn json_object_mode_carries_a_one_line_shape_never_the_schema() {
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
    assert_eq!(out.form, JsonForm::JsonObject);
    let body = &request_bodies(&server).await[0];
    assert_eq!(body["response_format"], json!({"type": "json_object"}));
    let system = system_text(body);
    assert!(system.starts_with("You are Ann, an engineer."));
    assert!(
        system.ends_with("{\"name\":str,\"department\":str,\"level\":int 0-255}"),
        "{system}"
    );
    for verbose in ["JSON Schema", "$schema", "\"properties\"", "uint8"] {
        assert!(!system.contains(verbose), "{verbose} in {system}");
    }
}

fn noted(text: &str) -> CompletionRequest {
    CompletionRequest {
        answer_note: Some(AnswerNote {
            full: "Answer {name, department, level 1-5}.".into(),
            meanings: "level: 1-5.".into(),
        }),
        ..ask(text)
    }
}

#[tokio::test]
async fn a_caller_that_describes_its_answer_gets_its_full_note_instead_of_the_shape_line() {
    let server = MockServer::start().await;
    mount_chat(
        &server,
        ResponseTemplate::new(200).set_body_json(chat(GOOD)),
    )
    .await;
    let req = noted("hire Bob for Product");

    let out = complete_json::<Hire>(&openai(&server, caps(false, true)), req.clone())
        .await
        .unwrap();

    assert_eq!(out.value, bob());
    let body = &request_bodies(&server).await[0];
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(
        system.ends_with("\n\nAnswer {name, department, level 1-5}."),
        "{system}"
    );
    assert!(
        !system.contains("Shape ("),
        "one description, not two: {system}"
    );
    assert!(!system.contains("level: 1-5."), "{system}");
    assert_eq!(body["response_format"], json!({"type": "json_object"}));
}

#[tokio::test]
async fn beside_an_enforced_schema_only_the_meanings_are_sent() {
    let server = MockServer::start().await;
    mount_chat(
        &server,
        ResponseTemplate::new(200).set_body_json(chat(GOOD)),
    )
    .await;

    complete_json::<Hire>(&openai(&server, caps(true, true)), noted("hire Bob"))
        .await
        .unwrap();

    let body = &request_bodies(&server).await[0];
    let system = body["messages"][0]["content"].as_str().unwrap();
    assert!(system.ends_with("\n\nlevel: 1-5."), "{system}");
    assert!(!system.contains("Answer {name"), "{system}");
    assert_eq!(body["response_format"]["type"], "json_schema");
}

#[tokio::test]
async fn anthropic_answers_through_a_forced_tool_with_the_compact_schema() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/messages"))
        .and(body_partial_json(
            json!({"tool_choice": {"type": "tool", "name": "Hire"}}),
        ))
        .respond_with(ResponseTemplate::new(200).set_body_json(json!({
            "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
            "content": [{"type": "tool_use", "id": "toolu_1", "name": "Hire",
                         "input": {"name": "Bob", "department": "Product", "level": 2}}],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 30, "cache_read_input_tokens": 400, "output_tokens": 20}
        })))
        .expect(1)
        .mount(&server)
        .await;

    let out = complete_json::<Hire>(&anthropic(&server), ask("hire"))
        .await
        .unwrap();

    assert_eq!(out.value, bob());
    assert_eq!(out.form, JsonForm::Tool);
    assert_eq!(out.responses[0].usage.cached_input_tokens, 400);
    assert_eq!(out.responses[0].usage.input_tokens, 430);
    let body = &request_bodies(&server).await[0];
    let tool = &body["tools"][0];
    assert_eq!(tool["name"], "Hire");
    assert_eq!(tool["input_schema"]["type"], "object");
    assert!(tool["input_schema"].get("$schema").is_none());
    assert!(tool["input_schema"].get("title").is_none());
    let system = body["system"][0]["text"].as_str().unwrap();
    assert_eq!(
        system, "You are Ann, an engineer.",
        "the tool carries the shape"
    );
    assert_eq!(
        body["system"][0]["cache_control"],
        json!({"type": "ephemeral"})
    );
}

/// A 500 like llama-cpp-python's when it meets a form it does not know.
fn rejects(field: &str) -> ResponseTemplate {
    ResponseTemplate::new(500).set_body_json(json!({"detail": [{
        "type": "literal_error", "loc": ["body", "response_format", field],
        "msg": "Input should be 'text' or 'json_object'"}]}))
}

#[tokio::test]
async fn rejected_forms_fall_back_in_order_until_one_is_accepted() {
    let server = MockServer::start().await;
    Mock::given(body_partial_json(
        json!({"response_format": {"type": "json_schema"}}),
    ))
    .respond_with(rejects("type"))
    .mount(&server)
    .await;
    Mock::given(body_string_contains("\"schema\""))
        .and(body_partial_json(
            json!({"response_format": {"type": "json_object"}}),
        ))
        .respond_with(
            ResponseTemplate::new(400).set_body_string("response_format.schema is not supported"),
        )
        .mount(&server)
        .await;
    Mock::given(body_partial_json(
        json!({"response_format": {"type": "json_object"}}),
    ))
    .respond_with(ResponseTemplate::new(200).set_body_json(chat(GOOD)))
    .mount(&server)
    .await;

    let out = complete_json::<Hire>(&openai(&server, caps(true, true)), ask("hire"))
        .await
        .unwrap();

    assert_eq!(out.value, bob());
    assert_eq!(out.form, JsonForm::JsonObject);
    assert_eq!(out.responses.len(), 1, "refusals are not answers");
    let bodies = request_bodies(&server).await;
    let formats: Vec<&Value> = bodies.iter().map(|b| &b["response_format"]).collect();
    assert_eq!(formats.len(), 3);
    assert_eq!(formats[0]["type"], "json_schema");
    assert_eq!(formats[1]["type"], "json_object");
    assert_eq!(formats[1]["schema"]["type"], "object");
    assert_eq!(formats[2], &json!({"type": "json_object"}));
    assert!(
        !system_text(&bodies[0]).contains("Shape"),
        "enforced: no shape in the prompt"
    );
    assert!(system_text(&bodies[2]).contains("\"department\":str"));
}

#[tokio::test]
async fn when_every_form_is_refused_the_prompt_alone_carries_the_shape() {
    let server = MockServer::start().await;
    Mock::given(body_string_contains("response_format"))
        .respond_with(rejects("type"))
        .mount(&server)
        .await;
    mount_chat(
        &server,
        ResponseTemplate::new(200).set_body_json(chat(GOOD)),
    )
    .await;

    let out = complete_json::<Hire>(&openai(&server, caps(true, false)), ask("hire"))
        .await
        .unwrap();

    assert_eq!(out.form, JsonForm::Prompt);
    let bodies = request_bodies(&server).await;
    assert_eq!(bodies.len(), 4);
    assert!(bodies[3].get("response_format").is_none());
}

#[tokio::test]
async fn a_remembered_form_is_used_first_and_alone() {
    let server = MockServer::start().await;
    Mock::given(body_partial_json(
        json!({"response_format": {"type": "json_object"}}),
    ))
    .and(body_string_contains("\"schema\""))
    .respond_with(ResponseTemplate::new(200).set_body_json(chat(GOOD)))
    .expect(1)
    .mount(&server)
    .await;
    let req = CompletionRequest {
        json_form: Some(JsonForm::JsonObjectSchema),
        ..ask("hire")
    };

    let out = complete_json::<Hire>(&openai(&server, caps(true, true)), req)
        .await
        .unwrap();

    assert_eq!(out.form, JsonForm::JsonObjectSchema);
    assert_eq!(request_bodies(&server).await.len(), 1);
}

#[tokio::test]
async fn a_server_error_that_is_not_about_the_form_is_not_a_fallback() {
    let server = MockServer::start().await;
    mount_chat(
        &server,
        ResponseTemplate::new(500).set_body_string("out of memory"),
    )
    .await;

    let err = complete_json::<Hire>(&openai(&server, caps(true, true)), ask("hire"))
        .await
        .unwrap_err();

    assert!(
        matches!(
            err,
            StructuredError::Llm(LlmError::Http { status: 500, .. })
        ),
        "{err:?}"
    );
    assert_eq!(request_bodies(&server).await.len(), 1);
}

#[tokio::test]
async fn anthropic_without_tools_falls_back_to_the_shape_in_its_system_prompt() {
    let server = MockServer::start().await;
    Mock::given(path("/v1/messages"))
        .and(body_string_contains("tool_choice"))
        .respond_with(
            ResponseTemplate::new(400).set_body_json(json!({"type": "error",
            "error": {"type": "invalid_request_error", "message": "tool_choice: unsupported"}})),
        )
        .mount(&server)
        .await;
    Mock::given(path("/v1/messages"))
        .respond_with(
            ResponseTemplate::new(200).set_body_json(message(&format!("Here you go:\n{GOOD}"))),
        )
        .mount(&server)
        .await;

    let out = complete_json::<Hire>(&anthropic(&server), ask("hire"))
        .await
        .unwrap();

    assert_eq!(out.value, bob());
    assert_eq!(out.form, JsonForm::Prompt);
    let bodies = request_bodies(&server).await;
    assert_eq!(bodies.len(), 2);
    assert!(bodies[1].get("tools").is_none());
    assert!(
        bodies[1]["system"][0]["text"]
            .as_str()
            .unwrap()
            .contains("\"level\":int")
    );
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
