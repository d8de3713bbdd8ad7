//! The shared vocabulary of every backend: requests, responses, stream events, errors,
//! capabilities, and the redacted API key.

use std::fmt;
use std::time::Duration;

use async_trait::async_trait;
use futures::stream::BoxStream;
use serde::{Deserialize, Serialize};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    System,
    User,
    Assistant,
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatMessage {
    pub role: Role,
    pub content: String,
}

impl ChatMessage {
    pub fn system(content: impl Into<String>) -> Self {
        Self {
            role: Role::System,
            content: content.into(),
        }
    }
    pub fn user(content: impl Into<String>) -> Self {
        Self {
            role: Role::User,
            content: content.into(),
        }
    }
    pub fn assistant(content: impl Into<String>) -> Self {
        Self {
            role: Role::Assistant,
            content: content.into(),
        }
    }
}

/// A JSON schema the output must follow, with a short name (OpenAI requires one).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct JsonSchemaSpec {
    pub name: String,
    pub schema: serde_json::Value,
}

/// How a JSON answer is asked for on the wire. Servers differ in what they accept, so the
/// structured pipeline walks a ladder of these (see [`LlmClient::json_forms`]), strongest
/// and cheapest first, and steps down when a server rejects one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum JsonForm {
    /// `response_format: {type: json_schema}` (OpenAI, vLLM, LM Studio, Ollama, OpenRouter),
    /// or the grammar made from the schema (the built-in model). Enforced by the server.
    JsonSchema,
    /// Anthropic: one tool whose `input_schema` is the schema, forced by `tool_choice`;
    /// the tool call's input is the answer.
    Tool,
    /// `response_format: {type: json_object, schema: …}`: llama-cpp-python's server
    /// rejects `json_schema` but enforces this by grammar.
    JsonObjectSchema,
    /// `response_format: {type: json_object}`: JSON guaranteed, its shape told in the prompt.
    JsonObject,
    /// Nothing on the wire; the shape is told in the prompt and the answer repaired.
    Prompt,
}

impl JsonForm {
    /// Whether the server itself holds the answer to the schema, so the prompt need not
    /// carry the shape.
    pub fn enforced(self) -> bool {
        matches!(self, JsonForm::JsonSchema | JsonForm::Tool)
    }
}

/// A stable name for logs and settings: the serde name.
impl std::fmt::Display for JsonForm {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match serde_json::to_value(self) {
            Ok(serde_json::Value::String(s)) => f.write_str(&s),
            _ => Err(std::fmt::Error),
        }
    }
}

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompletionRequest {
    /// Model id as the provider names it; empty means the backend's default model.
    pub model: String,
    pub messages: Vec<ChatMessage>,
    /// When set, the backend constrains or instructs the output to match it.
    pub json_schema: Option<JsonSchemaSpec>,
    /// How `json_schema` goes on the wire; `None`: the backend's strongest form.
    pub json_form: Option<JsonForm>,
    /// The caller's own description of the JSON answer. The structured pipeline appends
    /// one of its two lengths to the system prompt, never both and never beside a second
    /// description of its own: see [`AnswerNote`].
    pub answer_note: Option<AnswerNote>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    pub stop: Vec<String>,
    /// Sampling seed: the same seed and prompt give the same answer where the backend
    /// honours it (OpenAI-compatible `seed`, the built-in model). `None`: fresh each time.
    pub seed: Option<u64>,
    /// A plain-text answer's shape. The built-in model enforces it by grammar, so the
    /// answer ends by itself within [`TextShape::max_tokens`]; other backends get
    /// `max_tokens` only. Ignored when `json_schema` is set.
    pub shape: Option<TextShape>,
}

/// A caller's words on its JSON answer, in two lengths, so each server gets the contract
/// once, in its cheapest form.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct AnswerNote {
    /// Every field and what it means: sent when the server does not enforce the schema,
    /// instead of the pipeline's generic shape line.
    pub full: String,
    /// Only what the schema cannot say (value ranges, what a field is for): sent beside a
    /// schema the server enforces.
    pub meanings: String,
}

/// The shape of a plain-text answer, for models that must never run past their output
/// budget: a small model that rambles is stopped by the shape, not cut off by the cap.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TextShape {
    /// Free text of 1 to `max_chars` characters, without control characters or characters
    /// outside the Basic Multilingual Plane (so each takes at most 3 bytes of UTF-8);
    /// `single_line` also leaves out line breaks.
    Text { max_chars: u32, single_line: bool },
    /// Exactly one of these options, verbatim.
    OneOf { options: Vec<String> },
}

/// The most UTF-8 bytes one character of a [`TextShape::Text`] answer may take.
pub const SHAPE_MAX_CHAR_BYTES: u32 = 3;

impl TextShape {
    /// The most UTF-8 bytes an answer of this shape can take.
    pub fn max_bytes(&self) -> u32 {
        match self {
            Self::Text { max_chars, .. } => max_chars.saturating_mul(SHAPE_MAX_CHAR_BYTES),
            Self::OneOf { options } => options
                .iter()
                .map(|o| u32::try_from(o.len()).unwrap_or(u32::MAX))
                .max()
                .unwrap_or(0),
        }
    }

    /// A token cap the answer can never reach: every token a model emits is at least one
    /// byte of text, so an answer of this shape takes at most [`TextShape::max_bytes`]
    /// tokens; one more leaves room for the end-of-generation token.
    pub fn max_tokens(&self) -> u32 {
        self.max_bytes().saturating_add(1)
    }

    /// Whether `text` is an answer of this shape (the check the grammar makes as it goes).
    pub fn accepts(&self, text: &str) -> bool {
        match self {
            Self::Text {
                max_chars,
                single_line,
            } => {
                let n = text.chars().count();
                n >= 1
                    && n <= *max_chars as usize
                    && text.chars().all(|c| shape_char_allowed(c, *single_line))
            }
            Self::OneOf { options } => options.iter().any(|o| o == text),
        }
    }
}

/// The characters a [`TextShape::Text`] answer may use.
pub fn shape_char_allowed(c: char, single_line: bool) -> bool {
    let code = u32::from(c);
    if code > 0xFFFF || code == 0x7F {
        return false;
    }
    if c == '\n' {
        return !single_line;
    }
    code >= 0x20
}

/// What a model can handle, so the engine sizes prompts and answers to fit it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ModelProfile {
    /// Tokens the prompt and the answer share.
    pub context_len: u32,
    /// The longest answer worth asking for.
    pub output_budget: u32,
    /// A small local model (a few hundred million to ~2 billion parameters): the engine
    /// breaks work into short steps, each a plain-text answer of a bounded shape, instead
    /// of one large JSON thought.
    pub small: bool,
}

impl ModelProfile {
    /// A hosted or server model: a large context and full JSON thoughts.
    pub const HOSTED: Self = Self {
        context_len: 32_768,
        output_budget: 1_024,
        small: false,
    };

    /// A small model served by a local server (Ollama, LM Studio, llama.cpp): its
    /// server's context is unknown, so the built-in model's is assumed.
    pub const SMALL_SERVED: Self = Self {
        context_len: 4_096,
        output_budget: 1_024,
        small: true,
    };

    /// The profile a model's id declares: local model ids carry their size
    /// (`qwen2.5:0.5b`, `llama3.2:1b`, `smollm2-135m-instruct`, `Qwen2.5-1.5B-Instruct`),
    /// and one of at most [`SMALL_MODEL_PARAMETERS`] is small.
    pub fn from_model_id(model: &str) -> Self {
        match parameters_in_id(model) {
            Some(n) if n <= SMALL_MODEL_PARAMETERS => Self::SMALL_SERVED,
            _ => Self::HOSTED,
        }
    }
}

/// Up to this many parameters a model cannot be trusted with a whole JSON thought
/// (measured: SmolLM2-135M cut 7 of 12 thoughts off at the cap); the engine gives it
/// short steps.
pub const SMALL_MODEL_PARAMETERS: u64 = 2_000_000_000;

/// The parameter count written in a model id: a number directly followed by `b`/`B`
/// (billions) or `m`/`M` (millions) and not by another letter or digit (`0.5b`, `135M`,
/// `1.5B-Instruct`; not `gpt-4o`, `8k`, `moonshot-v1-8k` or `mbps`).
pub fn parameters_in_id(model: &str) -> Option<u64> {
    let lower = model.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut found = None;
    for (i, &b) in bytes.iter().enumerate() {
        let scale = match b {
            b'b' => 1e9,
            b'm' => 1e6,
            _ => continue,
        };
        let after_ok = bytes.get(i + 1).is_none_or(|c| !c.is_ascii_alphanumeric());
        let start = lower[..i]
            .rfind(|c: char| !(c.is_ascii_digit() || c == '.'))
            .map_or(0, |p| p + 1);
        let before_ok =
            start == 0 || !bytes[start - 1].is_ascii_alphabetic() || bytes[start - 1] == b'x';
        let number = &lower[start..i];
        if !after_ok || !before_ok || number.is_empty() {
            continue;
        }
        if let Ok(n) = number.parse::<f64>() {
            found = Some((n * scale) as u64);
        }
    }
    found
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
    /// Of `input_tokens`, those the provider served from its prompt cache (OpenAI
    /// `prompt_tokens_details.cached_tokens`, DeepSeek `prompt_cache_hit_tokens`,
    /// Anthropic `cache_read_input_tokens`).
    #[serde(default)]
    pub cached_input_tokens: u32,
    /// Of `input_tokens`, those written to the prompt cache at a premium (Anthropic
    /// `cache_creation_input_tokens`); providers that cache on their own charge nothing for it.
    #[serde(default)]
    pub cache_write_input_tokens: u32,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FinishReason {
    Stop,
    Length,
    ContentFilter,
    Other,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CompletionResponse {
    pub text: String,
    pub usage: Usage,
    pub finish_reason: FinishReason,
    /// The model that actually answered, as the provider reports it.
    pub model: String,
}

/// One piece of a streamed completion.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    /// Text to append.
    Delta(String),
    /// The stream ended normally.
    Done {
        usage: Usage,
        finish_reason: FinishReason,
    },
}

pub type CompletionStream = BoxStream<'static, Result<StreamEvent, LlmError>>;

/// What a backend can do natively; the structured-output pipeline picks its strategy from it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Capabilities {
    /// `response_format: {type: json_schema}` (or a grammar, for the built-in model).
    pub json_schema: bool,
    /// `response_format: {type: json_object}`.
    pub json_object: bool,
    pub stream: bool,
}

impl Capabilities {
    /// The OpenAI-compatible ladder. A server that claims `json_schema` may still reject
    /// it (a self-hosted one can be anything behind a preset's URL), so every form below
    /// it stays reachable; one that only claims `json_object` starts there, with the
    /// shape in the prompt.
    pub fn json_forms(self) -> Vec<JsonForm> {
        if self.json_schema {
            vec![
                JsonForm::JsonSchema,
                JsonForm::JsonObjectSchema,
                JsonForm::JsonObject,
                JsonForm::Prompt,
            ]
        } else if self.json_object {
            vec![JsonForm::JsonObject, JsonForm::Prompt]
        } else {
            vec![JsonForm::Prompt]
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum LlmError {
    #[error("rate limited by the provider{}", retry_after.map(|d| format!(" (retry after {}s)", d.as_secs())).unwrap_or_default())]
    RateLimited { retry_after: Option<Duration> },
    #[error("the model call timed out")]
    Timeout,
    #[error("HTTP {status}: {body}")]
    Http { status: u16, body: String },
    #[error("could not reach the provider: {0}")]
    Transport(String),
    #[error("the provider's answer was not understood: {0}")]
    BadResponse(String),
    #[error("the provider refused: {0}")]
    Provider(String),
    #[error("the stream ended before the answer was complete")]
    StreamCut,
    #[error("no API key is set for {0}")]
    MissingKey(String),
    #[error("the built-in model is unavailable: {0}")]
    Builtin(String),
    /// The provider's configuration came from somewhere the boss has not vouched for
    /// (an imported company): nothing was sent. The message says how to confirm it.
    #[error("{0}")]
    Unconfirmed(String),
    /// The server refused the way structured output was asked for (e.g. llama-cpp-python
    /// answers HTTP 500 to `response_format: json_schema`); another [`JsonForm`] may work.
    #[error("the provider does not accept {form} output (HTTP {status}): {body}")]
    UnsupportedJsonForm {
        form: JsonForm,
        status: u16,
        body: String,
    },
}

impl LlmError {
    /// Worth trying again later (the gateway retries these with backoff).
    pub fn is_retryable(&self) -> bool {
        match self {
            LlmError::RateLimited { .. }
            | LlmError::Timeout
            | LlmError::Transport(_)
            | LlmError::StreamCut => true,
            LlmError::Http { status, .. } => *status >= 500 || *status == 408,
            LlmError::BadResponse(_)
            | LlmError::Provider(_)
            | LlmError::MissingKey(_)
            | LlmError::Builtin(_)
            | LlmError::Unconfirmed(_)
            | LlmError::UnsupportedJsonForm { .. } => false,
        }
    }

    /// A short stable code for ledgers and the UI.
    pub fn code(&self) -> &'static str {
        match self {
            LlmError::RateLimited { .. } => "rate_limited",
            LlmError::Timeout => "timeout",
            LlmError::Http { .. } => "http",
            LlmError::Transport(_) => "transport",
            LlmError::BadResponse(_) => "bad_response",
            LlmError::Provider(_) => "provider",
            LlmError::StreamCut => "stream_cut",
            LlmError::MissingKey(_) => "missing_key",
            LlmError::Builtin(_) => "builtin",
            LlmError::Unconfirmed(_) => "unconfirmed",
            LlmError::UnsupportedJsonForm { .. } => "unsupported_json_form",
        }
    }
}

/// An API key. Never printed: `Debug` and `Display` show `***`; the bytes leave only
/// through [`ApiKey::expose`], which is called where the HTTP header is built.
#[derive(Clone, PartialEq, Eq)]
pub struct ApiKey(String);

impl ApiKey {
    pub fn new(key: impl Into<String>) -> Self {
        Self(key.into())
    }
    pub fn expose(&self) -> &str {
        &self.0
    }
}

impl fmt::Debug for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("ApiKey(***)")
    }
}

impl fmt::Display for ApiKey {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("***")
    }
}

/// One model backend. No business logic: a request in, text (or a stream) out.
#[async_trait]
pub trait LlmClient: Send + Sync {
    /// The provider id this client talks to (e.g. `openai`, `builtin`).
    fn provider_id(&self) -> &str;
    fn capabilities(&self) -> Capabilities;
    /// What `model` (empty: the client's default) can handle; hosted and server models
    /// by default.
    fn profile(&self, _model: &str) -> ModelProfile {
        ModelProfile::HOSTED
    }
    /// The ways this backend can be asked for JSON, best first; the structured pipeline
    /// starts at the first (or at what the gateway learned works) and steps down when the
    /// server rejects one. The cheapest form that the server enforces comes first.
    fn json_forms(&self) -> Vec<JsonForm> {
        self.capabilities().json_forms()
    }
    /// The JSON body this backend would send for `req`, exactly (for figures that count
    /// what goes over the wire); `None` for a backend that sends none (the built-in model).
    fn wire_body(&self, _req: &CompletionRequest) -> Option<serde_json::Value> {
        None
    }
    async fn complete(&self, req: CompletionRequest) -> Result<CompletionResponse, LlmError>;
    async fn stream(&self, req: CompletionRequest) -> Result<CompletionStream, LlmError>;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn model_ids_declare_their_size() {
        for (id, params) in [
            ("qwen2.5:0.5b", Some(500_000_000)),
            ("llama3.2:1b-instruct-q4_K_M", Some(1_000_000_000)),
            ("SmolLM2-135M-Instruct", Some(135_000_000)),
            ("smollm2-135m", Some(135_000_000)),
            ("gemma-3-270m-it", Some(270_000_000)),
            ("Qwen/Qwen2.5-7B-Instruct", Some(7_000_000_000)),
            ("mixtral-8x7b", Some(7_000_000_000)),
            ("gpt-4.1-mini", None),
            ("gpt-4o", None),
            ("moonshot-v1-8k", None),
            ("deepseek-chat", None),
            ("claude-haiku-4-5", None),
            ("qwen2.5", None),
        ] {
            assert_eq!(parameters_in_id(id), params, "{id}");
        }
        assert!(ModelProfile::from_model_id("qwen2.5:1.5b").small);
        assert!(!ModelProfile::from_model_id("qwen2.5:3b").small);
        assert!(!ModelProfile::from_model_id("gpt-4o-mini").small);
    }

    #[test]
    fn a_shape_bounds_its_answer() {
        let line = TextShape::Text {
            max_chars: 4,
            single_line: true,
        };
        assert!(line.accepts("ab c"));
        assert!(line.accepts("你好"));
        assert!(!line.accepts(""), "at least one character");
        assert!(!line.accepts("abcde"), "too long");
        assert!(!line.accepts("a\nb"), "one line");
        assert!(!line.accepts("\u{1F600}"), "outside the BMP");
        assert_eq!(line.max_bytes(), 12);
        assert_eq!(line.max_tokens(), 13);
        let text = TextShape::Text {
            max_chars: 4,
            single_line: false,
        };
        assert!(text.accepts("a\nb"));
        assert!(!text.accepts("a\tb"), "no other control characters");
        let choice = TextShape::OneOf {
            options: vec!["reply".into(), "silent".into()],
        };
        assert!(choice.accepts("silent") && !choice.accepts("Silent"));
        assert_eq!(choice.max_bytes(), 6);
    }

    #[test]
    fn api_keys_never_print() {
        let key = ApiKey::new("sk-secret-123");
        assert_eq!(format!("{key:?}"), "ApiKey(***)");
        assert_eq!(format!("{key}"), "***");
        assert_eq!(key.expose(), "sk-secret-123");
    }

    #[test]
    fn retryable_errors_are_the_transient_ones() {
        assert!(LlmError::RateLimited { retry_after: None }.is_retryable());
        assert!(
            LlmError::Http {
                status: 503,
                body: String::new()
            }
            .is_retryable()
        );
        assert!(
            !LlmError::Http {
                status: 401,
                body: String::new()
            }
            .is_retryable()
        );
        assert!(!LlmError::BadResponse("x".into()).is_retryable());
    }
}
