//! `cubicle-cli tasks` and `cubicle-cli mailbox`: the work and what reached the boss.

use anyhow::Result;
use cubicle_core::AppCore;
use cubicle_core::mailbox::MailFilter;

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
            m.kind.as_str(),
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
