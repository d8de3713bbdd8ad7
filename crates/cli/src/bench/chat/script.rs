//! The scripted model of `bench chat`: answers each flow-of-thought request from the
//! request alone (the speaker from "You are NAME,", varied lines, a saturation that rises
//! with every message since the boss last spoke) and counts what arrived over the wire:
//! requests, body bytes, and the tokens the model reads, by a real tokenizer.

use std::cell::RefCell;
use std::collections::HashMap;
use std::hash::{Hash as _, Hasher as _};
use std::sync::{Arc, Mutex};

use serde_json::{Value, json};

use super::lock;
use super::sent;

/// What arrived at the server.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) struct Wire {
    pub(super) requests: u64,
    pub(super) body_bytes: u64,
    /// Every text the model reads, the structured-output form included (see `sent`).
    pub(super) tokens: u64,
}

#[derive(Default)]
pub(super) struct ScriptState {
    pub(super) by_name: HashMap<String, u64>,
    pub(super) wire: Wire,
    /// Every request body as it arrived, when kept.
    pub(super) bodies: Vec<Value>,
    /// Token counts of texts seen before (system prompts and the form repeat), by hash.
    counted: HashMap<u64, usize>,
}

#[derive(Clone)]
pub(super) struct Script {
    pub(super) state: Arc<Mutex<ScriptState>>,
    /// Counts the tokens of what arrives.
    tokenizer: &'static tiktoken::CoreBpe,
    /// Keep each request body (the department thought counts what went over the wire).
    pub(super) keep_bodies: bool,
}

/// The system prompt and the last user message of an OpenAI or Anthropic request.
pub(super) fn prompt_parts(body: &Value) -> (&str, &str) {
    let messages = body["messages"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    let system = body["system"][0]["text"]
        .as_str()
        .or_else(|| body["system"].as_str())
        .or_else(|| {
            messages
                .iter()
                .find(|m| m["role"] == "system")
                .and_then(|m| m["content"].as_str())
        })
        .unwrap_or("");
    let user = messages
        .iter()
        .rev()
        .find(|m| m["role"] == "user")
        .and_then(|m| m["content"].as_str())
        .unwrap_or("");
    (system, user)
}

pub(super) fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = text.find(start)? + start.len();
    let j = text[i..].find(end)? + i;
    Some(&text[i..j])
}

/// A chat line of the prompt: `[HH:MM] …` (`*` in front, as prompts once marked what was new).
pub(super) fn is_message_line(l: &str) -> bool {
    l.starts_with('[') || l.starts_with("*[")
}

pub(super) const OPENERS: [&str; 12] = [
    "we should benchmark the API gateway before Friday",
    "the rollback plan for the database migration needs an owner",
    "happy to pair with design on the onboarding screens",
    "customers keep asking about offline mode, worth a spike",
    "our flaky integration tests cost us an hour a day",
    "let's cut scope and ship search without filters first",
    "the pricing page copy still says beta",
    "monitoring alerts fire too often at night",
    "a short demo for the boss on Thursday would help",
    "the Android build is two versions behind",
    "we could reuse the payment widget from last quarter",
    "a written spec before we estimate would save rework",
];
pub(super) const FOLLOW_UPS: [&str; 7] = [
    "and I can draft a plan today",
    "though the budget is tight",
    "if legal signs off",
    "unless someone objects",
    "which also unblocks support",
    "so let's decide by tomorrow",
    "and the numbers back it up",
];

/// Varied lines, so the repetition check (similarity ≥ 0.85) lets real variety through.
pub(super) fn line(offset: u64, n: u64) -> String {
    let a = usize::try_from((n + offset) % 12).unwrap_or(0);
    let b = usize::try_from((n * 5 + offset) % 7).unwrap_or(0);
    format!("{}, {} ({n})", OPENERS[a], FOLLOW_UPS[b])
}

impl Script {
    pub(super) fn new(tokenizer: &'static tiktoken::CoreBpe) -> Self {
        Self {
            state: Arc::default(),
            tokenizer,
            keep_bodies: false,
        }
    }

    pub(super) fn wire(&self) -> Wire {
        lock(&self.state).wire
    }

    pub(super) fn take_bodies(&self) -> Vec<Value> {
        std::mem::take(&mut lock(&self.state).bodies)
    }

    /// Counts one request as it arrived: its bytes, and its tokens by the tokenizer
    /// (each distinct text counted once; system prompts and the form repeat).
    pub(super) fn count(&self, raw: &[u8], body: &Value) {
        let cache = RefCell::new(std::mem::take(&mut lock(&self.state).counted));
        let tokens = sent::sent_tokens(body, &|t: &str| {
            let mut h = std::collections::hash_map::DefaultHasher::new();
            t.hash(&mut h);
            *cache
                .borrow_mut()
                .entry(h.finish())
                .or_insert_with(|| self.tokenizer.count(t))
        });
        let mut s = lock(&self.state);
        s.counted = cache.into_inner();
        s.wire.requests += 1;
        s.wire.body_bytes += raw.len() as u64;
        s.wire.tokens += tokens as u64;
    }

    /// The flow-of-thought JSON for one request.
    pub(super) fn answer(&self, raw: &[u8]) -> String {
        let body: Value = serde_json::from_slice(raw).unwrap_or(Value::Null);
        self.count(raw, &body);
        let (system, user) = prompt_parts(&body);
        let name = between(system, "You are ", ",").unwrap_or("?").to_owned();
        let other = between(system, "Present: ", " (").unwrap_or("").to_owned();
        let n = {
            let mut s = lock(&self.state);
            if self.keep_bodies {
                s.bodies.push(body.clone());
            }
            let c = s.by_name.entry(name.clone()).or_default();
            *c += 1;
            *c
        };
        // Everything said since the boss last spoke makes the topic staler.
        let since_boss = user.rsplit("(boss):").next().map_or(0, |tail| {
            tail.lines().filter(|l| is_message_line(l)).count()
        });
        let offset = name.bytes().map(u64::from).sum::<u64>();
        let k = n + offset;
        let saturation = (2 + since_boss / 2).min(10);
        let speak = k % 4 != 0;
        json!({
            "innerThoughts": format!("{name} weighs thought {n}"),
            "interestLevel": 5 + k % 5,
            "topicSaturation": saturation,
            "shouldSpeak": speak,
            "reason": if speak { "I have something to add" } else { "others have it covered" },
            "messages": if speak { json!([{"content": line(offset, n)}]) } else { json!([]) },
            "memorySummary": format!("The team discussed the plan ({n})"),
            "memoryOps": [{
                "op": "add",
                "type": if n % 5 == 0 { "long_term" } else { "short_term" },
                "content": format!("remember: {}", line(offset + 3, n * 7 + 3)),
                "importance": 3 + k % 5,
            }],
            "relationshipOps": [{
                "name": other,
                "impression": format!("{other} keeps the plan moving and answers quickly ({n})"),
                "affinity": 50 + k % 40,
            }],
            "taskOps": []
        })
        .to_string()
    }
}

#[cfg(test)]
mod tests {
    use cubicle_core::mind::memory_rules::is_duplicate;

    use super::*;

    #[test]
    fn the_script_answers_as_the_speaker_tires_as_the_chat_goes_on_and_counts_the_wire() {
        let Some(o200k) = tiktoken::get_encoding("o200k_base") else {
            panic!("o200k_base is built in");
        };
        let script = Script::new(o200k);
        let ask = |since_boss: usize| {
            let mut user = String::from("[08:00] Ada (boss): plan please\n");
            for i in 0..since_boss {
                user.push_str(&format!("[08:0{}] Bob: idea {i}\n", i % 10));
            }
            let body = json!({"messages": [
                {"role": "system", "content": "You are Alice Chen, QA Engineer at Acme. Scene: the department group chat \"Engineering\". Present: Bob Okafor (QA Engineer); Ada is the boss"},
                {"role": "user", "content": user},
            ]});
            let raw = body.to_string();
            let content = script.answer(raw.as_bytes());
            let expected = sent::sent_tokens(&body, &|t| o200k.count(t));
            (
                serde_json::from_str::<Value>(&content).unwrap_or(Value::Null),
                raw.len() as u64,
                expected as u64,
            )
        };
        let (fresh, b1, t1) = ask(0);
        let (stale, b2, t2) = ask(14);
        assert_eq!(fresh["topicSaturation"], 2);
        assert_eq!(stale["topicSaturation"], 9);
        assert_eq!(fresh["relationshipOps"][0]["name"], "Bob Okafor");
        // What arrived, counted as sent: the second request's system prompt came from
        // the cache and still counts in full.
        assert_eq!(
            script.wire(),
            Wire {
                requests: 2,
                body_bytes: b1 + b2,
                tokens: t1 + t2
            }
        );
        assert!(t2 > t1 && t1 > 40, "{t1} {t2}");
        // Varied lines: no message repeats one of the speaker's last five (similarity
        // ≥ 0.85 would be dropped by the repetition filter).
        let texts: Vec<String> = (1..=40).map(|n| line(7, n)).collect();
        for (i, text) in texts.iter().enumerate().skip(5) {
            let recent: Vec<&str> = texts[i - 5..i].iter().map(String::as_str).collect();
            assert!(!is_duplicate(text, &recent), "{text} repeats {recent:?}");
        }
    }
}
