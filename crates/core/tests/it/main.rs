//! cubicle-core integration tests: real SQLite files in a temp dir, real event bus.

mod bindings;
mod org;
mod util;
