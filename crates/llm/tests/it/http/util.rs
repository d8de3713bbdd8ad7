use std::time::Duration;

use cubicle_llm::{
    Anthropic, Capabilities, ChatMessage, CompletionRequest, CompletionStream, HttpConfig,
    LlmError, OpenAiCompatible, StreamEvent,
};
use futures::StreamExt;
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

pub const TIMEOUT: Duration = Duration::from_secs(10);

pub fn caps(json_schema: bool, json_object: bool) -> Capabilities {
    Capabilities {
        json_schema,
        json_object,
        stream: true,
    }
}

pub fn config(
    server: &MockServer,
    caps: Capabilities,
    key: Option<&str>,
    timeout: Duration,
) -> HttpConfig {
    HttpConfig {
        provider_id: "test".into(),
        base_url: format!("{}/v1", server.uri()),
        api_key: key.map(cubicle_llm::ApiKey::new),
        default_model: "test-model".into(),
        capabilities: caps,
        timeout,
    }
}

pub fn openai(server: &MockServer, caps: Capabilities) -> OpenAiCompatible {
    OpenAiCompatible::new(config(server, caps, None, TIMEOUT)).unwrap()
}

pub fn anthropic(server: &MockServer) -> Anthropic {
    Anthropic::new(config(
        server,
        caps(false, false),
        Some("sk-ant-test"),
        TIMEOUT,
    ))
    .unwrap()
}

pub fn ask(text: &str) -> CompletionRequest {
    CompletionRequest {
        messages: vec![
            ChatMessage::system("You are Ann, an engineer."),
            ChatMessage::user(text),
        ],
        ..Default::default()
    }
}

/// An OpenAI chat/completions answer.
pub fn chat(text: &str) -> Value {
    chat_with(text, "stop")
}

pub fn chat_with(text: &str, finish: &str) -> Value {
    json!({
        "id": "chatcmpl-1",
        "object": "chat.completion",
        "model": "test-model-0613",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": finish}],
        "usage": {"prompt_tokens": 11, "completion_tokens": 7, "total_tokens": 18}
    })
}

/// An Anthropic Messages answer.
pub fn message(text: &str) -> Value {
    json!({
        "id": "msg_1", "type": "message", "role": "assistant", "model": "claude-test",
        "content": [{"type": "text", "text": text}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 21, "output_tokens": 9}
    })
}

/// A server-sent events body; `(event name, data)` pairs, each terminated by a blank line.
pub fn sse(events: &[(&str, String)]) -> ResponseTemplate {
    let mut body = String::new();
    for (name, data) in events {
        if !name.is_empty() {
            body.push_str(&format!("event: {name}\n"));
        }
        body.push_str(&format!("data: {data}\n\n"));
    }
    ResponseTemplate::new(200).set_body_raw(body, "text/event-stream")
}

pub fn openai_chunk(delta: &str, finish: Option<&str>) -> (&'static str, String) {
    let chunk = json!({
        "id": "c", "object": "chat.completion.chunk", "model": "test-model",
        "choices": [{"index": 0, "delta": {"content": delta}, "finish_reason": finish}]
    });
    ("", chunk.to_string())
}

pub async fn mount_chat(server: &MockServer, response: ResponseTemplate) {
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(response)
        .mount(server)
        .await;
}

/// Every item of a stream, errors included, until it ends.
pub async fn drain(stream: CompletionStream) -> Vec<Result<StreamEvent, LlmError>> {
    stream.collect().await
}

pub async fn request_bodies(server: &MockServer) -> Vec<Value> {
    server
        .received_requests()
        .await
        .unwrap()
        .iter()
        .map(|r| r.body_json::<Value>().unwrap())
        .collect()
}
