//! The words the rules know: role names (mapped onto the role catalogue), common
//! department names, policy levels, pronouns and the Chinese verbs that end a name.
//! Data, not logic: a new synonym is one line here.

use std::sync::LazyLock;

use super::normalize::{edit_distance, is_han};
use crate::roles::CATALOGUE;
use crate::types::ApprovalPolicy;

/// Extra ways of naming a catalogue role, by catalogue key. The catalogue's own English
/// title, Chinese title and key are always included.
#[rustfmt::skip]
const ROLE_SYNONYMS: &[(&str, &[&str])] = &[
    (
        "frontend_engineer",
        &[
            "frontend engineer", "front-end engineer", "front end engineer",
            "frontend developer", "front-end developer", "front end developer",
            "frontend dev", "frontend", "front-end", "front end", "react developer",
            "web developer", "前端工程师", "前端开发", "前端", "前段",
        ],
    ),
    (
        "backend_engineer",
        &[
            "backend engineer", "back-end engineer", "back end engineer",
            "backend developer", "back-end developer", "back end developer", "backend dev",
            "backend", "back-end", "back end", "server engineer", "后端工程师", "后端开发",
            "后端", "后台开发",
        ],
    ),
    (
        "fullstack_engineer",
        &[
            "full-stack engineer", "full stack engineer", "fullstack engineer",
            "full-stack developer", "full stack developer", "fullstack developer",
            "full-stack dev", "fullstack dev", "full-stack", "full stack", "fullstack",
            "全栈工程师", "全栈开发", "全栈",
        ],
    ),
    (
        "mobile_engineer",
        &[
            "mobile engineer", "mobile developer", "mobile dev", "ios developer",
            "ios engineer", "ios dev", "android developer", "android engineer",
            "android dev", "app developer", "移动端工程师", "移动端开发", "移动开发", "移动端",
            "安卓开发", "安卓工程师", "ios开发", "android开发", "客户端开发",
        ],
    ),
    (
        "devops_engineer",
        &[
            "devops engineer", "devops", "sre", "site reliability engineer", "ops engineer",
            "infrastructure engineer", "运维工程师", "运维",
        ],
    ),
    (
        "qa_engineer",
        &[
            "qa engineer", "qa", "quality assurance engineer", "quality assurance",
            "test engineer", "tester", "测试工程师", "测试开发", "测试",
        ],
    ),
    (
        "data_scientist",
        &[
            "data scientist", "data analyst", "ml engineer", "machine learning engineer",
            "数据科学家", "数据分析师", "算法工程师", "数据分析",
        ],
    ),
    (
        "ui_designer",
        &[
            "ui/ux designer", "ux designer", "ui designer", "product designer",
            "visual designer", "designer", "ui/ux设计师", "ui设计师", "ux设计师", "交互设计师",
            "视觉设计师", "设计师", "美工", "设计",
        ],
    ),
    (
        "product_manager",
        &["product manager", "product owner", "pm", "产品经理", "产品"],
    ),
    (
        "project_manager",
        &["project manager", "scrum master", "项目经理"],
    ),
    (
        "researcher",
        &["researcher", "research analyst", "research scientist", "研究员"],
    ),
    (
        "technical_writer",
        &[
            "technical writer", "tech writer", "documentation writer", "docs writer",
            "技术文档工程师", "技术文档", "技术写作",
        ],
    ),
    (
        "content_writer",
        &["content writer", "copywriter", "writer", "文案策划", "文案", "写手"],
    ),
    (
        "marketing_manager",
        &[
            "marketing manager", "marketer", "marketing person", "marketing people",
            "市场经理", "营销经理", "市场专员", "营销",
        ],
    ),
    (
        "sales_representative",
        &[
            "sales representative", "sales rep", "salesperson", "salespeople",
            "sales person", "sales people", "account executive", "rep", "销售代表",
            "销售人员", "销售",
        ],
    ),
    (
        "customer_support",
        &[
            "customer support specialist", "customer support", "customer service",
            "support specialist", "support engineer", "support agent", "客服专员", "客服",
        ],
    ),
    (
        "operations_manager",
        &["operations manager", "ops manager", "运营经理", "运营"],
    ),
    (
        "legal_counsel",
        &["legal counsel", "lawyer", "attorney", "counsel", "法务顾问", "法务", "律师"],
    ),
    (
        "finance_analyst",
        &[
            "finance analyst", "financial analyst", "accountant", "bookkeeper",
            "财务分析师", "财务", "会计",
        ],
    ),
    (
        "hr_specialist",
        &[
            "hr specialist", "hr person", "hr", "recruiter", "people ops", "人事专员", "人事",
        ],
    ),
];

/// Words that name some engineer without saying which kind: a hire with only these
/// still needs a question.
#[rustfmt::skip]
pub const GENERIC_ROLES: &[&str] = &[
    "engineer", "developer", "dev", "programmer", "coder", "工程师", "程序员", "开发",
];

/// A Chinese role word directly followed by one of these is a department ("设计部").
const DEPT_SUFFIX_CHARS: &[char] = &['部', '组', '团', '中', '门', '线'];

struct RoleAlias {
    alias: String,
    title: &'static str,
    ascii: bool,
}

static ROLE_ALIASES: LazyLock<Vec<RoleAlias>> = LazyLock::new(|| {
    let mut out = Vec::new();
    for role in CATALOGUE.iter() {
        let mut push = |a: &str| {
            let alias = a.to_lowercase();
            if !alias.is_empty() && !out.iter().any(|x: &RoleAlias| x.alias == alias) {
                out.push(RoleAlias {
                    ascii: alias.is_ascii(),
                    alias,
                    title: role.title(),
                });
            }
        };
        push(role.title());
        push(role.title_zh());
        push(&role.key.replace('_', " "));
        if let Some((_, syn)) = ROLE_SYNONYMS.iter().find(|(k, _)| *k == role.key) {
            for s in *syn {
                push(s);
            }
        }
    }
    // Longest first: "frontend engineer" before "frontend", "产品经理" before "产品".
    out.sort_by_key(|a| std::cmp::Reverse(a.alias.chars().count()));
    out
});

/// A role named in the text: the catalogue title and where the words were.
#[derive(Clone, Debug, PartialEq)]
pub struct RoleMention {
    pub title: &'static str,
    pub start: usize,
    pub end: usize,
}

fn ascii_word_char(c: Option<char>) -> bool {
    c.is_some_and(|c| c.is_ascii_alphanumeric())
}

/// Every role named in `text`, left to right, longest alias first, not overlapping.
/// English aliases match whole words (a plural "s"/"es" is allowed); a Chinese alias
/// followed by a department suffix ("设计部") is a department, not a role.
pub fn find_roles(text: &str) -> Vec<RoleMention> {
    let lower = text.to_ascii_lowercase();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lower.len() {
        if !lower.is_char_boundary(i) {
            i += 1;
            continue;
        }
        let rest = &lower[i..];
        let before = lower[..i].chars().next_back();
        let mut found = None;
        for a in ROLE_ALIASES.iter() {
            let Some(after_alias) = rest.strip_prefix(a.alias.as_str()) else {
                continue;
            };
            let end = if a.ascii {
                if ascii_word_char(before) {
                    continue;
                }
                let plural = ["es", "s"]
                    .into_iter()
                    .find(|p| {
                        after_alias.starts_with(p)
                            && !ascii_word_char(after_alias[p.len()..].chars().next())
                    })
                    .map_or(0, str::len);
                if plural == 0 && ascii_word_char(after_alias.chars().next()) {
                    continue;
                }
                i + a.alias.len() + plural
            } else {
                if after_alias.starts_with(DEPT_SUFFIX_CHARS) {
                    continue;
                }
                i + a.alias.len()
            };
            found = Some(RoleMention {
                title: a.title,
                start: i,
                end,
            });
            break;
        }
        match found {
            Some(m) => {
                i = m.end;
                out.push(m);
            }
            None => i += rest.chars().next().map_or(1, char::len_utf8),
        }
    }
    out
}

/// A role word with one typo ("desginer", "reasearcher"): English words of 6+ letters
/// within edit distance 1 of a single-word alias.
pub fn find_role_fuzzy(text: &str) -> Option<RoleMention> {
    let lower = text.to_ascii_lowercase();
    for (at, word) in ascii_words(&lower) {
        if word.len() < 6 {
            continue;
        }
        let stem = word.strip_suffix('s').unwrap_or(word);
        let hit = ROLE_ALIASES.iter().find(|a| {
            a.ascii
                && !a.alias.contains(' ')
                && a.alias.len() >= 6
                && edit_distance(stem, &a.alias) <= 1
        });
        if let Some(a) = hit {
            return Some(RoleMention {
                title: a.title,
                start: at,
                end: at + word.len(),
            });
        }
    }
    None
}

/// The runs of ASCII letters in `text` with their byte offsets. (Counting one byte per
/// separator instead put a mention's start inside a Chinese character; found by fuzzing.)
fn ascii_words(text: &str) -> impl Iterator<Item = (usize, &str)> {
    let mut start = None;
    text.char_indices()
        .chain(std::iter::once((text.len(), ' ')))
        .filter_map(move |(i, c)| {
            if c.is_ascii_alphabetic() {
                start.get_or_insert(i);
                None
            } else {
                start.take().map(|s| (s, &text[s..i]))
            }
        })
}

/// Whether a generic "engineer"/"程序员" word is present (a hire that needs a question).
pub fn has_generic_role(text: &str) -> bool {
    let lower = text.to_ascii_lowercase();
    GENERIC_ROLES.iter().any(|g| {
        if g.is_ascii() {
            lower
                .split(|c: char| !c.is_ascii_alphanumeric())
                .any(|w| w == *g || w.strip_suffix('s') == Some(g))
        } else {
            lower.contains(g)
        }
    })
}

/// Department names a company is likely to have; lets the rules tell "report on Sales"
/// (a department) from "report on Alice" (a person) without the database.
#[rustfmt::skip]
pub const DEPARTMENT_WORDS: &[&str] = &[
    "engineering", "product", "sales", "marketing", "design", "finance", "legal", "support",
    "research", "operations", "ops", "hr", "data", "growth", "docs", "infra",
    "infrastructure", "it", "qa", "r&d", "mobile", "platform", "security",
    "customer success", "business development", "creative", "revenue", "people", "admin",
    "accounting", "content", "communications", "partnerships", "analytics", "dev", "devops",
];

pub fn is_department_word(s: &str) -> bool {
    let l = s.trim().to_lowercase();
    DEPARTMENT_WORDS.contains(&l.as_str())
}

/// Common department names in both languages, one group per kind of department: a
/// department called by one name is found by any other of its group ("给工程部招人" in a
/// company whose department is "Engineering", "hire for Engineering" where it is "工程部").
/// Compared without case, spaces or a department ending ("部", "department", "team").
#[rustfmt::skip]
const DEPARTMENT_GROUPS: &[&[&str]] = &[
    &["engineering", "eng", "tech", "technology", "development", "dev", "r&d", "rnd", "工程", "研发", "技术", "开发"],
    &["product", "products", "product management", "产品"],
    &["design", "ux", "ui", "ui/ux", "设计"],
    &["marketing", "市场", "营销", "市场营销"],
    &["sales", "销售"],
    &["finance", "accounting", "财务", "会计"],
    &["legal", "法务", "法律"],
    &["support", "customer support", "customer service", "客服", "客户支持", "客户服务"],
    &["research", "研究"],
    &["operations", "ops", "运营"],
    &["hr", "human resources", "people ops", "人事", "人力资源", "人力"],
    &["data", "analytics", "data science", "数据", "数据分析"],
    &["qa", "quality", "quality assurance", "testing", "test", "测试", "质量", "质量保证"],
    &["security", "安全"],
    &["it", "信息技术"],
    &["infrastructure", "infra", "基础设施", "基础架构"],
    &["platform", "平台"],
    &["growth", "增长"],
    &["content", "内容"],
    &["administration", "admin", "行政"],
    &["customer success", "客户成功"],
    &["business development", "bd", "商务", "商务拓展"],
    &["communications", "pr", "public relations", "公关"],
    &["mobile", "移动", "移动端"],
    &["devops", "sre", "运维"],
    &["procurement", "purchasing", "采购"],
    &["documentation", "docs", "文档"],
];

/// A department name as the groups compare it: "the Engineering department" → "engineering",
/// "工程部" → "工程", "Customer Support team" → "customersupport".
fn department_key(name: &str) -> String {
    let mut s = name.trim().to_lowercase();
    if let Some(rest) = s.strip_prefix("the ") {
        s = rest.to_owned();
    }
    for end in [
        " department",
        " dept",
        " team",
        " division",
        " group",
        " org",
        "部门",
        "事业部",
        "部",
        "中心",
        "团队",
        "组",
    ] {
        if let Some(rest) = s.strip_suffix(end)
            && !rest.trim().is_empty()
        {
            s = rest.to_owned();
            break;
        }
    }
    s.chars()
        .filter(|c| !c.is_whitespace() && !"-_'.".contains(*c))
        .collect()
}

/// Whether `query` names the department called `name`: the same name without its ending,
/// or another name of its group in either language.
pub fn names_department(query: &str, name: &str) -> bool {
    let (q, n) = (department_key(query), department_key(name));
    if q.is_empty() || n.is_empty() {
        return false;
    }
    q == n
        || DEPARTMENT_GROUPS.iter().any(|g| {
            let in_group = |k: &str| g.iter().any(|w| department_key(w) == k);
            in_group(&q) && in_group(&n)
        })
}

/// English words that end a department name ("the Docs team").
pub const DEPARTMENT_NOUNS: &[&str] = &["department", "dept", "team", "group", "division", "org"];

/// Chinese endings that make a word a department ("市场部", "设计组", "产品中心").
pub const CN_DEPARTMENT_ENDINGS: &[&str] = &["部门", "事业部", "部", "组", "团队", "中心"];

pub fn looks_like_cn_department(s: &str) -> bool {
    let s = s.trim();
    has_han_text(s) && CN_DEPARTMENT_ENDINGS.iter().any(|e| s.ends_with(e)) && !s.ends_with("全部")
}

fn has_han_text(s: &str) -> bool {
    s.chars().any(is_han)
}

/// Words that stand for a person but are no name: the secretary has to ask or use context.
#[rustfmt::skip]
pub const PRONOUNS: &[&str] = &[
    "me", "us", "him", "her", "them", "it", "you", "i", "we", "he", "she", "they", "this",
    "that", "someone", "somebody", "anyone", "anybody", "everyone", "everybody", "people",
    "one", "the", "a", "an", "rid", "他", "她", "它", "他们", "她们", "人", "谁", "某人",
    "别人", "个人", "大家", "你", "我", "我们", "有人",
];

pub fn is_pronoun(s: &str) -> bool {
    let l = s.trim().to_lowercase();
    PRONOUNS.contains(&l.as_str())
}

/// Words meaning "the whole company": a status question with no particular subject.
#[rustfmt::skip]
pub const EVERYONE: &[&str] = &[
    "everyone", "everybody", "the team", "the company", "the whole company", "company",
    "people", "we", "us", "all", "大家", "大家都", "所有人", "公司", "全公司", "整个公司",
    "现在公司", "公司现在", "团队", "我们",
];

/// Chinese verbs a task description starts with: where an unspaced name ends in
/// "让张伟调研一下竞品".
#[rustfmt::skip]
pub const CN_TASK_VERBS: &[&str] = &[
    "调研", "调查", "研究", "写", "修", "改", "整理", "做", "准备", "评估", "优化", "看",
    "查", "跟进", "负责", "处理", "分析", "设计", "开发", "测试", "了解", "联系", "出",
    "画", "搞", "弄", "完成", "更新", "检查", "审核", "审查", "统计", "总结", "汇总", "对接",
    "去", "帮", "把", "给", "重构", "实现", "修复", "排查", "起草", "翻译", "发", "提交",
    "部署", "上线", "学习", "想", "考虑", "规划", "策划", "安排", "组织", "编写", "撰写",
    "读", "回复", "拟", "列", "找", "算", "核对", "对比", "比较", "收集", "梳理", "跑",
    "试", "重写", "补", "搭", "建", "配置", "迁移", "录", "剪", "拍", "联络", "催",
];

pub fn starts_with_task_verb(s: &str) -> bool {
    let s = s.trim_start();
    CN_TASK_VERBS.iter().any(|v| s.starts_with(v))
}

/// The policy levels named in `text`, each once, in SPEC §8 terms.
pub fn levels_in(text: &str) -> Vec<ApprovalPolicy> {
    const TABLE: &[(&str, ApprovalPolicy)] = &[
        ("key steps", ApprovalPolicy::KeySteps),
        ("key_steps", ApprovalPolicy::KeySteps),
        ("key-steps", ApprovalPolicy::KeySteps),
        ("important steps", ApprovalPolicy::KeySteps),
        ("关键步骤", ApprovalPolicy::KeySteps),
        ("关键节点", ApprovalPolicy::KeySteps),
        ("关键", ApprovalPolicy::KeySteps),
        ("auto", ApprovalPolicy::Auto),
        ("autopilot", ApprovalPolicy::Auto),
        ("自动", ApprovalPolicy::Auto),
        ("不用问我", ApprovalPolicy::Auto),
        ("manual", ApprovalPolicy::Manual),
        ("everything myself", ApprovalPolicy::Manual),
        ("everything by me", ApprovalPolicy::Manual),
        ("手动", ApprovalPolicy::Manual),
        ("人工", ApprovalPolicy::Manual),
        ("都要我", ApprovalPolicy::Manual),
        ("先问我", ApprovalPolicy::Manual),
        ("先问过我", ApprovalPolicy::Manual),
        ("都需要我", ApprovalPolicy::Manual),
        ("都得我", ApprovalPolicy::Manual),
    ];
    let lower = text.to_lowercase();
    let mut out: Vec<ApprovalPolicy> = Vec::new();
    let mut consumed = lower.clone();
    for (word, level) in TABLE {
        if consumed.contains(word) {
            consumed = consumed.replace(word, " ");
            if !out.contains(level) {
                out.push(*level);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn titles(text: &str) -> Vec<&'static str> {
        find_roles(text).into_iter().map(|m| m.title).collect()
    }

    #[test]
    fn roles_map_onto_the_catalogue_in_both_languages() {
        assert_eq!(titles("帮我招一个测试"), ["QA Engineer"]);
        assert_eq!(titles("两个前端"), ["Frontend Engineer"]);
        assert_eq!(titles("hire a designer"), ["UI/UX Designer"]);
        assert_eq!(titles("three Backend Developers"), ["Backend Engineer"]);
        assert_eq!(
            titles("招两个前端和一个后端"),
            ["Frontend Engineer", "Backend Engineer"]
        );
        assert_eq!(titles("产品经理"), ["Product Manager"]);
    }

    #[test]
    fn department_words_are_not_roles() {
        assert!(titles("放到设计部").is_empty());
        assert_eq!(titles("招聘三名销售到销售部"), ["Sales Representative"]);
        assert!(titles("the salesforce api").is_empty());
        assert!(titles("a desktop app").is_empty());
    }

    #[test]
    fn one_typo_is_forgiven_in_long_words() {
        assert_eq!(
            find_role_fuzzy("hire a desginer").map(|m| m.title),
            Some("UI/UX Designer")
        );
        assert!(find_role_fuzzy("hire a dancer").is_none());
    }

    #[test]
    fn a_fuzzy_mention_after_chinese_text_starts_where_the_word_does() {
        let text = "招一个 desginer 吧";
        let m = find_role_fuzzy(text).expect("a designer");
        assert_eq!(&text[m.start..m.end], "desginer");
        // The input the fuzzer found: the rule tier must not panic on it.
        let found = String::from_utf8_lossy(&[
            0xe6, 0x8b, 0x9b, 0xe4, 0xb8, 0x80, 0xe5, 0xe4, 0xb8, 0xaa, 0xe8, 0xf0, 0xae, 0x04, 0,
            0, 0, 0, 0, 0x63, 0x9d, 0xe5, 0x6f, 0x75, 0x6e, 0x73, 0x65, 0x6c, 0xe7, 0xae, 0x97,
            0xe4, 0xb9, 0x9d, 0xe5, 0x85, 0x83,
        ])
        .into_owned();
        let p = crate::secretary::parse_rules(&found);
        assert!(!p.intents.is_empty());
    }

    #[test]
    fn department_names_match_across_languages() {
        assert!(names_department("工程部", "Engineering"));
        assert!(names_department("Engineering", "工程部"));
        assert!(names_department("研发部", "Engineering"));
        assert!(names_department("the marketing department", "市场部"));
        assert!(names_department("销售部", "Sales"));
        assert!(names_department("customer support", "客服部"));
        assert!(names_department("QA team", "测试组"));
        assert!(!names_department("工程部", "Marketing"));
        assert!(!names_department("市场部", "Sales"));
        assert!(!names_department("部", "Engineering"));
        assert!(!names_department("", "Engineering"));
    }

    #[test]
    fn levels() {
        assert_eq!(
            levels_in("switch approvals to manual"),
            [ApprovalPolicy::Manual]
        );
        assert_eq!(levels_in("审批改成自动"), [ApprovalPolicy::Auto]);
        assert_eq!(
            levels_in("only ask me for key steps"),
            [ApprovalPolicy::KeySteps]
        );
        assert_eq!(levels_in("auto and manual").len(), 2);
    }
}
