//! Model backends behind one trait, and nothing else.
//!
//! Owns the wire dialects (OpenAI-compatible chat/completions, Anthropic Messages), the
//! built-in llama.cpp backend, provider presets, and the structured-output pipeline that
//! turns model text into a typed, schema-valid value. It knows nothing about employees,
//! budgets or the database: the gateway in `cubicle-core` adds concurrency caps, retries,
//! breakers, budgets and the cost ledger on top. reqwest lives only in this crate.

pub mod anthropic;
#[cfg(feature = "builtin")]
pub mod builtin;
pub mod catalogue;
pub mod download;
mod http;
pub mod local_servers;
pub mod model_file;
pub mod openai;
pub mod presets;
pub mod shape;
pub mod structured;
pub mod types;
pub mod webhook;

pub use anthropic::Anthropic;
pub use http::HttpConfig;
pub use openai::OpenAiCompatible;
pub use presets::{Dialect, PRESETS, Preset, ProviderConfig, client_for, preset};
pub use structured::{Structured, StructuredError, complete_json};
pub use types::*;
pub use webhook::{Destinations, PostError, PostResponse, post_json};
