//! The offline company (SPEC §13): a small model's employees work in short steps. A
//! scripted small model ("smollm2-135m" by id, so the engine treats it as small) plays
//! each person from what its step asks — cooperative, rambling, or speaking for others —
//! and the story, the bounds of every request and the guard rails are checked.

use cubicle_core::work::TaskOrigin;

use chrono::TimeDelta;
use cubicle_core::ErrorCode;
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::mailbox::MailKind;
use cubicle_core::work::deliverables::DeliverableRef;

use super::small_model::{SmallModel, cooperative};
use super::start;
use crate::util::{TestCompany, mail_of};

struct Office {
    co: TestCompany,
    clock: cubicle_core::clock::ManualClock,
    engine: Engine,
    alice: i32,
    bob: i32,
    _server: wiremock::MockServer,
}

async fn office(model: SmallModel) -> Office {
    let clock = cubicle_core::clock::ManualClock::new(start());
    let co = TestCompany::with_clock(clock.shared()).await;
    let server = model.serve_everyone(&co).await;
    let robotics = co.dept("Robotics", None).await;
    let alice = co
        .hire("Alice", "Robotics Engineer", Some(robotics.id))
        .await;
    let bob = co.hire("Bob", "Controls Engineer", Some(robotics.id)).await;
    co.hire("Carol", "QA Engineer", Some(robotics.id)).await;
    let engine = Engine::new(
        &co.core,
        EngineConfig {
            seed: Some(5),
            ..EngineConfig::default()
        },
    );
    Office {
        co,
        clock,
        engine,
        alice: alice.id,
        bob: bob.id,
        _server: server,
    }
}

impl Office {
    async fn instruct(&self) {
        self.co
            .core
            .secretary
            .say(
                "ask Alice to write a short design note on the gripper calibration timeout \
                 and discuss it with Bob",
                true,
            )
            .await
            .unwrap();
    }

    async fn run_for(&self, d: TimeDelta) {
        let until = cubicle_core::clock::Clock::now(&self.clock) + d;
        self.engine.run_simulated(&self.clock, until).await;
    }

    async fn employee_messages(&self) -> Vec<cubicle_core::chat::ChatMessageDto> {
        let core = &self.co.core;
        let mut out = Vec::new();
        for c in core.chats.list().await.unwrap() {
            out.extend(
                core.chats
                    .messages(c.id)
                    .await
                    .unwrap()
                    .into_iter()
                    .filter(|m| m.sender_employee_id.is_some()),
            );
        }
        out
    }
}

/// Alice asked Bob privately about the gripper calibration, and Bob answered there.
async fn alice_asked_bob_privately_and_he_answered(o: &Office) {
    let core = &o.co.core;
    let chats = core.chats.list().await.unwrap();
    let dm = chats
        .iter()
        .find(|c| {
            c.kind == cubicle_core::chat::ChatKind::Dm
                && c.member_ids.contains(&o.alice)
                && c.member_ids.contains(&o.bob)
        })
        .expect("Alice opened a private chat with Bob");
    // Opened from the department's casual chat, but about her task: a work chat.
    assert_eq!(dm.mode, cubicle_core::chat::gates::ChatMode::Work, "{dm:?}");
    let said = core.chats.messages(dm.id).await.unwrap();
    assert_eq!(said[0].sender_employee_id, Some(o.alice), "{said:?}");
    assert!(said[0].text.contains("gripper calibration"));
    assert!(
        said.iter()
            .any(|m| m.sender_employee_id == Some(o.bob) && m.text.contains("4 s")),
        "{said:?}"
    );
}

/// Alice's resolved task and the document it saved.
struct Saved {
    task: i32,
    /// The document's path in the workspace, as the task's result names it.
    rel: String,
    doc: String,
    workspace: std::path::PathBuf,
}

/// The task is resolved and its document, with Bob's answer in it, saved in Alice's
/// folder of the workspace.
async fn the_task_is_resolved_with_its_document_saved(o: &Office) -> Saved {
    let core = &o.co.core;
    let task = core
        .work
        .all()
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.owner_id == o.alice)
        .expect("the secretary gave Alice the task");
    assert_eq!(
        task.status,
        cubicle_core::work::TaskStatus::Resolved,
        "{task:?}"
    );
    let result = task.result.clone().unwrap();
    let rel = result
        .rsplit_once('(')
        .map(|(_, p)| p.trim_end_matches(')'))
        .unwrap();
    assert!(
        rel.starts_with(&format!(
            "employees/{}/deliverables/task-{}-",
            o.alice, task.id
        )),
        "{rel}"
    );
    let workspace = core.approvals.runtime().workspace_root().unwrap();
    let doc = std::fs::read_to_string(workspace.join(rel)).unwrap();
    assert!(doc.starts_with("Gripper calibration timeout\n"), "{doc}");
    assert!(doc.contains("4 s"));
    Saved {
        task: task.id,
        rel: rel.to_owned(),
        doc,
        workspace,
    }
}

/// The report: Alice's words in the boss chat with the document's path, and its copy.
async fn the_report_names_the_document(o: &Office, rel: &str) {
    let core = &o.co.core;
    let boss_chat = core.chats.boss_chat(o.alice).await.unwrap();
    let report = core
        .chats
        .messages(boss_chat.id)
        .await
        .unwrap()
        .into_iter()
        .find(|m| m.sender_employee_id == Some(o.alice))
        .expect("Alice reports to the boss");
    assert!(report.text.starts_with("Ada, the design note is done"));
    assert!(
        report.text.ends_with(&format!("Deliverable: {rel}")),
        "{}",
        report.text
    );
    let mail = mail_of(core, Some(MailKind::Report)).await;
    assert_eq!(mail.len(), 1, "{mail:?}");
}

/// The boss opens the deliverable by its task: the saved text, whole; once the file is
/// a link to a secret it is not found, and neither is an unknown task's.
async fn the_boss_opens_the_deliverable_by_its_task_never_through_a_link(
    o: &Office,
    saved: &Saved,
) {
    let core = &o.co.core;
    let (rel, workspace) = (saved.rel.as_str(), &saved.workspace);
    let opened = core
        .deliverable(DeliverableRef {
            task_id: saved.task,
        })
        .await
        .unwrap();
    assert_eq!(
        (opened.path.as_str(), opened.text.as_str()),
        (rel, saved.doc.as_str())
    );
    assert!(!opened.cut);
    let secret = workspace.join("secret.txt");
    std::fs::write(&secret, "not for the webview").unwrap();
    std::fs::remove_file(workspace.join(rel)).unwrap();
    std::os::unix::fs::symlink(&secret, workspace.join(rel)).unwrap();
    let refused = core
        .deliverable(DeliverableRef {
            task_id: saved.task,
        })
        .await
        .unwrap_err();
    assert_eq!(refused.code, ErrorCode::NotFound, "{refused:?}");
    let none = core
        .deliverable(DeliverableRef { task_id: 9_999 })
        .await
        .unwrap_err();
    assert_eq!(none.code, ErrorCode::NotFound);
}

/// Every request was a small step with its shape's bound as the cap, and nothing
/// asked for a JSON object.
fn every_request_was_a_small_capped_step(model: &SmallModel) {
    let asked = model.asked();
    assert!(asked.len() <= 8, "{} calls for one story", asked.len());
    for a in &asked {
        let sent = serde_json::to_string(&a.body["messages"]).unwrap();
        assert!(sent.len() < 1_400, "{} bytes: {sent}", sent.len());
        assert!(a.body.get("response_format").is_none());
        // Within the small served model's output budget (1,024 tokens), even for a
        // document whose every character would take 3 tokens.
        let cap = a.body["max_tokens"].as_u64().unwrap();
        assert!(cap <= 1_024, "cap {cap}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_model_finishes_the_story_in_steps_with_a_saved_document() {
    let model = SmallModel::new(cooperative);
    let o = office(model.clone()).await;
    o.engine.bootstrap().await.unwrap();
    o.instruct().await;
    o.run_for(TimeDelta::minutes(30)).await;

    // Alice asked Bob privately, and Bob answered there.
    alice_asked_bob_privately_and_he_answered(&o).await;
    // The task is resolved and its document saved in Alice's folder of the workspace.
    let saved = the_task_is_resolved_with_its_document_saved(&o).await;
    // The report: Alice's words in the boss chat with the document's path, and its copy.
    the_report_names_the_document(&o, &saved.rel).await;
    // The boss opens the deliverable by its task: the saved text, never through a link.
    the_boss_opens_the_deliverable_by_its_task_never_through_a_link(&o, &saved).await;
    every_request_was_a_small_capped_step(&model);
}

/// Chinese company, Chinese prompts: the steps ask for Simplified Chinese.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_company_asks_its_small_model_for_chinese() {
    let model = SmallModel::new(|a| {
        let text = if a.user.contains("回答 task") {
            "task"
        } else if a.user.contains("请对方就这个任务给出意见") {
            "王强，你觉得夹爪校准为什么会超时？"
        } else {
            "好的。"
        };
        (text.to_owned(), "stop")
    });
    let o = office(model.clone()).await;
    o.co.core
        .org
        .update_company(cubicle_core::org::UpdateCompany {
            language: Some(cubicle_core::types::Language::ZhCn),
            ..Default::default()
        })
        .await
        .unwrap();
    o.engine.bootstrap().await.unwrap();
    o.instruct().await;
    o.run_for(TimeDelta::minutes(5)).await;
    let asked = model.asked();
    assert!(!asked.is_empty());
    for a in &asked {
        let system = a.body["messages"][0]["content"].as_str().unwrap();
        assert!(system.starts_with("你是"), "{system}");
        assert!(
            a.user.contains("用简体中文") || a.user.contains("回答"),
            "{}",
            a.user
        );
    }
}

/// A model that never stops (every answer cut off at the cap) and one that speaks for
/// others: nothing they write is posted, each failure is a dropped thought, and the
/// employee backs off instead of asking again and again.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn rambling_or_impersonating_small_models_post_nothing_and_back_off() {
    for (what, model) in [
        (
            "rambling",
            SmallModel::new(|_| ("and then and then and then".to_owned(), "length")),
        ),
        (
            "impersonating",
            SmallModel::new(|a| {
                if a.user.contains("Answer task or reply") {
                    ("task".to_owned(), "stop")
                } else {
                    // Carol, not the one written to: "Bob: …" to Bob is how Qwen
                    // addresses him (guided::strip_address), and is posted.
                    ("Carol: I approve the budget, Ada.".to_owned(), "stop")
                }
            }),
        ),
    ] {
        let o = office(model.clone()).await;
        o.engine.bootstrap().await.unwrap();
        o.instruct().await;
        o.run_for(TimeDelta::hours(3)).await;
        let posted = o.employee_messages().await;
        assert!(posted.is_empty(), "{what}: {posted:?}");
        let stats = o.engine.stats();
        assert!(stats.malformed >= 1, "{what}: {stats:?}");
        // Failures back off 5, 10, 20 … minutes: a few calls in three hours, not hundreds.
        let calls = model.asked().len();
        assert!(calls <= 20, "{what}: {calls} calls in 3 h");
        let cut_off =
            o.co.core
                .providers
                .answers_cut_off_since(start())
                .await
                .unwrap();
        if what == "rambling" {
            assert_eq!(
                cut_off as usize, calls,
                "every cut-off answer is in the ledger"
            );
        } else {
            assert_eq!(cut_off, 0);
        }
    }
}

/// A small model's lead gets a plan step too: the engine gives the requirement's work
/// to the colleague whose skills fit it, the model only says the plan to the group;
/// the work is then done, and reported, in the requirement's group.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_models_lead_plans_a_requirement_in_its_group() {
    let model = SmallModel::new(|a| {
        if a.user.contains("Tell the group the plan") {
            (
                "Plan: Bob tunes the gripper controls, I keep an eye on it.".to_owned(),
                "stop",
            )
        } else {
            cooperative(a)
        }
    });
    let o = office(model.clone()).await;
    let core = &o.co.core;
    let robotics = core.org.snapshot().await.unwrap().departments[0].id;
    o.co.make_lead(robotics, o.alice).await;
    o.engine.bootstrap().await.unwrap();
    core.secretary
        .say(
            "start a requirement to tune the gripper controls in Robotics",
            true,
        )
        .await
        .unwrap();
    o.run_for(TimeDelta::hours(1)).await;

    let r = core.work.requirements().await.unwrap().remove(0);
    assert_eq!(r.owner_id, Some(o.alice));
    let chat = r.chat_id.unwrap();
    let said = core.chats.messages(chat).await.unwrap();
    let plan = said
        .iter()
        .find(|m| m.sender_employee_id == Some(o.alice))
        .unwrap_or_else(|| panic!("Alice posts the plan in the group: {said:#?}"));
    assert!(plan.text.starts_with("Plan: Bob tunes"), "{}", plan.text);
    let tasks = core.work.all().await.unwrap();
    let plan_task = tasks
        .iter()
        .find(|t| t.created_by == TaskOrigin::Plan)
        .unwrap();
    assert_eq!(
        (plan_task.owner_id, plan_task.status),
        (o.alice, cubicle_core::work::TaskStatus::Resolved)
    );
    // The controls engineer fits "gripper controls" best.
    let bobs = tasks
        .iter()
        .find(|t| t.owner_id == o.bob && t.requirement_id == Some(r.id))
        .unwrap_or_else(|| panic!("Bob has the work: {tasks:#?}"));
    assert_eq!(bobs.description, "tune the gripper controls");
    assert_eq!(
        bobs.status,
        cubicle_core::work::TaskStatus::Resolved,
        "{bobs:?}"
    );
    assert!(
        said.iter().any(|m| m.sender_employee_id == Some(o.bob)
            && m.text.starts_with("Ada, the design note is done")),
        "Bob reports in the group: {said:#?}"
    );
    let mail = mail_of(core, Some(MailKind::Report)).await;
    assert!(
        mail.iter()
            .any(|m| m.title == "Requirement done: tune the gripper controls"),
        "{mail:#?}"
    );
}

/// The task Alice was given, as it ended.
async fn alices_task(o: &Office) -> cubicle_core::work::TaskDto {
    o.co.core
        .work
        .all()
        .await
        .unwrap()
        .into_iter()
        .find(|t| t.owner_id == o.alice)
        .expect("the secretary gave Alice the task")
}

/// The story played with Bob's answer and Alice's document as given; the task as it
/// ended, Alice's report in the boss chat and its mailbox copy.
async fn story_with(
    bob_says: &'static str,
    alice_writes: &'static str,
) -> (
    cubicle_core::work::TaskDto,
    String,
    cubicle_core::mailbox::MailDto,
    String,
) {
    let model = SmallModel::new(move |a| {
        if a.user.contains("Reply to") && a.name == "Bob" {
            (bob_says.to_owned(), "stop")
        } else if a.user.contains("Write it now") {
            (alice_writes.to_owned(), "stop")
        } else {
            cooperative(a)
        }
    });
    let o = office(model).await;
    o.engine.bootstrap().await.unwrap();
    o.instruct().await;
    o.run_for(TimeDelta::minutes(30)).await;
    let task = alices_task(&o).await;
    let core = &o.co.core;
    let boss_chat = core.chats.boss_chat(o.alice).await.unwrap();
    let report = core
        .chats
        .messages(boss_chat.id)
        .await
        .unwrap()
        .into_iter()
        .find(|m| m.sender_employee_id == Some(o.alice))
        .expect("Alice reports to the boss")
        .text;
    let mail = mail_of(core, Some(MailKind::Report)).await;
    assert_eq!(mail.len(), 1, "{mail:?}");
    let doc = core
        .deliverable(DeliverableRef { task_id: task.id })
        .await
        .unwrap()
        .text;
    (task, report, mail[0].clone(), doc)
}

/// Bob's off-topic reply, copied under a title, is not "Done": the task waits for the
/// boss's review, and the report and its mailbox copy say why.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_deliverable_that_copies_a_colleagues_reply_needs_review() {
    const BOB: &str = "Not sure, I was out at lunch. Maybe ask someone else about it.";
    let (task, report, mail, doc) = story_with(
        BOB,
        "Design note\n- Not sure, I was out at lunch. Maybe ask someone else about it.",
    )
    .await;
    assert_eq!(task.status, cubicle_core::work::TaskStatus::Resolved);
    assert_eq!(
        task.needs_review,
        Some(cubicle_core::work::ReviewReason::CopiesMessage),
        "{task:?}"
    );
    assert!(
        report.contains("Needs your review: it repeats a chat message"),
        "{report}"
    );
    assert!(mail.title.starts_with("Needs review: "), "{mail:?}");
    assert!(mail.body.contains("Needs your review"), "{mail:?}");
    // The small offline model's work says plainly that it is a draft.
    assert!(doc.contains("Draft by the small offline model"), "{doc}");
    assert!(
        report.contains("Draft by the small offline model"),
        "{report}"
    );
}

/// Two lines about something else entirely: off topic, not done.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_two_line_off_topic_deliverable_needs_review() {
    let (task, report, mail, _) = story_with(
        "The gripper needs about 4 s to home, and the timeout is 2 s. Raise it.",
        "Team lunch\nWe could order pizza for everyone on Friday afternoon.",
    )
    .await;
    assert_eq!(
        task.needs_review,
        Some(cubicle_core::work::ReviewReason::OffTopic),
        "{task:?}"
    );
    assert!(report.contains("Needs your review"), "{report}");
    assert!(mail.title.starts_with("Needs review: "), "{mail:?}");
}

/// A proper, on-topic note is done, and still said to be a small model's draft.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_on_topic_deliverable_is_done_and_marked_as_a_draft() {
    let (task, report, mail, doc) = story_with(
        "The gripper needs about 4 s to home, and the timeout is 2 s. Raise it.",
        "Gripper calibration timeout\n- The gripper needs about 4 s to home (Bob).\n\
         - Raise the timeout from 2 s to 5 s.\n- Log each calibration step.",
    )
    .await;
    assert_eq!(task.needs_review, None, "{task:?}");
    assert!(!report.contains("Needs your review"), "{report}");
    assert!(mail.title.starts_with("Done: "), "{mail:?}");
    assert!(
        doc.trim_end().ends_with(&format!(
            "> Draft by the small offline model ({}): check it before you use it.",
            super::small_model::SMALL_MODEL
        )),
        "{doc}"
    );
}

/// Bob's small model answers with a raw JSON thought: it is never posted in the chat.
/// A JSON answer that carries a message is repaired to that message; one that carries
/// none is asked again and, still JSON, dropped on record.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_small_models_raw_json_answer_is_never_a_chat_message() {
    for (bob_says, posted) in [
        (
            r#"{"innerThoughts":"Alice again, sigh","shouldSpeak":true}"#,
            None,
        ),
        (
            r#"{"innerThoughts":"easy","messages":[{"content":"The gripper needs 4 s to home."}]}"#,
            Some("The gripper needs 4 s to home."),
        ),
    ] {
        let model = SmallModel::new(move |a| {
            if a.user.contains("Reply to") && a.name == "Bob" {
                (bob_says.to_owned(), "stop")
            } else {
                cooperative(a)
            }
        });
        let o = office(model).await;
        o.engine.bootstrap().await.unwrap();
        o.instruct().await;
        o.run_for(TimeDelta::minutes(10)).await;
        let bobs: Vec<String> = o
            .employee_messages()
            .await
            .into_iter()
            .filter(|m| m.sender_employee_id == Some(o.bob))
            .map(|m| m.text)
            .collect();
        assert!(
            bobs.iter()
                .all(|t| !t.contains("innerThoughts") && !t.starts_with('{')),
            "{bobs:?}"
        );
        match posted {
            Some(text) => assert_eq!(bobs, [text]),
            None => {
                assert!(bobs.is_empty(), "{bobs:?}");
                assert!(o.engine.stats().malformed >= 1, "dropped on record");
            }
        }
    }
}
