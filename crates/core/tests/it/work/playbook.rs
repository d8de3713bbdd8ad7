//! A scripted model that plays people, not a workflow: each answer depends only on who
//! is thinking and what their prompt shows (the chat, what is new, their tasks), the way
//! a real model's would. The story emerges from the engine carrying messages between
//! them; nothing here knows what happens next.

use std::sync::{Arc, Mutex};

use serde_json::{Value, json};
use wiremock::{Request, Respond, ResponseTemplate};

/// What one person sees in one thought.
#[derive(Clone, Debug)]
pub(crate) struct Seen {
    pub name: String,
    /// The chat's name (`Scene: the … chat "<name>"`).
    pub chat: String,
    pub private_with_boss: bool,
    pub private: bool,
    /// New lines (`[hh:mm] Sender: text`).
    pub unread: Vec<String>,
    /// Pending task ids and descriptions, as listed in the prompt.
    pub tasks: Vec<(i64, String)>,
    /// This thought writes the report of a resolved task.
    pub reporting: bool,
    /// The whole prompt, for tests that check what a thought was (not) told.
    pub prompt: String,
}

impl Seen {
    pub fn new_from(&self, sender: &str, containing: &str) -> bool {
        self.unread.iter().any(|l| {
            l.split("] ")
                .nth(1)
                .is_some_and(|rest| rest.starts_with(sender))
                && l.to_lowercase().contains(&containing.to_lowercase())
        })
    }

    pub fn task(&self, containing: &str) -> Option<i64> {
        self.tasks
            .iter()
            .find(|(_, d)| d.to_lowercase().contains(&containing.to_lowercase()))
            .map(|(id, _)| *id)
    }
}

/// A thought that says nothing.
pub(crate) fn silent(name: &str) -> Value {
    json!({
        "innerThoughts": format!("{name}: nothing for me to add"),
        "shouldSpeak": false,
        "reason": "nothing new to add",
        "messages": [],
        "topicSaturation": 6,
        "interestLevel": 3
    })
}

/// A thought that speaks: `(content, to)` pairs.
pub(crate) fn speak(inner: &str, messages: &[(&str, Option<&str>)], task_ops: Value) -> Value {
    json!({
        "innerThoughts": inner,
        "shouldSpeak": true,
        "reason": "I have something to add",
        "messages": messages
            .iter()
            .map(|(c, to)| json!({"content": c, "to": to}))
            .collect::<Vec<_>>(),
        "topicSaturation": 3,
        "interestLevel": 8,
        "taskOps": task_ops
    })
}

type Play = dyn Fn(&Seen) -> Value + Send + Sync;

/// The scripted model: every prompt it received, and the play that answers.
#[derive(Clone)]
pub(crate) struct Playbook {
    play: Arc<Play>,
    pub prompts: Arc<Mutex<Vec<Seen>>>,
}

impl Playbook {
    pub fn new(play: impl Fn(&Seen) -> Value + Send + Sync + 'static) -> Self {
        Self {
            play: Arc::new(play),
            prompts: Arc::default(),
        }
    }
}

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = text.find(start)? + start.len();
    let j = text[i..].find(end)? + i;
    Some(&text[i..j])
}

pub(crate) fn read(system: &str, user: &str) -> Seen {
    let tasks = user
        .lines()
        .filter_map(|l| {
            // "1. [normal, 3 min] #12 Research REST vs GraphQL"
            let rest = l.split_once(" min] #")?.1;
            let (id, desc) = rest.split_once(' ')?;
            Some((id.parse().ok()?, desc.to_owned()))
        })
        .collect();
    Seen {
        name: between(system, "You are ", ",").unwrap_or("?").to_owned(),
        chat: between(system, "chat \"", "\"").unwrap_or("").to_owned(),
        private_with_boss: system.contains("private (you and the boss)"),
        private: system.contains("the private chat"),
        unread: unread_lines(user),
        tasks,
        reporting: user.contains("Write the report yourself"),
        prompt: format!("{system}\n{user}"),
    }
}

/// The message lines the prompt says are new: the last N before "(The last N messages are
/// new to you.)".
fn unread_lines(user: &str) -> Vec<String> {
    let Some((before, after)) = user.split_once("\n(The last ") else {
        return Vec::new();
    };
    let n = after
        .split(' ')
        .next()
        .and_then(|w| {
            if w == "message" {
                Some(1)
            } else {
                w.parse().ok()
            }
        })
        .unwrap_or(0);
    let lines: Vec<&str> = before.lines().filter(|l| l.starts_with('[')).collect();
    lines[lines.len().saturating_sub(n)..]
        .iter()
        .map(|l| (*l).to_owned())
        .collect()
}

impl Respond for Playbook {
    fn respond(&self, req: &Request) -> ResponseTemplate {
        let body: Value = serde_json::from_slice(&req.body).unwrap_or(Value::Null);
        let system = body["messages"][0]["content"].as_str().unwrap_or("");
        let user = body["messages"][1]["content"].as_str().unwrap_or("");
        let seen = read(system, user);
        let answer = (self.play)(&seen);
        self.prompts.lock().unwrap().push(seen);
        ResponseTemplate::new(200).set_body_json(json!({
            "id": "p", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "finish_reason": "stop",
                "message": {"role": "assistant", "content": answer.to_string()}}],
            "usage": {"prompt_tokens": 800, "completion_tokens": 90}
        }))
    }
}
