//! Which model answers the employees' thoughts. The built-in models the app ships are small
//! (135M and 0.5B parameters): they carry short, simple steps and little else, so the UI
//! tells the boss when one of them is thinking and where to get a better one.

use std::path::Path;

use cubicle_llm::model_file::builtin_model_of;
use cubicle_llm::presets::Dialect as LlmDialect;
use cubicle_store::org as org_q;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::COMPANY_DEFAULT_PROVIDER;
use super::{ENV_PROVIDER_ID, ProviderResult, Providers};
use crate::gateway::{BUILTIN, Purpose, Route};

/// What kind of model a thought route ends at.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum ThoughtModelKind {
    /// The built-in runtime with one of the small models the app ships.
    Bundled,
    /// The built-in runtime with another GGUF file (one the boss chose or downloaded).
    LocalFile,
    /// A configured provider (a remote API or a local server).
    Provider,
}

/// One route's answer: who thinks, and with what.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ThoughtBackend {
    pub provider_id: String,
    /// The model's name; for the built-in runtime, the GGUF file's name without its
    /// quantisation and extension (`SmolLM2-135M-Instruct`).
    pub model: String,
    pub kind: ThoughtModelKind,
}

/// Who answers the employees' thoughts, from the routes and each employee's own backend.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ThoughtModelDto {
    /// The company's route for thoughts: what everyone without a backend of their own,
    /// and every new hire, thinks with.
    pub company: ThoughtBackend,
    /// The bundled model's name, for saying who answers `bundled_employee_ids`.
    pub bundled_model: String,
    /// Whether that model's Chinese is readable (SmolLM2's is not).
    pub bundled_writes_chinese: bool,
    /// Working employees whose thoughts the bundled model answers.
    pub bundled_employee_ids: Vec<i32>,
}

impl Providers {
    /// Which model answers thoughts for the company and for each working employee.
    pub async fn thought_model(&self) -> ProviderResult<ThoughtModelDto> {
        let company_route = self.route_for(Purpose::Thought).await?;
        let company = self.thought_backend(&company_route).await;
        let mut bundled_employee_ids = Vec::new();
        if let Some(c) = org_q::find_company(&self.db).await? {
            for e in org_q::list_employees(&self.db, c.id, false).await? {
                let kind = if e.backend_provider == COMPANY_DEFAULT_PROVIDER {
                    company.kind
                } else {
                    self.kind_of(&e.backend_provider).await
                };
                if kind == ThoughtModelKind::Bundled {
                    bundled_employee_ids.push(e.id);
                }
            }
        }
        let serving = self.builtin_path().await.path;
        Ok(ThoughtModelDto {
            company,
            bundled_model: model_label(&serving),
            bundled_writes_chinese: builtin_model_of(&serving).is_some_and(|m| m.writes_chinese),
            bundled_employee_ids,
        })
    }

    async fn thought_backend(&self, route: &Route) -> ThoughtBackend {
        let kind = self.kind_of(&route.provider_id).await;
        let model = match kind {
            ThoughtModelKind::Provider => route.model.clone(),
            _ => model_label(&self.builtin_path().await.path),
        };
        ThoughtBackend {
            provider_id: route.provider_id.clone(),
            model,
            kind,
        }
    }

    /// The built-in runtime answers for `builtin`, and for the environment provider when
    /// it names the built-in dialect (see `resolve`).
    async fn kind_of(&self, provider_id: &str) -> ThoughtModelKind {
        let builtin = provider_id == BUILTIN
            || (provider_id == ENV_PROVIDER_ID
                && self
                    .env
                    .as_ref()
                    .is_some_and(|e| e.config.dialect == LlmDialect::Builtin));
        if !builtin {
            return ThoughtModelKind::Provider;
        }
        // The file decides, not who chose it: a shipped file under another path is
        // still a small model.
        let path = self.builtin_path().await.path;
        if builtin_model_of(&path).is_some() {
            ThoughtModelKind::Bundled
        } else {
            ThoughtModelKind::LocalFile
        }
    }
}

/// `…/SmolLM2-135M-Instruct.Q4_1.gguf` → `SmolLM2-135M-Instruct`: the file name without
/// its extension and a `.Q…` quantisation tag (other dots, as in `qwen2.5`, stay).
fn model_label(path: &Path) -> String {
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let stem = match name.rsplit_once('.') {
        Some((stem, ext)) if ext.eq_ignore_ascii_case("gguf") && !stem.is_empty() => stem,
        _ => name.as_str(),
    };
    match stem.rsplit_once('.') {
        Some((base, tag)) if is_quant_tag(tag) && !base.is_empty() => base.to_owned(),
        _ => stem.to_owned(),
    }
}

/// `Q4_1`, `q8_0`, `Q4_K_M`: a `Q` and a digit.
fn is_quant_tag(tag: &str) -> bool {
    let mut chars = tag.chars();
    matches!(chars.next(), Some('Q' | 'q')) && chars.next().is_some_and(|c| c.is_ascii_digit())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_drop_quantisation_and_extension() {
        assert_eq!(
            model_label(Path::new("/m/SmolLM2-135M-Instruct.Q4_1.gguf")),
            "SmolLM2-135M-Instruct"
        );
        assert_eq!(
            model_label(Path::new("/m/qwen2.5-1.5b-instruct-q4_k_m.gguf")),
            "qwen2.5-1.5b-instruct-q4_k_m"
        );
        assert_eq!(
            model_label(Path::new("/m/gemma-3-270m.Q4_K_M.gguf")),
            "gemma-3-270m"
        );
        assert_eq!(model_label(Path::new("/m/model")), "model");
    }
}
