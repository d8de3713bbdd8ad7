//! The download manager against a real HTTP server on 127.0.0.1 that serves a real GGUF
//! (the built-in SmolLM2 file when it is installed, else a generated one) and misbehaves
//! on cue: a connection dropped mid-file, a stall, wrong bytes, a server ignoring
//! `Range`, error statuses, a disk that fills up.
#![allow(clippy::unwrap_used, clippy::expect_used)]

use std::path::{Path, PathBuf};
use std::time::Duration;

use cubicle_llm::download::fixture::{Fault, FileServer};
use cubicle_llm::download::{
    DownloadError, DownloadOptions, DownloadSpec, Downloader, Failure, FailureKind, Outcome,
    Progress, Signal, partial_path, sync_and_hash,
};
use tokio::sync::watch;

/// A GGUF-looking file: the magic, then bytes from a seeded generator.
fn generated_gguf(len: usize) -> Vec<u8> {
    let mut bytes = b"GGUF".to_vec();
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    while bytes.len() < len {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        bytes.extend_from_slice(&x.to_le_bytes());
    }
    bytes.truncate(len);
    bytes
}

/// The installed built-in model when there is one: real bytes of a real model.
async fn real_gguf() -> FileServer {
    let path = cubicle_llm::model_file::default_model_path();
    if path.is_file() {
        return FileServer::serve_file(&path).await.unwrap();
    }
    eprintln!(
        "{} is not installed (scripts/setup.sh installs it): serving a generated GGUF",
        path.display()
    );
    FileServer::start(generated_gguf(24 << 20)).await.unwrap()
}

async fn small_gguf() -> FileServer {
    FileServer::start(generated_gguf(3 << 20)).await.unwrap()
}

fn sha256(bytes: &[u8]) -> String {
    use sha2::{Digest, Sha256};
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn spec(server: &FileServer, dir: &Path) -> DownloadSpec {
    DownloadSpec {
        url: server.url("model.gguf"),
        dest: dir.join("model.gguf"),
        sha256: sha256(server.bytes()),
        size: Some(server.bytes().len() as u64),
    }
}

fn fast_options() -> DownloadOptions {
    DownloadOptions {
        stall_timeout: Duration::from_secs(1),
        connect_timeout: Duration::from_secs(2),
        max_retries: 3,
        give_up_after: Duration::from_secs(60),
        backoff_initial: Duration::from_millis(20),
        backoff_max: Duration::from_millis(200),
        reserve_bytes: 0,
    }
}

/// Runs a download to its end, collecting every progress report.
async fn run(
    spec: &DownloadSpec,
    options: DownloadOptions,
    control: &mut watch::Receiver<Signal>,
) -> (Result<Outcome, DownloadError>, Vec<Progress>) {
    let downloader = Downloader::new(options).unwrap();
    let mut seen = Vec::new();
    let result = downloader
        .download(spec, control, &mut |p| seen.push(p))
        .await;
    (result, seen)
}

fn never_stopped() -> watch::Receiver<Signal> {
    let (tx, rx) = watch::channel(Signal::Run);
    // Keep the sender alive for the whole test without holding it.
    std::mem::forget(tx);
    rx
}

fn assert_installed(result: &Result<Outcome, DownloadError>, spec: &DownloadSpec) {
    match result {
        Ok(Outcome::Installed { path }) => assert_eq!(path, &spec.dest),
        other => panic!("expected an installed file, got {other:?}"),
    }
    assert_eq!(sync_and_hash(&spec.dest).unwrap(), spec.sha256);
    assert!(
        !partial_path(&spec.dest).exists(),
        "the partial file is gone"
    );
}

fn retries(progress: &[Progress]) -> Vec<FailureKind> {
    progress
        .iter()
        .filter_map(|p| match p {
            Progress::Retrying { failure, .. } => Some(failure.kind),
            _ => None,
        })
        .collect()
}

/// Each retry's (next attempt, of how many).
fn attempts(progress: &[Progress]) -> Vec<(u32, u32)> {
    progress
        .iter()
        .filter_map(|p| match p {
            Progress::Retrying {
                next_attempt,
                max_attempts,
                ..
            } => Some((*next_attempt, *max_attempts)),
            _ => None,
        })
        .collect()
}

/// The failure a download gave up on, with its attempt count.
fn gave_up(result: Result<Outcome, DownloadError>) -> (u32, Failure) {
    match result {
        Err(DownloadError::GaveUp { attempts, last, .. }) => (attempts, last),
        other => panic!("expected it to give up, got {other:?}"),
    }
}

#[tokio::test]
async fn a_dropped_connection_resumes_with_range_and_ends_verified() {
    let server = real_gguf().await;
    let len = server.bytes().len() as u64;
    server.script(&[Fault::DropAfter(len / 3), Fault::DropAfter(len / 3)]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());

    let (result, progress) = run(&spec, fast_options(), &mut never_stopped()).await;

    assert_installed(&result, &spec);
    let starts: Vec<_> = server.seen().iter().map(|s| s.range_start).collect();
    assert_eq!(starts, vec![None, Some(len / 3), Some(2 * (len / 3))]);
    assert_eq!(retries(&progress).len(), 2, "{progress:?}");
    assert!(
        progress
            .iter()
            .any(|p| matches!(p, Progress::Verifying { total } if *total == len))
    );
}

#[tokio::test]
async fn a_stall_is_detected_and_the_download_resumes() {
    let server = real_gguf().await;
    let len = server.bytes().len() as u64;
    server.script(&[Fault::StallAfter(len / 4)]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());

    let started = std::time::Instant::now();
    let (result, progress) = run(&spec, fast_options(), &mut never_stopped()).await;

    assert_installed(&result, &spec);
    assert_eq!(retries(&progress), vec![FailureKind::Stalled]);
    let starts: Vec<_> = server.seen().iter().map(|s| s.range_start).collect();
    assert_eq!(starts, vec![None, Some(len / 4)]);
    assert!(
        started.elapsed() >= Duration::from_secs(1),
        "waited for the stall timer"
    );
}

#[tokio::test]
async fn stalling_every_time_gives_up_with_a_stalled_error_and_keeps_the_bytes() {
    let server = small_gguf().await;
    server.script(&[
        Fault::StallAfter(1000),
        Fault::StallAfter(0),
        Fault::StallAfter(0),
        Fault::StallAfter(0),
    ]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());
    let options = DownloadOptions {
        max_retries: 2,
        ..fast_options()
    };

    let (result, _) = run(&spec, options, &mut never_stopped()).await;

    match result {
        Err(e @ DownloadError::GaveUp { .. }) => assert_eq!(e.code(), "stalled"),
        other => panic!("expected a stall, got {other:?}"),
    }
    assert!(!spec.dest.exists(), "never installed");
    assert_eq!(
        std::fs::metadata(partial_path(&spec.dest)).unwrap().len(),
        1000,
        "what arrived is kept for a resume"
    );
}

#[tokio::test]
async fn a_wrong_checksum_leaves_no_usable_file_and_says_so() {
    let server = real_gguf().await;
    server.set_corrupt(true);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());

    let (result, _) = run(&spec, fast_options(), &mut never_stopped()).await;

    let err = result.unwrap_err();
    match &err {
        DownloadError::ChecksumMismatch { expected, actual } => {
            assert_eq!(expected, &spec.sha256);
            assert_ne!(actual, expected);
        }
        other => panic!("expected a checksum mismatch, got {other:?}"),
    }
    assert!(err.to_string().contains("was deleted"), "{err}");
    assert!(!spec.dest.exists());
    assert!(!partial_path(&spec.dest).exists());
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

#[tokio::test]
async fn a_server_that_ignores_range_restarts_from_zero_cleanly() {
    let server = real_gguf().await;
    let len = server.bytes().len() as u64;
    server.script(&[Fault::DropAfter(len / 2), Fault::IgnoreRange]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());

    let (result, _) = run(&spec, fast_options(), &mut never_stopped()).await;

    assert_installed(&result, &spec);
    let seen = server.seen();
    assert_eq!(seen[1].range_start, Some(len / 2), "asked to resume");
    assert_eq!(
        seen[1].fault,
        Fault::IgnoreRange,
        "got the whole file instead"
    );
    assert_eq!(std::fs::metadata(&spec.dest).unwrap().len(), len);
}

#[tokio::test]
async fn pause_keeps_the_partial_file_and_resume_finishes_it() {
    let server = small_gguf().await;
    server.set_chunk_delay(Duration::from_millis(30));
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());
    let (tx, mut rx) = watch::channel(Signal::Run);
    let downloader = Downloader::new(fast_options()).unwrap();

    let mut paused_once = false;
    let outcome = downloader
        .download(&spec, &mut rx, &mut |p| {
            if let Progress::Downloading { received, .. } = p
                && received > 0
                && !paused_once
            {
                paused_once = true;
                tx.send(Signal::Pause).unwrap();
            }
        })
        .await
        .unwrap();

    let Outcome::Paused { received } = outcome else {
        panic!("expected a pause, got {outcome:?}");
    };
    assert!(received > 0 && received < server.bytes().len() as u64);
    assert!(!spec.dest.exists(), "a paused download is never installed");
    assert_eq!(
        std::fs::metadata(partial_path(&spec.dest)).unwrap().len(),
        received
    );

    server.set_chunk_delay(Duration::ZERO);
    tx.send(Signal::Run).unwrap();
    let (result, _) = run(&spec, fast_options(), &mut rx).await;
    assert_installed(&result, &spec);
    assert_eq!(server.seen().last().unwrap().range_start, Some(received));
}

#[tokio::test]
async fn cancel_deletes_the_partial_file() {
    let server = small_gguf().await;
    server.set_chunk_delay(Duration::from_millis(30));
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());
    let (tx, mut rx) = watch::channel(Signal::Run);
    let downloader = Downloader::new(fast_options()).unwrap();

    let result = downloader
        .download(&spec, &mut rx, &mut |p| {
            if matches!(p, Progress::Downloading { received, .. } if received > 0) {
                let _ = tx.send(Signal::Cancel);
            }
        })
        .await;

    let err = result.unwrap_err();
    assert!(matches!(err, DownloadError::Cancelled), "{err:?}");
    assert_eq!(err.code(), "cancelled");
    assert!(!partial_path(&spec.dest).exists());
    assert!(!spec.dest.exists());
}

#[tokio::test]
async fn too_little_free_space_is_refused_before_any_byte_with_the_figures() {
    let server = small_gguf().await;
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());
    let free = cubicle_llm::download::available_space(dir.path()).unwrap();
    // A reserve larger than the disk: the real free-space figure cannot cover it.
    let options = DownloadOptions {
        reserve_bytes: free + 1,
        ..fast_options()
    };

    let (result, _) = run(&spec, options, &mut never_stopped()).await;

    match result {
        Err(
            ref e @ DownloadError::DiskFull {
                needed, available, ..
            },
        ) => {
            assert_eq!(needed, free + 1 + server.bytes().len() as u64);
            assert!(available < needed);
            assert!(
                e.to_string().contains(&format!("{needed} bytes needed")),
                "{e}"
            );
        }
        other => panic!("expected disk full, got {other:?}"),
    }
    assert!(server.seen().is_empty(), "nothing was requested");
    assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
}

/// A small tmpfs mounted for the test (the test runs as root in CI); `None` elsewhere.
struct Tmpfs(PathBuf);

impl Tmpfs {
    fn mount(bytes: u64) -> Option<Self> {
        let dir = tempfile::tempdir().ok()?.keep();
        let ok = std::process::Command::new("mount")
            .args(["-t", "tmpfs", "-o", &format!("size={bytes}"), "tmpfs"])
            .arg(&dir)
            .status()
            .is_ok_and(|s| s.success());
        ok.then_some(Tmpfs(dir))
    }
}

impl Drop for Tmpfs {
    fn drop(&mut self) {
        let _ = std::process::Command::new("umount").arg(&self.0).status();
        let _ = std::fs::remove_dir(&self.0);
    }
}

#[tokio::test]
async fn a_disk_that_fills_up_mid_download_is_a_disk_full_error() {
    let Some(fs) = Tmpfs::mount(4 << 20) else {
        eprintln!("skipped: mounting a tmpfs needs root (CI runs as root)");
        return;
    };
    let server = small_gguf().await;
    server.set_chunk_delay(Duration::from_millis(20));
    let spec = spec(&server, &fs.0);
    let (_tx, mut rx) = watch::channel(Signal::Run);
    let downloader = Downloader::new(fast_options()).unwrap();

    // Something else fills the disk once the download is under way.
    let filler = fs.0.join("other-program.bin");
    let mut filled = false;
    let result = downloader
        .download(&spec, &mut rx, &mut |p| {
            if matches!(p, Progress::Downloading { .. }) && !filled {
                filled = true;
                let _ = std::fs::write(&filler, vec![0u8; 3 << 20]);
            }
        })
        .await;

    match result {
        Err(
            ref e @ DownloadError::DiskFull {
                needed, available, ..
            },
        ) => {
            assert!(needed > available, "{e}");
            assert_eq!(e.code(), "disk_full");
        }
        other => panic!("expected disk full, got {other:?}"),
    }
    assert!(!spec.dest.exists(), "never installed");
}

#[tokio::test]
async fn an_http_error_status_is_reported_with_the_status() {
    let server = small_gguf().await;
    server.script(&[Fault::Status(404)]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());

    let (result, _) = run(&spec, fast_options(), &mut never_stopped()).await;

    match result {
        Err(DownloadError::Http { status, ref url }) => {
            assert_eq!(status, 404);
            assert_eq!(url, &spec.url);
        }
        other => panic!("expected HTTP 404, got {other:?}"),
    }
    assert_eq!(server.seen().len(), 1, "a 404 is not retried");
}

#[tokio::test]
async fn server_errors_are_retried_a_bounded_number_of_times() {
    let server = small_gguf().await;
    server.script(&[Fault::Status(503); 10]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());

    let (result, progress) = run(&spec, fast_options(), &mut never_stopped()).await;

    let (tries, last) = gave_up(result);
    assert_eq!(tries, 4, "one try and three retries");
    assert_eq!(last.kind, FailureKind::ServerError);
    assert_eq!(last.status, Some(503));
    assert_eq!(server.seen().len(), 4, "one try and three retries");
    assert_eq!(retries(&progress), vec![FailureKind::ServerError; 3]);
    assert_eq!(attempts(&progress), vec![(2, 4), (3, 4), (4, 4)]);
}

#[tokio::test]
async fn a_503_then_success_installs() {
    let server = small_gguf().await;
    server.script(&[Fault::Status(503)]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());

    let (result, _) = run(&spec, fast_options(), &mut never_stopped()).await;

    assert_installed(&result, &spec);
}

#[tokio::test]
async fn a_server_with_another_size_is_refused() {
    let server = small_gguf().await;
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&server, dir.path());
    spec.size = Some(server.bytes().len() as u64 + 1);

    let (result, _) = run(&spec, fast_options(), &mut never_stopped()).await;

    assert!(
        matches!(result, Err(DownloadError::SizeMismatch { .. })),
        "{result:?}"
    );
    assert!(!spec.dest.exists() && !partial_path(&spec.dest).exists());
}

#[tokio::test]
async fn a_folder_or_a_partial_name_is_a_bad_path() {
    let server = small_gguf().await;
    let dir = tempfile::tempdir().unwrap();
    let mut spec = spec(&server, dir.path());
    spec.dest = dir.path().to_owned();
    let (result, _) = run(&spec, fast_options(), &mut never_stopped()).await;
    assert!(
        matches!(result, Err(DownloadError::BadPath { .. })),
        "{result:?}"
    );

    spec.dest = dir.path().join("x.gguf.partial");
    let (result, _) = run(&spec, fast_options(), &mut never_stopped()).await;
    let err = result.unwrap_err();
    assert_eq!(err.code(), "bad_path");
    assert!(server.seen().is_empty());
}

#[tokio::test]
async fn an_existing_whole_partial_is_verified_without_a_request() {
    let server = small_gguf().await;
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());
    std::fs::write(partial_path(&spec.dest), server.bytes()).unwrap();

    let (result, _) = run(&spec, fast_options(), &mut never_stopped()).await;

    assert_installed(&result, &spec);
    assert!(server.seen().is_empty());
}

/// A spec for a URL where nothing serves the file.
fn spec_at(url: &str, dir: &Path) -> DownloadSpec {
    DownloadSpec {
        url: url.to_owned(),
        dest: dir.join("model.gguf"),
        sha256: "0".repeat(64),
        size: Some(1 << 20),
    }
}

/// Runs a download that cannot succeed and returns how it gave up and what it reported.
async fn failing(url: &str, options: DownloadOptions) -> (u32, Failure, Vec<Progress>, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    let spec = spec_at(url, dir.path());
    let (result, progress) = run(&spec, options, &mut never_stopped()).await;
    assert!(!spec.dest.exists(), "nothing installed");
    let (tries, last) = gave_up(result);
    (tries, last, progress, dir.keep())
}

#[tokio::test]
async fn an_unresolvable_host_is_a_dns_failure_counted_and_bounded() {
    let (tries, last, progress, dir) =
        failing("http://nowhere.invalid/model.gguf", fast_options()).await;

    assert_eq!(last.kind, FailureKind::Dns, "{last:?}");
    assert_eq!(last.host, "nowhere.invalid");
    assert_eq!(last.to_string(), "could not resolve nowhere.invalid");
    assert_eq!(tries, 4, "one try and three retries");
    assert_eq!(retries(&progress), vec![FailureKind::Dns; 3]);
    assert_eq!(attempts(&progress), vec![(2, 4), (3, 4), (4, 4)]);
    assert!(
        !partial_path(&dir.join("model.gguf")).exists(),
        "no partial file from a download that never got a byte"
    );
    let err = DownloadError::GaveUp {
        attempts: tries,
        seconds: 0,
        last,
    };
    assert_eq!(err.code(), "dns");
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn a_closed_port_is_a_refused_connection() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let url = format!("http://127.0.0.1:{port}/model.gguf");

    let (tries, last, progress, dir) = failing(&url, fast_options()).await;

    assert_eq!(last.kind, FailureKind::Refused, "{last:?}");
    assert_eq!(last.host, "127.0.0.1");
    assert_eq!(tries, 4);
    assert_eq!(retries(&progress), vec![FailureKind::Refused; 3]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn no_route_out_is_no_network() {
    // The limited broadcast address has no route for a TCP connect: the kernel answers
    // ENETUNREACH at once, as it does for every address on a machine with no network.
    let (tries, last, progress, dir) =
        failing("http://255.255.255.255:9/model.gguf", fast_options()).await;

    assert_eq!(last.kind, FailureKind::NoNetwork, "{last:?}");
    assert_eq!(
        last.to_string(),
        "this computer is not connected to a network"
    );
    assert_eq!(tries, 4);
    assert_eq!(retries(&progress), vec![FailureKind::NoNetwork; 3]);
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn a_server_error_every_time_is_classified_with_its_status_and_bounded() {
    let server = small_gguf().await;
    server.script(&[Fault::Status(500); 10]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());
    let options = DownloadOptions {
        max_retries: 2,
        ..fast_options()
    };

    let (result, progress) = run(&spec, options, &mut never_stopped()).await;

    let (tries, last) = gave_up(result);
    assert_eq!(
        (tries, last.kind, last.status),
        (3, FailureKind::ServerError, Some(500))
    );
    assert_eq!(last.to_string(), "127.0.0.1 answered HTTP 500");
    assert_eq!(server.seen().len(), 3, "bounded: one try and two retries");
    assert_eq!(attempts(&progress), vec![(2, 3), (3, 3)]);
    assert!(!partial_path(&spec.dest).exists() && !spec.dest.exists());
}

#[tokio::test]
async fn a_stall_every_time_is_classified_counted_and_bounded() {
    let server = small_gguf().await;
    server.script(&[Fault::StallAfter(0); 10]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());
    let options = DownloadOptions {
        max_retries: 2,
        ..fast_options()
    };

    let (result, progress) = run(&spec, options, &mut never_stopped()).await;

    let (tries, last) = gave_up(result);
    assert_eq!((tries, last.kind), (3, FailureKind::Stalled));
    assert_eq!(retries(&progress), vec![FailureKind::Stalled; 2]);
    assert_eq!(attempts(&progress), vec![(2, 3), (3, 3)]);
    assert_eq!(server.seen().len(), 3);
}

#[tokio::test]
async fn it_gives_up_after_the_time_bound_with_retries_left() {
    let port = {
        let l = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        l.local_addr().unwrap().port()
    };
    let options = DownloadOptions {
        max_retries: 1000,
        give_up_after: Duration::from_millis(500),
        backoff_initial: Duration::from_millis(100),
        backoff_max: Duration::from_millis(100),
        ..fast_options()
    };

    let (tries, last, _, dir) =
        failing(&format!("http://127.0.0.1:{port}/model.gguf"), options).await;

    assert_eq!(last.kind, FailureKind::Refused);
    // ~100 ms apart within half a second: a handful of attempts, never the thousand.
    assert!((2..=6).contains(&tries), "{tries} attempts");
    std::fs::remove_dir_all(dir).unwrap();
}

#[tokio::test]
async fn a_dropped_connection_is_reported_as_dropped() {
    let server = small_gguf().await;
    server.script(&[Fault::DropAfter(1000)]);
    let dir = tempfile::tempdir().unwrap();
    let spec = spec(&server, dir.path());

    let (result, progress) = run(&spec, fast_options(), &mut never_stopped()).await;

    assert_installed(&result, &spec);
    assert_eq!(retries(&progress), vec![FailureKind::Dropped]);
}
