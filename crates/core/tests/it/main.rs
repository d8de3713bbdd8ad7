//! cubicle-core integration tests: real SQLite files in a temp dir, real event bus; the
//! `…_on_postgres` twins run the same scenarios on a real PostgreSQL server (see pg.rs).

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod approvals;
mod architecture;
mod attacks;
mod bindings;
mod builtin_default;
mod bundle;
mod chats;
mod dashboard;
mod engine;
mod gateway;
mod gateway_cache;
mod gateway_forms;
mod gateway_ledger;
mod gateway_stream;
mod hostile;
mod intents;
mod language;
mod meetings;
mod minds;
mod models;
mod org;
mod people;
mod pg;
mod prompt_cache;
mod proxy;
mod roles;
mod secretary;
mod secrets;
mod thought_model;
mod traces;
mod util;
mod work;
