//! The secretary names reviewers, links tasks to requirements and brings colleagues
//! into a task (en and zh-CN): "make Dan the reviewer of the login page requirement",
//! "…, reviewed by Dan", "ask Carol to … for the login page requirement",
//! "请李娜跟王强一起评估一下发布风险", "让李娜和整个团队一起…".

use cubicle_core::secretary::actions::{ActionStatus, Proposal};
use cubicle_core::work::RequirementDto;

use super::zh_company;
use crate::util::TestCompany;

async fn requirement(co: &TestCompany, id: i32) -> RequirementDto {
    co.core
        .work
        .requirements()
        .await
        .unwrap()
        .into_iter()
        .find(|r| r.id == id)
        .unwrap()
}

#[tokio::test]
async fn the_boss_names_a_reviewer_and_links_work_to_a_requirement_in_english() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    co.dept("Sales", None).await;
    let dan = co.hire("Dan", "QA Engineer", Some(eng.id)).await;
    let carol = co.hire("Carol", "Frontend Engineer", Some(eng.id)).await;
    let s = &co.core.secretary;

    // "…in Engineering, reviewed by Dan": the department and the reviewer both read.
    let t = s
        .say(
            "start a requirement to build the login page in Engineering, reviewed by Dan",
            true,
        )
        .await
        .unwrap();
    assert_eq!(t.reply.actions.len(), 1, "{}", t.reply.text);
    assert_eq!(
        t.reply.actions[0].status,
        ActionStatus::Applied,
        "{:?}",
        t.reply.actions[0]
    );
    let reqs = co.core.work.requirements().await.unwrap();
    assert_eq!(reqs.len(), 1);
    let login = &reqs[0];
    assert_eq!(login.name, "build the login page");
    assert_eq!(login.department_id, Some(eng.id));
    assert_eq!(login.reviewer_id, Some(dan.id));

    // "make Carol the reviewer of …": the reviewer changes, and Undo puts Dan back.
    let t = s
        .say(
            "make Carol the reviewer of the login page requirement",
            true,
        )
        .await
        .unwrap();
    let card = &t.reply.actions[0];
    assert!(
        matches!(card.proposal, Proposal::SetReviewer { employee_id, .. } if employee_id == carol.id),
        "{card:?}"
    );
    assert_eq!(card.status, ActionStatus::Applied);
    assert_eq!(requirement(&co, login.id).await.reviewer_id, Some(carol.id));
    s.undo(card.id).await.unwrap();
    assert_eq!(requirement(&co, login.id).await.reviewer_id, Some(dan.id));

    // A task "for the login page requirement" is part of it; nobody becomes a reviewer.
    let t = s
        .say(
            "ask Carol to write the tests for the login page requirement",
            true,
        )
        .await
        .unwrap();
    assert_eq!(
        t.reply.actions[0].status,
        ActionStatus::Applied,
        "{}",
        t.reply.text
    );
    let tasks = co.core.work.all().await.unwrap();
    let task = tasks.iter().find(|t| t.owner_id == carol.id).unwrap();
    assert_eq!(task.requirement_id, Some(login.id));
    assert_eq!(requirement(&co, login.id).await.reviewer_id, Some(dan.id));

    // A requirement nobody opened is a question, not a guess.
    let t = s
        .say("make Dan the reviewer of the billing requirement", true)
        .await
        .unwrap();
    assert!(t.reply.actions.is_empty());
    assert!(t.reply.text.contains("billing"), "{}", t.reply.text);
}

/// "请李娜跟王强一起评估一下发布风险": the second person named works on it with the
/// assignee, in a helping task under hers that names whom it helps.
async fn li_na_assesses_the_risk_with_wang_qiang(co: &TestCompany, li: i32, wang: i32) {
    let t = co
        .core
        .secretary
        .say("请李娜跟王强一起评估一下发布风险", true)
        .await
        .unwrap();
    assert_eq!(t.reply.actions.len(), 1, "{}", t.reply.text);
    match &t.reply.actions[0].proposal {
        Proposal::AssignTask {
            employee_id,
            description,
            participant_ids,
            ..
        } => {
            assert_eq!(*employee_id, li);
            assert_eq!(description, "评估一下发布风险");
            assert_eq!(participant_ids, &vec![wang]);
        }
        other => panic!("expected a task, got {other:?}"),
    }
    let tasks = co.core.work.all().await.unwrap();
    let lead = tasks.iter().find(|t| t.owner_id == li).unwrap();
    assert!(lead.description.contains("王强"), "{}", lead.description);
    let helper = tasks.iter().find(|t| t.owner_id == wang).unwrap();
    assert!(
        helper.description.starts_with("协助李娜"),
        "{}",
        helper.description
    );
    assert_eq!(helper.parent_task_id, Some(lead.id));
}

/// "让欧阳娜娜跟张伟一起…": a known four-character name is read whole, however the
/// sentence goes on; "和客户" is no colleague: Li Na's task is hers alone, the words
/// stay in it.
async fn a_long_name_is_read_whole_and_a_client_is_no_colleague(
    co: &TestCompany,
    li: i32,
    (ouyang, zhang): (i32, i32),
) {
    let s = &co.core.secretary;
    let t = s
        .say("让欧阳娜娜跟张伟一起画登录页的原型", true)
        .await
        .unwrap();
    match &t.reply.actions[0].proposal {
        Proposal::AssignTask {
            employee_id,
            participant_ids,
            ..
        } => {
            assert_eq!(*employee_id, ouyang);
            assert_eq!(participant_ids, &vec![zhang]);
        }
        other => panic!("expected a task, got {other:?}: {}", t.reply.text),
    }
    // "和客户" is no colleague: the task is hers alone, the words stay in it.
    let t = s.say("让李娜和客户沟通一下需求", true).await.unwrap();
    match &t.reply.actions[0].proposal {
        Proposal::AssignTask {
            employee_id,
            participant_ids,
            description,
            ..
        } => {
            assert_eq!(*employee_id, li);
            assert!(participant_ids.is_empty());
            assert!(description.contains("客户"), "{description}");
        }
        other => panic!("expected a task, got {other:?}: {}", t.reply.text),
    }
}

#[tokio::test]
async fn the_boss_names_a_reviewer_and_brings_colleagues_in_in_chinese() {
    let co = zh_company().await;
    let eng = co.dept("工程部", None).await;
    let li = co.hire("李娜", "产品经理", Some(eng.id)).await;
    let wang = co.hire("王强", "测试工程师", Some(eng.id)).await;
    let zhang = co.hire("张伟", "后端工程师", Some(eng.id)).await;
    let ouyang = co.hire("欧阳娜娜", "设计师", Some(eng.id)).await;
    let login = co
        .core
        .work
        .create_requirement("登录页", "做登录页", Some(eng.id))
        .await
        .unwrap();
    let s = &co.core.secretary;

    let t = s.say("让王强当登录页需求的评审", true).await.unwrap();
    assert_eq!(t.reply.actions.len(), 1, "{}", t.reply.text);
    assert_eq!(t.reply.actions[0].status, ActionStatus::Applied);
    assert!(t.reply.text.contains("王强"), "{}", t.reply.text);
    assert_eq!(requirement(&co, login.id).await.reviewer_id, Some(wang.id));

    // The second person named works on it with the assignee: a helping task under hers.
    li_na_assesses_the_risk_with_wang_qiang(&co, li.id, wang.id).await;

    // "和整个团队": everyone else in her department joins in.
    let t = s
        .say("让李娜和整个团队一起准备v2的launch plan", true)
        .await
        .unwrap();
    match &t.reply.actions[0].proposal {
        Proposal::AssignTask {
            employee_id,
            participant_ids,
            description,
            ..
        } => {
            assert_eq!(*employee_id, li.id);
            assert_eq!(description, "准备v2的launch plan");
            let mut ids = participant_ids.clone();
            ids.sort_unstable();
            assert_eq!(ids, vec![wang.id, zhang.id, ouyang.id]);
        }
        other => panic!("expected a task, got {other:?}: {}", t.reply.text),
    }

    // A known four-character name is read whole, however the sentence goes on.
    a_long_name_is_read_whole_and_a_client_is_no_colleague(&co, li.id, (ouyang.id, zhang.id)).await;
}
