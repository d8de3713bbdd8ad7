//! `cubicle-cli approvals list | decide`: the approval queue from the terminal. A
//! decision made here is recorded as `decided_via = cli`. Approving is bound to what the
//! boss saw: in a terminal, `decide` shows the whole action and asks; from a script it
//! needs `--hash` with the seal `list` printed, and an action changed since is refused.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Result, bail};
use clap::{Subcommand, ValueEnum};
use cubicle_core::AppCore;
use cubicle_core::approvals::{
    ApprovalDto, ApprovalFilter, DecideApproval, DecidedVia, Decider, Decision,
};
use cubicle_core::notify::plain as shown;

/// How much of a seal `list` prints and `--hash` must give at least.
const SEAL_SHOWN: usize = 12;

#[derive(Subcommand)]
pub enum ApprovalsCommand {
    /// What waits for you (or, with --history, what was decided).
    List {
        #[arg(long)]
        history: bool,
        #[arg(long)]
        json: bool,
        /// What waits for this person (name or id) instead of everything (the boss's view).
        #[arg(long = "as", value_name = "PERSON", conflicts_with = "history")]
        as_person: Option<String>,
    },
    /// Approve or reject one approval.
    Decide {
        id: i32,
        decision: Verdict,
        #[arg(long)]
        note: Option<String>,
        /// The seal `approvals list` showed (at least its first 12 characters): what you
        /// approve. Without it, a terminal shows the whole action and asks.
        #[arg(long)]
        hash: Option<String>,
        #[arg(long)]
        json: bool,
        /// Decide as this person (name or id): only an approval routed to them. The boss
        /// when omitted.
        #[arg(long = "as", value_name = "PERSON")]
        as_person: Option<String>,
    },
}

#[derive(Clone, Copy, ValueEnum)]
pub enum Verdict {
    Approve,
    Reject,
}

pub async fn run(core: &AppCore, cmd: ApprovalsCommand) -> Result<()> {
    match cmd {
        ApprovalsCommand::List {
            history,
            json,
            as_person,
        } => {
            let decider = decider(core, as_person.as_deref()).await?;
            list(core, history, json, decider).await
        }
        ApprovalsCommand::Decide {
            id,
            decision,
            note,
            hash,
            json,
            as_person,
        } => {
            let decider = decider(core, as_person.as_deref()).await?;
            decide(core, id, (decision, decider), note, hash, json).await
        }
    }
}

/// The boss, or the person named (by name or id).
async fn decider(core: &AppCore, person: Option<&str>) -> Result<Decider> {
    Ok(match person {
        None => Decider::Boss,
        Some(key) => Decider::Person {
            person_id: crate::people::find_person(core, key).await?,
        },
    })
}

/// What waits (or, with `history`, what was decided), each with the seal to approve it by.
async fn list(core: &AppCore, history: bool, json: bool, decider: Decider) -> Result<()> {
    let items = if history {
        let filter = ApprovalFilter::History {
            status: None,
            employee_id: None,
        };
        core.approvals.list(filter).await?
    } else {
        core.approvals.pending_for(decider).await?
    };
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
            "#{} [{}] {} wants {}: {}\n    why: {}{}\n    seal: {}",
            a.id,
            a.status,
            shown(&a.requester_name),
            a.tool,
            shown(&a.summary),
            shown(&a.reason),
            a.decided_via
                .map(|v| format!(" (decided via {v})"))
                .unwrap_or_default(),
            &a.args_hash[..a.args_hash.len().min(SEAL_SHOWN)]
        );
    }
    Ok(())
}

/// One decision, bound to the seal the boss saw (`--hash`, or the terminal's question).
async fn decide(
    core: &AppCore,
    id: i32,
    (decision, decider): (Verdict, Decider),
    note: Option<String>,
    hash: Option<String>,
    json: bool,
) -> Result<()> {
    let d = match decision {
        Verdict::Approve => Decision::Approve,
        Verdict::Reject => Decision::Reject,
    };
    let current = core.approvals.get(id).await?;
    let args_hash = match (d, hash) {
        (Decision::Reject, _) => current.args_hash.clone(),
        (Decision::Approve, Some(h)) => matching_seal(&current.args_hash, &h)?,
        (Decision::Approve, None) => confirm_in_terminal(&current)?,
    };
    let input = DecideApproval {
        approval_id: id,
        decision: d,
        note,
        args_hash,
    };
    let a = core
        .approvals
        .decide_as(input, DecidedVia::Cli, decider)
        .await?;
    if json {
        println!("{}", serde_json::to_string(&a)?);
    } else {
        println!(
            "#{} {}{}",
            a.id,
            a.status,
            a.error
                .as_deref()
                .map(|e| format!(" — it failed: {e}"))
                .unwrap_or_default()
        );
    }
    Ok(())
}

/// The full seal when `given` is (a long enough start of) it.
fn matching_seal(seal: &str, given: &str) -> Result<String> {
    let given = given.trim().to_ascii_lowercase();
    if given.len() < SEAL_SHOWN {
        bail!("--hash needs at least the {SEAL_SHOWN} characters `approvals list` shows");
    }
    if !seal.starts_with(&given) {
        bail!(
            "approval's seal is not {given}: its action is not the one you looked at. \
             Run `approvals list` and look at it again; nothing was decided"
        );
    }
    Ok(seal.to_owned())
}

/// Shows the whole action in a terminal and asks; the seal of what was shown on yes.
fn confirm_in_terminal(a: &ApprovalDto) -> Result<String> {
    if !std::io::stdin().is_terminal() {
        bail!(
            "approving #{} from a script needs --hash with the seal `approvals list` shows \
             (so the decision is bound to what you saw); nothing was decided",
            a.id
        );
    }
    let args = serde_json::to_string_pretty(&a.args)?;
    print!(
        "#{} {} wants {}:\n  {}\n  why: {}\n  arguments: {}\nApprove exactly this? [y/N] ",
        a.id,
        shown(&a.requester_name),
        a.tool,
        shown(&a.summary),
        shown(&a.reason),
        shown(&args)
    );
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    if !matches!(answer.trim(), "y" | "Y" | "yes") {
        bail!("not approved; nothing was decided");
    }
    Ok(a.args_hash.clone())
}
