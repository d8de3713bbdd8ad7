//! Local models through the core service: a real loopback server serves a real GGUF
//! (the installed built-in model when there is one), downloads report progress on the
//! event bus, a crash's partial file shows as paused, a verified file becomes the
//! built-in model, and running local servers are found and added as providers.

use std::path::Path;
use std::time::{Duration, Instant};

use cubicle_core::app::CoreOptions;
use cubicle_core::error::ErrorCode;
use cubicle_core::events::DomainEvent;
use cubicle_core::gateway::{CallContext, Purpose, Route};
use cubicle_core::models::{
    AddLocalServer, DownloadFailureKind, LocalModelState, LocalModelsConfig, LocalServerKind,
};
use cubicle_core::providers::TestProvider;
use cubicle_llm::catalogue::CatalogueEntry;
use cubicle_llm::download::fixture::{Fault, FileServer};
use cubicle_llm::download::{DownloadOptions, partial_path};
use cubicle_llm::local_servers::{ProbeTarget, ServerKind};
use cubicle_llm::{ChatMessage, CompletionRequest};
use serde_json::json;
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::util::TestCompany;

const ID: &str = "test-model";

/// Serves the installed built-in GGUF when there is one (real bytes of a real model),
/// else a generated GGUF; says which.
async fn model_server() -> (FileServer, bool) {
    // The lighter built-in model (SmolLM2, ~98 MB) unless CUBICLE_BUILTIN_MODEL names a file:
    // the timings below are set for it, not for the ~490 MB default.
    use cubicle_llm::model_file::{SMOLLM2, builtin_models_dir, model_path_from_env};
    let real = model_path_from_env().unwrap_or_else(|| builtin_models_dir().join(SMOLLM2.file));
    if real.is_file() {
        return (FileServer::serve_file(&real).await.unwrap(), true);
    }
    eprintln!(
        "{} is not installed: serving a generated GGUF",
        real.display()
    );
    let mut bytes = b"GGUF".to_vec();
    bytes.extend((0..(4u32 << 20)).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8));
    (FileServer::start(bytes).await.unwrap(), false)
}

fn entry_for(server: &FileServer) -> CatalogueEntry {
    use sha2::Digest;
    let sha: String = sha2::Sha256::digest(server.bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    CatalogueEntry {
        id: ID.into(),
        name: "Test Model".into(),
        params: "135M".into(),
        quantization: "Q4_1".into(),
        file_name: "test-model.gguf".into(),
        url: server.url("test-model.gguf"),
        size_bytes: server.bytes().len() as u64,
        sha256: sha,
        ram_bytes: 1 << 30,
        languages: vec!["en".into()],
        writes_chinese: false,
        licence: "Apache-2.0".into(),
        licence_url: "https://example.invalid/licence".into(),
        source: "the test's own file".into(),
    }
}

async fn company(server: &FileServer, probe: Option<Vec<ProbeTarget>>) -> TestCompany {
    TestCompany::with_options(CoreOptions {
        local_models: LocalModelsConfig {
            catalogue: Some(vec![entry_for(server)]),
            download: DownloadOptions {
                stall_timeout: Duration::from_secs(1),
                max_retries: 3,
                backoff_initial: Duration::from_millis(20),
                reserve_bytes: 0,
                ..DownloadOptions::default()
            },
            probe_targets: probe,
            dir: None,
        },
        ..CoreOptions::default()
    })
    .await
}

/// Polls the model's state until `done` holds (events drive the UI; polling keeps the
/// test independent of their timing).
async fn wait_for(
    co: &TestCompany,
    mut done: impl FnMut(&LocalModelState) -> bool,
) -> LocalModelState {
    // A 98 MB file over loopback on a loaded 2-core machine (tests run side by side)
    // has been seen at 1.5 MB/s: allow for that.
    let deadline = Instant::now() + Duration::from_secs(240);
    loop {
        let state = co.core.models.get(ID).await.unwrap().state;
        if done(&state) {
            return state;
        }
        assert!(Instant::now() < deadline, "stuck in {state:?}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

fn installed(s: &LocalModelState) -> bool {
    matches!(s, LocalModelState::Installed { .. })
}

#[tokio::test]
async fn a_downloaded_model_becomes_the_builtin_model() {
    let (server, real) = model_server().await;
    server.script(&[Fault::DropAfter(server.bytes().len() as u64 / 2)]);
    let co = company(&server, None).await;

    let started = co.core.models.start(ID).await.unwrap();
    assert!(
        matches!(started.state, LocalModelState::Downloading { .. }),
        "{:?}",
        started.state
    );
    let state = wait_for(&co, installed).await;
    let LocalModelState::Installed { path, in_use } = state else {
        unreachable!()
    };
    assert!(!in_use);
    assert_eq!(std::fs::read(&path).unwrap(), server.bytes());
    assert_eq!(server.seen().len(), 2, "resumed once after the drop");

    let status = co.core.models.use_as_builtin(ID).await.unwrap();
    assert_eq!(status.path, path);
    assert!(status.custom && status.installed);
    let listed = co.core.models.list().await;
    assert_eq!(
        listed[0].state,
        LocalModelState::Installed {
            path: path.clone(),
            in_use: true
        }
    );

    if real {
        // The built-in backend now answers from the downloaded file.
        let result = co
            .core
            .providers
            .test(
                &co.core.gateway,
                TestProvider {
                    provider_id: "builtin".into(),
                    model: None,
                },
            )
            .await;
        assert!(result.ok, "{result:?}");
        assert!(result.reply.is_some_and(|r| !r.trim().is_empty()));
    }
}

/// A downloaded model serves one purpose while the built-in model keeps the others: a
/// route to the built-in provider names it by catalogue id.
#[tokio::test]
async fn a_route_can_send_one_purpose_to_a_downloaded_model() {
    let (server, real) = model_server().await;
    if !real {
        eprintln!("no real GGUF installed: nothing to load, skipped");
        return;
    }
    let co = company(&server, None).await;
    co.core.models.start(ID).await.unwrap();
    let LocalModelState::Installed { path, .. } = wait_for(&co, installed).await else {
        unreachable!()
    };
    let path = std::path::PathBuf::from(path);
    let route = co.core.models.use_for(ID, Purpose::Thought).await.unwrap();
    assert_eq!(
        (route.provider_id.as_str(), route.model.as_str()),
        ("builtin", ID)
    );
    let ask = |model: &str| {
        let route = Route {
            provider_id: "builtin".into(),
            model: model.into(),
        };
        let req = CompletionRequest {
            messages: vec![ChatMessage::user("Say hello.")],
            max_tokens: Some(8),
            ..Default::default()
        };
        let gateway = co.core.gateway.clone();
        async move {
            gateway
                .complete(&CallContext::new(Purpose::Thought), route, req)
                .await
        }
    };

    ask(ID).await.expect("the downloaded model answers");
    let loaded = co.core.providers.loaded_builtin_models().await;
    assert_eq!(
        loaded,
        vec![path.clone()],
        "only the routed file was loaded"
    );
    ask("")
        .await
        .expect("the built-in model answers the others");
    let loaded = co.core.providers.loaded_builtin_models().await;
    assert_eq!(loaded.len(), 2, "{loaded:?}");
    assert!(loaded.contains(&path));

    // Anything but a catalogue id is no path: the built-in model answers, nothing else loads.
    for other in ["SmolLM2-135M-Instruct", "../test-model.gguf", "/etc/passwd"] {
        ask(other).await.expect("the built-in model answers");
    }
    assert_eq!(co.core.providers.loaded_builtin_models().await.len(), 2);
    // A catalogue model that is not (or no longer) downloaded gets a clear error.
    std::fs::remove_file(&path).unwrap();
    let err = ask(ID).await.unwrap_err().to_string();
    assert!(err.contains("is not installed"), "{err}");
}

#[tokio::test]
async fn progress_is_published_on_the_bus_at_most_four_times_a_second() {
    let (server, _) = model_server().await;
    // About 2.5 s for the generated file, longer for the real one: a steady flow.
    server.set_chunk_delay(Duration::from_millis(40));
    let mut co = company(&server, None).await;
    co.drain_events();

    let started = Instant::now();
    co.core.models.start(ID).await.unwrap();
    let mut saw_progress = false;
    wait_for(&co, |s| {
        if let LocalModelState::Downloading {
            received,
            bytes_per_sec,
            ..
        } = s
        {
            saw_progress |= *received > 0 && *bytes_per_sec > 0;
        }
        installed(s)
    })
    .await;
    let seconds = started.elapsed().as_secs_f64();

    let events: Vec<_> = co
        .drain_events()
        .into_iter()
        .filter(|e| matches!(e, DomainEvent::LocalModelChanged { model_id } if model_id == ID))
        .collect();
    assert!(saw_progress, "a running download reports bytes and a rate");
    assert!(events.len() >= 3, "start, progress, end: {}", events.len());
    // 4 per second while bytes flow, plus start, verifying and the end.
    let ceiling = (seconds * 4.0).ceil() as usize + 4;
    assert!(
        events.len() <= ceiling,
        "{} events in {seconds:.1} s",
        events.len()
    );
}

#[tokio::test]
async fn a_partial_file_left_by_a_crash_is_paused_never_installed_and_resumes() {
    let (server, _) = model_server().await;
    let co = company(&server, None).await;
    let dest = co.core.models.path_of(ID).unwrap();
    std::fs::create_dir_all(dest.parent().unwrap()).unwrap();
    let half = server.bytes().len() / 2;
    std::fs::write(partial_path(&dest), &server.bytes()[..half]).unwrap();

    let state = co.core.models.get(ID).await.unwrap().state;
    assert_eq!(
        state,
        LocalModelState::Paused {
            received: half as u64,
            total: server.bytes().len() as u64
        }
    );
    let err = co.core.models.use_as_builtin(ID).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    assert!(err.to_string().contains("not installed"), "{err}");

    co.core.models.start(ID).await.unwrap();
    wait_for(&co, installed).await;
    assert_eq!(server.seen()[0].range_start, Some(half as u64));
    assert!(!partial_path(&dest).exists());
}

#[tokio::test]
async fn a_wrong_checksum_shows_a_clear_failure_and_leaves_no_file() {
    let (server, _) = model_server().await;
    server.set_corrupt(true);
    let co = company(&server, None).await;

    co.core.models.start(ID).await.unwrap();
    let state = wait_for(&co, |s| matches!(s, LocalModelState::Failed { .. })).await;

    let LocalModelState::Failed {
        error, received, ..
    } = state
    else {
        unreachable!()
    };
    assert_eq!(error.code, ErrorCode::ChecksumMismatch);
    assert!(error.message.contains("SHA-256"), "{}", error.message);
    assert_eq!(received, 0);
    let dir = co.core.models.dir();
    assert_eq!(
        std::fs::read_dir(dir).unwrap().count(),
        0,
        "nothing left in {dir:?}"
    );
}

#[tokio::test]
async fn pause_keeps_the_bytes_resume_continues_and_cancel_deletes_them() {
    let (server, _) = model_server().await;
    server.set_chunk_delay(Duration::from_millis(40));
    let co = company(&server, None).await;
    let m = &co.core.models;

    m.start(ID).await.unwrap();
    wait_for(
        &co,
        |s| matches!(s, LocalModelState::Downloading { received, .. } if *received > 0),
    )
    .await;
    let err = m.start(ID).await.map(|d| d.state);
    assert!(
        matches!(err, Ok(LocalModelState::Downloading { .. })),
        "one download at a time: starting again changes nothing"
    );
    m.pause(ID).await.unwrap();
    let paused = wait_for(&co, |s| matches!(s, LocalModelState::Paused { .. })).await;
    let LocalModelState::Paused { received, .. } = paused else {
        unreachable!()
    };
    assert_eq!(file_len(&partial_path(&m.path_of(ID).unwrap())), received);
    assert_eq!(
        m.pause(ID).await.unwrap_err().code(),
        ErrorCode::InvalidInput
    );

    m.start(ID).await.unwrap();
    wait_for(
        &co,
        |s| matches!(s, LocalModelState::Downloading { received: r, .. } if *r > received),
    )
    .await;
    assert_eq!(server.seen().last().unwrap().range_start, Some(received));

    m.cancel(ID).await.unwrap();
    wait_for(&co, |s| *s == LocalModelState::NotInstalled).await;
    assert!(!partial_path(&m.path_of(ID).unwrap()).exists());
}

fn file_len(p: &Path) -> u64 {
    std::fs::metadata(p).map(|m| m.len()).unwrap_or(0)
}

#[tokio::test]
async fn running_local_servers_are_found_and_added_as_providers() {
    let ollama = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/api/tags"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"models": [{"name": "qwen2.5:1.5b", "size": 986_000_000}, {"name": "llama3.2:1b"}]}),
        ))
        .mount(&ollama)
        .await;
    let lmstudio = MockServer::start().await;
    Mock::given(method("GET"))
        .and(path("/v1/models"))
        .respond_with(ResponseTemplate::new(200).set_body_json(
            json!({"object": "list", "data": [{"id": "qwen2.5-7b-instruct", "object": "model"}]}),
        ))
        .mount(&lmstudio)
        .await;
    // Nothing listens here: a port that was free a moment ago.
    let closed = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let closed_url = format!("http://{}", closed.local_addr().unwrap());
    drop(closed);
    let targets = vec![
        ProbeTarget {
            kind: ServerKind::Ollama,
            root: ollama.uri(),
        },
        ProbeTarget {
            kind: ServerKind::LmStudio,
            root: lmstudio.uri(),
        },
        ProbeTarget {
            kind: ServerKind::LlamaCpp,
            root: closed_url,
        },
    ];
    let (server, _) = model_server().await;
    let co = company(&server, Some(targets)).await;

    let found = co.core.models.detect_servers().await.unwrap();
    assert_eq!(found.len(), 2, "{found:?}");
    assert_eq!(found[0].kind, LocalServerKind::Ollama);
    assert_eq!(found[0].base_url, format!("{}/v1", ollama.uri()));
    assert_eq!(found[0].models, vec!["qwen2.5:1.5b", "llama3.2:1b"]);
    assert!(!found[0].added);
    assert_eq!(found[1].kind, LocalServerKind::LmStudio);
    assert_eq!(found[1].models, vec!["qwen2.5-7b-instruct"]);

    let provider = co
        .core
        .models
        .add_server(AddLocalServer {
            kind: LocalServerKind::Ollama,
            base_url: found[0].base_url.clone(),
            model: None,
        })
        .await
        .unwrap();
    assert_eq!(provider.preset, "ollama");
    assert_eq!(provider.default_model, "qwen2.5:1.5b");
    assert_eq!(provider.base_url, found[0].base_url);

    let again = co.core.models.detect_servers().await.unwrap();
    assert!(again[0].added && !again[1].added);

    let gone = co
        .core
        .models
        .add_server(AddLocalServer {
            kind: LocalServerKind::LlamaCpp,
            base_url: "http://127.0.0.1:9/v1".into(),
            model: None,
        })
        .await
        .unwrap_err();
    assert_eq!(gone.code(), ErrorCode::InvalidInput);
}

#[tokio::test]
async fn an_unknown_model_id_is_not_found() {
    let (server, _) = model_server().await;
    let co = company(&server, None).await;
    let err = co.core.models.start("no-such-model").await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
    assert!(err.to_string().contains("no-such-model"));
}

/// A company whose catalogue model lives at `url` (where nothing serves it).
async fn company_at(url: &str) -> TestCompany {
    let (server, _) = model_server().await;
    let mut entry = entry_for(&server);
    entry.url = url.to_owned();
    TestCompany::with_options(CoreOptions {
        local_models: LocalModelsConfig {
            catalogue: Some(vec![entry]),
            download: DownloadOptions {
                stall_timeout: Duration::from_secs(1),
                max_retries: 4,
                // Long enough to read the waiting state, short enough for a test.
                backoff_initial: Duration::from_millis(400),
                backoff_max: Duration::from_millis(400),
                reserve_bytes: 0,
                ..DownloadOptions::default()
            },
            probe_targets: None,
            dir: None,
        },
        ..CoreOptions::default()
    })
    .await
}

/// With no way to the server the row says why, which attempt comes and when — never a
/// bare "reconnecting" — and ends failed with the reason and the count, leaving no file.
#[tokio::test]
async fn an_unreachable_host_shows_the_reason_the_attempts_and_gives_up() {
    let co = company_at("http://nowhere.invalid/test-model.gguf").await;
    let before = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as u64;

    co.core.models.start(ID).await.unwrap();
    let waiting = wait_for(&co, |s| {
        matches!(s, LocalModelState::Downloading { retry: Some(_), .. })
    })
    .await;
    let LocalModelState::Downloading {
        retry: Some(retry),
        reconnecting,
        received,
        ..
    } = waiting
    else {
        unreachable!()
    };
    assert!(reconnecting);
    assert_eq!(received, 0);
    assert_eq!(retry.kind, DownloadFailureKind::Dns);
    assert_eq!(retry.host, "nowhere.invalid");
    assert_eq!((retry.next_attempt, retry.max_attempts), (2, 5));
    assert!(
        retry.next_try_at_ms >= before,
        "the next try is in the future"
    );

    let failed = wait_for(&co, |s| matches!(s, LocalModelState::Failed { .. })).await;
    let LocalModelState::Failed {
        error,
        received,
        gave_up: Some(gave_up),
    } = failed
    else {
        panic!("expected a give-up with its reason, got {failed:?}")
    };
    assert_eq!(error.code, ErrorCode::DownloadFailed);
    assert!(
        error.message.contains("could not resolve nowhere.invalid"),
        "{}",
        error.message
    );
    assert_eq!(gave_up.kind, DownloadFailureKind::Dns);
    assert_eq!(gave_up.attempts, 5);
    assert_eq!(received, 0);
    let dest = co.core.models.path_of(ID).unwrap();
    assert!(!dest.exists() && !partial_path(&dest).exists(), "no file");
}

#[tokio::test]
async fn a_refused_connection_is_told_as_refused() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let co = company_at(&format!("http://127.0.0.1:{port}/test-model.gguf")).await;
    co.core.models.start(ID).await.unwrap();
    let failed = wait_for(&co, |s| matches!(s, LocalModelState::Failed { .. })).await;
    let LocalModelState::Failed {
        gave_up: Some(gave_up),
        ..
    } = failed
    else {
        panic!("{failed:?}")
    };
    assert_eq!(gave_up.kind, DownloadFailureKind::Refused);
    assert_eq!(gave_up.host, "127.0.0.1");
}

async fn add_provider(
    co: &TestCompany,
    (name, preset): (&str, &str),
    base_url: &str,
    model: &str,
) -> cubicle_core::providers::ProviderDto {
    co.core
        .providers
        .save(cubicle_core::providers::SaveProvider {
            id: None,
            name: name.into(),
            preset: preset.into(),
            base_url: base_url.into(),
            default_model: model.into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap()
}

/// One click after adding a provider: every purpose on the built-in model moves to it;
/// one the boss sent to a downloaded model stays, and so does privacy (a remote provider
/// never reads a person's private words).
#[tokio::test]
async fn a_new_provider_takes_every_purpose_on_the_builtin_model_in_one_call() {
    use cubicle_core::providers::SetRoute;
    let (server, _) = model_server().await;
    let co = company(&server, None).await;
    let providers = &co.core.providers;
    providers
        .set_route(SetRoute {
            purpose: Purpose::Thought,
            provider_id: "builtin".into(),
            model: ID.into(),
        })
        .await
        .unwrap();
    providers
        .set_route(SetRoute {
            purpose: Purpose::Privacy,
            provider_id: "builtin".into(),
            model: String::new(),
        })
        .await
        .unwrap();
    let deepseek = add_provider(
        &co,
        ("DeepSeek", "deepseek"),
        "https://api.deepseek.com/v1",
        "deepseek-chat",
    )
    .await;

    let offered = providers.builtin_purposes(&deepseek.id).await.unwrap();
    assert_eq!(
        offered,
        vec![Purpose::Intent, Purpose::Summary, Purpose::Report]
    );

    let changed = providers
        .use_for_builtin_purposes(&deepseek.id)
        .await
        .unwrap();
    assert_eq!(
        changed.iter().map(|r| r.purpose).collect::<Vec<_>>(),
        offered
    );
    let routes = providers.routes().await.unwrap();
    let route = |p: Purpose| {
        let r = routes.iter().find(|r| r.purpose == p).unwrap();
        (r.provider_id.clone(), r.model.clone())
    };
    for p in [Purpose::Intent, Purpose::Summary, Purpose::Report] {
        assert_eq!(route(p), (deepseek.id.clone(), "deepseek-chat".into()));
    }
    assert_eq!(route(Purpose::Thought), ("builtin".into(), ID.into()));
    assert_eq!(route(Purpose::Privacy), ("builtin".into(), String::new()));
    // Gateway calls follow.
    let r = providers.route_for(Purpose::Intent).await.unwrap();
    assert_eq!(r.provider_id, deepseek.id);

    // Nothing left on the built-in model: a second click changes nothing.
    assert!(
        providers
            .builtin_purposes(&deepseek.id)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(
        providers
            .use_for_builtin_purposes(&deepseek.id)
            .await
            .unwrap()
            .is_empty()
    );
    let err = providers
        .use_for_builtin_purposes("builtin")
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    let err = providers
        .use_for_builtin_purposes("nope")
        .await
        .unwrap_err();
    assert_eq!(err.code(), ErrorCode::NotFound);
}

/// A local server may take privacy too, when the boss had given it the built-in model.
#[tokio::test]
async fn a_local_provider_also_takes_privacy_from_the_builtin_model() {
    use cubicle_core::providers::SetRoute;
    let (server, _) = model_server().await;
    let co = company(&server, None).await;
    let providers = &co.core.providers;
    providers
        .set_route(SetRoute {
            purpose: Purpose::Privacy,
            provider_id: "builtin".into(),
            model: String::new(),
        })
        .await
        .unwrap();
    let local = add_provider(
        &co,
        ("Ollama here", "ollama"),
        "http://127.0.0.1:11434/v1",
        "qwen2.5:1.5b",
    )
    .await;
    let changed = providers.use_for_builtin_purposes(&local.id).await.unwrap();
    assert_eq!(
        changed.iter().map(|r| r.purpose).collect::<Vec<_>>(),
        vec![
            Purpose::Intent,
            Purpose::Thought,
            Purpose::Summary,
            Purpose::Report,
            Purpose::Privacy
        ]
    );
}
