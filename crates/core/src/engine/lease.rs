//! One engine per company. Two engines on one company would think twice for everyone
//! and could run an approved action twice, so whoever starts an engine takes its lease
//! first and holds it for the engine's life:
//!
//! - On PostgreSQL, a session-level advisory lock on a connection of its own. The
//!   server drops it the moment that session ends (a `kill -9` included), so a standby
//!   that retries every [`STANDBY_RETRY`] takes over within seconds. The holder pings
//!   its lock session every [`CHECK_EVERY`]; when the ping fails the lease may already
//!   be someone else's, so [`EngineLease::lost`] fires and the engine must stop.
//! - On SQLite, an OS lock on a file beside the database (the OS drops it with the
//!   process). The file is local: a second engine is refused with the holder's pid
//!   rather than kept waiting, as nobody supervises a desktop's standby.
//!
//! Whoever takes over starts with the engine's bootstrap, which finishes what the
//! dead engine interrupted (pending thoughts, approved actions, owed reports).

use std::io::{Read, Seek, Write};
use std::path::{Path, PathBuf};
use std::time::Duration;

use cubicle_store::lease::{LeaseSite, ServerLock};
use tokio_util::sync::CancellationToken;

use crate::AppCore;

/// How often a standby asks for the lease.
pub const STANDBY_RETRY: Duration = Duration::from_secs(2);
/// How often the holder checks that its lock session is alive.
pub const CHECK_EVERY: Duration = Duration::from_secs(5);
/// A check that takes longer than this counts as a lost session.
const CHECK_TIMEOUT: Duration = Duration::from_secs(5);
/// A standby says again that it is waiting this often, so a journal shows it alive.
const STANDBY_NOTE_EVERY: Duration = Duration::from_secs(60);

#[derive(Debug, thiserror::Error)]
pub enum LeaseError {
    #[error(
        "another engine runs this company ({holder}); stop it first — one company, one engine (lock file {path})"
    )]
    HeldLocally { holder: String, path: PathBuf },
    #[error("another engine runs this company ({holder})")]
    HeldOnServer { holder: String },
    #[error("could not use the engine lock file {path}: {source}")]
    LockFile {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("the engine lease on the database server failed: {0}")]
    Server(#[from] cubicle_store::DbErr),
    #[error("stopped while standing by")]
    Cancelled,
}

/// The right to run this company's engine, until dropped (or lost on a server).
pub struct EngineLease {
    /// The lock file, locked; `None` on a server or in memory.
    _file: Option<std::fs::File>,
    /// Fires when the server session holding the lock is gone.
    lost: CancellationToken,
    /// Ends the server check (and with it the lock session) when the lease is dropped.
    release: CancellationToken,
    holder: String,
}

impl std::fmt::Debug for EngineLease {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("EngineLease")
            .field("holder", &self.holder)
            .finish_non_exhaustive()
    }
}

impl Drop for EngineLease {
    fn drop(&mut self) {
        self.release.cancel();
    }
}

impl EngineLease {
    /// Takes the lease once: refused with who holds it if another engine does.
    pub async fn try_take(core: &AppCore) -> Result<Self, LeaseError> {
        let holder = this_holder();
        match cubicle_store::lease::lease_site(&core.db) {
            LeaseSite::Private => Ok(Self::held(None, holder)),
            LeaseSite::File(path) => {
                let file = lock_file(&path, &holder)?;
                Ok(Self::held(Some(file), holder))
            }
            LeaseSite::Server => {
                let company = company_id(core).await?;
                match ServerLock::try_take(&core.db, company, &holder).await? {
                    Some(lock) => Ok(Self::watched(lock, holder)),
                    None => Err(LeaseError::HeldOnServer {
                        holder: cubicle_store::lease::server_holder(&core.db, company)
                            .await
                            .ok()
                            .flatten()
                            .unwrap_or_else(|| "holder not visible to this role".into()),
                    }),
                }
            }
        }
    }

    /// Takes the lease, standing by on a server until the holder is gone (or `cancel`
    /// fires); on a local file a held lease is refused at once.
    pub async fn take_or_stand_by(
        core: &AppCore,
        cancel: &CancellationToken,
    ) -> Result<Self, LeaseError> {
        let mut noted: Option<std::time::Instant> = None;
        loop {
            match Self::try_take(core).await {
                Err(LeaseError::HeldOnServer { holder }) => {
                    if noted.is_none_or(|at| at.elapsed() >= STANDBY_NOTE_EVERY) {
                        tracing::info!(%holder, "another engine runs this company; standing by");
                        noted = Some(std::time::Instant::now());
                    }
                }
                Ok(lease) => {
                    tracing::info!(holder = %lease.holder, took_over = noted.is_some(), "engine lease taken; this engine runs the company");
                    return Ok(lease);
                }
                Err(e) => return Err(e),
            }
            tokio::select! {
                () = cancel.cancelled() => return Err(LeaseError::Cancelled),
                () = tokio::time::sleep(STANDBY_RETRY) => {}
            }
        }
    }

    /// Resolves when the lease is lost (its server session failed a check): the engine
    /// must stop at once. Never resolves for a lock file, which the OS keeps.
    pub async fn lost(&self) {
        self.lost.cancelled().await;
    }

    /// This process, as other engines are told about it.
    pub fn holder(&self) -> &str {
        &self.holder
    }

    fn held(file: Option<std::fs::File>, holder: String) -> Self {
        Self {
            _file: file,
            lost: CancellationToken::new(),
            release: CancellationToken::new(),
            holder,
        }
    }

    /// A server lease, checked every [`CHECK_EVERY`] on its own session.
    fn watched(lock: ServerLock, holder: String) -> Self {
        let lease = Self::held(None, holder);
        tokio::spawn(watch(lock, lease.lost.clone(), lease.release.clone()));
        lease
    }
}

/// Pings the lock session until the lease is released (closing the session) or the
/// ping fails (the lease is lost).
async fn watch(mut lock: ServerLock, lost: CancellationToken, release: CancellationToken) {
    loop {
        tokio::select! {
            () = release.cancelled() => {
                lock.release().await;
                return;
            }
            () = tokio::time::sleep(CHECK_EVERY) => {}
        }
        let failure = match tokio::time::timeout(CHECK_TIMEOUT, lock.ping()).await {
            Ok(Ok(())) => continue,
            Ok(Err(e)) => e.to_string(),
            Err(_) => format!("no answer within {CHECK_TIMEOUT:?}"),
        };
        tracing::error!(error = %failure, "the engine lease's session is gone; stopping the engine");
        lost.cancel();
        return;
    }
}

async fn company_id(core: &AppCore) -> Result<i32, cubicle_store::DbErr> {
    // One company per database: before there is one, the lease is the database's.
    Ok(cubicle_store::org::find_company(&core.db)
        .await?
        .map_or(0, |c| c.id))
}

/// `pid N on HOST`: what a refused or waiting engine is told about the holder.
fn this_holder() -> String {
    let host = std::fs::read_to_string("/proc/sys/kernel/hostname")
        .ok()
        .or_else(|| std::env::var("HOSTNAME").ok())
        .or_else(|| std::env::var("COMPUTERNAME").ok())
        .map(|h| h.trim().to_owned())
        .filter(|h| !h.is_empty())
        .unwrap_or_else(|| "this host".into());
    format!("cubicle engine, pid {} on {host}", std::process::id())
}

/// Locks `path` (creating it) and writes the holder into it; refused with the holder
/// written there when another process has it locked.
fn lock_file(path: &Path, holder: &str) -> Result<std::fs::File, LeaseError> {
    let io = |source| LeaseError::LockFile {
        path: path.to_path_buf(),
        source,
    };
    let mut file = std::fs::OpenOptions::new()
        .read(true)
        .write(true)
        .create(true)
        .truncate(false)
        .open(path)
        .map_err(io)?;
    match file.try_lock() {
        Ok(()) => {}
        Err(std::fs::TryLockError::WouldBlock) => {
            let mut other = String::new();
            let _ = file.read_to_string(&mut other);
            let other = other.trim();
            return Err(LeaseError::HeldLocally {
                holder: if other.is_empty() {
                    "holder unknown".into()
                } else {
                    other.to_owned()
                },
                path: path.to_path_buf(),
            });
        }
        Err(std::fs::TryLockError::Error(e)) => return Err(io(e)),
    }
    file.set_len(0).map_err(io)?;
    file.rewind().map_err(io)?;
    file.write_all(holder.as_bytes()).map_err(io)?;
    file.flush().map_err(io)?;
    Ok(file)
}
