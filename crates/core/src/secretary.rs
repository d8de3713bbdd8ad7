//! The secretary's intent parser (SPEC §3): boss text in Chinese, English or both →
//! one or more [`Intent`]s with slots and a confidence.
//!
//! Owns the intent types shared by both tiers, the deterministic rule tier
//! ([`parse_rules`]), fuzzy name matching ([`match_name`]) — all pure — and the
//! [`Secretary`] service that turns a parse into answers from database facts, clarifying
//! questions and action cards (applied, and undone, only through the org service).

pub mod actions;
mod card;
mod confirm;
mod decide;
mod facts;
pub mod intent;
mod invite;
pub mod lexicon;
pub mod names;
pub mod normalize;
mod propose;
mod reviewers;
pub mod rules;
pub mod service;
mod text;

pub use intent::{CONFIDENT, Intent, IntentKind, Parse, Slots, TEAM, Tier};
pub use names::{NameMatch, match_name};
pub use rules::{parse_rules, parse_rules_knowing};
pub use service::{Secretary, SecretaryError, SecretaryServices, SecretaryTurn};
