//! What the soak's model says when it behaves: a valid flow-of-thought made from the
//! request alone (the speaker, the new messages, the pending tasks), and the ways it
//! garbles that answer when it does not.

use rand::Rng;
use rand::rngs::StdRng;
use serde_json::{Value, json};

use super::faults::Fault;

const IDEAS: [&str; 12] = [
    "the release checklist needs an owner",
    "we could trim the onboarding flow to three steps",
    "support tickets about login doubled this week",
    "the staging database is almost full",
    "a short demo on Friday would help everyone",
    "the pricing page still says beta",
    "our flaky tests cost an hour a day",
    "the Android build is two versions behind",
    "a written spec before estimating saves rework",
    "customers keep asking for an export button",
    "night alerts fire too often",
    "the docs for the API are half done",
];
const TAILS: [&str; 7] = [
    "and I can draft a plan today",
    "though the budget is tight",
    "unless someone objects",
    "which also unblocks support",
    "so let's decide by tomorrow",
    "if design agrees",
    "and the numbers back it up",
];

fn between<'a>(text: &'a str, start: &str, end: &str) -> Option<&'a str> {
    let i = text.find(start)? + start.len();
    let j = text[i..].find(end)? + i;
    Some(&text[i..j])
}

fn content(request: &Value, i: usize) -> &str {
    request["messages"][i]["content"].as_str().unwrap_or("")
}

/// The structured pipeline's second try: the model was told what was wrong.
pub fn is_feedback(request: &Value) -> bool {
    request["messages"]
        .as_array()
        .and_then(|m| m.last())
        .and_then(|m| m["content"].as_str())
        .is_some_and(|c| c.contains("could not be used"))
}

/// Pending task ids as the prompt lists them (`1. [normal, 3 min] #12 …`).
fn pending_tasks(user: &str) -> Vec<i64> {
    user.lines()
        .filter_map(|l| {
            let rest = l.split_once("] #")?.1;
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            digits.parse().ok()
        })
        .collect()
}

/// A valid flow-of-thought for this request.
pub fn answer(request: &Value, rng: &mut StdRng) -> String {
    let system = content(request, 0);
    let user = content(request, 1);
    let name = between(system, "You are ", ",")
        .unwrap_or("someone")
        .to_owned();
    let since_boss = user.rsplit("(boss):").next().map_or(0, |tail| {
        tail.lines()
            .filter(|l| l.starts_with('[') || l.starts_with("*["))
            .count()
    });
    let saturation = (2 + since_boss / 2).min(10);
    let tasks = pending_tasks(user);
    let reporting = user.contains("report the result") || user.contains("task is done");
    // Pending work gets done about half the times it is looked at.
    let task_ops = match tasks.first() {
        Some(id) if rng.random_bool(0.5) => json!([{
            "op": "resolve", "id": id,
            "result": format!("done by {name}: checked, fixed and written up"),
        }]),
        _ => json!([]),
    };
    let speak = reporting || !tasks.is_empty() || rng.random_bool(0.7);
    let n: usize = rng.random_range(0..1000);
    let line = format!(
        "{}, {} ({n})",
        IDEAS[n % IDEAS.len()],
        TAILS[(n / IDEAS.len()) % TAILS.len()]
    );
    json!({
        "innerThoughts": format!("{name} thinks it over ({n})"),
        "topicSaturation": saturation,
        "interestLevel": rng.random_range(3..9),
        "shouldSpeak": speak,
        "reason": if speak { "I have something to add" } else { "others have it covered" },
        "messages": if speak { json!([{"content": line}]) } else { json!([]) },
        "memorySummary": "The team is planning the week",
        "memoryOps": [],
        "relationshipOps": [],
        "taskOps": task_ops,
    })
    .to_string()
}

/// `valid`, garbled the way `fault` says.
pub fn garbage(fault: Fault, valid: &str) -> String {
    match fault {
        Fault::Truncated => {
            let cut = valid.len() * 3 / 5;
            let mut end = cut;
            while !valid.is_char_boundary(end) {
                end -= 1;
            }
            valid[..end].to_owned()
        }
        Fault::Fenced => {
            format!("Sure! Here is my answer:\n```json\n{valid}\n```\nHope that helps.")
        }
        Fault::WrongTypes => json!({
            "innerThoughts": 42,
            "shouldSpeak": "perhaps",
            "messages": "hello everyone",
            "taskOps": {"op": "resolve"},
        })
        .to_string(),
        _ => "I think we should ship on Friday, but let me check with the team first.".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;

    use super::*;

    #[test]
    fn the_model_resolves_listed_tasks_and_garbles_on_demand() {
        let user = "TOP PRIORITY — your pending tasks\n1. [aging, 6 min] #17 write the notes\n\
                    2. [normal, 1 min] #21 check the build\n";
        assert_eq!(pending_tasks(user), vec![17, 21]);
        let request = json!({"messages": [
            {"role": "system", "content": "You are Alice Chen, QA at Acme."},
            {"role": "user", "content": user},
        ]});
        let mut rng = StdRng::seed_from_u64(1);
        let resolved = (0..20)
            .map(|_| answer(&request, &mut rng))
            .filter(|a| a.contains("\"resolve\"") && a.contains("17"))
            .count();
        assert!((3..=17).contains(&resolved), "{resolved} of 20");
        let valid = answer(&request, &mut rng);
        assert!(serde_json::from_str::<Value>(&valid).is_ok());
        for f in [Fault::Truncated, Fault::WrongTypes, Fault::NotJson] {
            let g = garbage(f, &valid);
            let parsed = serde_json::from_str::<Value>(&g).ok();
            assert!(
                parsed.is_none_or(|v| v["shouldSpeak"].as_bool().is_none()),
                "{f:?}: {g}"
            );
        }
        assert!(!is_feedback(&request));
    }
}
