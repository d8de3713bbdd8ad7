//! `cubicle-cli approvals list | decide`: the approval queue from the terminal. A
//! decision made here is recorded as `decided_via = cli`.

use anyhow::Result;
use clap::{Subcommand, ValueEnum};
use cubicle_core::AppCore;
use cubicle_core::approvals::{ApprovalFilter, DecidedVia, Decision};

#[derive(Subcommand)]
pub enum ApprovalsCommand {
    /// What waits for you (or, with --history, what was decided).
    List {
        #[arg(long)]
        history: bool,
        #[arg(long)]
        json: bool,
    },
    /// Approve or reject one approval.
    Decide {
        id: i32,
        decision: Verdict,
        #[arg(long)]
        note: Option<String>,
        #[arg(long)]
        json: bool,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Verdict {
    Approve,
    Reject,
}

pub async fn run(core: &AppCore, cmd: ApprovalsCommand) -> Result<()> {
    match cmd {
        ApprovalsCommand::List { history, json } => {
            let filter = if history {
                ApprovalFilter::History {
                    status: None,
                    employee_id: None,
                }
            } else {
                ApprovalFilter::Pending
            };
            let items = core.approvals.list(filter).await?;
            if json {
                println!("{}", serde_json::to_string(&items)?);
                return Ok(());
            }
            if items.is_empty() {
                println!(
                    "{}",
                    if history {
                        "nothing decided yet"
                    } else {
                        "nothing waits for you"
                    }
                );
            }
            for a in items {
                println!(
                    "#{} [{}] {} wants {}: {}\n    why: {}{}",
                    a.id,
                    a.status.as_str(),
                    a.requester_name,
                    a.tool,
                    a.summary,
                    a.reason,
                    a.decided_via
                        .map(|v| format!(" (decided via {})", v.as_str()))
                        .unwrap_or_default()
                );
            }
        }
        ApprovalsCommand::Decide {
            id,
            decision,
            note,
            json,
        } => {
            let d = match decision {
                Verdict::Approve => Decision::Approve,
                Verdict::Reject => Decision::Reject,
            };
            let a = core.approvals.decide(id, d, DecidedVia::Cli, note).await?;
            if json {
                println!("{}", serde_json::to_string(&a)?);
            } else {
                println!(
                    "#{} {}{}",
                    a.id,
                    a.status.as_str(),
                    a.error
                        .as_deref()
                        .map(|e| format!(" — it failed: {e}"))
                        .unwrap_or_default()
                );
            }
        }
    }
    Ok(())
}
