//! `export` / `import`: the company as one JSON bundle file (see `cubicle_core::bundle`).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result, anyhow};
use clap::Subcommand;
use cubicle_core::AppCore;
use cubicle_core::bundle;
use cubicle_core::imported::{ConfirmImported, ImportedToConfirm};

/// Writes the bundle to `out`, or to stdout; the summary goes to stderr so stdout stays
/// pure JSON for pipes.
pub async fn export(core: &AppCore, out: Option<PathBuf>) -> Result<()> {
    let b = bundle::export(core).await?;
    let json = bundle::to_json(&b)?;
    match &out {
        Some(path) => {
            // Write beside the target, then rename: a failed export never leaves half a file.
            let tmp = path.with_extension("partial");
            std::fs::write(&tmp, &json).with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(json.as_bytes())?;
            stdout.write_all(b"\n")?;
        }
    }
    eprintln!(
        "exported {} rows ({} bytes){}",
        b.tables.row_count(),
        json.len(),
        out.map(|p| format!(" to {}", p.display()))
            .unwrap_or_default()
    );
    Ok(())
}

pub async fn import(core: &AppCore, file: &Path) -> Result<()> {
    // Refused before it is read: a file far larger than any company's bundle.
    let len = std::fs::metadata(file)
        .with_context(|| format!("reading {}", file.display()))?
        .len();
    bundle::check_size(len)?;
    let json =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let b = bundle::parse(&json)?;
    let report = bundle::import(core, b).await?;
    println!(
        "imported {} ({} people, {} rows)",
        report.company_name, report.employees, report.rows
    );
    let waiting = core.imported().to_confirm().await?;
    if !waiting.providers.is_empty() || !waiting.cli_commands.is_empty() {
        println!("not used until you confirm them (`cubicle-cli imported confirm …`):");
        print_waiting(&waiting);
    }
    Ok(())
}

#[derive(Subcommand)]
pub enum ImportedCommand {
    /// Provider URLs and CLI commands that came in with an imported company and wait
    /// for your confirmation before they are used.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Confirm one of them, as it is now (printed): it is used from then on.
    #[command(subcommand)]
    Confirm(ConfirmCommand),
}

#[derive(Subcommand)]
pub enum ConfirmCommand {
    /// A provider's base URL (by provider id).
    Provider { provider_id: String },
    /// An employee's CLI command (by employee id).
    Cli { employee_id: i32 },
}

pub async fn imported(core: &AppCore, cmd: ImportedCommand) -> Result<()> {
    let waiting = core.imported().to_confirm().await?;
    match cmd {
        ImportedCommand::List { json: true } => {
            println!("{}", serde_json::to_string_pretty(&waiting)?);
        }
        ImportedCommand::List { json: false } => {
            if waiting.providers.is_empty() && waiting.cli_commands.is_empty() {
                println!("nothing imported waits for confirmation");
            }
            print_waiting(&waiting);
        }
        ImportedCommand::Confirm(what) => {
            let input = confirmation(&waiting, what)?;
            let shown = match &input {
                ConfirmImported::ProviderUrl { base_url, .. } => base_url.clone(),
                ConfirmImported::CliCommand { command, .. } => command.clone(),
            };
            core.imported().confirm(input).await?;
            println!("confirmed: {shown}");
        }
    }
    Ok(())
}

/// What is confirmed: the value waiting now, which this command prints.
fn confirmation(waiting: &ImportedToConfirm, what: ConfirmCommand) -> Result<ConfirmImported> {
    match what {
        ConfirmCommand::Provider { provider_id } => waiting
            .providers
            .iter()
            .find(|p| p.provider_id == provider_id)
            .map(|p| ConfirmImported::ProviderUrl {
                provider_id: p.provider_id.clone(),
                base_url: p.base_url.clone(),
            })
            .ok_or_else(|| {
                anyhow!("no imported provider {provider_id:?} waits for confirmation (see `cubicle-cli imported list`)")
            }),
        ConfirmCommand::Cli { employee_id } => waiting
            .cli_commands
            .iter()
            .find(|c| c.employee_id == employee_id)
            .map(|c| ConfirmImported::CliCommand {
                employee_id,
                command: c.command.clone(),
            })
            .ok_or_else(|| {
                anyhow!("no imported CLI command of employee {employee_id} waits for confirmation (see `cubicle-cli imported list`)")
            }),
    }
}

fn print_waiting(waiting: &ImportedToConfirm) {
    for p in &waiting.providers {
        println!(
            "  provider {:<16} {}  (confirm: cubicle-cli imported confirm provider {})",
            p.provider_id, p.base_url, p.provider_id
        );
    }
    for c in &waiting.cli_commands {
        println!(
            "  cli {:<4} {:<16} `{}`  (confirm: cubicle-cli imported confirm cli {})",
            c.employee_id, c.employee_name, c.command, c.employee_id
        );
    }
}
