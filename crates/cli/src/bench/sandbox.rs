//! `cubicle-cli bench sandbox`: what the box around an employee's command costs at start.
//! The same command runs unconfined (`sh -c`, the same pipes, a cleared environment) and
//! in the box (through the tools' own `sandbox::run`), alternating, so both see the same
//! load; the difference of the medians is the added cost per command.

use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use cubicle_core::tools::sandbox::{self, BoxSpec, SandboxConfig};
use serde::Serialize;

use super::percentile;

/// Commands measured: nothing at all, and a little output through the pipes.
const COMMANDS: [&str; 2] = ["true", "echo hello"];

#[derive(Debug, Serialize)]
pub struct CommandFigures {
    pub command: String,
    pub unconfined_p50_ms: f64,
    pub unconfined_p95_ms: f64,
    pub sandboxed_p50_ms: f64,
    pub sandboxed_p95_ms: f64,
    /// Sandboxed p50 minus unconfined p50: what the box adds per command.
    pub added_p50_ms: f64,
    pub added_p95_ms: f64,
}

#[derive(Debug, Serialize)]
pub struct Figures {
    pub iterations: usize,
    /// Whether the app runs as root here (then each box also gets a pids cgroup).
    pub as_root: bool,
    pub commands: Vec<CommandFigures>,
    pub goal_added_p50_ms: f64,
}

impl Figures {
    fn missed(&self) -> Vec<String> {
        self.commands
            .iter()
            .filter(|c| c.added_p50_ms > self.goal_added_p50_ms)
            .map(|c| {
                format!(
                    "`{}` adds {:.1} ms > {} ms",
                    c.command, c.added_p50_ms, self.goal_added_p50_ms
                )
            })
            .collect()
    }
}

pub async fn run(iterations: usize, json: bool, check: bool) -> Result<()> {
    let f = measure(iterations.max(10)).await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&f)?);
    } else {
        print(&f);
    }
    let missed = f.missed();
    if check && !missed.is_empty() {
        bail!("bench sandbox missed its goal: {}", missed.join("; "));
    }
    Ok(())
}

async fn measure(iterations: usize) -> Result<Figures> {
    let config = SandboxConfig::default();
    // A box that cannot start is the answer, not a figure.
    sandbox::probe(&config).await?;
    let dir = tempfile::tempdir()?;
    let folder = dir.path().canonicalize()?;
    let mut commands = Vec::new();
    for command in COMMANDS {
        let mut plain = Vec::with_capacity(iterations);
        let mut boxed = Vec::with_capacity(iterations);
        for _ in 0..iterations {
            plain.push(unconfined(command, &folder).await?);
            boxed.push(sandboxed(&config, command, &folder).await?);
        }
        plain.sort();
        boxed.sort();
        // Hundredths of a millisecond: finer is noise.
        let ms = |d: Duration| (d.as_secs_f64() * 100_000.0).round() / 100.0;
        let (p50, p95) = (ms(percentile(&plain, 0.5)), ms(percentile(&plain, 0.95)));
        let (b50, b95) = (ms(percentile(&boxed, 0.5)), ms(percentile(&boxed, 0.95)));
        commands.push(CommandFigures {
            command: command.to_owned(),
            unconfined_p50_ms: p50,
            unconfined_p95_ms: p95,
            sandboxed_p50_ms: b50,
            sandboxed_p95_ms: b95,
            added_p50_ms: ((b50 - p50) * 100.0).round() / 100.0,
            added_p95_ms: ((b95 - p95) * 100.0).round() / 100.0,
        });
    }
    Ok(Figures {
        iterations,
        as_root: std::fs::read_to_string("/proc/self/status").is_ok_and(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|l| l.split_whitespace().next())
                == Some("0")
        }),
        commands,
        goal_added_p50_ms: super::goals::SANDBOX_ADDED_MS_P50,
    })
}

/// One run of `sh -c command` as the tools ran it before the box.
async fn unconfined(command: &str, folder: &std::path::Path) -> Result<Duration> {
    let t0 = Instant::now();
    let out = tokio::process::Command::new("sh")
        .arg("-c")
        .arg(command)
        .current_dir(folder)
        .env_clear()
        .env("PATH", "/usr/local/bin:/usr/bin:/bin")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .output()
        .await?;
    let took = t0.elapsed();
    if !out.status.success() {
        bail!("`{command}` failed unconfined: {:?}", out.status);
    }
    Ok(took)
}

/// One run of the same command in a box, as `run_shell` runs it.
async fn sandboxed(
    config: &SandboxConfig,
    command: &str,
    folder: &std::path::Path,
) -> Result<Duration> {
    let spec = BoxSpec {
        command,
        folder,
        network: false,
        stdin: None,
        timeout: Duration::from_secs(30),
    };
    let t0 = Instant::now();
    let out = sandbox::run(config, &spec).await?;
    let took = t0.elapsed();
    if out.exit_code != Some(0) {
        bail!(
            "`{command}` failed in the box: {:?} {}",
            out.exit_code,
            String::from_utf8_lossy(&out.stderr)
        );
    }
    Ok(took)
}

fn print(f: &Figures) {
    println!(
        "sandbox start-up, {} runs each, alternating (as root: {})",
        f.iterations, f.as_root
    );
    println!(
        "{:<12} {:>14} {:>14} {:>14} {:>14} {:>10} {:>10}",
        "command",
        "plain p50 ms",
        "plain p95 ms",
        "boxed p50 ms",
        "boxed p95 ms",
        "+p50 ms",
        "+p95 ms"
    );
    for c in &f.commands {
        println!(
            "{:<12} {:>14.2} {:>14.2} {:>14.2} {:>14.2} {:>10.2} {:>10.2}",
            c.command,
            c.unconfined_p50_ms,
            c.unconfined_p95_ms,
            c.sandboxed_p50_ms,
            c.sandboxed_p95_ms,
            c.added_p50_ms,
            c.added_p95_ms
        );
    }
    println!("goal: at most {} ms added (p50)", f.goal_added_p50_ms);
}
