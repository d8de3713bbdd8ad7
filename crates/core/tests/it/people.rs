//! People besides the boss (SPEC §12): invited with duties, checked names, and the one
//! rule that says whose decision an employee's action is.

use cubicle_core::ErrorCode;
use cubicle_core::approvals::{
    ApprovalDto, ApprovalError, ApprovalStatus, CallOutcome, DecideApproval, DecidedVia, Decider,
    Decision,
};
use cubicle_core::error::IpcError;
use cubicle_core::events::DomainEvent;
use cubicle_core::org::{DeleteDepartment, FireEmployee};
use cubicle_core::people::{Approver, NewPerson, PersonDto, UpdatePerson};
use cubicle_core::tools::ToolCall;
use cubicle_core::types::*;
use serde_json::json;

use crate::util::TestCompany;

pub(crate) mod logins;

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

/// Lin answers for Product (in the company's language, under key steps, by default),
/// Sam for Engineering (in Chinese, manual), Kai for Zoe by name; each invitation is an
/// event.
async fn invite_lin_sam_and_kai(
    co: &mut TestCompany,
    (product, eng): (i32, i32),
    zoe: i32,
) -> [PersonDto; 3] {
    let people = co.core.people.clone();
    let lin = people
        .invite(invite("Lin", vec![product], vec![]))
        .await
        .unwrap();
    let sam = people
        .invite(NewPerson {
            approval_policy: Some(ApprovalPolicy::Manual),
            language: Some(Language::ZhCn),
            ..invite("Sam", vec![eng], vec![])
        })
        .await
        .unwrap();
    let kai = people
        .invite(invite("Kai", vec![], vec![zoe]))
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
    [lin, sam, kai]
}

/// Sam gives Engineering up and takes Ivy by name; what was not given stays.
async fn sam_gives_up_engineering_and_takes_ivy(co: &TestCompany, sam: i32, ivy: i32) {
    let sam = co
        .core
        .people
        .update(UpdatePerson {
            id: sam,
            departments: Some(vec![]),
            employees: Some(vec![ivy]),
            ..Default::default()
        })
        .await
        .unwrap();
    assert_eq!(
        (sam.departments.len(), sam.employees.clone()),
        (0, vec![ivy])
    );
    assert_eq!(
        sam.approval_policy,
        ApprovalPolicy::Manual,
        "what was not given stays"
    );
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
    let [lin, sam, _kai] = invite_lin_sam_and_kai(&mut co, (product.id, eng.id), zoe.id).await;

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
    sam_gives_up_engineering_and_takes_ivy(&co, sam.id, ivy.id).await;
    let people = &co.core.people;
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

/// Invitations that must be refused, each with its error code and what its message
/// says: a blank name, a name taken by a person, an employee or the boss (in any case),
/// an unknown department or employee, an overlong role.
fn bad_invitations(boss: &str) -> Vec<(NewPerson, ErrorCode, &'static str)> {
    vec![
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
            invite(boss, vec![], vec![]),
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
    ]
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

    for (input, code, says) in bad_invitations(&boss) {
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

/// Shown, then decided by `decider`.
async fn decide_as(
    co: &TestCompany,
    id: i32,
    decision: Decision,
    decider: Decider,
) -> Result<ApprovalDto, ApprovalError> {
    let shown = co.core.approvals.get(id).await?.args_hash;
    co.core
        .approvals
        .decide_as(
            DecideApproval {
                approval_id: id,
                decision,
                note: None,
                args_hash: shown,
            },
            DecidedVia::Ui,
            decider,
        )
        .await
}

/// Lin answers for Product under a manual policy, Sam for Engineering under key steps.
async fn lin_manual_for_product_and_sam_for_engineering(
    co: &TestCompany,
    product: i32,
    eng: i32,
) -> (PersonDto, PersonDto) {
    let people = &co.core.people;
    let lin = people
        .invite(NewPerson {
            approval_policy: Some(ApprovalPolicy::Manual),
            ..invite("Lin", vec![product], vec![])
        })
        .await
        .unwrap();
    let sam = people
        .invite(invite("Sam", vec![eng], vec![]))
        .await
        .unwrap();
    (lin, sam)
}

/// Lin's policy is manual: Mia's write in her own folder waits for her. Sam keeps key
/// steps: Bob's write runs at once, his deletion waits for Sam. The two waiting ids.
async fn mia_writes_and_bob_writes_and_deletes(co: &TestCompany, mia: i32, bob: i32) -> (i32, i32) {
    // In their own folder: a plain write, not a key step.
    let write = |who: i32| {
        ToolCall::new(
            "write_file",
            json!({"path": format!("employees/{who}/draft.md"), "content": "draft"}),
            "save the draft",
        )
    };
    let mias = match co
        .core
        .approvals
        .request(mia, write(mia), None, None)
        .await
        .unwrap()
    {
        CallOutcome::Waiting(id) => id,
        other => panic!("Lin's manual policy holds Mia's write: {other:?}"),
    };
    let bob_writes = co
        .core
        .approvals
        .request(bob, write(bob), None, None)
        .await
        .unwrap();
    assert!(matches!(bob_writes, CallOutcome::Done(_)), "{bob_writes:?}");
    let delete = ToolCall::new(
        "delete_file",
        json!({"path": format!("employees/{bob}/draft.md")}),
        "tidy up",
    );
    let bobs = match co
        .core
        .approvals
        .request(bob, delete, None, None)
        .await
        .unwrap()
    {
        CallOutcome::Waiting(id) => id,
        other => panic!("a deletion waits under key steps: {other:?}"),
    };
    (mias, bobs)
}

/// Sam cannot decide Lin's approval `mias`, and nothing changes; Lin approves it: it
/// runs, and the chain names her as the human who decided and Mia as who proposed it.
async fn only_lin_of_the_two_decides_hers(
    co: &TestCompany,
    mias: i32,
    (lin, lin_d, sam_d): (i32, Decider, Decider),
) {
    let approvals = &co.core.approvals;
    let err = decide_as(co, mias, Decision::Approve, sam_d)
        .await
        .unwrap_err();
    assert!(err.to_string().contains("Lin's to decide"), "{err}");
    assert_eq!(IpcError::from(err).code, ErrorCode::NotYourDecision);
    let still = approvals.get(mias).await.unwrap();
    assert_eq!(
        (still.status, still.decided_by),
        (ApprovalStatus::Waiting, None)
    );

    // Lin approves hers: it runs, and the chain names her as the human who decided.
    let done = decide_as(co, mias, Decision::Approve, lin_d).await.unwrap();
    assert_eq!(
        (done.status, done.decided_by),
        (ApprovalStatus::Approved, Some(lin))
    );
    assert!(
        done.error.is_none() && done.executed_at.is_some(),
        "{done:?}"
    );
    let decided = done.authorization_chain.last().unwrap();
    assert_eq!(decided.who, "Lin");
    assert_eq!(done.authorization_chain[0].who, "Mia", "who proposed it");
}

#[tokio::test]
async fn an_approval_goes_to_the_person_responsible_under_their_policy_and_only_they_or_the_boss_decide()
 {
    let co = TestCompany::new().await;
    let product = co.dept("Product", None).await;
    let eng = co.dept("Engineering", None).await;
    let mia = co.hire("Mia", "Product Manager", Some(product.id)).await;
    let bob = co.hire("Bob", "Backend Engineer", Some(eng.id)).await;
    for e in [mia.id, bob.id] {
        co.core
            .approvals
            .set_tool_whitelist(e, vec!["write_file".into(), "delete_file".into()])
            .await
            .unwrap();
    }
    let (lin, sam) = lin_manual_for_product_and_sam_for_engineering(&co, product.id, eng.id).await;
    let (lin_d, sam_d) = (
        Decider::Person { person_id: lin.id },
        Decider::Person { person_id: sam.id },
    );

    // Lin's policy is manual: Mia's write waits for her. Sam keeps key steps: Bob's
    // write runs at once, his deletion waits for Sam.
    let (mias, bobs) = mia_writes_and_bob_writes_and_deletes(&co, mia.id, bob.id).await;
    let ids = |list: Vec<ApprovalDto>| list.iter().map(|a| a.id).collect::<Vec<_>>();
    let approvals = &co.core.approvals;
    assert_eq!(ids(approvals.pending_for(lin_d).await.unwrap()), [mias]);
    assert_eq!(ids(approvals.pending_for(sam_d).await.unwrap()), [bobs]);
    assert_eq!(
        ids(approvals.pending_for(Decider::Boss).await.unwrap()),
        [mias, bobs]
    );
    assert_eq!(approvals.get(mias).await.unwrap().approver_id, Some(lin.id));

    // Sam cannot decide Lin's, and nothing changes; Lin can.
    only_lin_of_the_two_decides_hers(&co, mias, (lin.id, lin_d, sam_d)).await;

    // The boss decides anything.
    let rejected = decide_as(&co, bobs, Decision::Reject, Decider::Boss)
        .await
        .unwrap();
    assert_eq!(
        (rejected.status, rejected.decided_by),
        (ApprovalStatus::Rejected, None)
    );
    assert_eq!(rejected.authorization_chain.last().unwrap().who, "boss");
}
