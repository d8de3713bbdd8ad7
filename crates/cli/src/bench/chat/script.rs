//! The scripted model of `bench chat`: answers each flow-of-thought request from the
//! request alone (the speaker from "You are NAME,", varied lines, a saturation that rises
//! with every message since the boss last spoke) and records what it was asked, so the
//! same thoughts can be priced again with a naive prompt.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use chrono::{DateTime, Utc};
use cubicle_core::clock::SharedClock;
use cubicle_core::mind::thought::approx_tokens;
use serde_json::{Value, json};

use super::lock;

/// One request the scripted model answered: enough to price the same thought again with
/// a naive prompt.
pub(super) struct Asked {
    pub(super) employee: String,
    pub(super) chat: String,
    pub(super) at: DateTime<Utc>,
    /// Our prompt, estimated as the engine does (system + user).
    pub(super) ours: usize,
    /// Our prompt without its message, memory and impression lines.
    pub(super) fixed: usize,
}

#[derive(Default)]
pub(super) struct ScriptState {
    pub(super) by_name: HashMap<String, u64>,
    pub(super) asked: Vec<Asked>,
    /// Every request body as it arrived, when kept.
    pub(super) bodies: Vec<Value>,
}

#[derive(Clone)]
pub(super) struct Script {
    pub(super) state: Arc<Mutex<ScriptState>>,
    pub(super) clock: SharedClock,
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

/// A chat line of the prompt: `[HH:MM] …`, `*` in front when new.
pub(super) fn is_message_line(l: &str) -> bool {
    l.starts_with('[') || l.starts_with("*[")
}

/// The prompt without what a naive prompt would send in full: message lines, memory
/// lines and impression lines (their headings stay).
pub(super) fn strip_history(user: &str) -> String {
    let mut out = String::with_capacity(user.len());
    let mut in_list = false;
    for line in user.lines() {
        if is_message_line(line) {
            continue;
        }
        if line == "You remember:" || line == "Your view of those present:" {
            in_list = true;
        } else if in_list && line.starts_with("- ") {
            continue;
        } else {
            in_list = false;
        }
        out.push_str(line);
        out.push('\n');
    }
    out
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
    pub(super) fn new(clock: SharedClock) -> Self {
        Self {
            state: Arc::default(),
            clock,
            keep_bodies: false,
        }
    }

    pub(super) fn take_asked(&self) -> Vec<Asked> {
        std::mem::take(&mut lock(&self.state).asked)
    }

    pub(super) fn take_bodies(&self) -> Vec<Value> {
        std::mem::take(&mut lock(&self.state).bodies)
    }

    /// The flow-of-thought JSON for one request.
    pub(super) fn answer(&self, body: &[u8]) -> String {
        let body: Value = serde_json::from_slice(body).unwrap_or(Value::Null);
        let (system, user) = prompt_parts(&body);
        let name = between(system, "You are ", ",").unwrap_or("?").to_owned();
        let other = between(system, "Present: ", " (").unwrap_or("").to_owned();
        let system_tokens = approx_tokens(system);
        let asked = Asked {
            employee: name.clone(),
            chat: between(system, " chat \"", "\"").unwrap_or("").to_owned(),
            at: self.clock.now(),
            ours: system_tokens + approx_tokens(user),
            fixed: system_tokens + approx_tokens(&strip_history(user)),
        };
        let n = {
            let mut s = lock(&self.state);
            s.asked.push(asked);
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

    use chrono::TimeZone as _;
    use cubicle_core::clock::ManualClock;

    use super::*;

    #[test]
    fn the_naive_price_keeps_only_the_fixed_parts_of_our_prompt() {
        let user = "Earlier in this chat: we agreed.\nRecent messages (* = new to you):\n\
                    [08:00] Ada (boss): plan please\n*[08:01] Bob: on it\n\
                    You remember:\n- #3 (5) Bob likes tests\n- #4 (2) ship Friday\n\
                    Your view of those present:\n- Bob (affinity 60): careful\n\
                    No pending tasks. You may take on work if it fits your role.\n\
                    This time: ask about a detail\nThink, then answer with the JSON object only.";
        let fixed = strip_history(user);
        for gone in ["[08:00]", "*[08:01]", "#3", "#4", "affinity 60"] {
            assert!(!fixed.contains(gone), "{gone} left in {fixed}");
        }
        for kept in [
            "Earlier in this chat",
            "Recent messages",
            "You remember:",
            "Your view of those present:",
            "No pending tasks",
            "This time:",
            "Think, then answer",
        ] {
            assert!(fixed.contains(kept), "{kept} missing from {fixed}");
        }
    }

    #[test]
    fn the_script_answers_as_the_speaker_and_tires_as_the_chat_goes_on() {
        let script = Script::new(
            ManualClock::new(
                Utc.with_ymd_and_hms(2026, 11, 30, 8, 0, 0)
                    .single()
                    .unwrap_or_default(),
            )
            .shared(),
        );
        let ask = |since_boss: usize| {
            let mut user = String::from("[08:00] Ada (boss): plan please\n");
            for i in 0..since_boss {
                user.push_str(&format!("[08:0{}] Bob: idea {i}\n", i % 10));
            }
            let body = json!({"messages": [
                {"role": "system", "content": "You are Alice Chen, QA Engineer at Acme. Scene: the department group chat \"Engineering\". Present: Bob Okafor (QA Engineer); Ada is the boss"},
                {"role": "user", "content": user},
            ]});
            let content = script.answer(body.to_string().as_bytes());
            serde_json::from_str::<Value>(&content).unwrap_or(Value::Null)
        };
        let fresh = ask(0);
        let stale = ask(14);
        assert_eq!(fresh["topicSaturation"], 2);
        assert_eq!(stale["topicSaturation"], 9);
        assert_eq!(fresh["relationshipOps"][0]["name"], "Bob Okafor");
        let asked = script.take_asked();
        assert_eq!(asked.len(), 2);
        assert_eq!(asked[0].employee, "Alice Chen");
        assert_eq!(asked[0].chat, "Engineering");
        assert!(asked[1].fixed < asked[1].ours);
        // Varied lines: no message repeats one of the speaker's last five (similarity
        // ≥ 0.85 would be dropped by the repetition filter).
        let texts: Vec<String> = (1..=40).map(|n| line(7, n)).collect();
        for (i, text) in texts.iter().enumerate().skip(5) {
            let recent: Vec<&str> = texts[i - 5..i].iter().map(String::as_str).collect();
            assert!(!is_duplicate(text, &recent), "{text} repeats {recent:?}");
        }
    }
}
