//! Issue 37: a typed yes or no decides the card that waits (as its buttons would), in both
//! languages and in the rule tier; department names match across languages; the
//! fallback's example works in the company it is given in; change lines speak the
//! company's language.

use cubicle_core::gateway::Purpose;
use cubicle_core::secretary::actions::{ActionDto, ActionStatus, Proposal};
use cubicle_core::secretary::{IntentKind, Tier};
use cubicle_core::types::*;
use wiremock::MockServer;

use crate::util::TestCompany;

const YES_EN: &[&str] = &[
    "yes",
    "Yes!",
    "YES.",
    "ok",
    "OK",
    "okay",
    "Okay.",
    "go ahead",
    "Go ahead!",
    "confirm",
    "Confirm.",
    "sure",
    "Sure!",
    "do it",
    "  yes  ",
];
const YES_ZH: &[&str] = &[
    "确认",
    "确认！",
    "确认。",
    " 确认 ",
    "好的",
    "好的！",
    "好",
    "可以",
    "行",
    "是的",
    "没问题",
    "没问题！",
];
const NO_EN: &[&str] = &["no", "No.", "cancel", "Cancel!", "nope"];
const NO_ZH: &[&str] = &["取消", "取消！", "算了", "不要", "不用了", "不用了。"];

/// A company in `lang` whose new hires introduce themselves through a scripted model
/// (not the built-in one: the test hires dozens of people).
async fn company(lang: Language) -> (TestCompany, MockServer) {
    let model = crate::util::model_answering("Hello everyone, glad to be here!").await;
    let co = TestCompany::new().await;
    co.speak(lang).await;
    co.route_to(&model.uri(), Purpose::Thought).await;
    (co, model)
}

async fn headcount(co: &TestCompany) -> usize {
    co.core.org.snapshot().await.unwrap().employees.len()
}

/// The card as it stands now (the history is what the page shows).
async fn card(co: &TestCompany, id: i32) -> ActionDto {
    co.core
        .secretary
        .history()
        .await
        .unwrap()
        .into_iter()
        .flat_map(|m| m.actions)
        .find(|a| a.id == id)
        .expect("the card is in the history")
}

/// One hire card proposed (nothing applied yet); its id.
async fn one_hire_card(co: &TestCompany, ask: &str) -> i32 {
    let t = co.core.secretary.say(ask, false).await.unwrap();
    assert_eq!(t.reply.actions.len(), 1, "{}", t.reply.text);
    assert_eq!(t.reply.actions[0].status, ActionStatus::Proposed);
    t.reply.actions[0].id
}

#[tokio::test]
async fn a_typed_yes_confirms_the_one_waiting_card_in_english() {
    let (co, _model) = company(Language::En).await;
    let eng = co.dept("Engineering", None).await;
    for word in YES_EN.iter().chain(YES_ZH) {
        let before = headcount(&co).await;
        let id = one_hire_card(&co, "hire a QA engineer for Engineering").await;
        let t = co.core.secretary.say(word, false).await.unwrap();
        // The rule tier answered: no model was asked, nothing new proposed.
        assert_eq!(t.parse.tier, Tier::Rules, "{word:?}");
        assert_eq!(t.parse.intents[0].kind, IntentKind::Approve, "{word:?}");
        assert!(t.reply.actions.is_empty(), "{word:?}");
        let c = card(&co, id).await;
        assert_eq!(
            c.status,
            ActionStatus::Applied,
            "{word:?}: {}",
            t.reply.text
        );
        assert_eq!(
            headcount(&co).await,
            before + 1,
            "{word:?}: the employee exists"
        );
        let Proposal::Hire { name, .. } = &c.proposal else {
            panic!("a hire")
        };
        let snap = co.core.org.snapshot().await.unwrap();
        let hired = snap.employees.iter().find(|e| &e.name == name).unwrap();
        assert_eq!(hired.department_id, Some(eng.id));
        assert_eq!(
            t.reply.text,
            format!("Done: +1 QA Engineer ({name}) → Engineering"),
            "{word:?}"
        );
    }
}

#[tokio::test]
async fn a_typed_yes_confirms_the_one_waiting_card_in_chinese() {
    let (co, _model) = company(Language::ZhCn).await;
    co.dept("工程部", None).await;
    for word in YES_ZH.iter().chain(YES_EN) {
        let before = headcount(&co).await;
        let id = one_hire_card(&co, "给工程部招一个测试工程师").await;
        let t = co.core.secretary.say(word, false).await.unwrap();
        assert_eq!(t.parse.tier, Tier::Rules, "{word:?}");
        let c = card(&co, id).await;
        assert_eq!(
            c.status,
            ActionStatus::Applied,
            "{word:?}: {}",
            t.reply.text
        );
        assert_eq!(headcount(&co).await, before + 1, "{word:?}");
        let Proposal::Hire { name, .. } = &c.proposal else {
            panic!("a hire")
        };
        assert_eq!(
            t.reply.text,
            format!("已确认：+1 测试工程师（{name}） → 工程部"),
            "{word:?}"
        );
    }
}

#[tokio::test]
async fn a_typed_no_cancels_the_one_waiting_card_in_both_languages() {
    for (lang, dept, ask, done) in [
        (
            Language::En,
            "Engineering",
            "hire a QA engineer for Engineering",
            "Cancelled: ",
        ),
        (
            Language::ZhCn,
            "工程部",
            "给工程部招一个测试工程师",
            "已取消：",
        ),
    ] {
        let (co, _model) = company(lang).await;
        co.dept(dept, None).await;
        for word in NO_EN.iter().chain(NO_ZH) {
            let id = one_hire_card(&co, ask).await;
            let t = co.core.secretary.say(word, false).await.unwrap();
            assert_eq!(t.parse.intents[0].kind, IntentKind::Reject, "{word:?}");
            assert_eq!(
                card(&co, id).await.status,
                ActionStatus::Cancelled,
                "{word:?}"
            );
            assert!(t.reply.text.starts_with(done), "{word:?}: {}", t.reply.text);
            assert_eq!(headcount(&co).await, 0, "{word:?}: nobody was hired");
        }
    }
}

#[tokio::test]
async fn with_several_cards_waiting_a_typed_yes_asks_which_and_changes_nothing() {
    for (lang, dept, ask, words, asks) in [
        (
            Language::En,
            "Engineering",
            "hire two QA engineers for Engineering",
            ["yes", "cancel"],
            "which one",
        ),
        (
            Language::ZhCn,
            "工程部",
            "给工程部招两个测试工程师",
            ["确认", "取消"],
            "哪一张",
        ),
    ] {
        let (co, _model) = company(lang).await;
        co.dept(dept, None).await;
        let t = co.core.secretary.say(ask, false).await.unwrap();
        assert_eq!(t.reply.actions.len(), 2, "{}", t.reply.text);
        for word in words {
            let r = co.core.secretary.say(word, false).await.unwrap();
            assert!(r.reply.text.contains(asks), "{word:?}: {}", r.reply.text);
            // Both are listed, by name, in the company's language.
            for a in &t.reply.actions {
                let Proposal::Hire { name, .. } = &a.proposal else {
                    panic!("a hire")
                };
                assert!(r.reply.text.contains(name.as_str()), "{}", r.reply.text);
                assert_eq!(card(&co, a.id).await.status, ActionStatus::Proposed);
            }
            assert_eq!(headcount(&co).await, 0, "nothing changed");
        }
    }
}

#[tokio::test]
async fn with_nothing_waiting_a_typed_yes_says_so() {
    for (lang, words, says) in [
        (
            Language::En,
            ["yes", "no"],
            "There is nothing waiting for your confirmation right now.",
        ),
        (Language::ZhCn, ["确认", "算了"], "目前没有等你确认的事项。"),
    ] {
        let (co, _model) = company(lang).await;
        co.dept("Engineering", None).await;
        for word in words {
            let t = co.core.secretary.say(word, false).await.unwrap();
            assert_eq!(t.reply.text, says, "{word:?}");
        }
        // A decided card is no longer waiting.
        let id = one_hire_card(&co, "hire a QA engineer for Engineering").await;
        co.core.secretary.confirm(id, None).await.unwrap();
        let t = co.core.secretary.say(words[0], false).await.unwrap();
        assert_eq!(t.reply.text, says);
        assert_eq!(headcount(&co).await, 1);
    }
}

#[tokio::test]
async fn department_names_match_across_languages() {
    // A Chinese company whose department is called "Engineering".
    let (co, _model) = company(Language::ZhCn).await;
    let eng = co.dept("Engineering", None).await;
    co.dept("Sales", None).await;
    let t = co
        .core
        .secretary
        .say("给工程部招一个测试工程师", false)
        .await
        .unwrap();
    assert_eq!(t.reply.actions.len(), 1, "{}", t.reply.text);
    assert!(matches!(
        &t.reply.actions[0].proposal,
        Proposal::Hire { department_id: Some(d), title, .. } if *d == eng.id && title == "测试工程师"
    ));
    let t = co
        .core
        .secretary
        .say("研发部现在有几个人", false)
        .await
        .unwrap();
    assert!(
        t.reply.text.starts_with("Engineering有"),
        "{}",
        t.reply.text
    );

    // An English company whose department is called "工程部".
    let (co, _model) = company(Language::En).await;
    let eng = co.dept("工程部", None).await;
    co.dept("市场部", None).await;
    let t = co
        .core
        .secretary
        .say("hire a tester for Engineering", false)
        .await
        .unwrap();
    assert_eq!(t.reply.actions.len(), 1, "{}", t.reply.text);
    assert!(matches!(
        &t.reply.actions[0].proposal,
        Proposal::Hire { department_id: Some(d), .. } if *d == eng.id
    ));
    // A name of no department of the company is still a question, never a guess.
    let t = co
        .core
        .secretary
        .say("hire a tester for Legal", false)
        .await
        .unwrap();
    assert!(t.reply.actions.is_empty(), "{}", t.reply.text);
    assert!(t.reply.text.contains("工程部"), "{}", t.reply.text);
}

/// The example between the quotes of a reply ("…: \"hire …\"." or "…：“招…”。").
fn quoted(text: &str) -> String {
    let (open, close) = if text.contains('“') {
        ('“', '”')
    } else {
        ('"', '"')
    };
    let start = text.find(open).expect("an example") + open.len_utf8();
    let end = start + text[start..].find(close).expect("closing quote");
    text[start..end].to_owned()
}

#[tokio::test]
async fn the_fallback_example_works_in_the_company_it_is_given_in() {
    let cases: &[(Language, &[&str])] = &[
        (Language::En, &["Engineering", "Marketing"]),
        (Language::ZhCn, &["Engineering", "Marketing"]),
        (Language::ZhCn, &["工程部", "市场部"]),
        (Language::En, &["工程部", "市场部"]),
        (Language::ZhCn, &["研发", "销售"]),
        (
            Language::ZhCn,
            &["研究部", "设计部", "Growth", "Documentation"],
        ),
        (
            Language::En,
            &["Research", "Design", "Growth", "Documentation"],
        ),
        (Language::En, &[]),
        (Language::ZhCn, &[]),
        (Language::En, &["Platform"]),
    ];
    for (lang, departments) in cases {
        let (co, _model) = company(*lang).await;
        for d in *departments {
            co.dept(d, None).await;
        }
        let t = co
            .core
            .secretary
            .say("blorp the frobnicator", false)
            .await
            .unwrap();
        let example = quoted(&t.reply.text);
        // Department names are the company's own; the words around them are its language.
        let words = departments
            .iter()
            .fold(example.clone(), |e, d| e.replace(d, ""));
        let zh = words
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c));
        assert_eq!(
            zh,
            *lang == Language::ZhCn,
            "{lang:?} {departments:?}: the example is in the company's language: {example}"
        );
        // Said as it is, it proposes something real in this company.
        let tried = co.core.secretary.say(&example, false).await.unwrap();
        assert_eq!(
            tried.reply.actions.len(),
            1,
            "{lang:?} {departments:?}: {example:?} → {}",
            tried.reply.text
        );
        let snap = co.core.org.snapshot().await.unwrap();
        match &tried.reply.actions[0].proposal {
            Proposal::Hire { department_id, .. } => {
                if let Some(d) = department_id {
                    assert!(snap.departments.iter().any(|x| x.id == *d));
                }
            }
            Proposal::CreateDepartment { .. } => {}
            other => panic!("{example:?} proposed {other:?}"),
        }
    }
}

#[tokio::test]
async fn change_lines_speak_the_company_language() {
    let (co, _model) = company(Language::ZhCn).await;
    co.dept("Engineering", None).await;
    let s = &co.core.secretary;
    let t = s.say("新建一个市场部", false).await.unwrap();
    let applied = s.confirm(t.reply.actions[0].id, None).await.unwrap();
    assert_eq!(applied.diff.as_deref(), Some("+ 部门 市场部"));

    // A hire proposed while the company spoke English reads in Chinese once applied.
    co.speak(Language::En).await;
    let t = s
        .say("hire a QA engineer named Bob for Engineering", false)
        .await
        .unwrap();
    co.speak(Language::ZhCn).await;
    let applied = s.confirm(t.reply.actions[0].id, None).await.unwrap();
    assert_eq!(
        applied.diff.as_deref(),
        Some("+1 测试工程师（Bob） → Engineering")
    );
    let t = s.say("把Bob调到市场部", false).await.unwrap();
    let applied = s.confirm(t.reply.actions[0].id, None).await.unwrap();
    assert_eq!(applied.diff.as_deref(), Some("Bob：Engineering → 市场部"));

    // An English company keeps its English lines.
    let (co, _model) = company(Language::En).await;
    let t = co
        .core
        .secretary
        .say("create a department called Marketing", false)
        .await
        .unwrap();
    let applied = co
        .core
        .secretary
        .confirm(t.reply.actions[0].id, None)
        .await
        .unwrap();
    assert_eq!(applied.diff.as_deref(), Some("+ department Marketing"));
}

/// The first-run examples of the Secretary page (`ui/src/i18n/*.json`,
/// `secretary.examples`), filled the way `ui/src/secretary/format.ts` fills them.
fn ui_examples(file: &str) -> serde_json::Value {
    let path = format!(
        "{}/../../ui/src/i18n/{file}.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let all: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("the UI's strings"))
            .expect("json");
    all["secretary"]["examples"].clone()
}

fn fill(examples: &serde_json::Value, key: &str, values: &[(&str, &str)]) -> String {
    let mut s = examples[key]
        .as_str()
        .unwrap_or_else(|| panic!("no example {key}"))
        .to_owned();
    for (k, v) in values {
        s = s.replace(&format!("{{{{{k}}}}}"), v);
    }
    assert!(!s.contains("{{"), "{key}: {s}");
    s
}

async fn proposes(co: &TestCompany, text: &str) -> Proposal {
    let t = co.core.secretary.say(text, false).await.unwrap();
    assert_eq!(t.reply.actions.len(), 1, "{text:?} → {}", t.reply.text);
    t.reply.actions[0].proposal.clone()
}

async fn answers(co: &TestCompany, text: &str, kind: IntentKind) -> String {
    let t = co.core.secretary.say(text, false).await.unwrap();
    assert_eq!(t.parse.intents[0].kind, kind, "{text:?} → {}", t.reply.text);
    assert!(t.reply.actions.is_empty(), "{text:?}");
    t.reply.text
}

#[tokio::test]
async fn the_first_run_examples_of_the_ui_work_in_the_company() {
    for (lang, file, fresh, person) in [
        (Language::En, "en", "Research", "Alice Chen"),
        (Language::ZhCn, "zh-CN", "研究部", "张伟"),
    ] {
        let ex = ui_examples(file);
        for (a, b) in [("Engineering", "Marketing"), ("工程部", "市场部")] {
            let (co, _model) = company(lang).await;
            let da = co.dept(a, None).await;
            let db = co.dept(b, None).await;
            co.hire(person, "QA Engineer", Some(da.id)).await;
            let hire = fill(&ex, "hire", &[("department", a)]);
            assert!(matches!(
                proposes(&co, &hire).await,
                Proposal::Hire { department_id: Some(d), .. } if d == da.id
            ));
            let moving = fill(&ex, "move", &[("name", person), ("department", b)]);
            assert!(matches!(
                proposes(&co, &moving).await,
                Proposal::Transfer { department_id, .. } if department_id == db.id
            ));
            let status = fill(&ex, "personStatus", &[("name", person)]);
            let said = answers(&co, &status, IntentKind::AskStatus).await;
            assert!(said.contains(a), "{status:?} → {said}");
            // Its state in the company's language too.
            let state = lang.pick("Status: idle", "状态：空闲");
            assert!(said.contains(&state), "{status:?} → {said}");
            let who = fill(&ex, "departmentStatus", &[("department", a)]);
            let said = answers(&co, &who, IntentKind::AskStatus).await;
            assert!(said.contains(person), "{who:?} → {said}");
            let budget = fill(&ex, "budget", &[]);
            assert!(matches!(
                proposes(&co, &budget).await,
                Proposal::SetPolicy { daily_budget_usd: Some(x), .. } if (x - 5.0).abs() < 1e-9
            ));
            let create = fill(&ex, "createDepartment", &[("name", fresh)]);
            assert!(matches!(
                proposes(&co, &create).await,
                Proposal::CreateDepartment { name, .. } if name == fresh
            ));
        }
        // A company with no department yet: a hire that needs none.
        let (co, _model) = company(lang).await;
        let anywhere = fill(&ex, "hireAnywhere", &[]);
        assert!(matches!(
            proposes(&co, &anywhere).await,
            Proposal::Hire {
                department_id: None,
                ..
            }
        ));
    }
}
