//! Every migration runs up, down and up again on SQLite and on PostgreSQL.
//!
//! PostgreSQL comes from `CUBICLE_TEST_PG_URL` (scripts/test.sh starts a throwaway
//! cluster and sets it). Without it the PostgreSQL test fails rather than passing
//! silently; set `CUBICLE_SKIP_PG=1` to skip it knowingly.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use cubicle_migrations::{Migrator, MigratorTrait};
use sea_orm_migration::SchemaManager;
use sea_orm_migration::sea_orm::{ConnectionTrait, Database, DatabaseConnection};

const TABLES: [&str; 17] = [
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
    ] {
        db.execute_unprepared(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
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
