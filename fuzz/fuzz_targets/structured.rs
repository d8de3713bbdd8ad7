//! Model output through extract → repair → validate → deserialize against the thought
//! and intent schemas: never a panic, and nothing invalid comes back as Ok.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    cubicle_fuzz::check_structured(&cubicle_fuzz::text_of(data));
});
