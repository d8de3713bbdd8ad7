//! The Anthropic Messages dialect.

use async_trait::async_trait;
use futures::StreamExt;
use serde_json::{Map, Value, json};

use crate::http::{HttpConfig, SseEvents, form_rejection, sse_events, truncate};
use crate::types::{
    Capabilities, CompletionRequest, CompletionResponse, CompletionStream, FinishReason, JsonForm,
    LlmClient, LlmError, Role, StreamEvent, Usage,
};

/// Words in a refusal that point at the structured-output request.
const FORM_FIELDS: &[&str] = &["tool_choice", "tools", "input_schema"];

pub const DEFAULT_BASE_URL: &str = "https://api.anthropic.com/v1";
pub const API_VERSION: &str = "2023-06-01";
/// The API refuses a request without `max_tokens`; this is used when the caller sets none.
pub const DEFAULT_MAX_TOKENS: u32 = 1024;

pub struct Anthropic {
    config: HttpConfig,
    http: reqwest::Client,
}

impl std::fmt::Debug for Anthropic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Anthropic")
            .field("config", &self.config)
            .finish()
    }
}

impl Anthropic {
    /// The capabilities in `config` are taken as given; the Messages API has no JSON mode,
    /// so a preset sets them all off except streaming.
    pub fn new(config: HttpConfig) -> Result<Self, LlmError> {
        let http = config.build_client()?;
        Ok(Self { config, http })
    }

    /// The form `req` asks for, if any: by default the forced tool.
    fn form(req: &CompletionRequest) -> Option<JsonForm> {
        req.json_schema.as_ref()?;
        Some(req.json_form.unwrap_or(JsonForm::Tool))
    }

    /// The JSON body of a non-streamed request, exactly as it is sent.
    pub fn request_body(&self, req: &CompletionRequest) -> Value {
        self.body(req, false)
    }

    fn body(&self, req: &CompletionRequest, stream: bool) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), json!(self.config.model(&req.model)));
        body.insert(
            "max_tokens".into(),
            json!(req.max_tokens.unwrap_or(DEFAULT_MAX_TOKENS)),
        );
        let system: Vec<&str> = req
            .messages
            .iter()
            .filter(|m| m.role == Role::System)
            .map(|m| m.content.as_str())
            .collect();
        if !system.is_empty() {
            // The system prompt is the stable part (persona, agent card, answer format):
            // marked as a cache breakpoint, it and the tool before it are read from
            // Anthropic's prompt cache on the next thought (below the model's minimum
            // cacheable length the mark is ignored, at no cost).
            body.insert(
                "system".into(),
                json!([{"type": "text", "text": system.join("\n\n"),
                        "cache_control": {"type": "ephemeral"}}]),
            );
        }
        if let (Some(spec), Some(JsonForm::Tool)) = (&req.json_schema, Self::form(req)) {
            // One tool, forced: its input is the answer, held to the schema by the API.
            body.insert(
                "tools".into(),
                json!([{"name": spec.name, "input_schema": spec.schema}]),
            );
            body.insert(
                "tool_choice".into(),
                json!({"type": "tool", "name": spec.name}),
            );
        }
        let messages: Vec<Value> = req
            .messages
            .iter()
            .filter(|m| m.role != Role::System)
            .map(|m| json!({"role": m.role, "content": m.content}))
            .collect();
        body.insert("messages".into(), Value::Array(messages));
        if let Some(t) = req.temperature {
            body.insert("temperature".into(), json!(t));
        }
        if !req.stop.is_empty() {
            body.insert("stop_sequences".into(), json!(req.stop));
        }
        if stream {
            body.insert("stream".into(), json!(true));
        }
        Value::Object(body)
    }

    async fn send(
        &self,
        req: &CompletionRequest,
        stream: bool,
    ) -> Result<reqwest::Response, LlmError> {
        let mut builder = self
            .http
            .post(self.config.endpoint("messages"))
            .header("anthropic-version", API_VERSION)
            .json(&self.body(req, stream));
        if !stream {
            builder = builder.timeout(self.config.timeout);
        }
        if let Some(key) = &self.config.api_key {
            builder = builder.header("x-api-key", key.expose());
        }
        self.config
            .send(builder)
            .await
            .map_err(|e| form_rejection(e, Self::form(req), FORM_FIELDS))
    }
}

#[async_trait]
impl LlmClient for Anthropic {
    fn provider_id(&self) -> &str {
        &self.config.provider_id
    }

    fn capabilities(&self) -> Capabilities {
        self.config.capabilities
    }

    /// The Messages API has no JSON mode; a forced tool is its schema-enforced form.
    fn json_forms(&self) -> Vec<JsonForm> {
        vec![JsonForm::Tool, JsonForm::Prompt]
    }

    fn wire_body(&self, req: &CompletionRequest) -> Option<Value> {
        Some(self.request_body(req))
    }

    async fn complete(&self, req: CompletionRequest) -> Result<CompletionResponse, LlmError> {
        let resp = self.send(&req, false).await?;
        let body = self.config.json_body(resp).await?;
        parse_message(&body, self.config.model(&req.model)).map_err(|e| scrub_err(&self.config, e))
    }

    async fn stream(&self, req: CompletionRequest) -> Result<CompletionStream, LlmError> {
        let resp = self.send(&req, true).await?;
        let state = StreamState {
            events: sse_events(&self.config, resp),
            config: self.config.clone(),
            usage: Usage::default(),
            finish: FinishReason::Stop,
            over: false,
        };
        Ok(futures::stream::unfold(state, next_event).boxed())
    }
}

fn scrub_err(config: &HttpConfig, err: LlmError) -> LlmError {
    match err {
        LlmError::Provider(m) => LlmError::Provider(config.scrub(&m)),
        LlmError::BadResponse(m) => LlmError::BadResponse(config.scrub(&m)),
        other => other,
    }
}

/// An `error` object (in a 200 body or as a stream event) mapped to the error the HTTP
/// status of the same type would give, so the gateway retries what is transient.
fn anthropic_error(err: &Value) -> LlmError {
    let kind = err.get("type").and_then(Value::as_str).unwrap_or_default();
    let message = err
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| err.to_string());
    let message = truncate(&message, 500);
    match kind {
        "rate_limit_error" => LlmError::RateLimited { retry_after: None },
        "overloaded_error" => LlmError::Http {
            status: 529,
            body: message,
        },
        "api_error" => LlmError::Http {
            status: 500,
            body: message,
        },
        _ => LlmError::Provider(message),
    }
}

fn stop_reason(reason: &str) -> FinishReason {
    match reason {
        // A forced tool call ends with `tool_use`: the answer is whole.
        "end_turn" | "stop_sequence" | "tool_use" => FinishReason::Stop,
        "max_tokens" => FinishReason::Length,
        "refusal" => FinishReason::ContentFilter,
        _ => FinishReason::Other,
    }
}

fn token_count(v: Option<&Value>) -> Option<u32> {
    v.and_then(Value::as_u64)
        .map(|n| n.min(u32::MAX as u64) as u32)
}

/// Anthropic's `input_tokens` counts only what follows the last cache breakpoint; the
/// prompt's full size adds what was written to and read from the cache.
fn parse_usage(usage: Option<&Value>) -> Usage {
    let n = |key: &str| token_count(usage.and_then(|u| u.get(key))).unwrap_or(0);
    let cached = n("cache_read_input_tokens");
    let written = n("cache_creation_input_tokens");
    Usage {
        input_tokens: n("input_tokens")
            .saturating_add(written)
            .saturating_add(cached),
        output_tokens: n("output_tokens"),
        cached_input_tokens: cached,
        cache_write_input_tokens: written,
    }
}

fn parse_message(body: &Value, requested_model: &str) -> Result<CompletionResponse, LlmError> {
    if body.get("type").and_then(Value::as_str) == Some("error") {
        return Err(anthropic_error(body.get("error").unwrap_or(&Value::Null)));
    }
    let content = body
        .get("content")
        .and_then(Value::as_array)
        .ok_or_else(|| LlmError::BadResponse("no content array in the answer".into()))?;
    let kind = |block: &Value| block.get("type").and_then(Value::as_str).map(str::to_owned);
    // A forced tool's input is the answer; text beside it is commentary.
    let text: String = match content
        .iter()
        .find(|block| kind(block).as_deref() == Some("tool_use"))
    {
        Some(tool) => tool.get("input").map(Value::to_string).unwrap_or_default(),
        None => content
            .iter()
            .filter(|block| kind(block).as_deref() == Some("text"))
            .filter_map(|block| block.get("text").and_then(Value::as_str))
            .collect(),
    };
    Ok(CompletionResponse {
        text,
        usage: parse_usage(body.get("usage")),
        finish_reason: body
            .get("stop_reason")
            .and_then(Value::as_str)
            .map_or(FinishReason::Stop, stop_reason),
        model: body
            .get("model")
            .and_then(Value::as_str)
            .unwrap_or(requested_model)
            .to_owned(),
    })
}

struct StreamState {
    events: SseEvents,
    config: HttpConfig,
    usage: Usage,
    finish: FinishReason,
    over: bool,
}

type Step = Option<(Result<StreamEvent, LlmError>, StreamState)>;

async fn next_event(mut st: StreamState) -> Step {
    loop {
        if st.over {
            return None;
        }
        let outcome = match next_data(&mut st).await {
            Ok(Some((kind, data))) => st.apply(&kind, &data),
            Ok(None) => None,
            Err(e) => {
                st.over = true;
                Some(Err(e))
            }
        };
        if let Some(outcome) = outcome {
            return Some((outcome, st));
        }
    }
}

/// The next event's type and JSON, `None` for an empty one; an error ends the stream.
async fn next_data(st: &mut StreamState) -> Result<Option<(String, Value)>, LlmError> {
    let Some(item) = st.events.next().await else {
        // Only `message_stop` proves the answer is whole.
        return Err(LlmError::StreamCut);
    };
    let event = item?;
    if event.data.trim().is_empty() {
        return Ok(None);
    }
    let data: Value = serde_json::from_str(&event.data).map_err(|e| {
        LlmError::BadResponse(st.config.scrub(&format!("stream event is not JSON ({e})")))
    })?;
    let kind = data
        .get("type")
        .and_then(Value::as_str)
        .unwrap_or(event.event.as_str())
        .to_owned();
    Ok(Some((kind, data)))
}

impl StreamState {
    /// Takes in one event: what the caller gets from it, if anything.
    fn apply(&mut self, kind: &str, data: &Value) -> Option<Result<StreamEvent, LlmError>> {
        match kind {
            "message_start" => {
                let usage = data.get("message").and_then(|m| m.get("usage"));
                if usage.is_some() {
                    self.usage = parse_usage(usage);
                }
            }
            "content_block_delta" => {
                // Text, or a forced tool's input arriving as pieces of JSON.
                let delta = data.get("delta");
                let text = delta
                    .and_then(|d| d.get("text").or_else(|| d.get("partial_json")))
                    .and_then(Value::as_str)
                    .unwrap_or_default();
                if !text.is_empty() {
                    return Some(Ok(StreamEvent::Delta(text.to_owned())));
                }
            }
            "message_delta" => {
                if let Some(reason) = data
                    .get("delta")
                    .and_then(|d| d.get("stop_reason"))
                    .and_then(Value::as_str)
                {
                    self.finish = stop_reason(reason);
                }
                // Cumulative, not an increment.
                if let Some(n) = token_count(data.get("usage").and_then(|u| u.get("output_tokens")))
                {
                    self.usage.output_tokens = n;
                }
            }
            "message_stop" => {
                self.over = true;
                return Some(Ok(StreamEvent::Done {
                    usage: self.usage,
                    finish_reason: self.finish,
                }));
            }
            "error" => {
                self.over = true;
                let err = anthropic_error(data.get("error").unwrap_or(&Value::Null));
                return Some(Err(scrub_err(&self.config, err)));
            }
            // ping, content_block_start/stop, and whatever Anthropic adds later.
            _ => {}
        }
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_answer_is_parsed() {
        let body = json!({
            "type": "message", "model": "claude-x",
            "content": [{"type": "text", "text": "Hel"}, {"type": "text", "text": "lo"}],
            "stop_reason": "max_tokens",
            "usage": {"input_tokens": 12, "output_tokens": 4}
        });
        let r = parse_message(&body, "m").unwrap();
        assert_eq!(r.text, "Hello");
        assert_eq!(r.finish_reason, FinishReason::Length);
        assert_eq!(
            r.usage,
            Usage {
                input_tokens: 12,
                output_tokens: 4,
                ..Usage::default()
            }
        );
    }

    #[test]
    fn a_forced_tool_call_is_the_answer_and_cache_reads_are_counted() {
        let body = json!({
            "type": "message", "model": "claude-x",
            "content": [{"type": "text", "text": "Sure."},
                        {"type": "tool_use", "id": "t1", "name": "Hire", "input": {"name": "Bob"}}],
            "stop_reason": "tool_use",
            "usage": {"input_tokens": 40, "cache_creation_input_tokens": 300,
                      "cache_read_input_tokens": 1800, "output_tokens": 12}
        });
        let r = parse_message(&body, "m").unwrap();
        assert_eq!(
            serde_json::from_str::<Value>(&r.text).unwrap(),
            json!({"name": "Bob"})
        );
        assert_eq!(
            r.usage,
            Usage {
                input_tokens: 2140,
                output_tokens: 12,
                cached_input_tokens: 1800,
                cache_write_input_tokens: 300,
            }
        );
    }

    #[test]
    fn error_types_map_to_retryable_or_not() {
        let e = |t: &str| anthropic_error(&json!({"type": t, "message": "m"}));
        assert!(e("overloaded_error").is_retryable());
        assert!(e("api_error").is_retryable());
        assert!(matches!(
            e("rate_limit_error"),
            LlmError::RateLimited { .. }
        ));
        assert!(matches!(e("invalid_request_error"), LlmError::Provider(_)));
    }
}
