//! The boss invites a person through the secretary (seed 001), in English and Chinese:
//! "add Lin as head of Product, she approves Product's work", "邀请林做产品部负责人，她负责
//! 审批产品部的工作". Nothing happens before the boss confirms the card; confirming invites
//! them with the department as their duty, so its employees' approvals go to them; Undo
//! removes them again and the approvals go back to the boss.

use cubicle_core::people::Approver;
use cubicle_core::secretary::actions::{ActionDto, ActionStatus, Proposal};
use cubicle_core::secretary::intent::IntentKind;
use cubicle_core::types::ApprovalPolicy;

use super::zh_company;
use crate::util::TestCompany;

/// Says `text` without confirming; the one card it proposed.
async fn one_card(co: &TestCompany, text: &str) -> ActionDto {
    let t = co.core.secretary.say(text, false).await.unwrap();
    assert_eq!(t.parse.intents.len(), 1, "{text}: {:?}", t.parse);
    assert_eq!(t.parse.intents[0].kind, IntentKind::InvitePerson, "{text}");
    assert_eq!(t.reply.actions.len(), 1, "{text}: {}", t.reply.text);
    let card = t.reply.actions[0].clone();
    assert_eq!(card.status, ActionStatus::Proposed);
    card
}

/// Who decides the approvals of employee `id`, by name.
async fn approver_of(co: &TestCompany, id: i32) -> String {
    match co.core.people.approver_for(id).await.unwrap() {
        Approver::Boss { .. } => "the boss".to_owned(),
        Approver::Person { person } => person.name,
    }
}

#[tokio::test]
async fn the_boss_invites_lin_for_products_work_and_can_undo_it() {
    let co = TestCompany::new().await;
    let product = co.dept("Product", None).await;
    co.dept("Engineering", None).await;
    let mia = co.hire("Mia", "Product Manager", Some(product.id)).await;

    let card = one_card(
        &co,
        "add Lin as head of Product, she approves Product's work",
    )
    .await;
    assert_eq!(
        card.proposal,
        Proposal::InvitePerson {
            name: "Lin".into(),
            role: "head of Product".into(),
            department_id: Some(product.id),
            department_name: Some("Product".into()),
            policy: None,
        }
    );
    assert!(
        co.core.people.list().await.unwrap().is_empty(),
        "nothing before the OK"
    );
    assert_eq!(approver_of(&co, mia.id).await, "the boss");

    let applied = co.core.secretary.confirm(card.id, None).await.unwrap();
    assert_eq!(applied.status, ActionStatus::Applied, "{:?}", applied.error);
    let people = co.core.people.list().await.unwrap();
    assert_eq!(people.len(), 1);
    assert_eq!(
        (people[0].name.as_str(), people[0].role.as_str()),
        ("Lin", "head of Product")
    );
    assert_eq!(people[0].departments, vec![product.id]);
    assert_eq!(people[0].approval_policy, ApprovalPolicy::KeySteps);
    assert_eq!(approver_of(&co, mia.id).await, "Lin");
    assert!(
        applied
            .diff
            .as_deref()
            .unwrap_or("")
            .contains("answers for Product")
    );

    // Asked again, the secretary says she is already here and proposes nothing.
    let again = co
        .core
        .secretary
        .say("invite Lin as head of Product", false)
        .await
        .unwrap();
    assert!(again.reply.actions.is_empty());
    assert!(again.reply.text.contains("already"), "{}", again.reply.text);

    let undone = co.core.secretary.undo(card.id).await.unwrap();
    assert_eq!(undone.status, ActionStatus::Undone);
    assert!(co.core.people.list().await.unwrap().is_empty());
    assert_eq!(approver_of(&co, mia.id).await, "the boss");
}

#[tokio::test]
async fn an_invitation_names_a_real_department_or_the_secretary_asks() {
    let co = TestCompany::new().await;
    co.dept("Product", None).await;

    // No such department: a question that lists the real ones, and no card.
    let t = co
        .core
        .secretary
        .say("add Zed as head of Marketing", false)
        .await
        .unwrap();
    assert!(t.reply.actions.is_empty(), "{:?}", t.reply.actions);
    assert!(t.reply.text.contains("Product"), "{}", t.reply.text);

    // A plain invitation has no duty yet: approvals stay with the boss.
    let card = one_card(&co, "invite Zed to the company").await;
    assert!(matches!(
        card.proposal,
        Proposal::InvitePerson { ref name, department_id: None, .. } if name == "Zed"
    ));

    // Invitations to a meeting, and hires, are not invitations of a person.
    for text in [
        "invite Alice to the meeting about pricing",
        "add a frontend engineer to Product",
        "hire Lin as a designer for Product",
    ] {
        let p = cubicle_core::secretary::parse_rules(text);
        assert!(
            p.intents.iter().all(|i| i.kind != IntentKind::InvitePerson),
            "{text}: {p:?}"
        );
    }
}

#[tokio::test]
async fn in_chinese_the_boss_invites_lin_to_head_the_product_department() {
    let co = zh_company().await;
    let product = co.dept("产品部", None).await;
    let xia = co.hire("夏米", "产品经理", Some(product.id)).await;

    let card = one_card(&co, "邀请林做产品部负责人，她负责审批产品部的工作").await;
    let Proposal::InvitePerson {
        name,
        role,
        department_id,
        ..
    } = &card.proposal
    else {
        panic!("{:?}", card.proposal);
    };
    assert_eq!((name.as_str(), role.as_str()), ("林", "产品部负责人"));
    assert_eq!(*department_id, Some(product.id));
    co.core.secretary.confirm(card.id, None).await.unwrap();
    assert_eq!(approver_of(&co, xia.id).await, "林");

    let t = co
        .core
        .secretary
        .say("邀请小周加入公司", false)
        .await
        .unwrap();
    assert_eq!(t.reply.actions.len(), 1, "{}", t.reply.text);
    assert!(t.reply.text.contains("小周"), "{}", t.reply.text);
    assert!(
        t.reply
            .text
            .chars()
            .any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
        "the reply is in the company's language: {}",
        t.reply.text
    );
}
