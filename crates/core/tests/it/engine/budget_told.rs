//! A budget stop is told like a refusal (SPEC §17): a system line in the chat where the
//! employee was working, in the company's language, once however many calls the spent
//! budget blocks there; her next thought is told she was stopped, so she neither
//! pretends she answered nor promises; the boss's mail links to the budget.

use chrono::TimeDelta;
use cubicle_core::chat::SenderKind;
use cubicle_core::mailbox::MailKind;
use cubicle_core::org::SetBudget;
use cubicle_core::types::Language;

use super::world::world;
use crate::util::mail_of;

async fn a_budget_stop_is_told_once_in_the_chat_and_to_her_next_thought(
    lang: Language,
    line: &str,
    settings: &str,
    note: &str,
) {
    let w = world().await;
    w.co.speak(lang).await;
    // A thought or so spends the day's budget.
    w.expensive(0.5).await;
    w.boss_says(w.dept_chat, "Quick round: how is everyone?")
        .await;
    w.run_for(TimeDelta::minutes(10)).await;
    // More blocked calls in the same chat: no second line.
    w.boss_says(w.dept_chat, "Anyone? Please answer.").await;
    w.run_for(TimeDelta::minutes(10)).await;
    let core = &w.co.core;
    let said = core.chats.messages(w.dept_chat).await.unwrap();
    let lines: Vec<&str> = said
        .iter()
        .filter(|m| m.sender_kind == SenderKind::System && m.text.starts_with(line))
        .map(|m| m.text.as_str())
        .collect();
    assert_eq!(
        lines.len(),
        1,
        "one line, not one per blocked call: {said:#?}"
    );
    let text = lines[0];
    assert!(text.contains(settings), "{text}");
    assert!(text.contains("$0.50"), "it says the budget: {text}");
    assert!(
        w.people.iter().any(|p| text.contains(&p.name)),
        "it names who was stopped: {text}"
    );
    if lang == Language::ZhCn {
        assert!(
            !text.contains("Paused") && !text.contains("budget"),
            "{text}"
        );
    }
    let stopped_before = w.script.lock().unwrap().prompts.len();

    // The boss: one mail, linking to the budget.
    let mail = mail_of(core, Some(MailKind::Budget)).await;
    assert_eq!(mail.len(), 1, "{mail:?}");
    assert_eq!(mail[0].fix_href.as_deref(), Some("#settings/budget"));

    // The boss raises the budget and asks again: those the budget stopped are told so
    // in their next thought.
    core.org
        .set_budget(SetBudget {
            daily_budget_usd: 1_000.0,
        })
        .await
        .unwrap();
    w.boss_says(w.dept_chat, "Budget raised, carry on.").await;
    w.run_for(TimeDelta::minutes(10)).await;
    let script = w.script.lock().unwrap();
    let told: Vec<&String> = script.prompts[stopped_before..]
        .iter()
        .filter(|(_, p)| p.contains(note))
        .map(|(who, _)| who)
        .collect();
    assert!(!told.is_empty(), "nobody's next thought was told");
    // Told once: the thought after that one is not told again.
    let first = &told[0];
    let later: Vec<&String> = script.prompts[stopped_before..]
        .iter()
        .filter(|(who, _)| who == *first)
        .map(|(_, p)| p)
        .collect();
    assert!(later[0].contains(note), "her first thought after the stop");
    assert!(
        later.iter().skip(1).all(|p| !p.contains(note)),
        "only until she thinks again"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_stop_is_told_once_in_the_chat_and_to_the_employee() {
    a_budget_stop_is_told_once_in_the_chat_and_to_her_next_thought(
        Language::En,
        "Paused: today's model budget is spent",
        "Settings → Daily budget",
        "daily budget → refused: today's model budget ran out",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_budget_stop_is_told_in_chinese_in_a_chinese_company() {
    a_budget_stop_is_told_once_in_the_chat_and_to_her_next_thought(
        Language::ZhCn,
        "已暂停：今日模型预算已用完",
        "设置 → 每日预算",
        "每日预算 → 已拒绝",
    )
    .await;
}
