//! The box every process an employee starts runs in (`run_shell`, `run_cli`), built
//! with bubblewrap. Model output is untrusted, so the box, not a check of the command's
//! text, is what keeps a command in its folder.
//!
//! What the box allows, and nothing more:
//! - the folder it runs in, read-write, bound by the handle the engine checked it with
//!   ([`BoxFolder`]), never by a path a colleague's box could have pointed elsewhere; the
//!   rest of the file system read-only, with `/home`, `/root`, `/run` (the user's runtime
//!   dir, D-Bus sockets), `/tmp`, `/var/tmp` and the app's data dir (database, keychain
//!   files, other employees' folders) each replaced by an empty throwaway folder;
//! - a fresh `HOME` (`/tmp/home`, gone when the run ends), a clean environment (`PATH`,
//!   `HOME`, `LANG`, `TMPDIR` only);
//! - its own PID, IPC, UTS, cgroup, user and network namespaces, no capabilities, no new
//!   user namespaces inside: the engine's processes (and their `/proc/PID/environ`) are
//!   not visible, and neither are the host's loopback services and abstract Unix sockets
//!   (the session bus, and through it the keychain) — with the network on too, which is
//!   a user-mode network of the box's own ([`net`]);
//! - not the engine's user when the engine runs as root: a user of its own
//!   ([`BOX_USER_WHEN_ROOT`]) that owns nothing outside the box's folder;
//! - limits: CPU seconds, data memory and file size per process, and processes per box
//!   (`prlimit` inside the box, where the process count is the box's own; for an app
//!   running as root a pids cgroup per box as well); `/tmp` and `/dev/shm` are small
//!   in-memory folders and `/dev` is read-only; the disk the folder is on may grow by at
//!   most [`BoxLimits::max_disk_bytes`] in one run and is never filled below
//!   [`BoxLimits::min_free_bytes`]; stdout and stderr are read up to a byte cap. Past
//!   any of these the box is killed;
//! - at the end (exit, time-out, a limit) the whole box goes: killing bubblewrap kills
//!   the PID namespace's init, and the kernel kills everything in it, `setsid` or not.
//!
//! When bubblewrap (or a program the box needs) is missing or cannot build the box, the
//! run is refused with [`SandboxError`]: a command never runs unconfined.

mod folder;
mod net;
mod pids;

pub use folder::BoxFolder;

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::sync::Arc;
use std::time::Duration;

use command_fds::{CommandFdExt, FdMapping};
use tokio::io::{AsyncRead, AsyncReadExt, AsyncWriteExt};
use tokio::sync::Notify;

/// Where bubblewrap is looked for when the configuration names none. Not `PATH`: a
/// folder early on `PATH` could hold a fake `bwrap` that runs commands unconfined.
const BWRAP_CANDIDATES: [&str; 2] = ["/usr/bin/bwrap", "/usr/local/bin/bwrap"];
/// util-linux's `prlimit` sets the limits inside the box (after the user namespace
/// exists, so the process count is the box's own).
const PRLIMIT: &str = "/usr/bin/prlimit";
/// util-linux's `setpriv`: drops an engine running as root to the boxes' own user.
const SETPRIV: &str = "/usr/bin/setpriv";
/// The user (and group) a box runs as when the engine runs as root, where a box as the
/// engine's user would be root on the host: owner of `/etc/shadow`, the keys in `/root`
/// and everything else root may read. A number no account uses (above the ranges
/// distributions and container tools hand out, and below 2³¹, where user namespaces'
/// id maps end), so it owns nothing but what the engine gives the boxes.
pub const BOX_USER_WHEN_ROOT: u32 = 2_147_000_000;
/// Replaced by empty folders: other users' and root's homes (SSH keys, keyrings), the
/// runtime dirs holding D-Bus and keyring sockets, shared temp folders.
const HIDDEN: [&str; 5] = ["/home", "/root", "/run", "/tmp", "/var/tmp"];
/// Never hidden, whatever the configuration says: the box's programs live there.
const SYSTEM: [&str; 7] = ["/usr", "/etc", "/bin", "/lib", "/lib64", "/sbin", "/opt"];
/// Run by `/bin/sh -c` with the cgroup's `cgroup.procs` as `$0` and the rest of the
/// box's command line after it.
const JOIN_CGROUP: &str =
    r#"echo $$ > "$0" || { echo "bwrap: could not join the cgroup $0" >&2; exit 1; }; exec "$@""#;
/// The box's own home, inside its private `/tmp`.
pub const BOX_HOME: &str = "/tmp/home";
/// Used when the app's own `PATH` is unset.
const FALLBACK_PATH: &str = "/usr/local/bin:/usr/bin:/bin";
/// How long output still in the pipes is collected once the box is gone.
const DRAIN: Duration = Duration::from_secs(2);
/// How often the disk under a running box is looked at.
const DISK_EVERY: Duration = Duration::from_millis(100);
/// The descriptors bubblewrap gets from the engine: the folder to bind, its info pipe
/// and block pipe (an online box's set-up), and the box's `/etc/resolv.conf`.
const FOLDER_FD: i32 = 3;
const INFO_FD: i32 = 4;
const BLOCK_FD: i32 = 5;
const RESOLV_FD: i32 = 6;

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
    /// How much the disk holding the box's folder may fill up in one run, all files
    /// together (the disk is looked at every 100 ms, so a fast writer may pass it by
    /// what it writes in that time before the box is killed).
    pub max_disk_bytes: u64,
    /// Free space the disk keeps whatever the budget: a box is not started, or is
    /// killed, when less would be left (the company's database lives on it too).
    pub min_free_bytes: u64,
    /// Bytes read from stdout and from stderr each; past this the box is killed.
    pub max_output_bytes: usize,
    /// Size of the box's private `/tmp` (it lives in memory).
    pub tmp_bytes: u64,
    /// Size of the box's `/dev/shm` (in memory as well).
    pub shm_bytes: u64,
}

impl Default for BoxLimits {
    fn default() -> Self {
        Self {
            cpu_secs: 600,
            memory_bytes: 4 << 30,
            max_processes: 256,
            max_file_bytes: 1 << 30,
            max_disk_bytes: 2 << 30,
            min_free_bytes: 1 << 30,
            max_output_bytes: 1 << 20,
            tmp_bytes: 512 << 20,
            shm_bytes: 64 << 20,
        }
    }
}

/// How boxes are built on this machine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SandboxConfig {
    /// The bubblewrap binary (default: `CUBICLE_BWRAP`, else `/usr/bin` or
    /// `/usr/local/bin`).
    pub bwrap: Option<PathBuf>,
    /// slirp4netns, an online box's network (default: `CUBICLE_SLIRP4NETNS`, else
    /// `/usr/bin` or `/usr/local/bin`).
    pub slirp4netns: Option<PathBuf>,
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
        let from_env = |var: &str| {
            std::env::var_os(var)
                .filter(|v| !v.is_empty())
                .map(PathBuf::from)
        };
        Self {
            // For programs installed elsewhere (and to try the refusals).
            bwrap: from_env("CUBICLE_BWRAP"),
            slirp4netns: from_env("CUBICLE_SLIRP4NETNS"),
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
        "the sandbox is not available: {program} was not found (install `{package}`); the \
         command was not run"
    )]
    NoProgram {
        program: String,
        package: &'static str,
    },
    #[error(
        "the sandbox could not be set up ({0}); the command was not run. Bubblewrap needs \
         unprivileged user namespaces (on Ubuntu, an AppArmor profile that allows bwrap)"
    )]
    Setup(String),
    #[error(
        "the sandbox could not be set up: this bubblewrap cannot bind a folder by its handle \
         (--bind-fd: bubblewrap 0.10 or newer, or a distribution's with the August 2024 \
         security update, such as Debian 12's 0.8.0-2+deb12u1); the command was not run"
    )]
    NoBindFd,
    #[error("the box's folder was refused: {0}; the command was not run")]
    Folder(String),
    #[error("the box's network could not be set up: {0}; the command was not run")]
    Network(String),
    #[error(
        "the disk holding {folder} has {free_mb} MB free, less than the {floor_mb} MB kept \
         free; the command was not run"
    )]
    DiskFull {
        folder: String,
        free_mb: u64,
        floor_mb: u64,
    },
    #[error("the sandbox could not start: {0}")]
    Io(String),
}

/// One run: what runs, where, and with what.
#[derive(Debug)]
pub struct BoxSpec<'a> {
    /// Given to `sh -c`.
    pub command: &'a str,
    /// The one folder the box may write (and its working directory).
    pub folder: &'a BoxFolder,
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
    /// The disk filled past [`BoxLimits::max_disk_bytes`] or down to
    /// [`BoxLimits::min_free_bytes`].
    DiskLimit,
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

/// The engine's real user id.
fn engine_uid() -> u32 {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|l| l.split_whitespace().next()?.parse().ok())
        })
        .unwrap_or(u32::MAX)
}

/// The user boxes run as when it is not the engine's own: [`BOX_USER_WHEN_ROOT`] for an
/// engine running as root.
pub fn box_user() -> Option<u32> {
    (engine_uid() == 0).then_some(BOX_USER_WHEN_ROOT)
}

/// Gives what `fd` holds (a file or folder the engine has just made in the workspace) to
/// the boxes' user when the engine runs as root, so a box can work on what the engine
/// wrote, as it can where the engine and the boxes share a user. By the handle, never by
/// a name; an `O_PATH` handle does.
pub(crate) fn give_to_boxes(fd: impl std::os::fd::AsFd) -> std::io::Result<()> {
    let Some(id) = box_user() else {
        return Ok(());
    };
    nix::unistd::fchownat(
        fd,
        "",
        Some(nix::unistd::Uid::from_raw(id)),
        Some(nix::unistd::Gid::from_raw(id)),
        nix::fcntl::AtFlags::AT_EMPTY_PATH,
    )
    .map_err(std::io::Error::from)
}

/// Whether a box can be built here: runs `true` in one (online too, when `network`).
pub async fn probe(config: &SandboxConfig, network: bool) -> Result<(), SandboxError> {
    let dir = tempfile::tempdir().map_err(|e| SandboxError::Io(e.to_string()))?;
    let folder = BoxFolder::open(dir.path())?;
    let spec = BoxSpec {
        command: "true",
        folder: &folder,
        network,
        stdin: None,
        timeout: Duration::from_secs(10),
    };
    run(config, &spec).await.map(|_| ())
}

/// Appends `items` to `a`.
fn push(a: &mut Vec<String>, items: &[&str]) {
    a.extend(items.iter().map(|s| (*s).to_owned()));
}

/// The file system the box sees: everything read-only, the private folders hidden, a
/// small `/tmp` and `/dev/shm`, its folder bound by handle, and for an online box a
/// resolver that slirp4netns answers.
fn mounts(config: &SandboxConfig, spec: &BoxSpec<'_>) -> Vec<String> {
    let mut a = Vec::new();
    push(&mut a, &["--ro-bind", "/", "/", "--proc", "/proc"]);
    let shm = config.limits.shm_bytes.to_string();
    // bubblewrap's `/dev` is a writable tmpfs as large as memory: only `/dev/shm` stays
    // writable, and small.
    push(
        &mut a,
        &["--dev", "/dev", "--size", &shm, "--tmpfs", "/dev/shm"],
    );
    push(&mut a, &["--remount-ro", "/dev"]);
    let tmp_size = config.limits.tmp_bytes.to_string();
    for dir in HIDDEN {
        if dir == "/tmp" {
            push(&mut a, &["--size", &tmp_size, "--tmpfs", dir]);
        } else if Path::new(dir).is_dir() {
            // Nothing of worth goes in these: keep them tiny.
            push(&mut a, &["--size", "1048576", "--tmpfs", dir]);
        }
    }
    for p in config.hidden.iter().filter(|p| p.is_dir()) {
        // The folder itself may sit inside a hidden dir: it is bound back below. Those
        // inside a fixed hidden dir are hidden already; one holding the system (`/`,
        // `/usr`…) would leave the box without programs.
        let holds_system = SYSTEM.iter().any(|s| Path::new(s).starts_with(p));
        if !holds_system && p.is_absolute() && !HIDDEN.iter().any(|h| p.starts_with(h)) {
            let p = p.display().to_string();
            push(&mut a, &["--size", "1048576", "--tmpfs", &p]);
        }
    }
    if spec.network {
        // Where the host's resolv.conf really is (it may be a link into `/run`, hidden).
        let resolv = std::fs::canonicalize("/etc/resolv.conf")
            .unwrap_or_else(|_| PathBuf::from("/etc/resolv.conf"));
        let fd = RESOLV_FD.to_string();
        push(
            &mut a,
            &["--ro-bind-data", &fd, &resolv.display().to_string()],
        );
    }
    let folder = spec.folder.path().display().to_string();
    let fd = FOLDER_FD.to_string();
    push(
        &mut a,
        &[
            "--dir",
            BOX_HOME,
            "--bind-fd",
            &fd,
            &folder,
            "--chdir",
            &folder,
        ],
    );
    a
}

/// The bubblewrap arguments for `spec`, up to and including the command.
fn bwrap_args(config: &SandboxConfig, spec: &BoxSpec<'_>) -> Vec<String> {
    let mut a = mounts(config, spec);
    // The network namespace is `unshare`'s (see [`net`]) for an online box: shared.
    push(
        &mut a,
        &["--unshare-all", "--unshare-user", "--disable-userns"],
    );
    if spec.network {
        let (info, block) = (INFO_FD.to_string(), BLOCK_FD.to_string());
        push(
            &mut a,
            &["--share-net", "--info-fd", &info, "--block-fd", &block],
        );
    }
    push(
        &mut a,
        &["--cap-drop", "ALL", "--die-with-parent", "--new-session"],
    );
    push(
        &mut a,
        &[
            "--clearenv",
            "--setenv",
            "HOME",
            BOX_HOME,
            "--setenv",
            "TMPDIR",
            "/tmp",
        ],
    );
    let path = std::env::var("PATH").unwrap_or_else(|_| FALLBACK_PATH.to_owned());
    push(
        &mut a,
        &["--setenv", "PATH", &path, "--setenv", "LANG", "C.UTF-8"],
    );
    let l = &config.limits;
    let limits = [
        format!("--cpu={}", l.cpu_secs.min(spec.timeout.as_secs() + 5)),
        format!("--data={}", l.memory_bytes),
        format!("--nproc={}", l.max_processes),
        format!("--fsize={}", l.max_file_bytes),
    ];
    push(&mut a, &["--", PRLIMIT]);
    a.extend(limits);
    a.extend(["--", "sh", "-c", spec.command].map(str::to_owned));
    a
}

/// What runs before bubblewrap, each becoming the next (so the process the engine
/// started is bubblewrap's in the end): `setpriv` to the boxes' user when the engine is
/// root, `unshare` making an online box's namespaces.
fn wrappers(spec: &BoxSpec<'_>) -> Result<Vec<String>, SandboxError> {
    let mut a = Vec::new();
    if let Some(id) = box_user() {
        if !Path::new(SETPRIV).is_file() {
            return Err(SandboxError::NoProgram {
                program: SETPRIV.into(),
                package: "util-linux",
            });
        }
        let (uid, gid) = (format!("--reuid={id}"), format!("--regid={id}"));
        push(
            &mut a,
            &[
                SETPRIV,
                &uid,
                &gid,
                "--clear-groups",
                "--inh-caps=-all",
                "--",
            ],
        );
    }
    if spec.network {
        push(
            &mut a,
            &[net::UNSHARE, "--user", "--map-current-user", "--net", "--"],
        );
    }
    Ok(a)
}

/// The descriptors bubblewrap gets, and the engine's ends of the pipes among them.
struct Handles {
    mappings: Vec<FdMapping>,
    /// Where bubblewrap says it runs in an online box's namespaces.
    info: Option<tokio::net::unix::pipe::Receiver>,
    /// Written once the box's network is up: the command starts then.
    go: Option<std::io::PipeWriter>,
}

fn handles(spec: &BoxSpec<'_>) -> Result<Handles, SandboxError> {
    let io = |e: std::io::Error| SandboxError::Io(e.to_string());
    let mut mappings = vec![FdMapping {
        parent_fd: spec.folder.handle()?,
        child_fd: FOLDER_FD,
    }];
    if !spec.network {
        return Ok(Handles {
            mappings,
            info: None,
            go: None,
        });
    }
    let (info_r, info_w) = std::io::pipe().map_err(io)?;
    let (block_r, block_w) = std::io::pipe().map_err(io)?;
    let (resolv_r, mut resolv_w) = std::io::pipe().map_err(io)?;
    // A few bytes, well inside a pipe's buffer: written and closed before bubblewrap
    // reads them.
    std::io::Write::write_all(&mut resolv_w, net::RESOLV_CONF.as_bytes()).map_err(io)?;
    drop(resolv_w);
    for (fd, child_fd) in [
        (OwnedFd::from(info_w), INFO_FD),
        (OwnedFd::from(block_r), BLOCK_FD),
        (OwnedFd::from(resolv_r), RESOLV_FD),
    ] {
        mappings.push(FdMapping {
            parent_fd: fd,
            child_fd,
        });
    }
    let info =
        tokio::net::unix::pipe::Receiver::from_owned_fd(OwnedFd::from(info_r)).map_err(io)?;
    Ok(Handles {
        mappings,
        info: Some(info),
        go: Some(block_w),
    })
}

/// Free and used bytes of the disk holding `folder`.
fn disk_of(folder: &BoxFolder) -> Option<(u64, u64)> {
    let s = nix::sys::statvfs::fstatvfs(folder.file()).ok()?;
    let unit = s.fragment_size();
    let used = s.blocks().saturating_sub(s.blocks_free()) * unit;
    Some((s.blocks_available() * unit, used))
}

/// Runs `spec.command` in a box and waits for it (or a limit). Refuses when the box
/// cannot be built.
pub async fn run(config: &SandboxConfig, spec: &BoxSpec<'_>) -> Result<BoxRun, SandboxError> {
    let bwrap = find_bwrap(config)?;
    if !Path::new(PRLIMIT).is_file() {
        return Err(SandboxError::NoProgram {
            program: PRLIMIT.into(),
            package: "util-linux",
        });
    }
    let online = spec
        .network
        .then(|| net::Online::find(config))
        .transpose()?;
    check_free_space(config, spec.folder)?;
    let group = pids_group(config)?;
    let mut chain = wrappers(spec)?;
    chain.push(bwrap.display().to_string());
    chain.extend(bwrap_args(config, spec));
    let Handles { mappings, info, go } = handles(spec)?;
    let mut cmd = match &group {
        // The shell joins the cgroup, then becomes the rest: nothing of the box runs
        // before it is in. A failure reads like bubblewrap's own.
        Some(g) => {
            let mut c = tokio::process::Command::new("/bin/sh");
            c.arg("-c").arg(JOIN_CGROUP).arg(g.procs());
            c.args(&chain);
            c
        }
        None => {
            let mut c = tokio::process::Command::new(&chain[0]);
            c.args(&chain[1..]);
            c
        }
    };
    // bwrap's own environment is what its init (PID 1 in the box) shows in
    // `/proc/1/environ`: it gets none of the engine's.
    cmd.env_clear()
        .stdin(if spec.stdin.is_some() {
            Stdio::piped()
        } else {
            Stdio::null()
        })
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        // A group of its own: see [`kill_box`].
        .process_group(0)
        .kill_on_drop(true);
    cmd.fd_mappings(mappings)
        .map_err(|e| SandboxError::Io(e.to_string()))?;
    let mut child = cmd.spawn().map_err(|e| SandboxError::Io(e.to_string()))?;
    // The descriptors live in the command until it goes: the box's ends of the pipes
    // must be in the box alone, or their ends never come.
    drop(cmd);
    let _uplink = match (online, info, child.id()) {
        (Some(online), Some(info), Some(pid)) => match online.connect(pid, info).await {
            Ok(uplink) => {
                if let Some(mut go) = go {
                    let _ = std::io::Write::write_all(&mut go, b"1");
                }
                uplink
            }
            Err(e) => return Err(given_up(child, e).await),
        },
        _ => None,
    };
    if let (Some(text), Some(mut pipe)) = (spec.stdin, child.stdin.take()) {
        let text = text.to_owned();
        // Written beside the wait so a command that answers before reading cannot block.
        tokio::spawn(async move {
            let _ = pipe.write_all(text.as_bytes()).await;
        });
    }
    let out = supervise(&mut child, &config.limits, spec).await?;
    if let Some(g) = group {
        g.remove().await;
    }
    if out.stopped.is_none()
        && out.exit_code == Some(1)
        && out.stdout.is_empty()
        && let Some(why) = setup_failure(&out.stderr)
    {
        if why.contains("--bind-fd") {
            return Err(SandboxError::NoBindFd);
        }
        return Err(SandboxError::Setup(why));
    }
    Ok(out)
}

/// The box whose network could not be set up, ended; bubblewrap's own complaint when it
/// had failed first (then the network never had a box to join), else `network`.
async fn given_up(mut child: tokio::process::Child, network: SandboxError) -> SandboxError {
    kill_box(&mut child);
    let mut stderr = Vec::new();
    if let Some(mut pipe) = child.stderr.take() {
        let _ = tokio::time::timeout(DRAIN, pipe.read_to_end(&mut stderr)).await;
    }
    let _ = child.wait().await;
    match setup_failure(&stderr) {
        Some(why) => SandboxError::Setup(why),
        None => network,
    }
}

/// Ends a box however far it got. Once it runs, killing bubblewrap kills the box's init
/// (it dies with its parent) and with it every process in the PID namespace. Before that
/// — still setting up, or held until its network is up — bubblewrap's child is not yet
/// bound to its parent's life and would wait for it forever: it is still in bubblewrap's
/// process group, which goes with it.
fn kill_box(child: &mut tokio::process::Child) {
    if let Some(group) = child.id().and_then(|p| i32::try_from(p).ok()) {
        let _ = nix::sys::signal::killpg(
            nix::unistd::Pid::from_raw(group),
            nix::sys::signal::Signal::SIGKILL,
        );
    }
    let _ = child.start_kill();
}

/// Refuses to start a box on a disk that is (nearly) full already.
fn check_free_space(config: &SandboxConfig, folder: &BoxFolder) -> Result<(), SandboxError> {
    let floor = config.limits.min_free_bytes;
    match disk_of(folder) {
        Some((free, _)) if free < floor => Err(SandboxError::DiskFull {
            folder: folder.path().display().to_string(),
            free_mb: free >> 20,
            floor_mb: floor >> 20,
        }),
        _ => Ok(()),
    }
}

/// A pids cgroup for the box, where the process cap needs one (an engine running as
/// root).
fn pids_group(config: &SandboxConfig) -> Result<Option<pids::PidsGroup>, SandboxError> {
    if !pids::needed() {
        return Ok(None);
    }
    pids::PidsGroup::create(config.limits.max_processes)
        .map(Some)
        .map_err(|why| {
            SandboxError::Setup(format!(
                "the app runs as root, where only a pids cgroup can cap the processes of a \
                 box, and none could be made: {why}"
            ))
        })
}

/// bubblewrap's own complaint, when it could not build the box (it prints `bwrap: …`
/// and exits 1 before the command starts).
fn setup_failure(stderr: &[u8]) -> Option<String> {
    let text = String::from_utf8_lossy(stderr);
    let line = text.lines().next()?;
    line.strip_prefix("bwrap: ").map(str::to_owned)
}

/// Why the disk under a running box says stop, if it does: it grew by more than the
/// budget since `used_at_start`, or is down to its floor.
fn disk_says_stop(limits: &BoxLimits, folder: &BoxFolder, used_at_start: u64) -> bool {
    disk_of(folder).is_some_and(|(free, used)| {
        used.saturating_sub(used_at_start) > limits.max_disk_bytes || free < limits.min_free_bytes
    })
}

/// Resolves when the disk under the box says stop.
async fn disk_watch(limits: &BoxLimits, folder: &BoxFolder) {
    let start = disk_of(folder).map_or(0, |(_, used)| used);
    let mut every = tokio::time::interval(DISK_EVERY);
    loop {
        every.tick().await;
        if disk_says_stop(limits, folder, start) {
            return;
        }
    }
}

/// Reads the box's output up to the cap while watching the time and the disk; kills the
/// box when any of them runs out.
async fn supervise(
    child: &mut tokio::process::Child,
    limits: &BoxLimits,
    spec: &BoxSpec<'_>,
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
        () = tokio::time::sleep(spec.timeout) => (None, Some(Stopped::TimedOut)),
        () = disk_watch(limits, spec.folder) => (None, Some(Stopped::DiskLimit)),
        status = child.wait() => {
            let status = status.map_err(|e| SandboxError::Io(e.to_string()))?;
            (status.code(), None)
        }
    };
    if stopped.is_some() {
        kill_box(child);
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
    fn the_box_hides_the_data_dir_but_binds_the_folder_back_by_its_handle() {
        // Outside `/tmp`, which every box hides anyway.
        let data = tempfile::tempdir_in(env!("CARGO_MANIFEST_DIR")).unwrap();
        let folder = data.path().join("workspace");
        std::fs::create_dir_all(&folder).unwrap();
        let config = SandboxConfig {
            bwrap: None,
            slirp4netns: None,
            hidden: vec![data.path().to_owned()],
            limits: BoxLimits::default(),
        };
        let folder = BoxFolder::open(&folder).unwrap();
        let spec = BoxSpec {
            command: "ls",
            folder: &folder,
            network: false,
            stdin: None,
            timeout: Duration::from_secs(5),
        };
        let args = bwrap_args(&config, &spec).join(" ");
        let data = data.path().display().to_string();
        let path = folder.path().display().to_string();
        let hide = args.find(&format!("--tmpfs {data}")).unwrap();
        let bind = args.find(&format!("--bind-fd {FOLDER_FD} {path}")).unwrap();
        assert!(hide < bind, "{args}");
        assert!(!args.contains("--bind /"), "never a path: {args}");
        assert!(args.contains("--unshare-all") && !args.contains("--share-net"));
        assert!(args.contains("--size 67108864 --tmpfs /dev/shm --remount-ro /dev"));
        // Online, the network is `unshare`'s own, set up before the command starts.
        let online = BoxSpec {
            network: true,
            ..spec
        };
        let online_args = bwrap_args(&config, &online).join(" ");
        assert!(
            online_args.contains(&format!(
                "--share-net --info-fd {INFO_FD} --block-fd {BLOCK_FD}"
            )),
            "{online_args}"
        );
        assert!(online_args.contains(&format!("--ro-bind-data {RESOLV_FD} ")));
        let chain = wrappers(&online).unwrap().join(" ");
        assert!(
            chain.contains("unshare --user --map-current-user --net --"),
            "{chain}"
        );
        // A configured folder holding the system is never hidden: the box would have no
        // programs left.
        let config = SandboxConfig {
            hidden: vec!["/".into(), "/usr".into()],
            ..config
        };
        let system_kept = bwrap_args(&config, &online);
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
