//! The cross-crate scenarios, one test binary (one link instead of one per file):
//! `cargo test -p cubicle-tests --test it` runs them all, `… --test it tray::` one file's.
//! The tests that own the notification server's name on the session bus (notifications,
//! tray) take `notification_server::exclusive_bus()`, which serializes them in this binary.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

mod architecture;
mod llama_cpp_server;
mod notifications;
mod tray;
