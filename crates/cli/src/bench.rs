//! `cubicle-cli bench …`: speed measured side by side in one run, printed as ratios.

mod builtin;
mod chat;
mod goals;
mod sandbox;
mod soak;

use std::sync::Arc;
use std::time::{Duration, Instant};

use anyhow::Result;
use clap::Subcommand;
use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::gateway::{CallContext, Purpose, Route};
use cubicle_core::org::SetupCompany;
use cubicle_core::providers::SaveProvider;
use cubicle_llm::presets::{self, ProviderConfig};
use cubicle_llm::{ChatMessage, CompletionRequest};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpListener;

#[derive(Subcommand)]
pub enum BenchCommand {
    /// Gateway overhead per call: the same OpenAI-compatible client called directly vs
    /// through the gateway (admission, budget check, permit, ledger row), against a
    /// zero-latency local server.
    Gateway {
        #[arg(long, default_value_t = 300)]
        calls: usize,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        goals: Checked,
    },
    /// The conversation engine against a zero-latency scripted model on a temp SQLite
    /// company, raced in the same run against a naive whole-history prompt, a 10-s
    /// poller and the engine without its gates (what each sent, counted at the server);
    /// our overhead per thought, thoughts per second, and one department thought as sent
    /// in each dialect.
    Chat {
        /// Departments of the big company (each with its group chat, plus as many
        /// project chats mixing people across departments).
        #[arg(long, default_value_t = 5)]
        departments: usize,
        /// People per department.
        #[arg(long, default_value_t = 10)]
        dept_size: usize,
        /// Simulated minutes of the busy phase (the boss posts in every chat once).
        #[arg(long, default_value_t = 30)]
        busy_minutes: u32,
        /// Simulated hours of the quiet phase (one boss message per chat every 10 min).
        #[arg(long, default_value_t = 2.0)]
        quiet_hours: f64,
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        goals: Checked,
    },
    /// Seed 001's job: a product-launch plan by six people (lead, engineering, QA,
    /// design, marketing, compliance) against a cooperative scripted model keyed on the
    /// real prompt; calls, tokens sent, simulated minutes to the report and messages per
    /// person, beside seed 001's published figures (240 calls, ~210k tokens, 47 min).
    Story {
        #[arg(long)]
        json: bool,
        #[command(flatten)]
        goals: Checked,
    },
    /// The offline company (SPEC §13): seed 000's story (the boss asks Alice, Alice asks
    /// Bob, Bob answers, Alice resolves the task with a saved document and reports) on
    /// the real built-in model, once per seed; usable thoughts, answers cut off, seconds
    /// per thought, stories completed, answers in Chinese.
    Builtin {
        #[arg(long, default_value_t = 5)]
        seeds: u64,
        /// Simulated minutes each story may take.
        #[arg(long, default_value_t = 30)]
        minutes: i64,
        /// The company's language: `en` or `zh-CN`.
        #[arg(long, default_value = "en")]
        language: String,
        /// Another GGUF to measure instead of the installed built-in model.
        #[arg(long)]
        model: Option<std::path::PathBuf>,
        #[arg(long)]
        json: bool,
        /// Exit non-zero when a goal is missed.
        #[arg(long)]
        check: bool,
    },
    /// The sandbox around employees' commands: the start-up of `true` and `echo` in a
    /// box, offline and online, against the same command unconfined, alternating in one
    /// run; p50/p95 and the milliseconds the box adds (goals at p50: at most 30 ms
    /// offline, 50 ms online). Then each attack the box and the file tools exist for,
    /// tried once against the real code: a bound folder swapped for a link, one's notes a
    /// hard link to the Makefile, the session bus, a FIFO read as a file, the disk and
    /// `/dev/shm` filled, the host's loopback from an online box, and `/etc/shadow` when
    /// the app runs as root; held or not.
    Sandbox {
        #[arg(long, default_value_t = 200)]
        iterations: usize,
        #[arg(long)]
        json: bool,
        /// Exit non-zero when a goal is missed or an attack is not held.
        #[arg(long)]
        check: bool,
    },
    /// Fault soak (SPEC §10): a company works simulated days against a local provider
    /// that fails about one request in five (429 with and without Retry-After, 500,
    /// timeouts, cut bodies, garbled JSON) with a daily outage and a binding daily
    /// budget; then retries, breaker, budget, malformed answers, crashes and stuck
    /// employees are read back from the database.
    Soak(SoakArgs),
}

/// `bench soak`'s arguments.
#[derive(clap::Args)]
pub struct SoakArgs {
    #[arg(long, default_value_t = 7)]
    days: u32,
    #[arg(long, default_value_t = 12)]
    people: usize,
    /// Share of requests that get a random fault (0–1); the daily outage comes on top.
    #[arg(long, default_value_t = 0.2)]
    failure_rate: f64,
    #[arg(long, default_value_t = 42)]
    seed: u64,
    /// The company's daily budget (max_cost), USD; the default binds on the busiest
    /// day (Monday's kick-off).
    #[arg(long, default_value_t = 0.5)]
    budget: f64,
    /// Per-call timeout in ms (SPEC: 60 000; short, so a week doesn't take hours).
    #[arg(long, default_value_t = 2000)]
    call_timeout_ms: u64,
    /// First backoff step in ms (then ×2, ×4; SPEC: 1000).
    #[arg(long, default_value_t = 100)]
    backoff_ms: u64,
    #[arg(long)]
    json: bool,
    #[command(flatten)]
    goals: Checked,
}

/// Whether to hold the figures to their goals (crates/cli/src/bench/goals.rs).
#[derive(clap::Args, Clone, Debug)]
pub struct Checked {
    /// Exit non-zero when a goal is missed.
    #[arg(long)]
    check: bool,
    /// Hold a goal to another limit, `KEY=NUMBER` (repeatable): shows `--check` failing.
    #[arg(long = "goal", value_parser = goals::parse_override, hide = true)]
    overrides: Vec<(String, f64)>,
}

impl Checked {
    /// Fails with what was missed, when checking.
    fn verdict(&self, bench: &str, table: &[goals::Goal], measured: &[(&str, f64)]) -> Result<()> {
        let missed = goals::missed(table, measured, &self.overrides);
        if self.check && !missed.is_empty() {
            anyhow::bail!("bench {bench} missed its goals: {}", missed.join("; "));
        }
        Ok(())
    }
}

pub async fn run(cmd: BenchCommand) -> Result<()> {
    match cmd {
        BenchCommand::Gateway { calls, json, goals } => gateway(calls, json, &goals).await,
        BenchCommand::Story { json, goals } => {
            chat::story::run(json, goals.check, &goals.overrides).await
        }
        BenchCommand::Chat {
            departments,
            dept_size,
            busy_minutes,
            quiet_hours,
            json,
            goals,
        } => {
            chat::run(
                chat::Sizes {
                    departments,
                    dept_size,
                    busy_minutes,
                    quiet_hours,
                },
                chat::Output {
                    json,
                    check: goals.check,
                    overrides: goals.overrides,
                },
            )
            .await
        }
        BenchCommand::Builtin {
            seeds,
            minutes,
            language,
            model,
            json,
            check,
        } => {
            builtin::run(
                builtin::Options {
                    seeds: seeds.clamp(1, 50),
                    minutes: minutes.clamp(1, 24 * 60),
                    language: parse_language(&language)?,
                    model,
                },
                json,
                check,
            )
            .await
        }
        BenchCommand::Sandbox {
            iterations,
            json,
            check,
        } => sandbox::run(iterations, json, check).await,
        BenchCommand::Soak(args) => run_soak(args).await,
    }
}

/// `bench soak`, its arguments checked.
async fn run_soak(args: SoakArgs) -> Result<()> {
    let SoakArgs {
        days,
        people,
        failure_rate,
        seed,
        budget,
        call_timeout_ms,
        backoff_ms,
        json,
        goals,
    } = args;
    check_soak_args(failure_rate, budget)?;
    soak::run(
        soak::Options {
            days: days.clamp(1, 30),
            people: people.clamp(2, 60),
            failure_rate,
            seed,
            budget_usd: budget,
            call_timeout: Duration::from_millis(call_timeout_ms.clamp(100, 120_000)),
            backoff: Duration::from_millis(backoff_ms.min(10_000)),
            ..soak::Options::default()
        },
        json,
        &goals,
    )
    .await
}

fn parse_language(language: &str) -> Result<cubicle_core::types::Language> {
    match language {
        "en" => Ok(cubicle_core::types::Language::En),
        "zh-CN" | "zh" => Ok(cubicle_core::types::Language::ZhCn),
        other => anyhow::bail!("--language must be en or zh-CN, not {other:?}"),
    }
}

/// The soak's arguments that cannot be clamped into range, refused with a clear message.
fn check_soak_args(failure_rate: f64, budget: f64) -> Result<()> {
    if !(0.0..=1.0).contains(&failure_rate) {
        anyhow::bail!("--failure-rate must be between 0 and 1");
    }
    if !(budget.is_finite() && budget > 0.0) {
        anyhow::bail!("--budget must be a positive number of dollars");
    }
    Ok(())
}

/// What a scripted server answers: the assistant's content for one request body.
pub(crate) type Answer = Arc<dyn Fn(&[u8]) -> String + Send + Sync>;

/// A minimal HTTP/1.1 server that answers every request at once with a fixed chat reply.
async fn zero_latency_server() -> Result<String> {
    scripted_server(Arc::new(|_| "ok".to_owned())).await
}

/// `content` as an HTTP/1.1 response in the dialect of the request: an Anthropic
/// Messages answer for `…/messages` (a `tool_use` block when the request forced a tool),
/// else an OpenAI chat completion.
fn completion_response(head: &str, request: &[u8], content: &str) -> String {
    let anthropic = head
        .lines()
        .next()
        .is_some_and(|line| line.contains("/messages "));
    let body = if anthropic {
        let request: serde_json::Value =
            serde_json::from_slice(request).unwrap_or(serde_json::Value::Null);
        let tool = request["tool_choice"]["name"].as_str();
        let block = match (tool, serde_json::from_str::<serde_json::Value>(content)) {
            (Some(name), Ok(input)) => {
                serde_json::json!({"type": "tool_use", "id": "toolu_bench", "name": name, "input": input})
            }
            _ => serde_json::json!({"type": "text", "text": content}),
        };
        serde_json::json!({
            "id": "msg_bench", "type": "message", "role": "assistant", "model": "bench",
            "content": [block], "stop_reason": if tool.is_some() { "tool_use" } else { "end_turn" },
            "usage": {"input_tokens": 10, "output_tokens": 1}
        })
    } else {
        serde_json::json!({
            "id": "c", "object": "chat.completion", "model": "bench",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": content}}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 1}
        })
    }
    .to_string();
    format!(
        "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
        body.len()
    )
}

/// A minimal zero-latency HTTP/1.1 server speaking the OpenAI chat API (and Anthropic's
/// Messages API on `/v1/messages`): every request is answered at once with what `answer`
/// makes of its body.
pub(crate) async fn scripted_server(answer: Answer) -> Result<String> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((mut sock, _)) = listener.accept().await {
            let answer = answer.clone();
            tokio::spawn(async move {
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
                    // One response per complete request (headers + content-length body).
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
                        let request = &pending[end + 4..end + 4 + len];
                        let response = completion_response(&head, request, &answer(request));
                        pending.drain(..end + 4 + len);
                        if sock.write_all(response.as_bytes()).await.is_err() {
                            return;
                        }
                    }
                }
            });
        }
    });
    Ok(format!("http://{addr}/v1"))
}

fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    hay.windows(needle.len()).position(|w| w == needle)
}

pub(crate) fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let idx = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted.get(idx).copied().unwrap_or_default()
}

async fn gateway(calls: usize, json: bool, goals: &Checked) -> Result<()> {
    let calls = calls.max(10);
    let base = zero_latency_server().await?;
    let dir = tempfile::tempdir()?;
    let (core, route) = bench_company(dir.path(), &base).await?;
    let direct = direct_client(&base)?;
    let (d, g) = time_both(calls, direct.as_ref(), &core, &route).await?;
    print_gateway(calls, &d, &g, json);
    let overhead = percentile(&g, 0.5).saturating_sub(percentile(&d, 0.5));
    goals.verdict(
        "gateway",
        goals::GATEWAY,
        &[("overhead_us_p50", overhead.as_micros() as f64)],
    )
}

/// A company in a fresh database under `dir` whose one provider is the server at `base`,
/// and the route to it.
async fn bench_company(dir: &std::path::Path, base: &str) -> Result<(AppCore, Route)> {
    let url = format!("sqlite://{}?mode=rwc", dir.join("bench.db").display());
    let core = AppCore::open_with(&url, CoreOptions::default()).await?;
    core.org
        .setup_company(SetupCompany {
            name: "Bench".into(),
            boss_name: "Bench".into(),
            language: cubicle_core::types::Language::En,
            mission: None,
        })
        .await?;
    let p = core
        .providers
        .save(SaveProvider {
            id: None,
            name: "Local".into(),
            preset: "vllm".into(),
            base_url: base.to_owned(),
            default_model: "bench".into(),
            models: vec![],
            enabled: true,
        })
        .await?;
    let route = Route {
        provider_id: p.id,
        model: "bench".into(),
    };
    Ok((core, route))
}

/// The same OpenAI-compatible client the gateway would build, called without it.
fn direct_client(base: &str) -> Result<Arc<dyn cubicle_llm::LlmClient>> {
    let preset = presets::preset("vllm").ok_or_else(|| anyhow::anyhow!("vllm preset"))?;
    let mut config = ProviderConfig::from(preset);
    config.base_url = base.to_owned();
    Ok(Arc::from(presets::client_for(
        config,
        None,
        None,
        Duration::from_secs(10),
    )?))
}

/// `calls` timings of the direct client and of the gateway, each sorted.
async fn time_both(
    calls: usize,
    direct: &dyn cubicle_llm::LlmClient,
    core: &AppCore,
    route: &Route,
) -> Result<(Vec<Duration>, Vec<Duration>)> {
    let req = CompletionRequest {
        messages: vec![ChatMessage::user("ping")],
        max_tokens: Some(4),
        ..Default::default()
    };
    let ctx = CallContext::new(Purpose::Test);
    // Warm both paths (connections, statement caches), then interleave the measurements
    // so background noise hits both equally.
    for _ in 0..10 {
        direct.complete(req.clone()).await?;
        core.gateway
            .complete(&ctx, route.clone(), req.clone())
            .await?;
    }
    let (mut d, mut g) = (Vec::with_capacity(calls), Vec::with_capacity(calls));
    for _ in 0..calls {
        let t = Instant::now();
        direct.complete(req.clone()).await?;
        d.push(t.elapsed());
        let t = Instant::now();
        core.gateway
            .complete(&ctx, route.clone(), req.clone())
            .await?;
        g.push(t.elapsed());
    }
    d.sort();
    g.sort();
    Ok((d, g))
}

fn print_gateway(calls: usize, d: &[Duration], g: &[Duration], json: bool) {
    let (d50, g50) = (percentile(d, 0.5), percentile(g, 0.5));
    let (d99, g99) = (percentile(d, 0.99), percentile(g, 0.99));
    let overhead = g50.saturating_sub(d50);
    let ratio = g50.as_secs_f64() / d50.as_secs_f64().max(1e-9);
    if json {
        println!(
            "{}",
            serde_json::json!({
                "calls": calls,
                "direct_us_p50": d50.as_micros(), "gateway_us_p50": g50.as_micros(),
                "direct_us_p99": d99.as_micros(), "gateway_us_p99": g99.as_micros(),
                "overhead_us_p50": overhead.as_micros(), "gateway_over_direct": ratio,
            })
        );
        return;
    }
    println!("gateway overhead, {calls} calls each, zero-latency local server:");
    println!(
        "  direct client   p50 {:>7} µs   p99 {:>7} µs",
        d50.as_micros(),
        d99.as_micros()
    );
    println!(
        "  through gateway p50 {:>7} µs   p99 {:>7} µs",
        g50.as_micros(),
        g99.as_micros()
    );
    println!(
        "  overhead p50 {} µs per call (gateway / direct = {ratio:.2}×; includes the ledger write)",
        overhead.as_micros()
    );
}
