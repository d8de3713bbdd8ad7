//! The secretary's rule tier and its number readers: any text, never a panic, every
//! intent within the parser's rules.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    cubicle_fuzz::check_rules(&cubicle_fuzz::text_of(data));
});
