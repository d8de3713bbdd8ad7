//! The deterministic rule tier (SPEC §3): offline, instant, the same answer every time.
//!
//! A message is normalised, cut into sentences, and each sentence is cut again at
//! commas and "and / then / 然后" only where the piece after the cut is a command of
//! its own ("hire a designer and move Bob to Sales" splits, "a meeting with Alice and
//! Bob" does not). Each clause is matched against the rows of `table.rs`; the row with
//! the highest confidence wins. What matches nothing is `unknown` with a low
//! confidence: the rules never guess.

mod answer;
mod clean;
mod fill;
mod table;

pub use answer::{TypedAnswer, typed_answer};

use std::sync::LazyLock;

use regex::Regex;

use super::intent::{Intent, IntentKind, Parse, Slots, Tier};
use super::normalize::normalize;

/// Longer messages are prose, not commands: the model tier reads those.
pub const MAX_RULE_INPUT_CHARS: usize = 1000;
/// The confidence of `unknown`: the secretary hands the text to the model tier or asks.
pub const UNKNOWN_CONFIDENCE: f32 = 0.1;
/// The confidence of a message that is only a yes or a no ("确认", "cancel").
pub const TYPED_ANSWER_CONFIDENCE: f32 = 0.95;
/// A piece after a comma/"and" becomes its own intent only when it is at least this sure.
const SPLIT_CONFIDENCE: f32 = 0.7;
/// No boss gives more orders than this in one message; more is noise.
const MAX_INTENTS: usize = 8;
const MAX_CLAUSES: usize = 24;

struct Compiled {
    kind: IntentKind,
    conf: f32,
    re: Regex,
}

/// Expands the table's placeholders and compiles case-insensitively.
fn compile(pattern: &str) -> Regex {
    let mut p = pattern.replace(r"\b", r"(?-u:\b)");
    for (key, value) in table::FRAGMENTS {
        p = p.replace(key, value);
    }
    match Regex::new(&format!("(?i){p}")) {
        Ok(re) => re,
        Err(e) => {
            // A broken row is a bug caught by the tests; at run time it just never matches.
            tracing::error!(error = %e, pattern, "secretary rule does not compile");
            #[allow(clippy::unwrap_used)] // a literal that always compiles
            Regex::new(r"[^\s\S]").unwrap()
        }
    }
}

static ROWS: LazyLock<Vec<Compiled>> = LazyLock::new(|| {
    table::ROWS
        .iter()
        .map(|r| Compiled {
            kind: r.kind,
            conf: r.conf,
            re: compile(r.re),
        })
        .collect()
});

static WEAK_SEPARATOR: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\s*,\s*|\s+and\s+then\s+|\s+and\s+|\s+then\s+|\s+also\s+|\s*,?\s*\bbut\s+|\s*但是\s*|\s*不过\s*|\s*然后\s*|\s*并且\s*|\s*接着\s*|\s*另外\s*|\s*顺便\s*",
    )
});
/// A piece that only adds to the clause before it: a name for a hire ("，叫王小明"), people
/// for a meeting ("，叫上张伟和李娜"), what an invited person does ("she approves
/// Product's work", "她负责审批产品部的工作").
static CONTINUATION: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"^\s*(?:(?P<people>叫上|拉上|约上|喊上|带上|with)\s*\S.*|(?P<name>名叫|名字叫|名字是|叫做|叫|named|called)\s*[\p{Han}A-Za-z][\p{Han}A-Za-z' -]{0,30}|(?P<duty>(?:she|he|they|她|他)\s*(?:will\s+|'ll\s+|会|来|负责)?(?:approves?|signs?\s+off|decides?|owns?|审批|批准|把关|决定|拍板)).*)$",
    )
});
/// Words for "the department's people" in "delete Marketing and move its people to Sales".
const COLLECTIVE: &[&str] = &[
    "its people",
    "their people",
    "the people",
    "people",
    "everyone",
    "everybody",
    "them",
    "its staff",
    "the staff",
    "staff",
    "its team",
    "the team",
    "its members",
    "the members",
    "all of them",
    "人员",
    "员工",
    "所有人",
    "大家",
    "他们",
    "里面的人",
    "部门的人",
    "该部门的人",
    "部门人员",
    "全部人员",
    "所有员工",
    "成员",
];

static LEADING_FILLER: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"^(?:(?:(?:please|pls|plz|kindly|hey|ok\s+so|so|now|also|and|then|plus|alright|oh|um|uh|can\s+you|could\s+you|would\s+you|can\s+u|could\s+u|will\s+you|i'd\s+like\s+you\s+to|i\s+want\s+you\s+to|i\s+need\s+you\s+to|go\s+ahead\s+and|let's|lets)\b|能不能|能否|可不可以|帮我|帮忙|麻烦你|麻烦|对了|另外|顺便|然后|再|还有|并且|同时|接着|以及|还要|也)\s*,?\s*)+",
    )
});
static TRAILING_FILLER: LazyLock<Regex> =
    LazyLock::new(|| compile(r"(?:\s*,?\s*\b(?:please|pls|plz|asap|right\s+away|for\s+me)\b)+$"));

/// Parses one boss message with the rules alone. Pure, deterministic, never panics.
pub fn parse_rules(text: &str) -> Parse {
    parse_rules_knowing(text, &[])
}

/// [`parse_rules`] knowing the names of the company's people: a known name is read as a
/// whole wherever a person is expected ("让欧阳娜娜跟王强一起…"), so the words around it
/// cannot run into it.
pub fn parse_rules_knowing(text: &str, known: &[&str]) -> Parse {
    let text = normalize(text);
    if text.chars().count() > MAX_RULE_INPUT_CHARS {
        return unknown();
    }
    // A bare yes or no answers whatever waits for the boss: the secretary's card first,
    // then (for "go ahead" and the like) the approval queue.
    if let Some(a) = typed_answer(&text) {
        let kind = if a.yes {
            IntentKind::Approve
        } else {
            IntentKind::Reject
        };
        return Parse {
            tier: Tier::Rules,
            intents: vec![Intent::new(kind, TYPED_ANSWER_CONFIDENCE, Slots::default())],
        };
    }
    let mut intents = Vec::new();
    for sentence in sentences(&text).into_iter().take(MAX_CLAUSES) {
        for clause in clauses(sentence, known).into_iter().take(MAX_CLAUSES) {
            intents.extend(classify(&clause, known));
        }
    }
    let intents = tidy(intents);
    if intents.is_empty() {
        return unknown();
    }
    Parse {
        tier: Tier::Rules,
        intents,
    }
}

fn unknown() -> Parse {
    Parse {
        tier: Tier::Rules,
        intents: vec![Intent::new(
            IntentKind::Unknown,
            UNKNOWN_CONFIDENCE,
            Slots::default(),
        )],
    }
}

/// Cuts at ! ? ; and newlines, and at a full stop that ends a sentence ("$3.50" stays whole).
fn sentences(text: &str) -> Vec<&str> {
    let mut out = Vec::new();
    let mut start = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        let next = chars.peek().map(|&(_, n)| n);
        let cut = match c {
            '!' | '?' | ';' | '\n' => true,
            '.' => !next.is_some_and(|n| n.is_ascii_alphanumeric() || n == '.'),
            _ => false,
        };
        if cut {
            out.push(&text[start..i]);
            start = i + c.len_utf8();
        }
    }
    out.push(&text[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .collect()
}

/// Cuts a sentence at weak separators where the next piece stands on its own.
fn clauses(sentence: &str, known: &[&str]) -> Vec<String> {
    let mut pieces: Vec<(&str, &str)> = Vec::new(); // (separator before, piece)
    let mut last = 0;
    let mut sep = "";
    for m in WEAK_SEPARATOR.find_iter(sentence).take(MAX_CLAUSES) {
        pieces.push((sep, &sentence[last..m.start()]));
        sep = m.as_str();
        last = m.end();
    }
    pieces.push((sep, &sentence[last..]));

    let mut out = Vec::new();
    let mut current = String::new();
    for (sep, piece) in pieces {
        if current.trim().is_empty() {
            current = piece.to_owned();
            continue;
        }
        if let Some(c) = CONTINUATION.captures(piece) {
            let before = best(&clean(&current), known).first().map(|i| i.kind);
            let joins = match (c.name("name"), c.name("duty")) {
                (Some(_), _) => before == Some(IntentKind::HireEmployee),
                (None, Some(_)) => before == Some(IntentKind::InvitePerson),
                (None, None) => before == Some(IntentKind::ConveneMeeting),
            };
            if joins {
                current.push_str(sep);
                current.push_str(piece);
                continue;
            }
        }
        let alone = best(&clean(piece), known);
        let stands_alone = alone
            .first()
            .is_some_and(|i| i.kind != IntentKind::Unknown && i.confidence >= SPLIT_CONFIDENCE);
        if stands_alone {
            out.push(std::mem::replace(&mut current, piece.to_owned()));
        } else {
            current.push_str(sep);
            current.push_str(piece);
        }
    }
    if !current.trim().is_empty() {
        out.push(current);
    }
    out
}

/// Strips politeness and connectives that carry no meaning for the rules.
fn clean(clause: &str) -> String {
    let c = clause
        .trim()
        .trim_end_matches(|ch: char| ".!?~,;: ".contains(ch));
    let c = LEADING_FILLER.replace(c, "");
    let c = TRAILING_FILLER.replace(&c, "");
    c.trim()
        .trim_end_matches(|ch: char| ".!?~,;: ".contains(ch))
        .to_owned()
}

fn classify(clause: &str, known: &[&str]) -> Vec<Intent> {
    let c = clean(clause);
    if c.is_empty() {
        return vec![];
    }
    let found = best(&c, known);
    if found.is_empty() {
        return vec![Intent::new(
            IntentKind::Unknown,
            UNKNOWN_CONFIDENCE,
            Slots::default(),
        )];
    }
    found
}

/// The intents of the most confident matching row (ties: the earlier row).
fn best(clause: &str, known: &[&str]) -> Vec<Intent> {
    let mut best: Vec<Intent> = Vec::new();
    let mut best_conf = 0.0f32;
    for row in ROWS.iter() {
        let Some(caps) = row.re.captures(clause) else {
            continue;
        };
        let intents = fill::fill(row.kind, row.conf, &caps, clause, known);
        let conf = intents.iter().map(|i| i.confidence).fold(0.0, f32::max);
        if !intents.is_empty() && conf > best_conf {
            best_conf = conf;
            best = intents;
        }
    }
    best
}

/// Joins the pieces of one request, drops the noise around real requests, removes repeats.
fn tidy(mut intents: Vec<Intent>) -> Vec<Intent> {
    // "研发部缺人，招两个测试": a roleless hire next to a hire with a role is the same hire.
    let mut i = 0;
    while i + 1 < intents.len() {
        let (a, b) = (&intents[i], &intents[i + 1]);
        if a.kind == IntentKind::HireEmployee && b.kind == IntentKind::HireEmployee {
            let (keep, drop) = match (a.slots.role.is_some(), b.slots.role.is_some()) {
                (false, true) => (i + 1, i),
                (true, false) => (i, i + 1),
                _ => {
                    i += 1;
                    continue;
                }
            };
            let donor = intents[drop].slots.clone();
            let target = &mut intents[keep].slots;
            if target.department.is_none() {
                target.department = donor.department;
            }
            if target.name.is_none() {
                target.name = donor.name;
            }
            intents.remove(drop);
            continue;
        }
        i += 1;
    }
    // "delete Marketing and move its people to Sales": one deletion with a destination.
    let mut i = 0;
    while i + 1 < intents.len() {
        let collective = intents[i + 1].kind == IntentKind::TransferEmployee
            && intents[i + 1]
                .slots
                .name
                .as_deref()
                .is_some_and(|n| COLLECTIVE.contains(&n.trim().to_lowercase().as_str()));
        if intents[i].kind == IntentKind::DeleteDepartment
            && intents[i].slots.target_department.is_none()
            && collective
        {
            let moved = intents.remove(i + 1);
            intents[i].slots.target_department = moved.slots.target_department;
        }
        i += 1;
    }
    resolve_pronouns(&mut intents);
    let real = intents
        .iter()
        .any(|i| !matches!(i.kind, IntentKind::Unknown | IntentKind::Chitchat));
    if real {
        intents.retain(|i| !matches!(i.kind, IntentKind::Unknown | IntentKind::Chitchat));
    } else if intents.iter().any(|i| i.kind == IntentKind::Chitchat) {
        intents.retain(|i| i.kind == IntentKind::Chitchat);
    }
    intents.dedup_by(|b, a| a.kind == b.kind && a.slots == b.slots);
    intents.truncate(MAX_INTENTS);
    intents
}

/// "move Carol to Design and ask her to draft the flow": a task for "her" goes to the
/// person the message named last. A new hire has no record yet, so "hire a designer and
/// ask her …" still asks whom.
fn resolve_pronouns(intents: &mut [Intent]) {
    let mut last: Option<String> = None;
    for intent in intents.iter_mut() {
        let refers_back = intent.kind == IntentKind::AssignTask
            && intent.slots.assignee.is_none()
            && (intent.confidence - fill::PRONOUN_ASSIGNEE).abs() < f32::EPSILON;
        if refers_back && let Some(who) = &last {
            intent.slots.assignee = Some(who.clone());
            intent.confidence = 0.9;
        }
        last = match intent.kind {
            IntentKind::TransferEmployee | IntentKind::FireEmployee => intent.slots.name.clone(),
            IntentKind::AssignTask => intent.slots.assignee.clone(),
            IntentKind::HireEmployee => None,
            _ => last.take(),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_row_compiles() {
        for row in table::ROWS {
            let p = {
                let mut p = row.re.replace(r"\b", r"(?-u:\b)");
                for (k, v) in table::FRAGMENTS {
                    p = p.replace(k, v);
                }
                p
            };
            assert!(Regex::new(&format!("(?i){p}")).is_ok(), "{}", row.re);
        }
    }

    #[test]
    fn sentences_keep_decimals_whole() {
        assert_eq!(
            sentences("cap it at $3.50. thanks!"),
            ["cap it at $3.50", "thanks"]
        );
    }

    #[test]
    fn weak_cut_only_before_a_standalone_command() {
        assert_eq!(
            clauses("hire a designer and move Bob to Sales", &[]).len(),
            2
        );
        assert_eq!(
            clauses("set up a meeting with Alice and Bob about pricing", &[]).len(),
            1
        );
    }
}
