//! `cubicle-cli proxy PERSON …`: a person's proxy from a terminal — tell it what you
//! want, read your conversation with it, see what it wrote in your name and correct it.

use anyhow::Result;
use clap::Subcommand;
use cubicle_core::AppCore;
use cubicle_core::proxy::{CorrectProxyLine, ProxyLineDto, ProxySpeaker, SayToProxy};

use crate::people::find_person;

#[derive(Subcommand)]
pub enum ProxyCommand {
    /// Tell your proxy what you want ("ask Sam for an estimate of …", "answer Lin: …").
    Say {
        text: Vec<String>,
        #[arg(long)]
        json: bool,
    },
    /// Your conversation with your proxy, oldest first.
    Log {
        #[arg(long)]
        json: bool,
    },
    /// What your proxy wrote in your name, newest first.
    Written {
        #[arg(long)]
        json: bool,
    },
    /// Replace a line your proxy wrote in your name with your own words.
    Correct { message_id: i32, text: Vec<String> },
    /// Your proxy's agent card: whom it represents and what it may do.
    Card {
        #[arg(long)]
        json: bool,
    },
}

pub async fn run(core: &AppCore, person: &str, cmd: ProxyCommand) -> Result<()> {
    let person_id = find_person(core, person).await?;
    let proxies = &core.proxies;
    match cmd {
        ProxyCommand::Say { text, json } => {
            let turn = proxies
                .say(SayToProxy {
                    person_id,
                    text: text.join(" "),
                })
                .await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&turn)?);
            } else {
                println!("{}", line(&turn.reply));
            }
        }
        ProxyCommand::Log { json } => {
            let lines = proxies.conversation(person_id).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&lines)?);
            } else if lines.is_empty() {
                println!("nothing said yet (try `proxy {person} say what's waiting for me?`)");
            }
            for l in lines.iter().filter(|_| !json) {
                println!("{}", line(l));
            }
        }
        ProxyCommand::Written { json } => {
            let written = proxies.written_for(person_id).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&written)?);
            } else if written.is_empty() {
                println!("your proxy has written nothing in your name yet");
            }
            for m in written.iter().filter(|_| !json) {
                println!("#{} in chat {}: {}", m.id, m.chat_id, m.text);
            }
        }
        ProxyCommand::Correct { message_id, text } => {
            let m = proxies
                .correct(CorrectProxyLine {
                    person_id,
                    message_id,
                    text: text.join(" "),
                })
                .await?;
            println!("#{} corrects #{message_id}: {}", m.id, m.text);
        }
        ProxyCommand::Card { json } => {
            let card = proxies.card(person_id).await?;
            if json {
                println!("{}", serde_json::to_string_pretty(&card)?);
                return Ok(());
            }
            println!(
                "{} — represents {} ({})",
                card.name, card.person.name, card.person.role
            );
            println!("answers for: {}", card.answers_for.join(", "));
            for m in &card.may {
                println!("  may: {m}");
            }
            for m in &card.may_not {
                println!("  may not: {m}");
            }
        }
    }
    Ok(())
}

fn line(l: &ProxyLineDto) -> String {
    let who = match l.speaker {
        ProxySpeaker::Person => "you",
        ProxySpeaker::Proxy => "proxy",
    };
    format!("{} {who}: {}", l.at, l.text)
}
