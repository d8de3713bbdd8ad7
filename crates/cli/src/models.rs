//! `cubicle-cli models …`: the local model catalogue, downloads, and model servers
//! running on this machine.

use std::time::Duration;

use anyhow::{Context, Result};
use clap::Subcommand;
use cubicle_core::AppCore;
use cubicle_core::gateway::Purpose;
use cubicle_core::models::{LocalModelDto, LocalModelState};
use cubicle_core::types::read_name;
use cubicle_llm::download::Outcome;

/// How often a running download prints its progress on stderr.
const PRINT_EVERY: Duration = Duration::from_secs(1);

#[derive(Subcommand)]
pub enum ModelsCommand {
    /// The catalogue of downloadable models and where each stands on this machine.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Download a catalogue model, or resume its partial download; the file is installed
    /// only once its SHA-256 matches. Ctrl-C pauses (run the command again to resume).
    Download {
        id: String,
        /// Fetch from this URL instead of the catalogue's (a mirror); the catalogue's
        /// size and SHA-256 still apply.
        #[arg(long)]
        url: Option<String>,
    },
    /// Make an installed catalogue model the built-in model, or (with --purpose) the
    /// model of one purpose only: thought, intent, summary or report.
    Use {
        id: String,
        #[arg(long)]
        purpose: Option<String>,
    },
    /// Find Ollama, LM Studio or llama.cpp servers running on this machine.
    Detect {
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(core: &AppCore, cmd: ModelsCommand) -> Result<()> {
    match cmd {
        ModelsCommand::List { json } => list(core, json).await,
        ModelsCommand::Download { id, url } => download(core, &id, url).await,
        ModelsCommand::Use { id, purpose: None } => {
            let status = core.models.use_as_builtin(&id).await?;
            println!("the built-in model is now {}", status.path);
            Ok(())
        }
        ModelsCommand::Use {
            id,
            purpose: Some(purpose),
        } => {
            let purpose = read_name::<Purpose>(&purpose).with_context(|| {
                format!("no purpose {purpose:?}: thought, intent, summary or report")
            })?;
            core.models.use_for(&id, purpose).await?;
            println!("{purpose} now goes to {id}, run in process");
            Ok(())
        }
        ModelsCommand::Detect { json } => detect(core, json).await,
    }
}

async fn list(core: &AppCore, json: bool) -> Result<()> {
    let models = core.models.list().await;
    if json {
        println!("{}", serde_json::to_string_pretty(&models)?);
        return Ok(());
    }
    for m in models {
        println!(
            "{:<34} {:>8}  RAM {:>6}  {:<28} {}",
            m.id,
            gb(m.size_bytes),
            gb(m.ram_bytes),
            m.licence,
            state_line(&m)
        );
    }
    Ok(())
}

fn state_line(m: &LocalModelDto) -> String {
    match &m.state {
        LocalModelState::NotInstalled => "not installed".into(),
        LocalModelState::Downloading {
            received, total, ..
        } => format!("downloading {}", percent(*received, *total)),
        LocalModelState::Paused { received, total } => {
            format!(
                "paused at {} (download again to resume)",
                percent(*received, *total)
            )
        }
        LocalModelState::Verifying => "verifying".into(),
        LocalModelState::Installed { path, in_use } => {
            let used = if *in_use { ", the built-in model" } else { "" };
            format!("installed at {path}{used}")
        }
        LocalModelState::Failed { error, .. } => format!("failed: {}", error.message),
    }
}

async fn download(core: &AppCore, id: &str, url: Option<String>) -> Result<()> {
    let printer = tokio::spawn(print_progress(core.clone(), id.to_owned()));
    let run = core.models.download(id, url);
    tokio::pin!(run);
    let result = tokio::select! {
        r = &mut run => r,
        _ = tokio::signal::ctrl_c() => {
            core.models.pause(id).await?;
            run.await
        }
    };
    printer.abort();
    match result? {
        Outcome::Installed { path } => println!("installed and verified: {}", path.display()),
        Outcome::Paused { received } => {
            println!("paused after {received} bytes; run the same command to resume")
        }
    }
    Ok(())
}

async fn print_progress(core: AppCore, id: String) {
    loop {
        tokio::time::sleep(PRINT_EVERY).await;
        if let Ok(m) = core.models.get(&id).await {
            match m.state {
                LocalModelState::Downloading {
                    received,
                    total,
                    bytes_per_sec,
                    retry,
                    ..
                } => {
                    let note = match retry {
                        Some(r) => format!(
                            " (attempt {} of {} next: {})",
                            r.next_attempt, r.max_attempts, r.detail
                        ),
                        None => String::new(),
                    };
                    eprintln!(
                        "{id}: {} of {} at {}/s{note}",
                        percent(received, total),
                        gb(total),
                        mb(bytes_per_sec)
                    );
                }
                LocalModelState::Verifying => eprintln!("{id}: verifying the SHA-256"),
                _ => {}
            }
        }
    }
}

async fn detect(core: &AppCore, json: bool) -> Result<()> {
    let servers = core.models.detect_servers().await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&servers)?);
        return Ok(());
    }
    if servers.is_empty() {
        println!("no Ollama, LM Studio or llama.cpp server answers on its default port");
    }
    for s in servers {
        let added = if s.added { " (already a provider)" } else { "" };
        println!(
            "{} at {}{added}: {}",
            s.name,
            s.base_url,
            s.models.join(", ")
        );
    }
    Ok(())
}

fn percent(received: u64, total: u64) -> String {
    if total == 0 {
        return "0%".into();
    }
    format!("{:.1}%", received as f64 * 100.0 / total as f64)
}

fn gb(bytes: u64) -> String {
    format!("{:.2} GB", bytes as f64 / 1e9)
}

fn mb(bytes: u64) -> String {
    format!("{:.1} MB", bytes as f64 / 1e6)
}
