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
        let name = format!("cubicle_cli_{}", std::process::id());
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
