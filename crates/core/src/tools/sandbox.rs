//! The box every process an employee starts runs in (`run_shell`, `run_cli`), built
//! with bubblewrap. Model output is untrusted, so the box, not a check of the command's
//! text, is what keeps a command in its folder.
//!
//! What the box allows, and nothing more:
//! - the folder it runs in, read-write; the rest of the file system read-only, with
//!   `/home`, `/root`, `/run` (the user's runtime dir, D-Bus sockets), `/tmp`, `/var/tmp`
//!   and the app's data dir (database, keychain files, other employees' folders) each
//!   replaced by an empty throwaway folder;
//! - a fresh `HOME` (`/tmp/home`, gone when the run ends), a clean environment (`PATH`,
//!   `HOME`, `LANG`, `TMPDIR` only);
//! - its own PID, IPC, UTS, cgroup and user namespaces, no capabilities, no new user
//!   namespaces inside: the engine's processes (and their `/proc/PID/environ`) are not
//!   visible;
//! - no network (an empty network namespace, so no abstract Unix sockets either) unless
//!   the boss allowed it for that employee;
//! - limits: CPU seconds, data memory and file size per process, and processes per box
//!   (`prlimit` inside the box, where the process count is the box's own; for an app
//!   running as root, which the kernel exempts from that limit, a pids cgroup per box);
//!   stdout and stderr are read up to a byte cap, then the box is killed;
//! - at the end (exit, time-out, a limit) the whole box goes: killing bubblewrap kills
//!   the PID namespace's init, and the kernel kills everything in it, `setsid` or not.
//!
//! When bubblewrap is missing or cannot build the box, the run is refused with
//! [`SandboxError`]: a command never runs unconfined.

mod pids;

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::Notify;

/// Where bubblewrap is looked for when the configuration names none. Not `PATH`: a
/// folder early on `PATH` could hold a fake `bwrap` that runs commands unconfined.
const BWRAP_CANDIDATES: [&str; 2] = ["/usr/bin/bwrap", "/usr/local/bin/bwrap"];
/// util-linux's `prlimit` sets the limits inside the box (after the user namespace
/// exists, so the process count is the box's own).
const PRLIMIT: &str = "/usr/bin/prlimit";
/// Replaced by empty folders: other users' and root's homes (SSH keys, keyrings), the
/// runtime dirs holding D-Bus and keyring sockets, shared temp folders.
const HIDDEN: [&str; 5] = ["/home", "/root", "/run", "/tmp", "/var/tmp"];
/// Never hidden, whatever the configuration says: the box's programs live there.
const SYSTEM: [&str; 7] = ["/usr", "/etc", "/bin", "/lib", "/lib64", "/sbin", "/opt"];
/// Run by `/bin/sh -c` with the cgroup's `cgroup.procs` as `$0` and bubblewrap's
/// command line after it.
const JOIN_CGROUP: &str =
    r#"echo $$ > "$0" || { echo "bwrap: could not join the cgroup $0" >&2; exit 1; }; exec "$@""#;
/// The box's own home, inside its private `/tmp`.
pub const BOX_HOME: &str = "/tmp/home";
/// Used when the app's own `PATH` is unset.
const FALLBACK_PATH: &str = "/usr/local/bin:/usr/bin:/bin";
/// How long output still in the pipes is collected once the box is gone.
const DRAIN: Duration = Duration::from_secs(2);

/// What a box may use. The defaults suit a build or a coding agent; tests lower them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BoxLimits {
    /// CPU seconds per process (on top of the wall-clock time limit of the tool).
    pub cpu_secs: u64,
    /// Heap and other writable private memory per process (`RLIMIT_DATA`, which unlike
    /// the address-space limit leaves runtimes that reserve large virtual ranges alone).
    pub memory_bytes: u64,
    /// Processes (and threads) in the box at once; further forks fail.
    pub max_processes: u32,
    /// Largest file a process may write.
    pub max_file_bytes: u64,
    /// Bytes read from stdout and from stderr each; past this the box is killed.
    pub max_output_bytes: usize,
    /// Size of the box's private `/tmp` (it lives in memory).
    pub tmp_bytes: u64,
}

impl Default for BoxLimits {
    fn default() -> Self {
        Self {
            cpu_secs: 600,
            memory_bytes: 4 << 30,
            max_processes: 256,
            max_file_bytes: 1 << 30,
            max_output_bytes: 1 << 20,
            tmp_bytes: 512 << 20,
        }
    }
}

/// How boxes are built on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxConfig {
    /// The bubblewrap binary (default: `CUBICLE_BWRAP`, else `/usr/bin` or
    /// `/usr/local/bin`).
    pub bwrap: Option<PathBuf>,
    /// Hidden besides the fixed ones: the app's data dir, the engine's own `HOME`…
    pub hidden: Vec<PathBuf>,
    pub limits: BoxLimits,
}

impl Default for SandboxConfig {
    fn default() -> Self {
        let mut hidden = Vec::new();
        // Wherever the user's home and runtime dir are, the box does not see them.
        for var in [
            "HOME",
            "XDG_RUNTIME_DIR",
            "XDG_DATA_HOME",
            "XDG_CONFIG_HOME",
        ] {
            if let Some(p) = std::env::var_os(var).filter(|v| !v.is_empty()) {
                hidden.push(PathBuf::from(p));
            }
        }
        hidden.extend(cubicle_store::db::app_data_dir());
        Self {
            // For a bubblewrap installed elsewhere (and to try the refusal).
            bwrap: std::env::var_os("CUBICLE_BWRAP")
                .filter(|v| !v.is_empty())
                .map(PathBuf::from),
            hidden,
            limits: BoxLimits::default(),
        }
    }
}

#[derive(Debug, thiserror::Error)]
pub enum SandboxError {
    #[error(
        "the sandbox is not available: bubblewrap was not found at {0} (install the `bubblewrap` \
         package); the command was not run"
    )]
    NoBwrap(String),
    #[error(
        "the sandbox is not available: {PRLIMIT} was not found (install `util-linux`); the \
         command was not run"
    )]
    NoPrlimit,
    #[error(
        "the sandbox could not be set up ({0}); the command was not run. Bubblewrap needs \
         unprivileged user namespaces (on Ubuntu, an AppArmor profile that allows bwrap)"
    )]
    Setup(String),
    #[error("the sandbox could not start: {0}")]
    Io(String),
}

/// One run: what runs, where, and with what.
#[derive(Clone, Debug)]
pub struct BoxSpec<'a> {
    /// Given to `sh -c`.
    pub command: &'a str,
    /// The one folder the box may write (and its working directory); canonical.
    pub folder: &'a Path,
    pub network: bool,
    pub stdin: Option<&'a str>,
    /// Wall-clock limit; the box is killed after it.
    pub timeout: Duration,
}

/// Why a box stopped before its command ended by itself.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize, schemars::JsonSchema,
)]
#[serde(rename_all = "snake_case")]
pub enum Stopped {
    TimedOut,
    /// Stdout or stderr passed [`BoxLimits::max_output_bytes`].
    OutputLimit,
}

/// What came out of a box.
#[derive(Clone, Debug)]
pub struct BoxRun {
    /// `None` when a signal ended it (or the box was killed).
    pub exit_code: Option<i32>,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub stopped: Option<Stopped>,
}

/// The bubblewrap binary this configuration uses, if it is there.
pub fn find_bwrap(config: &SandboxConfig) -> Result<PathBuf, SandboxError> {
    match &config.bwrap {
        Some(p) if p.is_file() => Ok(p.clone()),
        Some(p) => Err(SandboxError::NoBwrap(p.display().to_string())),
        None => BWRAP_CANDIDATES
            .iter()
            .map(PathBuf::from)
            .find(|p| p.is_file())
            .ok_or_else(|| SandboxError::NoBwrap(BWRAP_CANDIDATES.join(" or "))),
    }
}

/// Whether a box can be built here: runs `true` in one.
pub async fn probe(config: &SandboxConfig) -> Result<(), SandboxError> {
    let dir = std::env::temp_dir();
    let spec = BoxSpec {
        command: "true",
        folder: &dir,
        network: false,
        stdin: None,
        timeout: Duration::from_secs(10),
    };
    run(config, &spec).await.map(|_| ())
}

/// The bubblewrap arguments for `spec`, up to and including the command.
fn bwrap_args(config: &SandboxConfig, spec: &BoxSpec<'_>) -> Vec<String> {
    let mut a: Vec<String> = Vec::new();
    let mut push = |items: &[&str]| a.extend(items.iter().map(|s| (*s).to_owned()));
    push(&["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"]);
    let tmp_size = config.limits.tmp_bytes.to_string();
    for dir in HIDDEN {
        if dir == "/tmp" {
            push(&["--size", &tmp_size, "--tmpfs", dir]);
        } else if Path::new(dir).is_dir() {
            // Nothing of worth goes in these: keep them tiny.
            push(&["--size", "1048576", "--tmpfs", dir]);
        }
    }
    for p in config.hidden.iter().filter(|p| p.is_dir()) {
        // The folder itself may sit inside a hidden dir: it is bound back below. Those
        // inside a fixed hidden dir are hidden already; one holding the system (`/`,
        // `/usr`…) would leave the box without programs.
        let holds_system = SYSTEM.iter().any(|s| Path::new(s).starts_with(p));
        if !holds_system && p.is_absolute() && !HIDDEN.iter().any(|h| p.starts_with(h)) {
            let p = p.display().to_string();
            push(&["--size", "1048576", "--tmpfs", &p]);
        }
    }
    if spec.network {
        // `/etc/resolv.conf` may point into `/run` (systemd-resolved).
        for dir in ["/run/systemd/resolve", "/run/NetworkManager"] {
            if Path::new(dir).is_dir() {
                push(&["--ro-bind", dir, dir]);
            }
        }
    }
    let folder = spec.folder.display().to_string();
    push(&[
        "--dir", BOX_HOME, "--bind", &folder, &folder, "--chdir", &folder,
    ]);
    push(&["--unshare-all", "--unshare-user", "--disable-userns"]);
    if spec.network {
        push(&["--share-net"]);
    }
    push(&["--cap-drop", "ALL", "--die-with-parent", "--new-session"]);
    push(&[
        "--clearenv",
        "--setenv",
        "HOME",
        BOX_HOME,
        "--setenv",
        "TMPDIR",
        "/tmp",
    ]);
    let path = std::env::var("PATH").unwrap_or_else(|_| FALLBACK_PATH.to_owned());
    push(&["--setenv", "PATH", &path, "--setenv", "LANG", "C.UTF-8"]);
    let l = &config.limits;
    let limits = [
        format!("--cpu={}", l.cpu_secs.min(spec.timeout.as_secs() + 5)),
        format!("--data={}", l.memory_bytes),
        format!("--nproc={}", l.max_processes),
        format!("--fsize={}", l.max_file_bytes),
    ];
    push(&["--", PRLIMIT]);
    a.extend(limits);
    a.extend(["--", "sh", "-c", spec.command].map(str::to_owned));
    a
}

/// Runs `spec.command` in a box and waits for it (or a limit). Refuses when the box
/// cannot be built.
pub async fn run(config: &SandboxConfig, spec: &BoxSpec<'_>) -> Result<BoxRun, SandboxError> {
    let bwrap = find_bwrap(config)?;
    if !Path::new(PRLIMIT).is_file() {
        return Err(SandboxError::NoPrlimit);
    }
    let group = if pids::needed() {
        let g = pids::PidsGroup::create(config.limits.max_processes).map_err(|why| {
            SandboxError::Setup(format!(
                "the app runs as root, where only a pids cgroup can cap the processes of a \
                 box, and none could be made: {why}"
            ))
        })?;
        Some(g)
    } else {
        None
    };
    let mut cmd = match &group {
        // The shell joins the cgroup, then becomes bubblewrap: nothing of the box runs
        // before it is in. A failure reads like bubblewrap's own.
        Some(g) => {
            let mut c = tokio::process::Command::new("/bin/sh");
            c.arg("-c").arg(JOIN_CGROUP).arg(g.procs()).arg(&bwrap);
            c
        }
        None => tokio::process::Command::new(&bwrap),
    };
    cmd.args(bwrap_args(config, spec))
        // bwrap's own environment is what its init (PID 1 in the box) shows in
        // `/proc/1/environ`: it gets none of the engine's.
        .env_clear()
        .stdin(if spec.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true);
    let mut child = cmd.spawn().map_err(|e| SandboxError::Io(e.to_string()))?;
    if let (Some(text), Some(mut pipe)) = (spec.stdin, child.stdin.take()) {
        let text = text.to_owned();
        // Written beside the wait so a command that answers before reading cannot block.
        tokio::spawn(async move {
            let _ = pipe.write_all(text.as_bytes()).await;
        });
    }
    let out = supervise(&mut child, &config.limits, spec.timeout).await?;
    if out.stopped.is_none()
        && out.exit_code == Some(1)
        && out.stdout.is_empty()
        && let Some(why) = setup_failure(&out.stderr)
    {
        return Err(SandboxError::Setup(why));
    }
    Ok(out)
}

/// bubblewrap's own complaint, when it could not build the box (it prints `bwrap: …`
/// and exits 1 before the command starts).
fn setup_failure(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().next()?;
    line.strip_prefix("bwrap: ").map(str::to_owned)
}

/// Reads the box's output up to the cap while watching the time; kills the box when
/// either runs out.
async fn supervise(
    child: &mut tokio::process::Child,
    limits: &BoxLimits,
    timeout: Duration,
) -> Result<BoxRun, SandboxError> {
    let (Some(stdout), Some(stderr)) = (child.stdout.take(), child.stderr.take()) else {
        return Err(SandboxError::Io(
            "the box's output pipes are missing".into(),
        ));
    };
    let full = Arc::new(Notify::new());
    let cap = limits.max_output_bytes;
    let out_task = tokio::spawn(read_capped(stdout, cap, full.clone()));
    let err_task = tokio::spawn(read_capped(stderr, cap, full.clone()));
    let (exit_code, stopped) = tokio::select! {
        biased;
        () = full.notified() => (None, Some(Stopped::OutputLimit)),
        () = tokio::time::sleep(timeout) => (None, Some(Stopped::TimedOut)),
        status = child.wait() => {
            let status = status.map_err(|e| SandboxError::Io(e.to_string()))?;
            (status.code(), None)
        }
    };
    if stopped.is_some() {
        // Killing bubblewrap kills the box's init (it dies with its parent), and with it
        // every process in the PID namespace.
        let _ = child.start_kill();
        let _ = child.wait().await;
    }
    // The box is gone, so the pipes close; the bound is for a process that somehow
    // kept one open.
    let collect = |task: tokio::task::JoinHandle<Vec<u8>>| async move {
        tokio::time::timeout(DRAIN, task)
            .await
            .ok()
            .and_then(Result::ok)
            .unwrap_or_default()
    };
    Ok(BoxRun {
        exit_code,
        stdout: collect(out_task).await,
        stderr: collect(err_task).await,
        stopped,
    })
}

/// Reads up to `cap` bytes; past that, signals `full` and stops reading.
async fn read_capped(mut r: impl AsyncRead + Unpin, cap: usize, full: Arc<Notify>) -> Vec<u8> {
    let mut out = Vec::new();
    let mut buf = [0u8; 8192];
    loop {
        match r.read(&mut buf).await {
            Ok(0) | Err(_) => return out,
            Ok(n) => {
                let room = cap.saturating_sub(out.len());
                out.extend_from_slice(&buf[..n.min(room)]);
                if n > room {
                    full.notify_one();
                    return out;
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_setup_failure_is_told_from_a_command_failing() {
        assert_eq!(
            setup_failure(b"bwrap: No permissions to creating new namespace\n").as_deref(),
            Some("No permissions to creating new namespace")
        );
        assert_eq!(setup_failure(b"sh: 1: nope: not found\n"), None);
    }

    #[test]
    fn the_box_hides_the_data_dir_but_binds_the_folder_back() {
        // Outside `/tmp`, which every box hides anyway.
        let data = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let folder = data.path().join("workspace");
        std::fs::create_dir_all(&folder).unwrap();
        let config = SandboxConfig {
            bwrap: None,
            hidden: vec![data.path().to_owned()],
            limits: BoxLimits::default(),
        };
        let spec = BoxSpec {
            command: "ls",
            folder: &folder,
            network: false,
            stdin: None,
            timeout: Duration::from_secs(5),
        };
        let args = bwrap_args(&config, &spec).join(" ");
        let data = data.path().display().to_string();
        let folder = folder.display().to_string();
        let hide = args.find(&format!("--tmpfs {data}")).unwrap();
        let bind = args.find(&format!("--bind {folder} {folder}")).unwrap();
        assert!(hide < bind, "{args}");
        assert!(args.contains("--unshare-all") && !args.contains("--share-net"));
        // A configured folder holding the system is never hidden: the box would have no
        // programs left.
        let config = SandboxConfig {
            hidden: vec!["/".into(), "/usr".into()],
            ..config
        };
        let system_kept = bwrap_args(&config, &spec);
        let tmpfs: Vec<&str> = system_kept
            .windows(2)
            .filter(|w| w[0] == "--tmpfs")
            .map(|w| w[1].as_str())
            .collect();
        assert!(
            !tmpfs.contains(&"/") && !tmpfs.contains(&"/usr"),
            "{tmpfs:?}"
        );
        assert!(
            tmpfs.contains(&"/home") && tmpfs.contains(&"/tmp"),
            "{tmpfs:?}"
        );
        assert!(args.ends_with("-- sh -c ls"), "{args}");
    }
}
