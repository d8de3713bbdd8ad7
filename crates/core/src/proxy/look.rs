//! The local model's look at what a proxy is about to share (seed 001 §4.5), after the
//! rules: it points out what no pattern knows (a diagnosis, a salary, a customer's name),
//! copied from the text, and [`mask::mask_found`] masks it. Only a model on this computer
//! is asked ([`Providers::privacy_route`]); with none, or when it does not answer in time,
//! the rules alone have masked, and the person is told which.

use std::sync::Arc;
use std::time::Duration;

use cubicle_llm::{ChatMessage, CompletionRequest};
use schemars::JsonSchema;
use serde::Deserialize;

use super::mask::{self, Masked};
use crate::gateway::{CallContext, Gateway, Purpose};
use crate::providers::Providers;
use crate::types::Language;

/// How long a share waits for the local model before it goes masked by the rules alone.
const PATIENCE: Duration = Duration::from_secs(30);

/// The model that looks, when the boss set one.
#[derive(Clone)]
pub struct PrivacyModel {
    pub gateway: Gateway,
    pub providers: Arc<Providers>,
}

/// Whether a model looked at a share.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Look {
    /// No model is set for it: the rules alone mask.
    NoModel,
    Looked,
    /// One is set and did not answer usably in time: the rules alone masked.
    Failed,
}

/// What the model answers: the private details, each copied exactly from the text.
#[derive(Debug, Deserialize, JsonSchema)]
struct Found {
    #[schemars(length(max = 8))]
    private: Vec<String>,
}

impl PrivacyModel {
    /// `masked` (by the rules) with what the model finds masked too.
    pub async fn look(&self, masked: Masked, lang: Language) -> (Masked, Look) {
        let route = match self.providers.privacy_route().await {
            Ok(Some(route)) => route,
            Ok(None) => return (masked, Look::NoModel),
            Err(e) => {
                tracing::warn!(error = %e, "could not read the privacy route");
                return (masked, Look::Failed);
            }
        };
        let req = CompletionRequest {
            messages: vec![
                ChatMessage::system(INSTRUCTIONS),
                ChatMessage::user(masked.text.clone()),
            ],
            temperature: Some(0.0),
            max_tokens: Some(200),
            ..Default::default()
        };
        let ctx = CallContext::new(Purpose::Privacy);
        let call = self.gateway.complete_json::<Found>(&ctx, route, req);
        match tokio::time::timeout(PATIENCE, call).await {
            Ok(Ok(reply)) => (
                mask::mask_found(masked, &reply.value.private, lang),
                Look::Looked,
            ),
            Ok(Err(e)) => {
                tracing::warn!(error = %e, "the privacy model did not answer; the rules alone masked");
                (masked, Look::Failed)
            }
            Err(_) => {
                tracing::warn!(after = ?PATIENCE, "the privacy model took too long; the rules alone masked");
                (masked, Look::Failed)
            }
        }
    }
}

const INSTRUCTIONS: &str = "You check a message a person is about to share with colleagues, \
for private details that should not leave them: health and family matters, home addresses, \
salaries and other figures not yet published, names of customers and their codes, passwords \
and keys. Work estimates, dates, version and task numbers, and colleagues' names are not \
private; text in [brackets] is already hidden. Answer with JSON {\"private\": [...]}: each \
private detail copied exactly as it is written in the message, at most 8; [] when there is none.";

/// The line that tells the person no model looked, when one should have.
pub fn note(look: Look, lang: Language) -> Option<String> {
    (look == Look::Failed).then(|| {
        lang.pick(
            "The local model that looks for private details did not answer, so only the rules checked this.",
            "检查私密信息的本地模型没有回应，这次只按规则检查了。",
        )
        .to_owned()
    })
}
