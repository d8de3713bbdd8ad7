//! The boss's webhook destinations: the only hosts `post_webhook` may reach. Kept with
//! approvals because they bound what an approved webhook can do.

use super::{ApprovalError, Approvals, WebhookDestinations};
use crate::tools::webhook;

impl Approvals {
    /// The allowed webhook hosts (`host` or `host:port`), in the order the boss added them.
    pub async fn webhook_destinations(&self) -> Result<Vec<String>, ApprovalError> {
        Ok(webhook::destinations(&self.db).await?)
    }

    /// The allowlist as Settings shows it.
    pub async fn webhook_settings(&self) -> Result<WebhookDestinations, ApprovalError> {
        Ok(WebhookDestinations {
            hosts: self.webhook_destinations().await?,
        })
    }

    /// Settings saves the whole list; the stored (normalised) list comes back.
    pub async fn save_webhook_settings(
        &self,
        input: WebhookDestinations,
    ) -> Result<WebhookDestinations, ApprovalError> {
        Ok(WebhookDestinations {
            hosts: self.set_webhook_destinations(input.hosts).await?,
        })
    }

    /// Replaces the allowed hosts; a pasted webhook URL keeps only its host (and explicit
    /// port). One entry that is not a host refuses the whole list and keeps the old one.
    pub async fn set_webhook_destinations(
        &self,
        hosts: Vec<String>,
    ) -> Result<Vec<String>, ApprovalError> {
        let list = webhook::normalize_destinations(&hosts).map_err(ApprovalError::Invalid)?;
        webhook::store_destinations(&self.db, &list).await?;
        tracing::info!(count = list.len(), "webhook destinations changed");
        Ok(list)
    }
}
