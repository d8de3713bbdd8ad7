//! The HTTP backends and the structured-output pipeline against scripted wiremock servers:
//! no network, exact request bodies, and every fault the gateway has to tell apart.
#![allow(clippy::unwrap_used, clippy::expect_used)]

mod anthropic;
mod faults;
mod openai;
mod secrets;
mod structured;
mod util;
