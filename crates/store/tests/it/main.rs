//! cubicle-store's integration tests, one test binary (one link instead of one per file):
//! `cargo test -p cubicle-store --test it` runs them all, `… --test it mind::` one file's.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod enums;
mod mind;
mod open;
