//! The secretary's intent parser (SPEC §3): boss text in Chinese, English or both →
//! one or more [`Intent`]s with slots and a confidence.
//!
//! Owns the intent types shared by both tiers, the deterministic rule tier
//! ([`parse_rules`]) and fuzzy name matching ([`match_name`]). It must not touch the
//! database or the model gateway: resolving names against the company, the model tier
//! and the effects of an intent build on top of this module.

pub mod intent;
pub mod lexicon;
pub mod names;
pub mod normalize;
pub mod rules;

pub use intent::{CONFIDENT, Intent, IntentKind, Parse, Slots, Tier};
pub use names::{NameMatch, match_name};
pub use rules::parse_rules;
