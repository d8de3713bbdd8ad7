//! "Use it for everything on the built-in model": a provider just added is offered, in
//! one click, every purpose whose calls still go to the built-in model — so adding a key
//! changes what the company runs on without a trip through each "Default models" row.

use super::{BUILTIN, ProviderError, ProviderResult, Providers, RouteDto, SetRoute};
use crate::gateway::{Purpose, ROUTABLE};

impl Providers {
    /// The purposes on the built-in model now that `provider_id` may take over.
    ///
    /// "On the built-in model" is a route to the built-in provider that does not name a
    /// downloaded catalogue model (that one the boss chose on purpose), or no route at all
    /// with no environment provider. [`Purpose::Privacy`] counts only when the boss gave it
    /// the built-in model and `provider_id` is on this computer too: a person's private
    /// words never move off it.
    pub async fn builtin_purposes(&self, provider_id: &str) -> ProviderResult<Vec<Purpose>> {
        let on_this_computer = self.is_on_this_computer(provider_id).await?;
        let local = self.local_files.get().cloned().unwrap_or_default();
        let downloaded = |model: &str| local.files.iter().any(|(id, _)| id == model.trim());
        let mut out = Vec::new();
        for purpose in ROUTABLE {
            let route = match purpose {
                Purpose::Privacy if !on_this_computer => continue,
                Purpose::Privacy => match self.stored_route(purpose).await? {
                    Some(r) => r,
                    None => continue,
                },
                _ => self.route_for(purpose).await?,
            };
            if route.provider_id == BUILTIN && !downloaded(&route.model) {
                out.push(purpose);
            }
        }
        Ok(out)
    }

    /// Routes every purpose of [`Self::builtin_purposes`] to `provider_id` and its default
    /// model; returns the routes it changed (none when nothing was on the built-in model).
    pub async fn use_for_builtin_purposes(
        &self,
        provider_id: &str,
    ) -> ProviderResult<Vec<RouteDto>> {
        if provider_id == BUILTIN {
            return Err(ProviderError::InvalidInput(
                "the built-in model already has these purposes".into(),
            ));
        }
        let provider = self.require(provider_id).await?;
        if !provider.enabled {
            return Err(ProviderError::InvalidInput(format!(
                "{} is turned off: turn it on before giving it work",
                provider.name
            )));
        }
        let mut changed = Vec::new();
        for purpose in self.builtin_purposes(provider_id).await? {
            changed.push(
                self.set_route(SetRoute {
                    purpose,
                    provider_id: provider.id.clone(),
                    model: provider.default_model.clone(),
                })
                .await?,
            );
        }
        tracing::info!(
            provider = %provider.id,
            purposes = changed.len(),
            "provider now used for the purposes that were on the built-in model"
        );
        Ok(changed)
    }
}
