//! A pids cgroup per box, for an engine running as root: the kernel never applies
//! `RLIMIT_NPROC` to root (user namespace or not), so only a cgroup's `pids.max` keeps
//! a fork bomb in a box from filling the machine's process table. Other users get
//! their cap from `prlimit --nproc` inside the box, counted in the box's own user
//! namespace, and need no cgroup.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

/// The parent of every box's cgroup, in the cgroup v1 `pids` hierarchy or cgroup v2.
const V1: &str = "/sys/fs/cgroup/pids";
const V2: &str = "/sys/fs/cgroup";
const PARENT: &str = "cubicle-sandbox";

static NEXT: AtomicU64 = AtomicU64::new(0);

/// Whether the process cap needs a cgroup here: the engine's real uid is root.
pub(super) fn needed() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|s| {
            s.lines()
                .find_map(|l| l.strip_prefix("Uid:"))
                .and_then(|l| l.split_whitespace().next().map(|u| u == "0"))
        })
        .unwrap_or(false)
}

/// One box's cgroup; removed when dropped (its processes are gone by then: the box's
/// PID namespace is reaped before bubblewrap exits).
#[derive(Debug)]
pub(super) struct PidsGroup {
    dir: PathBuf,
}

impl PidsGroup {
    /// A fresh cgroup holding at most `max` processes.
    pub(super) fn create(max: u32) -> Result<Self, String> {
        let parent = parent_dir()?;
        sweep(&parent);
        let n = NEXT.fetch_add(1, Ordering::Relaxed);
        let dir = parent.join(format!("box-{}-{n}", std::process::id()));
        std::fs::create_dir(&dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        let group = Self { dir };
        std::fs::write(group.dir.join("pids.max"), max.to_string())
            .map_err(|e| format!("{}/pids.max: {e}", group.dir.display()))?;
        Ok(group)
    }

    /// Writing a PID here moves that process (and its future children) in.
    pub(super) fn procs(&self) -> PathBuf {
        self.dir.join("cgroup.procs")
    }
}

/// Tries at removing a box's cgroup, and the pause between them: right after a box
/// ends, the kernel may count its last processes a moment longer (`EBUSY`).
const REMOVE_TRIES: u32 = 40;
const REMOVE_PAUSE: std::time::Duration = std::time::Duration::from_millis(25);

impl PidsGroup {
    /// Removes the cgroup once the box is gone, trying again for up to a second while
    /// the kernel still counts its processes; what stays after that is swept once this
    /// engine has stopped.
    pub(super) async fn remove(self) {
        for _ in 0..REMOVE_TRIES {
            match std::fs::remove_dir(&self.dir) {
                Err(e) if e.raw_os_error() == Some(libc::EBUSY) => {
                    tokio::time::sleep(REMOVE_PAUSE).await;
                }
                _ => return,
            }
        }
        tracing::warn!(cgroup = %self.dir.display(), "a box's cgroup stayed busy; left for the next sweep");
    }
}

impl Drop for PidsGroup {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir(&self.dir);
    }
}

/// `cubicle-sandbox` in whichever hierarchy has the pids controller, made on first use.
fn parent_dir() -> Result<PathBuf, String> {
    let root = if Path::new(V1).join("cgroup.procs").is_file() {
        PathBuf::from(V1)
    } else if std::fs::read_to_string(Path::new(V2).join("cgroup.controllers"))
        .is_ok_and(|c| c.split_whitespace().any(|x| x == "pids"))
    {
        // Children only get `pids.max` once their parent hands the controller down.
        let _ = std::fs::write(Path::new(V2).join("cgroup.subtree_control"), "+pids");
        PathBuf::from(V2)
    } else {
        return Err("no cgroup pids controller is mounted".into());
    };
    let parent = root.join(PARENT);
    if !parent.is_dir() {
        std::fs::create_dir(&parent).map_err(|e| format!("{}: {e}", parent.display()))?;
    }
    if root == Path::new(V2) {
        let _ = std::fs::write(parent.join("cgroup.subtree_control"), "+pids");
    }
    Ok(parent)
}

/// Removes the cgroups of engines no longer running (a cgroup still in use cannot be
/// removed anyway; one a live engine has just made is left alone).
fn sweep(parent: &Path) {
    let Ok(entries) = std::fs::read_dir(parent) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name().to_string_lossy().into_owned();
        let owner = name
            .strip_prefix("box-")
            .and_then(|rest| rest.split('-').next())
            .and_then(|pid| pid.parse::<u32>().ok());
        if owner.is_some_and(|pid| !Path::new(&format!("/proc/{pid}")).exists()) {
            let _ = std::fs::remove_dir(e.path());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_boxs_cgroup_is_gone_right_after_its_last_process() {
        if !needed() {
            eprintln!("SKIPPED: pids cgroups are made only for an engine running as root");
            return;
        }
        for _ in 0..20 {
            let group = PidsGroup::create(8).unwrap();
            let dir = group.dir.clone();
            let status = tokio::process::Command::new("/bin/sh")
                .arg("-c")
                .arg(r#"echo $$ > "$0" && sleep 0.01 &  wait"#)
                .arg(group.procs())
                .status()
                .await
                .unwrap();
            assert!(status.success());
            group.remove().await;
            assert!(!dir.exists(), "{} was left behind", dir.display());
        }
    }
}
