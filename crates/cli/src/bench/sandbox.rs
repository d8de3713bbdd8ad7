//! `cubicle-cli bench sandbox`: what the box around an employee's command costs at start,
//! and whether it holds against the attacks it exists for.
//!
//! The same command runs unconfined (`sh -c`, the same pipes, a cleared environment), in
//! an offline box and in an online one (through the tools' own `sandbox::run`),
//! alternating, so all three see the same load; the difference of the medians is the
//! added cost per command. Then each attack case ([`cases`]) runs once against the real
//! sandbox and file tools.

mod cases;

use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Result, bail};
use cubicle_core::tools::sandbox::{self, BoxFolder, BoxSpec, SandboxConfig};
use serde::Serialize;

use super::goals;
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
    /// Whether the app runs as root here (then each box also gets a pids cgroup and runs
    /// as a user of its own).
    pub as_root: bool,
    /// Offline boxes, the network off (how most commands run).
    pub commands: Vec<CommandFigures>,
    /// The same commands in boxes with the network on (slirp4netns started per box),
    /// against the same unconfined runs.
    pub online_commands: Vec<CommandFigures>,
    pub goal_added_p50_ms: f64,
    pub goal_online_added_p50_ms: f64,
    /// Each attack, tried once, and whether the box or the file tools held.
    pub cases: Vec<cases::Case>,
    /// How long the cases took, all together.
    pub cases_ms: f64,
}

impl Figures {
    fn missed(&self) -> Vec<String> {
        let over = |list: &[CommandFigures], goal: f64, how: &str| {
            list.iter()
                .filter(|c| c.added_p50_ms > goal)
                .map(|c| {
                    format!(
                        "`{}` {how} adds {:.1} ms > {goal} ms",
                        c.command, c.added_p50_ms
                    )
                })
                .collect::<Vec<_>>()
        };
        let mut missed = over(&self.commands, self.goal_added_p50_ms, "offline");
        missed.extend(over(
            &self.online_commands,
            self.goal_online_added_p50_ms,
            "online",
        ));
        missed.extend(
            self.cases
                .iter()
                .filter(|c| !c.held)
                .map(|c| format!("case `{}` not held: {}", c.name, c.detail)),
        );
        missed
    }
}

pub async fn run(iterations: usize, json: bool, check: bool) -> Result<()> {
    let mut f = measure(iterations.max(10)).await?;
    let t0 = Instant::now();
    f.cases = cases::run_all(&SandboxConfig::default()).await;
    f.cases_ms = ms(t0.elapsed());
    if json {
        println!("{}", serde_json::to_string_pretty(&f)?);
    } else {
        print(&f);
    }
    let missed = f.missed();
    if check && !missed.is_empty() {
        bail!("bench sandbox missed its goals: {}", missed.join("; "));
    }
    Ok(())
}

/// Hundredths of a millisecond: finer is noise.
fn ms(d: Duration) -> f64 {
    (d.as_secs_f64() * 100_000.0).round() / 100.0
}

async fn measure(iterations: usize) -> Result<Figures> {
    let config = SandboxConfig::default();
    // A box that cannot start is the answer, not a figure.
    sandbox::probe(&config, false).await?;
    sandbox::probe(&config, true).await?;
    let dir = tempfile::tempdir()?;
    let folder = BoxFolder::open(&dir.path().canonicalize()?)?;
    let mut commands = Vec::new();
    let mut online_commands = Vec::new();
    for command in COMMANDS {
        let mut plain = Vec::with_capacity(iterations);
        let mut offline = Vec::with_capacity(iterations);
        let mut online = Vec::with_capacity(iterations);
        for _ in 0..iterations {
            plain.push(unconfined(command, folder.path()).await?);
            offline.push(sandboxed(&config, command, &folder, false).await?);
            online.push(sandboxed(&config, command, &folder, true).await?);
        }
        plain.sort();
        offline.sort();
        online.sort();
        commands.push(compared(command, &plain, &offline));
        online_commands.push(compared(command, &plain, &online));
    }
    Ok(Figures {
        iterations,
        as_root: sandbox::box_user().is_some(),
        commands,
        online_commands,
        goal_added_p50_ms: goals::SANDBOX_ADDED_MS_P50,
        goal_online_added_p50_ms: goals::SANDBOX_ONLINE_ADDED_MS_P50,
        cases: Vec::new(),
        cases_ms: 0.0,
    })
}

/// `boxed` beside `plain` (both sorted).
fn compared(command: &str, plain: &[Duration], boxed: &[Duration]) -> CommandFigures {
    let (p50, p95) = (ms(percentile(plain, 0.5)), ms(percentile(plain, 0.95)));
    let (b50, b95) = (ms(percentile(boxed, 0.5)), ms(percentile(boxed, 0.95)));
    CommandFigures {
        command: command.to_owned(),
        unconfined_p50_ms: p50,
        unconfined_p95_ms: p95,
        sandboxed_p50_ms: b50,
        sandboxed_p95_ms: b95,
        added_p50_ms: ((b50 - p50) * 100.0).round() / 100.0,
        added_p95_ms: ((b95 - p95) * 100.0).round() / 100.0,
    }
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
    folder: &BoxFolder,
    network: bool,
) -> Result<Duration> {
    let spec = BoxSpec {
        command,
        folder,
        network,
        stdin: None,
        timeout: Duration::from_secs(30),
    };
    let t0 = Instant::now();
    let out = sandbox::run(config, &spec).await?;
    let took = t0.elapsed();
    if out.exit_code != Some(0) {
        bail!(
            "`{command}` failed in the box (network {network}): {:?} {}",
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
        "{:<20} {:>13} {:>13} {:>13} {:>13} {:>9} {:>9}",
        "command",
        "plain p50 ms",
        "plain p95 ms",
        "boxed p50 ms",
        "boxed p95 ms",
        "+p50 ms",
        "+p95 ms"
    );
    let rows = f
        .commands
        .iter()
        .map(|c| (c, "offline"))
        .chain(f.online_commands.iter().map(|c| (c, "online")));
    for (c, how) in rows {
        println!(
            "{:<20} {:>13.2} {:>13.2} {:>13.2} {:>13.2} {:>9.2} {:>9.2}",
            format!("{} ({how})", c.command),
            c.unconfined_p50_ms,
            c.unconfined_p95_ms,
            c.sandboxed_p50_ms,
            c.sandboxed_p95_ms,
            c.added_p50_ms,
            c.added_p95_ms
        );
    }
    println!(
        "goal: at most {} ms added offline, {} ms online (p50)",
        f.goal_added_p50_ms, f.goal_online_added_p50_ms
    );
    println!();
    cases::print(&f.cases);
    println!("cases took {:.0} ms", f.cases_ms);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn check_names_a_goal_missed_online_and_a_case_not_held() {
        let row = |added: f64| CommandFigures {
            command: "true".into(),
            unconfined_p50_ms: 1.0,
            unconfined_p95_ms: 1.0,
            sandboxed_p50_ms: 1.0 + added,
            sandboxed_p95_ms: 1.0 + added,
            added_p50_ms: added,
            added_p95_ms: added,
        };
        let case = |name: &'static str, held: bool| cases::Case {
            name,
            tried: "",
            held,
            detail: "seen".into(),
        };
        let mut f = Figures {
            iterations: 10,
            as_root: false,
            commands: vec![row(20.0)],
            online_commands: vec![row(40.0)],
            goal_added_p50_ms: goals::SANDBOX_ADDED_MS_P50,
            goal_online_added_p50_ms: goals::SANDBOX_ONLINE_ADDED_MS_P50,
            cases: vec![case("link", true), case("fifo", true)],
            cases_ms: 1.0,
        };
        assert!(f.missed().is_empty(), "{:?}", f.missed());
        f.online_commands = vec![row(60.0)];
        f.cases[1].held = false;
        assert_eq!(
            f.missed(),
            [
                "`true` online adds 60.0 ms > 50 ms",
                "case `fifo` not held: seen"
            ]
        );
    }
}
