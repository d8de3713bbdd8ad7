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

#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
pub struct CompletionRequest {
    /// Model id as the provider names it; empty means the backend's default model.
    pub model: String,
    pub messages: Vec<ChatMessage>,
    /// When set, the backend constrains or instructs the output to match it.
    pub json_schema: Option<JsonSchemaSpec>,
    pub temperature: Option<f32>,
    pub max_tokens: Option<u32>,
    pub stop: Vec<String>,
    /// Sampling seed: the same seed and prompt give the same answer where the backend
    /// honours it (OpenAI-compatible `seed`, the built-in model). `None`: fresh each time.
    pub seed: Option<u64>,
}

#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    pub input_tokens: u32,
    pub output_tokens: u32,
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
            | LlmError::Builtin(_) => false,
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
    async fn complete(&self, req: CompletionRequest) -> Result<CompletionResponse, LlmError>;
    async fn stream(&self, req: CompletionRequest) -> Result<CompletionStream, LlmError>;
}

#[cfg(test)]
mod tests {
    use super::*;

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
