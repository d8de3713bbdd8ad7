//! The gateway's [`ProviderResolver`]: how a provider id becomes a live client — the
//! built-in model (loaded once per model file), the provider named by the environment,
//! or one configured in Settings with its key from the keychain.

use std::sync::Arc;
use std::time::Duration;

#[cfg(feature = "builtin")]
use cubicle_llm::builtin::{BuiltinClient, BuiltinModel, BuiltinOptions};
use cubicle_llm::presets::{self, Dialect as LlmDialect, ProviderConfig};
use cubicle_llm::{LlmClient, LlmError};
use cubicle_store::entity::provider;
use cubicle_store::models as q;

use super::{ENV_PROVIDER_ID, Providers, stored_dialect};
use crate::gateway::pricing::{self, Price};
use crate::gateway::{BUILTIN, ProviderResolver, ResolvedProvider};
use crate::types::Dialect;

/// How long an HTTP provider may stay silent before the call counts as timed out.
const HTTP_TIMEOUT: Duration = Duration::from_secs(60);

/// Loaded GGUFs kept at once: the built-in model and one routed to a purpose.
#[cfg(feature = "builtin")]
const LOADED_MODELS_MAX: usize = 2;

#[async_trait::async_trait]
impl ProviderResolver for Providers {
    async fn resolve(&self, provider_id: &str) -> Result<ResolvedProvider, LlmError> {
        self.resolve_model(provider_id, "").await
    }

    async fn resolve_model(
        &self,
        provider_id: &str,
        model: &str,
    ) -> Result<ResolvedProvider, LlmError> {
        if provider_id == BUILTIN {
            return self.resolve_builtin(model).await;
        }
        if provider_id == ENV_PROVIDER_ID
            && let Some(env) = &self.env
        {
            if env.config.dialect == LlmDialect::Builtin {
                return self.resolve_builtin(model).await;
            }
            let client: Arc<dyn LlmClient> = Arc::from(presets::client_for(
                env.config.clone(),
                None,
                env.api_key.clone(),
                HTTP_TIMEOUT,
            )?);
            return Ok(ResolvedProvider {
                client,
                preset: env.preset.clone(),
            });
        }
        self.resolve_configured(provider_id).await
    }

    async fn price(&self, provider_id: &str, preset: &str, model: &str) -> Price {
        if let Ok(Some(p)) = q::find_price(&self.db, provider_id, model).await {
            return pricing::with_known_cache(preset, model, p.input_per_mtok, p.output_per_mtok);
        }
        pricing::default_price(preset, model).unwrap_or(pricing::UNKNOWN_PAID_MODEL)
    }
}

/// How each kind of provider becomes a live client.
impl Providers {
    #[cfg(feature = "builtin")]
    async fn builtin_model(&self, model: &str) -> Result<Arc<BuiltinModel>, LlmError> {
        let (path, as_builtin) = self.builtin_path_for(model).await?;
        // Held across the load on purpose: concurrent first calls load the file once.
        let mut loaded = self.builtin.lock().await;
        if let Some(l) = loaded.iter_mut().find(|l| l.path == path) {
            l.as_builtin |= as_builtin;
            return Ok(l.model.clone());
        }
        if !path.is_file() {
            return Err(LlmError::Builtin(format!(
                "the built-in model is not installed at {}; run scripts/install-model.sh",
                path.display()
            )));
        }
        let model = BuiltinModel::load_async(path.clone(), BuiltinOptions::default()).await?;
        // One built-in model in memory: the one it replaces (the company's language or the
        // boss's choice moved on) goes. Then the oldest, when a route holds another.
        if as_builtin {
            loaded.retain(|l| !l.as_builtin);
        }
        if loaded.len() >= LOADED_MODELS_MAX {
            loaded.remove(0);
        }
        loaded.push(super::LoadedModel {
            path,
            model: model.clone(),
            as_builtin,
        });
        Ok(model)
    }

    /// The built-in model, loaded once per model file.
    async fn resolve_builtin(&self, model: &str) -> Result<ResolvedProvider, LlmError> {
        #[cfg(feature = "builtin")]
        {
            let model = self.builtin_model(model).await?;
            Ok(ResolvedProvider {
                client: Arc::new(BuiltinClient::new(model)),
                preset: BUILTIN.into(),
            })
        }
        #[cfg(not(feature = "builtin"))]
        {
            let _ = model;
            Err(LlmError::Builtin(
                "this build of Cubicle has no built-in model (built without the `builtin` feature)"
                    .into(),
            ))
        }
    }

    /// A provider configured in Settings: enabled, confirmed if it came in a bundle, with its
    /// key from the keychain when it needs one.
    async fn resolve_configured(&self, provider_id: &str) -> Result<ResolvedProvider, LlmError> {
        let m = q::find_provider(&self.db, provider_id)
            .await
            .map_err(|e| LlmError::Provider(format!("settings unavailable: {e}")))?
            .ok_or_else(|| {
                LlmError::Provider(format!("no provider {provider_id:?} is configured"))
            })?;
        if !m.enabled {
            return Err(LlmError::Provider(format!(
                "{} is disabled in Settings",
                m.name
            )));
        }
        // Before the key is looked up and before anything is sent there.
        if crate::imported::provider_unconfirmed(&m) {
            return Err(LlmError::Unconfirmed(crate::imported::provider_refusal(&m)));
        }
        let preset = presets::preset(&m.preset);
        let key_required = preset.is_none_or(|p| p.key_required);
        let key = match self.keys.get(&m.id).await {
            Ok(key) => key.map(|(k, _)| k),
            // A local server needs no key: a missing keychain is no reason to fail.
            Err(_) if !key_required => None,
            Err(e) => return Err(LlmError::MissingKey(format!("{} ({e})", m.id))),
        };
        let config = provider_config(&m, preset);
        let client: Arc<dyn LlmClient> =
            Arc::from(presets::client_for(config, None, key, HTTP_TIMEOUT)?);
        Ok(ResolvedProvider {
            client,
            preset: m.preset,
        })
    }
}

/// What the client of a configured provider needs to know; a provider made from no preset
/// is assumed to need a key and to stream, without structured output.
fn provider_config(m: &provider::Model, preset: Option<&presets::Preset>) -> ProviderConfig {
    ProviderConfig {
        id: m.id.clone(),
        dialect: match stored_dialect(&m.dialect) {
            Dialect::Anthropic => LlmDialect::Anthropic,
            _ => LlmDialect::OpenAiCompatible,
        },
        base_url: m.base_url.clone(),
        default_model: m.default_model.clone(),
        key_required: preset.is_none_or(|p| p.key_required),
        capabilities: preset
            .map(|p| p.capabilities)
            .unwrap_or(cubicle_llm::Capabilities {
                json_schema: false,
                json_object: false,
                stream: true,
            }),
    }
}
