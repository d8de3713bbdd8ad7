//! Opening the database: the app data dir by default, `CUBICLE_DATABASE_URL` to override.

use std::path::{Path, PathBuf};
use std::time::Duration;

use cubicle_migrations::{Migrator, MigratorTrait};
use sea_orm::sqlx::sqlite::{SqliteJournalMode, SqliteSynchronous};
use sea_orm::{
    ConnectOptions, ConnectionTrait, Database, DatabaseConnection, DatabaseTransaction, DbBackend,
    DbErr, RuntimeErr, SqliteTransactionMode, Statement, TransactionOptions, TransactionTrait,
};

mod tls;
pub use tls::{ServerConnection, ServerTls, server_connection};

/// The handle every query and mutation runs on (a connection pool).
pub type Db = DatabaseConnection;

/// Transactions that write.
pub trait BeginWrite {
    /// A transaction that will write. On SQLite it takes the write lock at `BEGIN`
    /// (`BEGIN IMMEDIATE`), waiting up to the busy timeout for a competing writer. A
    /// deferred transaction that reads and then writes instead fails at once with
    /// "database is locked" (`SQLITE_BUSY_SNAPSHOT`, which no busy timeout waits out)
    /// whenever another connection committed in between — and a running company's
    /// employees write all the time. PostgreSQL has no such mode and ignores it.
    fn begin_write(&self) -> impl Future<Output = Result<DatabaseTransaction, DbErr>> + Send;
}

impl BeginWrite for DatabaseConnection {
    async fn begin_write(&self) -> Result<DatabaseTransaction, DbErr> {
        self.begin_with_options(TransactionOptions {
            isolation_level: None,
            access_mode: None,
            sqlite_transaction_mode: Some(SqliteTransactionMode::Immediate),
        })
        .await
    }
}

/// What a transaction takes turns on: the first key of PostgreSQL's advisory lock, apart
/// from the engine lease's (`lease`) and the schema grants' (`login`).
#[derive(Clone, Copy, Debug)]
pub enum Turn {
    Employee = 0x4355_4501,
    Department = 0x4355_4401,
    Person = 0x4355_5001,
}

/// Waits until no other transaction holds the turn for `id`, then holds it until this
/// transaction ends: a transaction-scoped advisory lock on PostgreSQL, which needs no
/// privilege on the row (a person's login may read the org but not lock its rows);
/// SQLite's write transaction already holds the whole database.
pub async fn take_turns(conn: &impl ConnectionTrait, turn: Turn, id: i32) -> Result<(), DbErr> {
    if conn.get_database_backend() != DbBackend::Postgres {
        return Ok(());
    }
    conn.execute_raw(Statement::from_sql_and_values(
        DbBackend::Postgres,
        "SELECT pg_advisory_xact_lock($1, $2)",
        [(turn as i32).into(), id.into()],
    ))
    .await?;
    Ok(())
}

/// Env var that points Cubicle at another database (`sqlite:` or `postgres:` URL).
pub const DATABASE_URL_ENV: &str = "CUBICLE_DATABASE_URL";

/// SQLite waits this long for a competing writer before giving up.
const SQLITE_BUSY_TIMEOUT: Duration = Duration::from_secs(10);
/// WAL lets readers run beside the writer; a small pool is plenty for one desktop.
const SQLITE_MAX_CONNECTIONS: u32 = 4;

#[derive(Debug, thiserror::Error)]
pub enum DbError {
    #[error("no data directory for this user; set {DATABASE_URL_ENV}")]
    NoDataDir,
    #[error("could not create the data directory {path}: {source}")]
    CreateDir {
        path: PathBuf,
        source: std::io::Error,
    },
    #[error("unsupported database URL (use sqlite: or postgres:): {0}")]
    UnsupportedUrl(String),
    #[error("{0}")]
    ServerTls(String),
    #[error(
        "the company server's schema is {pending} change(s) behind this version of Cubicle; \
         the server's own role (whoever runs `cubicle-cli run` there) must open it once to \
         update it — a person's login never changes the schema"
    )]
    SchemaBehind { pending: usize },
    #[error("database error: {0}")]
    Db(#[from] DbErr),
}

/// `sqlite:` URL of the database file inside `dir`, creating `dir` when missing.
pub fn sqlite_url_in(dir: &Path) -> Result<String, DbError> {
    std::fs::create_dir_all(dir).map_err(|source| DbError::CreateDir {
        path: dir.to_path_buf(),
        source,
    })?;
    Ok(format!(
        "sqlite://{}?mode=rwc",
        dir.join("cubicle.db").display()
    ))
}

/// The URL to open when the caller has no opinion: `CUBICLE_DATABASE_URL`, else
/// `cubicle.db` in the OS app data dir (`~/.local/share/app.cubicle.desktop` on Linux,
/// the same folder the desktop app uses).
pub fn default_database_url() -> Result<String, DbError> {
    if let Ok(url) = std::env::var(DATABASE_URL_ENV)
        && !url.trim().is_empty()
    {
        return Ok(url);
    }
    let dir = dirs::data_dir()
        .ok_or(DbError::NoDataDir)?
        .join(APP_IDENTIFIER);
    sqlite_url_in(&dir)
}

/// The app's data dir (where the default database lives), if the OS has one.
pub fn app_data_dir() -> Option<std::path::PathBuf> {
    dirs::data_dir().map(|d| d.join(APP_IDENTIFIER))
}

/// Must equal `identifier` in tauri.conf.json so the CLI and the app share one database.
pub const APP_IDENTIFIER: &str = "app.cubicle.desktop";

/// Opens (creating if needed) the database at `url` and brings its schema up to date.
pub async fn connect(url: &str) -> Result<Db, DbError> {
    let mut opts = ConnectOptions::new(url.to_owned());
    opts.sqlx_logging(false);
    if url.starts_with("sqlite:") {
        opts.max_connections(SQLITE_MAX_CONNECTIONS)
            .map_sqlx_sqlite_opts(|o| {
                o.journal_mode(SqliteJournalMode::Wal)
                    .synchronous(SqliteSynchronous::Normal)
                    .busy_timeout(SQLITE_BUSY_TIMEOUT)
                    .foreign_keys(true)
                    .create_if_missing(true)
            });
    } else if is_server_url(url) {
        return connect_server(url, opts).await;
    } else {
        return Err(DbError::UnsupportedUrl(redact_url(url)));
    }
    let db = Database::connect(opts).await?;
    Migrator::up(&db, None).await?;
    Ok(db)
}

/// A PostgreSQL server: verified TLS across the network unless the URL says otherwise
/// ([`tls`]), a warning for anything weaker, and a TLS failure explained.
async fn connect_server(url: &str, mut opts: ConnectOptions) -> Result<Db, DbError> {
    let label = server_label(url).unwrap_or_else(|| redact_url(url));
    let server = server_connection(url).map_err(|e| {
        DbError::UnsupportedUrl(format!("{} ({})", redact_url(url), first_line(&e)))
    })?;
    if let Some(warning) = server.tls.warning(&label) {
        tracing::warn!("{warning}");
    }
    opts.max_connections(8);
    if let Some(mode) = server.forced_mode {
        opts.map_sqlx_postgres_opts(move |o| o.ssl_mode(mode));
    }
    let db = Database::connect(opts)
        .await
        .map_err(|e| match tls_cause(&e) {
            Some(cause) => DbError::ServerTls(tls::verify_failed(&label, server.mode, &cause)),
            None => DbError::Db(e),
        })?;
    bring_up_to_date(&db).await?;
    Ok(db)
}

/// The schema's owner migrates it and gives every person's role its grants again (a new
/// table needs them). A person's own role never migrates: it checks that the server's
/// schema is the one this build knows, else says who must update it.
async fn bring_up_to_date(db: &Db) -> Result<(), DbError> {
    match crate::login::session(db).await? {
        crate::login::Session::Owner => {
            Migrator::up(db, None).await?;
            crate::login::regrant_all(db).await?;
        }
        crate::login::Session::Person { .. } => {
            let pending = Migrator::get_pending_migrations_read_only(db).await?;
            if !pending.is_empty() {
                return Err(DbError::SchemaBehind {
                    pending: pending.len(),
                });
            }
        }
        crate::login::Session::Stranger => Migrator::up(db, None).await?,
    }
    Ok(())
}

/// The driver's TLS error, if that is why the connection failed.
fn tls_cause(e: &DbErr) -> Option<String> {
    match e {
        DbErr::Conn(RuntimeErr::SqlxError(inner)) => match inner.as_ref() {
            sea_orm::sqlx::Error::Tls(cause) => Some(first_line(&cause.to_string())),
            _ => None,
        },
        _ => None,
    }
}

/// One line of a driver's message: a URL it echoes could carry a password further down.
fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().to_owned()
}

/// Whether `url` is a shared database server (PostgreSQL) rather than a local file.
pub fn is_server_url(url: &str) -> bool {
    url.starts_with("postgres:") || url.starts_with("postgresql:")
}

/// `host:port/database` of a server URL, with no user, password or options: what the
/// app may show about where the company lives. `None` for a local file.
pub fn server_label(url: &str) -> Option<String> {
    if !is_server_url(url) {
        return None;
    }
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.split('?').next().unwrap_or(rest);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, host)| host);
    Some(rest.to_owned())
}

/// `url` signing in as `user` with `password`: any user info it had is replaced, and
/// `user` / `password` options in its query string are dropped (they would win).
pub fn url_with_login(url: &str, user: &str, password: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("postgres", url));
    let (base, query) = match rest.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (rest, None),
    };
    let host = base.rsplit_once('@').map_or(base, |(_, host)| host);
    let kept: Vec<&str> = query
        .into_iter()
        .flat_map(|q| q.split('&'))
        .filter(|kv| {
            let key = kv.split('=').next().unwrap_or_default();
            !kv.is_empty() && key != "user" && key != "password"
        })
        .collect();
    let mut out = format!("{scheme}://{user}:{password}@{host}");
    if !kept.is_empty() {
        out.push('?');
        out.push_str(&kept.join("&"));
    }
    out
}

/// The URL without a password, safe for logs and error messages: the user info is
/// masked and the query string dropped (`?password=…`, `?sslpassword=…` carry secrets too;
/// `?…` is left as a sign that something was there).
pub fn redact_url(url: &str) -> String {
    let (base, had_query) = match url.find(['?', '#']) {
        Some(i) => (&url[..i], true),
        None => (url, false),
    };
    let masked = match (base.find("://"), base.rfind('@')) {
        (Some(scheme_end), Some(at)) if at > scheme_end => {
            format!("{}://***{}", &base[..scheme_end], &base[at..])
        }
        _ => base.to_owned(),
    };
    if had_query {
        format!("{masked}?…")
    } else {
        masked
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn redact_url_hides_credentials() {
        assert_eq!(
            redact_url("postgres://cubicle:s3cret@localhost:5432/db"),
            "postgres://***@localhost:5432/db"
        );
        assert_eq!(redact_url("sqlite://x.db"), "sqlite://x.db");
    }

    #[test]
    fn redact_url_drops_the_query_string() {
        assert_eq!(
            redact_url("postgres://db.example.com/acme?user=cubicle&password=s3cret"),
            "postgres://db.example.com/acme?…"
        );
        // An `@` in the query is not the end of user info.
        assert_eq!(
            redact_url("postgres://u:pw@db/acme?password=a@b"),
            "postgres://***@db/acme?…"
        );
        assert_eq!(
            redact_url("sqlite:///tmp/c.db?mode=rwc"),
            "sqlite:///tmp/c.db?…"
        );
    }

    #[test]
    fn a_login_replaces_the_user_info_and_the_query_s_credentials() {
        assert_eq!(
            url_with_login(
                "postgres://cubicle:s3cret@db.example.com:5432/acme?user=x&sslmode=require&password=y",
                "cubicle_person_2_ab",
                "pw"
            ),
            "postgres://cubicle_person_2_ab:pw@db.example.com:5432/acme?sslmode=require"
        );
        assert_eq!(
            url_with_login("postgresql://db/acme", "lin", "pw"),
            "postgresql://lin:pw@db/acme"
        );
    }

    #[test]
    fn a_server_is_shown_by_host_and_database_only() {
        assert_eq!(
            server_label("postgres://cubicle:s3cret@db.example.com:5432/acme?sslmode=require")
                .as_deref(),
            Some("db.example.com:5432/acme")
        );
        assert_eq!(
            server_label("postgresql://db/acme").as_deref(),
            Some("db/acme")
        );
        assert_eq!(server_label("sqlite:///tmp/c.db?mode=rwc"), None);
        assert!(is_server_url("postgres://x/y") && !is_server_url("sqlite://x"));
    }
}
