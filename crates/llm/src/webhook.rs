//! One plain JSON POST, for the `post_webhook` tool in core: reqwest lives only in this
//! crate (DESIGN.md), so core calls this instead of holding an HTTP client itself.

use std::time::Duration;

/// Webhook answers are only kept for the approval's record.
const MAX_BODY_CHARS: usize = 500;

/// What came back from a POST that reached the server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostResponse {
    pub status: u16,
    /// The start of the response body.
    pub body: String,
}

#[derive(Debug, thiserror::Error)]
pub enum PostError {
    #[error("only http and https URLs can be posted to: {0}")]
    InvalidUrl(String),
    #[error("the request did not complete: {0}")]
    Transport(String),
    #[error("the server answered {status}: {body}")]
    Status { status: u16, body: String },
}

/// POSTs `body` as JSON to `url` within `timeout`; a non-2xx answer is an error.
pub async fn post_json(
    url: &str,
    body: &serde_json::Value,
    timeout: Duration,
) -> Result<PostResponse, PostError> {
    let lower = url.trim().to_ascii_lowercase();
    if !(lower.starts_with("http://") || lower.starts_with("https://")) {
        return Err(PostError::InvalidUrl(url.to_owned()));
    }
    let client = reqwest::Client::builder()
        .timeout(timeout)
        .build()
        .map_err(|e| PostError::Transport(crate::http::error_chain(&e)))?;
    let resp = client
        .post(url.trim())
        .json(body)
        .send()
        .await
        .map_err(|e| PostError::Transport(crate::http::error_chain(&e)))?;
    let status = resp.status().as_u16();
    let text: String = resp
        .text()
        .await
        .unwrap_or_default()
        .chars()
        .take(MAX_BODY_CHARS)
        .collect();
    if !(200..300).contains(&status) {
        return Err(PostError::Status { status, body: text });
    }
    Ok(PostResponse { status, body: text })
}
