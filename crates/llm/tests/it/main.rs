//! cubicle-llm's integration tests, one test binary (one link instead of one per file):
//! `cargo test -p cubicle-llm --test it` runs them all, `… --test it http::` one module's.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod builtin;
mod download;
mod http;
