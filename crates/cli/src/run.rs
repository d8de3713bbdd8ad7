//! `cubicle-cli run --for D [--virtual-clock]`: the company works headless for a while.
//! With a virtual clock the engine jumps from wake-up to wake-up, so a simulated day
//! takes as long as its model calls; without, it runs in real time like the app.

use std::time::Duration;

use anyhow::{Result, bail};
use clap::Args;
use cubicle_core::AppCore;
use cubicle_core::clock::ManualClock;
use cubicle_core::engine::lease::EngineLease;
use cubicle_core::engine::{Engine, EngineConfig, EngineStats};
use tokio_util::sync::CancellationToken;

#[derive(Args)]
pub struct RunArgs {
    /// How long to run: 90s, 10m, 2h, 1d.
    #[arg(long = "for", value_parser = parse_duration)]
    pub duration: Duration,
    /// Simulated time: wake-ups happen at once, timestamps follow the simulated clock.
    #[arg(long)]
    pub virtual_clock: bool,
    /// Seed the delays and perspective seeds for a repeatable run.
    #[arg(long)]
    pub seed: Option<u64>,
    #[arg(long)]
    pub json: bool,
}

pub fn parse_duration(s: &str) -> Result<Duration, String> {
    let s = s.trim();
    let split = s
        .find(|c: char| !c.is_ascii_digit() && c != '.')
        .unwrap_or(s.len());
    let (n, unit) = s.split_at(split);
    let n: f64 = n
        .parse()
        .map_err(|_| format!("{s:?} is not a duration like 90s, 10m, 2h or 1d"))?;
    let secs = match unit.trim() {
        "s" | "" => n,
        "m" | "min" => n * 60.0,
        "h" => n * 3600.0,
        "d" => n * 86_400.0,
        other => return Err(format!("unknown unit {other:?}: use s, m, h or d")),
    };
    if !(secs.is_finite() && secs > 0.0 && secs <= 30.0 * 86_400.0) {
        return Err("the duration must be between 1 second and 30 days".into());
    }
    Ok(Duration::from_secs_f64(secs))
}

pub async fn run(core: &AppCore, clock: Option<ManualClock>, args: RunArgs) -> Result<()> {
    if core.org.company().await?.is_none() {
        bail!("no company yet: run `cubicle-cli org init` first");
    }
    if core.approvals.signed_in().is_some() {
        bail!(
            "this is a person's sign-in: the company's engine runs on the server's own role \
             (its owner's connection), never in a person's name"
        );
    }
    let lease = take_lease(core).await?;
    let engine = Engine::new(
        core,
        EngineConfig {
            seed: args.seed,
            ..EngineConfig::default()
        },
    );
    let d = chrono::TimeDelta::from_std(args.duration)?;
    let started = std::time::Instant::now();
    match clock {
        Some(clock) => {
            engine.resume_calendar(&clock).await?;
            let until = clock.shared().now() + d;
            tokio::select! {
                done = async {
                    engine.bootstrap().await?;
                    engine.run_simulated(&clock, until).await;
                    anyhow::Ok(())
                } => done?,
                () = lease.lost() => bail!("{LOST}"),
            }
        }
        None => {
            let cancel = CancellationToken::new();
            let handle = engine.spawn(cancel.clone());
            tokio::select! {
                () = tokio::time::sleep(args.duration) => {}
                _ = tokio::signal::ctrl_c() => eprintln!("stopping…"),
                () = lease.lost() => {
                    handle.abort();
                    bail!("{LOST}");
                }
            }
            cancel.cancel();
            handle.await?;
        }
    }
    drop(lease);
    core.secretary.settle().await;
    print_report(&engine.stats(), &args, started.elapsed());
    Ok(())
}

/// What the run did, as a line for people or JSON for scripts.
fn print_report(s: &EngineStats, args: &RunArgs, wall: std::time::Duration) {
    if args.json {
        println!(
            "{}",
            serde_json::json!({
                "simulated": args.virtual_clock,
                "seconds": args.duration.as_secs_f64(),
                "wall_seconds": wall.as_secs_f64(),
                "wakeups": s.wakeups,
                "idle_wakeups": s.idle_wakeups,
                "thoughts": s.thoughts,
                "model_calls": s.model_calls,
                "messages_posted": s.messages_posted,
                "silenced": s.silenced,
                "malformed": s.malformed,
                "deferred": s.deferred,
                "replayed": s.replayed,
                "interrupted": s.interrupted,
            })
        );
    } else {
        println!(
            "ran {:?}{} in {:.1?}: {} thoughts ({} model calls, {} malformed), {} messages posted, {} held back by the gates, {} put off until a gate reopened, {} idle wake-ups",
            args.duration,
            if args.virtual_clock {
                " of simulated time"
            } else {
                ""
            },
            wall,
            s.thoughts,
            s.model_calls,
            s.malformed,
            s.messages_posted,
            s.silenced,
            s.deferred,
            s.idle_wakeups,
        );
    }
}

/// Why a running engine stopped on its own: past this point another engine may hold the
/// company, and two must never run. A supervisor restarts this one as a standby.
const LOST: &str = "the engine lease was lost (the database session holding it failed); \
stopped at once so that two engines never run this company";

/// The company's engine lease: on a server, standing by (logged) while another engine
/// holds it; on a local file, refused with who holds it.
async fn take_lease(core: &AppCore) -> Result<EngineLease> {
    let stop = CancellationToken::new();
    let lease = tokio::select! {
        taken = EngineLease::take_or_stand_by(core, &stop) => taken?,
        _ = tokio::signal::ctrl_c() => bail!("stopped while standing by"),
    };
    Ok(lease)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn durations_parse_with_units_and_refuse_nonsense() {
        assert_eq!(parse_duration("90s"), Ok(Duration::from_secs(90)));
        assert_eq!(parse_duration("10m"), Ok(Duration::from_secs(600)));
        assert_eq!(parse_duration("2h"), Ok(Duration::from_secs(7200)));
        assert_eq!(parse_duration("1d"), Ok(Duration::from_secs(86_400)));
        assert_eq!(parse_duration("1.5h"), Ok(Duration::from_secs(5400)));
        assert!(parse_duration("soon").is_err());
        assert!(parse_duration("0s").is_err());
        assert!(parse_duration("3w").is_err());
    }
}
