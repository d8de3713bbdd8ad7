//! The route of [`Purpose::Privacy`]: the model that looks for private details in what a
//! proxy is about to share (seed 001 §4.5). What it reads is a person's private words, so
//! it may only be a model on this computer — the built-in one, or a server on a loopback
//! address (Ollama, LM Studio, llama.cpp) — and with no route the rules alone mask.

use super::{BUILTIN, ProviderError, ProviderResult, Providers, q};
use crate::gateway::{Purpose, Route};

impl Providers {
    /// Whether calls to `provider_id` stay on this computer: the built-in model, or a
    /// provider whose endpoint is a loopback address.
    pub async fn is_on_this_computer(&self, provider_id: &str) -> ProviderResult<bool> {
        if provider_id == BUILTIN {
            return Ok(true);
        }
        Ok(q::find_provider(&self.db, provider_id)
            .await?
            .is_some_and(|p| cubicle_llm::local_servers::is_loopback_endpoint(&p.base_url)))
    }

    /// The model that checks a proxy's shares, if the boss set one and it is still on
    /// this computer (a provider edited to a remote endpoint since is not used, and said
    /// so in the log).
    pub async fn privacy_route(&self) -> ProviderResult<Option<Route>> {
        let Some(r) = self.stored_route(Purpose::Privacy).await? else {
            return Ok(None);
        };
        if !self.is_on_this_computer(&r.provider_id).await? {
            tracing::warn!(
                provider = %r.provider_id,
                "the privacy route's provider is not on this computer any more: the rules alone mask"
            );
            return Ok(None);
        }
        Ok(Some(r))
    }

    /// Refuses a privacy route that would send a person's words off this computer.
    pub(super) async fn check_privacy_route(&self, provider_id: &str) -> ProviderResult<()> {
        if self.is_on_this_computer(provider_id).await? {
            return Ok(());
        }
        Err(ProviderError::InvalidInput(
            "private details are looked for on this computer only: choose the built-in model or \
             a local server (Ollama, LM Studio or llama.cpp on localhost)"
                .into(),
        ))
    }
}
