//! What the app says is true, on every model: a deliverable that does not address its
//! task is not "Done"; a raw JSON answer is never a chat line; an employee writes in the
//! company's language whatever language it was hired in.

use cubicle_core::gateway::Purpose;
use cubicle_core::work::{ReviewReason, TaskOrigin};

use super::*;

/// Alice resolves her task with `result`, then reports it in a line.
fn alice_resolves_with(result: &'static str) -> impl Fn(&Seen) -> Value + Send + Sync {
    move |s: &Seen| match (s.name.as_str(), s.tasks.first()) {
        ("Alice", Some((id, _))) => speak(
            "Here it is.",
            &[],
            json!([{"op": "resolve", "id": id, "result": result}]),
        ),
        ("Alice", None) if s.reporting => speak(
            "Tell Ada.",
            &[("Ada, the design note is written.", None)],
            json!([]),
        ),
        (name, _) => silent(name),
    }
}

/// The story of one task given to Alice: how it ended and the report's mailbox copy.
async fn one_task(
    result: &'static str,
    bob_said: Option<&str>,
) -> (cubicle_core::work::TaskDto, cubicle_core::mailbox::MailDto) {
    let stage = Stage::new(alice_resolves_with(result)).await;
    let (alice, bob, ..) = engineering(&stage).await;
    let new = cubicle_core::work::NewTask::new(
        alice,
        "Write a short design note on the gripper calibration timeout",
        TaskOrigin::Boss,
    );
    let id = stage.co.core.work.create(new).await.unwrap().id;
    // What Bob tells her while she is on it.
    if let Some(said) = bob_said {
        let dm = stage.co.core.chats.dm(bob, alice).await.unwrap();
        stage
            .co
            .core
            .chats
            .post_as_employee(dm.id, bob, said)
            .await
            .unwrap();
    }
    stage.engine.bootstrap().await.unwrap();
    stage.run_for(TimeDelta::minutes(20)).await;
    let task = stage
        .co
        .core
        .work
        .all()
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.id == id)
        .unwrap();
    let mail = mail_of(&stage.co.core, Some(MailKind::Report))
        .await
        .into_iter()
        .find(|m| m.task_id == Some(id))
        .unwrap_or_else(|| panic!("the report is in the mailbox: {task:?}"));
    (task, mail)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_large_model_a_two_line_off_topic_result_needs_review() {
    let (task, mail) = one_task(
        "Team lunch\nWe could order pizza for everyone on Friday afternoon.",
        None,
    )
    .await;
    assert_eq!(task.status, cubicle_core::work::TaskStatus::Resolved);
    assert_eq!(task.needs_review, Some(ReviewReason::OffTopic), "{task:?}");
    assert_eq!(
        mail.title,
        "Needs review: Write a short design note on the gripper calibration timeout"
    );
    assert!(
        mail.body
            .starts_with("Needs your review: it says nothing about the task's subject."),
        "{}",
        mail.body
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_large_model_a_result_copied_from_a_chat_message_needs_review() {
    let (task, mail) = one_task(
        "Not sure, I was out at lunch. Maybe ask someone else about it.",
        Some("Not sure, I was out at lunch. Maybe ask someone else about it."),
    )
    .await;
    assert_eq!(
        task.needs_review,
        Some(ReviewReason::CopiesMessage),
        "{task:?}"
    );
    assert!(mail.title.starts_with("Needs review: "), "{mail:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn on_a_large_model_a_proper_note_is_done() {
    let (task, mail) = one_task(
        "Gripper calibration timeout: the gripper needs about 4 s to home while the \
         timeout is 2 s, so calibration fails on cold starts. Raise the timeout to 5 s and \
         log each calibration step.",
        None,
    )
    .await;
    assert_eq!(task.needs_review, None, "{task:?}");
    assert_eq!(
        mail.title,
        "Done: Write a short design note on the gripper calibration timeout"
    );
}

/// A thought whose message is itself a raw JSON thought: never posted; asked again, and
/// dropped on record when it comes back the same.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_raw_json_answer_is_never_posted_as_a_chat_message() {
    const RAW: &str = r#"{"innerThoughts":"Ada wants the API again","shouldSpeak":true}"#;
    let stage = Stage::new(|s: &Seen| match s.name.as_str() {
        "Alice" if s.private_with_boss && s.new_from("Ada", "status") => {
            speak("Answer her.", &[(RAW, None)], json!([]))
        }
        "Alice" if s.private_with_boss && s.new_from("Ada", "wrapped") => speak(
            "Answer her.",
            &[(
                r#"{"innerThoughts":"x","messages":[{"content":"All green, Ada."}]}"#,
                None,
            )],
            json!([]),
        ),
        name => silent(name),
    })
    .await;
    let (alice, ..) = engineering(&stage).await;
    stage.engine.bootstrap().await.unwrap();
    let chat = stage.co.core.chats.boss_chat(alice).await.unwrap();
    stage.boss_says(chat.id, "@Alice what is the status?").await;
    stage.run_for(TimeDelta::minutes(10)).await;
    let said = stage.co.core.chats.messages(chat.id).await.unwrap();
    assert!(
        said.iter()
            .all(|m| !m.text.contains("innerThoughts") && !m.text.trim_start().starts_with('{')),
        "{said:#?}"
    );
    assert!(
        said.iter().all(|m| m.sender_employee_id != Some(alice)),
        "{said:#?}"
    );
    // Asked again once, then dropped: the record says it was held back.
    let asked = stage
        .book
        .prompts
        .lock()
        .unwrap()
        .iter()
        .filter(|s| s.name == "Alice" && s.new_from("Ada", "status"))
        .count();
    assert!(asked >= 2, "asked again: {asked}");
    // A JSON thought that carries a message is repaired: the message is what is posted.
    stage.boss_says(chat.id, "@Alice all wrapped up?").await;
    stage.run_for(TimeDelta::minutes(10)).await;
    let said = stage.co.core.chats.messages(chat.id).await.unwrap();
    let alices: Vec<&str> = said
        .iter()
        .filter(|m| m.sender_employee_id == Some(alice))
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(alices, ["All green, Ada."], "{said:#?}");
}

/// Alice was hired while the company spoke English; after the switch to Chinese her
/// prompts demand Simplified Chinese, whatever her role card says.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn after_the_switch_to_chinese_a_thought_is_asked_for_chinese() {
    let stage = Stage::new(|s: &Seen| silent(&s.name)).await;
    let (alice, ..) = engineering(&stage).await;
    stage.co.speak(cubicle_core::types::Language::ZhCn).await;
    stage.engine.bootstrap().await.unwrap();
    let chat = stage.co.core.chats.boss_chat(alice).await.unwrap();
    stage.boss_says(chat.id, "@Alice 进展怎么样？").await;
    stage.run_for(TimeDelta::minutes(5)).await;
    let prompts = stage.book.prompts.lock().unwrap().clone();
    let alices: Vec<&Seen> = prompts.iter().filter(|s| s.name == "Alice").collect();
    assert!(!alices.is_empty());
    for s in alices {
        assert!(
            s.prompt.contains(
                "works in Simplified Chinese (简体中文). Write every message in Simplified Chinese"
            ),
            "{}",
            s.prompt
        );
    }
}

/// A hire made after the switch to Chinese: the model is asked in Chinese; when it
/// answers in English all the same, the app introduces her itself, in Chinese.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_hire_after_the_switch_to_chinese_introduces_herself_in_chinese() {
    let model = crate::util::model_answering("Hello everyone, glad to be here!").await;
    let co = crate::util::TestCompany::new().await;
    co.route_to(&model.uri(), Purpose::Thought).await;
    let eng = co.dept("工程部", None).await;
    co.speak(cubicle_core::types::Language::ZhCn).await;
    co.core
        .secretary
        .say("给工程部招一个测试工程师", true)
        .await
        .unwrap();
    co.core.secretary.settle().await;
    let chat = co
        .core
        .chats
        .find_department_chat(eng.id)
        .await
        .unwrap()
        .expect("the department chat");
    let said = co.core.chats.messages(chat.id).await.unwrap();
    let intro = said
        .iter()
        .find(|m| m.sender_employee_id.is_some())
        .unwrap_or_else(|| panic!("an introduction: {said:#?}"));
    assert!(intro.text.starts_with("大家好，我是"), "{}", intro.text);
    assert!(intro.text.ends_with("。"), "{}", intro.text);
    let asked = model.received_requests().await.unwrap();
    assert_eq!(asked.len(), 2, "asked once more before writing it itself");
    for r in asked {
        let body = String::from_utf8_lossy(&r.body).to_string();
        assert!(body.contains("用简体中文"), "{body}");
        assert!(
            body.contains("Write every message in Simplified Chinese"),
            "{body}"
        );
    }
}

/// In a Chinese company the lines the app writes itself are Chinese: a task given up
/// without a word is told to the boss in Chinese, and the steps of a small model's
/// thought read in Chinese.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn in_a_chinese_company_the_apps_own_lines_are_chinese() {
    let stage = Stage::new(|s: &Seen| match (s.name.as_str(), s.tasks.first()) {
        ("Alice", Some((id, _))) => speak("放弃。", &[], json!([{"op": "fail", "id": id}])),
        (name, _) => silent(name),
    })
    .await;
    let (alice, ..) = engineering(&stage).await;
    stage.co.speak(cubicle_core::types::Language::ZhCn).await;
    let new = cubicle_core::work::NewTask::new(alice, "压测登录接口", TaskOrigin::Boss);
    stage.co.core.work.create(new).await.unwrap();
    stage.engine.bootstrap().await.unwrap();
    stage.run_for(TimeDelta::minutes(10)).await;
    let mail = mail_of(&stage.co.core, Some(MailKind::Escalation)).await;
    let gave_up = mail
        .iter()
        .find(|m| m.title == "未能完成：压测登录接口")
        .unwrap_or_else(|| panic!("{mail:#?}"));
    assert_eq!(gave_up.body, "Alice放弃了这项任务，没有说明原因。");
}

/// A casual DM two colleagues had is where Alice now asks Bob about her task: the chat
/// is labelled a work chat, what it now is.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_dm_where_a_task_is_discussed_is_a_work_chat() {
    use cubicle_core::chat::gates::ChatMode;
    let stage = Stage::new(|s: &Seen| match (s.name.as_str(), s.tasks.first()) {
        ("Alice", Some(_)) if !s.private => speak(
            "Bob knows the gripper.",
            &[("Bob, how long does the gripper take to home?", Some("Bob"))],
            json!([]),
        ),
        (name, _) => silent(name),
    })
    .await;
    let (alice, bob, ..) = engineering(&stage).await;
    let core = &stage.co.core;
    let dm = core
        .chats
        .dm_from(alice, bob, ChatMode::Casual)
        .await
        .unwrap();
    assert_eq!(dm.mode, ChatMode::Casual);
    let new = cubicle_core::work::NewTask::new(
        alice,
        "Write a short design note on the gripper calibration timeout",
        TaskOrigin::Boss,
    );
    core.work.create(new).await.unwrap();
    stage.engine.bootstrap().await.unwrap();
    stage.run_for(TimeDelta::minutes(5)).await;
    let said = core.chats.messages(dm.id).await.unwrap();
    assert!(
        said.iter().any(|m| m.sender_employee_id == Some(alice)),
        "{said:#?}"
    );
    let now = core
        .chats
        .list()
        .await
        .unwrap()
        .into_iter()
        .find(|c| c.id == dm.id)
        .unwrap();
    assert_eq!(now.mode, ChatMode::Work);
}
