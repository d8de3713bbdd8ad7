//! Resumable, checksummed downloads of model files.
//!
//! The pipeline, and the one rule it keeps: a file appears under its final name only
//! after its SHA-256 matched, so nothing partial or unverified is ever offered as a model.
//!
//! 1. Check the path and the free disk space (what is still missing plus a reserve).
//! 2. GET the URL into `<file>.partial`, asking for `Range: bytes=<have>-` when a partial
//!    file is there. A `206` appends; a `200` (a server that ignores ranges) starts over.
//! 3. A dropped connection, a `5xx`/`408`/`429` or a stall (no byte for
//!    [`DownloadOptions::stall_timeout`]) reconnects with exponential backoff. Only
//!    attempts that bring no byte at all count towards [`DownloadOptions::max_retries`],
//!    so a long download over a flaky line still finishes.
//! 4. Pause keeps the partial file; cancel deletes it. Both act between chunks and during
//!    a stall or a backoff wait.
//! 5. fsync, hash, compare; a mismatch deletes the file. Then rename to the final name
//!    and fsync the directory, so a crash leaves either the partial or the whole file.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use futures::StreamExt;
use reqwest::StatusCode;
use reqwest::header::{CONTENT_RANGE, RANGE};
use sha2::{Digest, Sha256};
use tokio::io::AsyncWriteExt;
use tokio::sync::watch;

#[cfg(any(test, feature = "test-util"))]
pub mod fixture;

/// Appended to the final file name while bytes are still arriving.
pub const PARTIAL_SUFFIX: &str = ".partial";
/// How often progress is reported at most while bytes flow (the rate is measured over
/// the same window).
const PROGRESS_EVERY: Duration = Duration::from_millis(250);
/// Writes are batched: one syscall per MiB, not per network chunk.
const WRITE_BUFFER: usize = 1 << 20;
/// Hashing reads this much at a time.
const HASH_BUFFER: usize = 1 << 20;

/// What to fetch and where it goes.
#[derive(Clone, Debug)]
pub struct DownloadSpec {
    pub url: String,
    /// The final path; the partial file is this plus [`PARTIAL_SUFFIX`].
    pub dest: PathBuf,
    /// Lower-case hex SHA-256 the finished file must have.
    pub sha256: String,
    /// The expected size, when known: checked against the server and the disk.
    pub size: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct DownloadOptions {
    /// No byte for this long counts as a stall: the connection is dropped and reopened.
    pub stall_timeout: Duration,
    pub connect_timeout: Duration,
    /// Failed attempts in a row (none of them bringing a byte) before giving up.
    pub max_retries: u32,
    pub backoff_initial: Duration,
    pub backoff_max: Duration,
    /// Free space kept beyond the file itself, so a download never fills the disk.
    pub reserve_bytes: u64,
}

impl Default for DownloadOptions {
    fn default() -> Self {
        Self {
            // Hugging Face's CDN answers within seconds; 30 s of silence is a dead link
            // (a laptop that slept, a Wi-Fi hand-over), not a slow one.
            stall_timeout: Duration::from_secs(30),
            connect_timeout: Duration::from_secs(20),
            // With backoff capped at a minute this rides out roughly ten minutes offline.
            max_retries: 12,
            backoff_initial: Duration::from_secs(1),
            backoff_max: Duration::from_secs(60),
            reserve_bytes: 256 << 20,
        }
    }
}

/// What the owner of a download asks of it while it runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Signal {
    Run,
    /// Stop and keep the partial file for a later resume.
    Pause,
    /// Stop and delete the partial file.
    Cancel,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Progress {
    Downloading {
        received: u64,
        total: Option<u64>,
        bytes_per_sec: u64,
    },
    /// The connection failed or stalled; the next attempt starts after `delay`.
    Retrying {
        attempt: u32,
        delay: Duration,
        reason: String,
    },
    Verifying {
        total: u64,
    },
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Verified and under its final name.
    Installed { path: PathBuf },
    /// Stopped on request; the partial file holds `received` bytes.
    Paused { received: u64 },
}

#[derive(Debug, thiserror::Error)]
pub enum DownloadError {
    #[error("the server answered HTTP {status} for {url}")]
    Http { status: u16, url: String },
    #[error("the download failed {attempts} times in a row ({last}); it can be resumed")]
    Network { attempts: u32, last: String },
    #[error(
        "no data arrived for {seconds} s, {attempts} times in a row; the download can be resumed"
    )]
    Stalled { seconds: u64, attempts: u32 },
    #[error("the file's SHA-256 is {actual}, expected {expected}; the download was deleted")]
    ChecksumMismatch { expected: String, actual: String },
    #[error("the server has {actual} bytes, the catalogue expects {expected}; nothing was kept")]
    SizeMismatch { expected: u64, actual: u64 },
    #[error(
        "not enough disk space in {}: {needed} bytes needed, {available} available",
        dir.display()
    )]
    DiskFull {
        needed: u64,
        available: u64,
        dir: PathBuf,
    },
    #[error("the download was cancelled")]
    Cancelled,
    #[error("cannot download to {}: {reason}", path.display())]
    BadPath { path: PathBuf, reason: String },
    #[error("{} failed: {message}", path.display())]
    Io { path: PathBuf, message: String },
}

impl DownloadError {
    /// A stable code for the UI and the CLI's JSON.
    pub fn code(&self) -> &'static str {
        match self {
            DownloadError::Http { .. } => "http_status",
            DownloadError::Network { .. } => "network",
            DownloadError::Stalled { .. } => "stalled",
            DownloadError::ChecksumMismatch { .. } => "checksum_mismatch",
            DownloadError::SizeMismatch { .. } => "size_mismatch",
            DownloadError::DiskFull { .. } => "disk_full",
            DownloadError::Cancelled => "cancelled",
            DownloadError::BadPath { .. } => "bad_path",
            DownloadError::Io { .. } => "io",
        }
    }
}

/// `<dest>.partial`.
pub fn partial_path(dest: &Path) -> PathBuf {
    let mut name = dest.as_os_str().to_owned();
    name.push(PARTIAL_SUFFIX);
    PathBuf::from(name)
}

/// Bytes free for an unprivileged writer on the file system holding `dir`.
pub fn available_space(dir: &Path) -> std::io::Result<u64> {
    fs4::available_space(dir)
}

/// Why one attempt ended early.
enum Interrupt {
    /// Try again after a backoff; `progressed` when this attempt brought bytes.
    Retry {
        reason: String,
        stalled: bool,
        progressed: bool,
    },
    Stop(Signal),
    Fatal(DownloadError),
}

impl From<DownloadError> for Interrupt {
    fn from(e: DownloadError) -> Self {
        Interrupt::Fatal(e)
    }
}

/// Downloads files with one reqwest client and one set of options.
#[derive(Clone, Debug)]
pub struct Downloader {
    client: reqwest::Client,
    options: DownloadOptions,
}

impl Downloader {
    pub fn new(options: DownloadOptions) -> Result<Self, DownloadError> {
        // No whole-request timeout: a 5 GB file takes as long as it takes; silence is
        // what the stall timeout catches.
        let client = reqwest::Client::builder()
            .connect_timeout(options.connect_timeout)
            .build()
            .map_err(|e| DownloadError::Network {
                attempts: 0,
                last: e.to_string(),
            })?;
        Ok(Self { client, options })
    }

    pub fn options(&self) -> &DownloadOptions {
        &self.options
    }

    /// Runs the download to its end: installed, paused, or an error. `control` is read
    /// between chunks; `progress` is called at most every 250 ms while bytes flow.
    pub async fn download(
        &self,
        spec: &DownloadSpec,
        control: &mut watch::Receiver<Signal>,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<Outcome, DownloadError> {
        let dir = check_dest(&spec.dest)?;
        let partial = partial_path(&spec.dest);
        let mut failures = 0u32;
        loop {
            let have = prepare_partial(&partial, spec.size).await?;
            if let Some(size) = spec.size {
                if have == size {
                    break;
                }
                self.ensure_space(&dir, size - have)?;
            }
            let interrupt = match self.attempt(spec, &partial, have, control, progress).await {
                Ok(()) => break,
                Err(i) => i,
            };
            match interrupt {
                Interrupt::Stop(signal) => return stop(signal, &partial).await,
                Interrupt::Fatal(e) => return Err(e),
                Interrupt::Retry {
                    reason,
                    stalled,
                    progressed,
                } => {
                    failures = if progressed { 1 } else { failures + 1 };
                    if failures > self.options.max_retries {
                        return Err(self.gave_up(failures, stalled, reason));
                    }
                    let delay = self.backoff(failures);
                    tracing::info!(%reason, attempt = failures, ?delay, "download retrying");
                    progress(Progress::Retrying {
                        attempt: failures,
                        delay,
                        reason,
                    });
                    tokio::select! {
                        () = tokio::time::sleep(delay) => {}
                        signal = stop_requested(control) => return stop(signal, &partial).await,
                    }
                }
            }
        }
        verify_and_install(spec, &partial, progress).await
    }

    fn gave_up(&self, attempts: u32, stalled: bool, last: String) -> DownloadError {
        if stalled {
            DownloadError::Stalled {
                seconds: self.options.stall_timeout.as_secs().max(1),
                attempts,
            }
        } else {
            DownloadError::Network { attempts, last }
        }
    }

    fn backoff(&self, failures: u32) -> Duration {
        let factor = 2u32.saturating_pow(failures.saturating_sub(1).min(16));
        self.options
            .backoff_initial
            .saturating_mul(factor)
            .min(self.options.backoff_max)
    }

    /// Refuses to start when the disk cannot hold what is still missing.
    fn ensure_space(&self, dir: &Path, missing: u64) -> Result<(), DownloadError> {
        let available = available_space(dir).map_err(|e| io_error(dir, &e))?;
        let needed = missing.saturating_add(self.options.reserve_bytes);
        if available < needed {
            return Err(DownloadError::DiskFull {
                needed,
                available,
                dir: dir.to_owned(),
            });
        }
        Ok(())
    }

    /// One HTTP request, appending to the partial file until the body ends.
    async fn attempt(
        &self,
        spec: &DownloadSpec,
        partial: &Path,
        have: u64,
        control: &mut watch::Receiver<Signal>,
        progress: &mut (dyn FnMut(Progress) + Send),
    ) -> Result<(), Interrupt> {
        let mut request = self.client.get(&spec.url);
        if have > 0 {
            request = request.header(RANGE, format!("bytes={have}-"));
        }
        let stall = self.options.stall_timeout;
        let response = tokio::select! {
            sent = tokio::time::timeout(stall, request.send()) => match sent {
                Err(_) => return Err(retry("no answer from the server", true, false)),
                Ok(Err(e)) => return Err(retry(&error_chain(&e), false, false)),
                Ok(Ok(r)) => r,
            },
            signal = stop_requested(control) => return Err(Interrupt::Stop(signal)),
        };
        let body = self.body_start(spec, partial, have, &response).await?;
        if body.complete {
            return Ok(());
        }
        if let (None, Some(total)) = (spec.size, body.total) {
            self.ensure_space(
                partial.parent().unwrap_or(Path::new(".")),
                total - body.start,
            )?;
        }
        receive(
            response,
            partial,
            body,
            Receive {
                stall,
                control,
                progress,
            },
        )
        .await
    }

    /// Reads the status and headers: where the body starts in the file and how long the
    /// whole file is.
    async fn body_start(
        &self,
        spec: &DownloadSpec,
        partial: &Path,
        have: u64,
        response: &reqwest::Response,
    ) -> Result<Body, Interrupt> {
        let status = response.status();
        let (start, total) = match status {
            StatusCode::PARTIAL_CONTENT => match content_range(response) {
                Some((start, total)) if start == have => (start, total),
                // A range we did not ask for: the only safe move is to start over.
                _ => {
                    remove_if_exists(partial).await?;
                    return Err(retry("the server resumed at another offset", false, false));
                }
            },
            StatusCode::OK => (0, response.content_length()),
            StatusCode::RANGE_NOT_SATISFIABLE => {
                // The partial file is at least as long as the file: it is whole or wrong;
                // the checksum decides which after the start-over below, never a guess.
                remove_if_exists(partial).await?;
                return Err(retry("the server refused the resume range", false, false));
            }
            s if s.is_server_error()
                || s == StatusCode::REQUEST_TIMEOUT
                || s == StatusCode::TOO_MANY_REQUESTS =>
            {
                return Err(retry(&format!("HTTP {}", s.as_u16()), false, false));
            }
            s => {
                return Err(Interrupt::Fatal(DownloadError::Http {
                    status: s.as_u16(),
                    url: spec.url.clone(),
                }));
            }
        };
        if let (Some(expected), Some(actual)) = (spec.size, total)
            && expected != actual
        {
            remove_if_exists(partial).await?;
            return Err(Interrupt::Fatal(DownloadError::SizeMismatch {
                expected,
                actual,
            }));
        }
        Ok(Body {
            start,
            total: total.or(spec.size),
            complete: total == Some(start) && start > 0,
        })
    }
}

/// Where the response body goes in the file.
struct Body {
    start: u64,
    total: Option<u64>,
    /// Nothing left to fetch (the server confirmed the file is whole).
    complete: bool,
}

struct Receive<'a> {
    stall: Duration,
    control: &'a mut watch::Receiver<Signal>,
    progress: &'a mut (dyn FnMut(Progress) + Send),
}

/// Streams the body into the partial file, reporting progress and watching for stalls.
async fn receive(
    response: reqwest::Response,
    partial: &Path,
    body: Body,
    ctx: Receive<'_>,
) -> Result<(), Interrupt> {
    let Receive {
        stall,
        control,
        progress,
    } = ctx;
    let file = open_partial(partial, body.start).await?;
    let mut out = tokio::io::BufWriter::with_capacity(WRITE_BUFFER, file);
    let mut stream = response.bytes_stream();
    let mut received = body.start;
    let mut meter = RateMeter::new(received);
    let end = loop {
        let next = tokio::select! {
            next = tokio::time::timeout(stall, stream.next()) => next,
            signal = stop_requested(control) => break Err(Interrupt::Stop(signal)),
        };
        let progressed = received > body.start;
        match next {
            Err(_) => break Err(retry("the connection stalled", true, progressed)),
            Ok(None) => break Ok(()),
            Ok(Some(Err(e))) => break Err(retry(&error_chain(&e), false, progressed)),
            Ok(Some(Ok(chunk))) => {
                if let Err(e) = out.write_all(&chunk).await {
                    return Err(write_error(partial, &e, body.total, received).into());
                }
                received += chunk.len() as u64;
                if let Some(rate) = meter.tick(received) {
                    progress(Progress::Downloading {
                        received,
                        total: body.total,
                        bytes_per_sec: rate,
                    });
                }
            }
        }
    };
    // What arrived is kept, whatever ended the attempt: the next one resumes after it.
    if let Err(e) = out.flush().await {
        return Err(write_error(partial, &e, body.total, received).into());
    }
    end?;
    match body.total {
        Some(total) if received < total => Err(retry(
            "the connection closed before the end of the file",
            false,
            received > body.start,
        )),
        Some(total) if received > total => {
            remove_if_exists(partial).await?;
            Err(Interrupt::Fatal(DownloadError::SizeMismatch {
                expected: total,
                actual: received,
            }))
        }
        _ => Ok(()),
    }
}

fn retry(reason: &str, stalled: bool, progressed: bool) -> Interrupt {
    Interrupt::Retry {
        reason: reason.to_owned(),
        stalled,
        progressed,
    }
}

/// Bytes per second over the last reporting window.
struct RateMeter {
    window_start: Instant,
    window_bytes: u64,
    last: u64,
}

impl RateMeter {
    fn new(received: u64) -> Self {
        Self {
            window_start: Instant::now(),
            window_bytes: 0,
            last: received,
        }
    }

    /// The rate when a report is due.
    fn tick(&mut self, received: u64) -> Option<u64> {
        self.window_bytes += received - self.last;
        self.last = received;
        let elapsed = self.window_start.elapsed();
        if elapsed < PROGRESS_EVERY {
            return None;
        }
        let rate = (self.window_bytes as f64 / elapsed.as_secs_f64()) as u64;
        self.window_start = Instant::now();
        self.window_bytes = 0;
        Some(rate)
    }
}

/// Resolves once the owner asks to pause or cancel; never when the sender is gone.
async fn stop_requested(control: &mut watch::Receiver<Signal>) -> Signal {
    loop {
        let signal = *control.borrow_and_update();
        if signal != Signal::Run {
            return signal;
        }
        if control.changed().await.is_err() {
            std::future::pending::<()>().await;
        }
    }
}

async fn stop(signal: Signal, partial: &Path) -> Result<Outcome, DownloadError> {
    match signal {
        Signal::Cancel => {
            remove_if_exists(partial).await?;
            Err(DownloadError::Cancelled)
        }
        _ => Ok(Outcome::Paused {
            received: file_len(partial).await,
        }),
    }
}

/// The destination's folder, created when missing; refuses paths that cannot be a file.
fn check_dest(dest: &Path) -> Result<PathBuf, DownloadError> {
    let bad = |reason: &str| DownloadError::BadPath {
        path: dest.to_owned(),
        reason: reason.to_owned(),
    };
    let name = dest.file_name().ok_or_else(|| bad("it has no file name"))?;
    if name.to_string_lossy().ends_with(PARTIAL_SUFFIX) {
        return Err(bad("the name is reserved for partial downloads"));
    }
    if dest.is_dir() {
        return Err(bad("it is a folder"));
    }
    let dir = match dest.parent() {
        Some(p) if !p.as_os_str().is_empty() => p.to_owned(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| bad(&format!("cannot create its folder: {e}")))?;
    Ok(dir)
}

/// How many bytes the partial file holds; a file longer than the expected size cannot
/// be resumed and is discarded.
async fn prepare_partial(partial: &Path, size: Option<u64>) -> Result<u64, DownloadError> {
    let have = file_len(partial).await;
    if size.is_some_and(|s| have > s) {
        remove_if_exists(partial).await?;
        return Ok(0);
    }
    Ok(have)
}

async fn open_partial(partial: &Path, start: u64) -> Result<tokio::fs::File, DownloadError> {
    let mut options = tokio::fs::OpenOptions::new();
    options.create(true).write(true);
    if start == 0 {
        options.truncate(true);
    } else {
        options.append(true);
    }
    options
        .open(partial)
        .await
        .map_err(|e| io_error(partial, &e))
}

async fn file_len(path: &Path) -> u64 {
    tokio::fs::metadata(path)
        .await
        .map(|m| m.len())
        .unwrap_or(0)
}

async fn remove_if_exists(path: &Path) -> Result<(), DownloadError> {
    match tokio::fs::remove_file(path).await {
        Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_error(path, &e)),
        _ => Ok(()),
    }
}

fn io_error(path: &Path, e: &std::io::Error) -> DownloadError {
    DownloadError::Io {
        path: path.to_owned(),
        message: e.to_string(),
    }
}

/// A full disk mid-write becomes [`DownloadError::DiskFull`] with the figures; the partial
/// file stays, so freeing space and resuming loses nothing.
fn write_error(
    partial: &Path,
    e: &std::io::Error,
    total: Option<u64>,
    received: u64,
) -> DownloadError {
    if e.kind() == std::io::ErrorKind::StorageFull {
        let dir = partial.parent().unwrap_or(Path::new(".")).to_owned();
        // What still has to fit: the rest of the file beyond what reached the disk.
        let on_disk = std::fs::metadata(partial).map_or(0, |m| m.len());
        return DownloadError::DiskFull {
            needed: total.map_or(received, |t| t.saturating_sub(on_disk)),
            available: available_space(&dir).unwrap_or(0),
            dir,
        };
    }
    io_error(partial, e)
}

/// `Content-Range: bytes <start>-<end>/<total>` → (start, total).
fn content_range(response: &reqwest::Response) -> Option<(u64, Option<u64>)> {
    let value = response.headers().get(CONTENT_RANGE)?.to_str().ok()?;
    let rest = value.trim().strip_prefix("bytes ")?;
    let (range, total) = rest.split_once('/')?;
    let (start, _) = range.split_once('-')?;
    Some((start.trim().parse().ok()?, total.trim().parse().ok()))
}

fn error_chain(e: &dyn std::error::Error) -> String {
    let mut text = e.to_string();
    let mut source = e.source();
    while let Some(s) = source {
        text.push_str(": ");
        text.push_str(&s.to_string());
        source = s.source();
    }
    text
}

/// fsync, hash, compare, rename, fsync the folder.
async fn verify_and_install(
    spec: &DownloadSpec,
    partial: &Path,
    progress: &mut (dyn FnMut(Progress) + Send),
) -> Result<Outcome, DownloadError> {
    let total = file_len(partial).await;
    progress(Progress::Verifying { total });
    let path = partial.to_owned();
    let actual = tokio::task::spawn_blocking(move || sync_and_hash(&path))
        .await
        .map_err(|e| DownloadError::Io {
            path: partial.to_owned(),
            message: e.to_string(),
        })?
        .map_err(|e| io_error(partial, &e))?;
    let expected = spec.sha256.trim().to_ascii_lowercase();
    if actual != expected {
        remove_if_exists(partial).await?;
        return Err(DownloadError::ChecksumMismatch { expected, actual });
    }
    tokio::fs::rename(partial, &spec.dest)
        .await
        .map_err(|e| io_error(&spec.dest, &e))?;
    sync_dir(&spec.dest);
    Ok(Outcome::Installed {
        path: spec.dest.clone(),
    })
}

/// Lower-case hex SHA-256 of a file, after making sure its bytes are on disk.
pub fn sync_and_hash(path: &Path) -> std::io::Result<String> {
    use std::io::Read;
    let mut file = std::fs::File::open(path)?;
    file.sync_all()?;
    let mut hasher = Sha256::new();
    let mut buf = vec![0u8; HASH_BUFFER];
    loop {
        let n = file.read(&mut buf)?;
        if n == 0 {
            break;
        }
        hasher.update(&buf[..n]);
    }
    Ok(hasher
        .finalize()
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect())
}

/// The rename is durable only once the folder's entry is on disk (POSIX).
#[cfg(unix)]
fn sync_dir(file: &Path) {
    if let Some(dir) = file.parent()
        && let Ok(d) = std::fs::File::open(dir)
        && let Err(e) = d.sync_all()
    {
        tracing::warn!(error = %e, "could not sync the models folder");
    }
}

/// Other systems make the rename durable themselves.
#[cfg(not(unix))]
fn sync_dir(_file: &Path) {}
