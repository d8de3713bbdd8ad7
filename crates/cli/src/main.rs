//! `cubicle-cli`: the company without a window. Every command goes through the same
//! core services as the desktop app; this file only parses arguments and prints.

mod org;

use anyhow::Result;
use clap::{Parser, Subcommand};
use cubicle_core::AppCore;

#[derive(Parser)]
#[command(
    name = "cubicle-cli",
    version,
    about = "Run and inspect a Cubicle company from the terminal"
)]
struct Cli {
    /// Database URL (sqlite:… or postgres:…). Default: $CUBICLE_DATABASE_URL, else the
    /// desktop app's database in the OS data dir.
    #[arg(long, global = true)]
    db: Option<String>,
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// The org chart: company, departments, people.
    #[command(subcommand)]
    Org(org::OrgCommand),
    /// Developer tasks.
    #[command(subcommand, hide = true)]
    Dev(DevCommand),
}

#[derive(Subcommand)]
enum DevCommand {
    /// Regenerate the TypeScript bindings in ui/src/bindings.
    ExportBindings {
        #[arg(long, default_value = "ui/src/bindings")]
        out: std::path::PathBuf,
    },
}

#[tokio::main(flavor = "current_thread")]
async fn main() -> std::process::ExitCode {
    let cli = Cli::parse();
    match run(cli).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

async fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Dev(DevCommand::ExportBindings { out }) => {
            cubicle_core::bindings::export_all(&out)?;
            println!("bindings written to {}", out.display());
            Ok(())
        }
        Command::Org(cmd) => {
            let url = match cli.db {
                Some(url) => url,
                None => cubicle_store::default_database_url()?,
            };
            let core = AppCore::open(&url).await?;
            org::run(&core, cmd).await
        }
    }
}
