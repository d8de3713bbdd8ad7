//! One engine per company, with hand-over, on real processes. On PostgreSQL two
//! `cubicle-cli run` share a busy company: one holds the engine lease, the other stands
//! by. The active one is killed with SIGKILL five times at random points (a new standby
//! joins after each kill, so two are always there); each time the standby takes over
//! within 30 s and resumes what was interrupted, and at the end nothing committed is lost
//! and nothing was done twice (the crash test's checks). On SQLite a second engine is
//! refused with a message naming the first.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use sea_orm::{ConnectionTrait, Database};

#[path = "support/busy.rs"]
#[allow(dead_code)] // shared with the crash test, which uses other parts of it
mod busy;
use busy::{Busy, Rng, Tally, Watched, boss_approves_one};

const KILLS: usize = 5;
/// The longest a company may go without an engine after its engine dies.
const TAKEOVER: Duration = Duration::from_secs(30);
const TAKEN: &str = "engine lease taken";

/// A database of its own on the test server, dropped at the end.
struct PgDatabase {
    admin_url: String,
    name: String,
    url: String,
}

impl PgDatabase {
    fn new(admin_url: &str) -> Self {
        let name = format!("cubicle_handover_{}", std::process::id());
        Self::admin(
            admin_url,
            &[
                format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"),
                format!("CREATE DATABASE {name}"),
            ],
        );
        let (base, _) = admin_url.rsplit_once('/').expect("a database in the URL");
        Self {
            admin_url: admin_url.to_owned(),
            url: format!("{base}/{name}"),
            name,
        }
    }

    fn admin(admin_url: &str, statements: &[String]) {
        let rt = tokio::runtime::Builder::new_current_thread()
            .enable_all()
            .build()
            .expect("runtime");
        rt.block_on(async {
            let admin = Database::connect(admin_url).await.expect("connect");
            for s in statements {
                admin.execute_unprepared(s).await.expect(s);
            }
        });
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        Self::admin(
            &self.admin_url,
            &[format!(
                "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                self.name
            )],
        );
    }
}

/// Waits until one of `engines` holds the lease; its index and when it said so.
fn holder(engines: &mut [Watched], deadline: Instant) -> (usize, Instant) {
    loop {
        let mut holders: Vec<(usize, Instant)> = Vec::new();
        for (i, e) in engines.iter_mut().enumerate() {
            if let Some(at) = e.said(TAKEN)
                && e.alive()
            {
                holders.push((i, at));
            }
        }
        assert!(holders.len() <= 1, "two engines hold the company at once");
        if let Some(&h) = holders.first() {
            return h;
        }
        assert!(
            Instant::now() < deadline,
            "nobody took the lease in time; logs: {:?}",
            engines.iter().map(Watched::lines).collect::<Vec<_>>()
        );
        std::thread::sleep(Duration::from_millis(20));
    }
}

#[test]
fn a_standby_engine_takes_over_five_kills_on_postgres_without_losing_or_doubling_anything() {
    let Ok(admin) = std::env::var("CUBICLE_TEST_PG_URL") else {
        eprintln!("SKIPPED: engine hand-over on PostgreSQL (CUBICLE_TEST_PG_URL not set)");
        return;
    };
    let pg = PgDatabase::new(&admin);
    // A server's engines share the approval key through the environment, so what one
    // sealed the next can verify.
    let busy = Busy::new(
        pg.url.clone(),
        None,
        Some("handover-test-approval-key-0123456789abcdef".into()),
    );
    let start = || Watched::watch(busy.company.start_logged());
    let mut rng = Rng(0x0a4d_0ff5);
    let mut engines = vec![start()];
    let (mut active, _) = holder(&mut engines, Instant::now() + TAKEOVER);
    engines.push(start());
    let mut before = busy.snapshot();
    let mut tally = Tally::default();
    let (mut decided, mut takeovers) = (0, Vec::new());
    let started = Instant::now();
    busy.wait_taken_up(&before, "the first start", TAKEOVER);
    // At least KILLS kills, and more (up to three times as many: a thought's writes take
    // milliseconds, and ten random kills in a row have all missed them) until one has
    // fallen between a thought's writes or in a tool run, as the crash test does.
    let mut kill = 0;
    while kill < KILLS || (kill < 3 * KILLS && tally.replays + tally.interrupted_seen == 0) {
        std::thread::sleep(Duration::from_millis(rng.range(1000, 4000)));
        let mut dead = engines.remove(active);
        let _ = dead.child.kill(); // SIGKILL
        let killed = Instant::now();
        dead.child.wait().expect("reaped");
        tally.after_kill(&busy, &before);
        before = busy.snapshot();
        // The standby takes over; a new one stands by behind it.
        engines.push(start());
        let (next, took) = holder(&mut engines, killed + TAKEOVER);
        let waited = took.saturating_duration_since(killed);
        assert!(waited <= TAKEOVER, "take-over {kill} after {waited:?}");
        takeovers.push(waited);
        active = next;
        // It resumes what the kill interrupted.
        busy.wait_taken_up(&before, &format!("take-over {kill}"), TAKEOVER);
        engines[active].wait_recovered(TAKEOVER);
        // The boss approves a waiting request from the terminal — once the new engine
        // has finished its recovery, which takes any run begun and not ended for one
        // the kill interrupted.
        if boss_approves_one(&busy) {
            decided += 1;
        }
        before = busy.snapshot();
        kill += 1;
    }
    for e in &mut engines {
        let _ = e.child.kill();
        e.child.wait().expect("reaped");
    }
    println!("hand-over: take-overs after {takeovers:?}");
    // With one approval key for all, a waiting approval outlives its engine (the crash
    // test's per-process keys expire them at each start): the boss settles them, so
    // their employees can write the reports they owe.
    while boss_approves_one(&busy) {
        decided += 1;
    }
    before = busy.snapshot();
    tally.finish(
        &busy,
        &before,
        &format!("hand-over ({:.1?})", started.elapsed()),
        (decided, true),
    );
    drop(busy);
    drop(pg);
}

#[test]
fn a_second_engine_on_a_sqlite_company_is_refused_naming_the_first() {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    let cli = |args: &[&str]| {
        let mut c = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"));
        c.arg("--db")
            .arg(&url)
            .args(args)
            .env_remove("CUBICLE_PROVIDER")
            .env("RUST_LOG", "cubicle_core::engine::lease=info")
            .stdout(Stdio::null())
            .stderr(Stdio::piped());
        c
    };
    let init = cli(&["org", "init", "--name", "Acme", "--boss", "Ada"])
        .output()
        .expect("init");
    assert!(init.status.success());
    let mut first = Watched::watch(cli(&["run", "--for", "60s"]).spawn().expect("first"));
    holder(std::slice::from_mut(&mut first), Instant::now() + TAKEOVER);

    let second = cli(&["run", "--for", "5s"]).output().expect("second");
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(!second.status.success(), "the second engine ran: {said}");
    assert!(
        said.contains("another engine runs this company")
            && said.contains(&format!("pid {}", first.child.id())),
        "{said}"
    );
    let _ = first.child.kill();
    first.child.wait().expect("reaped");
}
