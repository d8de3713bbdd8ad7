//! PostgreSQL for the integration tests: every company gets a database of its own,
//! created from `CUBICLE_TEST_PG_URL` (scripts/test.sh starts a throwaway server and
//! sets it) and dropped when the company is.
//!
//! A test runs on PostgreSQL when it is called through [`on_postgres`] (its
//! `…_on_postgres` twin), or when `CUBICLE_IT_BACKEND=postgres` puts the whole suite on it.

use std::cell::Cell;

use sea_orm::{ConnectionTrait, Database};

/// The server the PostgreSQL tests use (its database is only the admin connection's).
pub const PG_URL_ENV: &str = "CUBICLE_TEST_PG_URL";
/// `postgres` runs every integration test on PostgreSQL instead of SQLite.
pub const BACKEND_ENV: &str = "CUBICLE_IT_BACKEND";

thread_local! {
    static ON_POSTGRES: Cell<bool> = const { Cell::new(false) };
    /// Databases made on this thread, so a twin can tell it really ran on PostgreSQL.
    static CREATED: Cell<usize> = const { Cell::new(0) };
}

/// Runs `test` (a `#[tokio::test]` function: it builds its runtime on this thread) with
/// every company it opens on PostgreSQL; prints SKIPPED and passes when no server is set.
pub fn on_postgres<F: FnOnce()>(test: F) {
    if std::env::var(PG_URL_ENV).is_err() {
        let name = std::any::type_name::<F>();
        eprintln!("SKIPPED: {name} on PostgreSQL ({PG_URL_ENV} not set)");
        return;
    }
    struct Reset;
    impl Drop for Reset {
        fn drop(&mut self) {
            ON_POSTGRES.with(|c| c.set(false));
        }
    }
    ON_POSTGRES.with(|c| c.set(true));
    let _reset = Reset;
    let before = CREATED.with(Cell::get);
    test();
    assert!(
        CREATED.with(Cell::get) > before,
        "the test opened no PostgreSQL database (its company was made off this thread?)"
    );
}

/// [`on_postgres`] for an async test that needs a multi-threaded runtime (background
/// tasks that must run while the test waits: a lease's watch, another login's work).
pub fn on_postgres_threads(test: impl std::future::Future<Output = ()>) {
    on_postgres(|| {
        tokio::runtime::Builder::new_multi_thread()
            .worker_threads(2)
            .enable_all()
            .build()
            .expect("runtime")
            .block_on(test);
    });
}

fn wanted() -> bool {
    ON_POSTGRES.with(Cell::get)
        || std::env::var(BACKEND_ENV).is_ok_and(|v| v.eq_ignore_ascii_case("postgres"))
}

/// A database made for one test company; dropped (connections and all) with the value.
pub struct PgDatabase {
    admin_url: String,
    name: String,
    pub url: String,
}

impl PgDatabase {
    /// A fresh database when this test runs on PostgreSQL, else `None`.
    pub async fn for_this_test() -> Option<Self> {
        if !wanted() {
            return None;
        }
        let admin_url = std::env::var(PG_URL_ENV).unwrap_or_else(|_| {
            panic!("{BACKEND_ENV}=postgres needs {PG_URL_ENV} (scripts/test.sh sets both up)")
        });
        let name = format!("cubicle_it_{:016x}", rand::random::<u64>());
        let admin = Database::connect(&admin_url)
            .await
            .expect("connect to the PostgreSQL test server");
        admin
            .execute_unprepared(&format!("CREATE DATABASE {name}"))
            .await
            .expect("create a test database");
        admin.close().await.expect("close the admin connection");
        CREATED.with(|c| c.set(c.get() + 1));
        let url = with_database(&admin_url, &name);
        Some(Self {
            admin_url,
            name,
            url,
        })
    }
}

impl Drop for PgDatabase {
    fn drop(&mut self) {
        // Drop runs inside the test's runtime, where nothing may block on it: a thread
        // of its own does the async work. FORCE ends the pool's leftover connections.
        let (admin_url, name) = (self.admin_url.clone(), self.name.clone());
        let dropped = std::thread::spawn(move || {
            let rt = tokio::runtime::Builder::new_current_thread()
                .enable_all()
                .build()?;
            rt.block_on(async {
                let admin = Database::connect(&admin_url).await?;
                admin
                    .execute_unprepared(&format!("DROP DATABASE IF EXISTS {name} WITH (FORCE)"))
                    .await?;
                admin.close().await
            })
            .map_err(std::io::Error::other)
        })
        .join();
        if !matches!(dropped, Ok(Ok(()))) {
            eprintln!(
                "could not drop the test database {}: {dropped:?}",
                self.name
            );
        }
    }
}

/// `url` pointing at database `name` instead (same server, user and options).
fn with_database(url: &str, name: &str) -> String {
    let (base, query) = match url.split_once('?') {
        Some((b, q)) => (b, Some(q)),
        None => (url, None),
    };
    let after_scheme = base.find("://").map_or(0, |i| i + 3);
    let host_end = base[after_scheme..]
        .find('/')
        .map_or(base.len(), |i| after_scheme + i);
    let mut out = format!("{}/{name}", &base[..host_end]);
    if let Some(q) = query {
        out.push('?');
        out.push_str(q);
    }
    out
}

#[test]
fn a_test_database_url_keeps_server_user_and_options() {
    assert_eq!(
        with_database("postgres://u:p@127.0.0.1:5432/cubicle_test", "x"),
        "postgres://u:p@127.0.0.1:5432/x"
    );
    assert_eq!(
        with_database("postgres://h:1/db?sslmode=disable", "x"),
        "postgres://h:1/x?sslmode=disable"
    );
    assert_eq!(with_database("postgres://h:1", "x"), "postgres://h:1/x");
}
