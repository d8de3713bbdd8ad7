//! The company: every rule of SPEC.md lives here.
//!
//! Owns the domain types (and the DTOs the UI sees, exported to TypeScript with ts-rs),
//! the services that change the company (each change is one transaction followed by a
//! [`events::DomainEvent`]), and the typed errors with their stable codes. It must not
//! know about Tauri, the webview or the terminal: `src-tauri` and `cubicle-cli` only
//! translate to and from it.

pub mod app;
pub mod approvals;
pub mod bindings;
pub mod bundle;
pub mod chat;
pub mod clock;
pub mod dashboard;
pub mod digest;
pub mod engine;
pub mod error;
pub mod events;
pub mod gateway;
pub mod guard;
pub mod imported;
pub mod inputs;
pub mod mailbox;
pub mod meeting;
pub mod mind;
pub mod models;
pub mod notify;
pub mod org;
pub mod people;
pub mod providers;
pub mod proxy;
pub mod roles;
pub mod scheduler;
pub mod secretary;
pub mod secrets;
pub mod sign_in;
pub mod tools;
pub mod trace;
pub mod types;
pub mod work;

pub use app::AppCore;

/// Where a company's database lives and how it is named in logs and on screen. The shell
/// and the CLI reach the store only through core: these are the store's own helpers.
pub mod location {
    pub use cubicle_store::db::{
        DATABASE_URL_ENV, redact_url, server_label, sqlite_url_in, url_with_login,
    };
    pub use cubicle_store::{DbError, default_database_url};
}

/// What the app logs unless `CUBICLE_LOG` says otherwise: our own info, and only warnings
/// from the database layers (their debug output is noisy and may echo statements).
pub const DEFAULT_LOG_FILTER: &str = "info,sqlx=warn,sea_orm=warn";
pub use error::{ErrorCode, IpcError};
pub use events::{DomainEvent, EventBus};
pub use org::{OrgError, OrgService};
