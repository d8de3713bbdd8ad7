//! Chats as the boss uses them: list with unread counts, posting anywhere with
//! @mentions, 1:1 and DM chats, groups, membership that follows the org chart.

use cubicle_core::chat::gates::ChatMode;
use cubicle_core::chat::{ChatKind, CreateGroup, PostMessage};
use cubicle_core::org::{DeleteDepartment, MoveEmployee, NewEmployee};
use cubicle_store::ConnectionTrait;

use crate::util::TestCompany;

/// `name` hired as an engineer into department `dept`.
async fn hire_into(co: &TestCompany, name: &str, dept: i32) -> cubicle_core::org::EmployeeDto {
    co.core
        .org
        .hire(NewEmployee {
            name: name.into(),
            title: "Engineer".into(),
            department_id: Some(dept),
            manager_id: None,
            archetype: None,
        })
        .await
        .unwrap()
}

/// The boss posts with an @mention of Alice, stored with the mention; a blank post and
/// a post to a chat that does not exist are refused with their error codes.
async fn the_boss_mentions_alice_and_bad_posts_are_refused(
    co: &TestCompany,
    chat: i32,
    alice: i32,
) {
    let chats = &co.core.chats;
    let m = chats
        .post_as_boss(PostMessage {
            chat_id: chat,
            text: "@Alice can you look at the build?".into(),
        })
        .await
        .unwrap();
    assert_eq!(m.mentions, vec![alice]);
    let err = chats
        .post_as_boss(PostMessage {
            chat_id: chat,
            text: "   ".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), cubicle_core::ErrorCode::InvalidInput);
    let err = chats
        .post_as_boss(PostMessage {
            chat_id: 999,
            text: "hello".into(),
        })
        .await
        .unwrap_err();
    assert_eq!(err.code(), cubicle_core::ErrorCode::NotFound);
}

/// Bob and Alice answer in the department chat: two unread (never the boss's own), the
/// chat listed first with its last message, and none unread once the boss reads it.
async fn two_answers_are_unread_until_the_boss_reads_them(
    co: &TestCompany,
    chat: i32,
    alice: i32,
    bob: i32,
) {
    let chats = &co.core.chats;
    chats.post_as_employee(chat, bob, "on it").await.unwrap();
    chats
        .post_as_employee(chat, alice, "looking")
        .await
        .unwrap();
    let list = chats.list().await.unwrap();
    let c = list.iter().find(|c| c.id == chat).unwrap();
    assert_eq!(c.kind, ChatKind::Department);
    assert_eq!(c.mode, ChatMode::Casual);
    assert_eq!(c.unread, 2, "the boss's own message never counts");
    assert_eq!(c.last_message.as_ref().unwrap().text, "looking");
    assert_eq!(list[0].id, chat, "most recently active first");
    chats.mark_read(chat).await.unwrap();
    assert_eq!(chats.view(chat).await.unwrap().chat.unread, 0);
}

/// A 1:1 with the boss and a DM between two people are each created once (the DM for
/// work by default); a group of the boss's choosing needs a name and two people.
async fn one_to_ones_dms_and_groups(co: &TestCompany, alice: i32, bob: i32) {
    let chats = &co.core.chats;
    let boss = chats.boss_chat(bob).await.unwrap();
    assert_eq!(chats.boss_chat(bob).await.unwrap().id, boss.id);
    assert_eq!(boss.kind, ChatKind::Boss);
    assert_eq!(boss.member_ids, vec![bob]);
    let dm = chats.dm(alice, bob).await.unwrap();
    assert_eq!(chats.dm(bob, alice).await.unwrap().id, dm.id);
    assert_eq!(dm.mode, ChatMode::Work);

    // A group of the boss's choosing needs a name and two people.
    let g = chats
        .create_group(CreateGroup {
            name: "Lunch club".into(),
            member_ids: vec![alice, bob],
            mode: ChatMode::Casual,
        })
        .await
        .unwrap();
    assert_eq!((g.kind, g.mode), (ChatKind::Group, ChatMode::Casual));
    assert!(
        chats
            .create_group(CreateGroup {
                name: "Solo".into(),
                member_ids: vec![alice],
                mode: ChatMode::Work,
            })
            .await
            .is_err()
    );
}

#[tokio::test]
async fn the_boss_posts_anywhere_reads_and_sees_unread_counts() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let design = co.dept("Design", None).await;
    let alice = hire_into(&co, "Alice Chen", eng.id).await;
    let bob = hire_into(&co, "Bob", eng.id).await;
    let chats = &co.core.chats;
    // Hiring put them in their department's chat.
    let dept_chat = chats.find_department_chat(eng.id).await.unwrap().unwrap();
    let mut members = chats.members(dept_chat.id).await.unwrap();
    members.sort_unstable();
    assert_eq!(members, vec![alice.id, bob.id]);

    // The boss posts with an @mention; it is stored with the mention and counts as read.
    the_boss_mentions_alice_and_bad_posts_are_refused(&co, dept_chat.id, alice.id).await;
    two_answers_are_unread_until_the_boss_reads_them(&co, dept_chat.id, alice.id, bob.id).await;

    // A 1:1 with the boss, created once; a DM between two people, work by default.
    one_to_ones_dms_and_groups(&co, alice.id, bob.id).await;

    // Moving Bob moves his department chat membership.
    co.core
        .org
        .move_employee(MoveEmployee {
            employee_id: bob.id,
            department_id: Some(design.id),
        })
        .await
        .unwrap();
    assert_eq!(chats.members(dept_chat.id).await.unwrap(), vec![alice.id]);
    let design_chat = chats
        .find_department_chat(design.id)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(chats.members(design_chat.id).await.unwrap(), vec![bob.id]);
}

// The same scenarios on PostgreSQL, each company on a fresh database of its own
// (skipped, with a line saying so, when CUBICLE_TEST_PG_URL is unset).

#[test]
fn the_boss_posts_anywhere_reads_and_sees_unread_counts_on_postgres() {
    crate::pg::on_postgres(the_boss_posts_anywhere_reads_and_sees_unread_counts);
}

/// Which department chats `employee` is in.
async fn department_chats_of(co: &TestCompany, employee: i32) -> Vec<i32> {
    let mut ids = Vec::new();
    for c in co.core.chats.list().await.unwrap() {
        if c.kind == ChatKind::Department
            && co
                .core
                .chats
                .members(c.id)
                .await
                .unwrap()
                .contains(&employee)
        {
            ids.push(c.department_id.unwrap());
        }
    }
    ids
}

#[tokio::test]
async fn every_org_change_keeps_department_chats_in_step_by_itself() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let design = co.dept("Design", None).await;
    let ops = co.dept("Operations", None).await;
    let org = &co.core.org;

    // A hire through the org service alone lands in the department's chat.
    let ada = co.hire("Ada", "Engineer", Some(eng.id)).await;
    assert_eq!(department_chats_of(&co, ada.id).await, vec![eng.id]);
    // Nobody without a department is in any department chat.
    let loner = co.hire("Lone", "Engineer", None).await;
    assert!(department_chats_of(&co, loner.id).await.is_empty());

    // A move takes them out of the old chat and into the new one.
    org.move_employee(MoveEmployee {
        employee_id: ada.id,
        department_id: Some(design.id),
    })
    .await
    .unwrap();
    assert_eq!(department_chats_of(&co, ada.id).await, vec![design.id]);
    // Leaving every department leaves every department chat.
    org.move_employee(MoveEmployee {
        employee_id: ada.id,
        department_id: None,
    })
    .await
    .unwrap();
    assert!(department_chats_of(&co, ada.id).await.is_empty());

    // Deleting a department moves its people into the receiving department's chat.
    org.move_employee(MoveEmployee {
        employee_id: ada.id,
        department_id: Some(design.id),
    })
    .await
    .unwrap();
    org.delete_department(DeleteDepartment {
        id: design.id,
        reassign_to: Some(ops.id),
    })
    .await
    .unwrap();
    assert_eq!(department_chats_of(&co, ada.id).await, vec![ops.id]);
}

// SQLite only: the refusing trigger is written in SQLite's dialect.
#[tokio::test]
async fn a_hire_whose_chat_membership_fails_is_not_made() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let before = co.core.org.snapshot().await.unwrap().employees.len();
    // The store refuses any new chat membership: the hire's own write must roll back
    // with it, leaving no employee outside their department's chat.
    let db = co.db().await;
    db.execute_unprepared(
        "CREATE TRIGGER refuse_members BEFORE INSERT ON chat_member \
         BEGIN SELECT RAISE(ABORT, 'membership refused'); END;",
    )
    .await
    .unwrap();
    let err = co
        .core
        .org
        .hire(NewEmployee {
            name: "Ada".into(),
            title: "Engineer".into(),
            department_id: Some(eng.id),
            manager_id: None,
            archetype: None,
        })
        .await
        .unwrap_err();
    assert!(err.to_string().contains("membership refused"), "{err}");
    assert_eq!(
        co.core.org.snapshot().await.unwrap().employees.len(),
        before
    );

    // Once the store accepts memberships again, the same hire goes through whole.
    db.execute_unprepared("DROP TRIGGER refuse_members")
        .await
        .unwrap();
    let ada = co.hire("Ada", "Engineer", Some(eng.id)).await;
    assert_eq!(department_chats_of(&co, ada.id).await, vec![eng.id]);
}

/// How many rows `table` holds, read on the test's own connection.
async fn rows_in(db: &cubicle_store::Db, table: &str) -> i64 {
    let row = db
        .query_one_raw(sea_orm::Statement::from_string(
            db.get_database_backend(),
            format!("SELECT COUNT(*) AS n FROM {table}"),
        ))
        .await
        .unwrap()
        .unwrap();
    row.try_get::<i64>("", "n").unwrap()
}

// SQLite only: the refusing trigger is written in SQLite's dialect.
#[tokio::test]
async fn a_boss_post_whose_read_mark_fails_leaves_no_instruction_and_no_message() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    hire_into(&co, "Alice", eng.id).await;
    let chat = co
        .core
        .chats
        .find_department_chat(eng.id)
        .await
        .unwrap()
        .unwrap();
    let db = co.db().await;
    let (traces, messages) = (
        rows_in(&db, "trace").await,
        rows_in(&db, "chat_message").await,
    );
    // The store refuses the boss's read mark, the post's last write: its instruction and
    // its message, written before it, must roll back with it.
    db.execute_unprepared(
        "CREATE TRIGGER refuse_read_mark BEFORE UPDATE OF boss_last_read_message_id ON chat \
         BEGIN SELECT RAISE(ABORT, 'read mark refused'); END;",
    )
    .await
    .unwrap();
    let post = PostMessage {
        chat_id: chat.id,
        text: "@Alice ship the build today".into(),
    };
    let err = co.core.chats.post_as_boss(post.clone()).await.unwrap_err();
    assert!(err.to_string().contains("read mark refused"), "{err}");
    assert_eq!(
        rows_in(&db, "trace").await,
        traces,
        "an instruction without its message"
    );
    assert_eq!(
        rows_in(&db, "chat_message").await,
        messages,
        "a message without its read mark"
    );

    // Once the store takes read marks again, the same post is written whole: the
    // instruction, the message that carries its trace, and read by the boss.
    db.execute_unprepared("DROP TRIGGER refuse_read_mark")
        .await
        .unwrap();
    let m = co.core.chats.post_as_boss(post).await.unwrap();
    assert_eq!(rows_in(&db, "trace").await, traces + 1);
    assert_eq!(rows_in(&db, "chat_message").await, messages + 1);
    assert!(m.trace_id.is_some());
    let listed = co.core.chats.list().await.unwrap();
    assert_eq!(listed.iter().find(|c| c.id == chat.id).unwrap().unread, 0);
}

/// The boss's chat with an employee, the DM between two employees and a department's chat
/// are one each, however many callers ask for them at once (the app, the engine reporting,
/// two employees writing to each other in the same moment).
#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn racing_first_uses_make_one_boss_chat_one_dm_and_one_department_chat() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let alice = hire_into(&co, "Alice Chen", eng.id).await.id;
    let bob = hire_into(&co, "Bob", eng.id).await.id;
    let bosses = (0..10).map(|_| {
        let chats = co.core.chats.clone();
        tokio::spawn(async move {
            chats
                .boss_chat_model(bob)
                .await
                .map(|c| c.id)
                .map_err(|e| e.to_string())
        })
    });
    // A department nobody was hired into yet has no chat.
    let design = co.dept("Design", None).await.id;
    let depts = (0..10).map(|_| {
        let chats = co.core.chats.clone();
        tokio::spawn(async move {
            chats
                .department_chat(design, "Design")
                .await
                .map(|c| c.id)
                .map_err(|e| e.to_string())
        })
    });
    let dms = (0..10).map(|i| {
        let chats = co.core.chats.clone();
        let (a, b) = if i % 2 == 0 {
            (alice, bob)
        } else {
            (bob, alice)
        };
        tokio::spawn(async move {
            chats
                .dm(a, b)
                .await
                .map(|c| c.id)
                .map_err(|e| e.to_string())
        })
    });
    let ids = |results: Vec<Result<Result<i32, _>, _>>| {
        let mut ids: Vec<i32> = results.into_iter().map(|r| r.unwrap().unwrap()).collect();
        ids.sort_unstable();
        ids.dedup();
        ids
    };
    let boss_ids = ids(futures::future::join_all(bosses).await);
    let dm_ids = ids(futures::future::join_all(dms).await);
    let dept_ids = ids(futures::future::join_all(depts).await);
    assert_eq!(dept_ids.len(), 1, "{dept_ids:?}");
    assert_eq!(boss_ids.len(), 1, "{boss_ids:?}");
    assert_eq!(dm_ids.len(), 1, "{dm_ids:?}");
    let all = co.core.chats.list().await.unwrap();
    let count = |kind: ChatKind| all.iter().filter(|c| c.kind == kind).count();
    assert_eq!(
        (count(ChatKind::Boss), count(ChatKind::Dm)),
        (1, 1),
        "{all:?}"
    );
}

#[test]
fn racing_first_uses_make_one_boss_chat_one_dm_and_one_department_chat_on_postgres() {
    crate::pg::on_postgres(racing_first_uses_make_one_boss_chat_one_dm_and_one_department_chat);
}
