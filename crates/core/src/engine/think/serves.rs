//! Which boss instruction each act of a thought serves (SPEC §10: every tool call and
//! approval records the trace of the instruction it belongs to).
//!
//! One thought can answer two instructions at once: both new to the employee, or both
//! among its pending tasks. The thought has one trace (`instruction_of`), but a tool
//! call or a task it makes for the other instruction belongs to that one's story —
//! otherwise that story shows nothing done (no call, no refusal, no approval) and the
//! other shows what it never asked for. An answer names no instruction, so an act is
//! matched against the words of each: the instruction itself, its messages new to the
//! employee and its tasks (`#id` as the prompt lists them). The instruction that shares
//! the most of the act's marks, and more than any other, is the one it serves; an act
//! no instruction claims alone stays in the thought's trace.

use std::collections::{HashMap, HashSet};

use cubicle_store::{DbErr, trace as tq};
use serde::{Deserialize, Serialize};

use super::Woken;
use crate::engine::plan::{OpsPlan, TaskPlan};
use crate::tools::ToolCall;

/// The trace each act of a thought serves, by its place in the thought's plan; `None`
/// (or no entry, as in plans written before acts had their own) is the thought's trace.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(in crate::engine) struct Serves {
    /// One per tool call of the plan ([`OpsPlan::tool_calls`]).
    pub tools: Vec<Option<String>>,
    /// One per task op of the plan ([`OpsPlan::tasks`]); only a new task has one.
    pub tasks: Vec<Option<String>>,
}

impl Serves {
    /// The trace the plan's `n`th tool call serves, when not the thought's.
    pub fn tool(&self, n: usize) -> Option<&str> {
        self.tools.get(n).and_then(Option::as_deref)
    }

    /// The trace the plan's `n`th task op serves, when not the thought's.
    pub fn task(&self, n: usize) -> Option<&str> {
        self.tasks.get(n).and_then(Option::as_deref)
    }
}

/// A mark that names one task (`#12`, as the prompt lists tasks) outweighs any number
/// of shared words.
const TASK_MARK_WEIGHT: usize = 10;

/// Words of four letters or more that say nothing about which instruction is meant.
const COMMON_WORDS: &[&str] = &[
    "about", "also", "been", "could", "from", "have", "into", "just", "please", "should", "some",
    "than", "that", "their", "them", "then", "there", "they", "this", "were", "what", "when",
    "will", "with", "would", "your",
];

/// The instructions a thought may be answering, each with the marks of its words.
pub(super) struct Instructions {
    each: Vec<(String, HashSet<String>)>,
}

impl Instructions {
    /// The instructions of the task being reported, of the messages new to the employee
    /// and of its pending tasks.
    pub async fn load(db: &impl cubicle_store::ConnectionTrait, w: &Woken) -> Result<Self, DbErr> {
        let mut words: Vec<(String, String)> = Vec::new();
        for t in w.reporting.iter().chain(&w.tasks) {
            if let Some(trace) = &t.trace_id {
                let condition = t.condition.as_deref().unwrap_or_default();
                let text = format!("#{} {} {condition}", t.id, t.description);
                words.push((trace.clone(), text));
            }
        }
        for m in w.unread() {
            if let Some(trace) = &m.trace_id {
                words.push((trace.clone(), m.text.clone()));
            }
        }
        let mut each: Vec<(String, HashSet<String>)> = Vec::new();
        for (trace, text) in words {
            match each.iter_mut().find(|(id, _)| *id == trace) {
                Some((_, found)) => found.extend(marks(&text)),
                None => each.push((trace, marks(&text))),
            }
        }
        // Only worth reading when there is a choice to make.
        if each.len() > 1 {
            for (trace, found) in &mut each {
                if let Some(t) = tq::find_trace(db, trace).await? {
                    found.extend(marks(&t.instruction));
                }
            }
        }
        Ok(Self { each })
    }

    /// Whether acts of this thought can serve more than one instruction.
    pub fn several(&self) -> bool {
        self.each.len() > 1
    }

    /// The instructions each act of `plan` serves, where one claims it alone.
    pub fn serves(&self, plan: &OpsPlan) -> Serves {
        if !self.several() {
            return Serves::default();
        }
        Serves {
            tools: plan
                .tool_calls
                .iter()
                .map(|c| self.claimed(&call_marks(c)))
                .collect(),
            tasks: plan
                .tasks
                .iter()
                .map(|op| match op {
                    TaskPlan::Create {
                        description,
                        condition,
                        ..
                    } => {
                        let condition = condition.as_deref().unwrap_or_default();
                        self.claimed(&marks(&format!("{description} {condition}")))
                    }
                    TaskPlan::Finish { .. } => None,
                })
                .collect(),
        }
    }

    /// The one instruction that shares more of `act`'s marks than any other.
    fn claimed(&self, act: &HashSet<String>) -> Option<String> {
        let mut scores: HashMap<&str, usize> = HashMap::new();
        for (trace, found) in &self.each {
            let score = act
                .iter()
                .filter(|m| found.contains(*m))
                .map(|m| {
                    if m.starts_with('#') {
                        TASK_MARK_WEIGHT
                    } else {
                        1
                    }
                })
                .sum();
            scores.insert(trace, score);
        }
        let best = scores.values().copied().max().unwrap_or(0);
        let mut top = scores.iter().filter(|(_, s)| **s == best);
        match (top.next(), top.next()) {
            (Some((trace, _)), None) if best > 0 => Some((*trace).to_owned()),
            _ => None,
        }
    }
}

/// What a tool call says about what it is for: its reason and every text of its
/// arguments (a URL's host and path are words too).
fn call_marks(call: &ToolCall) -> HashSet<String> {
    let mut texts = vec![call.reason.clone()];
    collect_texts(&call.args, &mut texts);
    marks(&texts.join(" "))
}

fn collect_texts(v: &serde_json::Value, out: &mut Vec<String>) {
    match v {
        serde_json::Value::String(s) => out.push(s.clone()),
        serde_json::Value::Array(items) => items.iter().for_each(|i| collect_texts(i, out)),
        serde_json::Value::Object(map) => map.values().for_each(|i| collect_texts(i, out)),
        _ => {}
    }
}

/// The marks of a text: its words of four letters or more (lowercased, common ones
/// left out), each pair of neighbouring Chinese characters, and task references `#12`.
fn marks(text: &str) -> HashSet<String> {
    let mut out = HashSet::new();
    let mut word = String::new();
    let mut prev_cjk: Option<char> = None;
    let mut after_hash = false;
    let mut number = String::new();
    for c in text.chars().chain([' ']) {
        if c.is_ascii_digit() && after_hash {
            number.push(c);
        } else {
            if !number.is_empty() {
                out.insert(format!("#{number}"));
                number.clear();
            }
            after_hash = c == '#';
        }
        if c.is_alphanumeric() && c.is_ascii() {
            word.push(c.to_ascii_lowercase());
        } else {
            if word.len() >= 4 && !COMMON_WORDS.contains(&word.as_str()) {
                out.insert(std::mem::take(&mut word));
            }
            word.clear();
        }
        if is_cjk(c) {
            if let Some(p) = prev_cjk {
                out.insert(format!("{p}{c}"));
            }
            prev_cjk = Some(c);
        } else {
            prev_cjk = None;
        }
    }
    out
}

fn is_cjk(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}' | '\u{f900}'..='\u{faff}')
}

#[cfg(test)]
mod tests {
    use super::*;

    fn instructions(each: &[(&str, &str)]) -> Instructions {
        Instructions {
            each: each
                .iter()
                .map(|(trace, text)| ((*trace).to_owned(), marks(text)))
                .collect(),
        }
    }

    fn post(url: &str, text: &str, reason: &str) -> ToolCall {
        ToolCall::new(
            "post_webhook",
            serde_json::json!({"url": url, "text": text}),
            reason,
        )
    }

    #[test]
    fn marks_are_words_chinese_pairs_and_task_numbers() {
        let m = marks("Post the Release note to #12, 发布说明 https://hooks.slack.com/x");
        for want in [
            "post", "release", "note", "#12", "发布", "布说", "说明", "hooks", "slack",
        ] {
            assert!(m.contains(want), "{want} in {m:?}");
        }
        for not in ["the", "to", "12", "x", "https:"] {
            assert!(!m.contains(not), "{not} in {m:?}");
        }
    }

    #[test]
    fn a_call_goes_to_the_instruction_it_shares_words_with() {
        let i = instructions(&[
            ("tr-old", "#3 Post the launch teaser to the launch channel"),
            ("tr-new", "#4 Post the release note to the team webhook"),
        ]);
        let teaser = post(
            "https://hooks.slack.com/services/T0/B0/launch",
            "Something new is coming",
            "the boss asked for a teaser",
        );
        let release = post(
            "https://open.feishu.cn/hook/acme-team",
            "Release 2.3 is out",
            "the boss asked me to announce the release",
        );
        assert_eq!(i.claimed(&call_marks(&teaser)).as_deref(), Some("tr-old"));
        assert_eq!(i.claimed(&call_marks(&release)).as_deref(), Some("tr-new"));
    }

    #[test]
    fn a_task_number_outweighs_shared_words() {
        let i = instructions(&[
            ("tr-old", "#3 Post the launch teaser"),
            ("tr-new", "#4 Post the release note"),
        ]);
        let call = post("https://x.example/launch", "teaser", "for #4");
        assert_eq!(i.claimed(&call_marks(&call)).as_deref(), Some("tr-new"));
    }

    #[test]
    fn a_call_no_instruction_claims_alone_stays_in_the_thought() {
        let i = instructions(&[
            ("tr-old", "Post the launch teaser"),
            ("tr-new", "Post the release note"),
        ]);
        let call = post("https://x.example/hook", "hello", "post it");
        assert_eq!(i.claimed(&call_marks(&call)), None, "a tie on 'post'");
        let nothing = post("https://x.example/", "hi", "");
        assert_eq!(i.claimed(&call_marks(&nothing)), None);
    }

    #[test]
    fn chinese_instructions_are_told_apart_too() {
        let i = instructions(&[
            ("tr-old", "把上线预告发到发布频道"),
            ("tr-new", "把发布说明发到团队群"),
        ]);
        let call = post(
            "https://hooks.example/x",
            "下周有新东西",
            "老板要一条上线预告",
        );
        assert_eq!(i.claimed(&call_marks(&call)).as_deref(), Some("tr-old"));
    }
}
