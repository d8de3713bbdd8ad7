//! Who answers first: the colleague the boss names (by name, in English or Chinese, or
//! by @mention) is woken first with the shortest nudge; the others wake after the answer
//! and see it before deciding whether they have anything to add.

use chrono::TimeDelta;

use super::at;
use super::world::{World, world};

/// The boss asks `named` in the department chat; checks who answered first and what
/// the others had seen when they thought.
async fn the_named_one_answers_first(w: &World, named: &str, question: &str) {
    let before = w.script.lock().unwrap().prompts.len();
    let asked = w.boss_says(w.dept_chat, question).await;
    w.run_for(TimeDelta::minutes(3)).await;

    let messages = w.co.core.chats.messages(w.dept_chat).await.unwrap();
    let boss = messages.iter().find(|m| m.id == asked).unwrap();
    let replies: Vec<_> = messages
        .iter()
        .filter(|m| m.id > asked && m.sender_kind == cubicle_core::chat::SenderKind::Employee)
        .collect();
    let first = replies.first().expect("someone answered");
    assert_eq!(
        first.sender_name,
        named,
        "the one asked answers first: {:?}",
        replies
            .iter()
            .map(|m| (m.sender_name.as_str(), m.created_at.as_str()))
            .collect::<Vec<_>>()
    );
    // The shortest nudge after a boss message (1 s) and the shortest wait to absorb
    // what follows (2 s).
    let lag = at(first) - at(boss);
    assert!(lag <= TimeDelta::seconds(3), "{named} answered after {lag}");

    // Nobody else thought before the answer was there, and each saw it.
    let prompts = w.script.lock().unwrap().prompts[before..].to_vec();
    let others: Vec<_> = prompts.iter().filter(|(who, _)| who != named).collect();
    assert!(!others.is_empty(), "the colleagues were woken too");
    for (who, prompt) in others {
        assert!(
            prompt.contains(&first.text),
            "{who} thought without seeing {named}'s answer:\n{prompt}"
        );
    }
    let thoughts = w.co.core.chats.view(w.dept_chat).await.unwrap().thoughts;
    let answered_at = at(first);
    for t in thoughts.iter().filter(|t| t.employee_name != named) {
        let when = chrono::DateTime::parse_from_rfc3339(&t.created_at).unwrap();
        if when >= at(boss) {
            assert!(
                when >= answered_at,
                "{} thought at {when}, before the answer at {answered_at}",
                t.employee_name
            );
        }
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_colleague_the_boss_names_answers_first_and_the_others_see_the_answer() {
    let w = world().await;
    the_named_one_answers_first(
        &w,
        "Alice",
        "Alice, what's the status of the gripper calibration?",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_at_mention_wakes_that_colleague_first() {
    let w = world().await;
    the_named_one_answers_first(&w, "Frank", "@Frank can the login screen ship today?").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_colleague_named_in_chinese_answers_first() {
    let w = world().await;
    let lina =
        w.co.hire("李娜", "测试工程师", w.people[0].department_id)
            .await;
    w.co.core.chats.join(w.dept_chat, lina.id).await.unwrap();
    the_named_one_answers_first(&w, "李娜", "李娜，夹爪校准的进度怎么样？").await;
}
