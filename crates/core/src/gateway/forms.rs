//! What each provider accepts as a request for structured output. Servers behind the same
//! preset differ (llama-cpp-python refuses `json_schema` that vLLM takes), so the
//! structured pipeline steps down a ladder of forms on a refusal; the form that worked is
//! kept here, in memory and in `app_setting`, so the next call — in this run or the next —
//! goes straight to it instead of being refused again.

use std::collections::HashMap;
use std::sync::Mutex;

use cubicle_llm::JsonForm;
use cubicle_store::{Db, models as q};

/// `app_setting` key prefix; the provider id follows.
const SETTING_PREFIX: &str = "structured_form.";

pub(super) struct FormMemory {
    db: Db,
    /// Provider id → what the settings hold (`None`: nothing learned, the best form works).
    known: Mutex<HashMap<String, Option<JsonForm>>>,
}

impl FormMemory {
    pub(super) fn new(db: Db) -> Self {
        Self {
            db,
            known: Mutex::new(HashMap::new()),
        }
    }

    fn cached(&self, provider: &str) -> Option<Option<JsonForm>> {
        self.known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .get(provider)
            .copied()
    }

    fn cache(&self, provider: &str, form: Option<JsonForm>) {
        self.known
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(provider.to_owned(), form);
    }

    /// The form that last worked for `provider`, if it was not its best.
    pub(super) async fn get(&self, provider: &str) -> Option<JsonForm> {
        if let Some(known) = self.cached(provider) {
            return known;
        }
        let stored = q::get_setting(&self.db, &format!("{SETTING_PREFIX}{provider}"))
            .await
            .ok()
            .flatten()
            .and_then(|s| crate::types::read_name(&s));
        self.cache(provider, stored);
        stored
    }

    /// Records that `form` worked for `provider`, whose best form is `best`; says so in the
    /// log the one time it changes.
    pub(super) async fn worked(&self, provider: &str, form: JsonForm, best: Option<JsonForm>) {
        let learned = (Some(form) != best).then_some(form);
        if self.get(provider).await == learned {
            return;
        }
        tracing::info!(
            provider,
            form = %form,
            "structured output: remembering the form this provider accepts"
        );
        self.cache(provider, learned);
        let key = format!("{SETTING_PREFIX}{provider}");
        if let Err(e) =
            q::set_setting(&self.db, &key, learned.map(|f| f.to_string()).as_deref()).await
        {
            tracing::warn!(error = %e, "could not store the provider's structured-output form");
        }
    }
}
