//! Turns a matched row into intents: cleans the captured groups into slots, runs the
//! intent-specific readers (roles and counts for hires, levels and amounts for policy,
//! participants and topic for meetings), rejects matches whose captures make no sense
//! ("switch approvals to manual" is no transfer), and lowers the confidence when a slot
//! the intent needs is missing so the secretary asks instead of guessing.

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::super::intent::{Intent, IntentKind, Slots};
use super::super::lexicon::{
    self, DEPARTMENT_NOUNS, EVERYONE, find_role_fuzzy, find_roles, is_department_word,
    is_pronoun, levels_in, looks_like_cn_department, starts_with_task_verb,
};
use super::super::normalize::{has_han, is_han, parse_amount, parse_count};
use super::compile;

/// The confidence of an intent that lacks a slot it needs: below every "act" threshold.
pub(super) const MISSING_SLOT: f32 = 0.5;
/// A task for "her"/"他": clear instruction, but who it is comes from context.
const PRONOUN_ASSIGNEE: f32 = 0.75;
/// A Chinese name whose end could only be guessed ("让张伟…" with no known verb after it).
const GUESSED_NAME_END: f32 = 0.7;

pub(super) fn fill(kind: IntentKind, conf: f32, caps: &Captures, clause: &str) -> Vec<Intent> {
    let mut s = Slots::default();
    let mut conf = conf;
    let get = |n: &str| caps.name(n).map(|m| m.as_str().trim()).filter(|v| !v.is_empty());

    if let Some(v) = get("name") {
        if looks_like_department(v) {
            return vec![];
        }
        s.name = clean_person(v);
    }
    if let Some(v) = get("dept") {
        s.department = clean_department(v);
    }
    if let Some(v) = get("target") {
        s.target_department = clean_department(v);
    }
    if let Some(v) = get("new_name") {
        s.new_name = clean_value(v);
    }
    if let Some(v) = get("desc") {
        s.description = clean_description(v);
    }
    if let Some(v) = get("reason") {
        s.description = clean_description(v);
    }
    if let Some(v) = get("assignee") {
        match clean_assignee(v) {
            Assignee::Named(a) => s.assignee = Some(a),
            Assignee::Pronoun => conf = conf.min(PRONOUN_ASSIGNEE),
            Assignee::Invalid => return vec![],
        }
    }
    if let Some(v) = get("topic") {
        s.topic = clean_topic(v);
    }
    if let Some(v) = get("ref") {
        s.name = Some(format!("#{}", v.chars().filter(char::is_ascii_digit).collect::<String>()));
    }
    if let Some(v) = get("subj") {
        match subject(v) {
            Subject::Everyone => {}
            Subject::You => return vec![],
            Subject::Name(n) => s.name = Some(n),
            Subject::Department(d) => s.department = Some(d),
            Subject::Topic(t) => s.topic = Some(t),
        }
    }
    if let Some(v) = get("actor") {
        let Some((who, desc, c)) = split_actor(v) else {
            return vec![];
        };
        match who {
            Assignee::Named(a) => s.assignee = Some(a),
            Assignee::Pronoun => conf = conf.min(PRONOUN_ASSIGNEE),
            Assignee::Invalid => {}
        }
        s.description = clean_description(&desc);
        conf = conf.min(c);
    }

    match kind {
        IntentKind::HireEmployee => return hire(conf, s, clause),
        IntentKind::TransferEmployee => {
            if let Some(t) = &s.target_department
                && !department_like(t, clause)
            {
                return vec![];
            }
            if get("name").is_some_and(|n| n.split_whitespace().count() > 3) {
                return vec![];
            }
        }
        IntentKind::DeleteDepartment => {
            let noun = get("noun").is_some();
            match &s.department {
                Some(d) if noun || looks_like_department(d) || is_department_word(d) => {}
                _ => return vec![],
            }
        }
        IntentKind::RenameDepartment => {
            // "审批改成自动" has the shape of a rename but no department in it.
            let d = s.department.as_deref().unwrap_or("");
            if has_han(d) && !looks_like_cn_department(d) {
                return vec![];
            }
        }
        IntentKind::CreateDepartment => {
            if s.department.as_deref().is_some_and(|d| d.split_whitespace().count() > 4) {
                return vec![];
            }
        }
        IntentKind::SetPolicy => {
            let levels = levels_in(clause);
            let amount = parse_amount(clause);
            match (levels.as_slice(), amount) {
                ([one], _) if is_policy_clause(clause) => s.level = Some(*one),
                (_, Some(a)) if is_budget_clause(clause) => s.amount = Some(a),
                ([], None) if is_budget_clause(clause) => conf = MISSING_SLOT,
                ([_, _, ..], _) => conf = MISSING_SLOT,
                _ => return vec![],
            }
        }
        IntentKind::ConveneMeeting => meeting(&mut s, caps, clause),
        IntentKind::AskStatus => {
            if let Some(d) = get("dept") {
                s.department = clean_department(d);
            }
        }
        _ => {}
    }
    if missing_required(kind, &s) {
        conf = conf.min(MISSING_SLOT);
    }
    vec![Intent::new(kind, conf, s)]
}

fn missing_required(kind: IntentKind, s: &Slots) -> bool {
    use IntentKind::*;
    match kind {
        HireEmployee => s.role.is_none(),
        FireEmployee => s.name.is_none(),
        TransferEmployee => s.name.is_none() || s.target_department.is_none(),
        CreateDepartment | DeleteDepartment => s.department.is_none(),
        RenameDepartment => s.department.is_none() || s.new_name.is_none(),
        AssignTask => s.description.is_none(),
        CreateRequirement => s.description.is_none(),
        ConveneMeeting => s.topic.is_none() && s.participants.is_empty(),
        SetPolicy => s.level.is_none() && s.amount.is_none(),
        _ => false,
    }
}

// ---------------------------------------------------------------- hire

static CN_HIRE_DEPT: LazyLock<Regex> = LazyLock::new(|| {
    compile(r"(?:放到|放在|加入|进入|分到|到|进|去|给|在|为)\s*(?P<d>{CNDEPT})|^(?P<s>{CNDEPT})\s*(?:需要|要|缺|招)")
});
static EN_HIRE_DEPT: LazyLock<Regex> = LazyLock::new(|| {
    compile(r"\b(?:for|in|into|to|on|join|joining)\s+(?:the\s+)?(?P<d>[A-Za-z][A-Za-z0-9&/-]*)(?:\s+(?P<d2>[A-Za-z][A-Za-z0-9&/-]*))?")
});
static HIRE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    compile(r"\b(?:named|called)\s+(?P<n>[A-Za-z][A-Za-z'-]*{EN2}|[\p{Han}]{2,4})|(?:名叫|名字叫|名为|叫做|叫)\s*(?P<c>[A-Za-z]+|[\p{Han}]{2,3}?)(?:的|$|,|\s)")
});
/// Words between a number and the role that do not change the count ("two more senior …").
const COUNT_FILLERS: &[&str] = &[
    "more", "new", "additional", "extra", "senior", "junior", "good", "great", "experienced",
    "talented", "full-time", "part-time", "个", "名", "位", "新的", "新", "资深", "高级", "初级", "靠谱的",
    "优秀的", "厉害的", "的",
];

fn hire(conf: f32, mut s: Slots, clause: &str) -> Vec<Intent> {
    let mut roles = find_roles(clause);
    if roles.is_empty()
        && let Some(m) = find_role_fuzzy(clause)
    {
        roles.push(m);
    }
    // Weak triggers ("we need", "add", "要一个") only mean a hire when a role is named.
    if roles.is_empty() && conf < 0.9 && conf >= 0.85 {
        return vec![];
    }
    if s.department.is_none() {
        s.department = hire_department(clause, &roles);
    }
    if let Some(c) = HIRE_NAME.captures(clause) {
        let n = c.name("n").or_else(|| c.name("c")).map(|m| m.as_str());
        if let Some(n) = n.and_then(clean_person)
            && roles.len() <= 1
            && lexicon::find_roles(&n).is_empty()
        {
            s.name = Some(n);
        }
    }
    if roles.is_empty() {
        // "hire someone", "hire two engineers": no catalogue role, so ask which kind.
        return vec![Intent::new(IntentKind::HireEmployee, conf.min(MISSING_SLOT), s)];
    }
    roles
        .iter()
        .map(|m| {
            let mut one = s.clone();
            one.role = Some(m.title.to_owned());
            one.count = Some(count_before(&clause[..m.start]).unwrap_or(1));
            Intent::new(IntentKind::HireEmployee, conf, one)
        })
        .collect()
}

fn hire_department(clause: &str, roles: &[lexicon::RoleMention]) -> Option<String> {
    if let Some(c) = CN_HIRE_DEPT.captures(clause) {
        let d = c.name("d").or_else(|| c.name("s")).map(|m| m.as_str());
        if let Some(d) = d.and_then(clean_department) {
            return Some(d);
        }
    }
    for c in EN_HIRE_DEPT.captures_iter(clause) {
        let Some(d) = c.name("d") else { continue };
        if roles.iter().any(|r| d.start() < r.end && r.start < d.end()) {
            continue;
        }
        let first = d.as_str();
        let second = c.name("d2").map(|m| m.as_str());
        let noun = second.is_some_and(|w| DEPARTMENT_NOUNS.contains(&w.to_lowercase().as_str()));
        let capitalised = first.chars().next().is_some_and(|ch| ch.is_ascii_uppercase());
        if is_pronoun(first) || !(noun || capitalised || is_department_word(first)) {
            continue;
        }
        let mut name = first.to_owned();
        if let Some(w) = second
            && !noun
            && w.chars().next().is_some_and(|ch| ch.is_ascii_uppercase())
        {
            name = format!("{name} {w}");
        }
        return clean_department(&name);
    }
    None
}

/// The number right before a role mention: "two more", "3个", "一名", "a" (1).
fn count_before(prefix: &str) -> Option<u32> {
    let mut p = prefix.trim_end();
    loop {
        let before = p;
        for f in COUNT_FILLERS {
            if let Some(rest) = p.strip_suffix(f) {
                let word_end = !f.is_ascii() || rest.is_empty() || rest.ends_with(' ');
                if word_end {
                    p = rest.trim_end();
                }
            }
        }
        if p == before {
            break;
        }
    }
    let digits: String = p.chars().rev().take_while(char::is_ascii_digit).collect();
    if !digits.is_empty() {
        return parse_count(&digits.chars().rev().collect::<String>());
    }
    let han: String = p
        .chars()
        .rev()
        .take_while(|c| "零一二两俩仨三四五六七八九十百".contains(*c))
        .collect();
    if !han.is_empty() {
        return parse_count(&han.chars().rev().collect::<String>());
    }
    let word = p.rsplit(|c: char| !c.is_ascii_alphabetic()).next().unwrap_or("");
    match word.to_lowercase().as_str() {
        "another" => Some(1),
        w => parse_count(w),
    }
}

// ---------------------------------------------------------------- meetings

static EN_PEOPLE: LazyLock<Regex> = LazyLock::new(|| {
    compile(r"\bwith\s+(?:the\s+)?(?P<p>.+?)(?:\s+(?:about|on|re:?|regarding|to\s+discuss|to\s+talk|for|tomorrow|today|at|this|next)\b|$)")
});
static EN_TOPIC: LazyLock<Regex> = LazyLock::new(|| {
    compile(r"\b(?:about|regarding|re:?|to\s+discuss|to\s+talk\s+about|discussing|on)\s+(?:the\s+)?(?P<t>.+)$")
});
static CN_PEOPLE: LazyLock<Regex> = LazyLock::new(|| {
    compile(r"(?:召集|叫上|拉上|约上|约|叫|拉|和|跟|与|找)\s*(?P<p>[^,]+?)\s*(?:一起|一块儿?)?\s*(?:开会|开个|开一个|开一下|碰|拉个会|讨论|聊|$)")
});
static CN_TOPIC: LazyLock<Regex> = LazyLock::new(|| {
    compile(r"(?:讨论(?:一下)?|聊聊|聊一下|聊一聊|商量(?:一下)?|主题是|议题是|关于|对一下)\s*(?P<t>[^,]+?)(?:的事情?|的问题)?\s*(?:吧)?$")
});
static LIST_SEP: LazyLock<Regex> =
    LazyLock::new(|| compile(r"\s*(?:,|、|\band\b|&|和|跟|与|以及|及)\s*"));

fn meeting(s: &mut Slots, caps: &Captures, clause: &str) {
    let people = caps
        .name("people")
        .map(|m| m.as_str().to_owned())
        .or_else(|| EN_PEOPLE.captures(clause).and_then(|c| c.name("p")).map(|m| m.as_str().to_owned()))
        .or_else(|| CN_PEOPLE.captures(clause).and_then(|c| c.name("p")).map(|m| m.as_str().to_owned()));
    if let Some(p) = people {
        s.participants = LIST_SEP
            .split(&p)
            .filter_map(clean_person_or_department)
            .collect();
    }
    let topic = EN_TOPIC
        .captures(clause)
        .or_else(|| CN_TOPIC.captures(clause))
        .and_then(|c| c.name("t"))
        .map(|m| m.as_str());
    if let Some(t) = topic {
        s.topic = clean_topic(t);
    }
}

// ---------------------------------------------------------------- cleaning

fn trim_particles(v: &str) -> &str {
    let mut v = v.trim().trim_matches(|c: char| ",.!?;:'\"~()[]".contains(c)).trim();
    loop {
        let before = v;
        for p in ["吧", "了", "啊", "呀", "呢", "嘛", "掉", "一下"] {
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

fn strip_article(v: &str) -> &str {
    for a in ["the ", "The ", "a ", "an ", "our ", "my "] {
        if let Some(rest) = v.strip_prefix(a) {
            return rest.trim_start();
        }
    }
    v
}

fn clean_value(v: &str) -> Option<String> {
    let v = trim_particles(v);
    (!v.is_empty()).then(|| v.to_owned())
}

/// A person's name as written, or `None` for "someone", "him", "她".
fn clean_person(v: &str) -> Option<String> {
    let v = trim_particles(v);
    let v = v.strip_prefix("把").unwrap_or(v).trim();
    let v = v.strip_prefix("掉").unwrap_or(v).trim();
    if v.is_empty() || is_pronoun(v) || v.split_whitespace().count() > 3 {
        return None;
    }
    Some(v.to_owned())
}

fn clean_person_or_department(v: &str) -> Option<String> {
    let v = strip_article(trim_particles(v));
    if looks_like_department(v) {
        return clean_department(v);
    }
    clean_person(v)
}

/// A department name without "the" and a trailing "department"/"team"; `None` for "it".
pub(super) fn clean_department(v: &str) -> Option<String> {
    let mut v = strip_article(trim_particles(v)).to_owned();
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
    let v = strip_article(v.trim()).to_owned();
    if v.is_empty() || is_pronoun(&v) || ["there", "here", "那里", "这里", "进去"].contains(&v.as_str()) {
        return None;
    }
    Some(v)
}

fn clean_description(v: &str) -> Option<String> {
    let v = v.trim().trim_matches(|c: char| ",.!?;:~".contains(c)).trim();
    let v = v.strip_prefix("please ").unwrap_or(v);
    let v = v.strip_suffix(" please").unwrap_or(v);
    let v = v.strip_suffix("吧").unwrap_or(v).trim();
    (!v.is_empty()).then(|| v.to_owned())
}

fn clean_topic(v: &str) -> Option<String> {
    let v = strip_article(trim_particles(v));
    let v = v.strip_prefix("一下").unwrap_or(v).trim();
    (!v.is_empty()).then(|| v.to_owned())
}

enum Assignee {
    Named(String),
    Pronoun,
    Invalid,
}

fn clean_assignee(v: &str) -> Assignee {
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

fn looks_like_department(v: &str) -> bool {
    let v = v.trim();
    if looks_like_cn_department(v) {
        return true;
    }
    let last = v.rsplit(' ').next().unwrap_or("").to_lowercase();
    v.contains(' ') && DEPARTMENT_NOUNS.contains(&last.as_str())
}

/// Whether a transfer target reads as a department rather than "manual" or "tomorrow".
fn department_like(t: &str, _clause: &str) -> bool {
    looks_like_department(t)
        || is_department_word(t)
        || has_han(t)
        || t.chars().next().is_some_and(|c| c.is_ascii_uppercase())
}

enum Subject {
    Everyone,
    You,
    Name(String),
    Department(String),
    Topic(String),
}

/// What a status or report question is about: a person, a department, a topic or
/// the whole company.
fn subject(v: &str) -> Subject {
    let v = strip_article(trim_particles(v));
    let v = v.strip_suffix("'s").unwrap_or(v).trim();
    let lower = v.to_lowercase();
    if v.is_empty() || EVERYONE.contains(&lower.as_str()) {
        return Subject::Everyone;
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
        let t = v.strip_suffix("的项目").or_else(|| v.strip_suffix("项目")).unwrap_or(v);
        let t = t.strip_suffix('的').unwrap_or(t).trim();
        let han_only = t.chars().all(is_han);
        let n = t.chars().count();
        if han_only && (2..=3).contains(&n) && t == v {
            return Subject::Name(t.to_owned());
        }
        if t.is_ascii() || (!han_only && t.split_whitespace().count() == 1 && !t.chars().any(is_han)) {
            return Subject::Name(t.to_owned());
        }
        return Subject::Topic(t.to_owned());
    }
    let words = v.split_whitespace().count();
    let capitalised = v.chars().next().is_some_and(|c| c.is_ascii_uppercase());
    if words == 1 || (words == 2 && capitalised) {
        return Subject::Name(v.to_owned());
    }
    Subject::Topic(v.to_owned())
}

/// "张伟调研一下竞品" → ("张伟", "调研一下竞品"). Chinese has no spaces, so the name
/// ends where a known task verb begins; a department ends at 部; English names at a space.
fn split_actor(v: &str) -> Option<(Assignee, String, f32)> {
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
    for p in ["她们", "他们", "大家", "有人", "某人", "别人", "她", "他", "它", "人", "谁"] {
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
        let Some(&(at, _)) = chars.get(len) else { break };
        if !chars[..len].iter().all(|(_, c)| is_han(*c)) {
            break;
        }
        if starts_with_task_verb(&v[at..]) {
            return Some((Assignee::Named(v[..at].to_owned()), v[at..].to_owned(), 1.0));
        }
    }
    let at = chars.get(2).map(|&(i, _)| i)?;
    Some((Assignee::Named(v[..at].to_owned()), v[at..].to_owned(), GUESSED_NAME_END))
}

fn is_policy_clause(clause: &str) -> bool {
    static RE: LazyLock<Regex> = LazyLock::new(|| {
        compile(r"approv|polic|审批|批准|策略|\bask\s+me\b|问我|sign[\s-]?off|全自动|autopilot|everything|所有|\bauto\b|自动|手动")
    });
    RE.is_match(clause)
}

fn is_budget_clause(clause: &str) -> bool {
    static RE: LazyLock<Regex> =
        LazyLock::new(|| compile(r"budget|spend|\bcap\b|\blimit\b|预算|花费|开销|额度"));
    RE.is_match(clause)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_before_roles() {
        assert_eq!(count_before("we need two "), Some(2));
        assert_eq!(count_before("Sales needs two more "), Some(2));
        assert_eq!(count_before("招聘三名"), Some(3));
        assert_eq!(count_before("请招聘10名"), Some(10));
        assert_eq!(count_before("hire a "), Some(1));
        assert_eq!(count_before("招个"), None);
        assert_eq!(count_before("HIRE TWO "), Some(2));
    }

    #[test]
    fn chinese_actor_ends_at_the_verb() {
        let (who, desc, c) = split_actor("张伟调研一下竞品").unwrap();
        assert!(matches!(who, Assignee::Named(n) if n == "张伟"));
        assert_eq!(desc, "调研一下竞品");
        assert_eq!(c, 1.0);
        let (who, desc, _) = split_actor("欧阳娜娜写一份总结").unwrap();
        assert!(matches!(who, Assignee::Named(n) if n == "欧阳娜娜"));
        assert_eq!(desc, "写一份总结");
        let (who, _, _) = split_actor("市场部准备发布会的材料").unwrap();
        assert!(matches!(who, Assignee::Named(n) if n == "市场部"));
        let (who, _, _) = split_actor("她写一份推广方案").unwrap();
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
