//! The rules of an employee's memory (SPEC §5), apart from where it is stored: caps and
//! eviction, short-term TTL and archiving, visibility, de-duplication and retrieval
//! ranking. Kept pure so the DB layer and the engine apply the same decisions, and so the
//! ranking — what an employee "remembers" in a given moment — can be tested exactly.
//!
//! Retrieval ranks by importance, recency and keyword overlap with the conversation, so a
//! prompt carries the few memories that matter now, not simply the latest ones.

use std::collections::{HashMap, HashSet};

use chrono::{DateTime, TimeDelta, Utc};

/// Long-term entries kept per employee; the least important are evicted beyond it.
pub const LONG_TERM_CAP: usize = 200;
/// Short-term entries kept per employee; the oldest are archived beyond it.
pub const SHORT_TERM_CAP: usize = 20;
/// A short-term entry's lifetime when the model gives none.
pub const DEFAULT_SHORT_TERM_TTL_HOURS: i64 = 24;
/// The longest TTL a model may ask for: beyond a month it should be long-term.
pub const MAX_SHORT_TERM_TTL_HOURS: i64 = 24 * 30;
/// The lowest importance.
pub const IMPORTANCE_MIN: i32 = 1;
/// The highest importance.
pub const IMPORTANCE_MAX: i32 = 10;
/// Importance when the model gives none.
pub const DEFAULT_IMPORTANCE: i32 = 5;
/// How much importance a short-term entry loses when archived to long-term: it was only
/// meant to be kept for a while, so it should be the first to go when space runs out.
pub const ARCHIVE_IMPORTANCE_DROP: i32 = 2;
/// Two entries at least this similar (bigram Dice) are the same memory.
pub const DUPLICATE_SIMILARITY: f64 = 0.85;
/// Recency half-life in retrieval ranking, in days.
pub const RECENCY_HALF_LIFE_DAYS: f64 = 3.0;

pub use cubicle_store::enums::{MemoryKind, Visibility};

/// One memory entry, as the rules see it.
#[derive(Clone, Debug, PartialEq)]
pub struct MemoryItem {
    pub id: i32,
    pub owner_id: i32,
    pub kind: MemoryKind,
    pub content: String,
    pub importance: i32,
    pub visibility: Visibility,
    /// The owner's department when the entry was written (team visibility).
    pub department_id: Option<i32>,
    /// The requirement the entry is about (team visibility).
    pub requirement_id: Option<i32>,
    pub created_at: DateTime<Utc>,
    /// Short-term only; `None` means the default TTL from `created_at`.
    pub expires_at: Option<DateTime<Utc>>,
}

/// Who is reading: an employee with its department and the requirements it works on.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Viewer {
    pub employee_id: i32,
    pub department_id: Option<i32>,
    pub requirement_ids: Vec<i32>,
}

/// Whether `viewer` may read `item`: private → owner only; team → owner, same department,
/// or a requirement the viewer is in; public → everyone.
pub fn visible_to(item: &MemoryItem, viewer: &Viewer) -> bool {
    if item.owner_id == viewer.employee_id {
        return true;
    }
    match item.visibility {
        Visibility::Private => false,
        Visibility::Team => {
            (item.department_id.is_some() && item.department_id == viewer.department_id)
                || item
                    .requirement_id
                    .is_some_and(|r| viewer.requirement_ids.contains(&r))
        }
        Visibility::Public => true,
    }
}

/// Importance clamped to 1..=10.
pub fn clamp_importance(importance: i32) -> i32 {
    importance.clamp(IMPORTANCE_MIN, IMPORTANCE_MAX)
}

/// The importance of a short-term entry archived to long-term: 2 lower, at least 1.
pub fn archived_importance(importance: i32) -> i32 {
    (clamp_importance(importance) - ARCHIVE_IMPORTANCE_DROP).max(IMPORTANCE_MIN)
}

/// The long-term entry a short-term one becomes when evicted by the cap or the TTL
/// (same id and content; the store decides whether to update in place or insert).
pub fn archived(item: &MemoryItem) -> MemoryItem {
    MemoryItem {
        kind: MemoryKind::LongTerm,
        importance: archived_importance(item.importance),
        expires_at: None,
        ..item.clone()
    }
}

/// When a new short-term entry expires: `ttl_hours` from `now` (default 24 h), kept
/// within 1 h..=30 days so a model cannot make one instant or eternal.
pub fn short_term_expires_at(now: DateTime<Utc>, ttl_hours: Option<i64>) -> DateTime<Utc> {
    let hours = ttl_hours
        .unwrap_or(DEFAULT_SHORT_TERM_TTL_HOURS)
        .clamp(1, MAX_SHORT_TERM_TTL_HOURS);
    now + TimeDelta::hours(hours)
}

/// When a short-term entry expires (its own time, or the default TTL).
fn expiry(item: &MemoryItem) -> DateTime<Utc> {
    item.expires_at
        .unwrap_or(item.created_at + TimeDelta::hours(DEFAULT_SHORT_TERM_TTL_HOURS))
}

/// Long-term ids to evict so at most [`LONG_TERM_CAP`] remain: lowest importance first,
/// then oldest (then lowest id, for determinism). Short-term items are ignored.
pub fn long_term_evictions(items: &[MemoryItem]) -> Vec<i32> {
    let mut long: Vec<&MemoryItem> = items
        .iter()
        .filter(|m| m.kind == MemoryKind::LongTerm)
        .collect();
    let excess = long.len().saturating_sub(LONG_TERM_CAP);
    if excess == 0 {
        return Vec::new();
    }
    long.sort_by_key(|m| (clamp_importance(m.importance), m.created_at, m.id));
    long.iter().take(excess).map(|m| m.id).collect()
}

/// Short-term ids whose TTL has run out at `now` (an entry expires at its expiry
/// instant), earliest expiry first. Long-term items are ignored.
pub fn short_term_expired(items: &[MemoryItem], now: DateTime<Utc>) -> Vec<i32> {
    let mut expired: Vec<&MemoryItem> = items
        .iter()
        .filter(|m| m.kind == MemoryKind::ShortTerm && expiry(m) <= now)
        .collect();
    expired.sort_by_key(|m| (expiry(m), m.id));
    expired.iter().map(|m| m.id).collect()
}

/// Short-term ids beyond [`SHORT_TERM_CAP`], oldest first. Call it on the live entries
/// (after removing [`short_term_expired`] ones), so an expired entry does not push out a
/// live one.
pub fn short_term_overflow(items: &[MemoryItem]) -> Vec<i32> {
    let mut short: Vec<&MemoryItem> = items
        .iter()
        .filter(|m| m.kind == MemoryKind::ShortTerm)
        .collect();
    let excess = short.len().saturating_sub(SHORT_TERM_CAP);
    if excess == 0 {
        return Vec::new();
    }
    short.sort_by_key(|m| (m.created_at, m.id));
    short.iter().take(excess).map(|m| m.id).collect()
}

/// Text reduced to what carries meaning for comparison: lowercase letters and digits
/// only, so case, spacing and punctuation (ASCII or Chinese) don't make entries differ.
fn normalize(s: &str) -> Vec<char> {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn bigrams(chars: &[char]) -> HashMap<(char, char), usize> {
    let mut m = HashMap::new();
    for w in chars.windows(2) {
        *m.entry((w[0], w[1])).or_insert(0) += 1;
    }
    m
}

fn dice(a: &[char], b: &[char]) -> f64 {
    if a == b {
        return 1.0;
    }
    if a.len() < 2 || b.len() < 2 {
        return 0.0;
    }
    let (ba, bb) = (bigrams(a), bigrams(b));
    let shared: usize = ba
        .iter()
        .map(|(k, &n)| n.min(bb.get(k).copied().unwrap_or(0)))
        .sum();
    2.0 * shared as f64 / ((a.len() - 1) + (b.len() - 1)) as f64
}

/// Similarity in 0..=1: the Dice coefficient of the normalized texts' character bigrams
/// (1 for texts equal after normalization). Works the same for English and Chinese.
pub fn similarity(a: &str, b: &str) -> f64 {
    dice(&normalize(a), &normalize(b))
}

/// Whether `new` repeats one of `existing`: equal after normalization, or at least
/// [`DUPLICATE_SIMILARITY`] similar.
pub fn is_duplicate(new: &str, existing: &[&str]) -> bool {
    let n = normalize(new);
    existing
        .iter()
        .any(|e| dice(&n, &normalize(e)) >= DUPLICATE_SIMILARITY)
}

/// English words too common to tell memories apart.
const STOP_WORDS: &[&str] = &[
    "a", "about", "after", "all", "also", "am", "an", "and", "any", "are", "as", "at", "be",
    "been", "but", "by", "can", "could", "did", "didn", "do", "does", "doesn", "don", "for",
    "from", "had", "has", "have", "he", "her", "here", "him", "his", "how", "i", "if", "in",
    "into", "is", "isn", "it", "its", "just", "ll", "me", "my", "no", "not", "of", "on", "or",
    "our", "re", "she", "should", "so", "some", "than", "that", "the", "their", "them", "then",
    "there", "these", "they", "this", "those", "to", "too", "up", "us", "ve", "very", "was", "we",
    "were", "what", "when", "where", "which", "who", "will", "with", "won", "would", "yes", "you",
    "your",
];

/// Chinese modal and structural particles: they split a run of characters, since a bigram
/// across them ("的需") means nothing. Only characters that are almost never part of a
/// word, so "现在" or "是否" are not torn apart.
const CJK_PARTICLES: &[char] = &['的', '了', '吗', '呢', '吧', '啊', '呀', '嘛'];

/// Chinese bigrams as common as English stop words.
const CJK_STOP_BIGRAMS: &[&str] = &[
    "我们", "你们", "他们", "她们", "这个", "那个", "一个", "什么", "怎么", "可以", "但是", "因为",
    "所以", "如果", "还是", "已经", "没有", "不是",
];

fn is_cjk(c: char) -> bool {
    matches!(c as u32,
        0x3040..=0x30FF      // kana
        | 0x3400..=0x4DBF    // CJK extension A
        | 0x4E00..=0x9FFF    // CJK unified ideographs
        | 0xAC00..=0xD7AF    // Hangul
        | 0xF900..=0xFAFF    // compatibility ideographs
        | 0x20000..=0x2A6DF) // extension B
}

/// Collects keywords once each, in order of appearance.
#[derive(Default)]
struct Keywords {
    out: Vec<String>,
    seen: HashSet<String>,
}

impl Keywords {
    fn push(&mut self, k: String) {
        if self.seen.insert(k.clone()) {
            self.out.push(k);
        }
    }

    fn word(&mut self, word: &mut String) {
        let w = std::mem::take(word);
        if w.chars().count() >= 2 && !STOP_WORDS.contains(&w.as_str()) {
            self.push(w);
        }
    }

    fn cjk_run(&mut self, run: &mut Vec<char>) {
        if let [c] = run.as_slice() {
            self.push(c.to_string());
        }
        for w in run.windows(2) {
            let b: String = w.iter().collect();
            if !CJK_STOP_BIGRAMS.contains(&b.as_str()) {
                self.push(b);
            }
        }
        run.clear();
    }
}

/// Retrieval keywords: English (and other alphabetic) words lowercased, without stop
/// words and single letters; for runs of CJK characters, their character bigrams (a
/// lone character stands for itself). Each keyword once, in order of appearance.
pub fn keywords(text: &str) -> Vec<String> {
    let mut k = Keywords::default();
    let mut word = String::new();
    let mut run: Vec<char> = Vec::new();
    for c in text.chars() {
        if is_cjk(c) {
            k.word(&mut word);
            if CJK_PARTICLES.contains(&c) {
                k.cjk_run(&mut run);
            } else {
                run.push(c);
            }
        } else if c.is_alphanumeric() {
            k.cjk_run(&mut run);
            word.extend(c.to_lowercase());
        } else {
            k.word(&mut word);
            k.cjk_run(&mut run);
        }
    }
    k.word(&mut word);
    k.cjk_run(&mut run);
    k.out
}

/// An item's retrieval score against the context's keywords:
/// 0.5·importance/10 + 0.2·recency + 0.3·overlap.
fn score(item: &MemoryItem, context: &HashSet<String>, now: DateTime<Utc>) -> f64 {
    let importance = f64::from(clamp_importance(item.importance)) / f64::from(IMPORTANCE_MAX);
    let age_days = (now - item.created_at).num_seconds().max(0) as f64 / 86_400.0;
    let recency = 0.5_f64.powf(age_days / RECENCY_HALF_LIFE_DAYS);
    let own = keywords(&item.content);
    let overlap = if own.is_empty() {
        0.0
    } else {
        let hits = own.iter().filter(|k| context.contains(*k)).count();
        (hits as f64 / own.len() as f64).min(1.0)
    };
    0.5 * importance + 0.2 * recency + 0.3 * overlap
}

/// The `cap` entries most worth recalling in `context`: highest score first
/// (0.5·importance/10 + 0.2·recency with a 3-day half-life + 0.3·the fraction of the
/// entry's keywords found in the context), ties to the newer entry. Filter by
/// [`visible_to`] first — or use [`retrieve`], which does.
pub fn rank<'a>(
    items: &'a [MemoryItem],
    context: &str,
    now: DateTime<Utc>,
    cap: usize,
) -> Vec<&'a MemoryItem> {
    rank_iter(items.iter(), context, now, cap)
}

/// Retrieval as the prompt needs it: only what `viewer` may read and what has not
/// expired (SPEC §5: reads are filtered before any retrieval), ranked for `context`, at
/// most `cap`.
pub fn retrieve<'a>(
    items: &'a [MemoryItem],
    viewer: &Viewer,
    context: &str,
    now: DateTime<Utc>,
    cap: usize,
) -> Vec<&'a MemoryItem> {
    let readable = items
        .iter()
        .filter(|m| visible_to(m, viewer))
        .filter(|m| m.kind == MemoryKind::LongTerm || expiry(m) > now);
    rank_iter(readable, context, now, cap)
}

fn rank_iter<'a>(
    items: impl Iterator<Item = &'a MemoryItem>,
    context: &str,
    now: DateTime<Utc>,
    cap: usize,
) -> Vec<&'a MemoryItem> {
    let ctx: HashSet<String> = keywords(context).into_iter().collect();
    let mut scored: Vec<(f64, &MemoryItem)> = items.map(|m| (score(m, &ctx, now), m)).collect();
    scored.sort_by(|(sa, a), (sb, b)| {
        sb.total_cmp(sa)
            .then(b.created_at.cmp(&a.created_at))
            .then(b.id.cmp(&a.id))
    });
    scored.into_iter().take(cap).map(|(_, m)| m).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::read_name;
    use sea_orm::ActiveEnum;

    fn t(hours: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000, 0).unwrap() + TimeDelta::hours(hours)
    }

    fn item(
        id: i32,
        kind: MemoryKind,
        importance: i32,
        created_h: i64,
        content: &str,
    ) -> MemoryItem {
        MemoryItem {
            id,
            owner_id: 1,
            kind,
            content: content.into(),
            importance,
            visibility: Visibility::Private,
            department_id: Some(10),
            requirement_id: None,
            created_at: t(created_h),
            expires_at: None,
        }
    }

    fn long(id: i32, importance: i32, created_h: i64) -> MemoryItem {
        item(id, MemoryKind::LongTerm, importance, created_h, "x")
    }

    fn short(id: i32, created_h: i64) -> MemoryItem {
        item(id, MemoryKind::ShortTerm, 5, created_h, "x")
    }

    #[test]
    fn names_round_trip_and_match_serde() {
        for k in [MemoryKind::LongTerm, MemoryKind::ShortTerm] {
            assert_eq!(read_name::<MemoryKind>(&k.to_value()), Some(k));
            assert_eq!(serde_json::to_value(k).unwrap(), k.to_value());
        }
        assert_eq!(read_name(" shortTerm"), Some(MemoryKind::ShortTerm));
        assert_eq!(read_name::<MemoryKind>("forever"), None);
        for v in [Visibility::Private, Visibility::Team, Visibility::Public] {
            assert_eq!(read_name::<Visibility>(&v.to_value()), Some(v));
            assert_eq!(serde_json::to_value(v).unwrap(), v.to_value());
        }
        assert_eq!(read_name::<Visibility>("secret"), None);
        assert_eq!(Visibility::default(), Visibility::Private);
    }

    #[test]
    fn visibility_per_level() {
        let mut m = item(1, MemoryKind::LongTerm, 5, 0, "x");
        m.owner_id = 1;
        m.department_id = Some(10);
        m.requirement_id = Some(77);
        let owner = Viewer {
            employee_id: 1,
            department_id: Some(99),
            requirement_ids: vec![],
        };
        let same_dept = Viewer {
            employee_id: 2,
            department_id: Some(10),
            requirement_ids: vec![],
        };
        let same_req = Viewer {
            employee_id: 3,
            department_id: Some(20),
            requirement_ids: vec![5, 77],
        };
        let outsider = Viewer {
            employee_id: 4,
            department_id: Some(20),
            requirement_ids: vec![5],
        };
        let homeless = Viewer {
            employee_id: 5,
            department_id: None,
            requirement_ids: vec![],
        };
        let see = |m: &MemoryItem| {
            [&owner, &same_dept, &same_req, &outsider, &homeless].map(|v| visible_to(m, v))
        };
        m.visibility = Visibility::Private;
        assert_eq!(see(&m), [true, false, false, false, false]);
        m.visibility = Visibility::Team;
        assert_eq!(see(&m), [true, true, true, false, false]);
        m.visibility = Visibility::Public;
        assert_eq!(see(&m), [true, true, true, true, true]);
        // A team entry with no department does not match a viewer without one.
        m.visibility = Visibility::Team;
        m.department_id = None;
        m.requirement_id = None;
        assert_eq!(see(&m), [true, false, false, false, false]);
    }

    #[test]
    fn long_term_under_the_cap_evicts_nothing() {
        let items: Vec<_> = (0..200).map(|i| long(i, 1, i64::from(i))).collect();
        assert!(long_term_evictions(&items).is_empty());
    }

    #[test]
    fn long_term_evicts_lowest_importance_then_oldest() {
        let mut items: Vec<_> = (0..200).map(|i| long(i, 5, i64::from(i))).collect();
        items.push(long(1000, 2, 500)); // newest but least important
        items.push(long(1001, 9, -50)); // oldest but important
        items.push(long(1002, 5, -10)); // oldest of the importance-5 group
        // Short-term entries don't count toward the long-term cap.
        items.extend((0..30).map(|i| short(2000 + i, 0)));
        assert_eq!(long_term_evictions(&items), vec![1000, 1002, 0]);
        // Same importance and age: the lower id goes first (deterministic).
        let tied: Vec<_> = (0..202).map(|i| long(i, 3, 0)).collect();
        assert_eq!(long_term_evictions(&tied), vec![0, 1]);
    }

    #[test]
    fn short_term_ttl_defaults_to_24_hours() {
        let mut custom = short(3, 0);
        custom.expires_at = Some(t(2));
        let items = vec![short(1, 0), short(2, 1), custom, long(4, 5, -1000)];
        assert!(short_term_expired(&items, t(1)).is_empty());
        assert_eq!(short_term_expired(&items, t(2)), vec![3]);
        assert_eq!(
            short_term_expired(&items, t(24) - TimeDelta::seconds(1)),
            vec![3]
        );
        assert_eq!(short_term_expired(&items, t(24)), vec![3, 1]);
        assert_eq!(short_term_expired(&items, t(25)), vec![3, 1, 2]);
    }

    #[test]
    fn ttl_from_the_model_is_bounded() {
        assert_eq!(short_term_expires_at(t(0), None), t(24));
        assert_eq!(short_term_expires_at(t(0), Some(3)), t(3));
        assert_eq!(short_term_expires_at(t(0), Some(0)), t(1));
        assert_eq!(short_term_expires_at(t(0), Some(-5)), t(1));
        assert_eq!(short_term_expires_at(t(0), Some(1_000_000)), t(24 * 30));
    }

    #[test]
    fn short_term_overflow_drops_the_oldest_beyond_twenty() {
        let mut items: Vec<_> = (0..20).map(|i| short(i, i64::from(i))).collect();
        assert!(short_term_overflow(&items).is_empty());
        items.push(short(100, -5));
        items.push(short(101, 50));
        items.push(long(102, 1, -100));
        assert_eq!(short_term_overflow(&items), vec![100, 0]);
    }

    #[test]
    fn archiving_lowers_importance_by_two_down_to_one() {
        assert_eq!(archived_importance(10), 8);
        assert_eq!(archived_importance(5), 3);
        assert_eq!(archived_importance(3), 1);
        assert_eq!(archived_importance(2), 1);
        assert_eq!(archived_importance(1), 1);
        assert_eq!(archived_importance(42), 8);
        assert_eq!(archived_importance(-3), 1);
        let mut s = short(7, 0);
        s.importance = 6;
        s.expires_at = Some(t(3));
        let a = archived(&s);
        assert_eq!(a.kind, MemoryKind::LongTerm);
        assert_eq!(a.importance, 4);
        assert_eq!(a.expires_at, None);
        assert_eq!(
            (a.id, &a.content, a.created_at),
            (7, &s.content, s.created_at)
        );
    }

    #[test]
    fn duplicates_in_english() {
        let existing = ["The boss wants the Q3 report by Friday.", "Bob likes tea"];
        assert!(is_duplicate(
            "the boss wants the q3 report by friday",
            &existing
        ));
        assert!(is_duplicate(
            "The boss wants the Q3 report by Friday!!",
            &existing
        ));
        assert!(is_duplicate(
            "  The boss  wants the Q3 report by friday ",
            &existing
        ));
        assert!(is_duplicate(
            "Boss wants the Q3 report by Friday.",
            &existing
        ));
        assert!(!is_duplicate("The boss wants slides by Monday.", &existing));
        assert!(!is_duplicate("Bob hates coffee", &existing));
        assert!(!is_duplicate("anything", &[]));
    }

    #[test]
    fn duplicates_in_chinese() {
        let existing = ["老板要求周五前交季度报告。"];
        assert!(is_duplicate("老板要求周五前交季度报告", &existing));
        assert!(is_duplicate("老板：要求周五前，交季度报告！", &existing));
        assert!(is_duplicate("老板要求周五前交季度报告啦", &existing));
        assert!(!is_duplicate("明天下午开会讨论预算", &existing));
        assert!(!is_duplicate("老板要求下周交设计稿", &existing));
    }

    #[test]
    fn similarity_is_a_bigram_dice() {
        assert_eq!(similarity("abc", "ABC"), 1.0);
        assert_eq!(similarity("", ""), 1.0);
        assert_eq!(similarity("a", "b"), 0.0);
        assert_eq!(similarity("abc", ""), 0.0);
        // "night"/"nacht": bigrams ni ig gh ht / na ac ch ht → 2·1/8.
        assert!((similarity("night", "nacht") - 0.25).abs() < 1e-12);
        // Symmetric, and repeated bigrams count as often as they occur.
        assert_eq!(similarity("aaaa", "aa"), similarity("aa", "aaaa"));
        assert!((similarity("aaaa", "aa") - 0.5).abs() < 1e-12);
    }

    #[test]
    fn keywords_for_english_and_chinese() {
        assert_eq!(
            keywords("The boss's report is due on FRIDAY, and Bob's late!"),
            vec!["boss", "report", "due", "friday", "bob", "late"]
        );
        assert_eq!(keywords("预算会议"), vec!["预算", "算会", "会议"]);
        // Particles split runs; stop bigrams are dropped; a lone character stands alone.
        assert_eq!(keywords("我们的预算"), vec!["预算"]);
        assert_eq!(keywords("钱"), vec!["钱"]);
        // Mixed text, each keyword once.
        assert_eq!(keywords("API 文档 api文档 v2"), vec!["api", "文档", "v2"]);
        assert!(keywords("the a of , 。！").is_empty());
    }

    #[test]
    fn ranking_prefers_relevance_over_recency() {
        let now = t(0);
        let mut old_relevant = item(
            1,
            MemoryKind::LongTerm,
            8,
            -24 * 30,
            "The boss prefers dark mode in the dashboard",
        );
        old_relevant.id = 1;
        let new_irrelevant = item(2, MemoryKind::ShortTerm, 3, 0, "Lunch was pizza today");
        let items = vec![new_irrelevant, old_relevant];
        let top = rank(&items, "Should the dashboard use dark mode?", now, 1);
        assert_eq!(top.len(), 1);
        assert_eq!(top[0].id, 1);
        // Same importance: relevance still beats a fresher but unrelated entry.
        let items = vec![
            item(3, MemoryKind::LongTerm, 5, -24 * 4, "预算会议改到周三"),
            item(4, MemoryKind::LongTerm, 5, 0, "新来的同事喜欢喝咖啡"),
        ];
        assert_eq!(rank(&items, "周三的预算会议几点开？", now, 1)[0].id, 3);
    }

    #[test]
    fn ranking_is_not_the_latest_n() {
        let now = t(0);
        // Ten fresh, trivial entries, and two old important relevant ones at the front.
        let mut items = vec![
            item(
                100,
                MemoryKind::LongTerm,
                9,
                -24 * 20,
                "deploy checklist for the payment service",
            ),
            item(
                101,
                MemoryKind::LongTerm,
                9,
                -24 * 40,
                "payment service outage postmortem",
            ),
        ];
        items.extend((0..10).map(|i| {
            item(
                i,
                MemoryKind::ShortTerm,
                2,
                -i64::from(i),
                "chatted about the weather",
            )
        }));
        let ids: Vec<i32> = rank(&items, "the payment service deploy", now, 3)
            .iter()
            .map(|m| m.id)
            .collect();
        assert_eq!(ids, vec![100, 101, 0]);
        assert_eq!(rank(&items, "", now, 50).len(), items.len());
        assert!(rank(&items, "", now, 0).is_empty());
    }

    #[test]
    fn ranking_formula_and_ties() {
        let now = t(0);
        // importance 10, brand new, fully relevant → 0.5 + 0.2 + 0.3.
        let a = item(1, MemoryKind::LongTerm, 10, 0, "budget");
        let ctx: HashSet<String> = keywords("the budget").into_iter().collect();
        assert!((score(&a, &ctx, now) - 1.0).abs() < 1e-12);
        // Three days old: recency halves.
        let b = item(2, MemoryKind::LongTerm, 10, -72, "budget");
        assert!((score(&b, &ctx, now) - 0.9).abs() < 1e-12);
        // Half its keywords in the context.
        let c = item(3, MemoryKind::LongTerm, 10, 0, "budget review");
        assert!((score(&c, &ctx, now) - 0.85).abs() < 1e-12);
        // Equal scores: newer first, then higher id.
        let items = vec![
            item(5, MemoryKind::LongTerm, 4, 0, "zzz"),
            item(6, MemoryKind::LongTerm, 4, 0, "zzz"),
        ];
        let ids: Vec<i32> = rank(&items, "", now, 2).iter().map(|m| m.id).collect();
        assert_eq!(ids, vec![6, 5]);
    }

    #[test]
    fn retrieve_filters_visibility_and_expiry_before_ranking() {
        let now = t(48);
        let viewer = Viewer {
            employee_id: 2,
            department_id: Some(10),
            requirement_ids: vec![],
        };
        let mut private = item(1, MemoryKind::LongTerm, 10, 47, "budget secret");
        private.visibility = Visibility::Private;
        let mut team = item(2, MemoryKind::LongTerm, 1, 0, "budget shared");
        team.visibility = Visibility::Team;
        let mut expired = item(3, MemoryKind::ShortTerm, 10, 0, "budget stale");
        expired.visibility = Visibility::Public;
        let mut own = item(4, MemoryKind::ShortTerm, 5, 40, "budget mine");
        own.owner_id = 2;
        let items = vec![private, team, expired, own];
        let ids: Vec<i32> = retrieve(&items, &viewer, "budget", now, 10)
            .iter()
            .map(|m| m.id)
            .collect();
        assert_eq!(ids, vec![4, 2]);
    }
}
