//! The engine's baseline switches, which `cubicle-cli bench chat` races ours against:
//! each does what it says on the same department and the same scripted model.

use chrono::TimeDelta;
use cubicle_core::engine::{EngineConfig, PromptMode, WakeMode};

use super::world::{Mood, world, world_with};

fn config(change: impl FnOnce(&mut EngineConfig)) -> EngineConfig {
    let mut c = EngineConfig {
        seed: Some(7),
        ..EngineConfig::default()
    };
    change(&mut c);
    c
}

fn calls(w: &super::world::World) -> u64 {
    w.script.lock().unwrap().calls
}

#[tokio::test]
async fn a_fixed_interval_poller_thinks_at_every_poll_while_ours_stays_idle() {
    let ours = world().await;
    ours.engine.start_fixed_polls().await.unwrap();
    ours.run_for(TimeDelta::minutes(5)).await;
    assert_eq!(calls(&ours), 0, "nothing unread, nothing pending: no call");

    let poller = world_with(config(|c| {
        c.wake = WakeMode::FixedInterval {
            every: TimeDelta::seconds(10),
        }
    }))
    .await;
    // Saturated: nobody posts, so no gate holds a poll back.
    poller.script.lock().unwrap().mood = Some(Mood::Tired);
    poller.engine.start_fixed_polls().await.unwrap();
    poller.run_for(TimeDelta::minutes(5)).await;
    // Six people, a poll every 10 s for 5 minutes, each a call.
    let n = calls(&poller);
    assert!((6 * 30..=6 * 31).contains(&n), "{n} calls");
    // A message nudges nobody: it is read at the next poll.
    let polls = poller.engine.pending();
    poller.boss_says(poller.dept_chat, "Quick sync?").await;
    poller.engine.drain_events().await;
    assert_eq!(poller.engine.pending(), polls);
}

#[tokio::test]
async fn the_whole_history_prompt_shows_every_message_ours_the_newest() {
    let lines = |w: &super::world::World| {
        let s = w.script.lock().unwrap();
        let (_, prompt) = s.prompts.last().cloned().unwrap_or_default();
        prompt.lines().filter(|l| l.contains("] ")).count()
    };
    let mut seen = Vec::new();
    for prompt in [PromptMode::Budgeted, PromptMode::WholeHistory] {
        let w = world_with(config(|c| c.prompt = prompt)).await;
        let alice = w.id("Alice");
        for i in 0..40 {
            w.co.core
                .chats
                .post_as_employee(
                    w.dept_chat,
                    alice,
                    &format!("status line number {i} of the release"),
                )
                .await
                .unwrap();
        }
        w.script.lock().unwrap().mood = Some(Mood::Tired);
        w.boss_says(w.dept_chat, "Where are we?").await;
        w.run_for(TimeDelta::seconds(15)).await;
        // Saturated, nobody posted: the chat is what it was when they thought.
        let total = w.co.core.chats.messages(w.dept_chat).await.unwrap().len();
        seen.push((lines(&w), total));
    }
    assert!(seen[0].0 <= 20, "ours shows at most the last 20: {seen:?}");
    assert!(seen[1].1 >= 41, "{seen:?}");
    assert_eq!(
        seen[1].0, seen[1].1,
        "the naive prompt shows them all: {seen:?}"
    );
}

#[tokio::test]
async fn without_gates_a_saturated_topic_still_gets_posts() {
    let mut posted = Vec::new();
    for gates in [true, false] {
        let w = world_with(config(|c| c.gates = gates)).await;
        w.script.lock().unwrap().mood = Some(Mood::Tired);
        w.boss_says(w.dept_chat, "Anything else on the release?")
            .await;
        w.run_for(TimeDelta::minutes(2)).await;
        let messages = w.co.core.chats.messages(w.dept_chat).await.unwrap();
        posted.push(messages.len() - 1);
    }
    assert_eq!(posted[0], 0, "saturation 9 silences everyone: {posted:?}");
    assert!(
        posted[1] >= 5,
        "without the gates they all speak: {posted:?}"
    );
}
