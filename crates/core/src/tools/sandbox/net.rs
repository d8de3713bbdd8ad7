//! The network of a box the boss let online: a network namespace of its own, connected
//! to the outside by slirp4netns (a user-mode TCP/IP stack running beside the box), never
//! the host's. So the box reaches the internet but not what lives only on this machine's
//! network namespace: loopback services (`127.0.0.1` is the box's own, and slirp4netns
//! refuses the host's loopback through its gateway) and abstract Unix sockets — the
//! session bus a desktop may listen on, and through it the keychain.
//!
//! The order matters, and each step waits for the one before: `unshare` makes the user
//! and network namespaces and becomes bubblewrap in them; bubblewrap reports on its info
//! pipe once it runs there, and holds the command on its block pipe; slirp4netns joins
//! the namespaces and says on its ready pipe when the link is up; then the command runs.

use std::os::fd::OwnedFd;
use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::Duration;

use command_fds::{CommandFdExt, FdMapping};
use tokio::io::AsyncReadExt;
use tokio::net::unix::pipe;

use super::{SandboxConfig, SandboxError};

/// Where slirp4netns is looked for (not `PATH`, as for bubblewrap).
const SLIRP_CANDIDATES: [&str; 2] = ["/usr/bin/slirp4netns", "/usr/local/bin/slirp4netns"];
/// util-linux's `unshare`: makes the box's user and network namespaces.
pub(super) const UNSHARE: &str = "/usr/bin/unshare";
/// slirp4netns's resolver, which forwards to the host's: the host's own
/// `/etc/resolv.conf` may name a resolver on its loopback, out of the box's reach.
pub(super) const RESOLV_CONF: &str = "nameserver 10.0.2.3\n";
/// The most a step of the set-up may take before the box is given up.
const SETUP_WAIT: Duration = Duration::from_secs(10);
/// How much of slirp4netns's complaint is kept for the error.
const STDERR_KEPT: usize = 2048;
/// The descriptor slirp4netns reports readiness on.
const READY_FD: i32 = 3;

/// The programs an online box needs, found.
#[derive(Clone, Debug)]
pub(super) struct Online {
    slirp: PathBuf,
}

impl Online {
    pub(super) fn find(config: &SandboxConfig) -> Result<Self, SandboxError> {
        if !Path::new(UNSHARE).is_file() {
            return Err(SandboxError::NoProgram {
                program: UNSHARE.into(),
                package: "util-linux",
            });
        }
        let slirp = match &config.slirp4netns {
            Some(p) if p.is_file() => p.clone(),
            Some(p) => {
                return Err(SandboxError::NoProgram {
                    program: p.display().to_string(),
                    package: "slirp4netns",
                });
            }
            None => SLIRP_CANDIDATES
                .iter()
                .map(PathBuf::from)
                .find(|p| p.is_file())
                .ok_or_else(|| SandboxError::NoProgram {
                    program: SLIRP_CANDIDATES.join(" or "),
                    package: "slirp4netns",
                })?,
        };
        Ok(Self { slirp })
    }

    /// Waits until bubblewrap (process `pid`) runs in the box's namespaces — it writes
    /// its info pipe then — and connects them with slirp4netns. `Ok(None)`: bubblewrap
    /// ended before it got there (its own error says why).
    pub(super) async fn connect(
        &self,
        pid: u32,
        info: pipe::Receiver,
    ) -> Result<Option<Uplink>, SandboxError> {
        if !whole_message(info).await? {
            return Ok(None);
        }
        let (ready_r, ready_w) = std::io::pipe().map_err(io)?;
        let mut cmd = tokio::process::Command::new(&self.slirp);
        cmd.args([
            "--configure",
            "--mtu=65520",
            "--disable-host-loopback",
            "--enable-seccomp",
        ]);
        // Its own mount namespace with every capability but one dropped: for slirp4netns
        // running as root (an engine running as root); as anyone else it has none to drop
        // and cannot make one (it would have to be root in a user namespace of its own).
        if super::engine_uid() == 0 {
            cmd.arg("--enable-sandbox");
        }
        cmd.arg(format!("--ready-fd={READY_FD}"))
            .arg(pid.to_string())
            .arg("tap0")
            .env_clear()
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .kill_on_drop(true);
        cmd.fd_mappings(vec![FdMapping {
            parent_fd: OwnedFd::from(ready_w),
            child_fd: READY_FD,
        }])
        .map_err(|e| SandboxError::Io(e.to_string()))?;
        let mut child = cmd.spawn().map_err(io)?;
        // The write end lives in the command: dropped, only slirp4netns holds it, and
        // its end means the pipe's.
        drop(cmd);
        let complaint = child.stderr.take().map(|e| tokio::spawn(kept(e)));
        let ready = pipe::Receiver::from_owned_fd(OwnedFd::from(ready_r)).map_err(io)?;
        if first_bytes(ready).await? {
            return Ok(Some(Uplink { _slirp: child }));
        }
        let _ = child.start_kill();
        let _ = child.wait().await;
        let why = match complaint {
            Some(task) => task.await.unwrap_or_default(),
            None => String::new(),
        };
        let said: Vec<&str> = why
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty() && !l.contains("experimental"))
            .collect();
        Err(SandboxError::Network(if said.is_empty() {
            "slirp4netns ended before the link was up".to_owned()
        } else {
            format!("slirp4netns: {}", said.join("; "))
        }))
    }
}

/// slirp4netns serving one box; stopped when dropped.
#[derive(Debug)]
pub(super) struct Uplink {
    _slirp: tokio::process::Child,
}

/// Whether bubblewrap said anything on its info pipe, read to its end: it writes in
/// pieces, and a pipe closed after the first would end it with `SIGPIPE`.
async fn whole_message(mut r: pipe::Receiver) -> Result<bool, SandboxError> {
    let mut info = Vec::new();
    match tokio::time::timeout(SETUP_WAIT, r.read_to_end(&mut info)).await {
        Ok(Ok(n)) => Ok(n > 0),
        Ok(Err(e)) => Err(io(e)),
        Err(_) => Err(SandboxError::Network(format!(
            "bubblewrap did not start in {} s",
            SETUP_WAIT.as_secs()
        ))),
    }
}

/// Whether anything arrived on `r` before it closed, waiting at most [`SETUP_WAIT`].
async fn first_bytes(mut r: pipe::Receiver) -> Result<bool, SandboxError> {
    let mut byte = [0u8; 1];
    match tokio::time::timeout(SETUP_WAIT, r.read(&mut byte)).await {
        Ok(Ok(n)) => Ok(n > 0),
        Ok(Err(e)) => Err(io(e)),
        Err(_) => Err(SandboxError::Network(format!(
            "not up after {} s",
            SETUP_WAIT.as_secs()
        ))),
    }
}

/// The first [`STDERR_KEPT`] bytes of `r`, read to its end.
async fn kept(mut r: impl tokio::io::AsyncRead + Unpin) -> String {
    let mut out = Vec::new();
    let mut buf = [0u8; 1024];
    while let Ok(n) = r.read(&mut buf).await {
        if n == 0 {
            break;
        }
        let room = STDERR_KEPT.saturating_sub(out.len());
        out.extend_from_slice(&buf[..n.min(room)]);
    }
    String::from_utf8_lossy(&out).into_owned()
}

fn io(e: std::io::Error) -> SandboxError {
    SandboxError::Io(e.to_string())
}
