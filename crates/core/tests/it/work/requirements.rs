//! A requirement starts itself (SPEC §2, §6): the boss opens it through the secretary,
//! its department's lead owns it, plans the first tasks and posts the plan in its group;
//! the work is done, discussed and reported there, reviewed by its reviewer, and the
//! boss hears that it is done. One opened while no engine ran starts when one does.

use chrono::TimeDelta;
use cubicle_core::chat::ChatMessageDto;
use cubicle_core::mailbox::MailKind;
use cubicle_core::types::Language;
use cubicle_core::work::board::RequirementStatus;
use cubicle_core::work::{RequirementDto, TaskDto, TaskOrigin};
use serde_json::{Value, json};

use super::playbook::{Seen, silent, speak};
use super::{Engine, EngineConfig, Stage};
use crate::util::mail_of;

/// People, not a workflow: the lead plans what she is asked to plan, each engineer does
/// the task they have, the reviewer passes what she is given, and whoever reports
/// says so. Nothing here knows the order.
fn login_team(s: &Seen) -> Value {
    let plan = s
        .task("Plan the requirement")
        .or_else(|| s.task("规划需求"));
    match s.name.as_str() {
        "Lena" if plan.is_some() => speak(
            "Two clear halves: the form and the session endpoint.",
            &[(
                "Plan for the login page: Carol builds the form, Bob the session endpoint, Dan reviews.",
                None,
            )],
            json!([
                {"op": "create", "description": "Build the login form", "assignee": "Carol"},
                {"op": "create", "description": "Build the session endpoint", "assignee": "Bob"},
                {"op": "resolve", "id": plan, "result": "Carol: login form; Bob: session endpoint"}
            ]),
        ),
        "Lena" if s.reporting => speak(
            "Say who does what.",
            &[(
                "The plan is set: Carol on the form, Bob on the endpoint.",
                None,
            )],
            json!([]),
        ),
        "Carol" | "Bob" if s.reporting => speak(
            "Tell them.",
            &[(
                &format!("{}: my part of the login page passed review.", s.name),
                None,
            )],
            json!([]),
        ),
        "Carol" => match s.task("login form") {
            Some(id) => speak(
                "Done.",
                &[("The login form is ready for review.", None)],
                json!([{"op": "resolve", "id": id, "result": "Login form: email and password, inline validation"}]),
            ),
            None => silent("Carol"),
        },
        "Bob" => match s.task("session endpoint") {
            Some(id) => speak(
                "Done.",
                &[("The session endpoint is ready for review.", None)],
                json!([{"op": "resolve", "id": id, "result": "POST /session returns a signed token"}]),
            ),
            None => silent("Bob"),
        },
        "Dan" => match s.task("Review").or_else(|| s.task("评审")) {
            Some(id) => speak(
                "Looks right.",
                &[("Reviewed: this part of the login page passes.", None)],
                json!([{"op": "resolve", "id": id, "result": "pass"}]),
            ),
            None => silent("Dan"),
        },
        name => silent(name),
    }
}

/// Engineering: Lena (its lead), Bob, Carol and Dan; and Design, empty.
async fn login_company(stage: &Stage) -> (i32, [i32; 4]) {
    let co = &stage.co;
    let eng = co.dept("Engineering", None).await;
    co.dept("Design", None).await;
    let lena = co.hire("Lena", "Engineering Lead", Some(eng.id)).await;
    let bob = co.hire("Bob", "Backend Engineer", Some(eng.id)).await;
    let carol = co.hire("Carol", "Frontend Engineer", Some(eng.id)).await;
    let dan = co.hire("Dan", "QA Engineer", Some(eng.id)).await;
    co.make_lead(eng.id, lena.id).await;
    (eng.id, [lena.id, bob.id, carol.id, dan.id])
}

/// The login page: the first requirement opened.
async fn the_requirement(stage: &Stage) -> RequirementDto {
    let mut all = stage.co.core.work.requirements().await.unwrap();
    all.sort_by_key(|r| r.id);
    all.remove(0)
}

async fn tasks_of(stage: &Stage, requirement: i32) -> Vec<TaskDto> {
    let mut tasks: Vec<TaskDto> = stage
        .co
        .core
        .work
        .all()
        .await
        .unwrap()
        .into_iter()
        .filter(|t| t.requirement_id == Some(requirement))
        .collect();
    tasks.sort_by_key(|t| t.id);
    tasks
}

async fn said_by(stage: &Stage, chat: i32, who: i32) -> Vec<ChatMessageDto> {
    stage
        .co
        .core
        .chats
        .messages(chat)
        .await
        .unwrap()
        .into_iter()
        .filter(|m| m.sender_employee_id == Some(who))
        .collect()
}

async fn status_on_board(stage: &Stage, id: i32) -> RequirementStatus {
    stage
        .co
        .core
        .work
        .board()
        .await
        .unwrap()
        .columns
        .into_iter()
        .find(|c| c.items.iter().any(|i| i.requirement.id == id))
        .map(|c| c.status)
        .unwrap()
}

/// What the lead's plan, the work, the reviews and the reports came to.
async fn assert_planned_worked_reviewed_and_done(stage: &Stage, team: [i32; 4]) {
    let [lena, bob, carol, dan] = team;
    let core = &stage.co.core;
    let r = the_requirement(stage).await;
    let chat = r.chat_id.unwrap();
    assert_eq!(r.owner_id, Some(lena), "the department's lead owns it");

    let tasks = tasks_of(stage, r.id).await;
    let plan = &tasks[0];
    assert_eq!((plan.owner_id, plan.created_by), (lena, TaskOrigin::Plan));
    assert_eq!(plan.status, cubicle_core::work::TaskStatus::Resolved);
    let given = |owner: i32| {
        tasks
            .iter()
            .find(|t| t.owner_id == owner && t.review_of.is_none())
            .unwrap_or_else(|| panic!("no task for {owner}: {tasks:#?}"))
    };
    assert!(given(carol).description.contains("login form"));
    assert!(given(bob).description.contains("session endpoint"));
    for t in [given(carol), given(bob)] {
        assert_eq!(t.created_by, TaskOrigin::Owner, "{t:?}");
        assert_eq!(t.status, cubicle_core::work::TaskStatus::Resolved, "{t:?}");
    }
    let reviews: Vec<&TaskDto> = tasks.iter().filter(|t| t.review_of.is_some()).collect();
    assert_eq!(reviews.len(), 2, "each piece of work reviewed: {tasks:#?}");
    assert!(
        reviews
            .iter()
            .all(|t| t.owner_id == dan && t.status == cubicle_core::work::TaskStatus::Resolved)
    );

    // All of it was said in the requirement's group: the plan, the review, the reports.
    let plan_said = said_by(stage, chat, lena).await;
    assert!(
        plan_said
            .iter()
            .any(|m| m.text.starts_with("Plan for the login page"))
    );
    let review_said = said_by(stage, chat, dan).await;
    assert!(review_said.iter().any(|m| m.text.starts_with("Reviewed:")));
    for who in [bob, carol] {
        let said = said_by(stage, chat, who).await;
        assert!(
            said.iter().any(|m| m.text.contains("passed review")),
            "{who} reports in the group: {said:?}"
        );
        let private = core.chats.boss_chat(who).await.unwrap();
        assert!(
            said_by(stage, private.id, who).await.is_empty(),
            "nothing about the requirement in {who}'s private chat with the boss"
        );
    }
    let notes = core.chats.messages(chat).await.unwrap();
    assert!(
        notes
            .iter()
            .any(|m| m.sender_kind == cubicle_core::chat::SenderKind::System
                && m.text.contains("is done")),
        "{notes:#?}"
    );

    // Done, and the boss sees it.
    assert_eq!(status_on_board(stage, r.id).await, RequirementStatus::Done);
    let mail = mail_of(core, Some(MailKind::Report)).await;
    let done = mail
        .iter()
        .find(|m| m.title == "Requirement done: build the login page")
        .unwrap_or_else(|| panic!("{mail:#?}"));
    assert!(
        done.body.contains("Dan passed 2 review(s)"),
        "{}",
        done.body
    );
    assert!(done.body.contains("POST /session returns a signed token"));
    assert_eq!(done.chat_id, Some(chat));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_requirement_opened_by_the_secretary_starts_itself_and_reaches_review() {
    let stage = Stage::new(login_team).await;
    let (eng, team) = login_company(&stage).await;
    let turn = stage
        .co
        .core
        .secretary
        .say(
            "start a requirement to build the login page in Engineering, reviewed by Dan",
            true,
        )
        .await
        .unwrap();
    assert!(
        turn.reply.actions[0]
            .diff
            .as_deref()
            .is_some_and(|d| d.contains("Lena plans it")),
        "{:?}",
        turn.reply.actions[0]
    );
    let r = the_requirement(&stage).await;
    assert_eq!(r.department_id, Some(eng));
    stage.run_for(TimeDelta::hours(2)).await;

    assert_planned_worked_reviewed_and_done(&stage, team).await;
    // The lead planned in the requirement's group, with the planning task in view.
    let prompts = stage.book.prompts.lock().unwrap().clone();
    let first = prompts.iter().find(|p| p.name == "Lena").unwrap();
    assert_eq!(first.chat, "build the login page");
    assert!(
        first.prompt.contains("\"assignee\""),
        "the lead may give out work"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_requirement_opened_while_no_engine_ran_starts_when_the_engine_starts() {
    let mut stage = Stage::new(login_team).await;
    let (_eng, team) = login_company(&stage).await;
    let core = &stage.co.core;
    core.secretary
        .say(
            "start a requirement to build the login page in Engineering, reviewed by Dan",
            true,
        )
        .await
        .unwrap();
    // One for Design too, which has nobody to own it yet.
    core.secretary
        .say("start a requirement to redo the icons in Design", true)
        .await
        .unwrap();
    // No engine heard any of it: the one the test made is dropped unheard, as a
    // process that was not running would have; a new one starts on the database.
    stage.engine = Engine::new(
        core,
        EngineConfig {
            seed: Some(13),
            ..EngineConfig::default()
        },
    );
    let reqs = core.work.requirements().await.unwrap();
    let icons = reqs
        .iter()
        .find(|r| r.name.contains("icons"))
        .unwrap()
        .clone();
    assert_eq!(icons.owner_id, None, "nobody in Design to own it");
    assert_eq!(
        icons.status,
        cubicle_core::work::board::RequirementStatus::Open
    );
    // Someone joins Design while the engine is down.
    let design = icons.department_id.unwrap();
    let ivy = stage.co.hire("Ivy", "Icon Designer", Some(design)).await;

    stage.engine.bootstrap().await.unwrap();
    stage.run_for(TimeDelta::hours(2)).await;

    let icons_now = core
        .work
        .requirements()
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.id == icons.id)
        .unwrap();
    assert_eq!(
        icons_now.owner_id,
        Some(ivy.id),
        "started when the engine did"
    );
    let ivy_saw =
        stage.book.prompts.lock().unwrap().iter().any(|p| {
            p.name == "Ivy" && p.prompt.contains("Plan the requirement \"redo the icons\"")
        });
    assert!(ivy_saw, "Ivy was woken to plan it");
    // The login page went the whole way, as if an engine had been running.
    assert_planned_worked_reviewed_and_done(&stage, team).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_requirement_opened_in_chinese_is_planned_by_the_departments_lead() {
    let stage = Stage::new(login_team).await;
    let core = &stage.co.core;
    stage.co.speak(Language::ZhCn).await;
    let eng = stage.co.dept("工程部", None).await;
    stage.co.dept("设计部", None).await;
    let lena = stage
        .co
        .hire("Lena", "Engineering Lead", Some(eng.id))
        .await;
    let carol = stage
        .co
        .hire("Carol", "Frontend Engineer", Some(eng.id))
        .await;
    let bob = stage.co.hire("Bob", "Backend Engineer", Some(eng.id)).await;
    let dan = stage.co.hire("Dan", "QA Engineer", Some(eng.id)).await;
    stage.co.make_lead(eng.id, lena.id).await;

    let turn = core
        .secretary
        .say("在工程部启动一个需求：做登录页", true)
        .await
        .unwrap();
    assert_eq!(turn.reply.actions.len(), 1, "{}", turn.reply.text);
    let r = the_requirement(&stage).await;
    assert_eq!(
        (r.name.as_str(), r.department_id),
        ("做登录页", Some(eng.id))
    );
    assert_eq!(r.owner_id, Some(lena.id));
    core.secretary
        .say("让Dan当做登录页需求的评审", true)
        .await
        .unwrap();
    assert_eq!(the_requirement(&stage).await.reviewer_id, Some(dan.id));
    stage.run_for(TimeDelta::hours(1)).await;

    let tasks = tasks_of(&stage, r.id).await;
    assert!(
        tasks[0].description.starts_with("规划需求“做登录页”"),
        "{tasks:#?}"
    );
    assert_eq!(tasks[0].status, cubicle_core::work::TaskStatus::Resolved);
    for (who, what) in [(carol.id, "login form"), (bob.id, "session endpoint")] {
        let t = tasks.iter().find(|t| t.owner_id == who).unwrap();
        assert!(t.description.contains(what));
    }
    let chat = r.chat_id.unwrap();
    assert!(
        said_by(&stage, chat, lena.id)
            .await
            .iter()
            .any(|m| m.text.starts_with("Plan for the login page"))
    );
    // Reviewed in Chinese, done, and the boss hears it in Chinese.
    let reviews: Vec<&TaskDto> = tasks.iter().filter(|t| t.review_of.is_some()).collect();
    assert_eq!(reviews.len(), 2, "{tasks:#?}");
    assert!(
        reviews
            .iter()
            .all(|t| t.description.starts_with("评审") && t.owner_id == dan.id)
    );
    let mail = mail_of(core, Some(MailKind::Report)).await;
    let done = mail
        .iter()
        .find(|m| m.title == "需求完成：做登录页")
        .unwrap_or_else(|| panic!("{mail:#?}"));
    assert!(done.body.contains("Dan评审通过了 2 项"), "{}", done.body);
    assert_eq!(status_on_board(&stage, r.id).await, RequirementStatus::Done);
}
