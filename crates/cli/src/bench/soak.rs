//! `cubicle-cli bench soak`: a company works a simulated week against a provider that
//! fails about one call in five, and the guard rails of SPEC §10 are checked from what
//! the database holds afterwards.
//!
//! A 12-person company (four departments, two project chats, a social group) runs on a
//! manual clock; the boss posts a few instructions per working day, some of them tasks.
//! The provider is a real HTTP server on loopback (`faults`): HTTP 429 with and without
//! `Retry-After`, HTTP 500, requests held past the per-call timeout, bodies cut off
//! mid-way, and garbled answers (truncated, fenced, wrong types, prose); plus a daily
//! outage that must open the circuit breaker. A daily budget is set so it binds.
//!
//! Simulated time jumps from wake-up to wake-up; what a call waits for (the timeout,
//! retry backoff, `Retry-After`) is real time. So that a week does not take hours, the
//! per-call timeout defaults to 2 s (SPEC: 60 s) and the backoff steps to 100/200/400 ms
//! (SPEC: 1/2/4 s); `Retry-After: 1` is honoured in full. The report says so.

mod company;
mod faults;
mod model;
mod report;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicU64, Ordering};
use std::time::{Duration, Instant};

use anyhow::Result;
use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::clock::ManualClock;
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::gateway::{GatewayConfig, StructuredOutput, start_of_day};
use cubicle_core::org::{SetBudget, SetupCompany};
use cubicle_core::providers::{SaveProvider, SetPrice, SetRoute};
use cubicle_core::types::Language;
use serde::Serialize;

#[cfg(test)]
use faults::Fault;
pub use faults::Injected;
pub use report::Figures;

/// What to run.
#[derive(Clone, Debug)]
pub struct Options {
    pub days: u32,
    pub people: usize,
    /// Share of requests that get a random fault (outages come on top).
    pub failure_rate: f64,
    pub seed: u64,
    /// The company's daily budget (`max_cost`), USD.
    pub budget_usd: f64,
    /// Price of the scripted model, USD per million tokens (input, output).
    pub price: (f64, f64),
    pub call_timeout: Duration,
    /// The first backoff step; the next are twice and four times as long.
    pub backoff: Duration,
    /// The daily outage, simulated minutes.
    pub outage_minutes: i64,
}

impl Default for Options {
    fn default() -> Self {
        Self {
            days: 7,
            people: 12,
            failure_rate: 0.2,
            seed: 42,
            budget_usd: 0.5,
            price: (3.0, 15.0),
            call_timeout: Duration::from_secs(2),
            backoff: Duration::from_millis(100),
            outage_minutes: 5,
        }
    }
}

/// What a soak found.
#[derive(Clone, Debug, Serialize)]
pub struct Soak {
    pub figures: Figures,
    pub injected: Injected,
    pub call_timeout_ms: u64,
    pub backoff_ms: [u64; 3],
    pub seed: u64,
    pub failure_rate: f64,
}

/// Panics anywhere in the process (engine, gateway actor, server tasks) since start-up.
static PANICS: AtomicU64 = AtomicU64::new(0);

fn count_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            PANICS.fetch_add(1, Ordering::SeqCst);
            previous(info);
        }));
    });
}

/// Monday 2026-11-30, local midnight: simulated days line up with the budget's days.
fn monday() -> DateTime<Utc> {
    let noon = DateTime::from_timestamp(1_796_040_000, 0).unwrap_or_default(); // 2026-11-30 12:00 UTC
    start_of_day(noon)
}

pub async fn run(options: Options, json: bool, goals: &super::Checked) -> Result<()> {
    let soak = soak(options).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&soak)?);
    } else {
        print(&soak);
    }
    let f = &soak.figures;
    let over_budget = f.spend.iter().filter(|d| !d.within_rule).count();
    goals.verdict(
        "soak",
        super::goals::SOAK,
        &[
            ("crashes", f.crashes as f64),
            ("stuck", f.stuck.len() as f64),
            ("days_over_budget", over_budget as f64),
        ],
    )
}

pub async fn soak(o: Options) -> Result<Soak> {
    count_panics();
    let panics_before = PANICS.load(Ordering::SeqCst);
    let started = Instant::now();
    let from = monday();
    let clock = ManualClock::new(from);
    let dir = tempfile::tempdir()?;
    let backoff = [o.backoff, o.backoff * 2, o.backoff * 4];
    let core = open_company(dir.path(), &clock, &o, &backoff).await?;
    let company = company::build(&core, o.people.clamp(2, 60)).await?;
    let days = o.days.clamp(1, 30);
    let plan = company::plan(
        o.seed,
        from,
        days,
        company.people.len(),
        company.chats.len(),
        TimeDelta::minutes(o.outage_minutes.max(1)),
    );
    let provider = faults::FaultyProvider::new(
        faults::FaultConfig {
            seed: o.seed,
            rate: o.failure_rate,
            hold: o.call_timeout + Duration::from_millis(500),
            outages: plan.outages.clone(),
        },
        clock.shared(),
    );
    connect(&core, provider.serve().await?, o.price).await?;
    let engine = Engine::new(
        &core,
        EngineConfig {
            seed: Some(o.seed),
            ..EngineConfig::default()
        },
    );
    let end = from + TimeDelta::days(i64::from(days));
    work_the_plan(&engine, &core, &clock, company, plan, end).await?;
    let mut figures = report::compute(&core, &engine, from, days, o.budget_usd).await?;
    figures.crashes = PANICS.load(Ordering::SeqCst) - panics_before;
    figures.wall_seconds = started.elapsed().as_secs_f64();
    Ok(Soak {
        figures,
        injected: provider.injected(),
        call_timeout_ms: o.call_timeout.as_millis() as u64,
        backoff_ms: backoff.map(|d| d.as_millis() as u64),
        seed: o.seed,
        failure_rate: o.failure_rate,
    })
}

/// The company in a fresh database under `dir`, on `clock`, with the run's timeout,
/// backoff and daily budget.
async fn open_company(
    dir: &std::path::Path,
    clock: &ManualClock,
    o: &Options,
    backoff: &[Duration; 3],
) -> Result<AppCore> {
    let url = format!("sqlite://{}?mode=rwc", dir.join("soak.db").display());
    let core = AppCore::open_with(
        &url,
        CoreOptions {
            clock: clock.shared(),
            // No built-in model: an open breaker or a spent budget must show as such.
            builtin_model: Some(dir.join("no-model.gguf")),
            gateway: GatewayConfig {
                call_timeout: o.call_timeout,
                backoff: backoff.to_vec(),
                ..GatewayConfig::default()
            },
            ..CoreOptions::default()
        },
    )
    .await?;
    core.org
        .setup_company(SetupCompany {
            name: "Soak Robotics".into(),
            boss_name: "Ada".into(),
            language: Language::En,
            mission: Some("Build helpful robots".into()),
        })
        .await?;
    core.org
        .set_budget(SetBudget {
            daily_budget_usd: o.budget_usd,
        })
        .await?;
    Ok(core)
}

/// The faulty server at `base_url` as the provider of every purpose, at `price` (USD per
/// million input and output tokens).
async fn connect(core: &AppCore, base_url: String, price: (f64, f64)) -> Result<()> {
    let p = core
        .providers
        .save(SaveProvider {
            id: None,
            name: "Flaky".into(),
            preset: "vllm".into(),
            base_url,
            default_model: "soak".into(),
            models: vec![],
            enabled: true,
        })
        .await?;
    core.providers
        .set_price(SetPrice {
            provider_id: p.id.clone(),
            model: "soak".into(),
            input_per_mtok: price.0,
            output_per_mtok: price.1,
        })
        .await?;
    for purpose in cubicle_core::gateway::ROUTABLE {
        core.providers
            .set_route(SetRoute {
                purpose,
                provider_id: p.id.clone(),
                model: "soak".into(),
            })
            .await?;
    }
    Ok(())
}

/// The boss's plan acted out with the engine running between its steps, until `end`.
async fn work_the_plan(
    engine: &Engine,
    core: &AppCore,
    clock: &ManualClock,
    company: company::Company,
    plan: company::Plan,
    end: DateTime<Utc>,
) -> Result<()> {
    // The run itself in a task of its own: a panic anywhere in it is caught and counted
    // as a crash instead of ending the soak.
    let run = {
        let (engine, core, clock) = (engine.clone(), core.clone(), clock.clone());
        let actions = plan.actions;
        tokio::spawn(async move {
            engine.bootstrap().await?;
            for (at, action) in &actions {
                engine.run_simulated(&clock, *at).await;
                company::act(&core, &company, action).await?;
            }
            engine.run_simulated(&clock, end).await;
            anyhow::Ok(())
        })
    };
    match run.await {
        Ok(r) => r,
        Err(e) if e.is_panic() => {
            tracing_panic();
            Ok(())
        }
        Err(e) => Err(e.into()),
    }
}

/// The panic hook already counted it; the run simply stopped there.
fn tracing_panic() {
    eprintln!("the soak run panicked; the figures cover what happened until then");
}

fn print(s: &Soak) {
    let f = &s.figures;
    println!(
        "bench soak — {} people, {} simulated days, seed {}, {:.0} % random faults + a daily outage, \
         per-call timeout {} ms (SPEC 60 s), backoff {:?} ms (SPEC 1/2/4 s), Retry-After honoured in full",
        f.employees,
        f.simulated_days,
        s.seed,
        s.failure_rate * 100.0,
        s.call_timeout_ms,
        s.backoff_ms
    );
    println!();
    println!("| figure | value |");
    println!("| --- | --- |");
    let rows = [call_rows(s), budget_rows(f), outcome_rows(f)];
    for (k, v) in rows.iter().flatten() {
        println!("| {k} | {v} |");
    }
    println!();
    println!(
        "stuck = at the end a status other than idle with nothing to explain it, or pending work \
         (a one-shot task, an unread message) with no wake-up queued; or during the run a one-shot \
         task pending > {} h with no model call by its owner, the hours after the day's budget ran \
         out not counted. spend rule: nothing paid after a day's first budget_exceeded refusal, and \
         spend ≤ budget + the one call in flight when the budget was reached.",
        report::STUCK_AFTER.num_hours()
    );
}

/// One row of the report's table: the figure and its value.
type Row = (String, String);

fn row(k: impl Into<String>, v: impl Into<String>) -> Row {
    (k.into(), v.into())
}

/// What the provider was sent and did, and what the gateway made of it: faults,
/// attempts, retries, the breaker.
fn call_rows(s: &Soak) -> Vec<Row> {
    let (f, inj) = (&s.figures, &s.injected);
    let faults: u64 = inj.faults.values().sum();
    let mut rows = vec![
        row("simulated days", f.simulated_days.to_string()),
        row(
            "requests at the provider",
            format!(
                "{} ({} valid, {} random faults = {:.1} %, {} in outages, {} garbage again after feedback)",
                inj.requests,
                inj.valid,
                faults,
                100.0 * faults as f64 / inj.requests.max(1) as f64,
                inj.outage,
                inj.garbage_after_feedback
            ),
        ),
    ];
    for (k, n) in &inj.faults {
        rows.push(row(format!("  injected: {}", k.as_str()), n.to_string()));
    }
    rows.push(row(
        "model calls (ledger, first attempts)",
        f.calls.to_string(),
    ));
    rows.push(row(
        "attempts on the wire: ok / failed",
        format!(
            "{} / {}",
            f.attempts_ok,
            f.attempts_failed.values().sum::<u64>()
        ),
    ));
    for (k, n) in &f.attempts_failed {
        rows.push(row(format!("  failed: {k}"), n.to_string()));
    }
    rows.push(row(
        "retries (ledger rows with a backoff wait)",
        format!(
            "{} (waits: {} ms in all, longest {} ms)",
            f.retries, f.retry_wait_ms_total, f.retry_wait_ms_max
        ),
    ));
    rows.push(row(
        "breaker: opened / closed / calls refused while open",
        format!(
            "{} / {} / {}",
            f.breaker_opened, f.breaker_closed, f.refused_breaker_open
        ),
    ));
    rows
}

/// The budget's refusals and each day's spend against it.
fn budget_rows(f: &Figures) -> Vec<Row> {
    let mut rows = vec![row(
        "budget_exceeded refusals (days the budget bound)",
        format!("{} ({})", f.refused_budget, f.days_budget_bound),
    )];
    for d in &f.spend {
        let refused = if d.refused > 0 {
            format!(
                ", {} refused, in-flight call ${:.4}",
                d.refused, d.in_flight_usd
            )
        } else {
            String::new()
        };
        rows.push(row(
            format!("  spend {}", d.day),
            format!(
                "${:.4} of ${:.2}{refused} — {}",
                d.spent_usd,
                d.budget_usd,
                if d.within_rule { "ok" } else { "OVER" }
            ),
        ));
    }
    rows
}

/// What the company got done despite the faults, and whether anything broke or stuck.
fn outcome_rows(f: &Figures) -> Vec<Row> {
    let output = |k: StructuredOutput| f.outputs.get(&k).unwrap_or(&0);
    let lost = f
        .thoughts_lost
        .iter()
        .map(|(k, n)| format!("{n} {k}"))
        .collect::<Vec<_>>()
        .join(", ");
    let stuck = if f.stuck.is_empty() {
        "0".to_owned()
    } else {
        f.stuck
            .iter()
            .map(|s| format!("{}: {}", s.employee, s.why))
            .collect::<Vec<_>>()
            .join("; ")
    };
    vec![
        row(
            "structured answers: valid / repaired / rejected (reported back) / dropped",
            format!(
                "{} / {} / {} / {}",
                output(StructuredOutput::Valid),
                output(StructuredOutput::Repaired),
                output(StructuredOutput::Rejected),
                output(StructuredOutput::Dropped)
            ),
        ),
        row("thoughts had / lost", format!("{} / {lost}", f.thoughts_ok)),
        row(
            "messages: boss / employees",
            format!("{} / {}", f.boss_messages, f.employee_messages),
        ),
        row(
            "tasks: by boss / by employees / resolved / failed / pending at end",
            format!(
                "{} / {} / {} / {} / {}",
                f.tasks_by_boss,
                f.tasks_by_employees,
                f.tasks_resolved,
                f.tasks_failed,
                f.tasks_pending_at_end
            ),
        ),
        row("spend in all", format!("${:.4}", f.spend_total_usd)),
        row("crashes (panics)", f.crashes.to_string()),
        row("stuck employees", stuck),
        row("wall time", format!("{:.1} s", f.wall_seconds)),
    ]
}
