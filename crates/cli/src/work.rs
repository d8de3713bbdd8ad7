//! `cubicle-cli tasks`, `mailbox`, `traces`, `trace ID` and `board`: the work, what
//! reached the boss, and the story of each instruction.

use anyhow::Result;
use cubicle_core::AppCore;
use cubicle_core::mailbox::MailFilter;
use cubicle_core::trace::{RECENT_TRACES, TraceEventKind};
use cubicle_core::types::Language;
use cubicle_core::work::TaskStatus;
use cubicle_core::work::board::{RequirementStatus, TaskNodeDto};

pub async fn tasks(core: &AppCore, json: bool) -> Result<()> {
    let tasks = core.work.all().await?;
    if json {
        println!("{}", serde_json::to_string(&tasks)?);
        return Ok(());
    }
    let snap = core.org.snapshot().await?;
    if tasks.is_empty() {
        println!("no tasks yet");
    }
    for t in tasks {
        let owner = snap
            .employees
            .iter()
            .find(|e| e.id == t.owner_id)
            .map_or("?", |e| e.name.as_str());
        println!(
            "#{} [{}] {owner}: {} (by {}, {})",
            t.id, t.status, t.description, t.created_by, t.created_at
        );
    }
    Ok(())
}

pub async fn mailbox(core: &AppCore, json: bool) -> Result<()> {
    let mail = core.mailbox.list(MailFilter::default()).await?;
    if json {
        println!("{}", serde_json::to_string(&mail)?);
        return Ok(());
    }
    println!("{} unread", mail.unread);
    for m in mail.items {
        println!(
            "#{} [{} {}] {}{}\n    {}",
            m.id,
            m.kind,
            serde_json::to_value(m.status)?.as_str().unwrap_or("?"),
            m.title,
            if m.employee_name.is_empty() {
                String::new()
            } else {
                format!(" — {}", m.employee_name)
            },
            m.body.replace('\n', "\n    ")
        );
    }
    Ok(())
}

pub async fn traces(core: &AppCore, json: bool) -> Result<()> {
    let traces = core.traces.recent(RECENT_TRACES).await?;
    if json {
        println!("{}", serde_json::to_string(&traces)?);
        return Ok(());
    }
    if traces.is_empty() {
        println!("no instructions yet");
    }
    for t in traces {
        println!(
            "{} {} ({} calls, ${:.4}) {}",
            t.id, t.created_at, t.calls, t.cost_usd, t.instruction
        );
    }
    Ok(())
}

pub async fn trace(core: &AppCore, id: &str, all: bool, json: bool) -> Result<()> {
    let t = core.traces.get(id).await?;
    if json {
        println!("{}", serde_json::to_string(&t)?);
        return Ok(());
    }
    println!("{} — {}", t.summary.id, t.summary.instruction);
    println!(
        "{} model calls, {} tokens, ${:.4}; {} steps; {} task(s) pending",
        t.summary.calls, t.tokens, t.summary.cost_usd, t.steps, t.tasks_pending
    );
    for e in &t.events {
        let quiet = matches!(e.kind, TraceEventKind::Thought | TraceEventKind::ModelCall);
        if quiet && !all {
            continue;
        }
        let kind = serde_json::to_value(e.kind)?;
        let place = e
            .chat_name
            .as_deref()
            .map(|c| format!(" in {c}"))
            .unwrap_or_default();
        let cost = e.cost_usd.map(|c| format!(" ${c:.4}")).unwrap_or_default();
        let outcome = e
            .outcome
            .as_deref()
            .map(|o| format!(" [{o}]"))
            .unwrap_or_default();
        println!(
            "{} {:<14} {}{place}{cost}{outcome}: {}",
            e.at,
            kind.as_str().unwrap_or("?"),
            if e.actor.is_empty() {
                "(system)"
            } else {
                &e.actor
            },
            e.text.replace('\n', " ")
        );
    }
    Ok(())
}

pub async fn board(core: &AppCore, json: bool) -> Result<()> {
    let board = core.work.board().await?;
    if json {
        println!("{}", serde_json::to_string(&board)?);
        return Ok(());
    }
    let lang = core.mailbox.language().await?;
    for col in board.columns {
        println!(
            "== {} ({})",
            status_label(col.status, lang),
            col.items.len()
        );
        for item in col.items {
            println!(
                "#{} {}{}{}{} — {} pending, {} done",
                item.requirement.id,
                item.requirement.name,
                item.department_name
                    .map(|d| format!(" ({d})"))
                    .unwrap_or_default(),
                item.owner_name
                    .map(|o| format!(", owned by {o}"))
                    .unwrap_or_default(),
                item.reviewer_name
                    .map(|r| format!(", reviewed by {r}"))
                    .unwrap_or_default(),
                item.tasks_pending,
                item.tasks_done
            );
            print_tree(&item.tree, 1);
        }
    }
    Ok(())
}

fn print_tree(nodes: &[TaskNodeDto], depth: usize) {
    for n in nodes {
        let badge = if n.task.status == TaskStatus::Escalated {
            " [waiting for the boss]".to_owned()
        } else if n.task.review_of.is_some() {
            " [review]".to_owned()
        } else if n.task.attempt > 0 {
            format!(" [rework {}]", n.task.attempt + 1)
        } else {
            String::new()
        };
        println!(
            "{}#{} [{}]{badge} {}: {}",
            "  ".repeat(depth),
            n.task.id,
            n.task.status,
            n.owner_name,
            n.task.description
        );
        print_tree(&n.children, depth + 1);
    }
}

/// How a board column reads in the terminal (the UI has its own strings).
fn status_label(status: RequirementStatus, lang: Language) -> &'static str {
    match (status, lang) {
        (RequirementStatus::Open, Language::En) => "open, nobody owns it yet",
        (RequirementStatus::InProgress, Language::En) => "in progress",
        (RequirementStatus::InReview, Language::En) => "in review",
        (RequirementStatus::WaitingForBoss, Language::En) => "waiting for the boss",
        (RequirementStatus::Done, Language::En) => "done",
        (RequirementStatus::Cancelled, Language::En) => "cancelled",
        (RequirementStatus::Open, Language::ZhCn) => "待启动（还没有负责人）",
        (RequirementStatus::InProgress, Language::ZhCn) => "进行中",
        (RequirementStatus::InReview, Language::ZhCn) => "评审中",
        (RequirementStatus::WaitingForBoss, Language::ZhCn) => "等待老板决定",
        (RequirementStatus::Done, Language::ZhCn) => "已完成",
        (RequirementStatus::Cancelled, Language::ZhCn) => "已取消",
    }
}
