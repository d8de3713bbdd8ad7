//! Cubicle's persistence layer.
//!
//! Owns the sea-orm entities (one file per table under `entity/`), the query and
//! mutation functions over them (each takes `&impl ConnectionTrait` so a service can
//! compose several in one transaction), and opening the database. It holds no business
//! rules: `cubicle-core` decides what is allowed, this crate only reads and writes.

pub mod approval;
pub mod bundle;
pub mod chat;
pub mod db;
pub mod effect;
pub mod entity;
pub mod enums;
pub mod lease;
pub mod login;
pub mod mailbox;
pub mod meeting;
pub mod mind;
pub mod models;
pub mod org;
pub mod people;
pub mod proxy;
pub mod secretary;
pub mod trace;
pub mod work;

pub use db::{BeginWrite, Db, DbError, connect, default_database_url};
pub use sea_orm::{
    ConnectionTrait, DatabaseConnection, DatabaseTransaction, DbErr, TransactionTrait,
};
