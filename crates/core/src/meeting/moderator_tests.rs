//! The moderator's strategies on hand-made meetings.

use super::*;

fn person(id: i32, name: &str, expertise: &[&str], present: bool) -> Participant {
    Participant {
        id,
        name: name.into(),
        title: String::new(),
        expertise: expertise.iter().map(|s| (*s).to_owned()).collect(),
        department: None,
        present,
    }
}

fn said(id: i32, text: &str) -> Turn {
    Turn {
        speaker_id: Some(id),
        text: text.into(),
        passed: false,
    }
}

fn room() -> Vec<Participant> {
    vec![
        person(1, "Alice", &["backend", "database", "api"], true),
        person(2, "Bob", &["testing", "qa", "load"], true),
        person(3, "Carol", &["frontend", "react"], true),
    ]
}

fn speaker(m: &Move) -> i32 {
    match m {
        Move::Speak { employee_id, .. } => *employee_id,
        other => panic!("expected a speaker, got {other:?}"),
    }
}

#[test]
fn round_robin_goes_in_order_once_per_round_and_closes_after_the_rounds() {
    let people = room();
    let limits = Limits {
        rounds: 2,
        ..Limits::default()
    };
    let mut history = vec![];
    let mut order = vec![];
    loop {
        let m = next(
            Strategy::RoundRobin,
            "Q3 plan",
            &people,
            &history,
            &limits,
            None,
        );
        match m {
            Move::Speak { employee_id, .. } => {
                order.push(employee_id);
                history.push(said(employee_id, "something"));
            }
            Move::Close { reason } => {
                assert!(reason.contains("2 rounds"), "{reason}");
                break;
            }
            Move::Invite { .. } => panic!("round-robin never invites"),
        }
        assert!(order.len() <= 6, "must close after two rounds");
    }
    assert_eq!(order, [1, 2, 3, 1, 2, 3]);
}

#[test]
fn round_robin_lets_a_late_joiner_speak_next_and_respects_the_turn_cap() {
    let mut people = room();
    people.push(person(4, "Dave", &[], true));
    let history = vec![said(1, "a"), said(2, "b"), said(3, "c")];
    let m = next(
        Strategy::RoundRobin,
        "t",
        &people,
        &history,
        &Limits::default(),
        None,
    );
    assert_eq!(speaker(&m), 4);
    let capped = Limits {
        max_turns: 3,
        ..Limits::default()
    };
    assert!(matches!(
        next(Strategy::RoundRobin, "t", &people, &history, &capped, None),
        Move::Close { .. }
    ));
}

#[test]
fn rule_based_lets_the_addressed_person_answer() {
    let people = room();
    let history = vec![said(1, "@Carol can the form show the error inline?")];
    let m = next(
        Strategy::RuleBased,
        "login",
        &people,
        &history,
        &Limits::default(),
        None,
    );
    assert_eq!(speaker(&m), 3);
    assert!(m.reason().contains("addressed"));
    // By plain first name too.
    let history = vec![said(3, "Bob, what do you think?")];
    let m = next(
        Strategy::RuleBased,
        "login",
        &people,
        &history,
        &Limits::default(),
        None,
    );
    assert_eq!(speaker(&m), 2);
}

#[test]
fn rule_based_picks_the_best_expertise_match_then_who_spoke_least() {
    let people = room();
    let history = vec![said(3, "the database index is missing on the api table")];
    let m = next(
        Strategy::RuleBased,
        "perf",
        &people,
        &history,
        &Limits::default(),
        None,
    );
    assert_eq!(speaker(&m), 1, "{m:?}");
    assert!(m.reason().contains("database"));
    // Nothing matches: the one who spoke least, never the last speaker.
    let history = vec![said(1, "hello"), said(2, "hi"), said(1, "weather")];
    let m = next(
        Strategy::RuleBased,
        "chat",
        &people,
        &history,
        &Limits::default(),
        None,
    );
    assert_eq!(speaker(&m), 3);
}

#[test]
fn rule_based_invites_an_outsider_who_covers_what_nobody_present_does() {
    let mut people = room();
    people.push(person(9, "Grace", &["legal", "gdpr", "合规"], false));
    let history = vec![said(1, "Are we allowed to store this under GDPR?")];
    let m = next(
        Strategy::RuleBased,
        "data",
        &people,
        &history,
        &Limits::default(),
        None,
    );
    match &m {
        Move::Invite {
            employee_ids,
            reason,
        } => {
            assert_eq!(employee_ids, &[9]);
            assert!(reason.contains("gdpr"), "{reason}");
        }
        other => panic!("expected an invite, got {other:?}"),
    }
    let history = vec![said(1, "这个方案合规吗？")];
    assert!(matches!(
        next(
            Strategy::RuleBased,
            "data",
            &people,
            &history,
            &Limits::default(),
            None
        ),
        Move::Invite { .. }
    ));
    // Once she is in, nobody is invited again.
    people[3].present = true;
    assert!(matches!(
        next(
            Strategy::RuleBased,
            "data",
            &people,
            &history,
            &Limits::default(),
            None
        ),
        Move::Speak { employee_id: 9, .. }
    ));
}

#[test]
fn rule_based_closes_on_consensus_but_not_on_a_lively_debate() {
    let people = room();
    let mut history = vec![
        said(1, "we should shard the orders table by region"),
        said(2, "sharding makes the load tests much harder to run"),
    ];
    let m = next(
        Strategy::RuleBased,
        "db",
        &people,
        &history,
        &Limits::default(),
        None,
    );
    assert!(matches!(m, Move::Speak { .. }), "{m:?}");
    history.push(said(3, "I agree, shard by region"));
    history.push(said(1, "Sounds good to me"));
    history.push(said(2, "同意"));
    let m = next(
        Strategy::RuleBased,
        "db",
        &people,
        &history,
        &Limits::default(),
        None,
    );
    match m {
        Move::Close { reason } => assert!(reason.contains("consensus"), "{reason}"),
        other => panic!("expected a close, got {other:?}"),
    }
    // An objection among the last turns keeps the meeting going.
    history.push(said(3, "actually I disagree, regions are uneven"));
    assert!(matches!(
        next(
            Strategy::RuleBased,
            "db",
            &people,
            &history,
            &Limits::default(),
            None
        ),
        Move::Speak { .. }
    ));
}

#[test]
fn rule_based_closes_at_the_turn_cap() {
    let people = room();
    let history: Vec<Turn> = (0..4)
        .map(|i| {
            said(
                1 + i % 3,
                &format!("fresh idea number {i} about caching layers {i}"),
            )
        })
        .collect();
    let limits = Limits {
        max_turns: 4,
        ..Limits::default()
    };
    match next(Strategy::RuleBased, "t", &people, &history, &limits, None) {
        Move::Close { reason } => assert!(reason.contains("cap")),
        other => panic!("expected a close, got {other:?}"),
    }
}

#[test]
fn model_picked_takes_a_valid_pick_and_invites_a_picked_outsider() {
    let mut people = room();
    people.push(person(9, "Grace", &["legal"], false));
    let history = vec![said(1, "the api is ready")];
    let pick = ModelPick {
        speaker: "Carol".into(),
        reason: "Carol owns the screens that call it".into(),
    };
    let m = next(
        Strategy::ModelPicked,
        "t",
        &people,
        &history,
        &Limits::default(),
        Some(&pick),
    );
    assert_eq!(
        m,
        Move::Speak {
            employee_id: 3,
            reason: "Carol owns the screens that call it".into()
        }
    );
    let pick = ModelPick {
        speaker: "Grace".into(),
        reason: "a legal view is missing".into(),
    };
    assert!(matches!(
        next(Strategy::ModelPicked, "t", &people, &history, &Limits::default(), Some(&pick)),
        Move::Invite { employee_ids, .. } if employee_ids == [9]
    ));
}

#[test]
fn model_picked_falls_back_to_the_rules_on_an_invalid_pick() {
    let people = room();
    let history = vec![said(1, "@Bob are the load tests green?")];
    for bad in ["Mallory", "Alice"] {
        let pick = ModelPick {
            speaker: bad.into(),
            reason: "because".into(),
        };
        let m = next(
            Strategy::ModelPicked,
            "t",
            &people,
            &history,
            &Limits::default(),
            Some(&pick),
        );
        assert_eq!(speaker(&m), 2, "{bad}: the rules pick the addressed Bob");
        assert!(m.reason().contains("by the rules"), "{}", m.reason());
    }
    let m = next(
        Strategy::ModelPicked,
        "t",
        &people,
        &history,
        &Limits::default(),
        None,
    );
    assert_eq!(speaker(&m), 2);
}

#[test]
fn keywords_match_whole_words_and_chinese_substrings() {
    assert!(mentions_keyword("Fix the UI, please", "ui"));
    assert!(!mentions_keyword("build it", "ui"));
    assert!(mentions_keyword("这个方案合规吗", "合规"));
    // Chinese runs straight into Latin words: they are still words.
    assert!(mentions_keyword("我们把API迁到GraphQL吧", "api"));
    assert!(mentions_keyword("我们把API迁到GraphQL吧", "graphql"));
    assert!(!mentions_keyword("我们把APIs迁走", "api"));
    assert!(agrees("I agree"));
    assert!(!agrees("I disagree"));
    assert!(agrees("同意"));
    assert!(!agrees("我不同意"));
}
