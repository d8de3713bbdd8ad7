//! Employees' minds as stored: memory caps, TTL archiving, de-duplication and visibility,
//! relationships with clamped steps and resets, stamina events — on a real SQLite file.

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_core::clock::ManualClock;
use cubicle_core::mind::memory_rules::{MemoryKind, Viewer, Visibility};
use cubicle_core::mind::minds::Minds;
use cubicle_core::mind::minds::{NewMemory, ResetRelationships};
use cubicle_core::mind::stamina::{StaminaEvent, Zone};
use cubicle_core::org::EmployeeDto;

use crate::util::TestCompany;

fn start() -> DateTime<Utc> {
    DateTime::parse_from_rfc3339("2026-11-30T08:00:00Z")
        .unwrap()
        .with_timezone(&Utc)
}

fn memory(kind: MemoryKind, content: &str, visibility: Visibility) -> NewMemory {
    NewMemory {
        kind,
        content: content.into(),
        importance: Some(6),
        ttl_hours: None,
        visibility,
        requirement_id: None,
        source_chat_id: None,
    }
}

const TOPICS: [&str; 24] = [
    "the staging database needs a bigger disk",
    "Priya wants weekly demos on Thursdays",
    "the login page breaks on Safari 16",
    "our CI cache expires every night",
    "marketing prefers blue for the launch banner",
    "Omar is on leave in the first week of January",
    "the payment provider changes its API in March",
    "customers asked for CSV export twice this week",
    "the Android app crashes when offline",
    "legal must review the new privacy text",
    "the office wifi drops after 6 pm",
    "invoices are due on the 5th",
    "Grace likes pull requests under 300 lines",
    "search results ignore accents",
    "the design system lacks a date picker",
    "load tests showed 40 ms p95 on the API",
    "the README still mentions Python 3.8",
    "support tickets doubled after the release",
    "Linus owns the deploy scripts",
    "translation to German is half done",
    "Friday releases are banned",
    "the logo file is in the shared drive",
    "backups were never restored in a drill",
    "the roadmap review is on the 12th",
];

/// A repeat of what `alice` already keeps is not stored twice.
async fn a_near_identical_memory_is_not_stored_twice(minds: &Minds, alice: &EmployeeDto) {
    let first = minds
        .remember(
            alice.id,
            alice.department_id,
            memory(
                MemoryKind::LongTerm,
                "Bob prefers GraphQL over REST",
                Visibility::Private,
            ),
        )
        .await
        .unwrap();
    assert!(first.is_some());
    let again = minds
        .remember(
            alice.id,
            alice.department_id,
            memory(
                MemoryKind::LongTerm,
                "bob prefers GraphQL over REST!",
                Visibility::Private,
            ),
        )
        .await
        .unwrap();
    assert_eq!(again, None, "a near-identical memory is a duplicate");
}

/// Short-term: at most 20; the overflow is archived to long-term with importance − 2,
/// and a day later the rest expire into long-term too.
async fn short_term_overflows_into_long_term_and_expires(
    minds: &Minds,
    clock: &ManualClock,
    alice: &EmployeeDto,
) {
    for t in &TOPICS[..21] {
        minds
            .remember(
                alice.id,
                alice.department_id,
                memory(MemoryKind::ShortTerm, t, Visibility::Private),
            )
            .await
            .unwrap();
        clock.advance(TimeDelta::seconds(1));
    }
    let p = minds.profile(alice.id).await.unwrap();
    let short: Vec<_> = p
        .memories
        .iter()
        .filter(|m| m.kind == MemoryKind::ShortTerm)
        .collect();
    assert_eq!(short.len(), 20);
    let archived = p
        .memories
        .iter()
        .find(|m| m.content == TOPICS[0])
        .expect("the oldest short-term entry was archived, not lost");
    assert_eq!(archived.kind, MemoryKind::LongTerm);
    assert_eq!(archived.importance, 4);

    // TTL: a day later the rest expire into long-term too.
    clock.advance(TimeDelta::hours(25));
    minds.expire(alice.id).await.unwrap();
    let p = minds.profile(alice.id).await.unwrap();
    assert!(p.memories.iter().all(|m| m.kind == MemoryKind::LongTerm));
}

/// Visibility: Alice's team memory reaches Bob in her department, her public one
/// reaches Sam in Sales too, her private one nobody else.
async fn team_and_public_memories_reach_only_whom_they_should(
    minds: &Minds,
    (alice, bob, sam): (&EmployeeDto, &EmployeeDto, &EmployeeDto),
) {
    minds
        .remember(
            alice.id,
            alice.department_id,
            memory(
                MemoryKind::LongTerm,
                "the release is frozen until the audit ends",
                Visibility::Team,
            ),
        )
        .await
        .unwrap();
    minds
        .remember(
            alice.id,
            alice.department_id,
            memory(
                MemoryKind::LongTerm,
                "the company offsite is in Lisbon",
                Visibility::Public,
            ),
        )
        .await
        .unwrap();
    let bobs = recall(minds, bob.id, bob.department_id).await;
    assert!(bobs.iter().any(|c| c.contains("frozen until the audit")));
    assert!(bobs.iter().any(|c| c.contains("Lisbon")));
    assert!(
        !bobs.iter().any(|c| c.contains("GraphQL")),
        "private stays private"
    );
    let sams = recall(minds, sam.id, sam.department_id).await;
    assert!(sams.iter().any(|c| c.contains("Lisbon")));
    assert!(
        !sams.iter().any(|c| c.contains("frozen")),
        "team means her department"
    );
}

#[tokio::test]
async fn memories_are_capped_deduplicated_archived_and_filtered_by_visibility() {
    let clock = ManualClock::new(start());
    let co = TestCompany::with_clock(clock.shared()).await;
    let eng = co.dept("Engineering", None).await;
    let sales = co.dept("Sales", None).await;
    let alice = co.hire("Alice", "Backend Engineer", Some(eng.id)).await;
    let bob = co.hire("Bob", "QA Engineer", Some(eng.id)).await;
    let sam = co.hire("Sam", "Account Executive", Some(sales.id)).await;
    let minds = &co.core.minds;

    // A repeat of what she already keeps is not stored twice.
    a_near_identical_memory_is_not_stored_twice(minds, &alice).await;
    // Short-term: at most 20; the overflow is archived to long-term with importance − 2.
    short_term_overflows_into_long_term_and_expires(minds, &clock, &alice).await;
    // Visibility: team → her department; public → everyone; private → nobody else.
    team_and_public_memories_reach_only_whom_they_should(minds, (&alice, &bob, &sam)).await;

    // The boss deletes a memory.
    let id = minds.profile(alice.id).await.unwrap().memories[0].id;
    minds.delete_memory(id).await.unwrap();
    assert!(
        minds
            .profile(alice.id)
            .await
            .unwrap()
            .memories
            .iter()
            .all(|m| m.id != id)
    );
}

async fn recall(minds: &Minds, id: i32, dept: Option<i32>) -> Vec<String> {
    minds
        .recall(
            &Viewer {
                employee_id: id,
                department_id: dept,
                requirement_ids: vec![],
            },
            "release audit offsite Lisbon GraphQL",
            50,
        )
        .await
        .unwrap()
        .into_iter()
        .map(|m| m.content)
        .collect()
}

#[tokio::test]
async fn affinity_moves_at_most_fifteen_per_interaction_and_the_boss_can_reset() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let alice = co.hire("Alice", "Backend Engineer", Some(eng.id)).await;
    let bob = co.hire("Bob", "QA Engineer", Some(eng.id)).await;
    let carol = co.hire("Carol", "Designer", Some(eng.id)).await;
    let minds = &co.core.minds;
    assert_eq!(
        minds
            .relate(alice.id, bob.id, Some("sharp tester"), Some(100))
            .await
            .unwrap(),
        65
    );
    assert_eq!(
        minds
            .relate(alice.id, bob.id, None, Some(100))
            .await
            .unwrap(),
        80
    );
    assert_eq!(
        minds
            .relate(alice.id, bob.id, None, Some(100))
            .await
            .unwrap(),
        95
    );
    assert_eq!(
        minds
            .relate(alice.id, bob.id, None, Some(100))
            .await
            .unwrap(),
        100
    );
    assert_eq!(
        minds
            .relate(alice.id, bob.id, None, Some(-40))
            .await
            .unwrap(),
        85
    );
    let long = "x".repeat(500);
    minds
        .relate(alice.id, carol.id, Some(&long), Some(10))
        .await
        .unwrap();
    let rels = minds.relationships(alice.id).await.unwrap();
    let bob_rel = rels.iter().find(|r| r.other_id == bob.id).unwrap();
    assert_eq!(
        bob_rel.impression, "sharp tester",
        "kept when no new impression"
    );
    assert_eq!(bob_rel.interactions, 5);
    let carol_rel = rels.iter().find(|r| r.other_id == carol.id).unwrap();
    assert!(carol_rel.impression.chars().count() <= 200);
    assert_eq!(carol_rel.affinity, 35);

    let graph = minds.graph().await.unwrap();
    assert_eq!(graph.nodes.len(), 3);
    assert_eq!(graph.edges.len(), 2);

    minds
        .reset_relationships(ResetRelationships {
            employee_id: alice.id,
            other_id: Some(bob.id),
        })
        .await
        .unwrap();
    assert_eq!(minds.relationships(alice.id).await.unwrap().len(), 1);
    minds
        .reset_relationships(ResetRelationships {
            employee_id: alice.id,
            other_id: None,
        })
        .await
        .unwrap();
    assert!(minds.relationships(alice.id).await.unwrap().is_empty());
}

#[tokio::test]
async fn stamina_follows_the_event_table_into_the_red_zone() {
    let co = TestCompany::new().await;
    let alice = co.hire("Alice", "Backend Engineer", None).await;
    let minds = &co.core.minds;
    assert_eq!(
        minds.profile(alice.id).await.unwrap().stamina.zone,
        Zone::Green
    );
    let s = minds
        .stamina_event(alice.id, StaminaEvent::TaskFailed)
        .await
        .unwrap();
    assert_eq!((s.patience, s.fatigue, s.stress), (80.0, 20.0, 35.0));
    for _ in 0..2 {
        minds
            .stamina_event(alice.id, StaminaEvent::TaskFailed)
            .await
            .unwrap();
    }
    let p = minds.profile(alice.id).await.unwrap();
    assert_eq!(p.stamina.zone, Zone::Red, "{:?}", p.stamina);
    assert!(
        cubicle_core::mind::stamina::Stamina::new(
            p.stamina.patience,
            p.stamina.fatigue,
            p.stamina.stress
        )
        .prompt_note()
        .is_some_and(|n| n.contains("entirely different approach"))
    );
    let s = minds
        .stamina_event(alice.id, StaminaEvent::TaskResolved)
        .await
        .unwrap();
    assert!(s.comfort() > p.stamina.comfort);
}
