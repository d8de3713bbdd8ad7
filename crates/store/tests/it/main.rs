//! cubicle-store's integration tests, one test binary (one link instead of one per file):
//! `cargo test -p cubicle-store --test it` runs them all, `… --test it mind::` one file's.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

/// The PostgreSQL tests share the one database `CUBICLE_TEST_PG_URL` names and each empties
/// its schema first: in one test binary they would run at once and trip over each other's
/// migrations, so each holds this for as long as it uses the database.
static ON_POSTGRES: std::sync::LazyLock<tokio::sync::Mutex<()>> =
    std::sync::LazyLock::new(|| tokio::sync::Mutex::new(()));

mod enums;
mod mind;
mod open;
