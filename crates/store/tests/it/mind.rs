//! Employees' minds and the richer chat queries, on a real SQLite file; and
//! the same scenarios on PostgreSQL when `CUBICLE_TEST_PG_URL` is set (scripts/test.sh
//! sets it), so every query is checked on both backends.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use chrono::{DateTime, Duration, TimeZone, Utc};
use cubicle_migrations::{Migrator, MigratorTrait};
use cubicle_store::entity::{chat, chat_member, chat_message, employee_state, memory, thought};
use cubicle_store::enums::{ChatKind, ChatMode, MemoryKind, SenderKind, SilenceReason, Visibility};
use cubicle_store::{ConnectionTrait, Db, chat as cq, connect, mind};
use sea_orm::ActiveValue::{NotSet, Set};
use sea_orm::{ActiveEnum, EntityTrait, PaginatorTrait};
use serde_json::json;

const ALICE: i32 = 1;
const BOB: i32 = 2;
const CAROL: i32 = 3;
const ENG: i32 = 1;
const OPS: i32 = 2;
const LOGIN: i32 = 1;

fn t0() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2026, 11, 30, 9, 0, 0).unwrap()
}

async fn sqlite() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    let db = connect(&url).await.expect("connect");
    (dir, db)
}

/// A company with two departments (Eng, Ops), Alice and Bob in Eng, Carol in Ops,
/// and a requirement "Login" of Eng. Fresh database, so the ids are 1, 2, 3.
async fn seed(db: &Db) {
    for sql in [
        "INSERT INTO company (name, mission, boss_name, language, approval_policy, daily_budget_usd, created_at, updated_at) VALUES ('Acme', '', 'Ada', 'en', 'key_steps', 2.0, '2026-11-30T00:00:00Z', '2026-11-30T00:00:00Z')",
        "INSERT INTO department (company_id, name, mission, created_at) VALUES (1, 'Eng', '', '2026-11-30T00:00:00Z')",
        "INSERT INTO department (company_id, name, mission, created_at) VALUES (1, 'Ops', '', '2026-11-30T00:00:00Z')",
        "INSERT INTO employee (company_id, name, title, department_id, archetype, speaking_style, skills, backend_provider, backend_model, tool_whitelist, status, hired_at) VALUES (1, 'Alice', 'Engineer', 1, 'old_hand', '', '[]', 'builtin', 'm', '[]', 'idle', '2026-11-30T00:00:00Z')",
        "INSERT INTO employee (company_id, name, title, department_id, archetype, speaking_style, skills, backend_provider, backend_model, tool_whitelist, status, hired_at) VALUES (1, 'Bob', 'Engineer', 1, 'chatterbox', '', '[]', 'builtin', 'm', '[]', 'idle', '2026-11-30T00:00:00Z')",
        "INSERT INTO employee (company_id, name, title, department_id, archetype, speaking_style, skills, backend_provider, backend_model, tool_whitelist, status, hired_at) VALUES (1, 'Carol', 'Operator', 2, 'philosopher', '', '[]', 'builtin', 'm', '[]', 'idle', '2026-11-30T00:00:00Z')",
        "INSERT INTO requirement (name, department_id, created_at) VALUES ('Login', 1, '2026-11-30T00:00:00Z')",
    ] {
        db.execute_unprepared(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
}

/// A chat made the way core makes them: new columns left to their defaults.
async fn new_chat(db: &Db, kind: ChatKind, members: &[i32]) -> chat::Model {
    let c = cq::insert_chat(
        db,
        chat::ActiveModel {
            id: NotSet,
            kind: Set(kind),
            name: Set(format!("{kind} chat")),
            department_id: Set(None),
            created_at: Set(t0()),
            ..Default::default()
        },
    )
    .await
    .expect("chat");
    for &e in members {
        cq::insert_member(
            db,
            chat_member::ActiveModel {
                chat_id: Set(c.id),
                employee_id: Set(e),
                joined_at: Set(t0()),
                ..Default::default()
            },
        )
        .await
        .expect("member");
    }
    c
}

/// `sender`: `None` is the boss, `Some(0)` the system, else an employee.
async fn post(
    db: &Db,
    chat_id: i32,
    sender: Option<i32>,
    at: DateTime<Utc>,
) -> chat_message::Model {
    let (kind, employee) = match sender {
        None => (SenderKind::Boss, None),
        Some(0) => (SenderKind::System, None),
        Some(e) => (SenderKind::Employee, Some(e)),
    };
    cq::insert_message(
        db,
        chat_message::ActiveModel {
            chat_id: Set(chat_id),
            sender_kind: Set(kind),
            sender_employee_id: Set(employee),
            text: Set("hello".into()),
            trace_id: Set(None),
            created_at: Set(at),
            ..Default::default()
        },
    )
    .await
    .expect("message")
}

fn mem(
    employee: i32,
    kind: &str,
    visibility: &str,
    department: Option<i32>,
    requirement: Option<i32>,
    expires_at: Option<DateTime<Utc>>,
) -> memory::ActiveModel {
    memory::ActiveModel {
        employee_id: Set(employee),
        kind: Set(MemoryKind::try_from_value(&kind.to_owned()).unwrap()),
        content: Set(format!("{employee} {kind} {visibility}")),
        importance: Set(5),
        visibility: Set(Visibility::try_from_value(&visibility.to_owned()).unwrap()),
        department_id: Set(department),
        requirement_id: Set(requirement),
        source_chat_id: Set(None),
        expires_at: Set(expires_at),
        created_at: Set(t0()),
        ..Default::default()
    }
}

fn ids<T>(rows: &[T], id: impl Fn(&T) -> i32) -> Vec<i32> {
    rows.iter().map(id).collect()
}

// ---------- scenarios (each starts from a fresh, migrated database) ----------

/// Seven memories: Alice's private, team (Eng, short-term, expiring soon) and public;
/// Bob's team ones for the Login requirement and for Ops, and his private one expiring
/// now; Carol's public one. Their ids, in that order.
async fn file_seven_memories(db: &Db, soon: DateTime<Utc>) -> [i32; 7] {
    let mut m = Vec::new();
    for am in [
        mem(ALICE, "long_term", "private", None, None, None),
        mem(ALICE, "short_term", "team", Some(ENG), None, Some(soon)),
        mem(ALICE, "long_term", "public", None, None, None),
        mem(BOB, "long_term", "team", None, Some(LOGIN), None),
        mem(BOB, "long_term", "team", Some(OPS), None, None),
        mem(BOB, "short_term", "private", None, None, Some(t0())),
        mem(CAROL, "long_term", "public", None, None, None),
    ] {
        m.push(mind::insert_memory(db, am).await.expect("insert").id);
    }
    m.try_into().unwrap()
}

/// Alice's memories by kind, and which memories a department and its requirements may
/// see (everyone's or everyone else's).
async fn each_viewer_is_offered_what_it_may_see(db: &Db, m: [i32; 7], soon: DateTime<Utc>) {
    let [a1, a2, a3, b1, b2, _b3, c1] = m;
    let all = mind::memories(db, ALICE).await.unwrap();
    assert_eq!(ids(&all, |r| r.id), [a1, a2, a3]);
    assert_eq!(all[1].expires_at, Some(soon));
    let short = mind::memories_of_kind(db, ALICE, MemoryKind::ShortTerm)
        .await
        .unwrap();
    assert_eq!(ids(&short, |r| r.id), [a2]);

    let visible = |d: Option<i32>, r: &'static [i32]| async move {
        let rows = mind::visible_memories_candidates(db, d, r).await.unwrap();
        ids(&rows, |r| r.id)
    };
    assert_eq!(visible(Some(ENG), &[]).await, [a2, a3, c1]);
    assert_eq!(visible(Some(ENG), &[LOGIN]).await, [a2, a3, b1, c1]);
    assert_eq!(visible(None, &[]).await, [a3, c1]);
    assert_eq!(visible(None, &[LOGIN]).await, [a3, b1, c1]);
    assert_eq!(visible(Some(OPS), &[]).await, [a3, b2, c1]);
    let others = mind::visible_memories_candidates_for(db, ALICE, Some(ENG), &[LOGIN])
        .await
        .unwrap();
    assert_eq!(ids(&others, |r| r.id), [b1, c1]);
}

/// Alice's short-term memory archived as long-term (an unknown one changes nothing),
/// Bob's expired one swept, and some deleted one by one or together.
async fn archived_expired_and_forgotten(db: &Db, m: [i32; 7]) {
    let [a1, a2, a3, b1, b2, b3, _c1] = m;
    assert_eq!(
        mind::update_memory_kind_importance(db, a2, MemoryKind::LongTerm, 8, None)
            .await
            .unwrap(),
        1
    );
    let a2m = mind::find_memory(db, a2).await.unwrap().expect("a2");
    assert_eq!(
        (a2m.kind, a2m.importance, a2m.expires_at),
        (MemoryKind::LongTerm, 8, None)
    );
    assert_eq!(
        mind::update_memory_kind_importance(db, 999, MemoryKind::LongTerm, 8, None)
            .await
            .unwrap(),
        0
    );

    // Only b3 has expired by then (a2 no longer expires).
    assert_eq!(
        mind::delete_expired_memories(db, t0() + Duration::hours(2))
            .await
            .unwrap(),
        1
    );
    assert!(mind::find_memory(db, b3).await.unwrap().is_none());

    mind::delete_memory(db, a1).await.unwrap();
    assert_eq!(mind::delete_memories(db, &[b1, b2, 999]).await.unwrap(), 2);
    assert_eq!(mind::delete_memories(db, &[]).await.unwrap(), 0);
    assert_eq!(
        ids(&mind::memories(db, ALICE).await.unwrap(), |r| r.id),
        [a2, a3]
    );
    assert!(mind::memories(db, BOB).await.unwrap().is_empty());
}

async fn memories_are_filed_filtered_and_forgotten(db: &Db) {
    seed(db).await;
    let soon = t0() + Duration::hours(1);
    let m = file_seven_memories(db, soon).await;
    each_viewer_is_offered_what_it_may_see(db, m, soon).await;
    // Archive the short-term entry as long-term.
    archived_expired_and_forgotten(db, m).await;

    // A memory outlives its source chat; it goes with its employee.
    let c = new_chat(db, ChatKind::Group, &[CAROL]).await;
    let mut am = mem(CAROL, "long_term", "private", None, None, None);
    am.source_chat_id = Set(Some(c.id));
    let kept = mind::insert_memory(db, am).await.unwrap();
    cq::delete_chat(db, c.id).await.unwrap();
    let kept = mind::find_memory(db, kept.id).await.unwrap().expect("kept");
    assert_eq!(kept.source_chat_id, None);
    db.execute_unprepared("DELETE FROM employee WHERE id = 3")
        .await
        .unwrap();
    assert!(mind::memories(db, CAROL).await.unwrap().is_empty());
}

async fn a_chat_summary_is_upserted(db: &Db) {
    seed(db).await;
    let c = new_chat(db, ChatKind::Department, &[ALICE, BOB]).await;
    assert!(mind::chat_summary(db, c.id).await.unwrap().is_none());
    let first = mind::upsert_chat_summary(db, c.id, "They met.", 5, t0())
        .await
        .unwrap();
    assert_eq!(
        (first.summary.as_str(), first.upto_message_id),
        ("They met.", 5)
    );
    let later = t0() + Duration::minutes(3);
    let second = mind::upsert_chat_summary(db, c.id, "They met and argued.", 9, later)
        .await
        .unwrap();
    assert_eq!(second.id, first.id);
    assert_eq!(
        mind::chat_summary(db, c.id).await.unwrap(),
        Some(second.clone())
    );
    assert_eq!(
        (
            second.summary.as_str(),
            second.upto_message_id,
            second.updated_at
        ),
        ("They met and argued.", 9, later)
    );
    let n = cubicle_store::entity::chat_summary::Entity::find()
        .count(db)
        .await
        .unwrap();
    assert_eq!(n, 1);
    cq::delete_chat(db, c.id).await.unwrap();
    assert!(mind::chat_summary(db, c.id).await.unwrap().is_none());
}

async fn relationships_count_interactions(db: &Db) {
    seed(db).await;
    let r1 = mind::upsert_relationship(db, ALICE, BOB, "seems ok", 50, t0())
        .await
        .unwrap();
    assert_eq!(r1.interactions, 1);
    let later = t0() + Duration::minutes(1);
    let r2 = mind::upsert_relationship(db, ALICE, BOB, "great help", 60, later)
        .await
        .unwrap();
    assert_eq!(r2.id, r1.id);
    assert_eq!(
        (
            r2.impression.as_str(),
            r2.affinity,
            r2.interactions,
            r2.updated_at
        ),
        ("great help", 60, 2, later)
    );
    let r3 = mind::upsert_relationship(db, ALICE, BOB, "great help", 65, later)
        .await
        .unwrap();
    assert_eq!(r3.interactions, 3);
    // Directed: Bob's view of Alice is its own row.
    let back = mind::upsert_relationship(db, BOB, ALICE, "bossy", 40, t0())
        .await
        .unwrap();
    assert_eq!(back.interactions, 1);
    mind::upsert_relationship(db, ALICE, CAROL, "quiet", 50, t0())
        .await
        .unwrap();

    assert_eq!(
        mind::relationship(db, ALICE, BOB).await.unwrap(),
        Some(r3.clone())
    );
    assert!(
        mind::relationship(db, CAROL, ALICE)
            .await
            .unwrap()
            .is_none()
    );
    let of_alice = mind::relationships_of(db, ALICE).await.unwrap();
    assert_eq!(ids(&of_alice, |r| r.other_employee_id), [BOB, CAROL]);
    assert_eq!(mind::all_relationships(db).await.unwrap().len(), 3);

    assert_eq!(mind::delete_relationship(db, ALICE, BOB).await.unwrap(), 1);
    assert_eq!(mind::delete_relationship(db, ALICE, BOB).await.unwrap(), 0);
    assert_eq!(mind::delete_relationships_of(db, ALICE).await.unwrap(), 1);
    let left = mind::all_relationships(db).await.unwrap();
    assert_eq!(
        ids(&left, |r| r.employee_id * 10 + r.other_employee_id),
        [BOB * 10 + ALICE]
    );
    // A fresh start counts from one again.
    let again = mind::upsert_relationship(db, ALICE, BOB, "hm", 50, t0())
        .await
        .unwrap();
    assert_eq!(again.interactions, 1);
}

async fn employee_state_is_upserted(db: &Db) {
    seed(db).await;
    assert!(mind::employee_state(db, ALICE).await.unwrap().is_none());
    let s = mind::upsert_employee_state(
        db,
        employee_state::ActiveModel {
            employee_id: Set(ALICE),
            patience: Set(100.0),
            fatigue: Set(0.0),
            stress: Set(12.5),
            updated_at: Set(t0()),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(s.review_rejections, 0, "defaults to 0");
    assert_eq!((s.patience, s.fatigue, s.stress), (100.0, 0.0, 12.5));

    // An existing row takes any subset.
    let later = t0() + Duration::minutes(5);
    let s2 = mind::upsert_employee_state(
        db,
        employee_state::ActiveModel {
            employee_id: Set(ALICE),
            review_rejections: Set(2),
            fatigue: Set(30.0),
            updated_at: Set(later),
            ..Default::default()
        },
    )
    .await
    .unwrap();
    assert_eq!(
        (s2.patience, s2.fatigue, s2.stress),
        (100.0, 30.0, 12.5),
        "the fields not given are kept"
    );
    assert_eq!((s2.review_rejections, s2.updated_at), (2, later));
    assert_eq!(mind::employee_state(db, ALICE).await.unwrap(), Some(s2));
    assert!(mind::employee_state(db, BOB).await.unwrap().is_none());

    let err = mind::upsert_employee_state(db, employee_state::ActiveModel::default()).await;
    assert!(err.is_err(), "employee_id is required");
}

fn a_thought(employee: i32, chat_id: Option<i32>, n: i32) -> thought::ActiveModel {
    thought::ActiveModel {
        employee_id: Set(employee),
        chat_id: Set(chat_id),
        inner_thoughts: Set(format!("thought {n}")),
        reason: Set("because".into()),
        should_speak: Set(n % 2 == 0),
        spoke: Set(false),
        silenced_by: Set((n % 2 == 0).then_some(SilenceReason::Cooldown)),
        interest: Set(Some(7)),
        saturation: Set(None),
        perspective_seed: Set("ask_detail".into()),
        prompt_tokens: Set(100 + n),
        ops: Set(json!({"memory": [{"op": "add", "n": n}], "relationship": []})),
        trace_id: Set(Some(format!("t-{n}"))),
        created_at: Set(t0() + Duration::seconds(i64::from(n))),
        ..Default::default()
    }
}

async fn thoughts_come_back_newest_window_oldest_first(db: &Db) {
    seed(db).await;
    let c = new_chat(db, ChatKind::Department, &[ALICE, BOB]).await;
    let mut t = Vec::new();
    for (n, (e, chat_id)) in [
        (ALICE, Some(c.id)),
        (BOB, Some(c.id)),
        (ALICE, Some(c.id)),
        (ALICE, None),
        (BOB, Some(c.id)),
        (ALICE, Some(c.id)),
    ]
    .into_iter()
    .enumerate()
    {
        let n = i32::try_from(n).unwrap();
        t.push(
            mind::insert_thought(db, a_thought(e, chat_id, n))
                .await
                .unwrap(),
        );
    }
    assert_eq!(
        t[2].ops,
        json!({"memory": [{"op": "add", "n": 2}], "relationship": []})
    );
    assert_eq!(t[2].silenced_by, Some(SilenceReason::Cooldown));
    assert!(t[2].should_speak && !t[1].should_speak);

    let in_chat = mind::thoughts_in_chat(db, c.id, 3).await.unwrap();
    assert_eq!(ids(&in_chat, |r| r.id), [t[2].id, t[4].id, t[5].id]);
    let all_in_chat = mind::thoughts_in_chat(db, c.id, 100).await.unwrap();
    assert_eq!(all_in_chat.len(), 5);
    let alice = mind::thoughts_of(db, ALICE, 10).await.unwrap();
    assert_eq!(ids(&alice, |r| r.id), [t[0].id, t[2].id, t[3].id, t[5].id]);
    let alice2 = mind::thoughts_of(db, ALICE, 2).await.unwrap();
    assert_eq!(ids(&alice2, |r| r.id), [t[3].id, t[5].id]);
    assert_eq!(alice2[1], t[5]);

    // Thoughts go with their chat.
    cq::delete_chat(db, c.id).await.unwrap();
    assert_eq!(
        ids(&mind::thoughts_of(db, ALICE, 10).await.unwrap(), |r| r.id),
        [t[3].id]
    );
}

async fn chats_are_found_by_members(db: &Db) {
    seed(db).await;
    let group = new_chat(db, ChatKind::Department, &[ALICE, BOB]).await;
    assert_eq!(
        group.mode,
        ChatMode::Casual,
        "the column default fills a NotSet mode"
    );
    assert_eq!(
        (group.topic.clone(), group.boss_last_read_message_id),
        (None, None)
    );
    let dm_ab = new_chat(db, ChatKind::Dm, &[ALICE, BOB]).await;
    let _dm_abc = new_chat(db, ChatKind::Dm, &[ALICE, BOB, CAROL]).await;
    let dm_ac = new_chat(db, ChatKind::Dm, &[CAROL, ALICE]).await;
    let _boss_pair = new_chat(db, ChatKind::Boss, &[ALICE, BOB]).await;
    let boss_a = new_chat(db, ChatKind::Boss, &[ALICE]).await;

    assert_eq!(
        cq::find_chat(db, dm_ab.id).await.unwrap(),
        Some(dm_ab.clone())
    );
    assert!(cq::find_chat(db, 999).await.unwrap().is_none());

    assert_eq!(
        cq::find_dm(db, ALICE, BOB).await.unwrap(),
        Some(dm_ab.clone())
    );
    assert_eq!(
        cq::find_dm(db, BOB, ALICE).await.unwrap(),
        Some(dm_ab.clone())
    );
    assert_eq!(
        cq::find_dm(db, ALICE, CAROL).await.unwrap(),
        Some(dm_ac.clone())
    );
    assert!(cq::find_dm(db, BOB, CAROL).await.unwrap().is_none());
    assert_eq!(
        cq::find_boss_chat(db, ALICE).await.unwrap(),
        Some(boss_a.clone())
    );
    assert!(cq::find_boss_chat(db, BOB).await.unwrap().is_none());

    let of_bob = cq::chats_of_employee(db, BOB).await.unwrap();
    assert_eq!(
        ids(&of_bob, |c| c.id),
        [group.id, dm_ab.id, dm_ab.id + 1, dm_ab.id + 3]
    );
    assert!(cq::chats_of_employee(db, 999).await.unwrap().is_empty());

    assert_eq!(
        cq::set_chat_mode(db, dm_ab.id, ChatMode::Work)
            .await
            .unwrap(),
        1
    );
    assert_eq!(
        cq::set_chat_topic(db, dm_ab.id, Some("the login bug"))
            .await
            .unwrap(),
        1
    );
    let c = cq::find_chat(db, dm_ab.id).await.unwrap().unwrap();
    assert_eq!(
        (c.mode, c.topic.as_deref()),
        (ChatMode::Work, Some("the login bug"))
    );
    cq::set_chat_topic(db, dm_ab.id, None).await.unwrap();
    assert_eq!(
        cq::find_chat(db, dm_ab.id).await.unwrap().unwrap().topic,
        None
    );
}

/// The last messages, those after one, and the latest id, of a chat with five messages
/// `all` and of an empty one.
async fn messages_come_back_in_order(db: &Db, g: i32, empty: i32, all: [i32; 5]) {
    assert_eq!(
        ids(&cq::last_messages(db, g, 3).await.unwrap(), |m| m.id),
        all[2..]
    );
    assert_eq!(
        ids(&cq::last_messages(db, g, 10).await.unwrap(), |m| m.id),
        all
    );
    assert!(cq::last_messages(db, empty, 3).await.unwrap().is_empty());
    assert_eq!(
        ids(&cq::messages_after(db, g, all[1]).await.unwrap(), |m| m.id),
        all[2..]
    );
    assert!(cq::messages_after(db, g, all[4]).await.unwrap().is_empty());
    assert_eq!(cq::latest_message_id(db, g).await.unwrap(), Some(all[4]));
    assert_eq!(cq::latest_message_id(db, empty).await.unwrap(), None);
}

/// Unread counts: a member's exclude what they sent themselves (and a non-member has
/// none); the boss's exclude the boss's own messages; read marks move them.
async fn unread_counts_for_members_and_the_boss(
    db: &Db,
    g: i32,
    [_m1, _m2, m3, m4, _m5]: [i32; 5],
) {
    // Members: unread excludes what they sent themselves.
    assert_eq!(cq::unread_for_member(db, g, ALICE).await.unwrap(), 3); // m1 m3 m4
    assert_eq!(cq::unread_for_member(db, g, BOB).await.unwrap(), 4); // m1 m2 m4 m5
    assert_eq!(
        cq::unread_for_member(db, g, CAROL).await.unwrap(),
        0,
        "not a member"
    );
    assert_eq!(cq::set_member_read(db, g, ALICE, m3).await.unwrap(), 1);
    assert_eq!(cq::unread_for_member(db, g, ALICE).await.unwrap(), 1); // m4
    assert_eq!(cq::set_member_read(db, g, CAROL, m3).await.unwrap(), 0);
    let marks = cq::members(db, g).await.unwrap();
    assert_eq!(
        ids(&marks, |m| m.last_read_message_id.unwrap_or(0)),
        [m3, 0]
    );

    // The boss: unread excludes the boss's own messages.
    assert_eq!(cq::unread_for_boss(db, g).await.unwrap(), 4); // m2..m5
    assert_eq!(cq::set_boss_read(db, g, m4).await.unwrap(), 1);
    assert_eq!(cq::unread_for_boss(db, g).await.unwrap(), 1); // m5
    assert_eq!(cq::unread_for_boss(db, 999).await.unwrap(), 0);
    assert_eq!(
        cq::find_chat(db, g)
            .await
            .unwrap()
            .unwrap()
            .boss_last_read_message_id,
        Some(m4)
    );
}

/// Posting times for the gates: Alice's posts since a moment, with sub-second
/// precision and an inclusive bound; Carol posted nothing.
async fn posting_times_for_the_gates(
    db: &Db,
    g: i32,
    m2: &chat_message::Model,
    m5: &chat_message::Model,
) {
    let ms = Duration::milliseconds;
    let posts = |since| async move { cq::posts_by_since(db, g, ALICE, since).await.unwrap() };
    assert_eq!(posts(t0()).await, [m2.created_at, m5.created_at]);
    assert_eq!(posts(t0() + ms(1000)).await, [m2.created_at, m5.created_at]);
    assert_eq!(posts(t0() + ms(1001)).await, [m5.created_at]);
    assert_eq!(posts(t0() + ms(10_250)).await, [m5.created_at]);
    assert!(posts(t0() + ms(10_251)).await.is_empty());
    assert_eq!(m5.created_at, t0() + ms(10_250));
    assert!(
        cq::posts_by_since(db, g, CAROL, t0())
            .await
            .unwrap()
            .is_empty()
    );
}

/// Where there is something to read: a DM where Bob wrote to Alice, not a group where
/// only she wrote; reading the department chat to its end takes it off her list.
async fn the_chats_with_something_to_read(db: &Db, g: i32, m5: i32) {
    let dm_ab = new_chat(db, ChatKind::Dm, &[ALICE, BOB]).await;
    post(db, dm_ab.id, Some(BOB), t0()).await;
    let own = new_chat(db, ChatKind::Group, &[ALICE]).await;
    post(db, own.id, Some(ALICE), t0()).await;
    assert_eq!(
        cq::chats_with_unread_for(db, ALICE).await.unwrap(),
        [g, dm_ab.id]
    );
    cq::set_member_read(db, g, ALICE, m5).await.unwrap();
    assert_eq!(
        cq::chats_with_unread_for(db, ALICE).await.unwrap(),
        [dm_ab.id]
    );
    assert_eq!(cq::chats_with_unread_for(db, BOB).await.unwrap(), [g]);
    assert!(
        cq::chats_with_unread_for(db, CAROL)
            .await
            .unwrap()
            .is_empty()
    );
    assert!(cq::chats_with_unread_for(db, 999).await.unwrap().is_empty());
}

async fn messages_read_marks_and_unread_counts(db: &Db) {
    seed(db).await;
    let g = new_chat(db, ChatKind::Department, &[ALICE, BOB]).await;
    let empty = new_chat(db, ChatKind::Dm, &[ALICE, CAROL]).await;
    let ms = Duration::milliseconds;
    let m1 = post(db, g.id, None, t0()).await;
    let m2 = post(db, g.id, Some(ALICE), t0() + ms(1000)).await;
    let m3 = post(db, g.id, Some(BOB), t0() + ms(2500)).await;
    let m4 = post(db, g.id, Some(0), t0() + ms(3000)).await;
    let m5 = post(db, g.id, Some(ALICE), t0() + ms(10_250)).await;
    let all = [m1.id, m2.id, m3.id, m4.id, m5.id];
    messages_come_back_in_order(db, g.id, empty.id, all).await;

    // Mentions round-trip.
    assert_eq!(m1.mentions, None);
    cq::set_message_mentions(db, m1.id, Some(json!([ALICE, BOB])))
        .await
        .unwrap();
    let m1 = cq::find_message(db, m1.id).await.unwrap().unwrap();
    assert_eq!(m1.mentions, Some(json!([ALICE, BOB])));

    unread_counts_for_members_and_the_boss(db, g.id, all).await;
    // Posting times for the gates, sub-second precision and an inclusive bound.
    posting_times_for_the_gates(db, g.id, &m2, &m5).await;
    // Where there is something to read.
    the_chats_with_something_to_read(db, g.id, m5.id).await;
}

// ---------- SQLite: one fresh file per scenario ----------

macro_rules! on_sqlite {
    ($($scenario:ident),* $(,)?) => {
        $(
            #[tokio::test]
            async fn $scenario() {
                let (_dir, db) = sqlite().await;
                super::$scenario(&db).await;
            }
        )*
    };
}

mod sqlite {
    use super::sqlite;
    on_sqlite!(
        memories_are_filed_filtered_and_forgotten,
        a_chat_summary_is_upserted,
        relationships_count_interactions,
        employee_state_is_upserted,
        thoughts_come_back_newest_window_oldest_first,
        chats_are_found_by_members,
        messages_read_marks_and_unread_counts,
    );
}

// ---------- PostgreSQL: the same scenarios in turn, each on an emptied schema ----------

async fn fresh_postgres(url: &str) -> Db {
    let db = connect(url).await.expect("connect to PostgreSQL");
    db.execute_unprepared("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        .await
        .expect("reset schema");
    Migrator::up(&db, None).await.expect("migrate");
    db
}

#[tokio::test]
async fn every_scenario_on_postgres() {
    let Ok(url) = std::env::var("CUBICLE_TEST_PG_URL") else {
        eprintln!("SKIPPED: store scenarios on PostgreSQL (CUBICLE_TEST_PG_URL not set)");
        return;
    };
    let _alone = crate::ON_POSTGRES.lock().await;
    memories_are_filed_filtered_and_forgotten(&fresh_postgres(&url).await).await;
    a_chat_summary_is_upserted(&fresh_postgres(&url).await).await;
    relationships_count_interactions(&fresh_postgres(&url).await).await;
    employee_state_is_upserted(&fresh_postgres(&url).await).await;
    thoughts_come_back_newest_window_oldest_first(&fresh_postgres(&url).await).await;
    chats_are_found_by_members(&fresh_postgres(&url).await).await;
    messages_read_marks_and_unread_counts(&fresh_postgres(&url).await).await;
}
