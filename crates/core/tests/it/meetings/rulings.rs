//! Objections and rulings (SPEC §9): an objection in a meeting is ruled by whoever has
//! jurisdiction, or by a weighted vote without them, with the whole chain on record,
//! in English and in Chinese.

use chrono::TimeDelta;
use cubicle_core::meeting::arbitration::{DecisionType, Outcome, Position, Stance};
use cubicle_core::meeting::moderator::Strategy;
use cubicle_core::types::*;
use serde_json::Value;

use super::{Room, TRIO, room};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_objection_on_a_tech_question_is_ruled_by_the_engineering_lead_with_its_chain() {
    let r = room(&TRIO).await;
    r.say("Bob", &["Let's move the API to GraphQL this quarter."]);
    r.say(
        "Alice",
        &["I disagree, REST is enough for our two clients."],
    );
    r.say(
        "Carol",
        &["Agree with Bob, GraphQL would save the frontend a lot."],
    );
    let chat = r
        .open(
            "API roadmap",
            &["Bob", "Carol", "Alice"],
            Strategy::RoundRobin,
        )
        .await;
    r.run_for(TimeDelta::hours(2)).await;

    let decisions = r.co.core.meetings.decisions(chat).await.unwrap();
    let d = decisions
        .iter()
        .find(|d| d.question == "Let's move the API to GraphQL this quarter.")
        .expect("a ruling on the proposal");
    assert_eq!(d.decision_type, DecisionType::Tech);
    assert_eq!(
        d.status,
        cubicle_core::meeting::arbitration::DecisionStatus::Decided
    );
    assert_eq!(
        d.decided_by_kind,
        cubicle_core::meeting::arbitration::DecidedByKind::Lead
    );
    assert_eq!(d.decided_by_employee_id, Some(r.id("Alice")));
    assert_eq!(d.outcome, Outcome::Rejected);
    let chain: Vec<Value> = serde_json::from_value(d.authorization_chain.clone()).unwrap();
    let links: Vec<(String, String)> = chain
        .iter()
        .map(|l| {
            (
                l["who"].as_str().unwrap().to_owned(),
                l["role"].as_str().unwrap().to_owned(),
            )
        })
        .collect();
    assert_eq!(
        links,
        [
            ("Bob".to_owned(), "proposed".to_owned()),
            ("Carol".to_owned(), "supported".to_owned()),
            ("Alice".to_owned(), "opposed".to_owned()),
            ("Alice".to_owned(), "decided".to_owned()),
        ]
    );
    assert!(
        chain[3]["rule"]
            .as_str()
            .unwrap()
            .contains("engineering lead")
    );
    assert!(r.texts(chat).await.iter().any(|t| t.starts_with(
        "Ruling: \"Let's move the API to GraphQL this quarter.\" is rejected (Alice)"
    )),);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn without_the_lead_a_weighted_vote_decides_and_is_recorded() {
    let r = room(&[
        ("Alice", "Backend Engineer"),
        ("Bob", "QA Engineer"),
        ("Carol", "Frontend Engineer"),
        ("Dave", "Frontend Engineer"),
    ])
    .await;
    let chat = r
        .open(
            "Test strategy",
            &["Bob", "Carol", "Dave"],
            Strategy::RuleBased,
        )
        .await;
    // Alice, who has jurisdiction over tech, is not in the room. Bob (leads QA, +1; his
    // automation skill matches, +1) proposes; Carol and Dave (1 each) oppose: 3.0
    // against 2.0 — outnumbered, Bob's weight carries it.
    let ruled =
        r.co.core
            .meetings
            .arbitrate(
                Some(chat),
                "Should we add automation for the flaky integration test suite?",
                &[
                    Position {
                        employee_id: r.id("Bob"),
                        stance: Stance::Support,
                        proposer: true,
                    },
                    Position {
                        employee_id: r.id("Carol"),
                        stance: Stance::Oppose,
                        proposer: false,
                    },
                    Position {
                        employee_id: r.id("Dave"),
                        stance: Stance::Oppose,
                        proposer: false,
                    },
                ],
                Some("tr-000000000042".into()),
            )
            .await
            .unwrap();
    assert_eq!(
        ruled.record.decided_by_kind,
        cubicle_core::meeting::arbitration::DecidedByKind::Vote
    );
    assert_eq!(ruled.record.trace_id.as_deref(), Some("tr-000000000042"));
    assert_eq!(ruled.record.outcome, Outcome::Approved);
    assert_eq!(
        ruled.record.status,
        cubicle_core::meeting::arbitration::DecisionStatus::Decided
    );
    let chain: Vec<Value> = serde_json::from_value(ruled.record.authorization_chain).unwrap();
    let weights: Vec<f64> = chain
        .iter()
        .take(3)
        .map(|l| l["weight"].as_f64().unwrap())
        .collect();
    assert_eq!(weights, [3.0, 1.0, 1.0]);
    assert_eq!(chain[3]["who"], "vote");
    assert_eq!(chain[3]["role"], "decided");
}

/// The ruling on `proposal` is decided with Bob proposing and Alice opposing in its
/// chain, and the company's list of decisions (`cubicle-cli decisions`) has it with
/// its meeting and its chain.
async fn the_proposal_was_ruled_with_the_objector_in_its_chain(
    r: &Room,
    chat: i32,
    proposal: &str,
) {
    let decisions = r.co.core.meetings.decisions(chat).await.unwrap();
    let d = decisions
        .iter()
        .find(|d| d.question == proposal)
        .unwrap_or_else(|| panic!("no ruling on {proposal:?}: {decisions:?}"));
    assert_eq!(
        d.status,
        cubicle_core::meeting::arbitration::DecisionStatus::Decided
    );
    let chain: Vec<Value> = serde_json::from_value(d.authorization_chain.clone()).unwrap();
    assert_eq!(
        (chain[0]["who"].as_str(), chain[0]["role"].as_str()),
        (Some("Bob"), Some("proposed"))
    );
    assert!(
        chain
            .iter()
            .any(|l| l["who"] == "Alice" && l["role"] == "opposed"),
        "{chain:?}"
    );
    // The company's list of decisions (`cubicle-cli decisions`) has it, with its
    // meeting and its chain.
    let all = r.co.core.meetings.all_decisions().await.unwrap();
    let listed = all.iter().find(|x| x.decision.id == d.id).unwrap();
    assert_eq!(listed.topic.as_deref(), Some("v2 launch"));
    assert_eq!(listed.chat_id, Some(chat));
    assert_eq!(listed.decision.authorization_chain.len(), chain.len());
}

/// The ruling is announced in the chat and written into the minutes, in the company's
/// language (no English word in Chinese minutes).
async fn the_ruling_is_in_the_chat_and_the_minutes(r: &Room, chat: i32, proposal: &str, zh: bool) {
    let ruling_prefix = if zh { "裁定：" } else { "Ruling: " };
    assert!(
        r.texts(chat)
            .await
            .iter()
            .any(|t| t.starts_with(ruling_prefix)),
        "{:?}",
        r.texts(chat).await
    );
    let minutes =
        r.co.core
            .meetings
            .find(chat)
            .await
            .unwrap()
            .unwrap()
            .minutes
            .unwrap();
    if zh {
        assert!(
            minutes.contains(&format!("裁定（一般）：{proposal} → ")),
            "{minutes}"
        );
        for english in ["other", "approved", "rejected", "Ruled"] {
            assert!(!minutes.contains(english), "{english} in {minutes}");
        }
    } else {
        assert!(
            minutes.contains(&format!("Ruled (general): {proposal} → ")),
            "{minutes}"
        );
    }
}

/// A proposal, an objection and an agreement in one round; the objection gets a
/// ruling with the objector in its chain and the meeting is not closed as consensus.
async fn objection_is_ruled(zh: bool, proposal: &str, objection: &str, agreement: &str) {
    let r = room(&TRIO).await;
    if zh {
        r.co.speak(Language::ZhCn).await;
    }
    r.say("Bob", &[proposal]);
    r.say("Alice", &[objection]);
    r.say("Carol", &[agreement]);
    let chat = r
        .open(
            "v2 launch",
            &["Bob", "Alice", "Carol"],
            Strategy::RoundRobin,
        )
        .await;
    r.run_for(TimeDelta::hours(2)).await;

    the_proposal_was_ruled_with_the_objector_in_its_chain(&r, chat, proposal).await;
    // The close, when it came, was not a consensus over the objection.
    let notes = r.co.core.meetings.notes(chat).await.unwrap();
    assert!(
        notes.iter().all(
            |n| n.move_kind != cubicle_core::meeting::moderator::MoveKind::Close
                || !n.reason.contains("consensus")
        ),
        "{notes:?}"
    );
    the_ruling_is_in_the_chat_and_the_minutes(&r, chat, proposal, zh).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_english_no_too_risky_is_an_objection_and_gets_a_ruling() {
    objection_is_ruled(
        false,
        "Let's launch v2 for everyone in Q3.",
        "No, too risky: the payment flow is untested.",
        "Sounds good to me.",
    )
    .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_chinese_bu_keyi_is_an_objection_and_gets_a_ruling_in_chinese() {
    objection_is_ruled(
        true,
        "我们Q3就给所有人上线v2吧",
        "这个方案不可以，Q3风险太大",
        "同意，就按这个来",
    )
    .await;
}

#[derive(serde::Deserialize)]
struct LabelledStance {
    text: String,
    stance: cubicle_core::meeting::stance::TurnStance,
}

#[test]
fn the_labelled_objections_and_agreements_read_right_in_both_languages() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tests/corpus/stances.jsonl"
    );
    let set: Vec<LabelledStance> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    use cubicle_core::meeting::stance::{TurnStance, stance};
    for want in [TurnStance::Objects, TurnStance::Agrees, TurnStance::Neither] {
        for zh in [true, false] {
            let n = set
                .iter()
                .filter(|l| l.stance == want && l.text.chars().any(|c| c > '\u{2e80}') == zh)
                .count();
            assert!(n >= 2, "only {n} labelled {want:?} (zh: {zh})");
        }
    }
    let wrong: Vec<String> = set
        .iter()
        .filter(|l| stance(&l.text) != l.stance)
        .map(|l| format!("{:?}: {:?}, want {:?}", l.text, stance(&l.text), l.stance))
        .collect();
    assert!(
        wrong.is_empty(),
        "{} of {} wrong:\n{}",
        wrong.len(),
        set.len(),
        wrong.join("\n")
    );
}
