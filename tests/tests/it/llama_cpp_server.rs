//! The model client against a real OpenAI-compatible server that is not ours:
//! llama-cpp-python's, serving the built-in GGUF. Its `response_format` accepts only
//! `text` and `json_object` (a `json_schema` request gets HTTP 500), and it enforces
//! `{"type": "json_object", "schema": …}` by grammar. So a provider set up with the LM
//! Studio preset (whose best form is `json_schema`) must fall back to that form, get a
//! schema-valid answer, and remember it: the next call is one request.
//!
//! Needs the venv that `scripts/setup.sh --test` makes
//! (`${XDG_CACHE_HOME:-~/.cache}/cubicle/llama-cpp-python`, or `CUBICLE_LLAMA_CPP_VENV`)
//! and the built-in model (`scripts/install-model.sh`). Without them the test says why
//! and passes, except in CI (`CI=true`), where it fails.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::net::{TcpListener, TcpStream};
use std::path::PathBuf;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use cubicle_core::AppCore;
use cubicle_core::gateway::{CallContext, LedgerOutcome, Purpose, Route, StructuredOutput};
use cubicle_core::providers::SaveProvider;
use cubicle_llm::{ChatMessage, CompletionRequest, JsonForm};
use cubicle_tests::company::TestCompany;
use schemars::JsonSchema;
use serde::Deserialize;

/// Loading a 135M model takes a second or two; a busy 2-core machine is slower.
const STARTUP: Duration = Duration::from_secs(120);

#[derive(Debug, Deserialize, JsonSchema, PartialEq)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Red,
    Green,
    Yellow,
}

/// Small enough that a 135M model under a grammar cannot run past the token limit.
#[derive(Debug, Deserialize, JsonSchema)]
struct Fruit {
    colour: Colour,
    ripe: bool,
}

/// The server process, stopped when the test ends however it ends.
struct Server {
    child: Child,
    base_url: String,
    log: PathBuf,
    _dir: tempfile::TempDir,
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Server {
    fn log_text(&self) -> String {
        std::fs::read_to_string(&self.log).unwrap_or_default()
    }
}

/// The venv's python and the model, or why the test cannot run.
fn prerequisites() -> Result<(PathBuf, PathBuf), String> {
    let venv = std::env::var_os("CUBICLE_LLAMA_CPP_VENV")
        .map(PathBuf::from)
        .or_else(|| {
            std::env::var_os("XDG_CACHE_HOME")
                .map(PathBuf::from)
                .or_else(|| std::env::var_os("HOME").map(|h| PathBuf::from(h).join(".cache")))
                .map(|c| c.join("cubicle").join("llama-cpp-python"))
        })
        .ok_or("neither CUBICLE_LLAMA_CPP_VENV, XDG_CACHE_HOME nor HOME is set")?;
    let python = venv.join("bin").join("python");
    if !python.is_file() {
        return Err(format!(
            "no llama-cpp-python venv at {} (scripts/setup.sh --test makes it)",
            venv.display()
        ));
    }
    let model = cubicle_llm::model_file::default_model_path();
    if !model.is_file() {
        return Err(format!(
            "the built-in model is missing at {} (scripts/install-model.sh installs it)",
            model.display()
        ));
    }
    Ok((python, model))
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|l| l.local_addr())
        .map(|a| a.port())
        .unwrap()
}

fn start(python: &PathBuf, model: &PathBuf) -> Server {
    let dir = tempfile::tempdir().unwrap();
    let log = dir.path().join("server.log");
    let port = free_port();
    let out = std::fs::File::create(&log).unwrap();
    let child = Command::new(python)
        .args(["-m", "llama_cpp.server", "--model"])
        .arg(model)
        .args(["--host", "127.0.0.1", "--port", &port.to_string()])
        .args(["--n_threads", "1", "--n_ctx", "2048", "--verbose", "false"])
        .stdin(Stdio::null())
        .stdout(out.try_clone().unwrap())
        .stderr(out)
        .spawn()
        .unwrap();
    let mut server = Server {
        child,
        base_url: format!("http://127.0.0.1:{port}/v1"),
        log,
        _dir: dir,
    };
    // The model is loaded before the HTTP server listens: a connection means ready.
    let started = Instant::now();
    while TcpStream::connect(("127.0.0.1", port)).is_err() {
        if let Ok(Some(status)) = server.child.try_wait() {
            panic!("the server exited ({status}):\n{}", server.log_text());
        }
        assert!(
            started.elapsed() < STARTUP,
            "the server did not listen within {STARTUP:?}:\n{}",
            server.log_text()
        );
        std::thread::sleep(Duration::from_millis(200));
    }
    server
}

fn ask() -> CompletionRequest {
    CompletionRequest {
        messages: vec![
            ChatMessage::system("You describe fruit."),
            ChatMessage::user("A banana that is ready to eat: its colour, and is it ripe?"),
        ],
        temperature: Some(0.0),
        max_tokens: Some(64),
        ..Default::default()
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn llama_cpp_python_refuses_json_schema_and_the_client_falls_back_and_remembers() {
    let (python, model) = match prerequisites() {
        Ok(found) => found,
        Err(why) if std::env::var("CI").as_deref() == Ok("true") => {
            panic!("CI must run this test: {why}")
        }
        Err(why) => {
            eprintln!("SKIPPED llama_cpp_server: {why}");
            return;
        }
    };
    let server = start(&python, &model);
    let company = TestCompany::new().await;
    let core = &company.core;
    // The test's own look at what the app stored.
    let db = cubicle_store::db::connect(&company.url).await.unwrap();
    let provider = the_server_as_an_lmstudio_provider(core, &server).await;
    let route = Route {
        provider_id: provider.clone(),
        model: "smollm2".into(),
    };
    let ctx = CallContext::new(Purpose::Ask);
    let since = chrono::DateTime::UNIX_EPOCH;

    let first = core
        .gateway
        .complete_json::<Fruit>(&ctx, route.clone(), ask())
        .await
        .unwrap_or_else(|e| panic!("{e}\nserver log:\n{}", server.log_text()));
    the_refused_form_was_followed_by_one_that_works_and_remembered(&db, &provider).await;
    eprintln!(
        "first answer: {:?} (ripe: {})",
        first.value.colour, first.value.ripe
    );

    let second = core
        .gateway
        .complete_json::<Fruit>(&ctx, route, ask())
        .await
        .unwrap_or_else(|e| panic!("{e}\nserver log:\n{}", server.log_text()));
    let rows = cubicle_store::models::ledger_since(&db, since)
        .await
        .unwrap();
    assert_eq!(rows.len(), 3, "the second call is one request");
    assert_eq!(rows[2].outcome, LedgerOutcome::Ok);
    // The same prompt at temperature 0 through the same grammar: the same answer.
    assert_eq!(second.value.colour, first.value.colour);
}

/// The server saved with the `lmstudio` preset (which asks for `json_schema` first);
/// the provider's id.
async fn the_server_as_an_lmstudio_provider(core: &AppCore, server: &Server) -> String {
    core.providers
        .save(SaveProvider {
            id: None,
            name: "llama.cpp (Python)".into(),
            preset: "lmstudio".into(),
            base_url: server.base_url.clone(),
            default_model: "smollm2".into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap()
        .id
}

/// The first call: `json_schema` refused with HTTP 500, then a form the server takes,
/// held to the schema by its grammar; the form that worked is stored for the provider.
async fn the_refused_form_was_followed_by_one_that_works_and_remembered(
    db: &cubicle_store::Db,
    provider: &str,
) {
    let since = chrono::DateTime::UNIX_EPOCH;
    let rows = cubicle_store::models::ledger_since(db, since)
        .await
        .unwrap();
    let attempts: Vec<(LedgerOutcome, Option<&str>)> = rows
        .iter()
        .map(|r| (r.outcome, r.error.as_deref()))
        .collect();
    assert_eq!(rows.len(), 2, "{attempts:?}");
    assert_eq!(rows[0].outcome, LedgerOutcome::Error);
    let refusal = rows[0].error.as_deref().unwrap_or_default();
    assert!(
        refusal.starts_with("unsupported_json_form") && refusal.contains("HTTP 500"),
        "{refusal}"
    );
    assert_eq!(
        (rows[1].outcome, rows[1].output),
        (LedgerOutcome::Ok, Some(StructuredOutput::Valid)),
        "the grammar holds the answer to the schema: no repair"
    );
    assert!(
        rows[1].input_tokens > 0,
        "usage is read from the real server"
    );
    let stored = cubicle_store::models::get_setting(db, &format!("structured_form.{provider}"))
        .await
        .unwrap();
    assert_eq!(
        stored.as_deref(),
        Some(JsonForm::JsonObjectSchema.to_string().as_str())
    );
}
