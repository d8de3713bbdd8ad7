//! cubicle-core integration tests: real SQLite files in a temp dir, real event bus.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod approvals;
mod bindings;
mod chats;
mod dashboard;
mod engine;
mod gateway;
mod gateway_ledger;
mod gateway_stream;
mod intents;
mod meetings;
mod minds;
mod org;
mod secretary;
mod secrets;
mod util;
mod work;
