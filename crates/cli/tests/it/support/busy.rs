//! A busy scripted company for the process tests that kill `cubicle-cli run`: a model
//! whose every answer is a fresh thought, a slow webhook counting its posts, and the
//! checks that nothing committed is lost or written twice (tests/it/crash.rs on SQLite,
//! tests/it/handover.rs on PostgreSQL).

use std::collections::{BTreeSet, HashMap};
use std::io::{BufRead, BufReader};
use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sea_orm::{ConnectionTrait, Database, DatabaseConnection, Statement};

// Beside this file, shared with the other scripted model.
#[path = "http.rs"]
mod http;
use http::{read_request, respond};

pub const NAMES: [&str; 6] = ["Ann", "Ben", "Cara", "Dan", "Eve", "Finn"];
pub const WORDS: [&str; 40] = [
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
pub struct Rng(pub u64);

impl Rng {
    pub fn next(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        self.0 = x;
        x
    }
    pub fn range(&mut self, lo: u64, hi: u64) -> u64 {
        lo + self.next() % (hi - lo + 1)
    }
    pub fn words(&mut self, n: usize) -> String {
        (0..n)
            .map(|_| WORDS[self.next() as usize % WORDS.len()])
            .collect::<Vec<_>>()
            .join(" ")
    }
}

/// The webhook outside the company: counts each POST by the token in its text.
pub fn webhook_server(posts: Arc<Mutex<HashMap<String, u32>>>) -> String {
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
pub fn model_server(hook: String, served: Arc<AtomicU64>) -> String {
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
pub fn script(n: u64, request: &str, hook: &str, r: &mut Rng) -> serde_json::Value {
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

pub struct Company {
    pub url: String,
    pub model: String,
    pub _dir: Option<tempfile::TempDir>,
    /// `CUBICLE_APPROVAL_KEY` for every process, as a server has; without it each
    /// process seals with a key of its own.
    pub approval_key: Option<String>,
}

impl Company {
    fn command(&self) -> Command {
        let mut c = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"));
        if let Some(key) = &self.approval_key {
            c.env("CUBICLE_APPROVAL_KEY", key);
        }
        c
    }

    pub fn cli(&self, args: &[&str]) -> String {
        let out = self.try_cli(args);
        assert!(
            out.status.success(),
            "{args:?} failed: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8(out.stdout).expect("utf8")
    }

    /// Runs `cubicle-cli` on this company, however it ends.
    pub fn try_cli(&self, args: &[&str]) -> std::process::Output {
        self.command()
            .arg("--db")
            .arg(&self.url)
            .args(args)
            .env("CUBICLE_TEST_WEBHOOK_LOOPBACK", "1")
            .output()
            .expect("run cubicle-cli")
    }

    pub fn start(&self) -> Child {
        self.command()
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

    /// An engine whose lease and recovery log lines (taken, standing by, recovery
    /// done) come on its piped stderr.
    pub fn start_logged(&self) -> Child {
        self.command()
            .arg("--db")
            .arg(&self.url)
            .args(["run", "--for", "30d", "--virtual-clock"])
            .env("CUBICLE_PROVIDER", "openai-compatible")
            .env("CUBICLE_BASE_URL", &self.model)
            .env("CUBICLE_MODEL", "m")
            .env(
                "RUST_LOG",
                "cubicle_core::engine::lease=info,cubicle_core::engine::pending=info",
            )
            .env("CUBICLE_TEST_WEBHOOK_LOOPBACK", "1")
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .expect("start cubicle-cli run")
    }
}

/// What an engine logs once its recovery is over: from then on nothing it finds begun
/// and unfinished is taken for something a kill interrupted.
pub const RECOVERED: &str = "recovery done";

/// A running `cubicle-cli run` and the log lines it has written so far, each with when
/// it came.
pub struct Watched {
    pub child: Child,
    log: Arc<Mutex<Vec<(Instant, String)>>>,
}

impl Watched {
    /// Starts reading the child's piped stderr.
    pub fn watch(mut child: Child) -> Self {
        let log = Arc::new(Mutex::new(Vec::new()));
        let stderr = child.stderr.take().expect("piped stderr");
        let l = log.clone();
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                l.lock().unwrap().push((Instant::now(), line));
            }
        });
        Self { child, log }
    }

    /// When it first logged a line containing `what`, if it has.
    pub fn said(&self, what: &str) -> Option<Instant> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .find(|(_, line)| line.contains(what))
            .map(|(at, _)| *at)
    }

    pub fn lines(&self) -> Vec<String> {
        self.log
            .lock()
            .unwrap()
            .iter()
            .map(|(_, l)| l.clone())
            .collect()
    }

    pub fn alive(&mut self) -> bool {
        self.child.try_wait().expect("try_wait").is_none()
    }

    /// Waits until it says its recovery is done.
    pub fn wait_recovered(&self, within: Duration) {
        let deadline = Instant::now() + within;
        while self.said(RECOVERED).is_none() {
            assert!(
                Instant::now() < deadline,
                "no recovery within {within:?}: {:?}",
                self.lines()
            );
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}

/// What the database holds at one moment.
#[derive(Default)]
pub struct Snapshot {
    pub messages: BTreeSet<i64>,
    pub tasks: BTreeSet<i64>,
    pub approvals: BTreeSet<i64>,
    pub ledger: BTreeSet<i64>,
    pub thoughts: BTreeSet<i64>,
    pub mail: BTreeSet<i64>,
    pub pending: BTreeSet<i64>,
    /// Approved, never recorded as run, not yet noted: a kill fell in the run.
    pub unexecuted: BTreeSet<i64>,
}

pub async fn ids(db: &DatabaseConnection, sql: &str) -> BTreeSet<i64> {
    db.query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .expect(sql)
        .iter()
        // SQLite hands out 64-bit integers, PostgreSQL the `integer` the ids are.
        .map(|r| {
            r.try_get_by_index::<i64>(0)
                .or_else(|_| r.try_get_by_index::<i32>(0).map(i64::from))
                .expect("id")
        })
        .collect()
}

pub async fn count(db: &DatabaseConnection, sql: &str) -> i64 {
    db.query_one_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .expect(sql)
        .map(|r| r.try_get_by_index::<i64>(0).expect("n"))
        .unwrap_or(0)
}

pub async fn snapshot(db: &DatabaseConnection) -> Snapshot {
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
pub fn lost(before: &BTreeSet<i64>, after: &BTreeSet<i64>) -> usize {
    before.difference(after).count()
}

/// Everything that would show an effect written twice.
pub async fn duplicates(db: &DatabaseConnection, posts: &HashMap<String, u32>) -> Vec<String> {
    let mut found = Vec::new();
    for (what, sql) in [
        (
            "message",
            "SELECT COUNT(*) FROM (SELECT 1 FROM chat_message WHERE sender_kind = 'employee' GROUP BY chat_id, sender_employee_id, text HAVING COUNT(*) > 1) AS d",
        ),
        (
            "task",
            "SELECT COUNT(*) FROM (SELECT 1 FROM task GROUP BY description HAVING COUNT(*) > 1) AS d",
        ),
        (
            "approval",
            "SELECT COUNT(*) FROM (SELECT 1 FROM approval GROUP BY args_hash HAVING COUNT(*) > 1) AS d",
        ),
        (
            "memory",
            "SELECT COUNT(*) FROM (SELECT 1 FROM memory GROUP BY employee_id, content HAVING COUNT(*) > 1) AS d",
        ),
        (
            "report",
            "SELECT COUNT(*) FROM (SELECT 1 FROM mail WHERE kind = 'report' GROUP BY task_id, body HAVING COUNT(*) > 1) AS d",
        ),
        (
            "pending-thought effect",
            "SELECT COUNT(*) FROM (SELECT 1 FROM applied_effect WHERE row_id IS NOT NULL AND key LIKE 'pt%:msg:%' GROUP BY row_id HAVING COUNT(*) > 1) AS d",
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

/// A busy company on `url` with its scripted model and webhook, and a connection of the
/// test's own to look at it.
pub struct Busy {
    pub company: Company,
    pub posts: Arc<Mutex<HashMap<String, u32>>>,
    pub served: Arc<AtomicU64>,
    pub rt: tokio::runtime::Runtime,
    pub db: DatabaseConnection,
}

impl Busy {
    /// Six employees in two departments, two of them running the webhook on their own
    /// say-so, the rest waiting for the boss; each department asked to get going.
    pub fn new(url: String, dir: Option<tempfile::TempDir>, approval_key: Option<String>) -> Self {
        let posts = Arc::new(Mutex::new(HashMap::new()));
        let served = Arc::new(AtomicU64::new(0));
        let hook = webhook_server(posts.clone());
        let model = model_server(hook.clone(), served.clone());
        let company = Company {
            url: url.clone(),
            model,
            _dir: dir,
            approval_key,
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
        Self {
            company,
            posts,
            served,
            rt,
            db,
        }
    }

    pub fn snapshot(&self) -> Snapshot {
        self.rt.block_on(snapshot(&self.db))
    }

    pub fn count(&self, sql: &str) -> i64 {
        self.rt.block_on(count(&self.db, sql))
    }

    /// Waits until the engine took up what `before`'s kill interrupted: its pending
    /// thoughts replayed and its interrupted approvals noted.
    pub fn wait_taken_up(&self, before: &Snapshot, what: &str, within: Duration) {
        let deadline = Instant::now() + within;
        loop {
            let now = self.snapshot();
            if before.pending.is_disjoint(&now.pending)
                && before.unexecuted.is_disjoint(&now.unexecuted)
            {
                return;
            }
            assert!(
                Instant::now() < deadline,
                "{what}: pending {:?} / unexecuted {:?} not taken up",
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
    }
}

/// What the kills found, added up.
#[derive(Default)]
pub struct Tally {
    pub kills: usize,
    pub rows_checked: usize,
    pub lost_rows: usize,
    pub replays: usize,
    pub interrupted_seen: usize,
    pub owed_at_kills: i64,
    pub dups: Vec<String>,
}

impl Tally {
    /// Checks the database right after a kill against `before`: nothing committed gone,
    /// nothing twice, nobody stuck in a transient state.
    pub fn after_kill(&mut self, busy: &Busy, before: &Snapshot) {
        let after = busy.snapshot();
        for (b, a) in [
            (&before.messages, &after.messages),
            (&before.tasks, &after.tasks),
            (&before.approvals, &after.approvals),
            (&before.ledger, &after.ledger),
            (&before.thoughts, &after.thoughts),
            (&before.mail, &after.mail),
        ] {
            self.rows_checked += b.len();
            self.lost_rows += lost(b, a);
        }
        self.kills += 1;
        self.replays += after.pending.len();
        self.owed_at_kills +=
            busy.count("SELECT COUNT(*) FROM task WHERE report_due_at IS NOT NULL");
        self.interrupted_seen += after.unexecuted.len();
        let posts = busy.posts.lock().unwrap().clone();
        self.dups
            .extend(busy.rt.block_on(duplicates(&busy.db, &posts)));
        // Nobody is left waiting for an approval that no longer waits — checked once
        // the restart has settled it (the snapshot after the next start), so here only
        // what no start can explain: a status that is neither idle nor waiting.
        let odd = busy.count(
            "SELECT COUNT(*) FROM employee WHERE status NOT IN ('idle', 'waiting_approval', 'fired')",
        );
        assert_eq!(odd, 0, "an employee stuck in a transient state");
    }

    /// One last engine takes up what the last kill left, settles everyone and writes
    /// the reports the kills held back; then the whole company is checked.
    pub fn finish(
        mut self,
        busy: &Busy,
        before: &Snapshot,
        label: &str,
        (mut decided, boss_present): (usize, bool),
    ) {
        decided += settle_last_engine(busy, before, boss_present);
        let end = busy.snapshot();
        let stuck = busy.count(
            "SELECT COUNT(*) FROM employee e WHERE e.status = 'waiting_approval' AND NOT EXISTS \
             (SELECT 1 FROM approval a WHERE a.employee_id = e.id AND a.status = 'waiting')",
        );
        let interrupted =
            busy.count("SELECT COUNT(*) FROM approval WHERE error LIKE 'interrupted:%'");
        let interrupted_mail =
            busy.count("SELECT COUNT(*) FROM mail WHERE title LIKE 'Did not run:%'");
        // Every resolved task is reported, its copy in the mailbox — none forgotten by a
        // kill between the resolution and the report.
        let forgotten = busy.count(
            "SELECT COUNT(*) FROM task t WHERE t.status = 'resolved' \
             AND NOT EXISTS (SELECT 1 FROM mail m WHERE m.task_id = t.id AND m.kind = 'report')",
        );
        let reported = busy.count("SELECT COUNT(DISTINCT task_id) FROM mail WHERE kind = 'report'");
        let posts = busy.posts.lock().unwrap().clone();
        self.dups
            .extend(busy.rt.block_on(duplicates(&busy.db, &posts)));
        let webhook_posts: u32 = posts.values().sum();
        let Tally {
            kills,
            rows_checked,
            lost_rows,
            replays,
            interrupted_seen,
            owed_at_kills,
            dups,
        } = self;
        println!(
            "{label}: {kills} kills survived; {rows_checked} rows checked, {lost_rows} lost, {} duplicates; \
             {replays} interrupted thoughts replayed, {interrupted} approvals interrupted ({interrupted_seen} seen), \
             {decided} decided by the boss, {owed_at_kills} reports owed at a kill; {} model answers, {} messages, {} tasks ({reported} reported), {} approvals, {webhook_posts} webhook posts",
            dups.len(),
            busy.served.load(Ordering::SeqCst),
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
        assert!(end.pending.len() <= 1, "pending thoughts pile up");
        // The kills fell in real work, not in an idle company.
        assert!(end.messages.len() > 20, "{} messages", end.messages.len());
        assert!(end.tasks.len() > 5 && !end.approvals.is_empty());
        assert!(
            replays + interrupted_seen > 0,
            "no kill fell between a thought's writes or in a tool run"
        );
    }
}

/// Runs one last engine until it has taken up what the kills left and no report is
/// owed; how many approvals the boss decided meanwhile. With `boss_present`, the boss
/// approves what that engine asks while reports are owed (an employee may need one more
/// approval to finish), only once the engine says its recovery is done, so no run of the
/// boss's is taken for one a kill interrupted. Owed reports wait for their chats' gates (a few posts per
/// window of simulated time), so settling may take a while on a slow machine: the engine
/// fails when it stops making progress (no new thought for `STALL`), or at `SETTLE_CAP`.
fn settle_last_engine(busy: &Busy, before: &Snapshot, boss_present: bool) -> usize {
    const STALL: Duration = Duration::from_secs(15);
    const SETTLE_CAP: Duration = Duration::from_secs(120);
    let mut engine = Watched::watch(busy.company.start_logged());
    let started = Instant::now();
    let (mut thoughts, mut progressed) = (0, started);
    let mut decided = 0;
    loop {
        let now = busy.snapshot();
        let owed = busy.count("SELECT COUNT(*) FROM task WHERE report_due_at IS NOT NULL");
        let recovered = engine.said(RECOVERED).is_some()
            && before.pending.is_disjoint(&now.pending)
            && before.unexecuted.is_disjoint(&now.unexecuted);
        if recovered && owed == 0 {
            break;
        }
        if recovered && boss_present && boss_approves_one(busy) {
            decided += 1;
        }
        if now.thoughts.len() != thoughts {
            (thoughts, progressed) = (now.thoughts.len(), Instant::now());
        }
        if progressed.elapsed() >= STALL || started.elapsed() >= SETTLE_CAP {
            panic!("{}", stalled(busy, owed, recovered, started.elapsed()));
        }
        std::thread::sleep(Duration::from_millis(50));
    }
    println!("the last engine settled in {:.1?}", started.elapsed());
    let _ = engine.child.kill();
    engine.child.wait().expect("reaped");
    decided
}

/// Why the last engine did not settle the company in time, as far as the rows tell.
fn stalled(busy: &Busy, owed: i64, recovered: bool, after: Duration) -> String {
    let waiting = busy.count("SELECT COUNT(*) FROM approval WHERE status = 'waiting'");
    let owners_waiting = busy.count(
        "SELECT COUNT(*) FROM task t JOIN employee e ON e.id = t.owner_id \
         WHERE t.report_due_at IS NOT NULL AND e.status = 'waiting_approval'",
    );
    let failed = busy.count(
        "SELECT COUNT(*) FROM thought WHERE silenced_by IN ('malformed', 'failed', 'budget')",
    );
    format!(
        "the last restart did not settle in {after:.1?} ({owed} reports still owed; recovered: {recovered}; \
         {waiting} approvals waiting, {owners_waiting} owners waiting for one; {failed} \
         dropped thoughts in all)"
    )
}

/// The boss approves one waiting request from the terminal, if one is listed; whether
/// one was decided. Its action runs once, there and then. A running engine on a
/// simulated calendar may expire the request between the listing and the decision
/// (its days pass in moments): then the boss decided nothing, and the refusal must say
/// so. (A call its policy lets through is decided as it is filed, never listed waiting.)
pub fn boss_approves_one(busy: &Busy) -> bool {
    let listed: serde_json::Value =
        serde_json::from_str(&busy.company.cli(&["approvals", "list", "--json"])).expect("json");
    let Some(first) = listed.as_array().and_then(|all| all.first()) else {
        return false;
    };
    let id = first["id"].to_string();
    let seal = first["argsHash"]
        .as_str()
        .expect("a waiting approval is listed with its seal");
    let args = [
        "approvals",
        "decide",
        &id,
        "approve",
        "--hash",
        seal,
        "--json",
    ];
    let out = busy.company.try_cli(&args);
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(
            err.contains(&format!("approval {id} expired")),
            "{args:?} failed: {err}"
        );
        return false;
    }
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).expect("json");
    assert_eq!(v["decidedVia"], "cli", "decided by the boss: {v}");
    assert!(v["executedAt"].is_string(), "it ran once: {v}");
    true
}
