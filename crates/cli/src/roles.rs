//! `cubicle-cli roles list | import PATH | export DIR`: the company's role cards, a
//! roster folder or archive in (with its preview), and the cards back out as files.

use std::path::PathBuf;
use std::time::Instant;

use anyhow::Result;
use clap::Subcommand;
use cubicle_core::AppCore;
use cubicle_core::roles::{RoleCardDto, RoleImport};

#[derive(Subcommand)]
pub enum RolesCommand {
    /// Every role card: built-in and yours, with tools, model and temperature.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Import a roster: a folder (one Markdown card per role, divisions as sub-folders),
    /// an archive of one (.zip, .tar, .tar.gz) or a single card file.
    Import {
        path: PathBuf,
        /// Only show what would be new, changed and unreadable.
        #[arg(long)]
        dry_run: bool,
        #[arg(long)]
        json: bool,
    },
    /// Write every card to DIR (new or empty) in the same shape.
    Export {
        dir: PathBuf,
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(core: &AppCore, cmd: RolesCommand) -> Result<()> {
    match cmd {
        RolesCommand::List { json } => {
            let cards = core.role_cards().await?;
            if json {
                println!("{}", serde_json::to_string(&cards)?);
            } else {
                cards.iter().for_each(print_card);
            }
        }
        RolesCommand::Import {
            path,
            dry_run,
            json,
        } => {
            let started = Instant::now();
            let report = core.import_roles(&path, dry_run).await?;
            let elapsed = started.elapsed();
            if json {
                println!("{}", serde_json::to_string(&report)?);
            } else {
                print_import(&report);
                println!("took {} ms", elapsed.as_millis());
            }
        }
        RolesCommand::Export { dir, json } => {
            let export = core.export_roles(&dir).await?;
            if json {
                println!("{}", serde_json::to_string(&export)?);
            } else {
                println!("{} cards written to {}", export.files.len(), export.dir);
            }
        }
    }
    Ok(())
}

fn print_card(c: &RoleCardDto) {
    let source = if c.builtin { "built-in" } else { "yours" };
    let temperature = c
        .card
        .temperature
        .map_or_else(|| "default".to_owned(), |t| t.to_string());
    println!(
        "{key}  {name}  [{source}]  tools: {tools}  model: {model}  temperature: {temperature}",
        key = c.key,
        name = c.card.name,
        tools = if c.card.tools.is_empty() {
            "none".to_owned()
        } else {
            c.card.tools.join(", ")
        },
        model = c.card.model.as_deref().unwrap_or("company route"),
    );
    if !c.unknown_tools.is_empty() {
        println!(
            "    not Cubicle tools (never granted): {}",
            c.unknown_tools.join(", ")
        );
    }
}

fn print_import(r: &RoleImport) {
    let verb = if r.applied {
        "imported"
    } else {
        "would import (dry run)"
    };
    println!(
        "{verb}: {} new, {} changed, {} unchanged, {} unreadable",
        r.new.len(),
        r.changed.len(),
        r.unchanged.len(),
        r.unreadable.len()
    );
    for key in &r.new {
        println!("  new      {key}");
    }
    for key in &r.changed {
        println!("  changed  {key}");
    }
    for e in &r.unreadable {
        println!("  unreadable  {e}");
    }
    for u in &r.unknown_tools {
        println!(
            "  {}: not Cubicle tools, never granted: {}",
            u.key,
            u.tools.join(", ")
        );
    }
    if !r.skipped.is_empty() {
        println!(
            "  not cards (no header), left alone: {}",
            r.skipped.join(", ")
        );
    }
}
