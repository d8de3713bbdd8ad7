//! Resumable, checksummed downloads of model files.
//!
//! The pipeline, and the one rule it keeps: a file appears under its final name only
//! after its SHA-256 matched, so nothing partial or unverified is ever offered as a model.
//!
//! 1. Check the path and the free disk space (what is still missing plus a reserve).
//! 2. GET the URL into `<file>.partial`, asking for `Range: bytes=<have>-` when a partial
//!    file is there. A `206` appends; a `200` (a server that ignores ranges) starts over.
//! 3. A dropped connection, a `5xx`/`408`/`429` or a stall (no byte for
//!    [`DownloadOptions::stall_timeout`]) reconnects with exponential backoff. Each
//!    failure is classified ([`FailureKind`]: no network, DNS, refused, timeout, stalled,
//!    dropped, server error) so the boss reads what is wrong, not "reconnecting". Only
//!    attempts that bring no byte at all count towards [`DownloadOptions::max_retries`],
//!    so a long download over a flaky line still finishes; and it gives up after
//!    [`DownloadOptions::give_up_after`] without a byte, however many attempts are left.
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
    /// Retries after a failed attempt, in a row (none of them bringing a byte), before
    /// giving up: `max_retries + 1` attempts in all.
    pub max_retries: u32,
    /// Give up when no byte arrived for this long, counted from the start or from the
    /// last attempt that brought bytes, even with retries left.
    pub give_up_after: Duration,
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
            // Five attempts, 2 + 4 + 8 + 16 s apart: half a minute rides out a Wi-Fi
            // hand-over; a machine offline longer is told so and can resume later (the
            // bytes stay). Twelve attempts over eight minutes told the boss nothing.
            max_retries: 4,
            give_up_after: Duration::from_secs(120),
            backoff_initial: Duration::from_secs(2),
            backoff_max: Duration::from_secs(30),
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
    /// An attempt failed; attempt `next_attempt` of `max_attempts` starts after `delay`.
    Retrying {
        next_attempt: u32,
        max_attempts: u32,
        delay: Duration,
        failure: Failure,
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

/// What went wrong with one attempt, in terms the boss can act on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FailureKind {
    /// This computer has no network: no route out, or the network is down.
    NoNetwork,
    /// The server's name could not be resolved.
    Dns,
    /// Nothing listens at the server's address: the connection was refused.
    Refused,
    /// Connecting, or the server's first answer, took too long.
    Timeout,
    /// The connection went silent mid-file for the stall timeout.
    Stalled,
    /// The connection closed or was reset before the end of the file.
    Dropped,
    /// The server answered with an error status (`5xx`, `408`, `429`).
    ServerError,
    /// Anything else on the way (TLS, a proxy, a protocol error).
    Network,
}

impl FailureKind {
    /// A stable code for the UI and the CLI's JSON.
    pub fn code(self) -> &'static str {
        match self {
            FailureKind::NoNetwork => "no_network",
            FailureKind::Dns => "dns",
            FailureKind::Refused => "refused",
            FailureKind::Timeout => "timeout",
            FailureKind::Stalled => "stalled",
            FailureKind::Dropped => "dropped",
            FailureKind::ServerError => "server_error",
            FailureKind::Network => "network",
        }
    }
}

/// One failed attempt, classified.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    pub kind: FailureKind,
    /// The server's host name ("huggingface.co").
    pub host: String,
    /// The status of a [`FailureKind::ServerError`].
    pub status: Option<u16>,
    /// What the network stack said, in its words (for the log and a tooltip).
    pub detail: String,
}

impl std::fmt::Display for Failure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let host = &self.host;
        match self.kind {
            FailureKind::NoNetwork => write!(f, "this computer is not connected to a network"),
            FailureKind::Dns => write!(f, "could not resolve {host}"),
            FailureKind::Refused => write!(f, "{host} refused the connection"),
            FailureKind::Timeout => write!(f, "{host} did not answer in time"),
            FailureKind::Stalled => write!(f, "no data arrived from {host}"),
            FailureKind::Dropped => write!(f, "the connection to {host} closed mid-file"),
            FailureKind::ServerError => match self.status {
                Some(status) => write!(f, "{host} answered HTTP {status}"),
                None => write!(f, "{host} answered with an error"),
            },
            FailureKind::Network => write!(f, "network error reaching {host}"),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum DownloadError {
    #[error("the server answered HTTP {status} for {url}")]
    Http { status: u16, url: String },
    /// Retries were used up, or no byte arrived for [`DownloadOptions::give_up_after`].
    #[error(
        "gave up after {attempts} attempts in {seconds} s: {last}; the download can be resumed"
    )]
    GaveUp {
        attempts: u32,
        seconds: u64,
        last: Failure,
    },
    #[error("cannot set up the HTTP client: {0}")]
    Client(String),
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
            DownloadError::GaveUp { last, .. } => last.kind.code(),
            DownloadError::Client(_) => "network",
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
        failure: Failure,
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
            .map_err(|e| DownloadError::Client(e.to_string()))?;
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
        // Since the start, or since the last attempt that brought bytes.
        let mut since_progress = Instant::now();
        let max_attempts = self.options.max_retries.saturating_add(1);
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
                    failure,
                    progressed,
                } => {
                    if progressed {
                        failures = 1;
                        since_progress = Instant::now();
                    } else {
                        failures += 1;
                    }
                    let delay = self.backoff(failures);
                    let waited = since_progress.elapsed();
                    if failures >= max_attempts
                        || waited.saturating_add(delay) > self.options.give_up_after
                    {
                        tracing::warn!(
                            kind = failure.kind.code(),
                            detail = %failure.detail,
                            attempts = failures,
                            "download gave up"
                        );
                        return Err(DownloadError::GaveUp {
                            attempts: failures,
                            seconds: waited.as_secs(),
                            last: failure,
                        });
                    }
                    tracing::info!(
                        kind = failure.kind.code(),
                        detail = %failure.detail,
                        attempt = failures,
                        ?delay,
                        "download retrying"
                    );
                    progress(Progress::Retrying {
                        next_attempt: failures + 1,
                        max_attempts,
                        delay,
                        failure,
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
        let host = host_of(&spec.url);
        let response = tokio::select! {
            sent = tokio::time::timeout(stall, request.send()) => match sent {
                Err(_) => {
                    let detail = format!("no answer within {} s", stall.as_secs());
                    return Err(retry(failure(FailureKind::Timeout, &host, detail), false));
                }
                Ok(Err(e)) => return Err(retry(classify(&e, &host), false)),
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
                host: &host,
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
                    let detail = "the server resumed at another offset".to_owned();
                    return Err(retry(
                        failure(FailureKind::Network, &host_of(&spec.url), detail),
                        false,
                    ));
                }
            },
            StatusCode::OK => (0, response.content_length()),
            StatusCode::RANGE_NOT_SATISFIABLE => {
                // The partial file is at least as long as the file: it is whole or wrong;
                // the checksum decides which after the start-over below, never a guess.
                remove_if_exists(partial).await?;
                let detail = "the server refused the resume range".to_owned();
                return Err(retry(
                    failure(FailureKind::Network, &host_of(&spec.url), detail),
                    false,
                ));
            }
            s if s.is_server_error()
                || s == StatusCode::REQUEST_TIMEOUT
                || s == StatusCode::TOO_MANY_REQUESTS =>
            {
                let mut f = failure(
                    FailureKind::ServerError,
                    &host_of(&spec.url),
                    format!("HTTP {s}"),
                );
                f.status = Some(s.as_u16());
                return Err(retry(f, false));
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
    host: &'a str,
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
        host,
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
            Err(_) => {
                let detail = format!("no data for {} s", stall.as_secs());
                break Err(retry(
                    failure(FailureKind::Stalled, host, detail),
                    progressed,
                ));
            }
            Ok(None) => break Ok(()),
            Ok(Some(Err(e))) => {
                let mut f = classify(&e, host);
                // Mid-body, anything but a classified cause is the line dropping.
                if f.kind == FailureKind::Network {
                    f.kind = FailureKind::Dropped;
                }
                break Err(retry(f, progressed));
            }
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
            failure(
                FailureKind::Dropped,
                host,
                "the connection closed before the end of the file".to_owned(),
            ),
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

fn retry(failure: Failure, progressed: bool) -> Interrupt {
    Interrupt::Retry {
        failure,
        progressed,
    }
}

fn failure(kind: FailureKind, host: &str, detail: String) -> Failure {
    Failure {
        kind,
        host: host.to_owned(),
        status: None,
        detail,
    }
}

/// The URL's host ("huggingface.co"), or the URL itself when it has none.
fn host_of(url: &str) -> String {
    reqwest::Url::parse(url)
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned))
        .unwrap_or_else(|| url.to_owned())
}

/// Reads what a failed request says about its cause: the OS error in its source chain
/// (refused, unreachable, reset), the resolver's failure, or a timeout.
pub fn classify(e: &reqwest::Error, host: &str) -> Failure {
    let detail = error_chain(e);
    let mut kind = None;
    let mut source: Option<&(dyn std::error::Error + 'static)> = Some(e);
    while let Some(s) = source {
        if let Some(io) = s.downcast_ref::<std::io::Error>() {
            kind = kind.or_else(|| io_kind(io));
        }
        source = s.source();
    }
    let lower = detail.to_ascii_lowercase();
    let kind = kind.unwrap_or(if is_dns_failure(&lower) {
        FailureKind::Dns
    } else if e.is_timeout() {
        FailureKind::Timeout
    } else {
        FailureKind::Network
    });
    // With no route out, a failed look-up is the network missing, not the name.
    let kind = match kind {
        FailureKind::Dns if !has_default_route() => FailureKind::NoNetwork,
        k => k,
    };
    failure(kind, host, detail)
}

fn io_kind(io: &std::io::Error) -> Option<FailureKind> {
    use std::io::ErrorKind as K;
    Some(match io.kind() {
        K::ConnectionRefused => FailureKind::Refused,
        K::NetworkUnreachable | K::NetworkDown | K::HostUnreachable => FailureKind::NoNetwork,
        K::ConnectionReset | K::ConnectionAborted | K::BrokenPipe | K::UnexpectedEof => {
            FailureKind::Dropped
        }
        K::TimedOut => FailureKind::Timeout,
        _ => return None,
    })
}

/// hyper's resolver says "dns error"; getaddrinfo "failed to lookup address".
fn is_dns_failure(lower: &str) -> bool {
    lower.contains("dns error")
        || lower.contains("failed to lookup address")
        || lower.contains("name or service not known")
        || lower.contains("no such host")
        || lower.contains("nodename nor servname")
        || lower.contains("temporary failure in name resolution")
}

/// False only when the routing tables say plainly there is no way out (Linux); true when
/// they cannot be read, so a look-up failure then stays a DNS failure.
pub fn has_default_route() -> bool {
    #[cfg(target_os = "linux")]
    {
        let v4 = std::fs::read_to_string("/proc/net/route");
        let v6 = std::fs::read_to_string("/proc/net/ipv6_route");
        if v4.is_err() && v6.is_err() {
            return true;
        }
        let v4_default = v4.is_ok_and(|t| {
            t.lines().skip(1).any(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                f.len() > 7 && f[0] != "lo" && f[1] == "00000000" && f[7] == "00000000"
            })
        });
        let v6_default = v6.is_ok_and(|t| {
            t.lines().any(|l| {
                let f: Vec<&str> = l.split_whitespace().collect();
                // destination ::/0 through a real interface, not the loopback's reject route
                f.len() > 9 && f[0].bytes().all(|b| b == b'0') && f[1] == "00" && f[9] != "lo"
            })
        });
        v4_default || v6_default
    }
    #[cfg(not(target_os = "linux"))]
    {
        true
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
