//! Chats as the boss uses them: list with unread counts, posting anywhere with
//! @mentions, 1:1 and DM chats, groups, membership that follows the org chart.

use cubicle_core::chat::gates::ChatMode;
use cubicle_core::chat::{ChatKind, CreateGroup, PostMessage};
use cubicle_core::types::*;

use crate::util::TestCompany;

#[tokio::test]
async fn the_boss_posts_anywhere_reads_and_sees_unread_counts() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let design = co.dept("Design", None).await;
    let hire = |name: &'static str, dept: i32| {
        let core = co.core.clone();
        async move {
            core.hire(NewEmployee {
                name: name.into(),
                title: "Engineer".into(),
                department_id: Some(dept),
                manager_id: None,
                archetype: None,
            })
            .await
            .unwrap()
        }
    };
    let alice = hire("Alice Chen", eng.id).await;
    let bob = hire("Bob", eng.id).await;
    let chats = &co.core.chats;
    // Hiring put them in their department's chat.
    let dept_chat = chats.find_department_chat(eng.id).await.unwrap().unwrap();
    let mut members = chats.members(dept_chat.id).await.unwrap();
    members.sort_unstable();
    assert_eq!(members, vec![alice.id, bob.id]);

    // The boss posts with an @mention; it is stored with the mention and counts as read.
    let m = chats
        .post_as_boss(PostMessage {
            chat_id: dept_chat.id,
            text: "@Alice can you look at the build?".into(),
        })
        .await
        .unwrap();
    assert_eq!(m.mentions, vec![alice.id]);
    let err = chats
        .post_as_boss(PostMessage {
            chat_id: dept_chat.id,
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

    chats
        .post_as_employee(dept_chat.id, bob.id, "on it")
        .await
        .unwrap();
    chats
        .post_as_employee(dept_chat.id, alice.id, "looking")
        .await
        .unwrap();
    let list = chats.list().await.unwrap();
    let c = list.iter().find(|c| c.id == dept_chat.id).unwrap();
    assert_eq!(c.kind, ChatKind::Department);
    assert_eq!(c.mode, ChatMode::Casual);
    assert_eq!(c.unread, 2, "the boss's own message never counts");
    assert_eq!(c.last_message.as_ref().unwrap().text, "looking");
    assert_eq!(list[0].id, dept_chat.id, "most recently active first");
    chats.mark_read(dept_chat.id).await.unwrap();
    assert_eq!(chats.view(dept_chat.id).await.unwrap().chat.unread, 0);

    // A 1:1 with the boss, created once; a DM between two people, work by default.
    let boss = chats.boss_chat(bob.id).await.unwrap();
    assert_eq!(chats.boss_chat(bob.id).await.unwrap().id, boss.id);
    assert_eq!(boss.kind, ChatKind::Boss);
    assert_eq!(boss.member_ids, vec![bob.id]);
    let dm = chats.dm(alice.id, bob.id).await.unwrap();
    assert_eq!(chats.dm(bob.id, alice.id).await.unwrap().id, dm.id);
    assert_eq!(dm.mode, "work");

    // A group of the boss's choosing needs a name and two people.
    let g = chats
        .create_group(CreateGroup {
            name: "Lunch club".into(),
            member_ids: vec![alice.id, bob.id],
            mode: ChatMode::Casual,
        })
        .await
        .unwrap();
    assert_eq!((g.kind, g.mode), (ChatKind::Group, ChatMode::Casual));
    assert!(
        chats
            .create_group(CreateGroup {
                name: "Solo".into(),
                member_ids: vec![alice.id],
                mode: ChatMode::Work,
            })
            .await
            .is_err()
    );

    // Moving Bob moves his department chat membership.
    co.core
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
