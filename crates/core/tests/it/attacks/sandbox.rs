//! Escapes a hostile command tries from `run_shell` (and so from `run_cli`, which runs
//! in the same box): each is approved by the boss, as an innocent-looking command
//! would be, and still gets nowhere. Paths outside the folder are reached with
//! `cd '.''.'`, which the old text filter let through, so each attack is a real one
//! against a shell without a box.

use crate::util::DecideShown;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use cubicle_core::app::CoreOptions;
use cubicle_core::approvals::{ApprovalDto, ApprovalsConfig, CallOutcome, DecidedVia, Decision};
use cubicle_core::org::EmployeeDto;
use cubicle_core::tools::sandbox::{BoxLimits, SandboxConfig};
use cubicle_core::tools::{ToolCall, ToolsConfig};
use serde_json::json;
use tempfile::TempDir;

use crate::util::TestCompany;

/// What the engine holds in its environment in these tests.
const ENGINE_SECRET: &str = "sk-engine-secret-4242";
/// Set in the copy of this test binary that plays the engine with a key in its env.
const ENGINE_CHILD: &str = "CUBICLE_ATTACK_ENGINE_CHILD";

/// A company whose workspace is `<data>/workspace`, with `<data>` outside `/tmp` (every
/// box hides `/tmp` anyway: this way the data dir is hidden by the configuration, as in
/// the app) and a fake home beside it holding an SSH key.
struct Office {
    c: TestCompany,
    dev: EmployeeDto,
    data: TempDir,
    root: PathBuf,
}

impl Office {
    async fn new(tune: impl FnOnce(&mut ToolsConfig)) -> Self {
        let data = tempfile::tempdir_in(env!("CARGO_TARGET_TMPDIR")).unwrap();
        let home = data.path().join("home");
        std::fs::create_dir_all(home.join(".ssh")).unwrap();
        std::fs::write(home.join(".ssh/id_ed25519"), "PRIVATE KEY of the boss").unwrap();
        let mut tools = ToolsConfig {
            shell_timeout: Duration::from_secs(30),
            ..ToolsConfig::default()
        };
        // As `SandboxConfig::default()` does with the engine's `HOME`.
        tools.sandbox.hidden.push(home);
        tune(&mut tools);
        let c = TestCompany::with_options(CoreOptions {
            workspace: Some(data.path().join("workspace")),
            approvals: ApprovalsConfig {
                tools,
                ..ApprovalsConfig::default()
            },
            ..CoreOptions::default()
        })
        .await;
        let dev = c.hire("Dev", "Engineer", None).await;
        c.core
            .approvals
            .set_tool_whitelist(dev.id, vec!["run_shell".into()])
            .await
            .unwrap();
        let root = c.core.approvals.runtime().workspace_root().unwrap();
        Self { c, dev, data, root }
    }

    /// Asks for `command`, the boss approves, it runs.
    async fn shell(&self, command: &str) -> ApprovalDto {
        self.run_shell(json!({ "command": command })).await
    }

    /// The same with a time limit of `secs`.
    async fn shell_for(&self, command: &str, secs: u64) -> ApprovalDto {
        self.run_shell(json!({ "command": command, "timeout_secs": secs }))
            .await
    }

    async fn run_shell(&self, args: serde_json::Value) -> ApprovalDto {
        let outcome = self
            .c
            .core
            .approvals
            .request(
                self.dev.id,
                ToolCall::new("run_shell", args, "routine check"),
                None,
                None,
            )
            .await
            .unwrap();
        let CallOutcome::Waiting(id) = outcome else {
            panic!("run_shell should wait for the boss: {outcome:?}");
        };
        self.c
            .core
            .approvals
            .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
            .await
            .unwrap()
    }

    /// `cd '.''.'` as many times as it takes from the workspace to `/`.
    fn to_root(&self) -> String {
        "cd '.''.'; ".repeat(self.root.components().count() - 1)
    }

    /// A Python program run from `/` (by a relative path, which the old filter allowed).
    async fn python(&self, code: &str) -> ApprovalDto {
        self.shell(&format!("{}usr/bin/python3 -c \"{code}\"", self.to_root()))
            .await
    }
}

fn stdout(a: &ApprovalDto) -> String {
    let out = a
        .result
        .as_ref()
        .unwrap_or_else(|| panic!("did not run: {a:?}"));
    out["stdout"].as_str().unwrap().to_owned()
}

fn stderr(a: &ApprovalDto) -> String {
    a.result
        .as_ref()
        .unwrap_or_else(|| panic!("did not run: {a:?}"))["stderr"]
        .as_str()
        .unwrap()
        .to_owned()
}

/// Processes whose working directory is in `dir`: what a run left behind. Killed, so
/// a failing test leaves nothing running.
fn left_in(dir: &Path) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        if std::fs::read_link(entry.path().join("cwd")).is_ok_and(|cwd| cwd.starts_with(dir)) {
            found.push(pid);
            let _ = std::process::Command::new("kill")
                .args(["-KILL", &pid.to_string()])
                .status();
        }
    }
    found
}

#[tokio::test]
async fn a_command_cannot_read_the_bosss_ssh_key() {
    let o = Office::new(|_| {}).await;
    let a = o
        .shell("cd '.''.' && cat home/.ssh/id_ed25519; cat ~/.ssh/id_ed25519; echo home=$HOME")
        .await;
    let out = stdout(&a);
    assert!(!out.contains("PRIVATE KEY"), "{out}");
    // It ran, in its own empty home.
    assert!(out.contains("home=/tmp/home"), "{out}");
    assert!(stderr(&a).contains("No such file"), "{a:?}");
}

/// The engine side of the next test: run only in a copy of this binary started with a
/// key in its environment.
#[tokio::test]
#[ignore = "started by a_command_cannot_read_the_engines_environment"]
async fn engine_with_a_key_in_its_environment() {
    if std::env::var(ENGINE_CHILD).is_err() {
        return;
    }
    let o = Office::new(|_| {}).await;
    // Every process's environment it can open, the parent's first.
    let a = o
        .python(
            "import os\n\
             ps = [str(os.getppid())] + [d for d in os.listdir('proc') if d.isdigit()]\n\
             for d in ps:\n    \
                 try: print(d, open('proc/' + d + '/environ', 'rb').read())\n    \
                 except OSError: pass",
        )
        .await;
    println!("BOX-OUT[{}]", stdout(&a));
}

#[test]
fn a_command_cannot_read_the_engines_environment() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args([
            "--exact",
            "attacks::sandbox::engine_with_a_key_in_its_environment",
            "--ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env("CUBICLE_API_KEY", ENGINE_SECRET)
        .env("CUBICLE_API_KEY_OPENAI", ENGINE_SECRET)
        .env(ENGINE_CHILD, "1")
        .output()
        .unwrap();
    let text = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "{text}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let seen = text
        .split_once("BOX-OUT[")
        .unwrap_or_else(|| panic!("the run printed nothing: {text}"))
        .1;
    // It could list processes (its own box's), just not the engine's secrets.
    assert!(seen.contains("PATH="), "{seen}");
    assert!(!seen.contains(ENGINE_SECRET), "{seen}");
    assert!(!seen.contains("CUBICLE_"), "{seen}");
}

/// This machine's address on its network (not loopback): where a box with the network
/// on reaches a service of this machine, as any other machine on the network would.
pub(super) fn lan_address() -> std::net::IpAddr {
    // A datagram socket "connected" to an outside address sends nothing; it only picks
    // the route, and with it the address this machine would send from.
    let probe = std::net::UdpSocket::bind("0.0.0.0:0").unwrap();
    probe.connect("192.0.2.1:9").unwrap();
    let ip = probe.local_addr().unwrap().ip();
    assert!(
        !ip.is_loopback(),
        "this machine has no network address: {ip}"
    );
    ip
}

#[tokio::test]
async fn a_command_cannot_open_a_socket_unless_the_boss_allows_the_network_and_never_to_loopback() {
    let o = Office::new(|_| {}).await;
    let listener = std::net::TcpListener::bind("0.0.0.0:0").unwrap();
    listener.set_nonblocking(true).unwrap();
    let port = listener.local_addr().unwrap().port();
    let connect = |host: String| {
        format!(
            "import socket\nsocket.create_connection(('{host}', {port}), 3).sendall(b'exfiltrated')\nprint('sent')"
        )
    };
    let (loopback, lan) = ("127.0.0.1".to_owned(), lan_address().to_string());

    for host in [&loopback, &lan] {
        let a = o.python(&connect(host.clone())).await;
        assert!(!stdout(&a).contains("sent"), "{host}: {a:?}");
        assert!(stderr(&a).contains("Errno"), "{host}: {a:?}");
        assert!(a.summary.contains("no network"), "{}", a.summary);
    }
    assert!(listener.accept().is_err(), "nothing reached the listener");

    // The boss allows it for this employee: the box reaches the machine as the network
    // does, but this machine's loopback services stay out of reach.
    o.c.core
        .approvals
        .set_network_access(o.dev.id, true)
        .await
        .unwrap();
    let a = o.python(&connect(lan)).await;
    assert_eq!(stdout(&a).trim(), "sent", "{a:?}");
    assert!(a.summary.contains("network allowed"), "{}", a.summary);
    assert!(listener.accept().is_ok());
    let a = o.python(&connect(loopback)).await;
    assert!(stderr(&a).contains("Connection refused"), "{a:?}");
    assert!(listener.accept().is_err(), "loopback is the box's own");
}

#[tokio::test]
async fn a_call_approved_without_network_does_not_run_after_the_setting_changes() {
    let o = Office::new(|_| {}).await;
    let outcome =
        o.c.core
            .approvals
            .request(
                o.dev.id,
                ToolCall::new(
                    "run_shell",
                    json!({"command": "touch ran", "network": true}),
                    "x",
                ),
                None,
                None,
            )
            .await
            .unwrap();
    let CallOutcome::Waiting(id) = outcome else {
        panic!("{outcome:?}");
    };
    let waiting = o.c.core.approvals.get(id).await.unwrap();
    assert_eq!(
        waiting.args["network"],
        json!(false),
        "the caller cannot ask for it"
    );
    o.c.core
        .approvals
        .set_network_access(o.dev.id, true)
        .await
        .unwrap();
    let a =
        o.c.core
            .approvals
            .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
            .await
            .unwrap();
    assert!(
        a.error.as_deref().unwrap_or("").contains("no longer match"),
        "{a:?}"
    );
    assert!(!o.root.join("ran").exists());
}

#[tokio::test]
async fn a_fork_bomb_is_held_at_the_process_cap_and_killed_at_the_end() {
    let o = Office::new(|t| {
        t.sandbox.limits = BoxLimits {
            max_processes: 64,
            ..BoxLimits::default()
        };
    })
    .await;
    // First a bounded flood (harmless if the cap did not hold): how many forks work.
    let a = o
        .shell(
            "/usr/bin/python3 -c \"import os, time\n\
             n = 0\n\
             for i in range(200):\n    \
                 try: pid = os.fork()\n    \
                 except OSError: break\n    \
                 if pid == 0: time.sleep(5); os._exit(0)\n    \
                 n += 1\n\
             print(n)\"",
        )
        .await;
    let inside: usize = stdout(&a)
        .trim()
        .parse()
        .unwrap_or_else(|_| panic!("{a:?}"));
    assert!((10..=64).contains(&inside), "{inside} processes in the box");
    assert!(left_in(&o.root).is_empty());

    // Then the real thing, watched from outside while it runs.
    let root = o.root.clone();
    let watching = std::sync::Arc::new(std::sync::atomic::AtomicBool::new(true));
    let watcher = {
        let watching = watching.clone();
        std::thread::spawn(move || {
            let mut most = 0;
            while watching.load(std::sync::atomic::Ordering::Relaxed) {
                most = most.max(count_in(&root));
                std::thread::sleep(Duration::from_millis(50));
            }
            most
        })
    };
    let t0 = Instant::now();
    let a = o.shell_for("f() { f | f & }; f; sleep 60", 3).await;
    watching.store(false, std::sync::atomic::Ordering::Relaxed);
    let most = watcher.join().unwrap();
    assert!(t0.elapsed() < Duration::from_secs(15), "{:?}", t0.elapsed());
    assert!(
        a.error.as_deref().unwrap_or("").contains("timed out"),
        "{a:?}"
    );
    assert!((1..=64).contains(&most), "{most} processes at once");
    assert!(left_in(&o.root).is_empty(), "the bomb's processes survived");
}

/// Processes working in `dir` right now.
fn count_in(dir: &Path) -> usize {
    std::fs::read_dir("/proc")
        .map(|entries| {
            entries
                .flatten()
                .filter(|e| {
                    std::fs::read_link(e.path().join("cwd")).is_ok_and(|cwd| cwd.starts_with(dir))
                })
                .count()
        })
        .unwrap_or(0)
}

#[tokio::test]
async fn endless_output_is_read_up_to_the_cap_and_the_command_stopped() {
    let o = Office::new(|t| {
        t.max_output_chars = 1000;
        t.sandbox.limits = BoxLimits {
            max_output_bytes: 64 * 1024,
            ..BoxLimits::default()
        };
    })
    .await;
    let t0 = Instant::now();
    let a = o.shell("cat /dev/zero").await;
    assert!(t0.elapsed() < Duration::from_secs(10), "{:?}", t0.elapsed());
    let out = a.result.clone().unwrap_or_else(|| panic!("{a:?}"));
    assert_eq!(out["stopped"], json!("output_limit"));
    assert_eq!(out["exitCode"], json!(null));
    assert!(stdout(&a).starts_with('\0') && stdout(&a).ends_with("[… cut]"));
    assert!(left_in(&o.root).is_empty());
}

#[tokio::test]
async fn a_process_started_with_setsid_does_not_outlive_the_run() {
    let o = Office::new(|_| {}).await;
    let a = o
        .shell("setsid sleep 1000 >/dev/null 2>&1 < /dev/null & echo started")
        .await;
    assert_eq!(stdout(&a).trim(), "started", "{a:?}");
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(left_in(&o.root).is_empty(), "sleep survived the run");
}

#[tokio::test]
async fn a_command_cannot_write_outside_its_folder() {
    let o = Office::new(|_| {}).await;
    let name = o
        .data
        .path()
        .file_name()
        .unwrap()
        .to_string_lossy()
        .into_owned();
    let beside = o.data.path().join("escaped.txt");
    let above = o
        .data
        .path()
        .parent()
        .unwrap()
        .join(format!("escaped-{name}.txt"));
    let a = o
        .shell(&format!(
            "echo in > inside.txt; cd '.''.' && echo x > escaped.txt; cd '.''.' && echo x > escaped-{name}.txt; echo done"
        ))
        .await;
    assert_eq!(stdout(&a).trim(), "done", "{a:?}");
    assert_eq!(
        std::fs::read_to_string(o.root.join("inside.txt")).unwrap(),
        "in\n"
    );
    assert!(!beside.exists(), "wrote beside the workspace");
    assert!(!above.exists(), "wrote above the data dir");
    assert!(stderr(&a).contains("Read-only file system"), "{a:?}");
}

/// A session bus of the test's own, stopped when dropped.
pub(super) struct Bus(std::process::Child);

impl Bus {
    pub(super) fn start(address: &str) -> Self {
        let child = std::process::Command::new("dbus-daemon")
            .args(["--session", "--nofork", "--nopidfile", "--print-address"])
            .arg(format!("--address={address}"))
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("dbus-daemon (Debian package `dbus`) runs the session bus");
        let mut bus = Self(child);
        // It prints its address once it listens.
        let mut line = String::new();
        let out = bus.0.stdout.take().unwrap();
        std::io::BufRead::read_line(&mut std::io::BufReader::new(out), &mut line).unwrap();
        assert!(line.starts_with("unix:"), "dbus-daemon: {line:?}");
        bus
    }
}

impl Drop for Bus {
    fn drop(&mut self) {
        let _ = self.0.kill();
        let _ = self.0.wait();
    }
}

#[tokio::test]
async fn the_session_bus_and_so_the_keychain_are_out_of_reach() {
    let o = Office::new(|_| {}).await;
    let socket = o.data.path().join("bus");
    let abstract_name = format!("cubicle-attack-{}", std::process::id());
    // One daemon per address: the session bus of a desktop listens on one or the other.
    let _path_bus = Bus::start(&format!("unix:path={}", socket.display()));
    let _abstract_bus = Bus::start(&format!("unix:abstract={abstract_name}"));
    // The bus works: a process outside the box reaches it by both addresses.
    for bus in [
        format!("unix:path={}", socket.display()),
        format!("unix:abstract={abstract_name}"),
    ] {
        let ping = std::process::Command::new("dbus-send")
            .args([
                &format!("--bus={bus}"),
                "--print-reply",
                "--dest=org.freedesktop.DBus",
            ])
            .args(["/org/freedesktop/DBus", "org.freedesktop.DBus.Peer.Ping"])
            .output()
            .unwrap();
        assert!(ping.status.success(), "{bus}: {ping:?}");
    }
    // The bus socket the keychain (Secret Service) would be reached through: out of
    // reach with the network off, and on (an abstract socket lives in a network
    // namespace, and an online box has its own).
    for online in [false, true] {
        o.c.core
            .approvals
            .set_network_access(o.dev.id, online)
            .await
            .unwrap();
        let a = o
            .python(&format!(
                "import socket\n\
                 for addr in ['{}', b'\\0{abstract_name}']:\n    \
                     s = socket.socket(socket.AF_UNIX)\n    \
                     try: s.connect(addr); print('REACHED', addr)\n    \
                     except OSError as e: print('BLOCKED', e)",
                socket.strip_prefix("/").unwrap().display()
            ))
            .await;
        let out = stdout(&a);
        assert!(!out.contains("REACHED"), "online {online}: {out}");
        assert_eq!(out.matches("BLOCKED").count(), 2, "online {online}: {a:?}");
    }
}

/// Processes holding anything in `dir` open (the box's folder handle included).
fn holding(dir: &Path) -> Vec<u32> {
    let mut found = Vec::new();
    for entry in std::fs::read_dir("/proc").unwrap().flatten() {
        let Ok(pid) = entry.file_name().to_string_lossy().parse::<u32>() else {
            continue;
        };
        let Ok(fds) = std::fs::read_dir(entry.path().join("fd")) else {
            continue;
        };
        if fds
            .flatten()
            .any(|fd| std::fs::read_link(fd.path()).is_ok_and(|t| t.starts_with(dir)))
        {
            found.push(pid);
        }
    }
    found
}

#[tokio::test]
async fn an_online_box_whose_network_cannot_start_runs_nothing_and_leaves_nothing_behind() {
    let o = Office::new(|t| t.sandbox.slirp4netns = Some("/bin/false".into())).await;
    o.c.core
        .approvals
        .set_network_access(o.dev.id, true)
        .await
        .unwrap();
    let a = o.shell("touch ran").await;
    let error = a.error.clone().unwrap_or_default();
    assert!(
        error.contains("the box's network could not be set up") && error.contains("not run"),
        "{a:?}"
    );
    assert!(!o.root.join("ran").exists());
    // Nothing of the box waits on: bubblewrap, still setting up, went with its child.
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert!(holding(&o.root).is_empty(), "{:?}", holding(&o.root));
}

#[tokio::test]
async fn without_bubblewrap_the_shell_refuses_instead_of_running_unconfined() {
    let o = Office::new(|t| {
        t.sandbox = SandboxConfig {
            bwrap: Some("/nonexistent/bin/bwrap".into()),
            ..SandboxConfig::default()
        };
    })
    .await;
    let a = o.shell("touch ran-unconfined").await;
    let error = a.error.clone().unwrap_or_default();
    assert!(
        error.contains("bubblewrap was not found at /nonexistent/bin/bwrap")
            && error.contains("install the `bubblewrap` package")
            && error.contains("not run"),
        "{a:?}"
    );
    assert!(a.result.is_none());
    assert!(!o.root.join("ran-unconfined").exists());
}
