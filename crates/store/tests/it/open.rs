//! Opening the database: a real SQLite file gets WAL, a busy timeout and enforced
//! foreign keys on every pooled connection, and the schema is migrated; transactions
//! that write take the write lock at BEGIN, so racing ones wait instead of failing.

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

/// A stand-in for a PostgreSQL server that offers no TLS: it answers every SSLRequest
/// with `N` and records whether a client then went on in plain text.
fn server_without_tls() -> (u16, std::sync::mpsc::Receiver<&'static str>) {
    use std::io::{Read, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0").expect("bind");
    let port = listener.local_addr().expect("addr").port();
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for stream in listener.incoming() {
            let Ok(mut s) = stream else { return };
            let mut request = [0u8; 8];
            if s.read_exact(&mut request).is_err() {
                continue;
            }
            // Length 8, code 80877103: "may we speak TLS?"
            if request == [0, 0, 0, 8, 4, 210, 22, 47] {
                let _ = s.write_all(b"N");
                let mut next = [0u8; 1];
                let said = match s.read(&mut next) {
                    Ok(n) if n > 0 => "plain text after the refusal",
                    _ => "hung up",
                };
                let _ = tx.send(said);
            }
        }
    });
    (port, rx)
}

#[tokio::test]
async fn a_server_that_cannot_prove_itself_is_refused_with_what_to_do() {
    let (port, said) = server_without_tls();
    for mode in ["verify-full", "require"] {
        let url = format!("postgres://cubicle:s3cret@127.0.0.1:{port}/acme?sslmode={mode}");
        let err = connect(&url).await.expect_err("no TLS, no connection");
        let msg = err.to_string();
        assert!(
            msg.contains(&format!(
                "no TLS connection to 127.0.0.1:{port}/acme (sslmode={mode}"
            )),
            "{msg}"
        );
        assert!(msg.contains("sslrootcert="), "{msg}");
        assert!(!msg.contains("s3cret"), "{msg}");
        assert_eq!(
            said.recv_timeout(std::time::Duration::from_secs(10)),
            Ok("hung up"),
            "nothing was sent in plain text"
        );
    }
}

/// Twenty transactions that each read a counter, pause, and write it back, all at once:
/// how the app's services work (read the row, decide, write) while employees write
/// beside them.
async fn race_read_then_write<F, Fut>(db: &cubicle_store::Db, begin: F) -> (i64, Vec<String>)
where
    F: Fn(cubicle_store::Db) -> Fut,
    Fut: std::future::Future<
            Output = Result<cubicle_store::DatabaseTransaction, cubicle_store::DbErr>,
        > + Send
        + 'static,
{
    db.execute_unprepared("DROP TABLE IF EXISTS counter; CREATE TABLE counter (n INTEGER NOT NULL); INSERT INTO counter VALUES (0)")
        .await
        .expect("counter");
    let tasks: Vec<_> = (0..20)
        .map(|_| {
            let txn = begin(db.clone());
            tokio::spawn(async move {
                let txn = txn.await?;
                let row = txn
                    .query_one_raw(Statement::from_string(
                        DbBackend::Sqlite,
                        "SELECT n FROM counter",
                    ))
                    .await?
                    .expect("row");
                let n: i64 = row.try_get_by_index(0)?;
                tokio::time::sleep(std::time::Duration::from_millis(5)).await;
                txn.execute_unprepared(&format!("UPDATE counter SET n = {}", n + 1))
                    .await?;
                txn.commit().await
            })
        })
        .collect();
    let mut errors = Vec::new();
    for t in tasks {
        if let Err(e) = t.await.expect("task") {
            errors.push(e.to_string());
        }
    }
    let n = counter_value(db).await;
    (n, errors)
}

async fn counter_value(db: &cubicle_store::Db) -> i64 {
    db.query_one_raw(Statement::from_string(
        DbBackend::Sqlite,
        "SELECT n FROM counter",
    ))
    .await
    .expect("query")
    .expect("row")
    .try_get_by_index(0)
    .expect("n")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_transactions_that_read_then_write_all_land() {
    use cubicle_store::{BeginWrite, TransactionTrait};
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    let db = connect(&url).await.expect("connect");
    // A plain (deferred) transaction fails at its first write once another one committed
    // after it read: SQLite's "database is locked" that no busy timeout waits out.
    #[allow(clippy::disallowed_methods)] // the hazard begin_write exists for
    let (_, errors) = race_read_then_write(&db, |db| async move { db.begin().await }).await;
    assert!(
        errors.iter().any(|e| e.contains("database is locked")),
        "{errors:?}"
    );
    // A write transaction waits for the lock at BEGIN, so each one reads what the one
    // before it wrote: every increment lands and none fails.
    let (n, errors) = race_read_then_write(&db, |db| async move { db.begin_write().await }).await;
    assert!(errors.is_empty(), "{errors:?}");
    assert_eq!(n, 20);
}
