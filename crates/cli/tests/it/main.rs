//! cubicle-cli's integration tests, one test binary (one link instead of one per file):
//! `cargo test -p cubicle-cli --test it` runs them all, `… --test it crash::` one file's.

// Tests fail loudly by design. Each test file still includes the support files it uses
// (`#[path = "support/…"]`), as when it was a binary of its own: cli and server each have
// their own copy of model.rs, crash and handover of busy.rs.
#![allow(clippy::unwrap_used, clippy::expect_used, clippy::duplicate_mod)]

mod cli;
mod crash;
mod handover;
mod models;
mod server;
