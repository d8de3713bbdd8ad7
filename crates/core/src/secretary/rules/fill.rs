//! Turns a matched row into intents: cleans the captured groups into slots, runs the
//! intent-specific readers (roles and counts for hires, levels and amounts for policy,
//! participants and topic for meetings), rejects matches whose captures make no sense
//! ("switch approvals to manual" is no transfer), and lowers the confidence when a slot
//! the intent needs is missing so the secretary asks instead of guessing.

use std::sync::LazyLock;

use regex::{Captures, Regex};

use super::super::intent::{Intent, IntentKind, Slots, TEAM};
use super::super::lexicon::{
    self, DEPARTMENT_NOUNS, find_role_fuzzy, find_roles, is_department_word, is_pronoun, levels_in,
    looks_like_cn_department,
};
use super::super::normalize::{has_han, parse_amount, parse_count};
use super::clean::{
    Assignee, Subject, clean_assignee, clean_department, clean_description, clean_person,
    clean_person_or_department, clean_requirement, clean_topic, clean_value, department_like,
    is_budget_clause, is_change_clause, is_policy_clause, is_reference, is_setting_word,
    looks_like_department, split_actor, subject,
};
use super::compile;

/// The confidence of an intent that lacks a slot it needs: below every "act" threshold.
pub(super) const MISSING_SLOT: f32 = 0.5;
/// A task for "her"/"他": clear instruction, but who it is comes from context.
pub(super) const PRONOUN_ASSIGNEE: f32 = 0.75;
/// "预算调到10刀" reads as a setting before anything else that "调到" might mean.
const BUDGET_WITH_AMOUNT: f32 = 0.93;
/// Hire rows in `table.rs` with a confidence in this range are weak triggers ("we need",
/// "add", "要一个"): they mean a hire only when a role is named.
const WEAK_HIRE: std::ops::Range<f32> = 0.85..0.9;

/// What the intent-specific checks make of a match.
enum Verdict {
    /// The captures make no sense for this intent ("switch approvals to manual" is no transfer).
    Reject,
    /// Complete as it stands: a missing slot is filled from context, so do not ask for it.
    Accept,
    /// Keep it, lowering the confidence if a slot the intent needs is missing.
    CheckSlots,
}

pub(super) fn fill(
    kind: IntentKind,
    conf: f32,
    caps: &Captures,
    clause: &str,
    known: &[&str],
) -> Vec<Intent> {
    let mut conf = conf;
    let Some(mut s) = read_captures(caps, &mut conf, known) else {
        return vec![];
    };
    if kind == IntentKind::HireEmployee {
        return hire(conf, s, clause);
    }
    match refine(kind, &mut s, &mut conf, caps, clause) {
        Verdict::Reject => vec![],
        Verdict::Accept => vec![Intent::new(kind, conf, s)],
        Verdict::CheckSlots => {
            if missing_required(kind, &s) {
                conf = conf.min(MISSING_SLOT);
            }
            vec![Intent::new(kind, conf, s)]
        }
    }
}

/// A named group's text, trimmed; `None` when it did not match or is blank.
fn group<'a>(caps: &Captures<'a>, name: &str) -> Option<&'a str> {
    caps.name(name)
        .map(|m| m.as_str().trim())
        .filter(|v| !v.is_empty())
}

/// Cleans every captured group into its slot; `None` when a capture rules the match out.
fn read_captures(caps: &Captures, conf: &mut f32, known: &[&str]) -> Option<Slots> {
    let mut s = Slots::default();
    if let Some(v) = group(caps, "name") {
        if looks_like_department(v) {
            return None;
        }
        s.name = clean_person(v);
    }
    if let Some(v) = group(caps, "dept") {
        s.department = clean_department(v);
    }
    if let Some(v) = group(caps, "target") {
        s.target_department = clean_department(v);
        // "move Eve into his team": the department comes from context.
        if is_reference(v) {
            *conf = conf.min(PRONOUN_ASSIGNEE);
        }
    }
    if let Some(v) = group(caps, "new_name") {
        s.new_name = clean_value(v);
    }
    if let Some(v) = group(caps, "reason").or_else(|| group(caps, "desc")) {
        s.description = clean_description(v);
    }
    if let Some(v) = group(caps, "topic") {
        s.topic = clean_topic(v);
    }
    if let Some(v) = group(caps, "reviewer") {
        s.reviewer = clean_person(v);
    }
    if let Some(v) = group(caps, "req") {
        s.requirement = clean_requirement(v);
    }
    if let Some(v) = group(caps, "ref") {
        s.name = Some(format!(
            "#{}",
            v.chars().filter(char::is_ascii_digit).collect::<String>()
        ));
    }
    read_who(caps, &mut s, conf, known)?;
    Some(s)
}

/// The groups that say who: an assignee, the subject of a question, or an actor with the
/// people working alongside them.
fn read_who(caps: &Captures, s: &mut Slots, conf: &mut f32, known: &[&str]) -> Option<()> {
    if let Some(v) = group(caps, "assignee") {
        match clean_assignee(v) {
            Assignee::Named(a) => s.assignee = Some(a),
            Assignee::Pronoun => *conf = conf.min(PRONOUN_ASSIGNEE),
            Assignee::Invalid => return None,
        }
    }
    if let Some(v) = group(caps, "subj") {
        match subject(v) {
            Subject::Everyone => {}
            Subject::You => return None,
            Subject::Name(n) => s.name = Some(n),
            Subject::Department(d) => s.department = Some(d),
            Subject::Topic(t) => s.topic = Some(t),
        }
    }
    if let Some(v) = group(caps, "actor") {
        let actor = split_actor(v, known)?;
        match actor.who {
            Assignee::Named(a) => s.assignee = Some(a),
            Assignee::Pronoun => *conf = conf.min(PRONOUN_ASSIGNEE),
            Assignee::Invalid => {}
        }
        s.participants = actor.participants;
        s.description = clean_description(&actor.rest);
        *conf = conf.min(actor.conf);
    }
    Some(())
}

/// The checks and readers one intent needs beyond its captured groups.
fn refine(
    kind: IntentKind,
    s: &mut Slots,
    conf: &mut f32,
    caps: &Captures,
    clause: &str,
) -> Verdict {
    match kind {
        IntentKind::TransferEmployee => return transfer(s, caps),
        IntentKind::SetPolicy => return policy(s, conf, clause),
        IntentKind::DeleteDepartment => {
            let noun = group(caps, "noun").is_some();
            match &s.department {
                Some(d) if noun || looks_like_department(d) || is_department_word(d) => {}
                _ => return Verdict::Reject,
            }
        }
        IntentKind::RenameDepartment => {
            if s.department.as_deref().is_some_and(is_setting_word) {
                return Verdict::Reject;
            }
            // "审批改成自动" has the shape of a rename but no department in it.
            let d = s.department.as_deref().unwrap_or("");
            if has_han(d) && !looks_like_cn_department(d) {
                return Verdict::Reject;
            }
        }
        IntentKind::CreateDepartment
            if s.department
                .as_deref()
                .is_some_and(|d| d.split_whitespace().count() > 4) =>
        {
            return Verdict::Reject;
        }
        IntentKind::ConveneMeeting => meeting(s, caps, clause),
        IntentKind::InvitePerson => invitation(s, caps),
        IntentKind::CreateRequirement => {
            reviewed_by(s);
            if s.department.is_none() {
                s.department = CN_REQUIREMENT_DEPT
                    .captures(clause)
                    .and_then(|c| c.name("d"))
                    .and_then(|m| clean_department(m.as_str()));
            }
        }
        IntentKind::AssignTask => {
            for_requirement(s);
            together_with(s);
        }
        // "who is in Sales": the department group wins over a subject read as one.
        IntentKind::AskStatus => {
            if let Some(d) = group(caps, "dept") {
                s.department = clean_department(d);
            }
        }
        _ => {}
    }
    Verdict::CheckSlots
}

/// "move Eve to Sales": a person and a department, not a setting; "把李娜和王强调到市场部"
/// moves several people.
fn transfer(s: &mut Slots, caps: &Captures) -> Verdict {
    let name = group(caps, "name");
    if s.target_department.is_none()
        && group(caps, "target").is_some_and(is_reference)
        && s.name.is_some()
    {
        return Verdict::Accept;
    }
    if let Some(t) = &s.target_department
        && !department_like(t)
    {
        return Verdict::Reject;
    }
    // "预算调到10刀", "switch approvals to manual": settings, not people.
    if name.is_some_and(is_setting_word) {
        return Verdict::Reject;
    }
    if name.is_some_and(|n| n.split_whitespace().count() > 3) {
        return Verdict::Reject;
    }
    // "把李娜和王强调到市场部": the first is the name, the others move with them.
    if let Some(all) = name {
        let mut people = LIST_SEP.split(all).filter_map(clean_person);
        if let (Some(first), rest) = (people.next(), people.collect::<Vec<_>>())
            && !rest.is_empty()
        {
            s.name = Some(first);
            s.participants = rest;
        }
    }
    Verdict::CheckSlots
}

/// "invite Lin as head of Product": the role as the boss put it, and the department it
/// is the head of ("head of Product", "产品部负责人") when the row did not capture one.
fn invitation(s: &mut Slots, caps: &Captures) {
    let Some(role) = group(caps, "role") else {
        return;
    };
    s.role = clean_value(role);
    if s.department.is_none() {
        s.department = ROLE_OF_DEPT
            .captures(role)
            .and_then(|c| c.name("d"))
            .and_then(|m| clean_department(m.as_str()));
    }
}

/// The department in a role: "lead of Sales", "head of the Product department".
static ROLE_OF_DEPT: LazyLock<Regex> =
    LazyLock::new(|| compile(r"\b(?:of|for)\s+(?:the\s+)?(?P<d>[^,]+?)(?:\s+department)?$"));

/// A policy change names one approval level or a budget amount; several levels, or a budget
/// with no amount, leave the secretary asking.
fn policy(s: &mut Slots, conf: &mut f32, clause: &str) -> Verdict {
    let levels = levels_in(clause);
    let amount = parse_amount(clause);
    match (levels.as_slice(), amount) {
        ([one], _) if is_policy_clause(clause) && is_change_clause(clause) => {
            s.level = Some(*one);
        }
        (_, Some(a)) if is_budget_clause(clause) => {
            s.amount = Some(a);
            *conf = conf.max(BUDGET_WITH_AMOUNT);
        }
        ([], None) if is_budget_clause(clause) => *conf = MISSING_SLOT,
        ([_, _, ..], _) => *conf = MISSING_SLOT,
        _ => return Verdict::Reject,
    }
    Verdict::CheckSlots
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
        SetReviewer => s.reviewer.is_none() || s.requirement.is_none(),
        InvitePerson => s.name.is_none(),
        SetPolicy => s.level.is_none() && s.amount.is_none(),
        _ => false,
    }
}

// ---------------------------------------------------------------- hire

static CN_HIRE_DEPT: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?:放到|放在|加入|进入|分到|到|进|去|给|在|为)\s*(?P<d>{CNDEPT})|^(?P<s>{CNDEPT})\s*(?:再|还|又|也)?\s*(?:需要|要|缺|招)",
    )
});
static EN_HIRE_DEPT: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?:\b(?:for|in|into|to|on|join|joining)\s+|(?:到|进|去|加入|给|为)\s*)(?:the\s+)?(?P<d>[A-Za-z][A-Za-z0-9&/-]*|{CNDEPT})(?:\s+(?P<d2>[A-Za-z][A-Za-z0-9&/-]*))?",
    )
});
static HIRE_NAME: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\b(?:named|called)\s+(?P<n>[A-Za-z][A-Za-z'-]*{EN2}|[\p{Han}]{2,4})|(?:名叫|名字叫|名为|叫做|叫)\s*(?P<c>[A-Za-z]+|[\p{Han}]{2,3}?)(?:的|$|,|\s)",
    )
});
/// Words between a number and the role that do not change the count ("two more senior …").
const COUNT_FILLERS: &[&str] = &[
    "more",
    "new",
    "additional",
    "extra",
    "senior",
    "junior",
    "good",
    "great",
    "experienced",
    "talented",
    "full-time",
    "part-time",
    "个",
    "名",
    "位",
    "新的",
    "新",
    "资深",
    "高级",
    "初级",
    "靠谱的",
    "优秀的",
    "厉害的",
    "的",
];

fn hire(conf: f32, mut s: Slots, clause: &str) -> Vec<Intent> {
    let mut roles = find_roles(clause);
    if roles.is_empty()
        && let Some(m) = find_role_fuzzy(clause)
    {
        roles.push(m);
    }
    // Weak triggers ("we need", "add", "要一个") only mean a hire when a role is named.
    if roles.is_empty() && WEAK_HIRE.contains(&conf) {
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
        return vec![Intent::new(
            IntentKind::HireEmployee,
            conf.min(MISSING_SLOT),
            s,
        )];
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
    // Each candidate is read from where the last one's first word ended, so a second
    // word that was not part of a name ("on board in Product") is read again.
    let mut at = 0;
    while let Some(c) = EN_HIRE_DEPT.captures_at(clause, at) {
        let Some(d) = c.name("d") else { break };
        at = d.end();
        if roles.iter().any(|r| d.start() < r.end && r.start < d.end()) {
            continue;
        }
        let first = d.as_str();
        // "hire a tester for 工程部": a Chinese department name in an English sentence.
        if looks_like_cn_department(first) {
            return clean_department(first);
        }
        let second = c.name("d2").map(|m| m.as_str());
        let noun = second.is_some_and(|w| DEPARTMENT_NOUNS.contains(&w.to_lowercase().as_str()));
        let capitalised = first
            .chars()
            .next()
            .is_some_and(|ch| ch.is_ascii_uppercase());
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
    // "三个Java后端": one tech word between the count and the role.
    if let Some((head, last)) = p.rsplit_once(|c: char| !c.is_ascii_alphabetic())
        && !last.is_empty()
        && parse_count(last).is_none()
        && last != "another"
    {
        let head_end = p.len() - last.len();
        let _ = head;
        p = p[..head_end].trim_end();
        for f in COUNT_FILLERS {
            if !f.is_ascii()
                && let Some(rest) = p.strip_suffix(f)
            {
                p = rest.trim_end();
            }
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
    let word = p
        .rsplit(|c: char| !c.is_ascii_alphabetic())
        .next()
        .unwrap_or("");
    match word.to_lowercase().as_str() {
        "another" => Some(1),
        w => parse_count(w),
    }
}

// ---------------------------------------------------------------- requirements

/// "…in Engineering, reviewed by Dan", "…，由李娜评审": the reviewer named at the end of
/// a new requirement, cut from its description.
static REVIEWED_BY: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?:\s*,\s*|\s+)(?:(?:to\s+be\s+|and\s+)?reviewed\s+by\s+(?P<a>{WHO})|with\s+(?P<b>{WHO})\s+as\s+(?:the\s+)?reviewer|reviewer\s*:?\s*(?P<c>{WHO}))\s*$|\s*,?\s*(?:(?:由|让|请)\s*(?P<d>[^,]{1,12}?)\s*(?:来)?\s*(?:评审|审核)|评审人?\s*(?:是|为|:)\s*(?P<e>[^,]{1,12}?))\s*$",
    )
});

fn reviewed_by(s: &mut Slots) {
    let Some(desc) = s.description.clone() else {
        return;
    };
    let Some(c) = REVIEWED_BY.captures(&desc) else {
        return;
    };
    let who = ["a", "b", "c", "d", "e"]
        .iter()
        .find_map(|n| c.name(n))
        .map(|m| m.as_str());
    if let (Some(who), Some(all)) = (who.and_then(clean_person), c.get(0)) {
        s.reviewer = Some(who);
        s.description = clean_description(&desc[..all.start()]);
    }
}

/// "在工程部启动一个需求：做登录页": the department named before the verb owns it.
static CN_REQUIREMENT_DEPT: LazyLock<Regex> = LazyLock::new(|| {
    compile(r"^(?:在|给|为|由)\s*(?P<d>{CNDEPT})\s*(?:新建|创建|建|开|启动|提|新增|立|发起|加|搞)")
});

/// "ask Carol to write the tests for the login page requirement", "让李娜为登录页需求写测试":
/// the requirement the task belongs to.
static FOR_REQUIREMENT: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\b(?:for|on|in|of|under)\s+(?:the\s+)?(?P<r>[^,]+?)\s+(?:requirement|project)\b|(?:为|给|针对|关于)\s*(?P<z>[^,]{1,20}?)\s*(?:需求|项目)",
    )
});

fn for_requirement(s: &mut Slots) {
    let found = s.description.as_deref().and_then(|d| {
        FOR_REQUIREMENT
            .captures(d)
            .and_then(|c| c.name("r").or_else(|| c.name("z")))
            .and_then(|m| clean_requirement(m.as_str()))
    });
    if found.is_some() {
        s.requirement = found;
    }
}

/// "ask Alice to draft the plan with her team", "… together with Bob": who works on it
/// with the assignee, cut from the description.
static TOGETHER_WITH: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\s+(?:(?:together|along)\s+with\s+(?P<p>{WHO}(?:\s*(?:,|and)\s*{WHO})*)|(?:together\s+)?with\s+(?:her|his|their|the)\s+(?:whole\s+)?(?P<team>team))$",
    )
});

fn together_with(s: &mut Slots) {
    let Some(desc) = s.description.clone() else {
        return;
    };
    let Some(c) = TOGETHER_WITH.captures(&desc) else {
        return;
    };
    let Some(all) = c.get(0) else { return };
    if c.name("team").is_some() {
        s.participants = vec![TEAM.to_owned()];
    } else if let Some(p) = c.name("p") {
        s.participants = LIST_SEP
            .split(p.as_str())
            .filter_map(clean_person)
            .collect();
    }
    if !s.participants.is_empty() {
        s.description = clean_description(&desc[..all.start()]);
    }
}

// ---------------------------------------------------------------- meetings

static EN_PEOPLE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\bwith\s+(?:the\s+)?(?P<p>.+?)(?:\s+(?:about|on|re:?|regarding|to\s+discuss|to\s+talk|for|tomorrow|today|at|this|next)\b|$)",
    )
});
static EN_TOPIC: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"\b(?:about|regarding|re:?|to\s+discuss|to\s+talk\s+about|discussing|on)\s+(?:the\s+)?(?P<t>.+)$",
    )
});
static CN_PEOPLE: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?:召集|叫上|拉上|约上|约|叫|拉|和|跟|与|找)\s*(?P<p>[^,]+?)\s*(?:一起|一块儿?)?\s*(?:开会|开个|开一个|开一下|碰|拉个会|讨论|聊|$)",
    )
});
static CN_TOPIC: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"(?:讨论(?:一下)?|聊聊|聊一下|聊一聊|商量(?:一下)?|主题是|议题是|关于|对一下)\s*(?P<t>[^,]+?)(?:的事情?|的问题)?\s*(?:吧)?(?:,|$)",
    )
});
static MEETING_NOUN: LazyLock<Regex> = LazyLock::new(|| {
    compile(
        r"^(?:a|an|the|our|one)?\s*(?:quick\s+|short\s+|brief\s+|team\s+|new\s+)?(?:meeting|sync|call|huddle|discussion|session|standup|stand-up)\b",
    )
});
static LIST_SEP: LazyLock<Regex> =
    LazyLock::new(|| compile(r"\s*(?:,|、|\band\b|&|和|跟|与|以及|及)\s*"));

fn meeting(s: &mut Slots, caps: &Captures, clause: &str) {
    // "convene a meeting with Alice …": the words after the verb are the meeting, not
    // the people; those come after "with".
    let people = caps
        .name("people")
        .map(|m| m.as_str().to_owned())
        .filter(|p| !MEETING_NOUN.is_match(p))
        .or_else(|| {
            EN_PEOPLE
                .captures(clause)
                .and_then(|c| c.name("p"))
                .map(|m| m.as_str().to_owned())
        })
        .or_else(|| {
            CN_PEOPLE
                .captures(clause)
                .and_then(|c| c.name("p"))
                .map(|m| m.as_str().to_owned())
        });
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
        // "about the roadmap with Alice and Bob": the people are not part of the topic.
        let t = match t.find(" with ") {
            Some(i) if !s.participants.is_empty() => &t[..i],
            _ => t,
        };
        s.topic = clean_topic(t);
    }
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
}
