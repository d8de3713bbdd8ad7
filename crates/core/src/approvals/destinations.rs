//! The boss's webhook destinations: the only hosts `post_webhook` may reach. Kept with
//! approvals because they bound what an approved webhook can do.

use super::{ApprovalError, Approvals};
use crate::tools::webhook;

impl Approvals {
    /// The allowed webhook hosts (`host` or `host:port`), in the order the boss added them.
    pub async fn webhook_destinations(&self) -> Result<Vec<String>, ApprovalError> {
        Ok(webhook::destinations(&self.db).await?)
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
