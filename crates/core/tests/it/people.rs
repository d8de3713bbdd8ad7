//! People besides the boss (SPEC §12): invited with duties, checked names, and the one
//! rule that says whose decision an employee's action is.

use cubicle_core::ErrorCode;
use cubicle_core::error::IpcError;
use cubicle_core::events::DomainEvent;
use cubicle_core::people::{Approver, NewPerson, UpdatePerson};
use cubicle_core::types::*;

use crate::util::TestCompany;

fn invite(name: &str, departments: Vec<i32>, employees: Vec<i32>) -> NewPerson {
    NewPerson {
        name: name.into(),
        role: format!("{name}'s role"),
        language: None,
        approval_policy: None,
        departments,
        employees,
    }
}

async fn approver(co: &TestCompany, employee_id: i32) -> String {
    co.core
        .people
        .approver_for(employee_id)
        .await
        .unwrap()
        .name()
        .to_owned()
}

#[tokio::test]
async fn approvals_go_to_whoever_answers_nearest_and_else_to_the_boss() {
    let mut co = TestCompany::new().await;
    let product = co.dept("Product", None).await;
    let mobile = co.dept("Mobile", Some(product.id)).await;
    let eng = co.dept("Engineering", None).await;
    let mia = co.hire("Mia", "iOS Engineer", Some(mobile.id)).await;
    let zoe = co.hire("Zoe", "Android Engineer", Some(mobile.id)).await;
    let bob = co.hire("Bob", "Backend Engineer", Some(eng.id)).await;
    let ivy = co.hire("Ivy", "Designer", None).await;
    co.drain_events();

    let people = co.core.people.clone();
    let lin = people
        .invite(invite("Lin", vec![product.id], vec![]))
        .await
        .unwrap();
    let sam = people
        .invite(NewPerson {
            approval_policy: Some(ApprovalPolicy::Manual),
            language: Some(Language::ZhCn),
            ..invite("Sam", vec![eng.id], vec![])
        })
        .await
        .unwrap();
    let kai = people
        .invite(invite("Kai", vec![], vec![zoe.id]))
        .await
        .unwrap();
    assert_eq!(
        lin.language,
        Language::En,
        "the company's language by default"
    );
    assert_eq!(
        lin.approval_policy,
        ApprovalPolicy::KeySteps,
        "key steps by default"
    );
    assert_eq!(
        (sam.language, sam.approval_policy),
        (Language::ZhCn, ApprovalPolicy::Manual)
    );
    assert_eq!(
        co.drain_events(),
        [lin.id, sam.id, kai.id]
            .map(|person_id| DomainEvent::PeopleChanged { person_id })
            .to_vec()
    );

    assert_eq!(
        approver(&co, mia.id).await,
        "Lin",
        "Product answers for Mobile below it"
    );
    assert_eq!(
        approver(&co, zoe.id).await,
        "Kai",
        "named for Zoe: before her department"
    );
    assert_eq!(approver(&co, bob.id).await, "Sam");
    let boss = co.core.org.company().await.unwrap().unwrap().boss_name;
    assert_eq!(approver(&co, ivy.id).await, boss, "nobody answers for Ivy");
    assert!(matches!(
        co.core.people.approver_for(mia.id).await.unwrap(),
        Approver::Person { person } if person == lin
    ));

    // Sam gives Engineering up and takes Ivy; Lin leaves: their share goes up the tree.
    let sam = people
        .update(UpdatePerson {
            id: sam.id,
            departments: Some(vec![]),
            employees: Some(vec![ivy.id]),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        (sam.departments.len(), sam.employees.clone()),
        (0, vec![ivy.id])
    );
    assert_eq!(
        sam.approval_policy,
        ApprovalPolicy::Manual,
        "what was not given stays"
    );
    people.remove(lin.id).await.unwrap();
    assert_eq!(approver(&co, bob.id).await, boss);
    assert_eq!(approver(&co, ivy.id).await, "Sam");
    assert_eq!(approver(&co, mia.id).await, boss);
    assert_eq!(
        people
            .list()
            .await
            .unwrap()
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>(),
        ["Kai", "Sam"]
    );
}

#[tokio::test]
async fn a_department_that_goes_takes_its_duties_with_it() {
    let co = TestCompany::new().await;
    let product = co.dept("Product", None).await;
    let lin = co
        .core
        .people
        .invite(invite("Lin", vec![product.id], vec![]))
        .await
        .unwrap();
    co.core
        .org
        .delete_department(DeleteDepartment {
            id: product.id,
            reassign_to: None,
        })
        .await
        .unwrap();
    assert!(
        co.core
            .people
            .get(lin.id)
            .await
            .unwrap()
            .departments
            .is_empty()
    );
}

#[tokio::test]
async fn a_bad_invitation_is_refused_with_a_clear_error_and_changes_nothing() {
    let mut co = TestCompany::new().await;
    let product = co.dept("Product", None).await;
    let mia = co.hire("Mia", "iOS Engineer", Some(product.id)).await;
    let people = co.core.people.clone();
    people
        .invite(invite("Lin", vec![product.id], vec![]))
        .await
        .unwrap();
    let before = people.list().await.unwrap();
    co.drain_events();
    let boss = co.core.org.company().await.unwrap().unwrap().boss_name;

    let cases: Vec<(NewPerson, ErrorCode, &str)> = vec![
        (
            invite("  ", vec![], vec![]),
            ErrorCode::InvalidInput,
            "must not be empty",
        ),
        (
            invite("lin", vec![], vec![]),
            ErrorCode::DuplicateName,
            "someone already",
        ),
        (
            invite("MIA", vec![], vec![]),
            ErrorCode::DuplicateName,
            "an employee",
        ),
        (
            invite(&boss, vec![], vec![]),
            ErrorCode::DuplicateName,
            "the boss",
        ),
        (
            invite("Kim", vec![9999], vec![]),
            ErrorCode::NotFound,
            "department 9999",
        ),
        (
            invite("Kim", vec![], vec![9999]),
            ErrorCode::NotFound,
            "employee 9999",
        ),
        (
            NewPerson {
                role: "x".repeat(500),
                ..invite("Kim", vec![], vec![])
            },
            ErrorCode::InvalidInput,
            "at most",
        ),
    ];
    for (input, code, says) in cases {
        let err: IpcError = people.invite(input.clone()).await.unwrap_err().into();
        assert_eq!(err.code, code, "{input:?}: {err:?}");
        assert!(err.message.contains(says), "{input:?}: {}", err.message);
    }
    // A fired employee is no one's duty any more.
    co.core
        .org
        .fire(FireEmployee {
            employee_id: mia.id,
        })
        .await
        .unwrap();
    co.drain_events();
    let err = people
        .invite(invite("Kim", vec![], vec![mia.id]))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("employee"), "{err}");
    let missing = people
        .update(UpdatePerson {
            id: 4242,
            ..Default::default()
        })
        .await
        .unwrap_err();
    assert!(missing.to_string().contains("person 4242"), "{missing}");

    assert_eq!(people.list().await.unwrap(), before, "nothing changed");
    assert!(
        co.drain_events().is_empty(),
        "no event for what did not happen"
    );
}
