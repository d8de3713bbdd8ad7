//! Opening the database: a real SQLite file gets WAL, a busy timeout and enforced
//! foreign keys on every pooled connection, and the schema is migrated.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use cubicle_store::{ConnectionTrait, connect, org};
use sea_orm::{DbBackend, Statement};

async fn pragma(db: &cubicle_store::Db, name: &str) -> String {
    let row = db
        .query_one_raw(Statement::from_string(
            DbBackend::Sqlite,
            format!("PRAGMA {name}"),
        ))
        .await
        .expect("pragma")
        .expect("row");
    row.try_get_by_index::<i64>(0)
        .map(|v| v.to_string())
        .or_else(|_| row.try_get_by_index::<String>(0))
        .expect("value")
}

#[tokio::test]
async fn sqlite_is_opened_with_wal_busy_timeout_and_foreign_keys() {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    let db = connect(&url).await.expect("connect");
    // Several queries so more than one pooled connection is likely checked.
    for _ in 0..4 {
        assert_eq!(pragma(&db, "journal_mode").await, "wal");
        assert_eq!(pragma(&db, "foreign_keys").await, "1");
        assert_eq!(pragma(&db, "busy_timeout").await, "10000");
    }
    assert!(dir.path().join("c.db-wal").exists() || dir.path().join("c.db").exists());
    // Migrated: the org tables answer.
    assert!(org::find_company(&db).await.expect("query").is_none());
}

#[tokio::test]
async fn an_unknown_url_scheme_is_a_clear_error() {
    let err = connect("mysql://localhost/x")
        .await
        .expect_err("unsupported");
    assert!(err.to_string().contains("sqlite: or postgres:"), "{err}");
}

#[tokio::test]
async fn connecting_twice_to_the_same_file_keeps_the_data() {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    let db = connect(&url).await.expect("connect");
    db.execute_unprepared(
        "INSERT INTO company (name, mission, boss_name, language, approval_policy, daily_budget_usd, created_at, updated_at) \
         VALUES ('Acme', '', 'Ada', 'en', 'key_steps', 2.0, '2026-11-30T00:00:00Z', '2026-11-30T00:00:00Z')",
    )
    .await
    .expect("insert");
    db.close().await.expect("close");
    let db = connect(&url).await.expect("reconnect");
    let c = org::find_company(&db)
        .await
        .expect("query")
        .expect("company");
    assert_eq!(c.name, "Acme");
}
