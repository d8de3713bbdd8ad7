//! Crash safety (SPEC §10) with real processes: `cubicle-cli run` is killed
//! with SIGKILL at random points of a busy scripted company, 20 times, and restarted;
//! after each kill nothing that was committed is gone, nothing is there twice, every
//! interrupted thought is replayed at the next start, and no approved action runs twice.
//!
//! The run uses the virtual clock: it jumps from wake-up to wake-up, so the company is
//! busy from the first second (in real time the SPEC's nudge delays of 1–60 s would
//! leave most 0.2–2 s runs idle) while model calls and webhook posts still take real
//! time — the scripted model answers after 20–250 ms and the webhook after 0.3–1.2 s,
//! so kills land in calls, in tool runs and between a thought's writes.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::collections::{BTreeSet, HashMap};
use std::io::{Read, Write};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sea_orm::{ConnectionTrait, Database, DatabaseConnection, DbBackend, Statement};

const KILLS: usize = 20;
const NAMES: [&str; 6] = ["Ann", "Ben", "Cara", "Dan", "Eve", "Finn"];
const WORDS: [&str; 40] = [
    "billing",
    "latency",
    "invoice",
    "rollout",
    "cache",
    "schema",
    "pricing",
    "churn",
    "onboarding",
    "audit",
    "backlog",
    "sprint",
    "renewal",
    "pipeline",
    "quota",
    "refund",
    "migration",
    "dashboard",
    "webhook",
    "contract",
    "staging",
    "metrics",
    "export",
    "login",
    "search",
    "upload",
    "partner",
    "demo",
    "ticket",
    "budget",
    "forecast",
    "release",
    "hotfix",
    "survey",
    "roadmap",
    "pitch",
    "backup",
    "alerting",
    "sandbox",
    "checkout",
];

/// A small seeded generator (xorshift): the test repeats its schedule of kills.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    fn words(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| WORDS[self.next() as usize % WORDS.len()])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// Reads one HTTP request (head and body) from a stream.
fn read_request(s: &mut std::net::TcpStream) -> String {
    let mut buf = Vec::new();
    let mut chunk = [0u8; 8192];
    loop {
        let n = s.read(&mut chunk).unwrap_or(0);
        buf.extend_from_slice(&chunk[..n]);
        let text = String::from_utf8_lossy(&buf);
        if let Some(head_end) = text.find("\r\n\r\n") {
            let len = text[..head_end]
                .lines()
                .find_map(|l| {
                    l.to_ascii_lowercase()
                        .strip_prefix("content-length:")
                        .map(|v| v.trim().parse::<usize>().unwrap_or(0))
                })
                .unwrap_or(0);
            if buf.len() >= head_end + 4 + len {
                break;
            }
        }
        if n == 0 {
            break;
        }
    }
    String::from_utf8_lossy(&buf).into_owned()
}

fn respond(s: &mut std::net::TcpStream, body: &str) {
    let _ = write!(
        s,
        "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
}

/// The webhook outside the company: counts each POST by the token in its text.
fn webhook_server(posts: Arc<Mutex<HashMap<String, u32>>>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        let mut rng = Rng(0x9e37_79b9);
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            let req = read_request(&mut s);
            if let Some(i) = req.find("hook-") {
                let token: String = req[i..]
                    .chars()
                    .take_while(|c| c.is_ascii_alphanumeric() || *c == '-')
                    .collect();
                *posts.lock().unwrap().entry(token).or_default() += 1;
            }
            // A slow receiver: kills land while a tool runs.
            let delay = Duration::from_millis(rng.range(300, 1200));
            std::thread::spawn(move || {
                std::thread::sleep(delay);
                respond(&mut s, "{\"ok\":true}");
            });
        }
    });
    format!("http://{addr}/hook")
}

/// A scripted OpenAI-compatible model: every answer is a valid thought with fresh words
/// (so any text found twice was written twice), that posts, and now and then creates or
/// resolves a task, changes a relationship, remembers, or asks for the webhook.
fn model_server(hook: String, served: Arc<AtomicU64>) -> String {
    let listener = TcpListener::bind("127.0.0.1:0").expect("bind");
    let addr = listener.local_addr().expect("addr");
    std::thread::spawn(move || {
        let rng = Arc::new(Mutex::new(Rng(0x2545_f491)));
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { continue };
            let (hook, served, rng) = (hook.clone(), served.clone(), rng.clone());
            std::thread::spawn(move || {
                let req = read_request(&mut s);
                let n = served.fetch_add(1, Ordering::SeqCst);
                let (thought, delay) = {
                    let mut r = rng.lock().unwrap();
                    (script(n, &req, &hook, &mut r), r.range(20, 250))
                };
                std::thread::sleep(Duration::from_millis(delay));
                let body = serde_json::json!({
                    "id": format!("c{n}"), "object": "chat.completion", "model": "m",
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": thought.to_string()}}],
                    "usage": {"prompt_tokens": 50, "completion_tokens": 20, "total_tokens": 70}
                });
                respond(&mut s, &body.to_string());
            });
        }
    });
    format!("http://{addr}/v1")
}

/// The thought for answer `n`.
fn script(n: u64, request: &str, hook: &str, r: &mut Rng) -> serde_json::Value {
    // A pending task of the thinker's, as the prompt lists it ("… min] #12 …").
    let task = request.find("min] #").and_then(|i| {
        request[i + 6..]
            .chars()
            .take_while(char::is_ascii_digit)
            .collect::<String>()
            .parse::<u64>()
            .ok()
    });
    let mut t = serde_json::json!({
        "innerThoughts": format!("thinking {n} about {}", r.words(3)),
        "interestLevel": 9, "topicSaturation": 1,
        "shouldSpeak": true,
        "reason": "keep the team moving",
        "messages": [{"content": format!("Note {n}: {} then {}.", r.words(6), r.words(5))}],
        "relationshipOps": [{"name": NAMES[r.next() as usize % NAMES.len()],
                             "affinity": r.range(40, 70), "impression": r.words(2)}],
    });
    if n.is_multiple_of(3) {
        t["taskOps"] = serde_json::json!([{"op": "create", "description": format!("Task {n}: {}", r.words(4))}]);
    } else if let Some(id) = task.filter(|_| n % 3 == 1) {
        t["taskOps"] = serde_json::json!([{"op": "resolve", "id": id, "result": format!("done {n}: {}", r.words(3))}]);
    }
    if n.is_multiple_of(2) {
        t["toolCalls"] = serde_json::json!([{"tool": "post_webhook",
            "args": {"url": hook, "text": format!("hook-{n} {}", r.words(2)), "style": "slack"},
            "reason": "tell the partner"}]);
    }
    if n.is_multiple_of(5) {
        t["memoryOps"] = serde_json::json!([{"op": "add", "kind": "long_term", "content": format!("fact {n}: {}", r.words(5))}]);
    }
    t
}

struct Company {
    url: String,
    model: String,
    _dir: tempfile::TempDir,
}

impl Company {
    fn cli(&self, args: &[&str]) -> String {
        let out = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
            .arg("--db")
            .arg(&self.url)
            .args(args)
            .env("CUBICLE_TEST_WEBHOOK_LOOPBACK", "1")
            .output()
            .expect("run cubicle-cli");
        assert!(
            out.status.success(),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf8")
    }

    fn start(&self) -> Child {
        Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
            .arg("--db")
            .arg(&self.url)
            .args(["run", "--for", "30d", "--virtual-clock"])
            .env("CUBICLE_PROVIDER", "openai-compatible")
            .env("CUBICLE_BASE_URL", &self.model)
            .env("CUBICLE_MODEL", "m")
            .env("RUST_LOG", "off")
            // Debug builds only: lets webhooks reach the test's loopback server.
            .env("CUBICLE_TEST_WEBHOOK_LOOPBACK", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("start cubicle-cli run")
    }
}

/// What the database holds at one moment.
#[derive(Default)]
struct Snapshot {
    messages: BTreeSet<i64>,
    tasks: BTreeSet<i64>,
    approvals: BTreeSet<i64>,
    ledger: BTreeSet<i64>,
    thoughts: BTreeSet<i64>,
    mail: BTreeSet<i64>,
    pending: BTreeSet<i64>,
    /// Approved, never recorded as run, not yet noted: a kill fell in the run.
    unexecuted: BTreeSet<i64>,
}

async fn ids(db: &DatabaseConnection, sql: &str) -> BTreeSet<i64> {
    db.query_all_raw(Statement::from_string(DbBackend::Sqlite, sql))
        .await
        .expect(sql)
        .iter()
        .map(|r| r.try_get_by_index::<i64>(0).expect("id"))
        .collect()
}

async fn count(db: &DatabaseConnection, sql: &str) -> i64 {
    db.query_one_raw(Statement::from_string(DbBackend::Sqlite, sql))
        .await
        .expect(sql)
        .map(|r| r.try_get_by_index::<i64>(0).expect("n"))
        .unwrap_or(0)
}

async fn snapshot(db: &DatabaseConnection) -> Snapshot {
    Snapshot {
        messages: ids(db, "SELECT id FROM chat_message").await,
        tasks: ids(db, "SELECT id FROM task").await,
        approvals: ids(db, "SELECT id FROM approval").await,
        ledger: ids(db, "SELECT id FROM cost_ledger").await,
        thoughts: ids(db, "SELECT id FROM thought").await,
        mail: ids(db, "SELECT id FROM mail").await,
        pending: ids(db, "SELECT id FROM pending_thought").await,
        unexecuted: ids(
            db,
            "SELECT id FROM approval WHERE status = 'approved' AND executed_at IS NULL AND error IS NULL",
        )
        .await,
    }
}

/// Rows that were there before and are gone now.
fn lost(before: &BTreeSet<i64>, after: &BTreeSet<i64>) -> usize {
    before.difference(after).count()
}

/// Everything that would show an effect written twice.
async fn duplicates(db: &DatabaseConnection, posts: &HashMap<String, u32>) -> Vec<String> {
    let mut found = Vec::new();
    for (what, sql) in [
        (
            "message",
            "SELECT COUNT(*) FROM (SELECT 1 FROM chat_message WHERE sender_kind = 'employee' GROUP BY chat_id, sender_employee_id, text HAVING COUNT(*) > 1)",
        ),
        (
            "task",
            "SELECT COUNT(*) FROM (SELECT 1 FROM task GROUP BY description HAVING COUNT(*) > 1)",
        ),
        (
            "approval",
            "SELECT COUNT(*) FROM (SELECT 1 FROM approval GROUP BY args_hash HAVING COUNT(*) > 1)",
        ),
        (
            "memory",
            "SELECT COUNT(*) FROM (SELECT 1 FROM memory GROUP BY employee_id, content HAVING COUNT(*) > 1)",
        ),
        (
            "report",
            "SELECT COUNT(*) FROM (SELECT 1 FROM mail WHERE kind = 'report' GROUP BY task_id, body HAVING COUNT(*) > 1)",
        ),
        (
            "pending-thought effect",
            "SELECT COUNT(*) FROM (SELECT 1 FROM applied_effect WHERE row_id IS NOT NULL AND key LIKE 'pt%:msg:%' GROUP BY row_id HAVING COUNT(*) > 1)",
        ),
    ] {
        let n = count(db, sql).await;
        if n > 0 {
            found.push(format!("{n} {what}(s) twice"));
        }
    }
    for (token, n) in posts {
        if *n > 1 {
            found.push(format!("webhook {token} posted {n} times"));
        }
    }
    found
}

#[test]
fn the_engine_survives_twenty_kills_without_losing_or_doubling_anything() {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    let posts = Arc::new(Mutex::new(HashMap::new()));
    let served = Arc::new(AtomicU64::new(0));
    let hook = webhook_server(posts.clone());
    let model = model_server(hook.clone(), served.clone());
    let company = Company {
        url: url.clone(),
        model,
        _dir: dir,
    };
    company.cli(&["org", "init", "--name", "Acme", "--boss", "Ada"]);
    company.cli(&["webhooks", "allow", &hook]);
    for dept in ["Engineering", "Sales"] {
        company.cli(&["org", "add-department", dept]);
    }
    for (i, name) in NAMES.iter().enumerate() {
        let dept = if i < 3 { "Engineering" } else { "Sales" };
        company.cli(&[
            "org",
            "hire",
            name,
            "--title",
            "Engineer",
            "--department",
            dept,
        ]);
        // Two run the webhook on their own say-so (the engine runs it at once, so a
        // kill can fall in the run); the rest wait for the boss.
        let policy = if i % 3 == 0 { "auto" } else { "company" };
        company.cli(&[
            "org",
            "set-tools",
            name,
            "--tools",
            "post_webhook",
            "--policy",
            policy,
        ]);
    }

    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime");
    let db = rt.block_on(Database::connect(&url)).expect("open the db");
    let chats = rt.block_on(ids(&db, "SELECT id FROM chat WHERE kind = 'department'"));
    assert_eq!(chats.len(), 2, "one chat per department");
    for chat in &chats {
        company.cli(&[
            "post",
            &chat.to_string(),
            "Team: plan this week's work, split it up and keep each other posted.",
        ]);
    }

    let mut rng = Rng(0x5eed_c0de);
    let mut before = rt.block_on(snapshot(&db));
    let (mut rows_checked, mut lost_rows, mut replays, mut interrupted_seen) = (0usize, 0, 0, 0);
    let mut decided = 0;
    let mut owed_at_kills = 0;
    let mut dups = Vec::new();
    let started = Instant::now();
    for kill in 0..KILLS {
        let mut child = company.start();
        // Whatever the last kill interrupted is taken up first: its pending thoughts
        // are replayed and its interrupted approvals noted, within moments.
        let deadline = Instant::now() + Duration::from_secs(15);
        loop {
            let now = rt.block_on(snapshot(&db));
            let replayed = before.pending.is_disjoint(&now.pending);
            let noted = before.unexecuted.is_disjoint(&now.unexecuted);
            if replayed && noted {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "restart {kill}: pending {:?} / unexecuted {:?} not taken up",
                before
                    .pending
                    .intersection(&now.pending)
                    .collect::<Vec<_>>(),
                before
                    .unexecuted
                    .intersection(&now.unexecuted)
                    .collect::<Vec<_>>()
            );
            std::thread::sleep(Duration::from_millis(50));
        }
        std::thread::sleep(Duration::from_millis(rng.range(200, 2000)));
        let _ = child.kill(); // SIGKILL (it may have ended on its own)
        child.wait().expect("reaped");

        let after = rt.block_on(snapshot(&db));
        for (b, a) in [
            (&before.messages, &after.messages),
            (&before.tasks, &after.tasks),
            (&before.approvals, &after.approvals),
            (&before.ledger, &after.ledger),
            (&before.thoughts, &after.thoughts),
            (&before.mail, &after.mail),
        ] {
            rows_checked += b.len();
            lost_rows += lost(b, a);
        }
        replays += after.pending.len();
        owed_at_kills += rt.block_on(count(
            &db,
            "SELECT COUNT(*) FROM task WHERE report_due_at IS NOT NULL",
        ));
        interrupted_seen += after.unexecuted.len();
        dups.extend(rt.block_on(duplicates(&db, &posts.lock().unwrap())));
        // Nobody is left waiting for an approval that no longer waits — checked once
        // the restart has settled it (the snapshot after the next start), so here only
        // what no start can explain: a status that is neither idle nor waiting.
        let odd = rt.block_on(count(
            &db,
            "SELECT COUNT(*) FROM employee WHERE status NOT IN ('idle', 'waiting_approval', 'fired')",
        ));
        assert_eq!(odd, 0, "an employee stuck in a transient state");
        // The boss approves one waiting request now and then, from the terminal.
        if kill % 3 == 1
            && let Some(id) = rt
                .block_on(ids(&db, "SELECT id FROM approval WHERE status = 'waiting'"))
                .first()
        {
            let listed: serde_json::Value =
                serde_json::from_str(&company.cli(&["approvals", "list", "--json"])).expect("json");
            let seal = listed
                .as_array()
                .and_then(|all| all.iter().find(|a| a["id"] == *id))
                .and_then(|a| a["argsHash"].as_str())
                .expect("the waiting approval is listed with its seal")
                .to_owned();
            let out = company.cli(&[
                "approvals",
                "decide",
                &id.to_string(),
                "approve",
                "--hash",
                &seal,
                "--json",
            ]);
            let v: serde_json::Value = serde_json::from_str(&out).expect("json");
            assert!(v["executedAt"].is_string(), "it ran once: {v}");
            decided += 1;
        }
        before = rt.block_on(snapshot(&db));
    }

    // One last start takes up what the last kill left, settles everyone and writes
    // the reports the kills held back.
    let mut child = company.start();
    let deadline = Instant::now() + Duration::from_secs(15);
    loop {
        let now = rt.block_on(snapshot(&db));
        let owed = rt.block_on(count(
            &db,
            "SELECT COUNT(*) FROM task WHERE report_due_at IS NOT NULL",
        ));
        if before.pending.is_disjoint(&now.pending)
            && before.unexecuted.is_disjoint(&now.unexecuted)
            && owed == 0
        {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the last restart took nothing up ({owed} reports still owed)"
        );
        std::thread::sleep(Duration::from_millis(50));
    }
    let _ = child.kill();
    child.wait().expect("reaped");
    let end = rt.block_on(snapshot(&db));
    let stuck = rt.block_on(count(
        &db,
        "SELECT COUNT(*) FROM employee e WHERE e.status = 'waiting_approval' AND NOT EXISTS \
         (SELECT 1 FROM approval a WHERE a.employee_id = e.id AND a.status = 'waiting')",
    ));
    let interrupted = rt.block_on(count(
        &db,
        "SELECT COUNT(*) FROM approval WHERE error LIKE 'interrupted:%'",
    ));
    let interrupted_mail = rt.block_on(count(
        &db,
        "SELECT COUNT(*) FROM mail WHERE title LIKE 'Did not run:%'",
    ));
    // Every resolved task is reported, its copy in the mailbox — none forgotten by a
    // kill between the resolution and the report.
    let forgotten = rt.block_on(count(
        &db,
        "SELECT COUNT(*) FROM task t WHERE t.status = 'resolved' \
         AND NOT EXISTS (SELECT 1 FROM mail m WHERE m.task_id = t.id AND m.kind = 'report')",
    ));
    let reported = rt.block_on(count(
        &db,
        "SELECT COUNT(DISTINCT task_id) FROM mail WHERE kind = 'report'",
    ));
    dups.extend(rt.block_on(duplicates(&db, &posts.lock().unwrap())));
    let webhook_posts: u32 = posts.lock().unwrap().values().sum();
    println!(
        "crash test: {KILLS} kills survived in {:.1?}; {rows_checked} rows checked, {lost_rows} lost, {} duplicates; \
         {replays} interrupted thoughts replayed, {interrupted} approvals interrupted ({interrupted_seen} seen), \
         {decided} decided by the boss, {owed_at_kills} reports owed at a kill; {} model answers, {} messages, {} tasks ({reported} reported), {} approvals, {webhook_posts} webhook posts",
        started.elapsed(),
        dups.len(),
        served.load(Ordering::SeqCst),
        end.messages.len(),
        end.tasks.len(),
        end.approvals.len(),
    );
    assert_eq!(lost_rows, 0, "committed rows disappeared");
    assert_eq!(forgotten, 0, "resolved tasks whose report was lost");
    assert!(dups.is_empty(), "written twice: {dups:?}");
    assert_eq!(
        stuck, 0,
        "someone waits for an approval that no longer waits"
    );
    assert_eq!(
        interrupted, interrupted_mail,
        "every interrupted approval is in the boss's mailbox"
    );
    assert!(
        end.pending.is_empty() || end.pending.len() <= 1,
        "pending thoughts pile up"
    );
    // The kills fell in real work, not in an idle company.
    assert!(end.messages.len() > 20, "{} messages", end.messages.len());
    assert!(end.tasks.len() > 5 && !end.approvals.is_empty());
    assert!(
        replays + interrupted_seen > 0,
        "no kill fell between a thought's writes or in a tool run"
    );
}
