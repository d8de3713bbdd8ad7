//! Thought-shaped JSON from a generator (the real keys, values of any type, numbers at
//! the edges, hostile strings), both straight into the planner and dressed as model text
//! through the whole pipeline.
#![no_main]

use arbitrary::Unstructured;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut u = Unstructured::new(data);
    let Ok(value) = cubicle_fuzz::thought_value(&mut u) else {
        return;
    };
    // Straight from JSON: the planner sees values the schema would have refused too.
    if let Ok(t) = serde_json::from_value(value.clone()) {
        cubicle_fuzz::check_thought(&t);
    }
    let json = value.to_string();
    let Ok(text) = cubicle_fuzz::dress(&mut u, &json) else {
        return;
    };
    cubicle_fuzz::check_thought_text(&text);
});
