//! The company on a shared PostgreSQL server, run by the real `cubicle-cli` binary the
//! way docs/server.md tells a team to: `org init` and hiring against the server, a boss
//! message, `run --virtual-clock` with a scripted model, and everything read back from
//! the server by later processes. Needs `CUBICLE_TEST_PG_URL` (scripts/test.sh starts
//! a throwaway server); prints SKIPPED without it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::process::{Command, Output};

use sea_orm::{ConnectionTrait, Database, DbBackend, Statement};

#[path = "support/model.rs"]
mod model;
use model::scripted_model;

/// A database of its own on the test server, dropped at the end.
struct PgDatabase {
    admin_url: String,
    name: String,
    url: String,
}

fn block_on<T>(f: impl std::future::Future<Output = T>) -> T {
    tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .expect("runtime")
        .block_on(f)
}

impl PgDatabase {
    fn new(admin_url: &str) -> Self {
        // One per test of this process (they run side by side).
        static NEXT: std::sync::atomic::AtomicUsize = std::sync::atomic::AtomicUsize::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let name = format!("cubicle_cli_{}_{n}", std::process::id());
        block_on(async {
            let admin = Database::connect(admin_url).await.expect("connect");
            admin
                .execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                .await
                .expect("drop a leftover");
            admin
                .execute_unprepared(&format!("CREATE DATABASE {name}"))
                .await
                .expect("create the test database");
        });
        let (base, _) = admin_url.rsplit_once('/').expect("a database in the URL");
        Self {
            admin_url: admin_url.to_owned(),
            url: format!("{base}/{name}"),
            name,
        }
    }

    fn count(&self, sql: &str) -> i64 {
        block_on(async {
            let db = Database::connect(&self.url).await.expect("connect");
            let row = db
                .query_one_raw(Statement::from_string(DbBackend::Postgres, sql))
                .await
                .expect("query")
                .expect("a row");
            row.try_get_by_index::<i64>(0).expect("a count")
        })
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        block_on(async {
            if let Ok(admin) = Database::connect(&self.admin_url).await {
                let _ = admin
                    .execute_unprepared(&format!(
                        "DROP DATABASE IF EXISTS {} WITH (FORCE)",
                        self.name
                    ))
                    .await;
            }
        });
    }
}

fn cli(envs: &[(&str, &str)], args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args(args)
        // Only the provider a test gives; the database always comes from the test.
        .env_remove("CUBICLE_PROVIDER")
        .env_remove("CUBICLE_DATABASE_URL")
        .envs(envs.iter().copied())
        .output()
        .expect("run cubicle-cli")
}

fn ok(envs: &[(&str, &str)], args: &[&str]) -> String {
    let out = cli(envs, args);
    assert!(
        out.status.success(),
        "{args:?} failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf8")
}

/// `cubicle-cli --db <url> …`, as a one-off command would run it.
fn on_db(pg: &PgDatabase, args: &[&str]) -> String {
    let mut all = vec!["--db", pg.url.as_str()];
    all.extend_from_slice(args);
    ok(&[], &all)
}

/// Acme with Alice and Bob in Engineering, set up through the environment and through
/// --db; the boss asks Alice for research and speaks in the department chat. The task's id.
fn set_up_acme_and_ask_alice_for_research(pg: &PgDatabase) -> i64 {
    // Set up through the environment, as a systemd unit would…
    let env = [("CUBICLE_DATABASE_URL", pg.url.as_str())];
    ok(&env, &["org", "init", "--name", "Acme", "--boss", "Ada"]);
    ok(&env, &["org", "add-department", "Engineering"]);
    // …and through --db, as a one-off command would.
    for (name, title) in [("Alice", "Backend Engineer"), ("Bob", "QA Engineer")] {
        on_db(
            pg,
            &[
                "org",
                "hire",
                name,
                "--title",
                title,
                "--department",
                "Engineering",
            ],
        );
    }
    on_db(
        pg,
        &["say", "--yes", "ask Alice to research REST vs GraphQL"],
    );
    let tasks: serde_json::Value = serde_json::from_str(&on_db(pg, &["tasks", "--json"])).unwrap();
    assert_eq!(tasks[0]["status"], "pending", "{tasks}");
    let task_id = tasks[0]["id"].as_i64().unwrap();
    // The boss also speaks in the department's group chat.
    let chats = on_db(pg, &["chats"]);
    let eng_chat = chats
        .lines()
        .find(|l| l.starts_with("# Engineering [department chat #"))
        .and_then(|l| l.split('#').nth(2))
        .and_then(|rest| rest.split(',').next())
        .unwrap_or_else(|| panic!("the Engineering chat in {chats}"));
    on_db(pg, &["post", eng_chat, "Team, what blocks the launch?"]);
    task_id
}

/// `run --for 10m --virtual-clock` against the server with a scripted model whose
/// thought resolves the task; at least two thoughts are run.
fn run_ten_minutes_with_a_model_that_resolves(pg: &PgDatabase, task_id: i64) {
    let thought = serde_json::json!({
        "innerThoughts": "I compared both; REST fits our clients today.",
        "messages": [{"content": "Research done: REST for now, GraphQL once the mobile app needs it."}],
        "shouldSpeak": true,
        "taskOps": [{"op": "resolve", "id": task_id, "result": "REST for now"}]
    });
    let model = scripted_model(&thought.to_string());
    let out = cli(
        &[
            ("CUBICLE_DATABASE_URL", pg.url.as_str()),
            ("CUBICLE_PROVIDER", "openai-compatible"),
            ("CUBICLE_BASE_URL", model.as_str()),
            ("CUBICLE_MODEL", "m"),
        ],
        &[
            "run",
            "--for",
            "10m",
            "--virtual-clock",
            "--seed",
            "1",
            "--json",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stats: serde_json::Value = serde_json::from_slice(&out.stdout).expect("one JSON object");
    assert!(stats["thoughts"].as_u64().unwrap() >= 2, "{stats}");
}

/// Fresh processes read the resolved task, Alice's report and the team's answer in the
/// group back from the server, and PostgreSQL itself holds them.
fn everything_is_read_back_from_the_server(pg: &PgDatabase, task_id: i64) {
    let tasks: serde_json::Value = serde_json::from_str(&on_db(pg, &["tasks", "--json"])).unwrap();
    assert_eq!(tasks[0]["status"], "resolved", "{tasks}");
    let mail: serde_json::Value = serde_json::from_str(&on_db(pg, &["mailbox", "--json"])).unwrap();
    let report = mail["items"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["kind"] == "report")
        .unwrap_or_else(|| panic!("a report in the mailbox: {mail}"));
    assert_eq!(report["employeeName"], "Alice");
    assert_eq!(report["taskId"], task_id);
    let chats = on_db(pg, &["chats"]);
    let after_boss = chats
        .split("Team, what blocks the launch?")
        .nth(1)
        .expect("the boss's message");
    assert!(
        after_boss.contains("Research done"),
        "the team answered in the group: {chats}"
    );
    // And straight from PostgreSQL, not some file beside the CLI.
    assert_eq!(
        pg.count("SELECT count(*) FROM task WHERE status = 'resolved'"),
        1
    );
    assert!(pg.count("SELECT count(*) FROM thought") >= 2);
}

#[test]
fn a_company_runs_on_postgres_with_the_cli_and_is_read_back_from_the_server() {
    let Ok(admin) = std::env::var("CUBICLE_TEST_PG_URL") else {
        eprintln!("SKIPPED: cubicle-cli on PostgreSQL (CUBICLE_TEST_PG_URL not set)");
        return;
    };
    let pg = PgDatabase::new(&admin);
    let task_id = set_up_acme_and_ask_alice_for_research(&pg);
    run_ten_minutes_with_a_model_that_resolves(&pg, task_id);
    // Read back by fresh processes: everything is on the server.
    everything_is_read_back_from_the_server(&pg, task_id);
}

#[test]
fn a_bad_server_url_is_a_clear_error_without_the_password() {
    let Ok(admin) = std::env::var("CUBICLE_TEST_PG_URL") else {
        eprintln!("SKIPPED: cubicle-cli on PostgreSQL (CUBICLE_TEST_PG_URL not set)");
        return;
    };
    // Same server, a database that does not exist, a password in the URL.
    let (base, _) = admin.rsplit_once('/').unwrap();
    let url =
        format!("{base}/no_such_company").replacen("://postgres@", "://postgres:s3cret-pw@", 1);
    assert!(url.contains("s3cret-pw"), "{url}");
    let out = cli(&[("CUBICLE_DATABASE_URL", url.as_str())], &["org", "show"]);
    assert!(!out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no_such_company"), "{err}");
    assert!(!err.contains("s3cret-pw"), "the password leaked: {err}");
}

/// `cubicle-cli` with `stdin` piped in, as a person pasting their sign-in.
fn with_stdin(args: &[&str], stdin: &str) -> Output {
    use std::io::Write;
    let mut child = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"))
        .args(args)
        .env_remove("CUBICLE_PROVIDER")
        .env_remove("CUBICLE_DATABASE_URL")
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run cubicle-cli");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(stdin.as_bytes())
        .unwrap();
    child.wait_with_output().expect("cubicle-cli ends")
}

/// `cubicle-cli --db <url> …` with a sign-in's URL, succeeding or not.
fn as_login(url: &str, args: &[&str]) -> Output {
    let mut all = vec!["--db", url];
    all.extend_from_slice(args);
    cli(&[], &all)
}

/// Acme with Lin answering for Product, and the sign-in the boss issued her.
fn acme_with_lin_and_her_sign_in(pg: &PgDatabase) -> String {
    on_db(pg, &["org", "init", "--name", "Acme", "--boss", "Ada"]);
    on_db(pg, &["org", "add-department", "Product"]);
    on_db(
        pg,
        &[
            "people",
            "add",
            "Lin",
            "--department",
            "Product",
            "--policy",
            "manual",
        ],
    );
    let issued = on_db(pg, &["people", "login", "Lin"]);
    let url = issued
        .lines()
        .find(|l| l.starts_with("postgres"))
        .unwrap_or_else(|| panic!("a sign-in URL in {issued}"))
        .to_owned();
    assert!(issued.contains("shown only this once"), "{issued}");
    assert!(url.contains("cubicle_person_"), "{url}");
    url
}

/// With her sign-in Lin reads the company; the engine and the boss's changes are refused
/// her, by the database, and no error shows her password.
fn lin_reads_but_is_refused_the_boss_s_changes(pg: &PgDatabase, url: &str) {
    let people = as_login(url, &["people", "list"]);
    assert!(people.status.success(), "{people:?}");
    assert!(String::from_utf8_lossy(&people.stdout).contains("Lin"));
    let engine = as_login(url, &["run", "--for", "1m", "--virtual-clock"]);
    assert!(!engine.status.success());
    assert!(
        String::from_utf8_lossy(&engine.stderr).contains("never in a person's name"),
        "{engine:?}"
    );
    let refused = as_login(url, &["org", "add-department", "Shadow IT"]);
    assert!(!refused.status.success());
    let err = String::from_utf8_lossy(&refused.stderr);
    assert!(err.contains("permission denied"), "{err}");
    assert!(
        !err.contains(url.rsplit_once('@').unwrap().0),
        "no password in errors: {err}"
    );
    assert_eq!(
        pg.count("SELECT count(*) FROM department WHERE name = 'Shadow IT'"),
        0
    );
}

/// Her keychain keeps the sign-in; with no --db, the CLI opens the company with it. A
/// sign-in that is not a server's is refused before anything is saved.
fn her_keychain_keeps_it(url: &str) {
    if std::env::var("CUBICLE_TEST_KEYRING").is_ok_and(|v| v == "1") {
        let saved = with_stdin(&["sign-in"], &format!("{url}\n"));
        assert!(saved.status.success(), "{saved:?}");
        let said = String::from_utf8_lossy(&saved.stdout);
        assert!(
            said.contains("signed in to Acme") && said.contains("as Lin"),
            "{said}"
        );
        assert!(!said.contains(url), "the sign-in is not echoed: {said}");
        let shown = ok(&[], &["org", "show"]);
        assert!(shown.contains("Acme"), "{shown}");
        ok(&[], &["sign-in", "--forget"]);
    } else {
        eprintln!("SKIPPED: the keychain half (no test keychain: run scripts/test.sh)");
    }
    let bad = with_stdin(&["sign-in"], "sqlite:///tmp/elsewhere.db\n");
    assert!(!bad.status.success());
    assert!(
        String::from_utf8_lossy(&bad.stderr).contains("postgres:// URL"),
        "{bad:?}"
    );
}

/// The boss gives Lin a sign-in of her own: with it she reads the company, the database
/// refuses her what only the boss may do, her computer's keychain keeps it, and removing
/// her ends it.
#[test]
fn a_person_signs_in_with_a_login_of_their_own_kept_in_their_keychain() {
    let Ok(admin) = std::env::var("CUBICLE_TEST_PG_URL") else {
        eprintln!("SKIPPED: cubicle-cli on PostgreSQL (CUBICLE_TEST_PG_URL not set)");
        return;
    };
    let pg = PgDatabase::new(&admin);
    let url = acme_with_lin_and_her_sign_in(&pg);
    lin_reads_but_is_refused_the_boss_s_changes(&pg, &url);
    her_keychain_keeps_it(&url);
    // Removed, Lin's sign-in no longer opens anything.
    on_db(&pg, &["people", "remove", "Lin"]);
    let after = as_login(&url, &["people", "list"]);
    assert!(!after.status.success(), "{after:?}");
}
