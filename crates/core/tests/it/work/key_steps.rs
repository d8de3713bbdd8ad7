//! Key steps that are not tools someone granted (SPEC §8): changing the team's memory
//! and committing to a date wait for the boss under `key_steps`, whatever the
//! employee's whitelist; a private memory is written at once; under `auto` the shared
//! memory is written and the policy is recorded as the decider.

use crate::util::DecideShown;
use chrono::TimeDelta;
use cubicle_core::approvals::{ApprovalFilter, ApprovalStatus, DecidedVia, Decision};
use cubicle_core::mind::memory_rules::{Viewer, Visibility};
use cubicle_core::types::{ApprovalPolicy, EmployeeStatus};
use serde_json::{Value, json};

use super::playbook::{Seen, silent, speak};
use super::{Stage, engineering};

const FREEZE: &str = "The API freeze is on Friday 4 December";

/// Alice files what the boss tells her: the freeze for the team, a note for herself;
/// asked for a date for the client, she asks to commit to one first.
fn keeper(s: &Seen) -> Value {
    match s.name.as_str() {
        "Alice" if s.private_with_boss && s.new_from("Ada", "freeze") => {
            let mut v = speak(
                "The team must know this.",
                &[("Noted, I'll make sure the team knows.", None)],
                json!([]),
            );
            v["memoryOps"] = json!([
                {"op": "add", "type": "long_term", "content": FREEZE, "importance": 8, "visibility": "team"},
                {"op": "add", "type": "short_term", "content": "Ada told me about the freeze herself", "visibility": "private"}
            ]);
            v
        }
        "Alice" if s.private_with_boss && s.new_from("Ada", "Acme") => {
            let mut v = speak(
                "I can't promise a date on my own.",
                &[("I'll ask to commit to the 15th first.", None)],
                json!([]),
            );
            v["toolCalls"] = json!([{
                "tool": "commit_to_date",
                "args": {"what": "public API v1", "date": "2026-12-15", "to": "Acme"},
                "reason": "Acme asked when v1 ships"
            }]);
            v
        }
        name => silent(name),
    }
}

/// What `who` can recall about the freeze (their department's view).
async fn recalls_freeze(stage: &Stage, who: i32) -> bool {
    let core = &stage.co.core;
    let me = core
        .org
        .all_employees()
        .await
        .unwrap()
        .into_iter()
        .find(|e| e.id == who)
        .unwrap();
    let viewer = Viewer {
        employee_id: who,
        department_id: me.department_id,
        requirement_ids: vec![],
    };
    core.minds
        .recall(&viewer, "API freeze Friday", 10)
        .await
        .unwrap()
        .iter()
        .any(|m| m.content == FREEZE)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_team_memory_waits_for_the_boss_and_a_private_one_does_not() {
    let stage = Stage::new(keeper).await;
    let (alice, bob, _charlie, _group) = engineering(&stage).await;
    let core = &stage.co.core;
    // No tools at all: key steps need no whitelist, only the policy's word.
    core.approvals
        .set_tool_whitelist(alice, vec![])
        .await
        .unwrap();
    let boss_chat = core.chats.boss_chat(alice).await.unwrap();
    stage
        .boss_says(
            boss_chat.id,
            "Alice, remember for the team: the API freeze is this Friday.",
        )
        .await;
    stage.run_for(TimeDelta::minutes(10)).await;

    let profile = core.minds.profile(alice).await.unwrap();
    assert!(
        profile
            .memories
            .iter()
            .any(|m| m.content.contains("told me about the freeze")
                && m.visibility == Visibility::Private),
        "her private note is written at once"
    );
    assert!(
        !profile.memories.iter().any(|m| m.content == FREEZE),
        "the team memory is not written before approval"
    );
    assert!(!recalls_freeze(&stage, bob).await);
    let waiting = core.approvals.list(ApprovalFilter::Pending).await.unwrap();
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    let a = &waiting[0];
    assert_eq!(
        (a.employee_id, a.tool.as_str()),
        (alice, "change_team_memory")
    );
    assert!(a.summary.contains(FREEZE), "{}", a.summary);
    assert_eq!(
        core.org
            .all_employees()
            .await
            .unwrap()
            .iter()
            .find(|e| e.id == alice)
            .unwrap()
            .status,
        EmployeeStatus::WaitingApproval
    );

    core.approvals
        .decide_shown(a.id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert!(
        recalls_freeze(&stage, bob).await,
        "once approved, Bob sees what Alice shared"
    );
    let shared = core.minds.profile(alice).await.unwrap();
    let m = shared
        .memories
        .iter()
        .find(|m| m.content == FREEZE)
        .unwrap();
    assert_eq!(m.visibility, Visibility::Team);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_date_commitment_waits_and_a_rejection_leaves_no_promise() {
    let stage = Stage::new(keeper).await;
    let (alice, _bob, _charlie, _group) = engineering(&stage).await;
    let core = &stage.co.core;
    let boss_chat = core.chats.boss_chat(alice).await.unwrap();
    stage
        .boss_says(
            boss_chat.id,
            "Alice, Acme wants to know when the public API v1 ships.",
        )
        .await;
    stage.run_for(TimeDelta::minutes(10)).await;
    let waiting = core.approvals.list(ApprovalFilter::Pending).await.unwrap();
    assert_eq!(waiting.len(), 1, "{waiting:?}");
    let a = &waiting[0];
    assert_eq!(a.tool, "commit_to_date");
    assert_eq!(a.summary, "commit to Acme: public API v1 by 2026-12-15");

    let decided = core
        .approvals
        .decide_shown(
            a.id,
            Decision::Reject,
            DecidedVia::Ui,
            Some("not before the freeze".into()),
        )
        .await
        .unwrap();
    assert_eq!(decided.status, ApprovalStatus::Rejected);
    let alice_memories = core.minds.profile(alice).await.unwrap().memories;
    assert!(
        !alice_memories
            .iter()
            .any(|m| m.content.contains("Committed")),
        "{alice_memories:?}"
    );
    // She hears the answer in her chat with the boss.
    let said = core.chats.messages(boss_chat.id).await.unwrap();
    assert!(
        said.iter()
            .any(|m| m.text.contains("rejected your request to commit to Acme")),
        "{said:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn under_auto_a_team_memory_is_written_and_the_policy_is_the_decider() {
    let stage = Stage::new(keeper).await;
    let (alice, bob, _charlie, _group) = engineering(&stage).await;
    let core = &stage.co.core;
    core.approvals
        .set_employee_policy(alice, Some(ApprovalPolicy::Auto))
        .await
        .unwrap();
    let boss_chat = core.chats.boss_chat(alice).await.unwrap();
    stage
        .boss_says(
            boss_chat.id,
            "Alice, remember for the team: the API freeze is this Friday.",
        )
        .await;
    stage.run_for(TimeDelta::minutes(10)).await;
    assert!(recalls_freeze(&stage, bob).await);
    assert!(
        core.approvals
            .list(ApprovalFilter::Pending)
            .await
            .unwrap()
            .is_empty()
    );
    let history = core
        .approvals
        .list(ApprovalFilter::History {
            status: Some(ApprovalStatus::Approved),
            employee_id: Some(alice),
        })
        .await
        .unwrap();
    assert_eq!(history.len(), 1);
    assert_eq!(history[0].tool, "change_team_memory");
    assert_eq!(history[0].decided_via, Some(DecidedVia::Policy));
}
