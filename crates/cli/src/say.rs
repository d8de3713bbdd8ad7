//! `cubicle-cli say …` and `cubicle-cli secretary …`: a whole secretary turn against the
//! company database, and the Confirm / Cancel / Undo of its action cards.

use anyhow::Result;
use clap::Subcommand;
use cubicle_core::AppCore;
use cubicle_core::chat::SenderKind;
use cubicle_core::secretary::actions::{ActionDto, ActionStatus, Proposal};

#[derive(Subcommand)]
pub enum SecretaryCommand {
    /// The conversation so far.
    History {
        #[arg(long)]
        json: bool,
    },
    /// Apply a proposed action.
    Confirm { id: i32 },
    /// Drop a proposed action.
    Cancel { id: i32 },
    /// Reverse an applied action (within 10 minutes).
    Undo { id: i32 },
}

pub async fn say(core: &AppCore, text: &str, yes: bool, json: bool) -> Result<()> {
    let turn = core.secretary.say(text, yes).await?;
    // New hires write their introductions in the background: let them finish.
    core.secretary.settle().await;
    if json {
        println!("{}", serde_json::to_string_pretty(&turn)?);
        return Ok(());
    }
    println!("{}", turn.reply.text);
    for a in &turn.reply.actions {
        print_action(a);
    }
    Ok(())
}

pub async fn run(core: &AppCore, cmd: SecretaryCommand) -> Result<()> {
    let s = &core.secretary;
    match cmd {
        SecretaryCommand::History { json } => {
            let h = s.history().await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&h)?);
            } else {
                for m in h {
                    println!("[{}] {:?}: {}", m.at, m.role, m.text);
                    for a in &m.actions {
                        print_action(a);
                    }
                }
            }
        }
        SecretaryCommand::Confirm { id } => {
            print_action(&s.confirm(id, None).await?);
            s.settle().await;
        }
        SecretaryCommand::Cancel { id } => print_action(&s.cancel(id).await?),
        SecretaryCommand::Undo { id } => print_action(&s.undo(id).await?),
    }
    Ok(())
}

fn print_action(a: &ActionDto) {
    println!(
        "  #{} {} — {}",
        a.id,
        describe(&a.proposal),
        status_label(a)
    );
    if let Some(d) = &a.diff {
        println!("     {d}");
    }
    if let Some(e) = &a.error {
        println!("     error: {e}");
    }
    if a.status == ActionStatus::Proposed {
        println!(
            "     cubicle-cli secretary confirm {} | cancel {}",
            a.id, a.id
        );
    }
}

/// What a hire takes from its role card, when the card gives anything.
fn role_card(
    tools: &[String],
    unknown: &[String],
    model: Option<&str>,
    temperature: Option<f64>,
) -> String {
    let mut parts = Vec::new();
    if !tools.is_empty() {
        parts.push(format!("tools: {}", tools.join(", ")));
    }
    if !unknown.is_empty() {
        parts.push(format!("not granted: {}", unknown.join(", ")));
    }
    if let Some(m) = model {
        parts.push(format!("model: {m}"));
    }
    if let Some(t) = temperature {
        parts.push(format!("temperature: {t}"));
    }
    if parts.is_empty() {
        String::new()
    } else {
        format!(" ({})", parts.join("; "))
    }
}

/// The action in a few words, as the boss would say it.
fn describe(proposal: &Proposal) -> String {
    match proposal {
        Proposal::Hire {
            name,
            title,
            department_name,
            tools,
            unknown_tools,
            model,
            temperature,
            ..
        } => format!(
            "hire {name} as {title}{}{}",
            tail(" in ", department_name.as_deref()),
            role_card(tools, unknown_tools, model.as_deref(), *temperature)
        ),
        Proposal::Fire { name, .. } => format!("fire {name}"),
        Proposal::Transfer {
            name,
            department_name,
            ..
        } => format!("move {name} to {department_name}"),
        Proposal::CreateDepartment { name, .. } => format!("create department {name}"),
        Proposal::RenameDepartment {
            old_name, new_name, ..
        } => format!("rename {old_name} to {new_name}"),
        Proposal::AssignTask {
            name, description, ..
        } => format!("give {name} the task: {description}"),
        Proposal::CreateRequirement {
            name,
            department_name,
            ..
        } => format!(
            "open requirement \"{name}\"{}",
            tail(" in ", department_name.as_deref())
        ),
        Proposal::DeleteDepartment {
            name,
            destination_name,
            ..
        } => format!(
            "delete department {name}{}",
            tail(", its people to ", destination_name.as_deref())
        ),
        Proposal::ConveneMeeting {
            topic,
            participant_names,
            ..
        } => format!("meeting \"{topic}\" with {}", participant_names.join(", ")),
        Proposal::SetReviewer {
            name,
            requirement_name,
            ..
        } => format!("make {name} the reviewer of \"{requirement_name}\""),
        Proposal::InvitePerson {
            name,
            role,
            department_name,
            ..
        } => format!(
            "invite {name}{}{}",
            tail(" as ", Some(role.as_str()).filter(|r| !r.is_empty())),
            tail(", answering for ", department_name.as_deref())
        ),
        Proposal::SetPolicy {
            level,
            daily_budget_usd,
        } => format!(
            "set policy{}{}",
            tail(" approvals=", level.map(|l| l.to_string()).as_deref()),
            daily_budget_usd
                .map(|b| format!(" budget=${b:.2}"))
                .unwrap_or_default()
        ),
    }
}

/// `prefix` and `value`, or nothing when there is no value.
fn tail(prefix: &str, value: Option<&str>) -> String {
    value.map(|v| format!("{prefix}{v}")).unwrap_or_default()
}

fn status_label(a: &ActionDto) -> &'static str {
    match a.status {
        ActionStatus::Proposed if a.destructive => "waiting for your confirmation (destructive)",
        ActionStatus::Proposed => "proposed",
        ActionStatus::InProgress => "being carried out",
        ActionStatus::Applied => "applied",
        ActionStatus::Cancelled => "cancelled",
        ActionStatus::Undone => "undone",
        ActionStatus::Failed => "failed",
    }
}

/// Prints every department chat with its messages.
pub async fn chats(core: &AppCore) -> Result<()> {
    let snap = core.org.snapshot().await?;
    let boss = snap
        .company
        .as_ref()
        .map_or_else(|| "boss".to_owned(), |c| c.boss_name.clone());
    let name_of = |m: &cubicle_core::chat::ChatMessageDto| match m.sender_kind {
        SenderKind::Boss => boss.clone(),
        SenderKind::System => "—".to_owned(),
        SenderKind::Employee => m
            .sender_employee_id
            .and_then(|id| snap.employees.iter().find(|e| e.id == id))
            .map_or_else(|| "?".to_owned(), |e| e.name.clone()),
        SenderKind::Person => m.sender_name.clone(),
        SenderKind::Proxy => format!("{} (proxy)", m.sender_name),
    };
    for chat in core.chats.list().await? {
        println!(
            "# {} [{} chat #{}, {} members, {} unread]",
            chat.name,
            chat.kind,
            chat.id,
            chat.member_ids.len(),
            chat.unread
        );
        for m in core.chats.messages(chat.id).await? {
            println!("  [{}] {}: {}", m.created_at, name_of(&m), m.text);
        }
    }
    Ok(())
}

pub async fn post(core: &AppCore, chat_id: i32, text: &str) -> Result<()> {
    let m = core
        .chats
        .post_as_boss(cubicle_core::chat::PostMessage {
            chat_id,
            text: text.to_owned(),
        })
        .await?;
    println!("posted #{} in chat #{chat_id}", m.id);
    Ok(())
}
