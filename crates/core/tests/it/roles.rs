//! Role cards: importing a roster folder (with a malformed card and tools Cubicle does not
//! have), hiring from an imported card by chat in English and Chinese, the card's
//! temperature and retries reaching the model, and export → import giving the same files.
//!
//! The roster in `tests/fixtures/roster` was written for these tests in the agency-agents
//! shape: one Markdown card per role, divisions as folders, a README that is not a card.

use std::path::{Path, PathBuf};

use chrono::TimeDelta;
use cubicle_core::chat::PostMessage;
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::gateway::{CallContext, Purpose};
use cubicle_core::roles::{RoleImport, SaveRoleCard};
use cubicle_core::secretary::actions::{ActionStatus, Proposal};
use cubicle_core::types::Language;
use serde_json::{Value, json};
use wiremock::matchers::method;
use wiremock::{Mock, MockServer, ResponseTemplate};

use crate::util::{TestCompany, scripted_company};

mod archives;

const GROWTH: &str = "marketing/growth-hacker";
const BROKEN: &str = "support/broken-card.md";

fn roster() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures/roster")
}

fn sorted(mut v: Vec<String>) -> Vec<String> {
    v.sort();
    v
}

/// The fixture roster as a first import sees it.
fn assert_first_import(r: &RoleImport) {
    assert_eq!(
        sorted(r.new.clone()),
        vec![
            "engineering/code-reviewer",
            "engineering/incident-responder",
            "marketing/brand-storyteller",
            GROWTH,
            "research/market-researcher",
        ]
    );
    assert!(r.changed.is_empty() && r.unchanged.is_empty(), "{r:?}");
    assert_eq!(r.unreadable.len(), 1, "{r:?}");
    let bad = &r.unreadable[0];
    assert_eq!(
        (bad.file.as_str(), bad.line, bad.key.as_deref()),
        (BROKEN, 4, Some("temperature"))
    );
    assert_eq!(
        bad.to_string(),
        "support/broken-card.md:4 (temperature): \"warm\" is not a number"
    );
    assert_eq!(r.skipped, vec!["README.md"]);
    let unknown: Vec<(&str, Vec<String>)> = r
        .unknown_tools
        .iter()
        .map(|u| (u.key.as_str(), u.tools.clone()))
        .collect();
    assert_eq!(
        unknown,
        vec![
            ("engineering/incident-responder", vec!["Bash".to_owned()]),
            (GROWTH, vec!["WebSearch".to_owned()]),
        ]
    );
}

#[tokio::test]
async fn a_roster_import_previews_then_brings_in_the_readable_cards_once() {
    let co = TestCompany::new().await;
    let built_in = co.core.role_cards().await.unwrap().len();
    assert_eq!(built_in, cubicle_core::roles::CATALOGUE.len());

    let preview = co.core.import_roles(&roster(), true).await.unwrap();
    assert_first_import(&preview);
    assert!(!preview.applied);
    assert_eq!(
        co.core.role_cards().await.unwrap().len(),
        built_in,
        "a dry run writes nothing"
    );

    let done = co.core.import_roles(&roster(), false).await.unwrap();
    assert!(done.applied);
    assert_eq!(
        RoleImport {
            applied: false,
            ..done.clone()
        },
        preview,
        "the import did what the preview said"
    );
    let cards = co.core.role_cards().await.unwrap();
    assert_eq!(cards.len(), built_in + 5);
    let growth = cards.iter().find(|c| c.key == GROWTH).unwrap();
    assert!(!growth.builtin);
    assert_eq!(growth.unknown_tools, vec!["WebSearch"]);
    assert_eq!(growth.card.other_keys, vec!["color", "emoji"]);
    assert!(growth.card.persona.contains("Never buy followers"));

    let again = co.core.import_roles(&roster(), false).await.unwrap();
    assert!(
        again.new.is_empty() && again.changed.is_empty(),
        "{again:?}"
    );
    assert_eq!(again.unchanged.len(), 5);
}

#[tokio::test]
async fn a_card_changed_in_the_folder_shows_as_changed_and_replaces_the_old_one() {
    let co = TestCompany::new().await;
    co.core.import_roles(&roster(), false).await.unwrap();
    let dir = tempfile::tempdir().unwrap();
    let card = dir.path().join("marketing/growth-hacker.md");
    std::fs::create_dir_all(card.parent().unwrap()).unwrap();
    let text = std::fs::read_to_string(roster().join("marketing/growth-hacker.md")).unwrap();
    std::fs::write(&card, text.replace("temperature: 0.6", "temperature: 0.4")).unwrap();

    let r = co.core.import_roles(dir.path(), false).await.unwrap();
    assert_eq!(r.changed, vec![GROWTH]);
    assert!(r.new.is_empty());
    let cards = co.core.role_cards().await.unwrap();
    let growth = cards.iter().find(|c| c.key == GROWTH).unwrap();
    assert_eq!(growth.card.temperature, Some(0.4));
}

/// Every file under `dir`, by its path inside it, with its bytes.
fn tree(dir: &Path) -> Vec<(String, Vec<u8>)> {
    let mut out = Vec::new();
    let mut stack = vec![dir.to_owned()];
    while let Some(d) = stack.pop() {
        for entry in std::fs::read_dir(&d).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else {
                let rel = path.strip_prefix(dir).unwrap().display().to_string();
                out.push((rel, std::fs::read(&path).unwrap()));
            }
        }
    }
    out.sort();
    out
}

#[tokio::test]
async fn export_then_import_gives_back_the_same_files() {
    let a = TestCompany::new().await;
    a.core.import_roles(&roster(), false).await.unwrap();
    let out = tempfile::tempdir().unwrap();
    let first = out.path().join("first");
    let export = a.core.export_roles(&first).await.unwrap();
    assert_eq!(export.files.len(), cubicle_core::roles::CATALOGUE.len() + 5);
    // The imported cards are written back byte for byte, where they came from.
    let growth = std::fs::read(first.join("marketing/growth-hacker.md")).unwrap();
    assert_eq!(
        growth,
        std::fs::read(roster().join("marketing/growth-hacker.md")).unwrap()
    );

    // Into the same company: nothing to do.
    let same = a.core.import_roles(&first, false).await.unwrap();
    assert!(same.new.is_empty() && same.changed.is_empty() && same.unreadable.is_empty());

    // Into another company and out again: the same files.
    let b = TestCompany::new().await;
    let r = b.core.import_roles(&first, false).await.unwrap();
    assert_eq!(r.new.len(), 5, "{r:?}");
    assert!(r.changed.is_empty() && r.unreadable.is_empty(), "{r:?}");
    let second = out.path().join("second");
    b.core.export_roles(&second).await.unwrap();
    assert_eq!(tree(&first), tree(&second));

    // An export never writes into a folder that holds something.
    let err = b.core.export_roles(&first).await.unwrap_err();
    assert!(err.to_string().contains("not empty"), "{err}");
    assert_eq!(
        tree(&first),
        tree(&second),
        "the refused export changed nothing"
    );
}

/// A company with a Marketing department (named in `lang`), the fixture roster and a
/// provider called "Scripted", which the growth hacker's card routes to.
async fn marketing_company(lang: Language, dept: &str) -> (TestCompany, i32, MockServer) {
    let co = TestCompany::new().await;
    co.speak(lang).await;
    let server = MockServer::start().await;
    let provider = co.route_to(&server.uri(), Purpose::Summary).await;
    assert_eq!(provider, "scripted", "the id the card's `model:` names");
    let marketing = co.dept(dept, None).await;
    co.core.import_roles(&roster(), false).await.unwrap();
    (co, marketing.id, server)
}

/// The hire card the secretary proposed for `text`, and what it said.
async fn proposed_hire(co: &TestCompany, text: &str) -> (i32, Proposal, String) {
    let turn = co.core.secretary.say(text, false).await.unwrap();
    assert_eq!(turn.reply.actions.len(), 1, "{}", turn.reply.text);
    let action = &turn.reply.actions[0];
    assert_eq!(action.status, ActionStatus::Proposed);
    (action.id, action.proposal.clone(), turn.reply.text.clone())
}

/// The card carries the imported role: its tools (the unknown one listed apart), model
/// and temperature; confirming hires someone who has them.
async fn the_hire_has_the_growth_hackers_card(
    co: &TestCompany,
    id: i32,
    p: &Proposal,
    title: &str,
    dept: i32,
) {
    let Proposal::Hire {
        title: t,
        department_id,
        role_key,
        tools,
        unknown_tools,
        model,
        temperature,
        why,
        ..
    } = p
    else {
        panic!("expected a hire, got {p:?}");
    };
    assert_eq!(t, title);
    assert_eq!(*department_id, Some(dept));
    assert_eq!(role_key.as_deref(), Some(GROWTH));
    assert_eq!(tools, &["read_file", "write_file"]);
    assert_eq!(unknown_tools, &["WebSearch"]);
    assert_eq!(model.as_deref(), Some("scripted/growth-model"));
    assert_eq!(*temperature, Some(0.6));
    assert!(why.is_some(), "the card says why this role");

    co.core.secretary.confirm(id, None).await.unwrap();
    let snap = co.core.org.snapshot().await.unwrap();
    let hired = snap
        .employees
        .iter()
        .find(|e| e.title == title)
        .expect("hired");
    assert_eq!(
        hired.tool_whitelist,
        vec!["read_file", "write_file"],
        "WebSearch is never granted"
    );
    assert_eq!(
        (
            hired.backend.provider.as_str(),
            hired.backend.model.as_str()
        ),
        ("scripted", "growth-model")
    );
    assert_eq!(hired.temperature, Some(0.6));
    assert_eq!(hired.max_retries, Some(1));
    assert!(
        hired
            .persona
            .as_deref()
            .unwrap_or("")
            .contains("Never buy followers")
    );
}

#[tokio::test]
async fn hire_a_growth_hacker_into_marketing_proposes_the_imported_card() {
    let (co, marketing, _server) = marketing_company(Language::En, "Marketing").await;
    let (id, p, said) = proposed_hire(&co, "hire a growth hacker into Marketing").await;
    assert!(said.contains("Why Growth Hacker"), "{said}");
    assert!(said.contains("“growth”, “hacker”"), "{said}");
    the_hire_has_the_growth_hackers_card(&co, id, &p, "Growth Hacker", marketing).await;
}

#[tokio::test]
async fn 给市场部招一个增长黑客_proposes_the_imported_card_in_chinese() {
    let (co, marketing, _server) = marketing_company(Language::ZhCn, "市场部").await;
    let (id, p, said) = proposed_hire(&co, "给市场部招一个增长黑客").await;
    assert!(said.contains("为什么是增长黑客"), "{said}");
    the_hire_has_the_growth_hackers_card(&co, id, &p, "增长黑客", marketing).await;
}

#[tokio::test]
async fn a_task_like_request_picks_the_card_whose_description_fits() {
    let (co, _, _server) = marketing_company(Language::En, "Engineering").await;
    let (_, p, said) =
        proposed_hire(&co, "hire someone to check code security into Engineering").await;
    let Proposal::Hire { role_key, .. } = p else {
        panic!("expected a hire")
    };
    assert_eq!(role_key.as_deref(), Some("engineering/code-reviewer"));
    assert!(said.contains("Why Code Reviewer"), "{said}");
}

/// A valid thought that stays silent: these tests look at what was asked, not answered.
fn silent_thought() -> ResponseTemplate {
    let thought = json!({
        "innerThoughts": "nothing to add", "interestLevel": 3, "topicSaturation": 5,
        "shouldSpeak": false, "reason": "listening", "messages": [],
        "memorySummary": "", "memoryOps": [], "relationshipOps": [], "taskOps": []
    });
    ResponseTemplate::new(200).set_body_json(json!({
        "id": "t", "object": "chat.completion", "model": "m",
        "choices": [{"index": 0, "finish_reason": "stop",
            "message": {"role": "assistant", "content": thought.to_string()}}],
        "usage": {"prompt_tokens": 900, "completion_tokens": 40}
    }))
}

/// The body of the first thought request whose system prompt is `name`'s.
async fn thought_of(server: &MockServer, name: &str) -> Value {
    let needle = format!("You are {name},");
    let requests = server.received_requests().await.unwrap();
    let asked: Vec<String> = requests
        .iter()
        .map(|r| String::from_utf8_lossy(&r.body).chars().take(300).collect())
        .collect();
    requests
        .iter()
        .map(|r| serde_json::from_slice::<Value>(&r.body).unwrap())
        .find(|b| {
            b["messages"][0]["content"]
                .as_str()
                .is_some_and(|s| s.starts_with(&needle))
        })
        .unwrap_or_else(|| panic!("{name} thought; asked: {asked:?}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hire_from_a_card_thinks_at_the_cards_temperature_with_its_persona() {
    let start = chrono::DateTime::parse_from_rfc3339("2026-12-01T09:00:00Z")
        .unwrap()
        .with_timezone(&chrono::Utc);
    let (co, clock, server, provider) = scripted_company(start, silent_thought()).await;
    assert_eq!(provider, "scripted");
    co.core.import_roles(&roster(), false).await.unwrap();
    let marketing = co.dept("Marketing", None).await;
    let gina = co.hire("Gina", "Growth Hacker", Some(marketing.id)).await;
    let ben = co.hire("Ben", "Backend Engineer", Some(marketing.id)).await;
    assert_eq!(gina.temperature, Some(0.6));
    assert_eq!(ben.temperature, None, "a built-in card without one");
    let chat = co
        .core
        .chats
        .department_chat(marketing.id, "Marketing")
        .await
        .unwrap();
    for e in [&gina, &ben] {
        co.core.chats.join(chat.id, e.id).await.unwrap();
    }
    // The engine hears of the boss's message on the bus: it starts first.
    let engine = Engine::new(
        &co.core,
        EngineConfig {
            seed: Some(7),
            ..EngineConfig::default()
        },
    );
    co.core
        .chats
        .post_as_boss(PostMessage {
            chat_id: chat.id,
            text: "Ideas for doubling sign-ups this month?".into(),
        })
        .await
        .unwrap();
    engine
        .run_simulated(&clock, start + TimeDelta::seconds(60))
        .await;

    let gina_asked = thought_of(&server, "Gina").await;
    let t = gina_asked["temperature"].as_f64().unwrap();
    assert!((t - 0.6).abs() < 1e-6, "Gina's thought went out at {t}");
    assert_eq!(
        gina_asked["model"], "growth-model",
        "her card's model route"
    );
    let system = gina_asked["messages"][0]["content"].as_str().unwrap();
    assert!(system.contains("Never buy followers"), "{system}");
    let ben_asked = thought_of(&server, "Ben").await;
    let t = ben_asked["temperature"].as_f64().unwrap();
    assert!(
        (t - 0.8).abs() < 1e-6,
        "Ben thinks at the default, not at {t}"
    );
}

#[tokio::test]
async fn a_cards_retry_limit_cuts_the_gateways_retries() {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .respond_with(ResponseTemplate::new(500).set_body_string("boom"))
        .mount(&server)
        .await;
    let h = crate::gateway::company(crate::gateway::fast_config(), None).await;
    let id = crate::gateway::add_provider(&h, &server, (0.0, 0.0)).await;
    let ctx = CallContext {
        max_retries: Some(1),
        ..CallContext::new(Purpose::Thought)
    };
    let err = h
        .core
        .gateway
        .complete(&ctx, crate::gateway::route(&id), crate::gateway::req("hi"))
        .await
        .unwrap_err();
    assert_eq!(err.code(), "http");
    // One try and one retry, where the gateway alone would retry three times.
    assert_eq!(server.received_requests().await.unwrap().len(), 2);
}

#[tokio::test]
async fn the_boss_edits_duplicates_and_deletes_cards_and_hires_keep_theirs() {
    let co = TestCompany::new().await;
    co.core.import_roles(&roster(), false).await.unwrap();
    let gina = co.hire("Gina", "Growth Hacker", None).await;

    // A card that does not parse is refused with where and why.
    let err = co
        .core
        .save_role_card(SaveRoleCard {
            key: "ops/night-shift".into(),
            text: "---\nname: Night Shift\n---\n".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "ops/night-shift.md:1 (description): missing: the description is how the right role is picked for a task"
    );

    // Duplicate, then edit the copy; the original and the person hired from it stay.
    let copy = co
        .core
        .duplicate_role_card(GROWTH, "marketing/growth-hacker-eu")
        .await
        .unwrap();
    assert_eq!(copy.card.name, "Growth Hacker");
    let text = std::fs::read_to_string(roster().join("marketing/growth-hacker.md")).unwrap();
    let edited = co
        .core
        .save_role_card(SaveRoleCard {
            key: "marketing/growth-hacker-eu".into(),
            text: text
                .replace("name: Growth Hacker", "name: EU Growth Hacker")
                .replace("temperature: 0.6", "temperature: 0.3"),
        })
        .await
        .unwrap();
    assert_eq!(
        (edited.card.name.as_str(), edited.card.temperature),
        ("EU Growth Hacker", Some(0.3))
    );
    co.core.delete_role_card(GROWTH).await.unwrap();
    let cards = co.core.role_cards().await.unwrap();
    assert!(cards.iter().all(|c| c.key != GROWTH));
    let gina_now = co.core.org.snapshot().await.unwrap().employees;
    let gina_now = gina_now.iter().find(|e| e.id == gina.id).unwrap();
    assert_eq!(gina_now.temperature, Some(0.6), "a hire copied the card");

    // A built-in card can be edited (it becomes the boss's) but not deleted; deleting
    // the edit brings the shipped card back.
    let qa = cards.iter().find(|c| c.key == "qa_engineer").unwrap();
    assert!(qa.builtin);
    let shipped =
        std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("roles/qa_engineer.md"))
            .unwrap();
    co.core
        .save_role_card(SaveRoleCard {
            key: "qa_engineer".into(),
            text: shipped.replace("temperature: 0.2", "temperature: 0.05"),
        })
        .await
        .unwrap();
    let err = co.core.delete_role_card("researcher").await.unwrap_err();
    assert!(err.to_string().contains("built-in"), "{err}");
    co.core.delete_role_card("qa_engineer").await.unwrap();
    let qa = co.core.role_cards().await.unwrap();
    let qa = qa.iter().find(|c| c.key == "qa_engineer").unwrap();
    assert!(qa.builtin);
    assert_eq!(qa.card.temperature, Some(0.2));
}

/// The member a department's task went to, and what the secretary said.
async fn department_task(co: &TestCompany, text: &str) -> (String, String) {
    let turn = co.core.secretary.say(text, false).await.unwrap();
    let Some(Proposal::AssignTask { name, .. }) = turn.reply.actions.first().map(|a| &a.proposal)
    else {
        panic!("no task proposed for {text:?}: {}", turn.reply.text);
    };
    (name.clone(), turn.reply.text.clone())
}

/// Engineering (named `dept`): Lena its lead (no card for her title), a backend engineer,
/// a designer and a tester.
async fn engineering(lang: Language, dept: &str) -> TestCompany {
    let co = TestCompany::new().await;
    co.speak(lang).await;
    let eng = co.dept(dept, None).await;
    let lena = co.hire("Lena", "Engineering Lead", Some(eng.id)).await;
    co.hire("Bob", "Backend Engineer", Some(eng.id)).await;
    co.hire("Carol", "UI/UX Designer", Some(eng.id)).await;
    co.hire("Dan", "QA Engineer", Some(eng.id)).await;
    co.make_lead(eng.id, lena.id).await;
    co
}

#[tokio::test]
async fn a_task_for_a_department_goes_to_the_member_whose_card_fits_and_says_why() {
    let co = engineering(Language::En, "Engineering").await;
    let (who, said) = department_task(
        &co,
        "ask Engineering to design the onboarding screens and flows",
    )
    .await;
    assert_eq!(who, "Carol", "{said}");
    assert!(
        said.contains("Carol (UI/UX Designer) fits it best: design, screen, flow"),
        "{said}"
    );
    let (who, said) = department_task(
        &co,
        "ask Engineering to check what breaks in the payment page before users see it",
    )
    .await;
    assert_eq!(who, "Dan", "{said}");
    // Nobody's card speaks of budgets: the lead takes it, and no fit is claimed.
    let (who, said) = department_task(&co, "ask Engineering to prepare the budget").await;
    assert_eq!(who, "Lena", "{said}");
    assert!(!said.contains("fits it best"), "{said}");

    let co = engineering(Language::ZhCn, "研发部").await;
    let (who, said) = department_task(&co, "让研发部测试一下登录流程").await;
    assert_eq!(who, "Dan", "{said}");
    assert!(said.contains("Dan（QA Engineer）最对口：测试"), "{said}");
}
