//! A provider given entirely by the environment, for scripts and servers.

use cubicle_llm::ApiKey;
use cubicle_llm::presets::{self, Dialect as LlmDialect, ProviderConfig};

use super::ProviderError;

/// A provider given entirely by the environment (`CUBICLE_PROVIDER`, `CUBICLE_BASE_URL`,
/// `CUBICLE_MODEL`, `CUBICLE_API_KEY`), for scripts and servers: no set-up, no keychain.
#[derive(Clone, Debug)]
pub struct EnvProvider {
    pub config: ProviderConfig,
    pub preset: String,
    pub api_key: Option<ApiKey>,
}

/// Provider id the environment provider is known by.
pub const ENV_PROVIDER_ID: &str = "env";

impl EnvProvider {
    /// Reads the environment; `None` when `CUBICLE_PROVIDER` is unset.
    pub fn from_env() -> Result<Option<Self>, ProviderError> {
        let Ok(name) = std::env::var("CUBICLE_PROVIDER") else {
            return Ok(None);
        };
        let name = name.trim().to_lowercase();
        if name.is_empty() {
            return Ok(None);
        }
        let base_url = std::env::var("CUBICLE_BASE_URL")
            .ok()
            .filter(|s| !s.is_empty());
        let model = std::env::var("CUBICLE_MODEL")
            .ok()
            .filter(|s| !s.is_empty());
        let api_key = std::env::var("CUBICLE_API_KEY")
            .ok()
            .filter(|s| !s.is_empty())
            .map(ApiKey::new);
        let (mut config, preset) = match name.as_str() {
            "openai-compatible" | "openai_compatible" => (
                ProviderConfig {
                    id: ENV_PROVIDER_ID.into(),
                    dialect: LlmDialect::OpenAiCompatible,
                    base_url: String::new(),
                    default_model: String::new(),
                    key_required: false,
                    // Any server may be behind it: start with the strongest form of
                    // structured output; one the server refuses falls back to the next
                    // (a schema in `json_object`, then the shape in the prompt) and the
                    // gateway remembers what worked.
                    capabilities: cubicle_llm::Capabilities {
                        json_schema: true,
                        json_object: true,
                        stream: true,
                    },
                },
                "custom".to_owned(),
            ),
            other => {
                let p = presets::preset(other).ok_or_else(|| {
                    ProviderError::InvalidInput(format!(
                        "CUBICLE_PROVIDER={other:?} is not a preset or dialect; use one of: openai-compatible, {}",
                        presets::PRESETS.iter().map(|p| p.id).collect::<Vec<_>>().join(", ")
                    ))
                })?;
                let mut c = ProviderConfig::from(p);
                c.id = ENV_PROVIDER_ID.into();
                (c, p.id.to_owned())
            }
        };
        if let Some(url) = base_url {
            config.base_url = url;
        }
        if let Some(m) = model {
            config.default_model = m;
        }
        if config.dialect != LlmDialect::Builtin && config.base_url.is_empty() {
            return Err(ProviderError::InvalidInput(
                "CUBICLE_BASE_URL is required with CUBICLE_PROVIDER=openai-compatible".into(),
            ));
        }
        Ok(Some(Self {
            config,
            preset,
            api_key,
        }))
    }
}
