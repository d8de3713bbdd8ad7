//! A model's thought as raw text → the structured pipeline → the ops planner and the
//! message clean-up: never a panic, never an op outside the rules.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    cubicle_fuzz::check_thought_text(&cubicle_fuzz::text_of(data));
});
