//! `cubicle-cli`: the company without a window. Every command goes through the same
//! core services as the desktop app; this file only parses arguments and prints.

mod approvals;
mod bench;
mod bundle;
mod decisions;
mod intent;
mod models;
mod org;
mod people;
mod provider;
mod proxy;
mod roles;
mod run;
mod say;
mod webhooks;
mod work;

use anyhow::Result;
use clap::{Parser, Subcommand};
use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::providers::EnvProvider;

#[derive(Parser)]
#[command(
    name = "cubicle-cli",
    version,
    about = "Run and inspect a Cubicle company from the terminal"
)]
struct Cli {
    /// Database URL (sqlite:… or postgres:…). Default: $CUBICLE_DATABASE_URL, else the
    /// company-server sign-in saved in the keychain (`sign-in`), else the desktop app's
    /// database in the OS data dir.
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
    /// The company's people besides the boss: invite, duties, whose decision an action is.
    #[command(subcommand)]
    People(people::PeopleCommand),
    /// A person's proxy, which acts in their name: say, log, written, correct, card.
    Proxy {
        /// The person (name or id).
        person: String,
        #[command(subcommand)]
        command: proxy::ProxyCommand,
    },
    /// Model providers: list, add, store a key, test.
    #[command(subcommand)]
    Provider(provider::ProviderCommand),
    /// Role cards: list them, import a roster folder, export them as files.
    #[command(subcommand)]
    Roles(roles::RolesCommand),
    /// Local models: the catalogue, downloads, servers running on this machine.
    #[command(subcommand)]
    Models(models::ModelsCommand),
    /// Ask a model one question through the gateway (budgeted, recorded in the ledger).
    Ask {
        /// Provider id (see `provider list`); default: the intent route, or
        /// $CUBICLE_PROVIDER when set.
        #[arg(long)]
        provider: Option<String>,
        #[arg(long)]
        model: Option<String>,
        /// A JSON Schema file: the answer is validated against it and printed as JSON.
        #[arg(long)]
        schema: Option<std::path::PathBuf>,
        #[arg(required = true, num_args = 1..)]
        prompt: Vec<String>,
    },
    /// Benchmarks: measured side by side in one run, printed as ratios.
    #[command(subcommand)]
    Bench(bench::BenchCommand),
    /// One turn with the secretary against the company: answers, questions, action cards.
    Say {
        /// Apply every non-destructive proposal at once (firing still waits).
        #[arg(long)]
        yes: bool,
        #[arg(long)]
        json: bool,
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// Every chat and what was said in it.
    Chats,
    /// Post in a chat as the boss (employees answer when the engine runs).
    Post {
        chat_id: i32,
        #[arg(required = true, num_args = 1..)]
        text: Vec<String>,
    },
    /// Let the company work headless for a while (the conversation engine).
    Run(run::RunArgs),
    /// Every task: who has it, its status, who gave it.
    Tasks {
        #[arg(long)]
        json: bool,
    },
    /// The boss's mailbox: reports, escalations, budget stops.
    Mailbox {
        #[arg(long)]
        json: bool,
    },
    /// The newest boss instructions, each with what it cost so far.
    Traces {
        #[arg(long)]
        json: bool,
    },
    /// One instruction's whole story: tasks, messages, thoughts, model calls, mail, cost.
    Trace {
        id: String,
        /// Also list thoughts and model calls (always in --json).
        #[arg(long)]
        all: bool,
        #[arg(long)]
        json: bool,
    },
    /// Requirements by status, with their reviewers and task trees.
    Board {
        #[arg(long)]
        json: bool,
    },
    /// Decisions taken in meetings, each with its authorization chain.
    Decisions {
        #[arg(long)]
        json: bool,
    },
    /// Name who reviews a requirement's deliverables (or --none to remove them).
    Reviewer {
        /// The requirement's id, or words of its name.
        requirement: String,
        /// The reviewer's name or id.
        #[arg(required_unless_present = "none", conflicts_with = "none")]
        employee: Option<String>,
        #[arg(long)]
        none: bool,
    },
    /// The secretary's conversation and its action cards.
    #[command(subcommand)]
    Secretary(say::SecretaryCommand),
    /// Actions that wait for your approval.
    #[command(subcommand)]
    Approvals(approvals::ApprovalsCommand),
    /// Where employees' webhooks may post: the boss's allowlist of hosts.
    #[command(subcommand)]
    Webhooks(webhooks::WebhooksCommand),
    /// Write the whole company (no API keys) as one JSON bundle, to stdout or --out.
    Export {
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Read a company bundle into this database, which must be empty (e.g. a new --db).
    Import { file: std::path::PathBuf },
    /// What came in with an imported company and waits for your confirmation: provider
    /// URLs and CLI commands.
    #[command(subcommand)]
    Imported(bundle::ImportedCommand),
    /// Parse a boss message into secretary intents (no side effects, no database).
    Intent(intent::IntentArgs),
    /// Save the company-server sign-in the boss gave you (read from stdin) in this
    /// computer's keychain; the app and the CLI then open the company with it.
    SignIn {
        /// Forget this computer's saved sign-in instead.
        #[arg(long)]
        forget: bool,
    },
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
    // `run` is the engine of a company (on a server, under systemd): what it does is
    // logged. Everything else reports on stdout and fails with one error line, so its
    // log stays quiet unless asked for with RUST_LOG.
    init_logging(if matches!(cli.command, Command::Run(_)) {
        "info,sea_orm_migration=warn,sqlx=warn"
    } else {
        "error"
    });
    match run(cli).await {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e:#}");
            std::process::ExitCode::FAILURE
        }
    }
}

/// Logs to stderr, filtered by `RUST_LOG` when set, else at `default`. Never secrets:
/// database URLs are logged redacted and keys are never in an event.
fn init_logging(default: &str) {
    let filter = tracing_subscriber::EnvFilter::try_from_default_env()
        .unwrap_or_else(|_| tracing_subscriber::EnvFilter::new(default));
    // Fails only if a subscriber is already set, which nothing here does.
    let _ = tracing_subscriber::fmt()
        .with_env_filter(filter)
        .with_writer(std::io::stderr)
        // Colours on a terminal only, not in a journal or a file.
        .with_ansi(std::io::IsTerminal::is_terminal(&std::io::stderr()))
        .try_init();
}

/// Whether there is a company database to read (a SQLite file that exists, or a server);
/// `intent` must not create one.
fn company_exists(db: Option<&str>) -> Result<bool> {
    let url = match db {
        Some(url) => url.to_owned(),
        None => cubicle_core::location::default_database_url()?,
    };
    Ok(match url.strip_prefix("sqlite:") {
        Some(rest) => {
            let path = rest.trim_start_matches("//");
            let path = path.split('?').next().unwrap_or(path);
            path != ":memory:" && std::path::Path::new(path).exists()
        }
        None => true,
    })
}

async fn run(cli: Cli) -> Result<()> {
    match cli.command {
        Command::Bench(cmd) => bench::run(cmd).await,
        Command::Intent(args)
            if !company_exists(cli.db.as_deref())? && EnvProvider::from_env()?.is_none() =>
        {
            intent::rules_only(args)
        }
        Command::Dev(DevCommand::ExportBindings { out }) => {
            cubicle_core::bindings::export_all(&out)?;
            println!("bindings written to {}", out.display());
            Ok(())
        }
        Command::SignIn { forget } => people::sign_in(forget).await,
        command => {
            let (core, url, manual) = open_company(cli.db, &command).await?;
            on_company(core, &url, manual, command).await
        }
    }
}

/// The company the command works on: the database (`--db`, else the environment, the
/// keychain's sign-in or the local file), opened with the environment's provider and, for
/// a simulated run, a clock of its own.
async fn open_company(
    db: Option<String>,
    command: &Command,
) -> Result<(AppCore, String, Option<cubicle_core::clock::ManualClock>)> {
    let url = match db {
        Some(url) => url,
        None => cubicle_core::sign_in::database_url(&cubicle_core::secrets::KeyringStore)?,
    };
    // A provider straight from the environment, for scripts and servers.
    let env_provider = EnvProvider::from_env()?;
    // A simulated run keeps its own calendar.
    let manual = match command {
        Command::Run(args) if args.virtual_clock => {
            Some(cubicle_core::clock::ManualClock::new(chrono::Utc::now()))
        }
        _ => None,
    };
    let mut options = CoreOptions {
        env_provider,
        ..CoreOptions::default()
    };
    options.approvals.tools.webhook_loopback_for_tests =
        cubicle_core::tools::loopback_webhooks_for_tests_from_env();
    if let Some(m) = &manual {
        options.clock = m.shared();
    }
    let core = AppCore::open_with(&url, options).await?;
    Ok((core, url, manual))
}

/// A command that works on the company.
async fn on_company(
    core: AppCore,
    url: &str,
    manual: Option<cubicle_core::clock::ManualClock>,
    command: Command,
) -> Result<()> {
    match command {
        Command::Org(cmd) => org::run(&core, cmd).await,
        Command::People(cmd) => people::run(&core, url, cmd).await,
        Command::Proxy { person, command } => proxy::run(&core, &person, command).await,
        Command::Provider(cmd) => provider::run(&core, cmd).await,
        Command::Models(cmd) => models::run(&core, cmd).await,
        Command::Roles(cmd) => roles::run(&core, cmd).await,
        Command::Say { yes, json, text } => say::say(&core, &text.join(" "), yes, json).await,
        Command::Secretary(cmd) => say::run(&core, cmd).await,
        Command::Approvals(cmd) => approvals::run(&core, cmd).await,
        Command::Webhooks(cmd) => webhooks::run(&core, cmd).await,
        Command::Chats => say::chats(&core).await,
        Command::Post { chat_id, text } => say::post(&core, chat_id, &text.join(" ")).await,
        Command::Run(args) => run::run(&core, manual, args).await,
        Command::Tasks { json } => work::tasks(&core, json).await,
        Command::Mailbox { json } => work::mailbox(&core, json).await,
        Command::Traces { json } => work::traces(&core, json).await,
        Command::Trace { id, all, json } => work::trace(&core, &id, all, json).await,
        Command::Board { json } => work::board(&core, json).await,
        Command::Decisions { json } => decisions::decisions(&core, json).await,
        Command::Reviewer {
            requirement,
            employee,
            ..
        } => decisions::reviewer(&core, &requirement, employee.as_deref()).await,
        Command::Ask {
            provider,
            model,
            schema,
            prompt,
        } => provider::ask(&core, provider, model, schema, prompt.join(" ")).await,
        Command::Intent(args) => intent::run(&core, args).await,
        Command::Export { out } => bundle::export(&core, out).await,
        Command::Import { file } => bundle::import(&core, &file).await,
        Command::Imported(cmd) => bundle::imported(&core, cmd).await,
        Command::Dev(_) | Command::Bench(_) | Command::SignIn { .. } => {
            unreachable!("handled above")
        }
    }
}
