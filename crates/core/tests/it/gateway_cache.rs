//! What the boss is billed for a prompt the provider partly served from its cache: the
//! cached input at the provider's cached price (and Anthropic's cache writes at theirs),
//! read from each dialect's usage fields as the scripted server returns them.

use std::sync::Arc;

use cubicle_core::gateway::pricing::default_price;
use cubicle_core::gateway::{CallContext, Purpose, Route};
use cubicle_core::providers::SaveProvider;
use cubicle_core::secrets::{SecretError, SecretStore};
use cubicle_llm::{ApiKey, Usage};
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::gateway::{Harness, chat, company_on, fast_config, ledger, req};

/// A keychain holding a key for every provider (the server is on loopback).
struct AnyKey;

impl SecretStore for AnyKey {
    fn get(&self, _: &str) -> Result<Option<ApiKey>, SecretError> {
        Ok(Some(ApiKey::new("sk-test")))
    }
    fn set(&self, _: &str, _: &ApiKey) -> Result<(), SecretError> {
        Ok(())
    }
    fn delete(&self, _: &str) -> Result<(), SecretError> {
        Ok(())
    }
}

/// A company whose one paid provider (`preset`, `model`) answers with `answer`.
async fn paid(preset: &str, model: &str, answer: Value) -> (Harness, Route, MockServer) {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(answer))
        .mount(&server)
        .await;
    let h = company_on(
        fast_config(),
        None,
        Arc::new(AnyKey),
        cubicle_core::clock::SystemClock::shared(),
    )
    .await;
    let p = h
        .core
        .providers
        .save(SaveProvider {
            id: None,
            name: preset.into(),
            preset: preset.into(),
            base_url: format!("{}/v1", server.uri()),
            default_model: model.into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap();
    let route = Route {
        provider_id: p.id,
        model: model.into(),
    };
    (h, route, server)
}

async fn billed(h: &Harness, route: &Route) -> (i64, i64, f64) {
    h.core
        .gateway
        .complete(
            &CallContext::new(Purpose::Thought),
            route.clone(),
            req("hi"),
        )
        .await
        .unwrap();
    let row = ledger(h).await.pop().unwrap();
    (
        i64::from(row.input_tokens),
        i64::from(row.cached_tokens),
        row.cost_usd,
    )
}

fn close(a: f64, b: f64) -> bool {
    (a - b).abs() < 1e-12
}

#[tokio::test]
async fn deepseek_cache_hits_are_billed_at_a_tenth() {
    let mut answer = chat("ok", 1300, 100);
    answer["usage"]["prompt_cache_hit_tokens"] = json!(768);
    answer["usage"]["prompt_cache_miss_tokens"] = json!(532);
    let (h, route, _server) = paid("deepseek", "deepseek-chat", answer).await;
    let (input, cached, cost) = billed(&h, &route).await;
    assert_eq!((input, cached), (1300, 768));
    // $0.28 per million missed, $0.028 per million hit, $0.42 per million out.
    let want = (532.0 * 0.28 + 768.0 * 0.028 + 100.0 * 0.42) / 1e6;
    assert!(close(cost, want), "{cost} vs {want}");
    let full = default_price("deepseek", "deepseek-chat")
        .unwrap()
        .cost(Usage {
            input_tokens: 1300,
            output_tokens: 100,
            ..Usage::default()
        });
    assert!(cost < full, "the cache must show in the spend");
}

#[tokio::test]
async fn openai_cached_tokens_are_billed_at_the_models_cached_price() {
    let mut answer = chat("ok", 1280, 50);
    answer["usage"]["prompt_tokens_details"] = json!({"cached_tokens": 1152});
    let (h, route, _server) = paid("openai", "gpt-4.1-mini", answer).await;
    let (input, cached, cost) = billed(&h, &route).await;
    assert_eq!((input, cached), (1280, 1152));
    let want = (128.0 * 0.40 + 1152.0 * 0.10 + 50.0 * 1.60) / 1e6;
    assert!(close(cost, want), "{cost} vs {want}");
}

#[tokio::test]
async fn anthropic_cache_reads_cost_a_tenth_and_writes_a_quarter_more() {
    let answer = json!({
        "id": "m1", "type": "message", "role": "assistant", "model": "claude-haiku-4-5",
        "content": [{"type": "text", "text": "ok"}],
        "stop_reason": "end_turn",
        "usage": {"input_tokens": 200, "cache_creation_input_tokens": 1000,
                  "cache_read_input_tokens": 4096, "output_tokens": 40}
    });
    let (h, route, _server) = paid("anthropic", "claude-haiku-4-5", answer).await;
    let (input, cached, cost) = billed(&h, &route).await;
    assert_eq!((input, cached), (5296, 4096));
    let want = (200.0 * 1.0 + 1000.0 * 1.25 + 4096.0 * 0.10 + 40.0 * 5.0) / 1e6;
    assert!(close(cost, want), "{cost} vs {want}");
}
