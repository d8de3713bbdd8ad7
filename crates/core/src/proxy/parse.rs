//! What a person asks of their proxy, read by rules in English and Chinese, so a proxy
//! works offline: "ask Sam for an estimate of the onboarding work", "answer Lin: about
//! three days", "ask Mia to draft the FAQ", "问一下Sam上线要多久", "让Mia写FAQ". What the
//! boss's secretary would read as an org change (a hire, a policy) is recognised too, so
//! the proxy can say that only the boss may do it.

use crate::secretary::{IntentKind, parse_rules_knowing};

/// One request to a proxy.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Request {
    /// Ask another person something (a question, an estimate, a favour).
    Ask { to: String, what: String },
    /// Tell another person, or an employee, something.
    Tell { to: String, what: String },
    /// Answer another person.
    Answer { to: String, what: String },
    /// Give an employee a task.
    Task { to: String, what: String },
    /// What waits for the person: approvals routed to them.
    Waiting,
    /// Something only the boss may do (hire, fire, a policy, an invitation …).
    BossOnly(IntentKind),
    /// Nothing the rules recognise.
    Unclear,
}

impl Request {
    /// What the person wants said or done, when the request carries words of theirs
    /// to someone else.
    pub fn what_mut(&mut self) -> Option<&mut String> {
        match self {
            Request::Ask { what, .. }
            | Request::Tell { what, .. }
            | Request::Answer { what, .. }
            | Request::Task { what, .. } => Some(what),
            Request::Waiting | Request::BossOnly(_) | Request::Unclear => None,
        }
    }
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Verb {
    Ask,
    Tell,
    Answer,
    /// "让 / 叫": have someone do something.
    Have,
}

/// English openings, longest first within a verb so "ask" does not eat "ask about".
const EN_VERBS: &[(&str, Verb)] = &[
    ("check with ", Verb::Ask),
    ("find out from ", Verb::Ask),
    ("ask ", Verb::Ask),
    ("let ", Verb::Tell),
    ("tell ", Verb::Tell),
    ("inform ", Verb::Tell),
    ("remind ", Verb::Tell),
    ("message ", Verb::Tell),
    ("reply to ", Verb::Answer),
    ("answer ", Verb::Answer),
];

const ZH_VERBS: &[(&str, Verb)] = &[
    ("问一下", Verb::Ask),
    ("问问", Verb::Ask),
    ("请教", Verb::Ask),
    ("问", Verb::Ask),
    ("告诉", Verb::Tell),
    ("通知", Verb::Tell),
    ("提醒", Verb::Tell),
    ("回复", Verb::Answer),
    ("答复", Verb::Answer),
    ("让", Verb::Have),
    ("叫", Verb::Have),
];

/// Politeness before the verb.
const OPENINGS: &[&str] = &[
    "please ",
    "could you ",
    "can you ",
    "would you ",
    "请帮我",
    "帮我",
    "麻烦",
    "请",
];

/// Words asking what waits for the person.
const WAITING: &[&str] = &[
    "what's waiting",
    "what is waiting",
    "anything for me",
    "what do i need to",
    "my approvals",
    "my queue",
    "待我",
    "等我",
    "我的审批",
    "有什么要我",
];

/// Reads one request. `people` are the company's other people, `employees` its staff
/// (names as written); a name that is both is taken as the person.
pub fn parse(text: &str, people: &[&str], employees: &[&str]) -> Request {
    let text = text.trim();
    let lower = text.to_lowercase();
    if WAITING.iter().any(|w| lower.contains(w)) {
        return Request::Waiting;
    }
    if let Some(r) = addressed(text, people, employees) {
        return r;
    }
    let parsed = parse_rules_knowing(text, employees);
    if let Some(kind) = parsed
        .intents
        .iter()
        .map(|i| i.kind)
        .find(|k| boss_only(*k))
    {
        return Request::BossOnly(kind);
    }
    for intent in &parsed.intents {
        if intent.kind == IntentKind::AssignTask
            && let (Some(to), Some(what)) = (&intent.slots.assignee, &intent.slots.description)
            && employees.iter().any(|e| e.eq_ignore_ascii_case(to))
        {
            return Request::Task {
                to: to.clone(),
                what: what.clone(),
            };
        }
    }
    if parsed
        .intents
        .iter()
        .any(|i| i.kind == IntentKind::AskStatus)
    {
        return Request::Waiting;
    }
    Request::Unclear
}

/// What only the boss may do: change the org, its policy, its people or its reviewers.
fn boss_only(kind: IntentKind) -> bool {
    use IntentKind::*;
    matches!(
        kind,
        HireEmployee
            | FireEmployee
            | TransferEmployee
            | CreateDepartment
            | RenameDepartment
            | DeleteDepartment
            | SetPolicy
            | InvitePerson
            | SetReviewer
            | CreateRequirement
            | ConveneMeeting
    )
}

/// "<verb> <name> <rest>": a request addressed to someone the company knows.
fn addressed(text: &str, people: &[&str], employees: &[&str]) -> Option<Request> {
    let mut rest = text;
    let mut lower = rest.to_lowercase();
    while let Some(o) = OPENINGS.iter().find(|o| lower.starts_with(**o)) {
        rest = rest[o.len()..].trim_start();
        lower = rest.to_lowercase();
    }
    let (verb, after) = EN_VERBS
        .iter()
        .chain(ZH_VERBS)
        .find(|(v, _)| lower.starts_with(v))
        .map(|(v, verb)| (*verb, rest[v.len()..].trim_start()))?;
    let (name, is_person, tail) = named(after, people, employees)?;
    let what = clean(tail, verb);
    if what.is_empty() {
        return None;
    }
    let to = name.to_owned();
    Some(match (verb, is_person) {
        (Verb::Ask, true) | (Verb::Have, true) => Request::Ask { to, what },
        (Verb::Ask, false) if starts_with_word(tail, "to") => Request::Task { to, what },
        (Verb::Have, false) => Request::Task { to, what },
        (Verb::Answer, true) => Request::Answer { to, what },
        (Verb::Ask, false) | (Verb::Tell, _) | (Verb::Answer, false) => Request::Tell { to, what },
    })
}

/// The longest known name `text` starts with, whether it is a person's, and what follows.
fn named<'a>(
    text: &'a str,
    people: &[&'a str],
    employees: &[&'a str],
) -> Option<(&'a str, bool, &'a str)> {
    let lower = text.to_lowercase();
    people
        .iter()
        .map(|n| (*n, true))
        .chain(employees.iter().map(|n| (*n, false)))
        .filter(|(n, _)| {
            !n.is_empty() && text.is_char_boundary(n.len()) && lower.starts_with(&n.to_lowercase())
        })
        .filter(|(n, _)| {
            // "Sam" must not match the start of "Samantha"; Chinese runs on without spaces.
            let next = text[n.len()..].chars().next();
            next.is_none_or(|c| !c.is_ascii_alphanumeric())
        })
        .max_by_key(|(n, is_person)| (n.len(), *is_person))
        .map(|(n, is_person)| (&text[..n.len()], is_person, &text[n.len()..]))
}

fn starts_with_word(text: &str, word: &str) -> bool {
    let t = text.trim_start().to_lowercase();
    t == word || t.starts_with(&format!("{word} "))
}

/// What is left to say: joining words and punctuation after the name dropped.
fn clean(tail: &str, verb: Verb) -> String {
    let mut t = tail.trim_start_matches(|c: char| {
        c.is_whitespace() || matches!(c, ',' | ':' | '，' | '：' | '、')
    });
    let drops: &[&str] = match verb {
        Verb::Tell => &["know that ", "know ", "that "],
        Verb::Ask | Verb::Have => &["一下", "to "],
        Verb::Answer => &["that "],
    };
    for d in drops {
        if t.to_lowercase().starts_with(d) {
            t = &t[d.len()..];
            break;
        }
    }
    t.trim().trim_end_matches(['.', '。']).trim().to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    const PEOPLE: &[&str] = &["Sam", "Lin", "林"];
    const STAFF: &[&str] = &["Mia", "Samantha", "小周"];

    fn p(text: &str) -> Request {
        parse(text, PEOPLE, STAFF)
    }

    fn ask(to: &str, what: &str) -> Request {
        Request::Ask {
            to: to.into(),
            what: what.into(),
        }
    }

    #[test]
    fn asking_a_person_keeps_what_is_asked() {
        assert_eq!(
            p("ask Sam for an estimate of the onboarding work"),
            ask("Sam", "for an estimate of the onboarding work")
        );
        assert_eq!(
            p("Please check with sam: when can the API be frozen?"),
            ask("sam", "when can the API be frozen?")
        );
        assert_eq!(p("问一下林上线要多久"), ask("林", "上线要多久"));
        assert_eq!(
            p("ask Sam to review the launch plan"),
            ask("Sam", "review the launch plan")
        );
    }

    #[test]
    fn answers_and_tells_go_to_their_person() {
        assert_eq!(
            p("answer Lin: about three days, QA included."),
            Request::Answer {
                to: "Lin".into(),
                what: "about three days, QA included".into()
            }
        );
        assert_eq!(
            p("let Sam know that the launch moved to Friday"),
            Request::Tell {
                to: "Sam".into(),
                what: "the launch moved to Friday".into()
            }
        );
        assert_eq!(
            p("回复林：大概三天"),
            Request::Answer {
                to: "林".into(),
                what: "大概三天".into()
            }
        );
    }

    #[test]
    fn an_employee_asked_to_do_something_gets_a_task() {
        let task = |to: &str, what: &str| Request::Task {
            to: to.into(),
            what: what.into(),
        };
        assert_eq!(p("ask Mia to draft the FAQ"), task("Mia", "draft the FAQ"));
        assert_eq!(p("让小周写一份测试计划"), task("小周", "写一份测试计划"));
        // "Sam" is a person; "Samantha", who starts the same way, is an employee.
        assert_eq!(
            p("ask Samantha to fix the login bug"),
            task("Samantha", "fix the login bug")
        );
        // Telling an employee something is a message, not a task.
        assert_eq!(
            p("tell Mia the demo is at 3"),
            Request::Tell {
                to: "Mia".into(),
                what: "the demo is at 3".into()
            }
        );
    }

    #[test]
    fn org_changes_are_the_boss_s_and_the_rest_is_unclear() {
        assert!(matches!(
            p("hire a frontend engineer for Product"),
            Request::BossOnly(IntentKind::HireEmployee)
        ));
        assert!(matches!(
            p("fire Mia"),
            Request::BossOnly(IntentKind::FireEmployee)
        ));
        assert_eq!(p("what's waiting for me?"), Request::Waiting);
        assert_eq!(p("有什么要我审批的吗"), Request::Waiting);
        assert_eq!(p("ask Bob for the numbers"), Request::Unclear);
        assert_eq!(p("ask Sam"), Request::Unclear);
        assert_eq!(p("nice weather today"), Request::Unclear);
    }
}
