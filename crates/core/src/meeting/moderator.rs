//! The meeting's moderator (SPEC §9): a pure function from who is in the room (and who
//! could be invited) and what has been said to the next move — someone speaks, someone
//! is invited, or the meeting closes. No I/O, no clock, no randomness: the same meeting
//! always gets the same move, so every strategy is tested here without a database.
//!
//! A move's `reason` is the moderator's own reasoning. The caller stores it apart from
//! the chat (SPEC §9: it never enters the meeting's context).

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

pub use super::stance::{agrees, disagrees};

pub use cubicle_store::enums::{MoveKind, Strategy};

/// Someone in the room (`present`) or someone the moderator may invite.
#[derive(Clone, Debug, PartialEq)]
pub struct Participant {
    pub id: i32,
    pub name: String,
    pub title: String,
    /// Lower-case keywords: skills and the words of the title.
    pub expertise: Vec<String>,
    pub department: Option<String>,
    pub present: bool,
}

/// One turn of the meeting as the moderator sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Turn {
    /// `None` for the boss (who may post in any chat but is never a member).
    pub speaker_id: Option<i32>,
    pub text: String,
    /// The chosen speaker stayed silent: the turn was theirs, they added nothing.
    pub passed: bool,
}

/// When a meeting ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// Member turns (spoken or passed) before the meeting closes whatever happens.
    pub max_turns: usize,
    /// Round-robin: rounds before it closes.
    pub rounds: usize,
    /// Rule-based: this many last member turns agreeing (or adding nothing) close it.
    pub consensus_turns: usize,
}

/// A meeting's default length: enough for three people to go round four times.
pub const DEFAULT_MAX_TURNS: usize = 12;
pub const DEFAULT_ROUNDS: usize = 2;
pub const DEFAULT_CONSENSUS_TURNS: usize = 3;

impl Default for Limits {
    fn default() -> Self {
        Self {
            max_turns: DEFAULT_MAX_TURNS,
            rounds: DEFAULT_ROUNDS,
            consensus_turns: DEFAULT_CONSENSUS_TURNS,
        }
    }
}

/// What a model answered when asked who should speak next: a name (or an id), or
/// `close`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, schemars::JsonSchema)]
pub struct ModelPick {
    pub speaker: String,
    pub reason: String,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Move {
    Speak {
        employee_id: i32,
        reason: String,
    },
    Invite {
        employee_ids: Vec<i32>,
        reason: String,
    },
    Close {
        reason: String,
    },
}

impl Move {
    pub fn reason(&self) -> &str {
        match self {
            Move::Speak { reason, .. } | Move::Invite { reason, .. } | Move::Close { reason } => {
                reason
            }
        }
    }

    /// What the move is, as stored with the note.
    pub fn kind(&self) -> MoveKind {
        match self {
            Move::Speak { .. } => MoveKind::Speak,
            Move::Invite { .. } => MoveKind::Invite,
            Move::Close { .. } => MoveKind::Close,
        }
    }
}

/// The next move of the meeting on `topic`.
pub fn next(
    strategy: Strategy,
    topic: &str,
    participants: &[Participant],
    history: &[Turn],
    limits: &Limits,
    model_pick: Option<&ModelPick>,
) -> Move {
    let present: Vec<&Participant> = participants.iter().filter(|p| p.present).collect();
    if present.is_empty() {
        return Move::Close {
            reason: "nobody is left in the meeting".into(),
        };
    }
    let taken = member_turns(history).count();
    if taken >= limits.max_turns {
        return Move::Close {
            reason: format!("the turn cap of {} was reached", limits.max_turns),
        };
    }
    match strategy {
        Strategy::RoundRobin => round_robin(&present, history, limits),
        Strategy::RuleBased => rule_based(topic, participants, history, limits),
        Strategy::ModelPicked => model_picked(topic, participants, history, limits, model_pick),
    }
}

fn member_turns(history: &[Turn]) -> impl Iterator<Item = (i32, &Turn)> {
    history
        .iter()
        .filter_map(|t| t.speaker_id.map(|id| (id, t)))
}

fn turns_of(history: &[Turn], id: i32) -> usize {
    member_turns(history).filter(|(s, _)| *s == id).count()
}

fn last_member(history: &[Turn]) -> Option<i32> {
    member_turns(history).last().map(|(id, _)| id)
}

/// Whoever has had the fewest turns, in the fixed order; closes once everyone has had
/// `rounds` turns. A member who joins late starts at zero and so speaks next.
fn round_robin(present: &[&Participant], history: &[Turn], limits: &Limits) -> Move {
    let counts: Vec<usize> = present.iter().map(|p| turns_of(history, p.id)).collect();
    let fewest = counts.iter().copied().min().unwrap_or(0);
    if fewest >= limits.rounds {
        return Move::Close {
            reason: format!("every member has spoken in all {} rounds", limits.rounds),
        };
    }
    let last = last_member(history);
    let pick = present
        .iter()
        .zip(&counts)
        .filter(|(_, c)| **c == fewest)
        .map(|(p, _)| *p)
        .find(|p| Some(p.id) != last || present.len() == 1)
        .or_else(|| {
            present
                .iter()
                .zip(&counts)
                .find(|(_, c)| **c == fewest)
                .map(|(p, _)| *p)
        });
    match pick {
        Some(p) => Move::Speak {
            employee_id: p.id,
            reason: format!(
                "round {} of {}: it is {}'s turn in the fixed order",
                fewest + 1,
                limits.rounds,
                p.name
            ),
        },
        None => Move::Close {
            reason: "nobody is left to speak".into(),
        },
    }
}

/// Addressed people first, then an outsider whose expertise nobody present covers, then
/// the best expertise match; closes on consensus.
fn rule_based(
    topic: &str,
    participants: &[Participant],
    history: &[Turn],
    limits: &Limits,
) -> Move {
    let present: Vec<&Participant> = participants.iter().filter(|p| p.present).collect();
    let candidates: Vec<&Participant> = participants.iter().filter(|p| !p.present).collect();
    if let Some(reason) = consensus(history, limits, present.len()) {
        return Move::Close { reason };
    }
    let last_turn = history.iter().rev().find(|t| !t.passed);
    let last = last_member(history);
    let eligible: Vec<&Participant> = present
        .iter()
        .copied()
        .filter(|p| Some(p.id) != last || present.len() == 1)
        .collect();
    if let Some(m) = last_turn.and_then(|t| answer_the_addressed(t, &eligible, &candidates)) {
        return m;
    }
    let subject = last_turn.map_or(topic, |t| t.text.as_str());
    if let Some(m) = invite_missing_expertise(subject, &present, &candidates) {
        return m;
    }
    best_match(topic, subject, &eligible, history)
}

/// Someone addressed by name in the last turn answers; a named outsider is invited.
fn answer_the_addressed(
    last_turn: &Turn,
    eligible: &[&Participant],
    candidates: &[&Participant],
) -> Option<Move> {
    if let Some(p) = eligible
        .iter()
        .find(|p| Some(p.id) != last_turn.speaker_id && addressed(&last_turn.text, &p.name))
    {
        return Some(Move::Speak {
            employee_id: p.id,
            reason: format!("{} was addressed by name in the last turn", p.name),
        });
    }
    let named: Vec<&Participant> = candidates
        .iter()
        .copied()
        .filter(|p| addressed(&last_turn.text, &p.name))
        .collect();
    (!named.is_empty()).then(|| Move::Invite {
        employee_ids: named.iter().map(|p| p.id).collect(),
        reason: format!("{} was named but is not in the meeting", names(&named)),
    })
}

/// Invites whoever covers a keyword of `subject` that nobody present covers.
fn invite_missing_expertise(
    subject: &str,
    present: &[&Participant],
    candidates: &[&Participant],
) -> Option<Move> {
    let covered: HashSet<&str> = present
        .iter()
        .flat_map(|p| p.expertise.iter().map(String::as_str))
        .collect();
    let mut invite: Vec<&Participant> = Vec::new();
    let mut missing: Vec<&str> = Vec::new();
    for c in candidates {
        for k in &c.expertise {
            if !covered.contains(k.as_str()) && mentions_keyword(subject, k) {
                if !invite.iter().any(|p| p.id == c.id) {
                    invite.push(c);
                }
                if !missing.contains(&k.as_str()) {
                    missing.push(k);
                }
            }
        }
    }
    (!invite.is_empty()).then(|| Move::Invite {
        employee_ids: invite.iter().map(|p| p.id).collect(),
        reason: format!(
            "nobody present covers {}; {} does",
            missing.join(", "),
            names(&invite)
        ),
    })
}

/// The best expertise match for the last turn (and the topic), then who spoke least.
fn best_match(topic: &str, subject: &str, eligible: &[&Participant], history: &[Turn]) -> Move {
    let score = |p: &Participant| matches(subject, p) * 2 + matches(topic, p);
    let mut best: Option<&Participant> = None;
    for p in eligible {
        let key = (score(p), std::cmp::Reverse(turns_of(history, p.id)));
        // Strictly better only: among equals the first in the room's order wins.
        if best.is_none_or(|b| key > (score(b), std::cmp::Reverse(turns_of(history, b.id)))) {
            best = Some(p);
        }
    }
    let Some(p) = best else {
        return Move::Close {
            reason: "nobody is left to speak".into(),
        };
    };
    let reason = if score(p) > 0 {
        let hits: Vec<&str> = p
            .expertise
            .iter()
            .filter(|k| mentions_keyword(subject, k) || mentions_keyword(topic, k))
            .map(String::as_str)
            .collect();
        format!(
            "{}'s expertise ({}) best matches the discussion, and {} has spoken {} times",
            p.name,
            hits.join(", "),
            p.name,
            turns_of(history, p.id)
        )
    } else {
        format!(
            "no expertise stands out, so {} who has spoken least ({} times) goes next",
            p.name,
            turns_of(history, p.id)
        )
    };
    Move::Speak {
        employee_id: p.id,
        reason,
    }
}

fn model_picked(
    topic: &str,
    participants: &[Participant],
    history: &[Turn],
    limits: &Limits,
    pick: Option<&ModelPick>,
) -> Move {
    let fallback = |why: String| match rule_based(topic, participants, history, limits) {
        Move::Speak {
            employee_id,
            reason,
        } => Move::Speak {
            employee_id,
            reason: format!("{why}; by the rules: {reason}"),
        },
        Move::Invite {
            employee_ids,
            reason,
        } => Move::Invite {
            employee_ids,
            reason: format!("{why}; by the rules: {reason}"),
        },
        Move::Close { reason } => Move::Close {
            reason: format!("{why}; by the rules: {reason}"),
        },
    };
    let Some(pick) = pick else {
        return fallback("the model made no pick".into());
    };
    let wanted = pick.speaker.trim();
    if wanted.eq_ignore_ascii_case("close") {
        return Move::Close {
            reason: pick.reason.clone(),
        };
    }
    let who = participants.iter().find(|p| {
        p.name.eq_ignore_ascii_case(wanted)
            || wanted.parse::<i32>().is_ok_and(|id| id == p.id)
            || first_name(&p.name).eq_ignore_ascii_case(wanted)
    });
    let Some(p) = who else {
        return fallback(format!(
            "the model picked {wanted:?}, who is not in the meeting"
        ));
    };
    if !p.present {
        return Move::Invite {
            employee_ids: vec![p.id],
            reason: pick.reason.clone(),
        };
    }
    let present = participants.iter().filter(|p| p.present).count();
    if last_member(history) == Some(p.id) && present > 1 {
        return fallback(format!(
            "the model picked {} to speak twice in a row",
            p.name
        ));
    }
    Move::Speak {
        employee_id: p.id,
        reason: pick.reason.clone(),
    }
}

/// The last `k` member turns all agree or add nothing new (SPEC §9: the moderator
/// closes when the room has converged).
fn consensus(history: &[Turn], limits: &Limits, present: usize) -> Option<String> {
    let k = limits.consensus_turns.min(present.max(2)).max(2);
    let turns: Vec<&Turn> = member_turns(history).map(|(_, t)| t).collect();
    if turns.len() < k {
        return None;
    }
    let (before, last) = turns.split_at(turns.len() - k);
    let mut seen: HashSet<String> = before.iter().flat_map(|t| tokens(&t.text)).collect();
    let mut agreeing = 0;
    for t in last {
        // An objection is never settled, however few new words it has.
        let settled =
            !disagrees(&t.text) && (t.passed || agrees(&t.text) || adds_nothing(&t.text, &seen));
        if !settled {
            return None;
        }
        agreeing += usize::from(!t.passed && agrees(&t.text));
        seen.extend(tokens(&t.text));
    }
    Some(if agreeing > 0 {
        format!("the last {k} turns agree or add nothing new: consensus")
    } else {
        format!("the last {k} turns added nothing new")
    })
}

/// Less than a fifth of the turn's words are new to the meeting.
fn adds_nothing(text: &str, seen: &HashSet<String>) -> bool {
    let words = tokens(text);
    if words.is_empty() {
        return true;
    }
    let new = words.iter().filter(|w| !seen.contains(*w)).count();
    new * 5 < words.len()
}

/// Words worth comparing: Latin words of three letters or more, and pairs of Chinese
/// characters (Chinese has no spaces, and bigrams are what carries meaning there).
pub fn tokens(text: &str) -> Vec<String> {
    let lower = text.to_lowercase();
    let mut out = Vec::new();
    for w in lower.split(|c: char| !c.is_alphanumeric()) {
        let cjk: Vec<char> = w.chars().filter(|c| is_cjk(*c)).collect();
        let latin: String = w.chars().filter(|c| !is_cjk(*c)).collect();
        if latin.chars().count() >= 3 {
            out.push(latin);
        }
        out.extend(cjk.windows(2).map(|p| p.iter().collect::<String>()));
    }
    out
}

fn is_cjk(c: char) -> bool {
    ('\u{4e00}'..='\u{9fff}').contains(&c)
}

/// Whether `text` mentions `keyword`: as a whole word for Latin keywords (so "ui" does
/// not match "build"), as a substring for Chinese ones. A Latin word ends where Latin
/// letters and digits end, so "API" is a word in "把API迁到GraphQL" too.
pub fn mentions_keyword(text: &str, keyword: &str) -> bool {
    let k = keyword.trim().to_lowercase();
    if k.is_empty() {
        return false;
    }
    let t = text.to_lowercase();
    if k.chars().any(is_cjk) {
        return t.contains(&k);
    }
    t.match_indices(&k).any(|(i, _)| {
        let before = t[..i].chars().next_back();
        let after = t[i + k.len()..].chars().next();
        !before.is_some_and(|c| c.is_ascii_alphanumeric())
            && !after.is_some_and(|c| c.is_ascii_alphanumeric())
    })
}

fn matches(text: &str, p: &Participant) -> usize {
    p.expertise
        .iter()
        .filter(|k| mentions_keyword(text, k))
        .count()
}

fn first_name(name: &str) -> &str {
    name.split_whitespace().next().unwrap_or(name)
}

/// `@Name`, the full name or the first name as a word.
fn addressed(text: &str, name: &str) -> bool {
    let t = text.to_lowercase();
    t.contains(&format!("@{}", name.to_lowercase()))
        || t.contains(&format!("@{}", first_name(name).to_lowercase()))
        || mentions_keyword(text, name)
        || mentions_keyword(text, first_name(name))
}

fn names(people: &[&Participant]) -> String {
    people
        .iter()
        .map(|p| p.name.as_str())
        .collect::<Vec<_>>()
        .join(", ")
}

#[cfg(test)]
#[path = "moderator_tests.rs"]
mod tests;
