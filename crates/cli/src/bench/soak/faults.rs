//! The faulty provider of `bench soak`: a real OpenAI-compatible HTTP server on
//! loopback that answers most requests with a valid flow-of-thought and fails the rest
//! in every way a real provider does. Which request fails, and how, comes from a seeded
//! RNG, so a run repeats.
//!
//! Faults are dealt from a shuffled deck holding every kind once, so over any few
//! dozen calls each kind shows up (a one-day test still sees them all). On top of the
//! random faults, the provider has one outage a day: for a few simulated minutes every
//! request gets HTTP 500 — three failed calls in a row, so the breaker has to open.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Result;
use chrono::{DateTime, Utc};
use cubicle_core::clock::SharedClock;
use rand::rngs::StdRng;
use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use serde::Serialize;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};

use super::super::chat::lock;
use super::model;

/// What the server did with one request.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, PartialOrd, Ord)]
#[serde(rename_all = "snake_case")]
pub enum Fault {
    /// HTTP 429 with `Retry-After: 1`.
    RateLimitedRetryAfter,
    /// HTTP 429 without a hint.
    RateLimited,
    /// HTTP 500.
    ServerError,
    /// Holds the request past the gateway's per-call timeout, then hangs up.
    Timeout,
    /// Sends the headers and half the body, then closes the connection.
    Cut,
    /// A thought cut off mid-JSON (HTTP 200).
    Truncated,
    /// A valid thought wrapped in prose and a ```json fence (HTTP 200).
    Fenced,
    /// JSON of the wrong shape: strings for booleans, a string for the message list.
    WrongTypes,
    /// Prose, no JSON at all.
    NotJson,
}

impl Fault {
    pub const ALL: [Fault; 9] = [
        Fault::RateLimitedRetryAfter,
        Fault::RateLimited,
        Fault::ServerError,
        Fault::Timeout,
        Fault::Cut,
        Fault::Truncated,
        Fault::Fenced,
        Fault::WrongTypes,
        Fault::NotJson,
    ];

    pub fn as_str(self) -> &'static str {
        match self {
            Fault::RateLimitedRetryAfter => "429 + Retry-After",
            Fault::RateLimited => "429 (no Retry-After)",
            Fault::ServerError => "HTTP 500",
            Fault::Timeout => "timeout",
            Fault::Cut => "cut mid-body",
            Fault::Truncated => "garbage: truncated JSON",
            Fault::Fenced => "garbage: fenced JSON",
            Fault::WrongTypes => "garbage: wrong types",
            Fault::NotJson => "garbage: not JSON",
        }
    }
}

/// How the provider misbehaves.
#[derive(Clone, Debug)]
pub struct FaultConfig {
    pub seed: u64,
    /// Share of requests (outside outages) that get a fault.
    pub rate: f64,
    /// How long a "timeout" request is held: longer than the gateway's call timeout.
    pub hold: Duration,
    /// The daily outages, in simulated time: (start, end).
    pub outages: Vec<(DateTime<Utc>, DateTime<Utc>)>,
}

/// What the server counted, for the report's "injected" column.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Injected {
    pub requests: u64,
    pub valid: u64,
    /// Faults dealt at random, by kind.
    pub faults: std::collections::BTreeMap<Fault, u64>,
    /// Requests answered with 500 because they fell in an outage.
    pub outage: u64,
    /// Structured retries (the model was told its answer was unusable) that got garbage
    /// again.
    pub garbage_after_feedback: u64,
}

struct State {
    rng: StdRng,
    deck: Vec<Fault>,
    injected: Injected,
}

#[derive(Clone)]
pub struct FaultyProvider {
    config: Arc<FaultConfig>,
    clock: SharedClock,
    state: Arc<Mutex<State>>,
}

enum Reply {
    Ok(String),
    Status(u16, Option<&'static str>),
    Hold,
    Cut(String),
}

impl FaultyProvider {
    pub fn new(config: FaultConfig, clock: SharedClock) -> Self {
        let rng = StdRng::seed_from_u64(config.seed ^ 0x5eed_fa17);
        Self {
            config: Arc::new(config),
            clock,
            state: Arc::new(Mutex::new(State {
                rng,
                deck: Vec::new(),
                injected: Injected::default(),
            })),
        }
    }

    pub fn injected(&self) -> Injected {
        lock(&self.state).injected.clone()
    }

    /// Decides what one request gets.
    fn decide(&self, body: &[u8]) -> Reply {
        let now = self.clock.now();
        let mut st = lock(&self.state);
        st.injected.requests += 1;
        if self
            .config
            .outages
            .iter()
            .any(|(from, to)| *from <= now && now < *to)
        {
            st.injected.outage += 1;
            return Reply::Status(500, None);
        }
        let request: serde_json::Value =
            serde_json::from_slice(body).unwrap_or(serde_json::Value::Null);
        let valid = model::answer(&request, &mut st.rng);
        // The model was told its last answer was unusable: half the time it gets it
        // wrong again, so some answers are dropped after the one feedback.
        let feedback = model::is_feedback(&request);
        let fault = if feedback && st.rng.random_bool(0.5) {
            st.injected.garbage_after_feedback += 1;
            Some(Fault::WrongTypes)
        } else if !feedback && st.rng.random_bool(self.config.rate.clamp(0.0, 1.0)) {
            if st.deck.is_empty() {
                let mut deck = Fault::ALL.to_vec();
                deck.shuffle(&mut st.rng);
                st.deck = deck;
            }
            let f = st.deck.pop();
            if let Some(f) = f {
                *st.injected.faults.entry(f).or_default() += 1;
            }
            f
        } else {
            None
        };
        let Some(fault) = fault else {
            st.injected.valid += 1;
            return Reply::Ok(completion(body.len(), &valid));
        };
        match fault {
            Fault::RateLimitedRetryAfter => Reply::Status(429, Some("1")),
            Fault::RateLimited => Reply::Status(429, None),
            Fault::ServerError => Reply::Status(500, None),
            Fault::Timeout => Reply::Hold,
            Fault::Cut => Reply::Cut(completion(body.len(), &valid)),
            garbage => Reply::Ok(completion(body.len(), &model::garbage(garbage, &valid))),
        }
    }

    /// Serves until the process ends; the base URL for the provider.
    pub async fn serve(&self) -> Result<String> {
        let listener = TcpListener::bind("127.0.0.1:0").await?;
        let addr = listener.local_addr()?;
        let me = self.clone();
        tokio::spawn(async move {
            while let Ok((sock, _)) = listener.accept().await {
                let me = me.clone();
                tokio::spawn(async move { me.connection(sock).await });
            }
        });
        Ok(format!("http://{addr}/v1"))
    }

    async fn connection(&self, mut sock: TcpStream) {
        let mut buf = vec![0u8; 64 * 1024];
        let mut pending = Vec::new();
        loop {
            let Ok(n) = sock.read(&mut buf).await else {
                return;
            };
            if n == 0 {
                return;
            }
            pending.extend_from_slice(&buf[..n]);
            while let Some(end) = find(&pending, b"\r\n\r\n") {
                let head = String::from_utf8_lossy(&pending[..end]).to_lowercase();
                let len = head
                    .lines()
                    .find_map(|l| l.strip_prefix("content-length:"))
                    .and_then(|v| v.trim().parse::<usize>().ok())
                    .unwrap_or(0);
                if pending.len() < end + 4 + len {
                    break;
                }
                let body: Vec<u8> = pending[end + 4..end + 4 + len].to_vec();
                pending.drain(..end + 4 + len);
                let done = match self.decide(&body) {
                    Reply::Ok(json) => sock.write_all(http(200, None, &json).as_bytes()).await,
                    Reply::Status(code, retry_after) => {
                        let body =
                            r#"{"error":{"message":"scripted fault","type":"server_error"}}"#;
                        sock.write_all(http(code, retry_after, body).as_bytes())
                            .await
                    }
                    Reply::Hold => {
                        // Longer than the gateway waits; then hang up without a word.
                        tokio::time::sleep(self.config.hold).await;
                        return;
                    }
                    Reply::Cut(json) => {
                        let full = http(200, None, &json);
                        let head_len = full.find("\r\n\r\n").map_or(0, |i| i + 4);
                        let cut = head_len + (full.len() - head_len) / 2;
                        let _ = sock.write_all(&full.as_bytes()[..cut]).await;
                        let _ = sock.flush().await;
                        return;
                    }
                };
                if done.is_err() {
                    return;
                }
            }
        }
    }
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

/// A chat completion carrying `content`; usage as a real provider would count it
/// (about four characters per token), so the ledger's cost follows the prompt size.
fn completion(request_bytes: usize, content: &str) -> String {
    serde_json::json!({
        "id": "soak", "object": "chat.completion", "model": "soak",
        "choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": content}}],
        "usage": {
            "prompt_tokens": request_bytes / 4,
            "completion_tokens": content.len() / 4 + 1,
        }
    })
    .to_string()
}

fn http(status: u16, retry_after: Option<&str>, body: &str) -> String {
    let reason = match status {
        200 => "OK",
        429 => "Too Many Requests",
        _ => "Internal Server Error",
    };
    let extra = retry_after.map_or_else(String::new, |s| format!("retry-after: {s}\r\n"));
    format!(
        "HTTP/1.1 {status} {reason}\r\ncontent-type: application/json\r\n{extra}content-length: {}\r\n\r\n{body}",
        body.len()
    )
}
