//! Model servers already running on this machine (Ollama, LM Studio, llama.cpp): found
//! by probing, and added as a provider with the matching preset.

use cubicle_llm::local_servers::{self, ServerKind};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{LocalModels, ModelsError, ModelsResult};
use crate::providers::{ProviderDto, SaveProvider};

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum LocalServerKind {
    Ollama,
    LmStudio,
    LlamaCpp,
}

/// A model server found running on this machine.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LocalServerDto {
    pub kind: LocalServerKind,
    pub name: String,
    pub base_url: String,
    pub models: Vec<String>,
    /// A provider with this base URL is configured already.
    pub added: bool,
}

/// Adds a detected server as a provider.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct AddLocalServer {
    pub kind: LocalServerKind,
    pub base_url: String,
    /// Default: the first model the server listed.
    pub model: Option<String>,
}

impl LocalModels {
    /// Model servers running on this machine, with whether each is a provider already.
    pub async fn detect_servers(&self) -> ModelsResult<Vec<LocalServerDto>> {
        let found = local_servers::detect(&self.inner.targets, local_servers::PROBE_TIMEOUT).await;
        let configured = self.inner.providers.list().await?;
        Ok(found
            .into_iter()
            .map(|s| LocalServerDto {
                kind: kind_dto(s.kind),
                name: s.kind.display_name().to_owned(),
                added: configured
                    .iter()
                    .any(|p| same_url(&p.base_url, &s.base_url)),
                base_url: s.base_url,
                models: s.models,
            })
            .collect())
    }

    /// Adds a detected server as a provider with the matching preset.
    pub async fn add_server(&self, input: AddLocalServer) -> ModelsResult<ProviderDto> {
        let kind = server_kind(input.kind);
        let detected = self.detect_servers().await?;
        let server = detected
            .iter()
            .find(|s| s.kind == input.kind && same_url(&s.base_url, &input.base_url))
            .ok_or_else(|| {
                ModelsError::InvalidInput(format!(
                    "no {} answers at {} any more",
                    kind.display_name(),
                    input.base_url
                ))
            })?;
        let model = input
            .model
            .filter(|m| !m.trim().is_empty())
            .or_else(|| server.models.first().cloned())
            // A llama.cpp server serves the one model it was started with, whatever the
            // request names; it needs some name all the same.
            .unwrap_or_else(|| "default".to_owned());
        let saved = self
            .inner
            .providers
            .save(SaveProvider {
                id: None,
                name: kind.display_name().to_owned(),
                preset: kind.preset().to_owned(),
                base_url: server.base_url.clone(),
                default_model: model,
                models: server.models.clone(),
                enabled: true,
            })
            .await?;
        Ok(saved)
    }
}

fn same_url(a: &str, b: &str) -> bool {
    let norm = |u: &str| {
        u.trim()
            .trim_end_matches('/')
            .replace("://localhost", "://127.0.0.1")
    };
    norm(a) == norm(b)
}

fn kind_dto(k: ServerKind) -> LocalServerKind {
    match k {
        ServerKind::Ollama => LocalServerKind::Ollama,
        ServerKind::LmStudio => LocalServerKind::LmStudio,
        ServerKind::LlamaCpp => LocalServerKind::LlamaCpp,
    }
}

fn server_kind(k: LocalServerKind) -> ServerKind {
    match k {
        LocalServerKind::Ollama => ServerKind::Ollama,
        LocalServerKind::LmStudio => ServerKind::LmStudio,
        LocalServerKind::LlamaCpp => ServerKind::LlamaCpp,
    }
}
