//! Tracing to daily-rolling files in the app log dir (14 kept), plus stderr.

use std::path::Path;
use std::sync::Mutex;

use tracing_appender::non_blocking::{NonBlockingBuilder, WorkerGuard};
use tracing_appender::rolling::{Builder, Rotation};
use tracing_subscriber::{EnvFilter, fmt, prelude::*};

/// Log files kept before the oldest is deleted.
const MAX_LOG_FILES: usize = 14;
/// Lines queued for the log file's writer thread before new ones are dropped (never
/// blocking the app). The queue is allocated, and touched, whole when logging starts:
/// tracing-appender's default of 128,000 lines held 4 MB of the app's memory from its
/// first moment; a burst of this many lines is already far beyond a normal run's.
const LOG_QUEUE_LINES: usize = 8_192;

/// Keeps the non-blocking writer alive; dropping it flushes the logs.
pub struct LogGuard(Mutex<Option<WorkerGuard>>);

impl LogGuard {
    /// Writes out what is queued and closes the log file (at exit: Tauri ends the
    /// process without dropping app state). Later lines still reach stderr.
    pub fn flush(&self) {
        let guard = self
            .0
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .take();
        drop(guard);
    }
}

pub use cubicle_core::DEFAULT_LOG_FILTER as DEFAULT_FILTER;

pub fn init(dir: &Path, default_filter: &str) -> Result<LogGuard, Box<dyn std::error::Error>> {
    std::fs::create_dir_all(dir)?;
    let appender = Builder::new()
        .rotation(Rotation::DAILY)
        .filename_prefix("cubicle")
        .filename_suffix("log")
        .max_log_files(MAX_LOG_FILES)
        .build(dir)?;
    let (writer, guard) = NonBlockingBuilder::default()
        .buffered_lines_limit(LOG_QUEUE_LINES)
        .lossy(true)
        .finish(appender);
    let filter =
        EnvFilter::try_from_env("CUBICLE_LOG").unwrap_or_else(|_| EnvFilter::new(default_filter));
    let registry = tracing_subscriber::registry()
        .with(filter)
        .with(fmt::layer().json().with_writer(writer))
        .with(fmt::layer().with_writer(std::io::stderr));
    // A second init (tests) keeps the first subscriber; that is fine.
    let _ = registry.try_init();
    Ok(LogGuard(Mutex::new(Some(guard))))
}
