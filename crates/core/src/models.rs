//! Local models: the catalogue of downloadable GGUFs with each one's state on this
//! machine, the downloads themselves (start, pause, resume, cancel — one at a time per
//! model), "use this model" for the built-in backend, and model servers already running
//! here (Ollama, LM Studio, llama.cpp) that can be added as providers (`servers`).
//!
//! Download state lives on disk, not in the database, so a kill at any moment is safe:
//! `<file>` exists only after its checksum matched (the download manager renames it into
//! place), and `<file>.partial` is what a later resume continues from. Only the running
//! download's progress and the last failure are kept in memory; after a restart a
//! partial file shows as paused, never as installed.

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use cubicle_llm::catalogue::{self, CatalogueEntry, CatalogueError};
use cubicle_llm::download::{
    DownloadError, DownloadOptions, DownloadSpec, Downloader, Failure, FailureKind, Outcome,
    Progress, Signal, partial_path,
};
use cubicle_llm::local_servers::{self, ProbeTarget};
use serde::{Deserialize, Serialize};
use tokio::sync::watch;
use ts_rs::TS;

use crate::error::{ErrorCode, IpcError};
use crate::events::{DomainEvent, EventBus};
use crate::providers::{BuiltinStatus, SetBuiltinModel};
use crate::providers::{ProviderError, Providers};

mod servers;

pub use servers::{AddLocalServer, LocalServerDto, LocalServerKind};

/// Progress events per download per second, at most: enough for a smooth bar, few
/// enough that the UI's refetches stay cheap.
const EVENT_EVERY: Duration = Duration::from_millis(250);

/// One catalogue model and where it stands on this machine.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LocalModelDto {
    pub id: String,
    pub name: String,
    pub params: String,
    pub quantization: String,
    pub file_name: String,
    #[ts(type = "number")]
    pub size_bytes: u64,
    #[ts(type = "number")]
    pub ram_bytes: u64,
    /// ISO 639-1 codes.
    pub languages: Vec<String>,
    pub writes_chinese: bool,
    /// The one the first run suggests to a company writing Chinese.
    pub recommended_for_zh: bool,
    pub licence: String,
    pub licence_url: String,
    pub state: LocalModelState,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(
    tag = "status",
    rename_all = "snake_case",
    rename_all_fields = "camelCase"
)]
pub enum LocalModelState {
    NotInstalled,
    Downloading {
        #[ts(type = "number")]
        received: u64,
        #[ts(type = "number")]
        total: u64,
        #[ts(type = "number")]
        bytes_per_sec: u64,
        /// The connection dropped or stalled; it reconnects by itself.
        reconnecting: bool,
        /// While it waits to reconnect: why the last attempt failed and when the next starts.
        retry: Option<DownloadRetry>,
    },
    /// A partial file waits to be resumed (paused, or left by a quit or a crash).
    Paused {
        #[ts(type = "number")]
        received: u64,
        #[ts(type = "number")]
        total: u64,
    },
    /// All bytes are here; the SHA-256 is being checked.
    Verifying,
    /// Verified and under its final name.
    Installed {
        path: String,
        /// The built-in model loads this file.
        in_use: bool,
    },
    Failed {
        error: IpcError,
        /// Bytes kept for a resume (0 when the failure deleted them).
        #[ts(type = "number")]
        received: u64,
        /// Set when it gave up after retrying: the last failure and the attempts made.
        gave_up: Option<DownloadGaveUp>,
    },
}

/// What kind of trouble a download ran into, in terms the boss can act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum DownloadFailureKind {
    /// This computer is not connected to a network.
    NoNetwork,
    /// The server's name could not be resolved.
    Dns,
    /// The server refused the connection.
    Refused,
    /// The server did not answer in time.
    Timeout,
    /// No data arrived for the stall timeout.
    Stalled,
    /// The connection closed mid-file.
    Dropped,
    /// The server answered with an error status.
    ServerError,
    /// Another network error (TLS, proxy, protocol).
    Network,
}

impl From<FailureKind> for DownloadFailureKind {
    fn from(k: FailureKind) -> Self {
        match k {
            FailureKind::NoNetwork => Self::NoNetwork,
            FailureKind::Dns => Self::Dns,
            FailureKind::Refused => Self::Refused,
            FailureKind::Timeout => Self::Timeout,
            FailureKind::Stalled => Self::Stalled,
            FailureKind::Dropped => Self::Dropped,
            FailureKind::ServerError => Self::ServerError,
            FailureKind::Network => Self::Network,
        }
    }
}

/// A download waiting to reconnect: "attempt 2 of 5 · next try in 8 s · could not
/// resolve huggingface.co".
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DownloadRetry {
    pub kind: DownloadFailureKind,
    /// The server's host name.
    pub host: String,
    /// The HTTP status of a server error.
    pub status: Option<u16>,
    /// The network stack's own words (English), for a tooltip and the log.
    pub detail: String,
    /// The attempt that comes next, counted from 1.
    pub next_attempt: u32,
    pub max_attempts: u32,
    /// When the next attempt starts, in milliseconds since the Unix epoch.
    #[ts(type = "number")]
    pub next_try_at_ms: u64,
}

/// Why a download stopped retrying.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct DownloadGaveUp {
    pub kind: DownloadFailureKind,
    pub host: String,
    pub status: Option<u16>,
    pub detail: String,
    /// Attempts made in a row without a byte.
    pub attempts: u32,
    /// Seconds spent on them.
    #[ts(type = "number")]
    pub seconds: u64,
}

impl DownloadGaveUp {
    fn from_error(e: &DownloadError) -> Option<Self> {
        match e {
            DownloadError::GaveUp {
                attempts,
                seconds,
                last,
            } => Some(Self {
                kind: last.kind.into(),
                host: last.host.clone(),
                status: last.status,
                detail: last.detail.clone(),
                attempts: *attempts,
                seconds: *seconds,
            }),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct LocalModelRef {
    pub model_id: String,
}

/// Send one kind of work (employees' thoughts, say) to an installed catalogue model.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct UseLocalModelFor {
    pub model_id: String,
    pub purpose: crate::gateway::Purpose,
}

#[derive(Debug, thiserror::Error)]
pub enum ModelsError {
    #[error("no catalogue model {0:?}")]
    NotFound(String),
    #[error("{0}")]
    InvalidInput(String),
    #[error(transparent)]
    Download(#[from] DownloadError),
    #[error(transparent)]
    Provider(#[from] ProviderError),
    #[error(transparent)]
    Catalogue(#[from] CatalogueError),
}

impl ModelsError {
    pub fn code(&self) -> ErrorCode {
        match self {
            ModelsError::NotFound(_) => ErrorCode::NotFound,
            ModelsError::InvalidInput(_) => ErrorCode::InvalidInput,
            ModelsError::Download(e) => download_code(e),
            ModelsError::Provider(e) => e.code(),
            ModelsError::Catalogue(_) => ErrorCode::InvalidInput,
        }
    }
}

fn download_code(e: &DownloadError) -> ErrorCode {
    match e {
        DownloadError::DiskFull { .. } => ErrorCode::DiskFull,
        DownloadError::ChecksumMismatch { .. } | DownloadError::SizeMismatch { .. } => {
            ErrorCode::ChecksumMismatch
        }
        DownloadError::BadPath { .. } => ErrorCode::InvalidInput,
        DownloadError::Cancelled => ErrorCode::Cancelled,
        DownloadError::Http { .. }
        | DownloadError::GaveUp { .. }
        | DownloadError::Client(_)
        | DownloadError::Io { .. } => ErrorCode::DownloadFailed,
    }
}

impl From<ModelsError> for IpcError {
    fn from(e: ModelsError) -> Self {
        IpcError::new(e.code(), e.to_string())
    }
}

pub type ModelsResult<T> = Result<T, ModelsError>;

/// What a running download last reported.
#[derive(Clone, Debug)]
enum Live {
    Downloading {
        received: u64,
        total: u64,
        bytes_per_sec: u64,
        retry: Option<DownloadRetry>,
    },
    Verifying,
}

/// A failed download: the error, and its retries when it gave up on them.
#[derive(Clone, Debug)]
struct Failed {
    error: IpcError,
    gave_up: Option<DownloadGaveUp>,
}

struct Job {
    control: watch::Sender<Signal>,
    live: Live,
}

struct Inner {
    dir: PathBuf,
    catalogue: Vec<Arc<CatalogueEntry>>,
    bus: EventBus,
    providers: Arc<Providers>,
    downloader: Downloader,
    targets: Vec<ProbeTarget>,
    /// Never held across an await.
    jobs: Mutex<HashMap<String, Job>>,
    failures: Mutex<HashMap<String, Failed>>,
}

/// Configuration that differs between the app and tests.
#[derive(Clone, Debug, Default)]
pub struct LocalModelsConfig {
    /// Where downloads go; default: the app data dir's `models/`.
    pub dir: Option<PathBuf>,
    pub download: DownloadOptions,
    /// Where to look for local servers; default: their documented ports.
    pub probe_targets: Option<Vec<ProbeTarget>>,
    /// Default: the bundled catalogue plus `$CUBICLE_MODEL_CATALOGUE`.
    pub catalogue: Option<Vec<CatalogueEntry>>,
}

#[derive(Clone)]
pub struct LocalModels {
    inner: Arc<Inner>,
}

impl std::fmt::Debug for LocalModels {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("LocalModels")
            .field("dir", &self.inner.dir)
            .finish_non_exhaustive()
    }
}

impl LocalModels {
    pub fn new(
        bus: EventBus,
        providers: Arc<Providers>,
        config: LocalModelsConfig,
    ) -> ModelsResult<Self> {
        let catalogue = match config.catalogue {
            Some(entries) => entries,
            None => catalogue::load()?,
        };
        Ok(Self {
            inner: Arc::new(Inner {
                catalogue: catalogue.into_iter().map(Arc::new).collect(),
                dir: config
                    .dir
                    .unwrap_or_else(cubicle_llm::model_file::models_dir),
                bus,
                providers,
                downloader: Downloader::new(config.download)?,
                targets: config
                    .probe_targets
                    .unwrap_or_else(local_servers::default_targets),
                jobs: Mutex::new(HashMap::new()),
                failures: Mutex::new(HashMap::new()),
            }),
        })
    }

    pub fn dir(&self) -> &Path {
        &self.inner.dir
    }

    /// Where an entry's verified file lives.
    pub fn path_of(&self, id: &str) -> ModelsResult<PathBuf> {
        Ok(self.inner.dir.join(&self.entry(id)?.file_name))
    }

    /// The whole catalogue, each entry with its state.
    pub async fn list(&self) -> Vec<LocalModelDto> {
        let in_use = self.builtin_path().await;
        self.inner
            .catalogue
            .iter()
            .map(|e| self.dto(e, &in_use))
            .collect()
    }

    pub async fn get(&self, id: &str) -> ModelsResult<LocalModelDto> {
        let e = self.entry(id)?;
        let in_use = self.builtin_path().await;
        Ok(self.dto(&e, &in_use))
    }

    /// Starts (or resumes) a download in the background; returns at once. Starting a
    /// model that is downloading or installed changes nothing.
    pub async fn start(&self, id: &str) -> ModelsResult<LocalModelDto> {
        if let Some(run) = self.begin(id, None)? {
            tokio::spawn(run);
        }
        self.get(id).await
    }

    /// Downloads in the foreground (the CLI), from `url` instead of the catalogue's when
    /// given (a mirror, or a test server). Returns the installed file, or what stopped it.
    pub async fn download(&self, id: &str, url: Option<String>) -> ModelsResult<Outcome> {
        let e = self.entry(id)?;
        match self.begin(id, url)? {
            Some(run) => run.await.map_err(ModelsError::from),
            None if self.is_installed(&e) => Ok(Outcome::Installed {
                path: self.inner.dir.join(&e.file_name),
            }),
            None => Err(ModelsError::InvalidInput(format!(
                "{} is already downloading",
                e.name
            ))),
        }
    }

    /// Stops a running download and keeps its bytes for a resume.
    pub async fn pause(&self, id: &str) -> ModelsResult<LocalModelDto> {
        let e = self.entry(id)?;
        if !self.signal(&e.id, Signal::Pause) {
            return Err(ModelsError::InvalidInput(format!(
                "{} is not downloading",
                e.name
            )));
        }
        self.get(id).await
    }

    /// Stops a download if one runs and deletes its partial file.
    pub async fn cancel(&self, id: &str) -> ModelsResult<LocalModelDto> {
        let e = self.entry(id)?;
        if !self.signal(&e.id, Signal::Cancel) {
            let partial = partial_path(&self.inner.dir.join(&e.file_name));
            match tokio::fs::remove_file(&partial).await {
                Err(err) if err.kind() != std::io::ErrorKind::NotFound => {
                    return Err(ModelsError::Download(DownloadError::Io {
                        path: partial,
                        message: err.to_string(),
                    }));
                }
                _ => {}
            }
            self.forget_failure(&e.id);
            self.changed(&e.id);
        }
        self.get(id).await
    }

    /// Where downloads go and each catalogue entry's file, for routes that name one.
    pub fn local_files(&self) -> crate::providers::LocalFiles {
        crate::providers::LocalFiles {
            dir: self.inner.dir.clone(),
            files: self
                .inner
                .catalogue
                .iter()
                .map(|e| (e.id.clone(), e.file_name.clone()))
                .collect(),
        }
    }

    /// Sends one purpose (employees' thoughts, say) to an installed catalogue model, run
    /// in process beside the built-in model, which keeps the other purposes.
    pub async fn use_for(
        &self,
        id: &str,
        purpose: crate::gateway::Purpose,
    ) -> ModelsResult<crate::providers::RouteDto> {
        let e = self.installed_entry(id)?;
        Ok(self
            .inner
            .providers
            .set_route(crate::providers::SetRoute {
                purpose,
                provider_id: crate::gateway::BUILTIN.into(),
                model: e.id.clone(),
            })
            .await?)
    }

    /// Makes an installed catalogue model the built-in model.
    pub async fn use_as_builtin(&self, id: &str) -> ModelsResult<BuiltinStatus> {
        let e = self.installed_entry(id)?;
        let path = self.inner.dir.join(&e.file_name);
        let status = self
            .inner
            .providers
            .set_builtin_model(SetBuiltinModel {
                path: Some(path.display().to_string()),
            })
            .await?;
        self.changed(&e.id);
        Ok(status)
    }

    // ---------- internals ----------

    /// Registers a job and returns the future that runs it; `None` when the model is
    /// installed or already downloading.
    fn begin(
        &self,
        id: &str,
        url: Option<String>,
    ) -> ModelsResult<Option<impl Future<Output = Result<Outcome, DownloadError>> + use<>>> {
        let e = self.entry(id)?;
        if self.is_installed(&e) {
            return Ok(None);
        }
        let (tx, rx) = watch::channel(Signal::Run);
        {
            let mut jobs = lock(&self.inner.jobs);
            if jobs.contains_key(&e.id) {
                return Ok(None);
            }
            jobs.insert(
                e.id.clone(),
                Job {
                    control: tx,
                    live: Live::Downloading {
                        received: file_len(&partial_path(&self.inner.dir.join(&e.file_name))),
                        total: e.size_bytes,
                        bytes_per_sec: 0,
                        retry: None,
                    },
                },
            );
        }
        self.forget_failure(&e.id);
        self.changed(&e.id);
        let spec = DownloadSpec {
            url: url.unwrap_or_else(|| e.url.clone()),
            dest: self.inner.dir.join(&e.file_name),
            sha256: e.sha256.clone(),
            size: Some(e.size_bytes),
        };
        let me = self.clone();
        Ok(Some(async move { me.run(e, spec, rx).await }))
    }

    async fn run(
        self,
        e: Arc<CatalogueEntry>,
        spec: DownloadSpec,
        mut control: watch::Receiver<Signal>,
    ) -> Result<Outcome, DownloadError> {
        tracing::info!(model = %e.id, url = %spec.url, "model download started");
        let mut last_event = Instant::now();
        let me = self.clone();
        let result = self
            .inner
            .downloader
            .download(&spec, &mut control, &mut |p| {
                me.on_progress(&e, p, &mut last_event);
            })
            .await;
        lock(&self.inner.jobs).remove(&e.id);
        match &result {
            Ok(outcome) => tracing::info!(model = %e.id, ?outcome, "model download ended"),
            Err(DownloadError::Cancelled) => tracing::info!(model = %e.id, "download cancelled"),
            Err(err) => {
                tracing::warn!(model = %e.id, error = %err, "model download failed");
                let failed = Failed {
                    error: IpcError::new(download_code(err), err.to_string()),
                    gave_up: DownloadGaveUp::from_error(err),
                };
                lock(&self.inner.failures).insert(e.id.clone(), failed);
            }
        }
        self.changed(&e.id);
        result
    }

    fn on_progress(&self, e: &CatalogueEntry, p: Progress, last_event: &mut Instant) {
        let (live, urgent) = {
            let mut jobs = lock(&self.inner.jobs);
            let Some(job) = jobs.get_mut(&e.id) else {
                return;
            };
            let (received, total) = match &job.live {
                Live::Downloading {
                    received, total, ..
                } => (*received, *total),
                Live::Verifying => (e.size_bytes, e.size_bytes),
            };
            let (live, urgent) = match p {
                Progress::Downloading {
                    received,
                    total,
                    bytes_per_sec,
                } => (
                    Live::Downloading {
                        received,
                        total: total.unwrap_or(e.size_bytes),
                        bytes_per_sec,
                        retry: None,
                    },
                    false,
                ),
                Progress::Retrying {
                    next_attempt,
                    max_attempts,
                    delay,
                    failure,
                } => (
                    Live::Downloading {
                        received,
                        total,
                        bytes_per_sec: 0,
                        retry: Some(retry_dto(failure, next_attempt, max_attempts, delay)),
                    },
                    true,
                ),
                Progress::Verifying { .. } => (Live::Verifying, true),
            };
            job.live = live.clone();
            (live, urgent)
        };
        if urgent || last_event.elapsed() >= EVENT_EVERY {
            *last_event = Instant::now();
            tracing::debug!(model = %e.id, ?live, "download progress");
            self.changed(&e.id);
        }
    }

    fn signal(&self, id: &str, signal: Signal) -> bool {
        match lock(&self.inner.jobs).get(id) {
            Some(job) => job.control.send(signal).is_ok(),
            None => false,
        }
    }

    fn forget_failure(&self, id: &str) {
        lock(&self.inner.failures).remove(id);
    }

    fn changed(&self, id: &str) {
        self.inner.bus.publish(DomainEvent::LocalModelChanged {
            model_id: id.to_owned(),
        });
    }

    /// Installed means verified: the download manager only ever renames a file into
    /// place after its checksum matched; a file of another size is someone else's.
    fn is_installed(&self, e: &CatalogueEntry) -> bool {
        std::fs::metadata(self.inner.dir.join(&e.file_name))
            .is_ok_and(|m| m.is_file() && m.len() == e.size_bytes)
    }

    async fn builtin_path(&self) -> PathBuf {
        PathBuf::from(self.inner.providers.builtin_status().await.path)
    }

    /// The catalogue entry `id`, which must be downloaded and verified.
    fn installed_entry(&self, id: &str) -> ModelsResult<Arc<CatalogueEntry>> {
        let e = self.entry(id)?;
        if !self.is_installed(&e) {
            return Err(ModelsError::InvalidInput(format!(
                "{} is not installed yet; download it first",
                e.name
            )));
        }
        Ok(e)
    }

    fn entry(&self, id: &str) -> ModelsResult<Arc<CatalogueEntry>> {
        let id = id.trim();
        self.inner
            .catalogue
            .iter()
            .find(|e| e.id == id)
            .cloned()
            .ok_or_else(|| ModelsError::NotFound(id.to_owned()))
    }

    fn state(&self, e: &CatalogueEntry, in_use: &Path) -> LocalModelState {
        let dest = self.inner.dir.join(&e.file_name);
        if let Some(job) = lock(&self.inner.jobs).get(&e.id) {
            return match &job.live {
                Live::Downloading {
                    received,
                    total,
                    bytes_per_sec,
                    retry,
                } => LocalModelState::Downloading {
                    received: *received,
                    total: *total,
                    bytes_per_sec: *bytes_per_sec,
                    reconnecting: retry.is_some(),
                    retry: retry.clone(),
                },
                Live::Verifying => LocalModelState::Verifying,
            };
        }
        if self.is_installed(e) {
            return LocalModelState::Installed {
                in_use: in_use == dest.as_path(),
                path: dest.display().to_string(),
            };
        }
        let received = file_len(&partial_path(&dest));
        if let Some(failed) = lock(&self.inner.failures).get(&e.id) {
            return LocalModelState::Failed {
                error: failed.error.clone(),
                received,
                gave_up: failed.gave_up.clone(),
            };
        }
        if received > 0 {
            return LocalModelState::Paused {
                received,
                total: e.size_bytes,
            };
        }
        LocalModelState::NotInstalled
    }

    fn dto(&self, e: &CatalogueEntry, in_use: &Path) -> LocalModelDto {
        LocalModelDto {
            id: e.id.clone(),
            name: e.name.clone(),
            params: e.params.clone(),
            quantization: e.quantization.clone(),
            file_name: e.file_name.clone(),
            size_bytes: e.size_bytes,
            ram_bytes: e.ram_bytes,
            languages: e.languages.clone(),
            writes_chinese: e.writes_chinese,
            recommended_for_zh: e.id == catalogue::RECOMMENDED_FOR_ZH,
            licence: e.licence.clone(),
            licence_url: e.licence_url.clone(),
            state: self.state(e, in_use),
        }
    }
}

fn retry_dto(
    failure: Failure,
    next_attempt: u32,
    max_attempts: u32,
    delay: Duration,
) -> DownloadRetry {
    let at = std::time::SystemTime::now() + delay;
    let next_try_at_ms = at
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX));
    DownloadRetry {
        kind: failure.kind.into(),
        host: failure.host,
        status: failure.status,
        detail: failure.detail,
        next_attempt,
        max_attempts,
        next_try_at_ms,
    }
}

fn file_len(path: &Path) -> u64 {
    std::fs::metadata(path).map(|m| m.len()).unwrap_or(0)
}

/// A poisoned lock only means another thread panicked mid-update of plain data.
fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}
