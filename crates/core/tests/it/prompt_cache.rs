//! Two consecutive thoughts of one employee in one chat, as they reach the provider: the
//! stable part (the answer's schema, the persona, the boundaries, the scene) is a prefix
//! the second request repeats byte for byte, so a provider's prompt cache can serve it,
//! and the conversation after it only grows at its end.

use std::sync::{Arc, Mutex};

use chrono::TimeDelta;
use cubicle_core::chat::PostMessage;
use cubicle_core::clock::Clock as _;
use cubicle_core::engine::{Engine, EngineConfig};
use serde_json::{Value, json};
use wiremock::{Request, Respond, ResponseTemplate};

use crate::util::scripted_company;

/// Keeps every request body as it arrived and answers with a thought that speaks.
#[derive(Clone, Default)]
struct Recorder(Arc<Mutex<Vec<Vec<u8>>>>);

impl Respond for Recorder {
    fn respond(&self, request: &Request) -> ResponseTemplate {
        let n = {
            let mut bodies = self.0.lock().unwrap();
            bodies.push(request.body.clone());
            bodies.len()
        };
        let thought = json!({
            "innerThoughts": format!("thought {n}"),
            "messages": [{"content": format!("point number {n}: the release notes need one more pass on {}", ["the API", "the pendant", "the timeout", "the theme"][n % 4])}],
            "shouldSpeak": true,
            "topicSaturation": 2,
            "interestLevel": 8,
        });
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "t", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": thought.to_string()}}],
            "usage": {"prompt_tokens": 1000, "completion_tokens": 60}
        }))
    }
}

fn system_of(body: &Value) -> &str {
    body["messages"][0]["content"].as_str().unwrap_or_default()
}

fn user_of(body: &Value) -> &str {
    body["messages"][1]["content"].as_str().unwrap_or_default()
}

/// A three-person department whose boss posts twice, everyone thinking after each
/// message; the request bodies as the server received them.
async fn two_rounds() -> Vec<Vec<u8>> {
    let recorder = Recorder::default();
    let start = chrono::DateTime::parse_from_rfc3339("2026-11-30T08:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let (co, clock, _server, _) = scripted_company(start, recorder.clone()).await;
    let eng = co.dept("Engineering", None).await;
    let chat = co
        .core
        .chats
        .department_chat(eng.id, "Engineering")
        .await
        .unwrap();
    for (name, title) in [
        ("Alice", "Backend Engineer"),
        ("Bob", "QA Engineer"),
        ("Carol", "Frontend Engineer"),
    ] {
        let e = co.hire(name, title, Some(eng.id)).await;
        co.core.chats.join(chat.id, e.id).await.unwrap();
    }
    let engine = Engine::new(
        &co.core,
        EngineConfig {
            seed: Some(3),
            ..EngineConfig::default()
        },
    );
    for text in [
        "Morning team: what is still open for the firmware release?",
        "Thanks. Who takes the release notes?",
    ] {
        co.core
            .chats
            .post_as_boss(PostMessage {
                chat_id: chat.id,
                text: text.into(),
            })
            .await
            .unwrap();
        let until = clock.now() + TimeDelta::seconds(20);
        engine.run_simulated(&clock, until).await;
        clock.advance(TimeDelta::minutes(4));
    }

    recorder.0.lock().unwrap().clone()
}

#[tokio::test]
async fn two_consecutive_thoughts_of_one_employee_share_their_prefix_byte_for_byte() {
    let raw = two_rounds().await;
    let alice: Vec<(&[u8], Value)> = raw
        .iter()
        .map(|r| (r.as_slice(), serde_json::from_slice::<Value>(r).unwrap()))
        .filter(|(_, b)| system_of(b).starts_with("You are Alice,"))
        .collect();
    assert!(alice.len() >= 2, "Alice thought {} times", alice.len());
    let ((raw1, first), (raw2, second)) = (&alice[0], &alice[1]);

    // The stable part is not trivially short: the persona and the boundaries, the scene,
    // and the answer's schema.
    let system = system_of(first);
    for part in ["You are Alice,", "Boundaries:", "Personality:", "Present: "] {
        assert!(
            system.contains(part),
            "{part} in the system prompt:\n{system}"
        );
    }
    assert!(
        first["response_format"].to_string().contains("shouldSpeak"),
        "the schema is sent: {}",
        first["response_format"]
    );
    // It reads the same in the next thought, byte for byte: the schema, and the request
    // from its first byte through the end of the system prompt.
    assert_eq!(first["response_format"], second["response_format"]);
    assert_eq!(system_of(first), system_of(second));
    let shared = raw1
        .iter()
        .zip(raw2.iter())
        .take_while(|(a, b)| a == b)
        .count();
    let system_json = serde_json::to_string(system).unwrap();
    let system_end = raw1
        .windows(system_json.len())
        .position(|w| w == system_json.as_bytes())
        .expect("the system prompt in the body")
        + system_json.len();
    assert!(
        shared >= system_end,
        "the bodies part at byte {shared}, before the system prompt ends at {system_end}"
    );
    // And the conversation only grew: the next thought's user message opens with every
    // line the first one showed.
    let (u1, u2) = (user_of(first), user_of(second));
    let lines1 = u1.split("\n(The last").next().unwrap_or_default();
    assert!(
        lines1.contains("Ada (boss): Morning team"),
        "the boss's message is shown:\n{u1}"
    );
    assert!(
        u2.starts_with(lines1),
        "the second thought opens with the first one's conversation:\n{u1}\n---\n{u2}"
    );
}
