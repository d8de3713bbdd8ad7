//! The secretary's words: the company's language, fuzzy picks, stock replies and the
//! pool of names for new hires.

use super::intent::IntentKind;
use super::lexicon::names_department;
use super::names::{NameMatch, match_name};
use super::rules::parse_rules;
use crate::org::{DepartmentDto, OrgSnapshot};
use crate::types::Language;

/// What fuzzy matching found among `items`.
pub(super) enum Pick<'a, T> {
    One(&'a T),
    /// The names of every item that fits equally well.
    Many(Vec<&'a str>),
    None,
}

pub(super) fn pick<'a, T>(
    query: &str,
    items: &'a [T],
    id: impl Fn(&T) -> i32,
    name: impl Fn(&'a T) -> &'a str,
) -> Pick<'a, T> {
    let candidates: Vec<(i32, &str)> = items.iter().map(|x| (id(x), name(x))).collect();
    match match_name(query, &candidates) {
        NameMatch::Exact(i) | NameMatch::Unique(i) => items
            .iter()
            .find(|x| id(x) == i)
            .map_or(Pick::None, Pick::One),
        NameMatch::Ambiguous(ids) => Pick::Many(
            items
                .iter()
                .filter(|x| ids.contains(&id(x)))
                .map(name)
                .collect(),
        ),
        NameMatch::None => Pick::None,
    }
}

/// A department by the name the boss used: fuzzy on the company's own names first, then
/// by the other names of the same department in either language ("工程部" ↔ "Engineering").
pub(super) fn pick_department<'a>(
    query: &str,
    departments: &'a [DepartmentDto],
) -> Pick<'a, DepartmentDto> {
    match pick(query, departments, |d| d.id, |d| &d.name) {
        Pick::None => {}
        found => return found,
    }
    let hits: Vec<&DepartmentDto> = departments
        .iter()
        .filter(|d| names_department(query, &d.name))
        .collect();
    match hits.as_slice() {
        [] => Pick::None,
        [one] => Pick::One(one),
        many => Pick::Many(many.iter().map(|d| d.name.as_str()).collect()),
    }
}

pub(super) fn people_count(n: usize) -> String {
    if n == 1 {
        "1 person".into()
    } else {
        format!("{n} people")
    }
}

pub(super) fn clarify(lang: Language, snap: &OrgSnapshot) -> String {
    let example = hire_example(lang, snap);
    lang.pick(
        format!("I'm not sure what you'd like me to do. Could you say it another way? For example: \"{example}\"."),
        format!("我不太确定你想让我做什么，能换个说法吗？比如：“{example}”。"),
    )
}

/// Hires phrased around one department, in the company's language.
fn hire_phrasings(lang: Language, department: &str) -> Vec<String> {
    match lang {
        Language::En => vec![
            format!("hire a QA engineer for {department}"),
            format!("hire a QA engineer into the {department} department"),
            format!("给{department}招一个测试工程师"),
        ],
        Language::ZhCn => vec![
            format!("给{department}招一个测试工程师"),
            format!("招一个测试工程师到{department}"),
            format!("给{department}部门招一个测试工程师"),
            format!("hire a QA engineer for {department}"),
        ],
    }
}

/// Whether the rules read `example` as one confident `kind` whose department is `d`.
fn reads_back(example: &str, kind: IntentKind, d: &DepartmentDto, snap: &OrgSnapshot) -> bool {
    let parse = parse_rules(example);
    parse.intents.len() == 1
        && parse.intents.iter().all(|i| {
            i.kind == kind
                && i.is_confident()
                && i.slots.department.as_deref().is_some_and(|q| {
                    matches!(pick_department(q, &snap.departments), Pick::One(x) if x.id == d.id)
                })
        })
}

/// How to invite someone, with one of the company's own departments when the rules read
/// it back, else without one.
pub(super) fn invite_example(lang: Language, snap: &OrgSnapshot) -> String {
    for d in &snap.departments {
        let name = &d.name;
        let phrasings = match lang {
            Language::En => vec![format!("invite Lin as head of {name}")],
            Language::ZhCn => vec![
                format!("邀请林做{name}负责人"),
                format!("邀请林来负责{name}"),
            ],
        };
        if let Some(e) = phrasings
            .into_iter()
            .find(|e| reads_back(e, IntentKind::InvitePerson, d, snap))
        {
            return e;
        }
    }
    lang.pick("invite Lin to the company", "邀请林加入公司")
}

/// An example request that works in this company as it is: a hire into one of its own
/// departments, phrased so the rules read it back to that department; with none that
/// reads back, a hire that needs no department, or a department to create.
pub(super) fn hire_example(lang: Language, snap: &OrgSnapshot) -> String {
    for d in &snap.departments {
        for example in hire_phrasings(lang, &d.name) {
            if reads_back(&example, IntentKind::HireEmployee, d, snap) {
                return example;
            }
        }
    }
    if snap.departments.len() <= 1 {
        // With one department a hire goes there; with none it needs none.
        return lang.pick("hire a QA engineer", "招一个测试工程师");
    }
    let free = |name: &str| {
        !snap
            .departments
            .iter()
            .any(|d| names_department(name, &d.name))
    };
    let (en, zh) = [
        ("Research", "研究部"),
        ("Design", "设计部"),
        ("Growth", "增长部"),
        ("Documentation", "文档部"),
    ]
    .into_iter()
    .find(|(en, _)| free(en))
    .unwrap_or(("Special Projects", "特别项目部"));
    lang.pick(
        format!("create a department called {en}"),
        format!("新建一个{zh}"),
    )
}

pub(super) fn capabilities(lang: Language) -> String {
    lang.pick(
        "Right now I can hire, fire and move people, create and rename departments, give someone a task, open a requirement, change the approval policy and daily budget, and tell you who is where and what is pending.",
        "目前我可以招人、辞退、调岗，新建和重命名部门，给员工安排任务，新建需求，调整审批策略和每日预算，以及告诉你谁在哪个部门、有哪些待办。",
    )
}

const NAMES_EN: [&str; 24] = [
    "Alice Chen",
    "Bob Martin",
    "Carol Diaz",
    "Dan Okafor",
    "Eve Novak",
    "Frank Li",
    "Grace Kim",
    "Hugo Silva",
    "Ivy Park",
    "Jack Moreau",
    "Kara Singh",
    "Leo Rossi",
    "Mia Tanaka",
    "Nate Cohen",
    "Olga Petrova",
    "Priya Nair",
    "Quinn Walsh",
    "Ravi Shah",
    "Sara Lind",
    "Tom Becker",
    "Uma Rao",
    "Victor Hugo",
    "Wen Zhou",
    "Yara Haddad",
];
const NAMES_ZH: [&str; 24] = [
    "张伟", "王芳", "李娜", "刘洋", "陈静", "杨磊", "赵敏", "黄勇", "周婷", "吴昊", "徐丽", "孙杰",
    "马超", "朱琳", "胡斌", "郭佳", "何平", "高翔", "林悦", "罗成", "梁静", "宋涛", "谢晨", "韩雪",
];

/// The first name from the pool nobody in the company has; numbered once the pool runs out.
pub(super) fn next_name(lang: Language, taken: &[String]) -> String {
    let pool: &[&str] = match lang {
        Language::En => &NAMES_EN,
        Language::ZhCn => &NAMES_ZH,
    };
    let free = |n: &str| !taken.iter().any(|t| t.eq_ignore_ascii_case(n));
    if let Some(n) = pool.iter().find(|n| free(n)) {
        return (*n).to_owned();
    }
    (2..)
        .flat_map(|i| pool.iter().map(move |n| format!("{n} {i}")))
        .find(|n| free(n))
        .unwrap_or_else(|| "New Hire".into())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn company(departments: &[&str]) -> OrgSnapshot {
        OrgSnapshot {
            company: None,
            departments: departments
                .iter()
                .zip(1..)
                .map(|(name, id)| DepartmentDto {
                    id,
                    name: (*name).to_owned(),
                    mission: String::new(),
                    parent_id: None,
                    lead_id: None,
                    created_at: String::new(),
                })
                .collect(),
            teams: vec![],
            employees: vec![],
        }
    }

    #[test]
    fn invite_examples_name_a_department_the_company_has_or_none() {
        let en = company(&["Engineering"]);
        assert_eq!(
            invite_example(Language::En, &en),
            "invite Lin as head of Engineering"
        );
        let zh = company(&["工程部"]);
        assert_eq!(invite_example(Language::ZhCn, &zh), "邀请林做工程部负责人");
        // "Engineering" is not read after 做 in Chinese: another phrasing, or none.
        let mixed = company(&["Engineering"]);
        let e = invite_example(Language::ZhCn, &mixed);
        assert!(
            e == "邀请林来负责Engineering" || e == "邀请林加入公司",
            "{e}"
        );
        assert_eq!(
            invite_example(Language::En, &company(&[])),
            "invite Lin to the company"
        );
        for (lang, snap) in [(Language::ZhCn, &mixed), (Language::En, &en)] {
            let e = invite_example(lang, snap);
            let p = parse_rules(&e);
            assert_eq!(p.intents[0].kind, IntentKind::InvitePerson, "{e}");
            assert!(p.intents[0].is_confident(), "{e}");
        }
    }

    #[test]
    fn hire_examples_never_name_a_department_the_company_lacks() {
        let e = hire_example(Language::ZhCn, &company(&["Engineering", "Sales"]));
        assert_eq!(e, "给Engineering招一个测试工程师");
        let e = hire_example(Language::En, &company(&["工程部", "市场部"]));
        assert_eq!(e, "hire a QA engineer for 工程部");
        assert_eq!(
            hire_example(Language::En, &company(&[])),
            "hire a QA engineer"
        );
    }

    #[test]
    fn new_names_avoid_people_already_there() {
        let taken = vec!["Alice Chen".to_owned(), "bob martin".to_owned()];
        assert_eq!(next_name(Language::En, &taken), "Carol Diaz");
        let all: Vec<String> = NAMES_ZH.iter().map(|n| (*n).to_owned()).collect();
        assert_eq!(next_name(Language::ZhCn, &all), "张伟 2");
    }
}
