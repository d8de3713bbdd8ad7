//! Shared helpers for cross-crate scenarios.
