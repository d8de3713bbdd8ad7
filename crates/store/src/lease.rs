//! Where a company's engine lease lives: a session-level advisory lock on its own
//! PostgreSQL connection, or the path of the lock file beside a SQLite database.
//! `cubicle-core` decides what to do with them (stand by, refuse, stop).

use std::path::PathBuf;

use sea_orm::sqlx::postgres::PgConnection;
use sea_orm::sqlx::{self, Connection};
use sea_orm::{DbBackend, DbErr};

use crate::Db;

/// The advisory-lock namespace of the engine lease (`CUBI` in ASCII), so no other
/// user of advisory locks in the same database can collide with it.
const LEASE_NAMESPACE: i32 = 0x4355_4249;

/// What holds the lease of one database, by backend.
pub enum LeaseSite {
    /// A PostgreSQL server: the lock is taken on a connection of its own.
    Server,
    /// A SQLite file: the lock file beside it.
    File(PathBuf),
    /// An in-memory SQLite database lives in this process only: nothing to share.
    Private,
}

/// Where `db`'s lease lives.
pub fn lease_site(db: &Db) -> LeaseSite {
    match db.get_database_backend() {
        DbBackend::Sqlite => {
            let opts = db.get_sqlite_connection_pool().connect_options();
            let file = opts.get_filename();
            let name = file.to_string_lossy();
            if name.is_empty() || name.contains(":memory:") || name.starts_with("file:") {
                LeaseSite::Private
            } else {
                let mut lock = file.as_os_str().to_owned();
                lock.push(".engine.lock");
                LeaseSite::File(PathBuf::from(lock))
            }
        }
        _ => LeaseSite::Server,
    }
}

fn sqlx_err(e: sqlx::Error) -> DbErr {
    DbErr::Custom(format!("engine lease: {e}"))
}

/// A held session-level advisory lock: the server releases it the moment this
/// connection's session ends, a killed process included.
pub struct ServerLock {
    conn: PgConnection,
}

impl ServerLock {
    /// Tries once to take the lease of `company_id` on a new connection named `holder`
    /// (visible to a standby in `pg_stat_activity`). `None` while another session holds it.
    pub async fn try_take(db: &Db, company_id: i32, holder: &str) -> Result<Option<Self>, DbErr> {
        let pool = db.get_postgres_connection_pool();
        let opts = (*pool.connect_options()).clone().application_name(holder);
        let mut conn = PgConnection::connect_with(&opts).await.map_err(sqlx_err)?;
        let (got,): (bool,) = sqlx::query_as("SELECT pg_try_advisory_lock($1, $2)")
            .bind(LEASE_NAMESPACE)
            .bind(company_id)
            .fetch_one(&mut conn)
            .await
            .map_err(sqlx_err)?;
        if got {
            Ok(Some(Self { conn }))
        } else {
            let _ = conn.close().await;
            Ok(None)
        }
    }

    /// A round trip on the lock's own session: an error means the session, and with it
    /// the lease, may be gone.
    pub async fn ping(&mut self) -> Result<(), DbErr> {
        sqlx::query("SELECT 1")
            .execute(&mut self.conn)
            .await
            .map(|_| ())
            .map_err(sqlx_err)
    }

    /// Ends the session, which releases the lock.
    pub async fn release(self) {
        let _ = self.conn.close().await;
    }
}

/// The application name of the session holding `company_id`'s lease, when the server
/// lets this role see it.
pub async fn server_holder(db: &Db, company_id: i32) -> Result<Option<String>, DbErr> {
    let pool = db.get_postgres_connection_pool();
    let row: Option<(Option<String>,)> = sqlx::query_as(
        "SELECT a.application_name FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid \
         WHERE l.locktype = 'advisory' AND l.granted AND l.classid = $1::oid AND l.objid = $2::oid \
         AND l.objsubid = 2 LIMIT 1",
    )
    .bind(i64::from(LEASE_NAMESPACE))
    .bind(i64::from(company_id))
    .fetch_optional(pool)
    .await
    .map_err(sqlx_err)?;
    Ok(row.and_then(|(name,)| name).filter(|n| !n.is_empty()))
}
