//! Model providers as the boss configures them (Settings): presets, endpoints, keys in
//! the keychain, routes per purpose, prices, spend. How a provider id becomes a live
//! client (the gateway's [`crate::gateway::ProviderResolver`]) is in `resolve`.

use std::path::PathBuf;
use std::sync::Arc;

use chrono::Utc;
#[cfg(feature = "builtin")]
use cubicle_llm::builtin::BuiltinModel;
use cubicle_llm::model_file;
use cubicle_llm::presets::{self, Dialect as LlmDialect};
use cubicle_llm::{ApiKey, ChatMessage, CompletionRequest, LlmError};
use cubicle_store::entity::{model_route, provider};
use cubicle_store::{Db, DbErr, models as q};
use sea_orm::ActiveValue::Set;
use sea_orm::IntoActiveModel;

mod adopt;
mod dto;
mod env;
mod prices;
mod privacy;
mod resolve;
mod spend;
mod thinking;

pub use dto::*;
pub use env::{ENV_PROVIDER_ID, EnvProvider};
pub use thinking::{ThoughtBackend, ThoughtModelDto, ThoughtModelKind};

use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};
use crate::gateway::{BUILTIN, CallContext, Gateway, GatewayError, Purpose, Route};
use crate::secrets::{ProviderKeys, SecretError, SecretStore};
use crate::types::*;

/// New hires think with whatever the company routes each purpose to (Settings → default
/// models; the built-in model when nothing is configured) until the boss gives them a
/// backend of their own. An empty provider means exactly that.
pub const COMPANY_DEFAULT_PROVIDER: &str = "";

/// "Test connection" asks for a few words only.
const TEST_MAX_TOKENS: u32 = 16;
/// Days shown in the spend view, today included.
pub(crate) const SPEND_DAYS: u64 = 7;

#[derive(Debug, thiserror::Error)]
pub enum ProviderError {
    #[error("{0}")]
    InvalidInput(String),
    #[error("a provider named \"{0}\" already exists")]
    DuplicateName(String),
    #[error("provider {0} does not exist")]
    NotFound(String),
    #[error(transparent)]
    Secret(#[from] SecretError),
    #[error(transparent)]
    Gateway(#[from] GatewayError),
    #[error("storage error: {0}")]
    Storage(#[from] DbErr),
}

impl ProviderError {
    pub fn code(&self) -> ErrorCode {
        match self {
            ProviderError::InvalidInput(_) => ErrorCode::InvalidInput,
            ProviderError::DuplicateName(_) => ErrorCode::DuplicateName,
            ProviderError::NotFound(_) => ErrorCode::NotFound,
            ProviderError::Secret(SecretError::BadId(_)) => ErrorCode::InvalidInput,
            ProviderError::Secret(SecretError::NoCompany) => ErrorCode::CompanyMissing,
            ProviderError::Secret(SecretError::Storage(_)) => ErrorCode::Storage,
            ProviderError::Secret(_) => ErrorCode::SecretUnavailable,
            ProviderError::Gateway(e) => gateway_code(e),
            ProviderError::Storage(_) => ErrorCode::Storage,
        }
    }
}

pub fn gateway_code(e: &GatewayError) -> ErrorCode {
    match e {
        GatewayError::BudgetExceeded { .. } => ErrorCode::BudgetExceeded,
        GatewayError::BreakerOpen { .. } => ErrorCode::BreakerOpen,
        GatewayError::Llm(LlmError::MissingKey(_)) => ErrorCode::MissingKey,
        GatewayError::Llm(LlmError::Unconfirmed(_)) => ErrorCode::NotConfirmed,
        GatewayError::Llm(_) | GatewayError::Structured(_) => ErrorCode::ProviderError,
        GatewayError::Storage(_) => ErrorCode::Storage,
        GatewayError::Closed => ErrorCode::Internal,
    }
}

impl From<ProviderError> for IpcError {
    fn from(e: ProviderError) -> Self {
        if let ProviderError::Storage(inner) = &e {
            tracing::error!(error = %inner, "storage error");
        }
        IpcError::new(e.code(), e.to_string())
    }
}

pub type ProviderResult<T> = Result<T, ProviderError>;

/// Settings for providers, and the resolver the gateway asks for clients.
pub struct Providers {
    pub(crate) db: Db,
    pub(crate) bus: EventBus,
    /// The company's provider keys (environment, then its own keychain entries).
    keys: ProviderKeys,
    /// Set by tests and embedders; wins over everything else.
    builtin_override: Option<PathBuf>,
    /// Where the built-in models are installed, and the file `$CUBICLE_BUILTIN_MODEL` names.
    builtin_files: BuiltinFiles,
    /// The loaded built-in models by file: the built-in one, and at most one other that a
    /// route names (a downloaded catalogue model serving one purpose).
    #[cfg(feature = "builtin")]
    builtin: tokio::sync::Mutex<Vec<LoadedModel>>,
    env: Option<EnvProvider>,
    /// Where downloaded models live and the catalogue's (id, file name) pairs, so a route
    /// to the built-in provider can name one of them as its model.
    local_files: std::sync::OnceLock<LocalFiles>,
}

/// The downloaded models a route may name: their folder and each catalogue id's file.
#[derive(Clone, Debug, Default)]
pub struct LocalFiles {
    pub dir: PathBuf,
    pub files: Vec<(String, String)>,
}

/// `app_setting` key holding the boss's choice of GGUF for the built-in model.
const BUILTIN_PATH_SETTING: &str = "builtin_model_path";

/// Where the built-in models are looked for: the folder `scripts/install-model.sh` installs
/// them in, and the file `$CUBICLE_BUILTIN_MODEL` names (which overrides the per-language
/// default). Tests give a folder of their own and no environment file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BuiltinFiles {
    pub dir: PathBuf,
    pub env_path: Option<PathBuf>,
}

impl BuiltinFiles {
    /// The app data dir's models folder and `$CUBICLE_BUILTIN_MODEL`.
    pub fn from_env() -> Self {
        Self {
            dir: model_file::builtin_models_dir(),
            env_path: model_file::model_path_from_env(),
        }
    }
}

/// A loaded GGUF, and whether it was loaded as the built-in model (rather than a
/// catalogue model a route names): a new built-in model replaces the old one in memory.
#[cfg(feature = "builtin")]
pub(crate) struct LoadedModel {
    pub(crate) path: PathBuf,
    pub(crate) model: Arc<BuiltinModel>,
    pub(crate) as_builtin: bool,
}

/// Which GGUF the built-in model loads, and why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BuiltinChoice {
    pub(crate) path: PathBuf,
    pub(crate) reason: BuiltinReason,
    /// The company's language (English before it is set up).
    pub(crate) language: Language,
    /// The built-in model the table names for that language.
    pub(crate) language_default: model_file::BuiltinModelFile,
}

impl Providers {
    pub fn new(db: Db, bus: EventBus, secrets: Arc<dyn SecretStore>) -> Self {
        Self {
            keys: ProviderKeys::new(db.clone(), secrets),
            db,
            bus,
            builtin_override: None,
            builtin_files: BuiltinFiles::from_env(),
            #[cfg(feature = "builtin")]
            builtin: tokio::sync::Mutex::new(Vec::new()),
            env: None,
            local_files: std::sync::OnceLock::new(),
        }
    }

    /// Lets routes to the built-in provider name a downloaded model (set once, at start).
    pub fn set_local_files(&self, files: LocalFiles) {
        let _ = self.local_files.set(files);
    }

    /// The GGUF a route to the built-in provider loads: the catalogue model the route
    /// names by id (which must be downloaded), else the built-in model — whatever else the
    /// model field says (its display name, a file name) is not a path and never opened.
    /// The flag is true for the built-in model itself (not a routed catalogue model).
    #[cfg(feature = "builtin")]
    async fn builtin_path_for(&self, model: &str) -> Result<(PathBuf, bool), LlmError> {
        let model = model.trim();
        let local = self.local_files.get().cloned().unwrap_or_default();
        let Some((_, file)) = local.files.iter().find(|(id, _)| id == model) else {
            return Ok((self.builtin_path().await.path, true));
        };
        let path = local.dir.join(file);
        if !path.is_file() {
            return Err(LlmError::Builtin(format!(
                "the local model {model:?} is not installed; download it in Settings → Local \
                 models or with `cubicle-cli models download`"
            )));
        }
        Ok((path, false))
    }

    /// The files of the built-in models loaded now (the built-in one and any routed one).
    #[cfg(feature = "builtin")]
    pub async fn loaded_builtin_models(&self) -> Vec<PathBuf> {
        self.builtin
            .lock()
            .await
            .iter()
            .map(|l| l.path.clone())
            .collect()
    }

    pub fn with_builtin_path(mut self, path: PathBuf) -> Self {
        self.builtin_override = Some(path);
        self
    }

    /// Where the built-in models are looked for (tests: a folder of their own).
    pub fn with_builtin_files(mut self, files: BuiltinFiles) -> Self {
        self.builtin_files = files;
        self
    }

    /// Which GGUF the built-in model loads: an embedder's override, else the file the
    /// boss chose in Settings, else `CUBICLE_BUILTIN_MODEL`, else the built-in model the
    /// company's language starts on ([`model_file::DEFAULT_FOR_LANGUAGE`]) — or, when that
    /// one is not installed, the other built-in model that is.
    pub(crate) async fn builtin_path(&self) -> BuiltinChoice {
        let language = match cubicle_store::org::find_company(&self.db).await {
            Ok(c) => c.map_or(Language::En, |c| c.language),
            Err(e) => {
                tracing::warn!(error = %e, "the company's language is unreadable; the built-in model assumes English");
                Language::En
            }
        };
        // The model table names a language by its serde name (`en`, `zh-CN`).
        let tag = name_of(&language);
        let language_default = model_file::default_model_for(&tag);
        let choice = |path: PathBuf, reason| BuiltinChoice {
            path,
            reason,
            language,
            language_default,
        };
        if let Some(p) = &self.builtin_override {
            return choice(p.clone(), BuiltinReason::Environment);
        }
        if let Ok(Some(p)) = q::get_setting(&self.db, BUILTIN_PATH_SETTING).await {
            return choice(PathBuf::from(p), BuiltinReason::Chosen);
        }
        let found = model_file::resolve_default(
            &tag,
            &self.builtin_files.dir,
            self.builtin_files.env_path.as_deref(),
        );
        let reason = match found.reason {
            model_file::DefaultReason::Language => BuiltinReason::LanguageDefault,
            model_file::DefaultReason::Fallback { .. } => BuiltinReason::Fallback,
            model_file::DefaultReason::Environment => BuiltinReason::Environment,
        };
        choice(found.path, reason)
    }

    /// Uses another GGUF for the built-in model (`None`: back to the default). The file
    /// must exist and be a GGUF; it is loaded on the next built-in call.
    pub async fn set_builtin_model(&self, input: SetBuiltinModel) -> ProviderResult<BuiltinStatus> {
        let path = input
            .path
            .map(|p| p.trim().to_owned())
            .filter(|p| !p.is_empty());
        if let Some(p) = &path {
            check_gguf(std::path::Path::new(p)).map_err(ProviderError::InvalidInput)?;
        }
        q::set_setting(&self.db, BUILTIN_PATH_SETTING, path.as_deref()).await?;
        // The model it replaces leaves memory now (calls under way keep their own handle).
        #[cfg(feature = "builtin")]
        {
            let now = self.builtin_path().await.path;
            self.builtin
                .lock()
                .await
                .retain(|l| !l.as_builtin || l.path == now);
        }
        self.bus.publish(DomainEvent::ProvidersChanged);
        Ok(self.builtin_status().await)
    }

    pub fn with_env_provider(mut self, env: Option<EnvProvider>) -> Self {
        self.env = env;
        self
    }

    pub fn env_provider(&self) -> Option<&EnvProvider> {
        self.env.as_ref()
    }

    pub fn list_presets(&self) -> Vec<PresetDto> {
        presets::PRESETS
            .iter()
            .map(|p| PresetDto {
                id: p.id.to_owned(),
                name: p.name.to_owned(),
                dialect: p.dialect,
                base_url: p.base_url.to_owned(),
                default_model: p.default_model.to_owned(),
                key_required: p.key_required,
                capabilities: caps_dto(p.capabilities),
            })
            .collect()
    }

    /// Which file the built-in model loads, why, and the built-in models on this computer.
    pub async fn builtin_status(&self) -> BuiltinStatus {
        let choice = self.builtin_path().await;
        let meta = std::fs::metadata(&choice.path).ok();
        let serving = model_file::builtin_model_of(&choice.path);
        let default_path = self
            .builtin_files
            .env_path
            .clone()
            .unwrap_or_else(|| self.builtin_files.dir.join(choice.language_default.file));
        let models = model_file::BUILTIN_MODELS
            .iter()
            .map(|m| {
                let path = self.builtin_files.dir.join(m.file);
                let meta = std::fs::metadata(&path)
                    .ok()
                    .filter(std::fs::Metadata::is_file);
                BuiltinModelDto {
                    id: m.id.into(),
                    name: m.name.into(),
                    path: path.display().to_string(),
                    installed: meta.is_some(),
                    size_bytes: m.size_bytes,
                    sha256: m.sha256.into(),
                    licence: m.licence.into(),
                    packages: m.packages.into(),
                    repackaged: m.repackaged,
                    peak_rss_mb: m.peak_rss_mb,
                    language_default: *m == choice.language_default,
                    serving: path == choice.path,
                }
            })
            .collect();
        BuiltinStatus {
            installed: meta.as_ref().is_some_and(std::fs::Metadata::is_file),
            path: choice.path.display().to_string(),
            size_bytes: meta.map(|m| m.len()),
            custom: choice.reason == BuiltinReason::Chosen,
            default_path: default_path.display().to_string(),
            reason: choice.reason,
            model: serving.map(|m| m.id.to_owned()),
            language: choice.language,
            language_default: choice.language_default.id.into(),
            models,
        }
    }

    /// The built-in provider, named after the model it serves now.
    async fn builtin_dto(&self) -> ProviderDto {
        let path = self.builtin_path().await.path;
        let name = match model_file::builtin_model_of(&path) {
            Some(m) => format!("Built-in ({})", m.name.trim_end_matches("-Instruct")),
            None => "Built-in (local file)".to_owned(),
        };
        ProviderDto {
            id: BUILTIN.into(),
            name,
            preset: BUILTIN.into(),
            dialect: Dialect::Builtin,
            base_url: String::new(),
            default_model: path
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_default(),
            models: vec![],
            enabled: true,
            key_required: false,
            has_key: false,
            key_source: KeySource::None,
            builtin: true,
            imported_unconfirmed: false,
            on_this_computer: true,
        }
    }

    async fn key_source(&self, id: &str) -> (bool, KeySource) {
        match self.keys.get(id).await {
            Ok(Some((_, source))) => (true, source),
            Ok(None) => (false, KeySource::None),
            Err(e) => {
                tracing::warn!(error = %e, "keychain unavailable while listing providers");
                (false, KeySource::None)
            }
        }
    }

    /// Settles the company's key scope (see [`ProviderKeys::settle`]).
    pub async fn settle_keys(&self) {
        self.keys.settle().await;
    }

    async fn provider_dto(&self, m: &provider::Model) -> ProviderDto {
        let key_required = presets::preset(&m.preset).is_none_or(|p| p.key_required);
        let (has_key, key_source) = self.key_source(&m.id).await;
        ProviderDto {
            id: m.id.clone(),
            name: m.name.clone(),
            preset: m.preset.clone(),
            dialect: stored_dialect(&m.dialect),
            base_url: m.base_url.clone(),
            default_model: m.default_model.clone(),
            models: json_strings(&m.models),
            enabled: m.enabled,
            key_required,
            has_key,
            key_source,
            builtin: false,
            imported_unconfirmed: crate::imported::provider_unconfirmed(m),
            on_this_computer: cubicle_llm::local_servers::is_loopback_endpoint(&m.base_url),
        }
    }

    /// Every API key this company's providers hold (keychain or environment), to cut out
    /// of what leaves the computer. A key that cannot be read is left out, said in the log.
    pub(crate) async fn held_keys(&self) -> Result<Vec<String>, cubicle_store::DbErr> {
        let mut keys = Vec::new();
        for m in q::list_providers(&self.db).await? {
            match self.keys.get(&m.id).await {
                Ok(Some((k, _))) => keys.push(k.expose().to_owned()),
                Ok(None) => {}
                Err(e) => {
                    tracing::warn!(provider = %m.id, error = %e, "a key could not be read to redact it")
                }
            }
        }
        Ok(keys)
    }

    pub async fn list(&self) -> ProviderResult<Vec<ProviderDto>> {
        let mut out = vec![self.builtin_dto().await];
        for m in q::list_providers(&self.db).await? {
            out.push(self.provider_dto(&m).await);
        }
        Ok(out)
    }

    pub async fn save(&self, input: SaveProvider) -> ProviderResult<ProviderDto> {
        let fields = ProviderFields::check(&input)?;
        let existing = q::list_providers(&self.db).await?;
        if existing.iter().any(|p| {
            Some(&p.id) != input.id.as_ref() && p.name.to_lowercase() == fields.name.to_lowercase()
        }) {
            return Err(ProviderError::DuplicateName(fields.name));
        }
        let saved = match &input.id {
            Some(id) => {
                let m = q::find_provider(&self.db, id)
                    .await?
                    .ok_or_else(|| ProviderError::NotFound(id.clone()))?;
                let mut am = m.into_active_model();
                fields.write_to(&mut am);
                q::update_provider(&self.db, am).await?
            }
            None => {
                let mut am = provider::ActiveModel {
                    id: Set(unique_id(&fields.name, &input.preset, &existing)),
                    created_at: Set(Utc::now()),
                    imported_base_url: Set(None),
                    ..Default::default()
                };
                fields.write_to(&mut am);
                q::insert_provider(&self.db, am).await?
            }
        };
        self.bus.publish(DomainEvent::ProvidersChanged);
        Ok(self.provider_dto(&saved).await)
    }

    pub async fn delete(&self, id: &str) -> ProviderResult<()> {
        if id == BUILTIN {
            return Err(ProviderError::InvalidInput(
                "the built-in model cannot be removed".into(),
            ));
        }
        q::find_provider(&self.db, id)
            .await?
            .ok_or_else(|| ProviderError::NotFound(id.to_owned()))?;
        // The key goes with the provider; a keychain hiccup must not leave it behind silently.
        self.keys.delete(id).await?;
        q::delete_provider(&self.db, id).await?;
        for r in q::list_routes(&self.db).await? {
            if r.provider_id == id {
                q::delete_route(&self.db, r.purpose).await?;
            }
        }
        self.bus.publish(DomainEvent::ProvidersChanged);
        Ok(())
    }

    pub async fn set_key(&self, input: SetProviderKey) -> ProviderResult<ProviderDto> {
        let m = self.require(&input.provider_id).await?;
        let key = input.key.trim();
        if key.is_empty() {
            return Err(ProviderError::InvalidInput("the key is empty".into()));
        }
        self.keys.set(&m.id, &ApiKey::new(key)).await?;
        self.bus.publish(DomainEvent::ProvidersChanged);
        Ok(self.provider_dto(&m).await)
    }

    pub async fn delete_key(&self, id: &str) -> ProviderResult<ProviderDto> {
        let m = self.require(id).await?;
        self.keys.delete(&m.id).await?;
        self.bus.publish(DomainEvent::ProvidersChanged);
        Ok(self.provider_dto(&m).await)
    }

    async fn require(&self, id: &str) -> ProviderResult<provider::Model> {
        q::find_provider(&self.db, id)
            .await?
            .ok_or_else(|| ProviderError::NotFound(id.to_owned()))
    }

    /// A real, minimal call through the gateway (so it is budgeted and in the ledger).
    pub async fn test(&self, gateway: &Gateway, input: TestProvider) -> TestResult {
        let model = input.model.clone().unwrap_or_default();
        let started = std::time::Instant::now();
        let req = CompletionRequest {
            model: model.clone(),
            messages: vec![
                ChatMessage::system("You are a connection check. Answer in at most five words."),
                ChatMessage::user("Say hello."),
            ],
            max_tokens: Some(TEST_MAX_TOKENS),
            temperature: Some(0.0),
            ..Default::default()
        };
        let route = Route {
            provider_id: input.provider_id.clone(),
            model,
        };
        let result = gateway
            .complete(&CallContext::new(Purpose::Test), route, req)
            .await;
        let latency_ms = u32::try_from(started.elapsed().as_millis()).unwrap_or(u32::MAX);
        match result {
            Ok(reply) => TestResult {
                ok: !reply.fallback,
                latency_ms,
                model: reply.value.model.clone(),
                reply: Some(reply.value.text.chars().take(200).collect()),
                error: reply.fallback.then(|| {
                    IpcError::new(
                        ErrorCode::BreakerOpen,
                        "the provider is paused; the built-in model answered instead",
                    )
                }),
            },
            Err(e) => TestResult {
                ok: false,
                latency_ms,
                model: input.model.unwrap_or_default(),
                reply: None,
                error: Some(IpcError::new(gateway_code(&e), e.to_string())),
            },
        }
    }

    // ---------- routes ----------

    /// The route for a purpose: the boss's choice, else the environment provider, else
    /// the built-in model (so a fresh machine works with no key at all).
    pub async fn route_for(&self, purpose: Purpose) -> ProviderResult<Route> {
        Ok(match self.stored_route(purpose).await? {
            Some(r) => r,
            None => self.default_route(),
        })
    }

    /// The route the boss set for a purpose, if any.
    async fn stored_route(&self, purpose: Purpose) -> ProviderResult<Option<Route>> {
        Ok(q::find_route(&self.db, purpose).await?.map(|r| Route {
            provider_id: r.provider_id,
            model: r.model,
        }))
    }

    /// The route the boss (or the environment) chose for a purpose; `None` when nothing
    /// is configured and calls would fall to the built-in default. The secretary's model
    /// tier runs only on a configured route ("with no model configured, rules only").
    pub async fn configured_route(&self, purpose: Purpose) -> ProviderResult<Option<Route>> {
        if let Some(r) = self.stored_route(purpose).await? {
            return Ok(Some(r));
        }
        Ok(self.env.is_some().then(|| self.default_route()))
    }

    /// The route for one employee's call: their own backend when they have one, else the
    /// company's route for the purpose (seed 001: per purpose and per employee).
    pub async fn route_for_employee(
        &self,
        purpose: Purpose,
        backend: &BackendRef,
    ) -> ProviderResult<Route> {
        if backend.provider.is_empty() {
            return self.route_for(purpose).await;
        }
        Ok(Route {
            provider_id: backend.provider.clone(),
            model: backend.model.clone(),
        })
    }

    /// True when calls can be routed to `id` (the built-in model, the environment
    /// provider, or a configured provider).
    pub async fn exists(&self, id: &str) -> ProviderResult<bool> {
        Ok(id == BUILTIN
            || (id == ENV_PROVIDER_ID && self.env.is_some())
            || q::find_provider(&self.db, id).await?.is_some())
    }

    fn default_route(&self) -> Route {
        match &self.env {
            Some(env) => Route {
                provider_id: ENV_PROVIDER_ID.into(),
                model: env.config.default_model.clone(),
            },
            None => Route {
                provider_id: BUILTIN.into(),
                model: String::new(),
            },
        }
    }

    /// Each routable purpose's route. [`Purpose::Privacy`] has none unless the boss set
    /// one (`providerId` empty: the rules alone mask).
    pub async fn routes(&self) -> ProviderResult<Vec<RouteDto>> {
        let mut out = Vec::new();
        for purpose in crate::gateway::ROUTABLE {
            let r = match purpose {
                Purpose::Privacy => self.stored_route(purpose).await?.unwrap_or(Route {
                    provider_id: String::new(),
                    model: String::new(),
                }),
                _ => self.route_for(purpose).await?,
            };
            out.push(RouteDto {
                purpose,
                provider_id: r.provider_id,
                model: r.model,
            });
        }
        Ok(out)
    }

    pub async fn set_route(&self, input: SetRoute) -> ProviderResult<RouteDto> {
        if !crate::gateway::ROUTABLE.contains(&input.purpose) {
            return Err(ProviderError::InvalidInput(format!(
                "{} has no route of its own",
                input.purpose
            )));
        }
        if input.purpose == Purpose::Privacy {
            if input.provider_id.is_empty() {
                // No model: the rules alone mask.
                q::delete_route(&self.db, input.purpose).await?;
                self.bus.publish(DomainEvent::ProvidersChanged);
                return Ok(RouteDto {
                    purpose: input.purpose,
                    provider_id: String::new(),
                    model: String::new(),
                });
            }
            self.check_privacy_route(&input.provider_id).await?;
        }
        if input.provider_id != BUILTIN {
            self.require(&input.provider_id).await?;
        }
        q::delete_route(&self.db, input.purpose).await?;
        q::insert_route(
            &self.db,
            model_route::ActiveModel {
                purpose: Set(input.purpose),
                provider_id: Set(input.provider_id.clone()),
                model: Set(input.model.trim().to_owned()),
            },
        )
        .await?;
        self.bus.publish(DomainEvent::ProvidersChanged);
        Ok(RouteDto {
            purpose: input.purpose,
            provider_id: input.provider_id,
            model: input.model.trim().to_owned(),
        })
    }
}

/// A GGUF file starts with the magic bytes `GGUF`.
fn check_gguf(path: &std::path::Path) -> Result<(), String> {
    use std::io::Read;
    let mut f =
        std::fs::File::open(path).map_err(|e| format!("cannot open {}: {e}", path.display()))?;
    let mut magic = [0u8; 4];
    f.read_exact(&mut magic)
        .map_err(|_| format!("{} is too short to be a GGUF model", path.display()))?;
    if &magic != b"GGUF" {
        return Err(format!("{} is not a GGUF model file", path.display()));
    }
    Ok(())
}

/// A provider as the boss saved it, checked: a name, a preset the app knows, an http(s)
/// endpoint, and a default model that is one of its models.
struct ProviderFields {
    name: String,
    preset: String,
    dialect: LlmDialect,
    base_url: String,
    default_model: String,
    models: Vec<String>,
    enabled: bool,
}

impl ProviderFields {
    fn check(input: &SaveProvider) -> ProviderResult<Self> {
        let name = input.name.trim().to_owned();
        if name.is_empty() || name.chars().count() > 80 {
            return Err(ProviderError::InvalidInput(
                "a provider needs a name of at most 80 characters".into(),
            ));
        }
        let dialect = preset_dialect(&input.preset)?;
        let base_url = input.base_url.trim().trim_end_matches('/').to_owned();
        if !(base_url.starts_with("http://") || base_url.starts_with("https://")) {
            return Err(ProviderError::InvalidInput(
                "the base URL must start with http:// or https://".into(),
            ));
        }
        let default_model = input.default_model.trim().to_owned();
        if default_model.is_empty() {
            return Err(ProviderError::InvalidInput("choose a default model".into()));
        }
        let mut models: Vec<String> = input
            .models
            .iter()
            .map(|m| m.trim().to_owned())
            .filter(|m| !m.is_empty())
            .collect();
        if !models.contains(&default_model) {
            models.insert(0, default_model.clone());
        }
        models.dedup();
        Ok(Self {
            name,
            preset: input.preset.clone(),
            dialect,
            base_url,
            default_model,
            models,
            enabled: input.enabled,
        })
    }

    /// Sets every field the boss edits on a row, new or existing.
    fn write_to(self, am: &mut provider::ActiveModel) {
        am.name = Set(self.name);
        am.preset = Set(self.preset);
        am.dialect = Set(name_of(&self.dialect));
        am.base_url = Set(self.base_url);
        am.default_model = Set(self.default_model);
        am.models = Set(serde_json::json!(self.models));
        am.enabled = Set(self.enabled);
    }
}

/// The wire dialect of a preset. The built-in model is not one the boss can add; "custom"
/// and "anthropic_compatible" are endpoints of either dialect that no preset describes.
fn preset_dialect(preset: &str) -> ProviderResult<LlmDialect> {
    match presets::preset(preset) {
        Some(p) if p.dialect == LlmDialect::Builtin => Err(ProviderError::InvalidInput(
            "the built-in model is always there; it cannot be added again".into(),
        )),
        Some(p) => Ok(p.dialect),
        None if preset == "custom" => Ok(LlmDialect::OpenAiCompatible),
        None if preset == "anthropic_compatible" => Ok(LlmDialect::Anthropic),
        None => Err(ProviderError::InvalidInput(format!(
            "unknown preset {preset:?}"
        ))),
    }
}

/// `DeepSeek (work)` → `deepseek-work`; unique among `existing`.
fn unique_id(name: &str, preset: &str, existing: &[provider::Model]) -> String {
    let mut slug = String::new();
    for c in name.chars() {
        if c.is_ascii_alphanumeric() {
            slug.push(c.to_ascii_lowercase());
        } else if !slug.ends_with('-') && !slug.is_empty() {
            slug.push('-');
        }
    }
    let slug = slug.trim_end_matches('-').to_owned();
    let base = if slug.is_empty() || slug == BUILTIN || slug == ENV_PROVIDER_ID {
        format!("{preset}-provider")
    } else {
        slug
    };
    let taken = |id: &str| existing.iter().any(|p| p.id == id);
    if !taken(&base) {
        return base;
    }
    (2..)
        .map(|n| format!("{base}-{n}"))
        .find(|id| !taken(id))
        .unwrap_or(base)
}

/// A stored dialect; anything unknown speaks the OpenAI-compatible wire format.
fn stored_dialect(s: &str) -> Dialect {
    read_name(s).unwrap_or(Dialect::OpenAiCompatible)
}

fn caps_dto(c: cubicle_llm::Capabilities) -> CapabilitiesDto {
    CapabilitiesDto {
        json_schema: c.json_schema,
        json_object: c.json_object,
        stream: c.stream,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn provider(id: &str) -> provider::Model {
        provider::Model {
            id: id.into(),
            name: id.into(),
            preset: "openai".into(),
            dialect: "openai_compatible".into(),
            base_url: "https://x".into(),
            default_model: "m".into(),
            models: serde_json::json!([]),
            enabled: true,
            created_at: Utc::now(),
            imported_base_url: None,
        }
    }

    #[test]
    fn provider_ids_are_slugs_and_unique() {
        assert_eq!(
            unique_id("DeepSeek (work)", "deepseek", &[]),
            "deepseek-work"
        );
        assert_eq!(
            unique_id("DeepSeek", "deepseek", &[provider("deepseek")]),
            "deepseek-2"
        );
        assert_eq!(unique_id("通义千问", "qwen", &[]), "qwen-provider");
        assert_eq!(unique_id("builtin", "openai", &[]), "openai-provider");
    }
}
