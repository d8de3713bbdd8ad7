//! What the two HTTP dialects share: the backend configuration, the reqwest client,
//! and the mapping of HTTP failures onto [`LlmError`] without ever leaking the key.

use std::time::{Duration, SystemTime};

use futures::StreamExt;
use futures::stream::BoxStream;

use crate::types::{ApiKey, Capabilities, JsonForm, LlmError};

/// Error bodies are kept for the log and the UI, but a provider can send pages of HTML.
const MAX_ERROR_BODY_CHARS: usize = 500;

/// Everything an HTTP backend needs; built by `presets::client_for` or by hand.
#[derive(Clone, Debug)]
pub struct HttpConfig {
    /// Provider id as the rest of the app names it (`openai`, `deepseek`, …).
    pub provider_id: String,
    /// API root without the endpoint, e.g. `https://api.openai.com/v1`.
    pub base_url: String,
    pub api_key: Option<ApiKey>,
    /// Used when a request leaves `model` empty.
    pub default_model: String,
    pub capabilities: Capabilities,
    /// A whole non-streamed call, and the longest silence allowed inside a stream.
    pub timeout: Duration,
}

impl HttpConfig {
    pub(crate) fn endpoint(&self, path: &str) -> String {
        format!("{}/{}", self.base_url.trim_end_matches('/'), path)
    }

    pub(crate) fn model<'a>(&'a self, requested: &'a str) -> &'a str {
        if requested.is_empty() {
            &self.default_model
        } else {
            requested
        }
    }

    /// `read_timeout` rather than a client-wide `timeout`: a long stream that keeps
    /// talking is healthy, only silence is a failure. Whole-call limits are set per request.
    pub(crate) fn build_client(&self) -> Result<reqwest::Client, LlmError> {
        reqwest::Client::builder()
            .read_timeout(self.timeout)
            .connect_timeout(self.timeout)
            .build()
            .map_err(|e| LlmError::Transport(error_chain(&e)))
    }

    /// Replaces every occurrence of the key, in case a provider echoes it back.
    pub(crate) fn scrub(&self, text: &str) -> String {
        match &self.api_key {
            Some(key) if !key.expose().is_empty() => text.replace(key.expose(), "***"),
            _ => text.to_owned(),
        }
    }

    pub(crate) fn transport_error(&self, err: &reqwest::Error) -> LlmError {
        if err.is_timeout() {
            LlmError::Timeout
        } else {
            LlmError::Transport(self.scrub(&error_chain(err)))
        }
    }

    /// Sends a request and returns its response once the headers say success. The timeout
    /// bounds the wait for the headers; a stream has no whole-call limit beyond that.
    pub(crate) async fn send(
        &self,
        builder: reqwest::RequestBuilder,
    ) -> Result<reqwest::Response, LlmError> {
        let resp = tokio::time::timeout(self.timeout, builder.send())
            .await
            .map_err(|_| LlmError::Timeout)?
            .map_err(|e| self.transport_error(&e))?;
        if resp.status().is_success() {
            Ok(resp)
        } else {
            Err(self.status_error(resp).await)
        }
    }

    /// Turns a non-2xx answer into an error, reading (a bounded amount of) its body.
    pub(crate) async fn status_error(&self, resp: reqwest::Response) -> LlmError {
        let status = resp.status().as_u16();
        if status == 429 {
            return LlmError::RateLimited {
                retry_after: retry_after(resp.headers(), SystemTime::now()),
            };
        }
        let body = match resp.text().await {
            Ok(body) => body,
            Err(e) => format!("(body unreadable: {})", error_chain(&e)),
        };
        LlmError::Http {
            status,
            body: truncate(&self.scrub(&body), MAX_ERROR_BODY_CHARS),
        }
    }

    /// Reads a 2xx body as JSON, or says what came instead.
    pub(crate) async fn json_body(
        &self,
        resp: reqwest::Response,
    ) -> Result<serde_json::Value, LlmError> {
        let text = resp.text().await.map_err(|e| self.transport_error(&e))?;
        serde_json::from_str(&text).map_err(|e| {
            LlmError::BadResponse(format!(
                "not JSON ({e}): {}",
                truncate(&self.scrub(&text), MAX_ERROR_BODY_CHARS)
            ))
        })
    }
}

/// Statuses with which servers refuse a request shape they do not support: 400/422 from
/// strict validators, 500 from llama-cpp-python, whose validation error escapes as one.
const FORM_REJECTION_STATUSES: &[u16] = &[400, 422, 500];

/// A refusal of the structured-output form, told apart from any other failure: a 400,
/// 422 or 500 whose body names one of `words` (the request fields that carried the form).
/// Such an error is not retried as it is; the structured pipeline tries the next form.
pub(crate) fn form_rejection(err: LlmError, form: Option<JsonForm>, words: &[&str]) -> LlmError {
    let Some(form) = form.filter(|f| *f != JsonForm::Prompt) else {
        return err;
    };
    match err {
        LlmError::Http { status, body }
            if FORM_REJECTION_STATUSES.contains(&status)
                && words.iter().any(|w| body.to_lowercase().contains(w)) =>
        {
            LlmError::UnsupportedJsonForm { form, status, body }
        }
        other => other,
    }
}

/// reqwest's own message is only "error sending request"; the cause is in the chain.
pub(crate) fn error_chain(err: &dyn std::error::Error) -> String {
    let mut text = err.to_string();
    let mut source = err.source();
    while let Some(cause) = source {
        let cause_text = cause.to_string();
        if !text.contains(&cause_text) {
            text.push_str(": ");
            text.push_str(&cause_text);
        }
        source = cause.source();
    }
    text
}

pub(crate) fn truncate(text: &str, max_chars: usize) -> String {
    match text.char_indices().nth(max_chars) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_owned(),
    }
}

/// `Retry-After` in seconds or as an HTTP date; OpenAI also sends a millisecond variant.
pub(crate) fn retry_after(
    headers: &reqwest::header::HeaderMap,
    now: SystemTime,
) -> Option<Duration> {
    let header = |name: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .map(str::trim)
    };
    if let Some(ms) = header("retry-after-ms").and_then(|v| v.parse::<f64>().ok())
        && ms.is_finite()
        && ms >= 0.0
    {
        return Some(Duration::from_millis(ms as u64));
    }
    let value = header("retry-after")?;
    if let Ok(secs) = value.parse::<u64>() {
        return Some(Duration::from_secs(secs));
    }
    let at = httpdate::parse_http_date(value).ok()?;
    Some(at.duration_since(now).unwrap_or(Duration::ZERO))
}

/// The SSE events of a successful streamed response, with transport failures mapped.
pub(crate) type SseEvents = BoxStream<'static, Result<eventsource_stream::Event, LlmError>>;

pub(crate) fn sse_events(config: &HttpConfig, resp: reqwest::Response) -> SseEvents {
    use eventsource_stream::{EventStreamError, Eventsource};
    let config = config.clone();
    resp.bytes_stream()
        .eventsource()
        .map(move |item| {
            item.map_err(|e| match e {
                // A body that stops mid-answer is a cut stream unless it simply went silent.
                EventStreamError::Transport(e) if e.is_timeout() => LlmError::Timeout,
                EventStreamError::Transport(_) => LlmError::StreamCut,
                EventStreamError::Utf8(e) => {
                    LlmError::BadResponse(format!("stream is not UTF-8: {e}"))
                }
                EventStreamError::Parser(e) => {
                    LlmError::BadResponse(config.scrub(&format!("malformed event stream: {e}")))
                }
            })
        })
        .boxed()
}

#[cfg(test)]
mod tests {
    use super::*;
    use reqwest::header::{HeaderMap, HeaderValue};

    fn headers(pairs: &[(&'static str, &'static str)]) -> HeaderMap {
        let mut map = HeaderMap::new();
        for (k, v) in pairs {
            map.insert(*k, HeaderValue::from_static(v));
        }
        map
    }

    #[test]
    fn retry_after_reads_seconds_dates_and_milliseconds() {
        let now = httpdate::parse_http_date("Wed, 21 Oct 2015 07:28:00 GMT").unwrap();
        assert_eq!(
            retry_after(&headers(&[("retry-after", "7")]), now),
            Some(Duration::from_secs(7))
        );
        assert_eq!(
            retry_after(
                &headers(&[("retry-after", "Wed, 21 Oct 2015 07:28:30 GMT")]),
                now
            ),
            Some(Duration::from_secs(30))
        );
        assert_eq!(
            retry_after(
                &headers(&[("retry-after", "Wed, 21 Oct 2015 07:00:00 GMT")]),
                now
            ),
            Some(Duration::ZERO)
        );
        assert_eq!(
            retry_after(
                &headers(&[("retry-after-ms", "1500"), ("retry-after", "9")]),
                now
            ),
            Some(Duration::from_millis(1500))
        );
        assert_eq!(retry_after(&headers(&[("retry-after", "soon")]), now), None);
        assert_eq!(retry_after(&headers(&[]), now), None);
    }

    #[test]
    fn only_a_refusal_that_names_the_form_is_a_form_rejection() {
        let http = |status: u16, body: &str| LlmError::Http {
            status,
            body: body.into(),
        };
        let words = &["response_format", "schema"];
        let llama_cpp_python = "{\"detail\":[{\"loc\":[\"body\",\"response_format\",\"type\"],\"msg\":\"Input should be 'text' or 'json_object'\"}]}";
        assert!(matches!(
            form_rejection(
                http(500, llama_cpp_python),
                Some(JsonForm::JsonSchema),
                words
            ),
            LlmError::UnsupportedJsonForm {
                form: JsonForm::JsonSchema,
                status: 500,
                ..
            }
        ));
        assert!(matches!(
            form_rejection(
                http(400, "Invalid JSON Schema"),
                Some(JsonForm::JsonObjectSchema),
                words
            ),
            LlmError::UnsupportedJsonForm { .. }
        ));
        // A plain outage, a refusal about something else, or no form on the wire at all.
        assert!(matches!(
            form_rejection(
                http(500, "internal error"),
                Some(JsonForm::JsonSchema),
                words
            ),
            LlmError::Http { status: 500, .. }
        ));
        assert!(matches!(
            form_rejection(
                http(401, "bad response_format key"),
                Some(JsonForm::JsonSchema),
                words
            ),
            LlmError::Http { status: 401, .. }
        ));
        assert!(matches!(
            form_rejection(http(400, "response_format"), Some(JsonForm::Prompt), words),
            LlmError::Http { .. }
        ));
        assert!(matches!(
            form_rejection(http(400, "response_format"), None, words),
            LlmError::Http { .. }
        ));
        assert!(matches!(
            form_rejection(LlmError::Timeout, Some(JsonForm::JsonSchema), words),
            LlmError::Timeout
        ));
    }

    #[test]
    fn truncation_respects_char_boundaries() {
        assert_eq!(truncate("héllo", 2), "hé…");
        assert_eq!(truncate("short", 10), "short");
    }

    #[test]
    fn endpoint_tolerates_a_trailing_slash() {
        let config = HttpConfig {
            provider_id: "x".into(),
            base_url: "http://localhost:11434/v1/".into(),
            api_key: None,
            default_model: "m".into(),
            capabilities: Capabilities::default(),
            timeout: Duration::from_secs(1),
        };
        assert_eq!(
            config.endpoint("chat/completions"),
            "http://localhost:11434/v1/chat/completions"
        );
    }
}
