//! The model gateway against a scripted OpenAI-compatible server (wiremock) and, for the
//! fallback, the real built-in model.

use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::events::DomainEvent;
use cubicle_core::gateway::{
    CallContext, GatewayConfig, GatewayError, LedgerOutcome, Purpose, Route,
};
use cubicle_core::org::{NewDepartment, NewEmployee, SetBudget, SetEmployeeBackend, SetupCompany};
use cubicle_core::providers::{SaveProvider, SetBuiltinModel, SetPrice, SetProviderKey, SetRoute};
use cubicle_core::secrets::{SecretError, SecretStore};
use cubicle_core::types::*;
use cubicle_llm::{ApiKey, ChatMessage, CompletionRequest};
use cubicle_store::entity::cost_ledger;
use sea_orm::{EntityTrait, QueryOrder};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, Request, Respond, ResponseTemplate};

/// Secrets for keyless local providers: nothing is ever stored.
pub(crate) struct NoSecrets;

impl SecretStore for NoSecrets {
    fn get(&self, _: &str) -> Result<Option<ApiKey>, SecretError> {
        Ok(None)
    }
    fn set(&self, _: &str, _: &ApiKey) -> Result<(), SecretError> {
        Err(SecretError::Unavailable("test".into()))
    }
    fn delete(&self, _: &str) -> Result<(), SecretError> {
        Ok(())
    }
}

/// A machine without any Secret Service.
struct NoKeychain;

impl SecretStore for NoKeychain {
    fn get(&self, _: &str) -> Result<Option<ApiKey>, SecretError> {
        Err(SecretError::Unavailable("no D-Bus session".into()))
    }
    fn set(&self, _: &str, _: &ApiKey) -> Result<(), SecretError> {
        Err(SecretError::Unavailable("no D-Bus session".into()))
    }
    fn delete(&self, _: &str) -> Result<(), SecretError> {
        Err(SecretError::Unavailable("no D-Bus session".into()))
    }
}

pub(crate) fn fast_config() -> GatewayConfig {
    GatewayConfig {
        backoff: vec![
            Duration::from_millis(10),
            Duration::from_millis(20),
            Duration::from_millis(40),
        ],
        call_timeout: Duration::from_secs(5),
        breaker_open_for: Duration::from_millis(400),
        ..GatewayConfig::default()
    }
}

pub(crate) struct Harness {
    pub(crate) core: AppCore,
    /// The database's URL, to open the same company again.
    pub(crate) url: String,
    _dir: tempfile::TempDir,
}

pub(crate) async fn company(config: GatewayConfig, builtin: Option<std::path::PathBuf>) -> Harness {
    company_with(config, builtin, Arc::new(NoSecrets)).await
}

async fn company_with(
    config: GatewayConfig,
    builtin: Option<std::path::PathBuf>,
    secrets: Arc<dyn SecretStore>,
) -> Harness {
    company_on(
        config,
        builtin,
        secrets,
        cubicle_core::clock::SystemClock::shared(),
    )
    .await
}

pub(crate) async fn company_on(
    config: GatewayConfig,
    builtin: Option<std::path::PathBuf>,
    secrets: Arc<dyn SecretStore>,
    clock: cubicle_core::clock::SharedClock,
) -> Harness {
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    let core = AppCore::open_with(
        &url,
        CoreOptions {
            secrets,
            builtin_model: Some(builtin.unwrap_or_else(|| dir.path().join("no-model.gguf"))),
            env_provider: None,
            gateway: config,
            clock,
            ..CoreOptions::default()
        },
    )
    .await
    .unwrap();
    core.org
        .setup_company(SetupCompany {
            name: "Acme".into(),
            boss_name: "Ada".into(),
            language: Language::En,
            mission: None,
        })
        .await
        .unwrap();
    Harness {
        core,
        url,
        _dir: dir,
    }
}

/// A keyless vLLM-style provider at the mock server, priced so calls cost money.
pub(crate) async fn add_provider(h: &Harness, server: &MockServer, price: (f64, f64)) -> String {
    let p = h
        .core
        .providers
        .save(SaveProvider {
            id: None,
            name: "Local vLLM".into(),
            preset: "vllm".into(),
            base_url: format!("{}/v1", server.uri()),
            default_model: "m1".into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap();
    h.core
        .providers
        .set_price(SetPrice {
            provider_id: p.id.clone(),
            model: "m1".into(),
            input_per_mtok: price.0,
            output_per_mtok: price.1,
        })
        .await
        .unwrap();
    p.id
}

pub(crate) fn chat(text: &str, prompt_tokens: u32, completion_tokens: u32) -> Value {
    json!({
        "id": "c1", "object": "chat.completion", "model": "m1",
        "choices": [{"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}],
        "usage": {"prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens}
    })
}

pub(crate) fn req(text: &str) -> CompletionRequest {
    CompletionRequest {
        messages: vec![ChatMessage::user(text)],
        max_tokens: Some(16),
        ..Default::default()
    }
}

pub(crate) fn route(id: &str) -> Route {
    Route {
        provider_id: id.into(),
        model: "m1".into(),
    }
}

pub(crate) async fn ledger(h: &Harness) -> Vec<cost_ledger::Model> {
    cost_ledger::Entity::find()
        .order_by_asc(cost_ledger::Column::Id)
        .all(&cubicle_store::db::connect(&h.url).await.unwrap())
        .await
        .unwrap()
}

/// The ledger once a streamed call's row has landed (its task writes it after the end).
pub(crate) async fn ledger_eventually(h: &Harness) -> Vec<cost_ledger::Model> {
    for _ in 0..100 {
        let rows = ledger(h).await;
        if !rows.is_empty() {
            return rows;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    panic!("no ledger row appeared");
}

/// Records when each request arrived; answers after a fixed delay.
struct Arrivals {
    at: Arc<Mutex<Vec<Instant>>>,
    delay: Duration,
}

impl Respond for Arrivals {
    fn respond(&self, _: &Request) -> ResponseTemplate {
        self.at.lock().unwrap().push(Instant::now());
        ResponseTemplate::new(200)
            .set_body_json(chat("ok", 10, 2))
            .set_delay(self.delay)
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn concurrency_never_exceeds_the_cap_under_fifty_parallel_calls() {
    let server = MockServer::start().await;
    let at = Arc::new(Mutex::new(Vec::new()));
    let delay = Duration::from_millis(150);
    Mock::given(method("POST"))
        .and(path("/v1/chat/completions"))
        .respond_with(Arrivals {
            at: at.clone(),
            delay,
        })
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;

    let calls = (0..50).map(|i| {
        let gw = h.core.gateway.clone();
        let r = route(&id);
        async move {
            gw.complete(
                &CallContext::new(Purpose::Thought),
                r,
                req(&format!("q{i}")),
            )
            .await
        }
    });
    let results = futures::future::join_all(calls).await;
    assert!(results.iter().all(Result::is_ok));

    // Each request holds the server for `delay`: count how many overlap at most.
    let mut times = at.lock().unwrap().clone();
    times.sort();
    assert_eq!(times.len(), 50);
    let max_overlap = times
        .iter()
        .map(|t| times.iter().filter(|u| *u >= t && **u < *t + delay).count())
        .max()
        .unwrap();
    assert!(max_overlap <= 3, "{max_overlap} calls in flight at once");
    assert!(
        max_overlap >= 2,
        "calls should run in parallel, got {max_overlap}"
    );
    assert_eq!(ledger(&h).await.len(), 50, "one ledger row per call");
}

#[tokio::test]
async fn every_call_leaves_a_ledger_row_with_tokens_price_and_trace() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("hello", 1_000, 500)))
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (2.0, 8.0)).await;
    let mut events = h.core.bus.subscribe();
    let ctx = CallContext {
        purpose: Purpose::Report,
        trace_id: Some("trace-42".into()),
        employee_id: None,
        max_retries: None,
    };
    let reply = h
        .core
        .gateway
        .complete(&ctx, route(&id), req("hi"))
        .await
        .unwrap();
    assert_eq!(reply.value.text, "hello");
    assert!(!reply.fallback);

    let rows = ledger(&h).await;
    assert_eq!(rows.len(), 1);
    let r = &rows[0];
    assert_eq!(r.trace_id.as_deref(), Some("trace-42"));
    assert_eq!(r.purpose, Purpose::Report);
    assert_eq!(r.provider_id, id);
    assert_eq!((r.input_tokens, r.output_tokens), (1_000, 500));
    assert!((r.cost_usd - 0.006).abs() < 1e-9, "{}", r.cost_usd);
    assert_eq!(r.outcome, LedgerOutcome::Ok);
    assert_eq!(events.recv().await.unwrap(), DomainEvent::SpendRecorded);

    let spend = h.core.providers.spend().await.unwrap();
    assert!((spend.today_usd - 0.006).abs() < 1e-9);
    assert_eq!(spend.calls_today, 1);
    assert_eq!(spend.days.len(), 7);
    assert_eq!(spend.by_model[0].provider_id, id);
}

#[tokio::test]
async fn rate_limits_are_retried_after_the_servers_retry_after() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(429).insert_header("Retry-After", "1"))
        .up_to_n_times(1)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("finally", 5, 1)))
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let started = Instant::now();
    let reply = h
        .core
        .gateway
        .complete(&CallContext::new(Purpose::Thought), route(&id), req("hi"))
        .await
        .unwrap();
    assert_eq!(reply.value.text, "finally");
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "Retry-After was honoured"
    );
    let rows = ledger(&h).await;
    assert_eq!(
        rows.iter()
            .map(|r| (r.attempt, r.outcome))
            .collect::<Vec<_>>(),
        vec![(1, LedgerOutcome::Error), (2, LedgerOutcome::Ok)]
    );
    assert!(
        rows[0]
            .error
            .as_deref()
            .unwrap()
            .starts_with("rate_limited")
    );
    // The wait is in the ledger: the provider's second, not the 10-ms backoff step.
    assert!(
        rows[0].backoff_ms.unwrap() >= 1000,
        "{:?}",
        rows[0].backoff_ms
    );
    assert_eq!(rows[1].backoff_ms, None);
}

#[tokio::test]
async fn server_errors_are_retried_with_backoff_then_reported() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("boom"))
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let err = h
        .core
        .gateway
        .complete(&CallContext::new(Purpose::Thought), route(&id), req("hi"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "http");
    // 1 try + 3 retries (backoff 1/2/4 s in production, scaled down here), each wait
    // on the row of the attempt it followed; the last attempt was not retried.
    let rows = ledger(&h).await;
    assert_eq!(
        rows.iter().map(|r| r.backoff_ms).collect::<Vec<_>>(),
        vec![Some(10), Some(20), Some(40), None]
    );
    assert_eq!(server.received_requests().await.unwrap().len(), 4);
}

#[tokio::test]
async fn the_breaker_opens_after_three_failed_calls_and_half_opens_later() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(503))
        .up_to_n_times(12)
        .mount(&server)
        .await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("back", 1, 1)))
        .mount(&server)
        .await;
    let config = GatewayConfig {
        backoff: vec![Duration::from_millis(5); 3],
        ..fast_config()
    };
    let h = company(config, None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let gw = &h.core.gateway;
    let ctx = CallContext::new(Purpose::Thought);
    for _ in 0..3 {
        assert_eq!(
            gw.complete(&ctx, route(&id), req("x"))
                .await
                .unwrap_err()
                .code(),
            "http"
        );
    }
    // Open: refused without touching the server (no built-in model to fall back to here).
    let before = server.received_requests().await.unwrap().len();
    let err = gw.complete(&ctx, route(&id), req("x")).await.unwrap_err();
    assert!(matches!(err, GatewayError::BreakerOpen { .. }), "{err}");
    assert_eq!(server.received_requests().await.unwrap().len(), before);
    assert_eq!(
        ledger(&h).await.last().unwrap().outcome,
        LedgerOutcome::BreakerOpen
    );

    // After the open period one probe goes through; it succeeds and closes the breaker.
    tokio::time::sleep(Duration::from_millis(450)).await;
    let reply = gw.complete(&ctx, route(&id), req("x")).await.unwrap();
    assert_eq!(reply.value.text, "back");
    assert!(gw.complete(&ctx, route(&id), req("x")).await.is_ok());
    // The ledger shows the breaker at work: opened once, by the third failed call,
    // and closed once, by the probe.
    let marks: Vec<LedgerOutcome> = ledger(&h)
        .await
        .into_iter()
        .filter(|r| r.attempt == 0 || r.outcome == LedgerOutcome::Ok)
        .map(|r| r.outcome)
        .collect();
    assert_eq!(
        marks,
        vec![
            LedgerOutcome::BreakerOpened,
            LedgerOutcome::BreakerOpen,
            LedgerOutcome::Ok,
            LedgerOutcome::BreakerClosed,
            LedgerOutcome::Ok
        ]
    );
    // The notes are neither calls nor refusals in the spend report.
    let spend = h.core.providers.spend().await.unwrap();
    assert_eq!(spend.refused_today, 1);
    assert_eq!(spend.calls_today, 12 + 2);
}

#[tokio::test]
async fn the_daily_budget_stops_calls_and_says_why() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        // 100k + 100k tokens at $2/$8 per M = $1.00 per call.
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("pricey", 100_000, 100_000)))
        .mount(&server)
        .await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (2.0, 8.0)).await;
    h.core
        .org
        .set_budget(SetBudget {
            daily_budget_usd: 1.5,
        })
        .await
        .unwrap();
    let mut events = h.core.bus.subscribe();
    let gw = &h.core.gateway;
    let ctx = CallContext::new(Purpose::Thought);
    gw.complete(&ctx, route(&id), req("one")).await.unwrap();
    // $1.00 of $1.50 spent: below the 90 % fallback line, the next call still goes out.
    gw.complete(&ctx, route(&id), req("two")).await.unwrap();
    let err = gw
        .complete(&ctx, route(&id), req("three"))
        .await
        .unwrap_err();
    match &err {
        GatewayError::BudgetExceeded { spent, budget } => {
            assert!((spent - 2.0).abs() < 1e-6 && (budget - 1.5).abs() < 1e-9);
        }
        other => panic!("expected budget_exceeded, got {other}"),
    }
    assert!(err.to_string().contains("budget"), "{err}");
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
    assert_eq!(
        ledger(&h).await.last().unwrap().outcome,
        LedgerOutcome::BudgetExceeded
    );
    let mut saw = false;
    while let Ok(e) = events.try_recv() {
        saw |= matches!(e, DomainEvent::BudgetExceeded { .. });
    }
    assert!(saw, "the boss is told");
    let spend = h.core.providers.spend().await.unwrap();
    assert_eq!(spend.refused_today, 1);
}

#[tokio::test]
async fn budget_values_are_validated() {
    let h = company(fast_config(), None).await;
    for bad in [0.0, -1.0, f64::NAN, f64::INFINITY, 1e9] {
        let err = h
            .core
            .org
            .set_budget(SetBudget {
                daily_budget_usd: bad,
            })
            .await
            .unwrap_err();
        assert_eq!(err.code(), cubicle_core::ErrorCode::InvalidInput, "{bad}");
    }
}

#[tokio::test]
async fn an_unknown_provider_is_a_clear_error_not_a_panic() {
    let h = company(fast_config(), None).await;
    let err = h
        .core
        .gateway
        .complete(
            &CallContext::new(Purpose::Thought),
            route("nope"),
            req("hi"),
        )
        .await
        .unwrap_err();
    assert!(err.to_string().contains("nope"), "{err}");
    assert_eq!(
        ledger(&h).await.last().unwrap().outcome,
        LedgerOutcome::Error
    );
}

/// The built-in model, installed by scripts/install-model.sh (CI does it in set-up).
fn builtin_model_path() -> std::path::PathBuf {
    let path = std::env::var("CUBICLE_BUILTIN_MODEL")
        .map(Into::into)
        .unwrap_or_else(|_| cubicle_llm::model_file::default_model_path());
    assert!(
        path.is_file(),
        "the built-in model is missing at {}: run scripts/install-model.sh",
        path.display()
    );
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_breaker_falls_back_to_the_built_in_model_and_the_ledger_says_so() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500))
        .mount(&server)
        .await;
    let config = GatewayConfig {
        backoff: vec![],
        breaker_open_for: Duration::from_secs(3600),
        ..fast_config()
    };
    let h = company(config, Some(builtin_model_path())).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let gw = &h.core.gateway;
    let ctx = CallContext::new(Purpose::Thought);
    for _ in 0..3 {
        gw.complete(&ctx, route(&id), req("x")).await.unwrap_err();
    }
    let reply = gw.complete(&ctx, route(&id), req("Say hi.")).await.unwrap();
    assert!(reply.fallback);
    assert_eq!(reply.route.provider_id, "builtin");
    assert!(!reply.value.text.trim().is_empty());
    let last = ledger(&h).await.pop().unwrap();
    assert_eq!(
        (last.provider_id.as_str(), last.fallback, last.cost_usd),
        ("builtin", true, 0.0)
    );
}

#[tokio::test]
async fn with_no_provider_configured_the_built_in_model_answers() {
    let h = company(fast_config(), Some(builtin_model_path())).await;
    let route = h.core.providers.route_for(Purpose::Thought).await.unwrap();
    assert_eq!(route.provider_id, "builtin");
    let reply = h
        .core
        .gateway
        .complete(
            &CallContext::new(Purpose::Thought),
            route,
            req("Say hello."),
        )
        .await
        .unwrap();
    assert!(!reply.value.text.trim().is_empty());
    assert!(!reply.fallback);
}

#[tokio::test]
async fn a_local_provider_works_on_a_machine_without_a_keychain() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(200).set_body_json(chat("local ok", 3, 2)))
        .mount(&server)
        .await;
    let h = company_with(fast_config(), None, Arc::new(NoKeychain)).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let reply = h
        .core
        .gateway
        .complete(&CallContext::new(Purpose::Thought), route(&id), req("hi"))
        .await
        .unwrap();
    assert_eq!(reply.value.text, "local ok");

    // A paid provider, though, says exactly what is missing.
    let paid = h
        .core
        .providers
        .save(SaveProvider {
            id: None,
            name: "DeepSeek".into(),
            preset: "deepseek".into(),
            base_url: format!("{}/v1", server.uri()),
            default_model: "deepseek-chat".into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap();
    assert!(!paid.has_key);
    let err = h
        .core
        .gateway
        .complete(
            &CallContext::new(Purpose::Thought),
            route(&paid.id),
            req("hi"),
        )
        .await
        .unwrap_err();
    assert_eq!(err.code(), "missing_key");
    let err = h
        .core
        .providers
        .set_key(SetProviderKey {
            provider_id: paid.id.clone(),
            key: "sk-x".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), cubicle_core::ErrorCode::SecretUnavailable);
}

#[tokio::test]
async fn settings_can_point_the_built_in_model_at_another_gguf() {
    let model = builtin_model_path();
    let dir = tempfile::tempdir().unwrap();
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    let core = AppCore::open_with(
        &url,
        CoreOptions {
            secrets: Arc::new(NoSecrets),
            builtin_model: None,
            env_provider: None,
            gateway: fast_config(),
            clock: cubicle_core::clock::SystemClock::shared(),
            ..CoreOptions::default()
        },
    )
    .await
    .unwrap();

    let not_gguf = dir.path().join("notes.txt");
    std::fs::write(&not_gguf, "hello").unwrap();
    for bad in [not_gguf.clone(), dir.path().join("missing.gguf")] {
        let err = core
            .providers
            .set_builtin_model(SetBuiltinModel {
                path: Some(bad.display().to_string()),
            })
            .await
            .unwrap_err();
        assert_eq!(err.code(), cubicle_core::ErrorCode::InvalidInput, "{err}");
    }

    // "Another" GGUF: a copy of the bundled one under a new name.
    let other = dir.path().join("my-model.gguf");
    std::fs::copy(&model, &other).unwrap();
    let status = core
        .providers
        .set_builtin_model(SetBuiltinModel {
            path: Some(other.display().to_string()),
        })
        .await
        .unwrap();
    assert!(status.custom && status.installed);
    assert_eq!(status.path, other.display().to_string());
    let reply = core
        .gateway
        .complete(
            &CallContext::new(Purpose::Thought),
            Route {
                provider_id: "builtin".into(),
                model: String::new(),
            },
            req("Say hi."),
        )
        .await
        .unwrap();
    assert!(!reply.value.text.trim().is_empty());

    let status = core
        .providers
        .set_builtin_model(SetBuiltinModel { path: None })
        .await
        .unwrap();
    assert!(!status.custom);
}

/// Alice, a researcher in a new Eng department: she follows the company's routes.
async fn hire_alice_into_eng(h: &Harness) -> cubicle_core::org::EmployeeDto {
    let dept = h
        .core
        .org
        .create_department(NewDepartment {
            name: "Eng".into(),
            parent_id: None,
            mission: None,
        })
        .await
        .unwrap();
    h.core
        .org
        .hire(NewEmployee {
            name: "Alice".into(),
            title: "Researcher".into(),
            department_id: Some(dept.id),
            manager_id: None,
            archetype: None,
        })
        .await
        .unwrap()
}

/// Alice given the built-in model as her own backend thinks with it whatever the
/// company's route; a backend naming an unknown provider is refused.
async fn alice_gets_a_backend_of_her_own(h: &Harness, alice: i32) {
    let p = &h.core.providers;
    let alice = h
        .core
        .set_employee_backend(SetEmployeeBackend {
            employee_id: alice,
            provider: Some("builtin".into()),
            model: None,
        })
        .await
        .unwrap();
    assert_eq!(
        p.route_for_employee(Purpose::Thought, &alice.backend)
            .await
            .unwrap()
            .provider_id,
        "builtin"
    );
    let err = h
        .core
        .set_employee_backend(SetEmployeeBackend {
            employee_id: alice.id,
            provider: Some("nope".into()),
            model: None,
        })
        .await
        .unwrap_err();
    assert_eq!(err.code, cubicle_core::ErrorCode::NotFound);
}

#[tokio::test]
async fn each_purpose_and_each_employee_can_have_its_own_model() {
    let server = MockServer::start().await;
    let h = company(fast_config(), None).await;
    let id = add_provider(&h, &server, (0.0, 0.0)).await;
    let p = &h.core.providers;
    // Nothing configured: everything goes to the built-in model, and no model looks for
    // private details (the rules alone mask).
    for r in p.routes().await.unwrap() {
        let expected = if r.purpose == Purpose::Privacy {
            ""
        } else {
            "builtin"
        };
        assert_eq!(r.provider_id, expected, "{:?}", r.purpose);
    }
    p.set_route(SetRoute {
        purpose: Purpose::Thought,
        provider_id: id.clone(),
        model: "m1".into(),
    })
    .await
    .unwrap();
    assert_eq!(p.route_for(Purpose::Thought).await.unwrap(), route(&id));
    assert_eq!(
        p.route_for(Purpose::Intent).await.unwrap().provider_id,
        "builtin"
    );

    let alice = hire_alice_into_eng(&h).await;
    // A new hire follows the company's routes...
    assert_eq!(
        p.route_for_employee(Purpose::Thought, &alice.backend)
            .await
            .unwrap(),
        route(&id)
    );
    // ...until given a backend of her own.
    alice_gets_a_backend_of_her_own(&h, alice.id).await;
    // Setting a route to an unknown provider is refused too.
    let err = p
        .set_route(SetRoute {
            purpose: Purpose::Report,
            provider_id: "nope".into(),
            model: String::new(),
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), cubicle_core::ErrorCode::NotFound);
}
