//! Matching a name the boss typed against the people (or departments) of the company:
//! case-insensitive, partial ("ali" → Alice when only one name starts so), and by pinyin
//! for Chinese names ("zhangwei" / "zhang wei" → 张伟, and 张伟 ↔ "Zhang Wei").
//! Pure: the caller passes the candidates. An ambiguous or unknown name is reported as
//! such so the secretary asks instead of guessing.

use pinyin::ToPinyinMulti;

use super::normalize::{edit_distance, is_han};

#[derive(Clone, Debug, PartialEq, Eq)]
pub enum NameMatch<Id> {
    /// The same name, ignoring case and spacing.
    Exact(Id),
    /// Exactly one candidate fits: a prefix, a part of the name, its pinyin or one typo.
    Unique(Id),
    /// Several candidates fit equally well: ask which one.
    Ambiguous(Vec<Id>),
    None,
}

/// Shortest query that may match by prefix; "a" matching every Alice and Adam helps nobody.
const MIN_PREFIX_CHARS: usize = 2;
/// Heteronym combinations per name are capped (a four-character name could have dozens).
const MAX_READINGS: usize = 16;

/// Lower-case, without spaces, dots, hyphens or apostrophes: "Zhang Wei" → "zhangwei".
fn compact(s: &str) -> String {
    s.chars()
        .filter(|c| !c.is_whitespace() && !".-_'·•".contains(*c))
        .flat_map(char::to_lowercase)
        .collect()
}

/// Every pinyin spelling of `s` (all readings of each character, capped), compacted.
/// Characters without pinyin are kept as they are.
fn readings(s: &str) -> Vec<String> {
    let mut out = vec![String::new()];
    for c in s.chars().filter(|c| !c.is_whitespace()) {
        let options: Vec<String> = if is_han(c) {
            match c.to_pinyin_multi() {
                Some(multi) => multi.into_iter().map(|p| p.plain().to_owned()).collect(),
                None => vec![c.to_string()],
            }
        } else {
            vec![c.to_lowercase().collect()]
        };
        let mut next = Vec::new();
        for prefix in &out {
            for o in &options {
                if next.len() < MAX_READINGS {
                    next.push(format!("{prefix}{o}"));
                }
            }
        }
        out = next;
    }
    out.into_iter().map(|s| compact(&s)).collect()
}

/// The spellings a name is known by: itself, and for a Chinese name its pinyin in
/// Chinese order (zhangwei) and in Western order (weizhang).
fn keys(name: &str) -> Vec<String> {
    let mut keys = vec![compact(name)];
    if name.chars().any(is_han) {
        keys.extend(readings(name));
        let han: Vec<char> = name.chars().filter(|c| is_han(*c)).collect();
        if (2..=3).contains(&han.len()) {
            let surname: String = han[..1].iter().collect();
            let given: String = han[1..].iter().collect();
            for g in readings(&given) {
                for s in readings(&surname) {
                    keys.push(format!("{g}{s}"));
                }
            }
        }
    }
    keys.sort();
    keys.dedup();
    keys
}

/// The words of a name, compacted, with their pinyin: "Alice Smith" → alice, smith.
fn parts(name: &str) -> Vec<String> {
    let mut out: Vec<String> = name.split_whitespace().map(compact).collect();
    if name.chars().any(is_han) {
        let han: Vec<char> = name.chars().filter(|c| is_han(*c)).collect();
        if han.len() >= 2 {
            out.extend(readings(&han[1..].iter().collect::<String>()));
        }
    }
    out
}

fn decide<Id: Clone>(hits: Vec<Id>, one: fn(Id) -> NameMatch<Id>) -> Option<NameMatch<Id>> {
    match hits.len() {
        0 => None,
        1 => hits.into_iter().next().map(one),
        _ => Some(NameMatch::Ambiguous(hits)),
    }
}

/// Matches `query` against `candidates` (id, name), strictest rule first: exact, then
/// same pinyin, then prefix of the name or one of its words, then Chinese substring,
/// then one typo. The first rule that finds anything decides.
pub fn match_name<Id: Clone, S: AsRef<str>>(query: &str, candidates: &[(Id, S)]) -> NameMatch<Id> {
    let q = compact(query);
    if q.is_empty() {
        return NameMatch::None;
    }
    let collect = |pred: &dyn Fn(&str) -> bool| -> Vec<Id> {
        candidates
            .iter()
            .filter(|(_, n)| pred(n.as_ref()))
            .map(|(id, _)| id.clone())
            .collect()
    };

    if let Some(m) = decide(collect(&|n| compact(n) == q), NameMatch::Exact) {
        return m;
    }
    let q_keys = keys(query);
    let same_sound = |n: &str| {
        let k = keys(n);
        q_keys.iter().any(|q| k.contains(q))
    };
    if let Some(m) = decide(collect(&same_sound), NameMatch::Unique) {
        return m;
    }
    let q_chars = q.chars().count();
    let q_han = query.chars().any(is_han);
    if q_chars >= MIN_PREFIX_CHARS || q_han {
        let prefix = |n: &str| {
            keys(n)
                .iter()
                .any(|k| q_keys.iter().any(|q| k.starts_with(q.as_str())))
                || parts(n)
                    .iter()
                    .any(|p| q_keys.iter().any(|q| p.starts_with(q.as_str())))
        };
        if let Some(m) = decide(collect(&prefix), NameMatch::Unique) {
            return m;
        }
    }
    if q_han {
        if let Some(m) = decide(collect(&|n| compact(n).contains(&q)), NameMatch::Unique) {
            return m;
        }
    } else if q_chars >= 4 {
        let typo = |n: &str| {
            keys(n).iter().any(|k| edit_distance(k, &q) <= 1)
                || parts(n)
                    .iter()
                    .any(|p| p.chars().count() >= 4 && edit_distance(p, &q) <= 1)
        };
        if let Some(m) = decide(collect(&typo), NameMatch::Unique) {
            return m;
        }
    }
    NameMatch::None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn people() -> Vec<(u32, &'static str)> {
        vec![
            (1, "Alice"),
            (2, "Bob Smith"),
            (3, "张伟"),
            (4, "李娜"),
            (5, "Zhang San"),
            (6, "Alan"),
            (7, "王芳"),
        ]
    }

    #[test]
    fn exact_ignores_case_and_spacing() {
        assert_eq!(match_name("alice", &people()), NameMatch::Exact(1));
        assert_eq!(match_name("  BOB  smith ", &people()), NameMatch::Exact(2));
        assert_eq!(match_name("张伟", &people()), NameMatch::Exact(3));
    }

    #[test]
    fn partial_names_match_when_unique() {
        assert_eq!(match_name("ali", &people()), NameMatch::Unique(1));
        assert_eq!(match_name("bob", &people()), NameMatch::Unique(2));
        assert_eq!(match_name("smith", &people()), NameMatch::Unique(2));
        assert_eq!(match_name("娜", &people()), NameMatch::Unique(4));
    }

    #[test]
    fn partial_names_shared_by_several_are_ambiguous() {
        assert_eq!(
            match_name("al", &people()),
            NameMatch::Ambiguous(vec![1, 6])
        );
        assert_eq!(
            match_name("zhang", &people()),
            NameMatch::Ambiguous(vec![3, 5])
        );
    }

    #[test]
    fn pinyin_finds_chinese_names_both_ways() {
        assert_eq!(match_name("zhangwei", &people()), NameMatch::Unique(3));
        assert_eq!(match_name("Zhang Wei", &people()), NameMatch::Unique(3));
        assert_eq!(match_name("wei zhang", &people()), NameMatch::Unique(3));
        assert_eq!(match_name("lina", &people()), NameMatch::Unique(4));
        let western = [(10, "Zhang Wei"), (11, "Li Na")];
        assert_eq!(match_name("张伟", &western), NameMatch::Unique(10));
    }

    #[test]
    fn same_sounding_chinese_names_are_ambiguous() {
        let c = [(1, "张伟"), (2, "章伟")];
        assert_eq!(
            match_name("zhang wei", &c),
            NameMatch::Ambiguous(vec![1, 2])
        );
        assert_eq!(match_name("张伟", &c), NameMatch::Exact(1));
    }

    #[test]
    fn one_typo_is_forgiven_in_longer_names() {
        assert_eq!(match_name("Alcie", &people()), NameMatch::Unique(1));
        assert_eq!(match_name("Bbo", &people()), NameMatch::None);
    }

    #[test]
    fn strangers_and_empty_queries_match_nothing() {
        assert_eq!(match_name("Mallory", &people()), NameMatch::None);
        assert_eq!(match_name("", &people()), NameMatch::None);
        assert_eq!(match_name("   ", &people()), NameMatch::None);
        let none: [(u32, &str); 0] = [];
        assert_eq!(match_name("alice", &none), NameMatch::None);
    }

    #[test]
    fn duplicate_exact_names_are_ambiguous() {
        let c = [(1, "Sam"), (2, "sam")];
        assert_eq!(match_name("SAM", &c), NameMatch::Ambiguous(vec![1, 2]));
    }
}
