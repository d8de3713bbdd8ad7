//! Known providers: where they live, what they speak, and what they can do natively.
//! Capability flags are deliberately conservative: claiming `json_schema` for a provider
//! that ignores it loses the schema-in-prompt fallback, so only documented support counts.

use std::time::Duration;

use crate::anthropic::Anthropic;
use crate::http::HttpConfig;
use crate::openai::OpenAiCompatible;
use crate::types::{ApiKey, Capabilities, LlmClient, LlmError};

/// The wire format a provider speaks; stored (as its serde name) with each provider and
/// shown in Settings.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, ts_rs::TS)]
#[serde(rename_all = "snake_case")]
pub enum Dialect {
    #[serde(rename = "openai_compatible")]
    OpenAiCompatible,
    Anthropic,
    Builtin,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Preset {
    pub id: &'static str,
    pub name: &'static str,
    pub dialect: Dialect,
    /// Empty for the built-in model.
    pub base_url: &'static str,
    pub default_model: &'static str,
    pub key_required: bool,
    pub capabilities: Capabilities,
}

const fn caps(json_schema: bool, json_object: bool) -> Capabilities {
    Capabilities {
        json_schema,
        json_object,
        stream: true,
    }
}

pub static PRESETS: &[Preset] = &[
    Preset {
        id: "openai",
        name: "OpenAI",
        dialect: Dialect::OpenAiCompatible,
        base_url: "https://api.openai.com/v1",
        // Accepts `max_tokens` and `temperature`; the reasoning models reject both.
        default_model: "gpt-4.1-mini",
        key_required: true,
        capabilities: caps(true, true),
    },
    Preset {
        id: "deepseek",
        name: "DeepSeek",
        dialect: Dialect::OpenAiCompatible,
        base_url: "https://api.deepseek.com/v1",
        default_model: "deepseek-chat",
        key_required: true,
        // JSON mode only; `json_schema` is rejected.
        capabilities: caps(false, true),
    },
    Preset {
        id: "qwen",
        name: "Qwen (DashScope)",
        dialect: Dialect::OpenAiCompatible,
        base_url: "https://dashscope.aliyuncs.com/compatible-mode/v1",
        default_model: "qwen-plus",
        key_required: true,
        capabilities: caps(false, true),
    },
    Preset {
        id: "moonshot",
        name: "Moonshot (Kimi)",
        dialect: Dialect::OpenAiCompatible,
        base_url: "https://api.moonshot.cn/v1",
        default_model: "moonshot-v1-8k",
        key_required: true,
        capabilities: caps(false, true),
    },
    Preset {
        id: "openrouter",
        name: "OpenRouter",
        dialect: Dialect::OpenAiCompatible,
        base_url: "https://openrouter.ai/api/v1",
        // Structured outputs pass through for models that support them, as this one does.
        default_model: "openai/gpt-4o-mini",
        key_required: true,
        capabilities: caps(true, true),
    },
    Preset {
        id: "ollama",
        name: "Ollama",
        dialect: Dialect::OpenAiCompatible,
        base_url: "http://localhost:11434/v1",
        default_model: "llama3.2",
        key_required: false,
        capabilities: caps(true, true),
    },
    Preset {
        id: "lmstudio",
        name: "LM Studio",
        dialect: Dialect::OpenAiCompatible,
        base_url: "http://localhost:1234/v1",
        default_model: "qwen2.5-7b-instruct",
        key_required: false,
        // LM Studio rejects `json_object`; it accepts `json_schema` only.
        capabilities: caps(true, false),
    },
    Preset {
        id: "vllm",
        name: "vLLM",
        dialect: Dialect::OpenAiCompatible,
        base_url: "http://localhost:8000/v1",
        default_model: "Qwen/Qwen2.5-7B-Instruct",
        key_required: false,
        capabilities: caps(true, true),
    },
    Preset {
        id: "anthropic",
        name: "Anthropic",
        dialect: Dialect::Anthropic,
        base_url: crate::anthropic::DEFAULT_BASE_URL,
        default_model: "claude-haiku-4-5",
        key_required: true,
        capabilities: caps(false, false),
    },
    Preset {
        id: "builtin",
        name: "Built-in (offline)",
        dialect: Dialect::Builtin,
        base_url: "",
        default_model: "SmolLM2-135M-Instruct",
        key_required: false,
        // A grammar made from the schema constrains the output.
        capabilities: caps(true, false),
    },
];

pub fn preset(id: &str) -> Option<&'static Preset> {
    PRESETS.iter().find(|p| p.id == id)
}

/// A provider as the user configured it: a preset, or a custom endpoint in one of the
/// dialects (e.g. a self-hosted gateway).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderConfig {
    pub id: String,
    pub dialect: Dialect,
    pub base_url: String,
    pub default_model: String,
    pub key_required: bool,
    pub capabilities: Capabilities,
}

impl From<&Preset> for ProviderConfig {
    fn from(p: &Preset) -> Self {
        Self {
            id: p.id.to_owned(),
            dialect: p.dialect,
            base_url: p.base_url.to_owned(),
            default_model: p.default_model.to_owned(),
            key_required: p.key_required,
            capabilities: p.capabilities,
        }
    }
}

/// Builds the HTTP client for a provider. `base_url` overrides the configured one (a
/// proxy, another region). The built-in model is constructed by its own module.
pub fn client_for(
    provider: impl Into<ProviderConfig>,
    base_url: Option<&str>,
    api_key: Option<ApiKey>,
    timeout: Duration,
) -> Result<Box<dyn LlmClient>, LlmError> {
    let provider = provider.into();
    let api_key = api_key.filter(|k| !k.expose().trim().is_empty());
    if provider.key_required && api_key.is_none() {
        return Err(LlmError::MissingKey(provider.id));
    }
    let config = HttpConfig {
        provider_id: provider.id,
        base_url: base_url.unwrap_or(&provider.base_url).to_owned(),
        api_key,
        default_model: provider.default_model,
        capabilities: provider.capabilities,
        timeout,
    };
    match provider.dialect {
        Dialect::OpenAiCompatible => Ok(Box::new(OpenAiCompatible::new(config)?)),
        Dialect::Anthropic => Ok(Box::new(Anthropic::new(config)?)),
        Dialect::Builtin => Err(LlmError::Builtin(
            "the built-in model is not an HTTP provider; construct it from its model file".into(),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_unique_and_well_formed() {
        let mut ids: Vec<&str> = PRESETS.iter().map(|p| p.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), PRESETS.len());
        for p in PRESETS {
            assert!(!p.default_model.is_empty(), "{}", p.id);
            match p.dialect {
                Dialect::Builtin => assert!(p.base_url.is_empty() && !p.key_required),
                _ => assert!(
                    p.base_url.starts_with("http") && !p.base_url.ends_with('/'),
                    "{}",
                    p.id
                ),
            }
            // Local servers on localhost need no key; remote ones all do.
            assert_eq!(
                p.key_required,
                p.base_url.starts_with("https://"),
                "{}",
                p.id
            );
        }
        assert!(!preset("deepseek").unwrap().capabilities.json_schema);
        assert!(!preset("anthropic").unwrap().capabilities.json_object);
        assert!(preset("nope").is_none());
    }

    #[test]
    fn client_for_checks_keys_and_dialects() {
        let t = Duration::from_secs(5);
        let err = client_for(preset("openai").unwrap(), None, None, t)
            .err()
            .unwrap();
        assert!(matches!(err, LlmError::MissingKey(ref id) if id == "openai"));
        let blank = Some(ApiKey::new("  "));
        assert!(matches!(
            client_for(preset("anthropic").unwrap(), None, blank, t),
            Err(LlmError::MissingKey(_))
        ));
        assert!(matches!(
            client_for(preset("builtin").unwrap(), None, None, t),
            Err(LlmError::Builtin(_))
        ));
        let ollama = client_for(preset("ollama").unwrap(), None, None, t).unwrap();
        assert_eq!(ollama.provider_id(), "ollama");
        assert!(ollama.capabilities().json_schema);
    }
}
