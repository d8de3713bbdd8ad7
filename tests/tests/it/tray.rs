//! The tray: the real desktop app under its own Xvfb, on the test's session
//! bus, with this test as the system tray (a StatusNotifierWatcher that reads the
//! icon's dbusmenu and clicks it). A company with one waiting approval: the tray says
//! "Approvals (1)"; closing the window only hides it; "Open Cubicle" brings it back; an
//! approval rejected from the CLI (another process) brings the count to 0; "Quit" ends
//! the app with status 0 after stopping the engine.
//!
//! Needs a session bus (scripts/test.sh runs the Rust tests in `dbus-run-session`),
//! Xvfb, and the app and CLI built with `cargo build --features custom-protocol -p
//! cubicle -p cubicle-cli` (scripts/setup.sh does it). Skipped, with the reason printed,
//! when Xvfb or the binaries are missing, or with `CUBICLE_SKIP_DBUS=1`. By hand:
//! `dbus-run-session -- cargo test -p cubicle-tests --test it tray::`.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::path::{Path, PathBuf};
use std::process::{Child, Command, ExitStatus, Stdio};
use std::time::{Duration, Instant};

use cubicle_tests::company::TestCompany;
use cubicle_tests::notification_server as ns;
use cubicle_tests::tray_host::{self, Item, TrayHost};
use cubicle_tests::x11;

/// The app's cold start (WebKit, migrations) on a loaded 2-core machine.
const STARTUP: Duration = Duration::from_secs(40);
/// A change on the app's side showing on the bus.
const SOON: Duration = Duration::from_secs(10);
/// The tray recounts every 5 s (src-tauri/src/tray.rs): a change made by another
/// process shows within that, plus slack.
const RECOUNT: Duration = Duration::from_secs(15);
/// Quit: stop the engine (≤ 3 s grace), flush the logs, exit.
const QUIT: Duration = Duration::from_secs(10);

/// The binaries the test drives: `CUBICLE_APP` / `CUBICLE_CLI`, else the workspace's
/// target dir (this test's own `CARGO_TARGET_TMPDIR` is `<target>/tmp`).
fn binary(env: &str, name: &str) -> PathBuf {
    if let Ok(p) = std::env::var(env)
        && !p.trim().is_empty()
    {
        return PathBuf::from(p);
    }
    let target = Path::new(env!("CARGO_TARGET_TMPDIR"))
        .parent()
        .map(Path::to_path_buf)
        .unwrap_or_else(|| PathBuf::from("target"));
    target.join("debug").join(name)
}

fn on_path(program: &str) -> Option<PathBuf> {
    std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join(program))
            .find(|p| p.is_file())
    })
}

/// A child process that is ended (and reaped) when the test ends, pass or fail: asked
/// with SIGTERM first, so that Xvfb removes its socket and lock file, then killed.
struct Reaped(Child);

impl Drop for Reaped {
    fn drop(&mut self) {
        if matches!(self.0.try_wait(), Ok(None)) {
            let _ = Command::new("kill")
                .args(["-TERM", &self.0.id().to_string()])
                .status();
            let deadline = Instant::now() + Duration::from_secs(3);
            while matches!(self.0.try_wait(), Ok(None)) && Instant::now() < deadline {
                std::thread::sleep(Duration::from_millis(20));
            }
            let _ = self.0.kill();
        }
        let _ = self.0.wait();
    }
}

/// An Xvfb of our own on a free display.
struct Display {
    number: u32,
    _server: Reaped,
}

impl Display {
    fn start(xvfb: &Path) -> Self {
        let first = 100 + std::process::id() % 400;
        for number in (first..first + 50).chain(100..first) {
            if Path::new(&format!("/tmp/.X{number}-lock")).exists()
                || Path::new(&x11::socket_path(number)).exists()
            {
                continue;
            }
            let server = Command::new(xvfb)
                .args([
                    &format!(":{number}"),
                    "-screen",
                    "0",
                    "1280x800x24",
                    "-nolisten",
                    "tcp",
                ])
                .stdin(Stdio::null())
                .stdout(Stdio::null())
                .stderr(Stdio::null())
                .spawn()
                .expect("start Xvfb");
            let mut server = Reaped(server);
            let deadline = Instant::now() + Duration::from_secs(10);
            while Instant::now() < deadline {
                if Path::new(&x11::socket_path(number)).exists() {
                    return Self {
                        number,
                        _server: server,
                    };
                }
                if matches!(server.0.try_wait(), Ok(Some(_))) {
                    break; // lost a race for this display: try the next one
                }
                std::thread::sleep(Duration::from_millis(50));
            }
        }
        panic!("could not start Xvfb on any display");
    }

    /// The visible top-level windows titled exactly `title`.
    fn visible_windows(&self, title: &str) -> Vec<u32> {
        let out = Command::new("xdotool")
            .args(["search", "--onlyvisible", "--name", &format!("^{title}$")])
            .env("DISPLAY", format!(":{}", self.number))
            .output()
            .expect("run xdotool");
        String::from_utf8_lossy(&out.stdout)
            .lines()
            .filter_map(|l| l.trim().parse().ok())
            .collect()
    }
}

/// The desktop app on `display`, with a private home and the given database.
struct App {
    process: Reaped,
    home: tempfile::TempDir,
}

impl App {
    fn start(bin: &Path, display: &Display, db_url: &str) -> Self {
        let home = tempfile::tempdir().expect("home dir");
        let dir = |name: &str| {
            let d = home.path().join(name);
            std::fs::create_dir_all(&d).expect("dir");
            d
        };
        let log = std::fs::File::create(home.path().join("stderr.log")).expect("log file");
        let process = Command::new(bin)
            .env("DISPLAY", format!(":{}", display.number))
            .env("GDK_BACKEND", "x11")
            .env_remove("WAYLAND_DISPLAY")
            // Hide-on-close is off under WebDriver: this is a plain run.
            .env_remove("TAURI_WEBVIEW_AUTOMATION")
            .env("HOME", home.path())
            .env("XDG_DATA_HOME", dir("data"))
            .env("XDG_CONFIG_HOME", dir("config"))
            .env("XDG_CACHE_HOME", dir("cache"))
            .env("XDG_RUNTIME_DIR", dir("run"))
            .env("CUBICLE_DATABASE_URL", db_url)
            .stdin(Stdio::null())
            .stdout(log.try_clone().expect("log file"))
            .stderr(log)
            .spawn()
            .expect("start the app");
        Self {
            process: Reaped(process),
            home,
        }
    }

    fn running(&mut self) -> bool {
        matches!(self.process.0.try_wait(), Ok(None))
    }

    fn wait_for_exit(&mut self, patience: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + patience;
        loop {
            if let Ok(Some(status)) = self.process.0.try_wait() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
    }

    /// What the app wrote to stderr (its log lines too).
    fn output(&self) -> String {
        std::fs::read_to_string(self.home.path().join("stderr.log")).unwrap_or_default()
    }

    /// Everything in the app's log files (JSON lines), in its app log dir.
    fn log_files(&self) -> String {
        let dir = self
            .home
            .path()
            .join("data")
            .join("app.cubicle.desktop")
            .join("logs");
        let mut all = String::new();
        for entry in std::fs::read_dir(dir).into_iter().flatten().flatten() {
            all.push_str(&std::fs::read_to_string(entry.path()).unwrap_or_default());
        }
        all
    }
}

/// The app and CLI binaries, Xvfb, and a session bus; `None` (after saying why) when one
/// is missing.
fn prerequisites(test: &str) -> Option<(PathBuf, PathBuf, PathBuf)> {
    if !ns::session_bus_or_skip(test) {
        return None;
    }
    let app_bin = binary("CUBICLE_APP", "cubicle");
    let cli_bin = binary("CUBICLE_CLI", "cubicle-cli");
    for bin in [&app_bin, &cli_bin] {
        if !bin.is_file() {
            eprintln!(
                "SKIPPED: {test} ({} is missing: build it with `cargo build --features \
                 custom-protocol -p cubicle -p cubicle-cli`, or set CUBICLE_APP / CUBICLE_CLI)",
                bin.display()
            );
            return None;
        }
    }
    let (Some(xvfb), Some(_)) = (on_path("Xvfb"), on_path("xdotool")) else {
        eprintln!("SKIPPED: {test} (Xvfb or xdotool is not installed)");
        return None;
    };
    Some((app_bin, cli_bin, xvfb))
}

fn report(app: &App) -> String {
    format!("\n--- app output ---\n{}", app.output())
}

/// The icon registers with the tray and shows the one waiting approval.
async fn the_icon_shows_one_waiting_approval(tray: &TrayHost, app: &App) -> Item {
    let item: Item = match tray.wait_for_item(STARTUP).await {
        Some(item) => item,
        None => panic!("the app never registered a tray icon{}", report(app)),
    };
    let labels = tray
        .wait_for_menu(&item, SOON, |l| l.iter().any(|l| l == "Approvals (1)"))
        .await
        .unwrap_or_else(|last| panic!("menu never said 1: {last:?}{}", report(app)));
    assert_eq!(labels, ["Open Cubicle", "Approvals (1)", "Quit"]);
    let menu = tray.menu(&item).await.unwrap();
    assert!(
        menu.iter().any(|e| e.kind == "separator"),
        "Quit stands apart: {menu:?}"
    );
    assert!(menu.iter().all(|e| e.enabled), "{menu:?}");
    // Beside the icon: the count (Linux trays show no tooltip; the label is the count).
    assert_eq!(tray.item_string(&item, "XAyatanaLabel").await.unwrap(), "1");
    assert_eq!(tray.item_string(&item, "Status").await.unwrap(), "Active");
    item
}

/// Closing the window (as a window manager's close button does) only hides it.
async fn closing_the_window_only_hides_it(
    tray: &TrayHost,
    item: &Item,
    display: &Display,
    app: &mut App,
) {
    let windows = tray_host::poll(STARTUP, || async {
        let w = display.visible_windows("Cubicle");
        (!w.is_empty()).then_some(w)
    })
    .await
    .unwrap_or_else(|| panic!("no Cubicle window on the display{}", report(app)));
    for w in &windows {
        x11::request_close(display.number, *w).expect("send WM_DELETE_WINDOW");
    }
    let hidden = tray_host::poll(SOON, || async {
        display.visible_windows("Cubicle").is_empty().then_some(())
    })
    .await;
    assert!(hidden.is_some(), "the window did not go{}", report(app));
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        app.running(),
        "closing the window quit the app{}",
        report(app)
    );
    assert!(
        tray.is_alive(item).await.unwrap(),
        "the tray icon went away"
    );
    assert_eq!(
        tray.menu_labels(item).await.unwrap(),
        ["Open Cubicle", "Approvals (1)", "Quit"]
    );

    // "Open Cubicle" brings it back.
    tray.click(item, "Open Cubicle").await.expect("click Open");
    let shown = tray_host::poll(SOON, || async {
        (!display.visible_windows("Cubicle").is_empty()).then_some(())
    })
    .await;
    assert!(
        shown.is_some(),
        "Open did not show the window{}",
        report(app)
    );
}

/// The boss rejects the approval from the terminal: another process, no event on the
/// app's bus. The tray catches up on its own.
async fn a_rejection_from_the_terminal_clears_the_count(
    tray: &TrayHost,
    item: &Item,
    app: &App,
    cli_bin: &Path,
    db_url: &str,
    approval: i32,
) {
    let out = Command::new(cli_bin)
        .args(["--db", db_url, "approvals", "decide"])
        .arg(approval.to_string())
        .arg("reject")
        .output()
        .expect("run cubicle-cli");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("rejected"));
    let labels = tray
        .wait_for_menu(item, RECOUNT, |l| l.iter().any(|l| l == "Approvals (0)"))
        .await
        .unwrap_or_else(|last| panic!("the count never went to 0: {last:?}{}", report(app)));
    assert_eq!(labels, ["Open Cubicle", "Approvals (0)", "Quit"]);
    assert_eq!(tray.item_string(item, "XAyatanaLabel").await.unwrap(), "");
}

/// Quit: the app stops its engine and exits by itself, successfully, with its logs
/// flushed and its icon gone.
async fn quit_stops_the_engine_and_exits(tray: &TrayHost, item: &Item, app: &mut App) {
    tray.click(item, "Quit").await.expect("click Quit");
    let Some(status) = app.wait_for_exit(QUIT) else {
        panic!(
            "the app was still running {QUIT:?} after Quit{}",
            report(app)
        );
    };
    assert!(status.success(), "exit status {status}{}", report(app));
    let output = app.output();
    assert!(output.contains("quit from the tray"), "{output}");
    assert!(output.contains("engine stopped"), "{output}");
    // The log file got the last lines too (flushed at exit).
    assert!(
        app.log_files().contains("engine stopped"),
        "{}",
        app.log_files()
    );
    assert!(
        !tray.is_alive(item).await.unwrap(),
        "the icon outlived the app"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_tray_counts_approvals_hides_the_window_on_close_and_quits_cleanly() {
    let Some((app_bin, cli_bin, xvfb)) = prerequisites("tray") else {
        return;
    };
    let _bus = ns::exclusive_bus().await;
    let started = Instant::now();

    // A company whose copywriter waits for the boss to approve a webhook post.
    let company = TestCompany::new().await;
    let mia = company.staff("Mia", &["post_webhook"]).await;
    let approval = company
        .ask_to_post(&mia, "http://127.0.0.1:9/hook", "Release 2.3 is out")
        .await;
    assert_eq!(company.core.approvals.pending_count().await.unwrap(), 1);

    let tray = TrayHost::start()
        .await
        .expect("own the StatusNotifierWatcher");
    let display = Display::start(&xvfb);
    let mut app = App::start(&app_bin, &display, &company.url);

    let item = the_icon_shows_one_waiting_approval(&tray, &app).await;
    closing_the_window_only_hides_it(&tray, &item, &display, &mut app).await;
    a_rejection_from_the_terminal_clears_the_count(
        &tray,
        &item,
        &app,
        &cli_bin,
        &company.url,
        approval,
    )
    .await;
    quit_stops_the_engine_and_exits(&tray, &item, &mut app).await;
    eprintln!("tray scenario took {:?}", started.elapsed());
}
