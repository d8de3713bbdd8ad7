//! Every migration runs up, down and up again on SQLite and on PostgreSQL.
//!
//! PostgreSQL comes from `CUBICLE_TEST_PG_URL` (scripts/test.sh starts a throwaway
//! cluster and sets it). Without it the PostgreSQL test fails rather than passing
//! silently; set `CUBICLE_SKIP_PG=1` to skip it knowingly.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use cubicle_migrations::{Migrator, MigratorTrait};
use sea_orm_migration::SchemaManager;
use sea_orm_migration::sea_orm::{ConnectionTrait, Database, DatabaseConnection};

const TABLES: [&str; 35] = [
    "company",
    "department",
    "team",
    "employee",
    "role_template",
    "provider",
    "model_price",
    "model_route",
    "cost_ledger",
    "app_setting",
    "secretary_message",
    "secretary_action",
    "chat",
    "chat_member",
    "chat_message",
    "requirement",
    "task",
    "memory",
    "chat_summary",
    "relationship",
    "employee_state",
    "thought",
    "mail",
    "meeting",
    "moderator_note",
    "decision",
    "trace",
    "approval",
    "tool_call",
    "pending_thought",
    "applied_effect",
    "person",
    "person_duty",
    "proxy_line",
    "chat_person",
];

async fn assert_tables(db: &DatabaseConnection, present: bool) {
    let manager = SchemaManager::new(db);
    for table in TABLES {
        assert_eq!(
            manager.has_table(table).await.expect("has_table"),
            present,
            "table {table} present={present}"
        );
    }
}

async fn up_down_up(db: &DatabaseConnection) {
    Migrator::up(db, None).await.expect("up");
    assert_tables(db, true).await;
    let applied = Migrator::get_applied_migrations(db).await.expect("applied");
    assert_eq!(applied.len(), Migrator::migrations().len());

    // A row that uses every foreign key, so `down` has to cope with real data.
    for sql in [
        "INSERT INTO company (name, mission, boss_name, language, approval_policy, daily_budget_usd, created_at, updated_at) VALUES ('Acme', '', 'Ada', 'en', 'key_steps', 2.0, '2026-11-30T00:00:00Z', '2026-11-30T00:00:00Z')",
        "INSERT INTO department (company_id, name, mission, created_at) VALUES (1, 'Engineering', '', '2026-11-30T00:00:00Z')",
        "INSERT INTO department (company_id, name, mission, parent_id, created_at) VALUES (1, 'Frontend', '', 1, '2026-11-30T00:00:00Z')",
        "INSERT INTO team (department_id, name, created_at) VALUES (2, 'Web', '2026-11-30T00:00:00Z')",
        "INSERT INTO employee (company_id, name, title, department_id, team_id, archetype, speaking_style, skills, backend_provider, backend_model, tool_whitelist, status, hired_at) VALUES (1, 'Alice', 'Engineer', 2, 1, 'old_hand', '', '[]', 'builtin', 'm', '[]', 'idle', '2026-11-30T00:00:00Z')",
        "INSERT INTO employee (company_id, name, title, department_id, archetype, speaking_style, skills, backend_provider, backend_model, tool_whitelist, status, hired_at) VALUES (1, 'Bob', 'Designer', 2, 'chatterbox', '', '[]', 'builtin', 'm', '[]', 'idle', '2026-11-30T00:00:00Z')",
        "INSERT INTO chat (kind, name, department_id, mode, topic, created_at) VALUES ('requirement', 'Login page', 2, 'work', 'the login form', '2026-11-30T00:00:00Z')",
        "INSERT INTO chat (kind, name, department_id, created_at) VALUES ('department', 'Frontend', 2, '2026-11-30T00:00:00Z')",
        "INSERT INTO chat_member (chat_id, employee_id, joined_at) VALUES (1, 1, '2026-11-30T00:00:00Z')",
        "INSERT INTO chat_member (chat_id, employee_id, joined_at) VALUES (1, 2, '2026-11-30T00:00:00Z')",
        "INSERT INTO chat_message (chat_id, sender_kind, sender_employee_id, text, mentions, created_at) VALUES (1, 'employee', 1, 'hi @Bob', '[2]', '2026-11-30T00:00:00Z')",
        "UPDATE chat_member SET last_read_message_id = 1 WHERE employee_id = 2",
        "UPDATE chat SET boss_last_read_message_id = 1 WHERE id = 1",
        "INSERT INTO requirement (name, department_id, chat_id, created_at) VALUES ('Login page', 2, 1, '2026-11-30T00:00:00Z')",
        "INSERT INTO task (owner_id, description, requirement_id, created_by, created_at) VALUES (1, 'Build it', 1, 'boss', '2026-11-30T00:00:00Z')",
        "INSERT INTO memory (employee_id, kind, content, importance, visibility, department_id, requirement_id, source_chat_id, expires_at, created_at) VALUES (1, 'short_term', 'Bob likes blue', 5, 'team', 2, 1, 1, '2026-12-01T00:00:00Z', '2026-11-30T00:00:00Z')",
        "INSERT INTO chat_summary (chat_id, summary, upto_message_id, updated_at) VALUES (1, 'They said hi.', 1, '2026-11-30T00:00:00Z')",
        "INSERT INTO relationship (employee_id, other_employee_id, impression, affinity, updated_at) VALUES (1, 2, 'friendly', 60, '2026-11-30T00:00:00Z')",
        "INSERT INTO employee_state (employee_id, patience, fatigue, stress, updated_at) VALUES (1, 100.0, 0.0, 0.0, '2026-11-30T00:00:00Z')",
        "INSERT INTO mail (kind, employee_id, chat_id, task_id, title, body, status, created_at) VALUES ('report', 1, 1, 1, 'Build it: done', 'It is built.', 'unread', '2026-11-30T00:00:00Z')",
        "INSERT INTO meeting (chat_id, strategy, topic, status, max_turns, current_speaker_id, created_at) VALUES (1, 'rule_based', 'the login form', 'open', 12, 1, '2026-11-30T00:00:00Z')",
        "INSERT INTO moderator_note (meeting_id, move, employee_id, reason, created_at) VALUES (1, 'speak', 1, 'Alice knows the form', '2026-11-30T00:00:00Z')",
        "INSERT INTO decision (meeting_id, chat_id, trace_id, question, decision_type, outcome, decided_by_kind, decided_by_employee_id, status, authorization_chain, created_at) VALUES (1, 1, 't-1', 'REST or GraphQL?', 'tech', 'approved', 'lead', 1, 'decided', '[{\"who\": \"Alice\"}]', '2026-11-30T00:00:00Z')",
        "INSERT INTO thought (employee_id, chat_id, inner_thoughts, reason, should_speak, spoke, silenced_by, interest, saturation, perspective_seed, prompt_tokens, ops, trace_id, created_at) VALUES (1, 1, 'Say hi', 'new colleague', true, false, 'cooldown', 7, 3, 'tease', 120, '{\"memory\": []}', 't-1', '2026-11-30T00:00:00Z')",
        "INSERT INTO trace (id, origin, instruction, chat_id, created_at) VALUES ('t-1', 'chat', 'Research REST vs GraphQL', 1, '2026-11-30T00:00:00Z')",
        "INSERT INTO task (owner_id, description, requirement_id, attempt, review_of, trace_id, created_by, created_at) VALUES (2, 'Review it', 1, 1, 1, 't-1', 'system', '2026-11-30T00:00:00Z')",
        "UPDATE requirement SET reviewer_id = 2 WHERE id = 1",
        "UPDATE employee SET approval_policy = 'manual', cli_command = 'echo hi' WHERE id = 2",
        "INSERT INTO approval (employee_id, tool, args, args_hash, reason, risk, trace_id, chat_id, status, created_at, expires_at, decided_at, decided_via, note, authorization_chain, result, executed_at) VALUES (1, 'write_file', '{\"path\": \"a.txt\"}', 'abc', 'notes', 'write', 't-1', 1, 'approved', '2026-11-30T00:00:00Z', '2026-12-01T00:00:00Z', '2026-11-30T01:00:00Z', 'ui', 'ok', '[{\"who\": \"Alice\"}]', '{\"bytes\": 3}', '2026-11-30T01:00:00Z')",
        "INSERT INTO tool_call (employee_id, tool, args, risk, outcome, output, approval_id, trace_id, created_at) VALUES (1, 'write_file', '{\"path\": \"a.txt\"}', 'write', 'ok', '3 bytes', 1, 't-1', '2026-11-30T01:00:00Z')",
    ] {
        db.execute_unprepared(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    approvals_decided_before_run_claims_count_as_started(db).await;
    tasks_given_to_oneself_are_renamed_own(db).await;
    // The department tree is protected: a parent with children cannot be deleted.
    let refused = db
        .execute_unprepared("DELETE FROM department WHERE id = 1")
        .await;
    assert!(refused.is_err(), "foreign keys must be enforced");

    Migrator::down(db, None).await.expect("down");
    assert_tables(db, false).await;
    Migrator::up(db, None).await.expect("up again");
    assert_tables(db, true).await;
}

/// Migration 19 must not turn an old approved action that never ran (a stop fell in its
/// run) into one queued to run: every approval already approved counts as started.
async fn approvals_decided_before_run_claims_count_as_started(db: &DatabaseConnection) {
    let migrations = Migrator::migrations();
    let at = migrations
        .iter()
        .position(|m| m.name() == "m20261130_000019_approval_run_started")
        .expect("migration 19");
    Migrator::down(db, Some(u32::try_from(migrations.len() - at).unwrap()))
        .await
        .expect("down to 18");
    for sql in [
        "INSERT INTO approval (employee_id, tool, args, args_hash, reason, risk, status, created_at, expires_at, decided_at, decided_via, authorization_chain) VALUES (1, 'post_webhook', '{}', 'h2', 'tell', 'high', 'approved', '2026-11-30T00:00:00Z', '2026-12-01T00:00:00Z', '2026-11-30T02:00:00Z', 'ui', '[]')",
        "INSERT INTO approval (employee_id, tool, args, args_hash, reason, risk, status, created_at, expires_at, authorization_chain) VALUES (1, 'post_webhook', '{}', 'h3', 'tell', 'high', 'waiting', '2026-11-30T00:00:00Z', '2026-12-01T00:00:00Z', '[]')",
    ] {
        db.execute_unprepared(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    Migrator::up(db, None).await.expect("up to the newest");
    let count = |sql: &'static str| async move {
        db.query_one_raw(sea_orm_migration::sea_orm::Statement::from_string(
            db.get_database_backend(),
            sql,
        ))
        .await
        .expect(sql)
        .expect("a row")
        .try_get_by_index::<i64>(0)
        .expect("a count")
    };
    assert_eq!(
        count("SELECT COUNT(*) FROM approval WHERE status = 'approved' AND run_started_at = decided_at").await,
        2,
        "both approved actions, the one that ran and the one that never recorded a run"
    );
    assert_eq!(
        count("SELECT COUNT(*) FROM approval WHERE status = 'waiting' AND run_started_at IS NULL")
            .await,
        1
    );
}

/// Migration 29 renames the tasks an employee gave itself from `self` to `own` (the typed
/// column's spelling), and back on the way down; other tasks keep theirs.
async fn tasks_given_to_oneself_are_renamed_own(db: &DatabaseConnection) {
    use sea_orm_migration::sea_orm::Statement;

    let at = Migrator::migrations()
        .iter()
        .position(|m| m.name() == "m20261202_000029_person_proxy")
        .expect("migration 29");
    let last = Migrator::migrations().len();
    Migrator::down(db, Some(u32::try_from(last - at).unwrap()))
        .await
        .expect("down to 28");
    for by in ["self", "boss"] {
        db.execute_unprepared(&format!(
            "INSERT INTO task (owner_id, description, kind, status, created_by, created_at, attempt) \
             VALUES (1, 'to rename', 'oneshot', 'pending', '{by}', '2026-12-01T00:00:00Z', 0)"
        ))
        .await
        .expect("insert a task");
    }
    let spellings = || async move {
        db.query_all_raw(Statement::from_string(
            db.get_database_backend(),
            "SELECT created_by FROM task WHERE description = 'to rename' ORDER BY id",
        ))
        .await
        .expect("read tasks")
        .iter()
        .map(|r| r.try_get_by_index::<String>(0).expect("created_by"))
        .collect::<Vec<_>>()
    };
    Migrator::up(db, None).await.expect("up to the newest");
    assert_eq!(spellings().await, ["own", "boss"]);
    Migrator::down(db, Some(u32::try_from(last - at).unwrap()))
        .await
        .expect("down again");
    assert_eq!(spellings().await, ["self", "boss"]);
    Migrator::up(db, None).await.expect("up again");
}

#[tokio::test]
async fn migrations_up_down_on_sqlite() {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("m.db").display());
    let db = Database::connect(&url).await.expect("connect");
    // sqlx turns foreign keys on for every SQLite connection; the test relies on it.
    up_down_up(&db).await;
}

#[tokio::test]
async fn migrations_up_down_on_postgres() {
    let Ok(url) = std::env::var("CUBICLE_TEST_PG_URL") else {
        if std::env::var("CUBICLE_SKIP_PG").is_ok_and(|v| v == "1") {
            eprintln!("SKIPPED: PostgreSQL migration test (CUBICLE_SKIP_PG=1)");
            return;
        }
        panic!(
            "CUBICLE_TEST_PG_URL is not set: run scripts/test.sh (it starts PostgreSQL) or set CUBICLE_SKIP_PG=1"
        );
    };
    let db = Database::connect(&url)
        .await
        .expect("connect to PostgreSQL");
    // Start from an empty schema so the test is repeatable on a reused cluster.
    db.execute_unprepared("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        .await
        .expect("reset schema");
    up_down_up(&db).await;
}

/// Chats made before the mind migration get a mode: requirement groups and DMs work,
/// everything else casual.
#[tokio::test]
async fn existing_chats_get_a_mode_on_sqlite() {
    use sea_orm_migration::sea_orm::Statement;

    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("m.db").display());
    let db = Database::connect(&url).await.expect("connect");
    Migrator::up(&db, Some(10)).await.expect("up to work");
    for (kind, name) in [
        ("department", "Frontend"),
        ("requirement", "Login page"),
        ("dm", "Alice & Bob"),
    ] {
        db.execute_unprepared(&format!(
            "INSERT INTO chat (kind, name, created_at) VALUES ('{kind}', '{name}', '2026-11-30T00:00:00Z')"
        ))
        .await
        .expect("insert chat");
    }
    Migrator::up(&db, None).await.expect("up");
    let mut modes = Vec::new();
    for id in 1..=3 {
        let row = db
            .query_one_raw(Statement::from_string(
                db.get_database_backend(),
                format!("SELECT mode FROM chat WHERE id = {id}"),
            ))
            .await
            .expect("select")
            .expect("row");
        modes.push(row.try_get_by_index::<String>(0).expect("mode"));
    }
    assert_eq!(modes, ["casual", "work", "work"]);
}
