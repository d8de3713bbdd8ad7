//! Turning captured text into slot values: trimming particles and articles, telling a
//! person from a department or a topic, and finding where an unspaced Chinese name ends.

use std::sync::LazyLock;

use regex::Regex;

use super::super::intent::TEAM;
use super::super::lexicon::{
    DEPARTMENT_NOUNS, EVERYONE, is_department_word, is_pronoun, looks_like_cn_department,
    starts_with_task_verb,
};
use super::super::normalize::{has_han, is_han};
use super::compile;

/// A Chinese name whose end could only be guessed ("让张伟…" with no known verb after it).
const GUESSED_NAME_END: f32 = 0.7;

/// Chinese sentence particles: never a name, even when a pattern captures one alone.
const PARTICLES: &[&str] = &["吧", "了", "啊", "呀", "呢", "嘛", "掉", "一下", "下"];

pub(super) fn trim_particles(v: &str) -> &str {
    let mut v = v
        .trim()
        .trim_matches(|c: char| ",.!?;:'\"~()[]".contains(c))
        .trim();
    loop {
        let before = v;
        for p in PARTICLES {
            if let Some(rest) = v.strip_suffix(p)
                && !rest.is_empty()
            {
                v = rest.trim_end();
            }
        }
        if v == before {
            return v;
        }
    }
}

pub(super) fn strip_article(v: &str) -> &str {
    for a in ["the ", "The ", "a ", "an ", "our ", "my "] {
        if let Some(rest) = v.strip_prefix(a) {
            return rest.trim_start();
        }
    }
    v
}

/// When a change takes effect, said after a department's name: "Sales from next week",
/// "Platform going forward", "市场部从今天起".
static WHEN: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\s*(?:(?:from|starting|as\s+of|effective)\s+(?:now\s+on|now|today|tomorrow|immediately|next\s+(?:week|month|monday|quarter)|monday|this\s+week)|going\s+forward|from\s+here\s+on|instead|(?:从|自)?(?:现在|今天|明天|下周|下个月)(?:起|开始)|以后)$",
    )
});

/// `v` without a trailing "from now on" (see [`WHEN`]).
fn strip_when(v: &str) -> &str {
    WHEN.find(v).map_or(v, |m| &v[..m.start()]).trim_end()
}

pub(super) fn clean_value(v: &str) -> Option<String> {
    let v = strip_when(trim_particles(v));
    (!v.is_empty()).then(|| v.to_owned())
}

/// A person's name as written, or `None` for "someone", "him", "她".
pub(super) fn clean_person(v: &str) -> Option<String> {
    let v = trim_particles(v);
    let v = v.strip_prefix("把").unwrap_or(v).trim();
    let v = v.strip_prefix("掉").unwrap_or(v).trim();
    let v = v.strip_suffix("'s").unwrap_or(v).trim();
    if v.is_empty() || is_pronoun(v) || v.split_whitespace().count() > 3 || PARTICLES.contains(&v) {
        return None;
    }
    Some(v.to_owned())
}

pub(super) fn clean_person_or_department(v: &str) -> Option<String> {
    let v = strip_article(trim_particles(v));
    if looks_like_department(v) {
        return clean_department(v);
    }
    clean_person(v)
}

/// A department name without "the" and a trailing "department"/"team"; `None` for "it".
pub(super) fn clean_department(v: &str) -> Option<String> {
    if is_reference(v) {
        return None;
    }
    let mut v = strip_article(strip_when(trim_particles(v))).to_owned();
    for suffix in ["这个部门", "这个组"] {
        if let Some(rest) = v.strip_suffix(suffix) {
            v = rest.trim().to_owned();
        }
    }
    if v.is_ascii()
        && let Some((head, last)) = v.rsplit_once(' ')
        && DEPARTMENT_NOUNS.contains(&last.to_lowercase().as_str())
    {
        v = head.trim().to_owned();
    }
    if let Some(rest) = v.strip_suffix("部门")
        && rest.trim().is_ascii()
        && !rest.trim().is_empty()
    {
        v = rest.trim().to_owned();
    }
    let mut v = strip_article(v.trim()).to_owned();
    // "rename department Sales to …": the noun in front of the name.
    for noun in DEPARTMENT_NOUNS {
        if v.is_ascii()
            && let Some(rest) = v.strip_prefix(&format!("{noun} "))
        {
            v = rest.trim().to_owned();
        }
    }
    if v.is_empty()
        || is_pronoun(&v)
        || is_reference(&v)
        || ["there", "here", "那里", "这里", "进去"].contains(&v.as_str())
    {
        return None;
    }
    Some(v)
}

/// A requirement as the boss refers to it: "the login page requirement" → "login page",
/// "登录页需求" → "登录页"; `None` when nothing is left.
pub(super) fn clean_requirement(v: &str) -> Option<String> {
    let mut v = strip_article(trim_particles(v)).trim().to_owned();
    for suffix in [
        " requirement",
        " project",
        " initiative",
        " epic",
        "这个需求",
        "这个项目",
        "需求",
        "项目",
    ] {
        if v.to_lowercase().ends_with(suffix) {
            v.truncate(v.len() - suffix.len());
            v = v.trim().to_owned();
        }
    }
    let v = strip_article(v.trim_end_matches('的').trim()).to_owned();
    (!v.is_empty()).then_some(v)
}

/// "his team", "她的部门": a department known only from the conversation.
pub(super) fn is_reference(v: &str) -> bool {
    let l = v.trim().to_lowercase();
    [
        "his ",
        "her ",
        "their ",
        "its ",
        "my ",
        "our ",
        "他的",
        "她的",
        "他们的",
        "她们的",
    ]
    .iter()
    .any(|p| l.starts_with(p))
        || ["it", "there", "that one", "这里", "那里", "那边", "这边"].contains(&l.as_str())
}

pub(super) fn clean_description(v: &str) -> Option<String> {
    let v = v
        .trim()
        .trim_matches(|c: char| ",.!?;:~".contains(c))
        .trim();
    let v = v.strip_prefix("please ").unwrap_or(v);
    let v = v.strip_suffix(" please").unwrap_or(v);
    let v = v.strip_suffix("吧").unwrap_or(v).trim();
    (!v.is_empty()).then(|| v.to_owned())
}

pub(super) fn clean_topic(v: &str) -> Option<String> {
    let v = strip_article(trim_particles(v));
    let v = v.strip_prefix("一下").unwrap_or(v).trim();
    (!v.is_empty()).then(|| v.to_owned())
}

pub(super) enum Assignee {
    Named(String),
    Pronoun,
    Invalid,
}

pub(super) fn clean_assignee(v: &str) -> Assignee {
    let v = strip_article(trim_particles(v));
    if v.is_empty() || v.contains(',') || v.split_whitespace().count() > 3 {
        return Assignee::Invalid;
    }
    if ["me", "us", "myself", "我", "我们"].contains(&v.to_lowercase().as_str()) {
        return Assignee::Invalid;
    }
    if is_pronoun(v) {
        return Assignee::Pronoun;
    }
    match clean_department(v) {
        Some(d) => Assignee::Named(d),
        None => Assignee::Pronoun,
    }
}

pub(super) fn looks_like_department(v: &str) -> bool {
    let v = v.trim();
    if looks_like_cn_department(v) {
        return true;
    }
    let last = v.rsplit(' ').next().unwrap_or("").to_lowercase();
    v.contains(' ') && DEPARTMENT_NOUNS.contains(&last.as_str())
}

/// Whether a transfer target reads as a department rather than "manual" or "10刀".
pub(super) fn department_like(t: &str) -> bool {
    if t.chars().any(|c| c.is_ascii_digit() || "$¥€".contains(c)) {
        return false;
    }
    looks_like_department(t)
        || is_department_word(t)
        || has_han(t)
        || t.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

pub(super) fn is_setting_word(v: &str) -> bool {
    const SETTINGS: &[&str] = &[
        "预算",
        "审批",
        "策略",
        "额度",
        "日预算",
        "每日预算",
        "每天预算",
        "budget",
        "approvals",
        "approval",
        "policy",
        "the budget",
        "spending",
        "limit",
    ];
    SETTINGS.contains(&v.trim().to_lowercase().as_str())
}

pub(super) enum Subject {
    Everyone,
    You,
    Name(String),
    Department(String),
    Topic(String),
}

/// What a status or report question is about: a person, a department, a topic or
/// the whole company.
pub(super) fn subject(v: &str) -> Subject {
    let v = strip_article(trim_particles(v));
    let v = v.strip_suffix("'s").unwrap_or(v).trim();
    // "王强那边": someone's side of the work is them.
    let v = ["那边", "那儿", "那里"]
        .iter()
        .find_map(|s| v.strip_suffix(s).filter(|r| !r.trim().is_empty()))
        .unwrap_or(v)
        .trim();
    let lower = v.to_lowercase();
    if v.is_empty() || EVERYONE.contains(&lower.as_str()) {
        return Subject::Everyone;
    }
    // "what Sales did this week": the department whose work it is.
    static WHAT_DID: LazyLock<Regex> = LazyLock::new(|| {
        compile(
            r"^what\s+(?P<s>.+?)\s+(?:did|has\s+done|have\s+done|got\s+done|worked\s+on|has\s+been\s+doing|have\s+been\s+doing)\b",
        )
    });
    if let Some(s) = WHAT_DID.captures(v).and_then(|c| c.name("s")) {
        return subject(s.as_str());
    }
    if ["you", "你", "您", "u"].contains(&lower.as_str()) {
        return Subject::You;
    }
    if looks_like_department(v) || is_department_word(v) {
        return clean_department(v).map_or(Subject::Everyone, Subject::Department);
    }
    if is_pronoun(v) {
        return Subject::Everyone;
    }
    if has_han(v) {
        let t = v
            .strip_suffix("的项目")
            .or_else(|| v.strip_suffix("项目"))
            .unwrap_or(v);
        let t = t.strip_suffix('的').unwrap_or(t).trim();
        let han_only = t.chars().all(is_han);
        let n = t.chars().count();
        if han_only && (2..=3).contains(&n) && t == v {
            return Subject::Name(t.to_owned());
        }
        if t.is_ascii()
            || (!han_only && t.split_whitespace().count() == 1 && !t.chars().any(is_han))
        {
            return Subject::Name(t.to_owned());
        }
        return Subject::Topic(t.to_owned());
    }
    let words = v.split_whitespace().count();
    let all_capitalised = v
        .split_whitespace()
        .all(|w| w.chars().next().is_some_and(|c| c.is_ascii_uppercase()));
    if (words == 1 || (words == 2 && all_capitalised)) && !v.contains('\'') {
        return Subject::Name(v.to_owned());
    }
    Subject::Topic(v.to_owned())
}

/// The assignee of "让…" with whoever works with them, and the task.
pub(super) struct Actor {
    pub who: Assignee,
    /// Named colleagues, or [`TEAM`] for the assignee's team.
    pub participants: Vec<String>,
    pub rest: String,
    pub conf: f32,
}

/// What joins someone to the assignee: "和", "跟", "带领" …
const CN_WITH: &[&str] = &[
    "以及", "带领", "带着", "领着", "率领", "协同", "联合", "和", "跟", "与", "同",
];
/// "李娜牵头准备…": the assignee leads; the verb is not part of the name.
const CN_LEADS: &[&str] = &["牵头", "主导", "带头"];

static WITH_TEAM: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"^\s*(?:和|跟|与|同|以及|带领|带着|带|领着|率领|协同|联合)\s*(?:整个|全体|全|自己的|他的|她的|本|其)?\s*(?:团队|小组|组员|组里的人|部门的人|同事们?|大家)\s*(?:一起|一块儿?|共同)?\s*",
    )
});
static TOGETHER: LazyLock<Regex> =
    LazyLock::new(|| compile(r"^\s*(?:一起|一块儿?|共同|协同|联合)\s*(?:来)?\s*"));
static LIST_JOIN: LazyLock<Regex> = LazyLock::new(|| compile(r"^\s*(?:、|,|和|跟|与|以及|及)\s*"));

/// A name at the start of `v`: a known person's name first (the anchor), else a Latin
/// name, else two or three Chinese characters when `fits` accepts what follows.
fn name_at<'a>(
    v: &'a str,
    known: &[&str],
    fits: impl Fn(&str) -> bool,
) -> Option<(&'a str, &'a str)> {
    static LATIN: LazyLock<Regex> = LazyLock::new(|| compile(r"^[A-Za-z][A-Za-z'-]*{EN2}"));
    if let Some(k) = known_prefix(v, known) {
        return Some(v.split_at(k.len()));
    }
    if let Some(m) = LATIN.find(v) {
        return Some(v.split_at(m.end()));
    }
    let chars: Vec<(usize, char)> = v.char_indices().collect();
    (2..=3usize).find_map(|len| {
        let &(at, _) = chars.get(len)?;
        (chars[..len].iter().all(|(_, c)| is_han(*c)) && fits(&v[at..])).then(|| v.split_at(at))
    })
}

/// The longest known name `v` starts with.
fn known_prefix<'k>(v: &str, known: &[&'k str]) -> Option<&'k str> {
    known
        .iter()
        .copied()
        .filter(|k| !k.is_empty() && v.starts_with(k))
        .max_by_key(|k| k.len())
}

fn starts_with_any(v: &str, words: &[&str]) -> bool {
    words.iter().any(|w| v.trim_start().starts_with(w))
}

/// "李娜和整个团队一起准备…", "李娜带领团队准备…", "李娜跟王强一起评估…": the assignee is
/// read first and the conjunction never becomes part of the name; the team or the
/// colleagues named after it are participants.
fn split_company(v: &str, known: &[&str]) -> Option<Actor> {
    let joined = |rest: &str| starts_with_any(rest, CN_WITH) || starts_with_any(rest, CN_LEADS);
    let (lead, after) = name_at(v, known, joined)?;
    if !joined(after) || is_pronoun(lead) {
        return None;
    }
    let actor = |participants, rest: &str| {
        Some(Actor {
            who: Assignee::Named(lead.trim().to_owned()),
            participants,
            rest: rest.trim().to_owned(),
            conf: 1.0,
        })
    };
    if let Some(m) = WITH_TEAM.find(after) {
        return actor(vec![TEAM.to_owned()], &after[m.end()..]);
    }
    if let Some(w) = CN_LEADS
        .iter()
        .find(|w| after.trim_start().starts_with(**w))
    {
        return actor(vec![], &after.trim_start()[w.len()..]);
    }
    let w = CN_WITH
        .iter()
        .find(|w| after.trim_start().starts_with(**w))?;
    let mut rest = &after.trim_start()[w.len()..];
    let mut others = Vec::new();
    let ends = |r: &str| TOGETHER.is_match(r) || LIST_JOIN.is_match(r) || starts_with_task_verb(r);
    while let Some((name, after_name)) = name_at(rest.trim_start(), known, ends) {
        others.push(name.trim().to_owned());
        rest = after_name;
        match LIST_JOIN.find(rest) {
            Some(m) => rest = &rest[m.end()..],
            None => break,
        }
    }
    // "和客户沟通" is a task, not a colleague: a word that is nobody's known name only
    // counts as a person when "一起" says they work together.
    // "协同", "带领" say it themselves.
    let all_known = others.iter().all(|o| known.contains(&o.as_str()));
    let says_together = ["协同", "联合", "带领", "带着", "领着", "率领"].contains(w);
    match TOGETHER.find(rest) {
        _ if others.is_empty() => None,
        Some(m) => actor(others, &rest[m.end()..]),
        None if all_known || says_together => actor(others, rest),
        None => None,
    }
}

pub(super) fn split_actor(v: &str, known: &[&str]) -> Option<Actor> {
    let v = v.trim();
    if let Some(a) = split_company(v, known) {
        return Some(a);
    }
    let (who, rest, conf) = split_alone(v, known)?;
    Some(Actor {
        who,
        participants: vec![],
        rest,
        conf,
    })
}

/// "张伟调研一下竞品" → ("张伟", "调研一下竞品"). Chinese has no spaces, so the name
/// ends where a known name or a known task verb begins; a department ends at 部; English
/// names at a space.
fn split_alone(v: &str, known: &[&str]) -> Option<(Assignee, String, f32)> {
    if let Some(k) = known_prefix(v, known).filter(|k| v.len() > k.len()) {
        return Some((Assignee::Named(k.to_owned()), v[k.len()..].to_owned(), 1.0));
    }
    static ASCII_NAME: LazyLock<Regex> =
        LazyLock::new(|| compile(r"^(?P<n>[A-Za-z][A-Za-z'-]*{EN2})\s*(?P<rest>.+)$"));
    static CN_DEPT: LazyLock<Regex> =
        LazyLock::new(|| compile(r"^(?P<n>{CNDEPT})\s*(?P<rest>.+)$"));
    let v = v.trim();
    for re in [&*ASCII_NAME, &*CN_DEPT] {
        if let Some(c) = re.captures(v) {
            let (n, rest) = (c.name("n")?.as_str(), c.name("rest")?.as_str());
            if is_pronoun(n) {
                return Some((Assignee::Pronoun, rest.to_owned(), 1.0));
            }
            return Some((Assignee::Named(n.trim().to_owned()), rest.to_owned(), 1.0));
        }
    }
    for p in [
        "她们", "他们", "大家", "有人", "某人", "别人", "她", "他", "它", "人", "谁",
    ] {
        if let Some(rest) = v.strip_prefix(p)
            && starts_with_task_verb(rest)
        {
            let who = if ["她们", "他们", "她", "他", "它"].contains(&p) {
                Assignee::Pronoun
            } else {
                Assignee::Invalid
            };
            return Some((who, rest.to_owned(), 1.0));
        }
    }
    let chars: Vec<(usize, char)> = v.char_indices().collect();
    if chars.len() < 3 || !chars.iter().take(2).all(|(_, c)| is_han(*c)) {
        return None;
    }
    if starts_with_task_verb(v) || v.starts_with(['招', '开', '把', '给', '在']) {
        return None;
    }
    for len in 2..=4usize {
        let Some(&(at, _)) = chars.get(len) else {
            break;
        };
        if !chars[..len].iter().all(|(_, c)| is_han(*c)) {
            break;
        }
        if starts_with_task_verb(&v[at..]) {
            return Some((Assignee::Named(v[..at].to_owned()), v[at..].to_owned(), 1.0));
        }
    }
    let at = chars.get(2).map(|&(i, _)| i)?;
    Some((
        Assignee::Named(v[..at].to_owned()),
        v[at..].to_owned(),
        GUESSED_NAME_END,
    ))
}

pub(super) fn is_policy_clause(clause: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        compile(
            r"approv|polic|审批|批准|策略|\bask\s+me\b|问我|问过我|sign[\s-]?off|全自动|autopilot|everything|所有|\bauto\b|自动|手动",
        )
    });
    RE.is_match(clause)
}

/// "manual approval" names a level; "switch approvals to manual" asks for it.
pub(super) fn is_change_clause(clause: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        compile(
            r"\b(?:switch|set|change|make|turn|move|put|go|want|only|use|let|from\s+now\s+on|require|needs?)\b|改|设|调|切换|换成|以后|都要|都需要|全|只有|只要|需要|要我|一律|统统|不用",
        )
    });
    RE.is_match(clause)
}

pub(super) fn is_budget_clause(clause: &str) -> bool {
    static RE: LazyLock<Regex> =
        LazyLock::new(|| compile(r"budget|spend|\bcap\b|\blimit\b|预算|花费|开销|额度"));
    RE.is_match(clause)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chinese_actor_ends_at_the_verb() {
        let (who, desc, c) = split_alone("张伟调研一下竞品", &[]).unwrap();
        assert!(matches!(who, Assignee::Named(n) if n == "张伟"));
        assert_eq!(desc, "调研一下竞品");
        assert_eq!(c, 1.0);
        let (who, desc, _) = split_alone("欧阳娜娜写一份总结", &[]).unwrap();
        assert!(matches!(who, Assignee::Named(n) if n == "欧阳娜娜"));
        assert_eq!(desc, "写一份总结");
        let (who, _, _) = split_alone("市场部准备发布会的材料", &[]).unwrap();
        assert!(matches!(who, Assignee::Named(n) if n == "市场部"));
        let (who, _, _) = split_alone("她写一份推广方案", &[]).unwrap();
        assert!(matches!(who, Assignee::Pronoun));
    }

    #[test]
    fn subjects() {
        assert!(matches!(subject("Engineering"), Subject::Department(d) if d == "Engineering"));
        assert!(matches!(subject("工程部"), Subject::Department(_)));
        assert!(matches!(subject("张伟"), Subject::Name(_)));
        assert!(matches!(subject("官网改版的项目"), Subject::Topic(t) if t == "官网改版"));
        assert!(matches!(subject("everyone"), Subject::Everyone));
        assert!(matches!(subject("Alice's performance"), Subject::Topic(_)));
    }
}
