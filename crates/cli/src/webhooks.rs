//! `cubicle-cli webhooks list | allow | disallow`: the hosts `post_webhook` may reach.
//! Everything else is refused, and so is any address that is not public.

use anyhow::Result;
use clap::Subcommand;
use cubicle_core::AppCore;

#[derive(Subcommand)]
pub enum WebhooksCommand {
    /// The allowed destinations.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Allow a host (`hooks.slack.com`, `host:port`, or a pasted webhook URL: only its
    /// host is kept).
    Allow { host: String },
    /// Stop allowing a host.
    Disallow { host: String },
}

pub async fn run(core: &AppCore, cmd: WebhooksCommand) -> Result<()> {
    let approvals = &core.approvals;
    let list = match cmd {
        WebhooksCommand::List { json: true } => {
            println!(
                "{}",
                serde_json::to_string(&approvals.webhook_destinations().await?)?
            );
            return Ok(());
        }
        WebhooksCommand::List { json: false } => approvals.webhook_destinations().await?,
        WebhooksCommand::Allow { host } => {
            let mut list = approvals.webhook_destinations().await?;
            list.push(host);
            approvals.set_webhook_destinations(list).await?
        }
        WebhooksCommand::Disallow { host } => {
            let gone =
                cubicle_core::tools::webhook::normalize_destinations(std::slice::from_ref(&host))
                    .map_err(anyhow::Error::msg)?;
            let list = approvals.webhook_destinations().await?;
            if !list.iter().any(|h| gone.contains(h)) {
                anyhow::bail!("{host} is not an allowed webhook destination");
            }
            let kept = list.into_iter().filter(|h| !gone.contains(h)).collect();
            approvals.set_webhook_destinations(kept).await?
        }
    };
    if list.is_empty() {
        println!("no webhook destinations are allowed");
    }
    for host in list {
        println!("{host}");
    }
    Ok(())
}
