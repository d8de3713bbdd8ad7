//! Shared helpers for cross-crate scenarios.

#![allow(clippy::unwrap_used, clippy::expect_used)] // test helpers fail loudly by design

pub mod company;
pub mod notification_server;
pub mod tray_host;
pub mod x11;
