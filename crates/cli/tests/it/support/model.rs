//! A scripted OpenAI-compatible model for the CLI tests: a thread on loopback.

// Beside this file, shared with the busy company's model.
#[path = "http.rs"]
mod http;
use http::{read_request, respond};

/// A one-answer OpenAI-compatible server: every request gets `content` as the reply.
pub fn scripted_model(content: &str) -> String {
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    let body = serde_json::json!({
        "id": "x", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
                     "message": {"role": "assistant", "content": content}}],
        "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20}
    })
    .to_string();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            // Read the request head and its body before answering.
            read_request(&mut s);
            respond(&mut s, &body);
        }
    });
    format!("http://{addr}/v1")
}
