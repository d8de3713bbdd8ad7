//! `cubicle-cli decisions` and `cubicle-cli reviewer`: the rulings taken in meetings,
//! each with its authorization chain, and who reviews a requirement's deliverables.

use anyhow::{Result, bail};
use cubicle_core::AppCore;
use cubicle_core::meeting::arbitration::Role;
use cubicle_core::secretary::{NameMatch, match_name};
use cubicle_core::work::board::SetReviewer;

pub async fn decisions(core: &AppCore, json: bool) -> Result<()> {
    let all = core.meetings.all_decisions().await?;
    if json {
        println!("{}", serde_json::to_string(&all)?);
        return Ok(());
    }
    if all.is_empty() {
        println!("no decisions yet");
    }
    for r in all {
        let d = &r.decision;
        println!(
            "#{} [{}] ({}) {} → {}{}",
            d.id,
            d.status,
            d.decision_type,
            d.question,
            d.outcome,
            r.topic
                .as_deref()
                .map(|t| format!(
                    "  — meeting \"{t}\" (chat {})",
                    r.chat_id.unwrap_or_default()
                ))
                .unwrap_or_default()
        );
        for l in &d.authorization_chain {
            let role = serde_json::to_value(l.role)?;
            let weight = l.weight.map(|w| format!(" ×{w}")).unwrap_or_default();
            let rule = if matches!(l.role, Role::Decided | Role::Escalated) {
                format!(": {}", l.rule)
            } else {
                String::new()
            };
            println!(
                "    {} {}{weight}{rule}",
                l.who,
                role.as_str().unwrap_or("?")
            );
        }
    }
    Ok(())
}

/// `reviewer REQUIREMENT EMPLOYEE` (or `--none`): the requirement by id or by words of
/// its name, the employee by id or name.
pub async fn reviewer(core: &AppCore, requirement: &str, employee: Option<&str>) -> Result<()> {
    let all = core.work.requirements().await?;
    let words = requirement.trim().to_lowercase();
    let found: Vec<_> = match requirement.trim().parse::<i32>() {
        Ok(id) => all.iter().filter(|r| r.id == id).collect(),
        Err(_) => all
            .iter()
            .filter(|r| r.name.to_lowercase().contains(&words))
            .collect(),
    };
    let r = match found.as_slice() {
        [one] => *one,
        [] => bail!("no requirement matches {requirement:?} (see `cubicle-cli board`)"),
        many => bail!(
            "{requirement:?} matches several requirements: {}",
            many.iter()
                .map(|r| format!("#{} {}", r.id, r.name))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    };
    let reviewer_id = match employee {
        None => None,
        Some(who) => Some(employee_id(core, who).await?),
    };
    let updated = core
        .work
        .set_reviewer(SetReviewer {
            requirement_id: r.id,
            reviewer_id,
        })
        .await?;
    match (updated.reviewer_id, employee) {
        (Some(_), Some(who)) => println!("#{} {}: reviewed by {who}", r.id, r.name),
        _ => println!("#{} {}: no reviewer", r.id, r.name),
    }
    Ok(())
}

async fn employee_id(core: &AppCore, who: &str) -> Result<i32> {
    let snap = core.org.snapshot().await?;
    if let Ok(id) = who.trim().parse::<i32>()
        && snap.employees.iter().any(|e| e.id == id)
    {
        return Ok(id);
    }
    let people: Vec<(i32, &str)> = snap
        .employees
        .iter()
        .map(|e| (e.id, e.name.as_str()))
        .collect();
    match match_name(who, &people) {
        NameMatch::Exact(id) | NameMatch::Unique(id) => Ok(id),
        NameMatch::Ambiguous(ids) => bail!("{who:?} matches {} people; use their id", ids.len()),
        NameMatch::None => bail!("nobody called {who:?} works here"),
    }
}
