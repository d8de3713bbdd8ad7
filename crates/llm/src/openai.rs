//! The OpenAI-compatible chat/completions dialect: OpenAI itself and everyone who copies
//! it (DeepSeek, DashScope, Moonshot, OpenRouter, Ollama `/v1`, LM Studio, vLLM).

use async_trait::async_trait;
use futures::StreamExt;
use serde_json::{Map, Value, json};

use crate::http::{HttpConfig, SseEvents, form_rejection, sse_events};
use crate::types::{
    Capabilities, CompletionRequest, CompletionResponse, CompletionStream, FinishReason, JsonForm,
    LlmClient, LlmError, ModelProfile, StreamEvent, Usage,
};

/// Words in a refusal that point at the structured-output request.
const FORM_FIELDS: &[&str] = &["response_format", "json_schema", "schema"];

pub struct OpenAiCompatible {
    config: HttpConfig,
    http: reqwest::Client,
}

impl std::fmt::Debug for OpenAiCompatible {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenAiCompatible")
            .field("config", &self.config)
            .finish()
    }
}

impl OpenAiCompatible {
    pub fn new(config: HttpConfig) -> Result<Self, LlmError> {
        let http = config.build_client()?;
        Ok(Self { config, http })
    }

    /// The form `req` asks for on the wire, if any.
    fn form(&self, req: &CompletionRequest) -> Option<JsonForm> {
        req.json_schema.as_ref()?;
        Some(req.json_form.unwrap_or_else(|| {
            self.config
                .capabilities
                .json_forms()
                .first()
                .copied()
                .unwrap_or(JsonForm::Prompt)
        }))
    }

    /// The JSON body of a non-streamed request, exactly as it is sent.
    pub fn request_body(&self, req: &CompletionRequest) -> Value {
        self.body(req, false)
    }

    fn body(&self, req: &CompletionRequest, stream: bool) -> Value {
        let mut body = Map::new();
        body.insert("model".into(), json!(self.config.model(&req.model)));
        body.insert("messages".into(), json!(req.messages));
        if let Some(t) = req.temperature {
            body.insert("temperature".into(), json!(t));
        }
        if let Some(n) = req.max_tokens {
            body.insert("max_tokens".into(), json!(n));
        }
        if !req.stop.is_empty() {
            body.insert("stop".into(), json!(req.stop));
        }
        if let Some(seed) = req.seed {
            body.insert("seed".into(), json!(seed));
        }
        if let (Some(spec), Some(form)) = (&req.json_schema, self.form(req)) {
            let format = match form {
                // Anthropic's form has no OpenAI counterpart; the schema one is the nearest.
                JsonForm::JsonSchema | JsonForm::Tool => {
                    let (schema, strict) = match strict_schema(&spec.schema) {
                        Some(s) => (s, true),
                        None => (spec.schema.clone(), false),
                    };
                    Some(json!({"type": "json_schema",
                           "json_schema": {"name": spec.name, "schema": schema, "strict": strict}}))
                }
                JsonForm::JsonObjectSchema => {
                    Some(json!({"type": "json_object", "schema": spec.schema}))
                }
                JsonForm::JsonObject => Some(json!({"type": "json_object"})),
                JsonForm::Prompt => None,
            };
            if let Some(format) = format {
                body.insert("response_format".into(), format);
            }
        }
        if stream {
            body.insert("stream".into(), json!(true));
            body.insert("stream_options".into(), json!({"include_usage": true}));
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
            .post(self.config.endpoint("chat/completions"))
            .json(&self.body(req, stream));
        if !stream {
            builder = builder.timeout(self.config.timeout);
        }
        if let Some(key) = &self.config.api_key {
            builder = builder.bearer_auth(key.expose());
        }
        self.config
            .send(builder)
            .await
            .map_err(|e| form_rejection(e, self.form(req), FORM_FIELDS))
    }
}

#[async_trait]
impl LlmClient for OpenAiCompatible {
    fn provider_id(&self) -> &str {
        &self.config.provider_id
    }

    fn capabilities(&self) -> Capabilities {
        self.config.capabilities
    }

    fn profile(&self, model: &str) -> ModelProfile {
        ModelProfile::from_model_id(self.config.model(model))
    }

    fn wire_body(&self, req: &CompletionRequest) -> Option<Value> {
        Some(self.request_body(req))
    }

    async fn complete(&self, req: CompletionRequest) -> Result<CompletionResponse, LlmError> {
        let resp = self.send(&req, false).await?;
        let body = self.config.json_body(resp).await?;
        parse_completion(&body, self.config.model(&req.model))
            .map_err(|e| scrub_err(&self.config, e))
    }

    async fn stream(&self, req: CompletionRequest) -> Result<CompletionStream, LlmError> {
        let resp = self.send(&req, true).await?;
        let state = StreamState {
            events: sse_events(&self.config, resp),
            config: self.config.clone(),
            usage: Usage::default(),
            finish: None,
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

/// `{"error": {...}}` inside a 200: some compatible servers report failures this way.
fn provider_error(body: &Value) -> Option<LlmError> {
    let err = body.get("error").filter(|e| !e.is_null())?;
    let message = err
        .get("message")
        .and_then(Value::as_str)
        .map(str::to_owned)
        .unwrap_or_else(|| err.to_string());
    Some(LlmError::Provider(crate::http::truncate(&message, 500)))
}

fn parse_usage(body: &Value) -> Option<Usage> {
    let usage = body.get("usage").filter(|u| u.is_object())?;
    let n = |k: &str| {
        usage
            .get(k)
            .and_then(Value::as_u64)
            .unwrap_or(0)
            .min(u32::MAX as u64) as u32
    };
    // OpenAI reports cache hits in `prompt_tokens_details`, DeepSeek beside the totals.
    let cached = usage
        .get("prompt_tokens_details")
        .and_then(|d| d.get("cached_tokens"))
        .or_else(|| usage.get("prompt_cache_hit_tokens"))
        .and_then(Value::as_u64)
        .unwrap_or(0)
        .min(u32::MAX as u64) as u32;
    Some(Usage {
        input_tokens: n("prompt_tokens"),
        output_tokens: n("completion_tokens"),
        cached_input_tokens: cached,
        ..Usage::default()
    })
}

fn finish_reason(text: &str) -> FinishReason {
    match text {
        "stop" => FinishReason::Stop,
        "length" => FinishReason::Length,
        "content_filter" => FinishReason::ContentFilter,
        _ => FinishReason::Other,
    }
}

fn parse_completion(body: &Value, requested_model: &str) -> Result<CompletionResponse, LlmError> {
    if let Some(err) = provider_error(body) {
        return Err(err);
    }
    let choice = body
        .get("choices")
        .and_then(|c| c.get(0))
        .ok_or_else(|| LlmError::BadResponse("no choices[0] in the answer".into()))?;
    let message = choice
        .get("message")
        .ok_or_else(|| LlmError::BadResponse("no choices[0].message in the answer".into()))?;
    if let Some(refusal) = message.get("refusal").and_then(Value::as_str) {
        return Err(LlmError::Provider(format!("the model refused: {refusal}")));
    }
    let text = match message.get("content") {
        Some(Value::String(s)) => s.clone(),
        None | Some(Value::Null) => String::new(),
        Some(other) => {
            return Err(LlmError::BadResponse(format!(
                "choices[0].message.content is not text: {}",
                crate::http::truncate(&other.to_string(), 200)
            )));
        }
    };
    Ok(CompletionResponse {
        text,
        usage: parse_usage(body).unwrap_or_default(),
        // A non-streamed answer that names no reason is complete as far as we can tell.
        finish_reason: choice
            .get("finish_reason")
            .and_then(Value::as_str)
            .map_or(FinishReason::Stop, finish_reason),
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
    finish: Option<FinishReason>,
    over: bool,
}

type Step = Option<(Result<StreamEvent, LlmError>, StreamState)>;

async fn next_event(mut st: StreamState) -> Step {
    loop {
        if st.over {
            return None;
        }
        let Some(item) = st.events.next().await else {
            st.over = true;
            // Some servers omit `[DONE]`; a finish_reason is proof enough that the answer is whole.
            let end = match st.finish {
                Some(finish_reason) => Ok(StreamEvent::Done {
                    usage: st.usage,
                    finish_reason,
                }),
                None => Err(LlmError::StreamCut),
            };
            return Some((end, st));
        };
        let event = match item {
            Ok(event) => event,
            Err(e) => {
                st.over = true;
                return Some((Err(e), st));
            }
        };
        let data = event.data.trim();
        if data.is_empty() {
            continue;
        }
        if data == "[DONE]" {
            st.over = true;
            let done = StreamEvent::Done {
                usage: st.usage,
                finish_reason: st.finish.unwrap_or(FinishReason::Stop),
            };
            return Some((Ok(done), st));
        }
        let chunk: Value = match serde_json::from_str(data) {
            Ok(v) => v,
            Err(e) => {
                st.over = true;
                let msg = st.config.scrub(&format!("stream chunk is not JSON ({e})"));
                return Some((Err(LlmError::BadResponse(msg)), st));
            }
        };
        if let Some(err) = provider_error(&chunk) {
            st.over = true;
            return Some((Err(scrub_err(&st.config, err)), st));
        }
        if let Some(usage) = parse_usage(&chunk) {
            st.usage = usage;
        }
        let Some(choice) = chunk.get("choices").and_then(|c| c.get(0)) else {
            continue;
        };
        if let Some(reason) = choice.get("finish_reason").and_then(Value::as_str) {
            st.finish = Some(finish_reason(reason));
        }
        let delta = choice
            .get("delta")
            .and_then(|d| d.get("content"))
            .and_then(Value::as_str)
            .unwrap_or_default();
        if !delta.is_empty() {
            let delta = delta.to_owned();
            return Some((Ok(StreamEvent::Delta(delta)), st));
        }
    }
}

/// Formats OpenAI's strict mode accepts; others are dropped from the copy sent (the
/// answer is still validated locally against the full schema).
const STRICT_FORMATS: &[&str] = &[
    "date-time",
    "time",
    "date",
    "duration",
    "email",
    "hostname",
    "ipv4",
    "ipv6",
    "uuid",
];

/// Rewrites a schemars schema into what `strict: true` demands: every object closed
/// (`additionalProperties: false`) with all its properties required (optional fields stay
/// optional through their `null` type), `oneOf` as `anyOf`. `None` when the schema has
/// something strict mode cannot express, such as a map, or a root that is not an object;
/// the caller then sends it with `strict: false`.
pub fn strict_schema(schema: &Value) -> Option<Value> {
    let mut out = schema.clone();
    if let Value::Object(root) = &mut out {
        root.remove("$schema");
        if root.get("type") != Some(&json!("object")) {
            return None;
        }
    }
    strict_node(&mut out).then_some(out)
}

fn strict_node(node: &mut Value) -> bool {
    let Value::Object(obj) = node else {
        // `true`/`false` schemas and anything odd: leave as is.
        return true;
    };
    if let Some(one_of) = obj.remove("oneOf") {
        obj.insert("anyOf".into(), one_of);
    }
    if obj
        .get("format")
        .and_then(Value::as_str)
        .is_some_and(|f| !STRICT_FORMATS.contains(&f))
    {
        obj.remove("format");
    }
    let is_object = match obj.get("type") {
        Some(Value::String(t)) => t == "object",
        Some(Value::Array(ts)) => ts.iter().any(|t| t == "object"),
        _ => obj.contains_key("properties"),
    };
    if is_object {
        if obj
            .get("additionalProperties")
            .is_some_and(|a| a != &Value::Bool(false))
        {
            return false;
        }
        // An object without named properties is free-form, which strict mode cannot say.
        let keys: Vec<Value> = match obj.get("properties") {
            Some(Value::Object(props)) => props.keys().map(|k| json!(k)).collect(),
            _ => return false,
        };
        obj.insert("required".into(), Value::Array(keys));
        obj.insert("additionalProperties".into(), Value::Bool(false));
    }
    for key in ["properties", "$defs", "definitions"] {
        if let Some(Value::Object(map)) = obj.get_mut(key)
            && !map.values_mut().all(strict_node)
        {
            return false;
        }
    }
    for key in ["anyOf", "allOf", "prefixItems"] {
        if let Some(Value::Array(list)) = obj.get_mut(key)
            && !list.iter_mut().all(strict_node)
        {
            return false;
        }
    }
    for key in ["items", "not", "if", "then", "else"] {
        if let Some(sub) = obj.get_mut(key)
            && !strict_node(sub)
        {
            return false;
        }
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn strict_schema_closes_objects_and_requires_every_field() {
        let schema = json!({
            "$schema": "https://json-schema.org/draft/2020-12/schema",
            "type": "object",
            "properties": {
                "name": {"type": "string"},
                "age": {"type": ["integer", "null"], "format": "uint32", "minimum": 0},
                "pet": {"$ref": "#/$defs/Pet"}
            },
            "required": ["name"],
            "$defs": {"Pet": {"oneOf": [
                {"type": "object", "properties": {"kind": {"const": "cat"}}},
                {"type": "object", "properties": {"properties": {"type": "string"}}}
            ]}}
        });
        let strict = strict_schema(&schema).unwrap();
        assert!(strict.get("$schema").is_none());
        assert_eq!(strict["additionalProperties"], json!(false));
        let mut required: Vec<&str> = strict["required"]
            .as_array()
            .unwrap()
            .iter()
            .filter_map(Value::as_str)
            .collect();
        required.sort_unstable();
        assert_eq!(required, ["age", "name", "pet"]);
        assert!(strict["properties"]["age"].get("format").is_none());
        let variants = strict["$defs"]["Pet"]["anyOf"].as_array().unwrap();
        assert_eq!(variants[1]["required"], json!(["properties"]));
        assert_eq!(variants[1]["additionalProperties"], json!(false));
    }

    #[test]
    fn maps_and_non_object_roots_are_not_strict() {
        let map = json!({"type": "object", "additionalProperties": {"type": "integer"}});
        assert!(strict_schema(&map).is_none());
        assert!(strict_schema(&json!({"type": "array", "items": {"type": "string"}})).is_none());
    }

    #[test]
    fn cached_prompt_tokens_are_read_in_each_dialect() {
        let openai = json!({"usage": {"prompt_tokens": 2006, "completion_tokens": 300,
            "prompt_tokens_details": {"cached_tokens": 1920}}});
        let deepseek = json!({"usage": {"prompt_tokens": 1500, "completion_tokens": 90,
            "prompt_cache_hit_tokens": 1280, "prompt_cache_miss_tokens": 220}});
        let plain = json!({"usage": {"prompt_tokens": 10, "completion_tokens": 2}});
        let cached = |b: &Value| parse_usage(b).map(|u| (u.input_tokens, u.cached_input_tokens));
        assert_eq!(cached(&openai), Some((2006, 1920)));
        assert_eq!(cached(&deepseek), Some((1500, 1280)));
        assert_eq!(cached(&plain), Some((10, 0)));
    }

    #[test]
    fn completion_parsing_takes_text_usage_and_reason() {
        let body = json!({
            "model": "m-2024",
            "choices": [{"message": {"role": "assistant", "content": "hi"}, "finish_reason": "length"}],
            "usage": {"prompt_tokens": 3, "completion_tokens": 5}
        });
        let r = parse_completion(&body, "m").unwrap();
        assert_eq!(
            (r.text.as_str(), r.finish_reason, r.model.as_str()),
            ("hi", FinishReason::Length, "m-2024")
        );
        assert_eq!(
            r.usage,
            Usage {
                input_tokens: 3,
                output_tokens: 5,
                ..Usage::default()
            }
        );
        assert!(matches!(
            parse_completion(&json!({"choices": []}), "m"),
            Err(LlmError::BadResponse(_))
        ));
        assert!(matches!(
            parse_completion(&json!({"error": {"message": "quota"}}), "m"),
            Err(LlmError::Provider(m)) if m == "quota"
        ));
    }
}
