use cubicle_core::ErrorCode;
use cubicle_core::events::DomainEvent;
use cubicle_core::org::{
    DeleteDepartment, FireEmployee, MoveDepartment, MoveEmployee, NewDepartment, NewEmployee,
    RenameDepartment, SetDepartmentLead, SetManager, SetupCompany,
};
use cubicle_core::types::*;

use crate::util::TestCompany;

#[tokio::test]
async fn boss_builds_a_department_tree_and_hires_into_it() {
    let mut co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let fe = co.dept("Frontend", Some(eng.id)).await;
    let alice = co.hire("Alice", "Frontend Engineer", Some(fe.id)).await;

    // Role defaults come from the catalogue; the backend follows the company's routes.
    assert_eq!(alice.archetype, Archetype::UltraGrinder);
    assert!(alice.skills.iter().any(|s| s == "react"));
    assert_eq!(alice.backend.provider, "");
    assert_eq!(alice.status, EmployeeStatus::Idle);

    let snap = co.core.org.snapshot().await.expect("snapshot");
    assert_eq!(snap.departments.len(), 2);
    assert_eq!(snap.departments[1].parent_id, Some(eng.id));
    assert_eq!(snap.employees.len(), 1);
    assert_eq!(snap.employees[0].department_id, Some(fe.id));

    let fe_chat = co
        .core
        .chats
        .find_department_chat(fe.id)
        .await
        .unwrap()
        .expect("the department's chat");
    assert_eq!(
        co.core.chats.members(fe_chat.id).await.unwrap(),
        vec![alice.id]
    );
    assert_eq!(
        co.drain_events(),
        vec![
            DomainEvent::DepartmentCreated {
                department_id: eng.id
            },
            DomainEvent::DepartmentCreated {
                department_id: fe.id
            },
            DomainEvent::EmployeeHired {
                employee_id: alice.id
            },
            // The hire put Alice in her department's chat, in the same transaction.
            DomainEvent::ChatChanged {
                chat_id: fe_chat.id
            },
        ]
    );
}

#[tokio::test]
async fn sibling_department_names_are_unique_but_cousins_may_share() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let sales = co.dept("Sales", None).await;
    let err = co
        .core
        .org
        .create_department(NewDepartment {
            name: "  engineering ".into(),
            parent_id: None,
            mission: None,
        })
        .await
        .expect_err("duplicate sibling");
    assert_eq!(err.code(), ErrorCode::DuplicateName);

    // "Ops" under two different parents is fine.
    co.dept("Ops", Some(eng.id)).await;
    let sales_ops = co.dept("Ops", Some(sales.id)).await;

    // Renaming into a clash is refused too.
    let err = co
        .core
        .org
        .rename_department(RenameDepartment {
            id: sales.id,
            name: "ENGINEERING".into(),
        })
        .await
        .expect_err("rename clash");
    assert_eq!(err.code(), ErrorCode::DuplicateName);

    // Moving into a parent that already has an "Ops" clashes.
    let err = co
        .core
        .org
        .move_department(MoveDepartment {
            id: sales_ops.id,
            parent_id: Some(eng.id),
        })
        .await
        .expect_err("move clash");
    assert_eq!(err.code(), ErrorCode::DuplicateName);
}

#[tokio::test]
async fn moving_a_department_under_its_own_descendant_is_refused() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let fe = co.dept("Frontend", Some(eng.id)).await;
    let web = co.dept("Web", Some(fe.id)).await;

    for (id, parent) in [(eng.id, web.id), (eng.id, eng.id), (fe.id, web.id)] {
        let err = co
            .core
            .org
            .move_department(MoveDepartment {
                id,
                parent_id: Some(parent),
            })
            .await
            .expect_err("cycle");
        assert_eq!(
            err.code(),
            ErrorCode::DepartmentCycle,
            "{id} under {parent}"
        );
    }
    // The tree is unchanged after the refusals.
    let snap = co.core.org.snapshot().await.expect("snapshot");
    let parent_of = |id| {
        snap.departments
            .iter()
            .find(|d| d.id == id)
            .and_then(|d| d.parent_id)
    };
    assert_eq!(parent_of(eng.id), None);
    assert_eq!(parent_of(fe.id), Some(eng.id));

    // A legal move works: Web to the top level.
    let moved = co
        .core
        .org
        .move_department(MoveDepartment {
            id: web.id,
            parent_id: None,
        })
        .await
        .expect("move");
    assert_eq!(moved.parent_id, None);
}

#[tokio::test]
async fn a_manager_must_be_a_current_colleague_and_not_oneself() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let alice = co.hire("Alice", "Backend Engineer", Some(eng.id)).await;
    let bob = co.hire("Bob", "QA Engineer", Some(eng.id)).await;
    let carol = co.hire("Carol", "Designer", Some(eng.id)).await;
    let org = &co.core.org;

    let err = org
        .set_manager(SetManager {
            employee_id: alice.id,
            manager_id: Some(alice.id),
        })
        .await
        .expect_err("self");
    assert_eq!(err.code(), ErrorCode::InvalidManager);

    let err = org
        .set_manager(SetManager {
            employee_id: alice.id,
            manager_id: Some(9999),
        })
        .await
        .expect_err("unknown");
    assert_eq!(err.code(), ErrorCode::InvalidManager);

    org.fire(FireEmployee {
        employee_id: carol.id,
    })
    .await
    .expect("fire");
    let err = org
        .set_manager(SetManager {
            employee_id: alice.id,
            manager_id: Some(carol.id),
        })
        .await
        .expect_err("fired manager");
    assert_eq!(err.code(), ErrorCode::InvalidManager);

    // Hiring with a former employee as manager is refused the same way.
    let err = org
        .hire(NewEmployee {
            name: "Dan".into(),
            title: "Writer".into(),
            department_id: Some(eng.id),
            manager_id: Some(carol.id),
            archetype: None,
        })
        .await
        .expect_err("hire under fired manager");
    assert_eq!(err.code(), ErrorCode::InvalidManager);

    // Bob reports to Alice; Alice reporting to Bob would close a loop.
    org.set_manager(SetManager {
        employee_id: bob.id,
        manager_id: Some(alice.id),
    })
    .await
    .expect("bob reports to alice");
    let err = org
        .set_manager(SetManager {
            employee_id: alice.id,
            manager_id: Some(bob.id),
        })
        .await
        .expect_err("loop");
    assert_eq!(err.code(), ErrorCode::InvalidManager);
}

#[tokio::test]
async fn deleting_a_non_empty_department_requires_a_destination() {
    let mut co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let fe = co.dept("Frontend", Some(eng.id)).await;
    let web = co.dept("Web", Some(fe.id)).await;
    let product = co.dept("Product", None).await;
    let alice = co.hire("Alice", "Frontend Engineer", Some(fe.id)).await;
    co.drain_events();
    let org = &co.core.org;

    let err = org
        .delete_department(DeleteDepartment {
            id: fe.id,
            reassign_to: None,
        })
        .await
        .expect_err("not empty");
    assert_eq!(err.code(), ErrorCode::DepartmentNotEmpty);

    // Into itself or its own subtree is refused.
    for target in [fe.id, web.id] {
        let err = org
            .delete_department(DeleteDepartment {
                id: fe.id,
                reassign_to: Some(target),
            })
            .await
            .expect_err("into own subtree");
        assert_eq!(err.code(), ErrorCode::DepartmentCycle);
    }

    org.delete_department(DeleteDepartment {
        id: fe.id,
        reassign_to: Some(product.id),
    })
    .await
    .expect("delete with destination");

    let snap = org.snapshot().await.expect("snapshot");
    assert!(snap.departments.iter().all(|d| d.id != fe.id));
    let web_now = snap
        .departments
        .iter()
        .find(|d| d.id == web.id)
        .expect("web kept");
    assert_eq!(web_now.parent_id, Some(product.id));
    let alice_now = snap
        .employees
        .iter()
        .find(|e| e.id == alice.id)
        .expect("alice kept");
    assert_eq!(alice_now.department_id, Some(product.id));

    let events = co.drain_events();
    assert!(events.contains(&DomainEvent::DepartmentDeleted {
        department_id: fe.id
    }));
    assert!(events.contains(&DomainEvent::EmployeeUpdated {
        employee_id: alice.id
    }));

    // An empty department goes without a destination.
    co.core
        .org
        .delete_department(DeleteDepartment {
            id: web.id,
            reassign_to: None,
        })
        .await
        .expect("delete empty");
}

#[tokio::test]
async fn firing_keeps_the_record_and_moves_reports_up() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let org = &co.core.org;
    let cto = co.hire("Grace", "Backend Engineer", Some(eng.id)).await;
    let lead = org
        .hire(NewEmployee {
            name: "Alice".into(),
            title: "Frontend Engineer".into(),
            department_id: Some(eng.id),
            manager_id: Some(cto.id),
            archetype: Some(Archetype::Philosopher),
        })
        .await
        .expect("hire lead");
    assert_eq!(
        lead.archetype,
        Archetype::Philosopher,
        "explicit archetype wins"
    );
    let bob = org
        .hire(NewEmployee {
            name: "Bob".into(),
            title: "QA Engineer".into(),
            department_id: Some(eng.id),
            manager_id: Some(lead.id),
            archetype: None,
        })
        .await
        .expect("hire bob");

    let fired = org
        .fire(FireEmployee {
            employee_id: lead.id,
        })
        .await
        .expect("fire");
    assert_eq!(fired.status, EmployeeStatus::Fired);
    assert!(fired.fired_at.is_some());

    let snap = org.snapshot().await.expect("snapshot");
    assert!(
        snap.employees.iter().all(|e| e.id != lead.id),
        "not drawn any more"
    );
    let bob_now = snap.employees.iter().find(|e| e.id == bob.id).expect("bob");
    assert_eq!(bob_now.manager_id, Some(cto.id), "reports move up");

    let all = org.all_employees().await.expect("all");
    let record = all.iter().find(|e| e.id == lead.id).expect("record kept");
    assert_eq!(record.name, "Alice");
    assert_eq!(record.department_id, Some(eng.id));

    let err = org
        .fire(FireEmployee {
            employee_id: lead.id,
        })
        .await
        .expect_err("twice");
    assert_eq!(err.code(), ErrorCode::AlreadyFired);
    let err = org
        .move_employee(MoveEmployee {
            employee_id: lead.id,
            department_id: None,
        })
        .await
        .expect_err("move former employee");
    assert_eq!(err.code(), ErrorCode::AlreadyFired);
}

#[tokio::test]
async fn bad_input_is_refused_with_a_code_and_changes_nothing() {
    let mut co = TestCompany::new().await;
    let org = &co.core.org;
    let err = org
        .create_department(NewDepartment {
            name: "   ".into(),
            parent_id: None,
            mission: None,
        })
        .await
        .expect_err("blank");
    assert_eq!(err.code(), ErrorCode::InvalidInput);
    let err = org
        .create_department(NewDepartment {
            name: "Ghost child".into(),
            parent_id: Some(404),
            mission: None,
        })
        .await
        .expect_err("missing parent");
    assert_eq!(err.code(), ErrorCode::NotFound);
    let err = org
        .hire(NewEmployee {
            name: "Zed".into(),
            title: "Engineer".into(),
            department_id: Some(404),
            manager_id: None,
            archetype: None,
        })
        .await
        .expect_err("missing department");
    assert_eq!(err.code(), ErrorCode::NotFound);
    let err = org
        .setup_company(SetupCompany {
            name: "Second".into(),
            boss_name: "Eve".into(),
            language: Language::En,
            mission: None,
        })
        .await
        .expect_err("one company per database");
    assert_eq!(err.code(), ErrorCode::CompanyExists);

    let snap = org.snapshot().await.expect("snapshot");
    assert!(snap.departments.is_empty());
    assert!(snap.employees.is_empty());
    assert!(
        co.drain_events().is_empty(),
        "no event for a refused change"
    );
}

#[tokio::test]
async fn an_org_survives_reopening_the_database() {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    {
        let core = cubicle_core::AppCore::open(&url).await.expect("open");
        core.org
            .setup_company(SetupCompany {
                name: "Acme".into(),
                boss_name: "Ada".into(),
                language: Language::ZhCn,
                mission: None,
            })
            .await
            .expect("setup");
        let d = core
            .org
            .create_department(NewDepartment {
                name: "研发部".into(),
                parent_id: None,
                mission: None,
            })
            .await
            .expect("dept");
        core.org
            .hire(NewEmployee {
                name: "张伟".into(),
                title: "测试工程师".into(),
                department_id: Some(d.id),
                manager_id: None,
                archetype: None,
            })
            .await
            .expect("hire");
        core.close().await.expect("close");
    }
    let core = cubicle_core::AppCore::open(&url).await.expect("reopen");
    let snap = core.org.snapshot().await.expect("snapshot");
    let company = snap.company.expect("company");
    assert_eq!(company.language, Language::ZhCn);
    assert_eq!(snap.departments[0].name, "研发部");
    assert_eq!(snap.employees[0].name, "张伟");
    assert_eq!(snap.employees[0].archetype, Archetype::AnxiousPerfectionist);
    // Reopening does not seed the role catalogue twice.
    let roles = core.org.role_templates().await.expect("roles");
    assert_eq!(roles.len(), cubicle_core::roles::CATALOGUE.len());
}

#[tokio::test]
async fn a_lead_is_a_current_member_of_the_department() {
    let co = TestCompany::new().await;
    let eng = co.dept("Engineering", None).await;
    let sales = co.dept("Sales", None).await;
    let alice = co.hire("Alice", "Backend Engineer", Some(eng.id)).await;
    let org = &co.core.org;

    let err = org
        .set_department_lead(SetDepartmentLead {
            department_id: sales.id,
            employee_id: Some(alice.id),
        })
        .await
        .expect_err("not a member");
    assert_eq!(err.code(), ErrorCode::InvalidInput);

    let d = org
        .set_department_lead(SetDepartmentLead {
            department_id: eng.id,
            employee_id: Some(alice.id),
        })
        .await
        .expect("lead");
    assert_eq!(d.lead_id, Some(alice.id));

    // Leaving the department, or the company, ends the lead role.
    org.move_employee(MoveEmployee {
        employee_id: alice.id,
        department_id: Some(sales.id),
    })
    .await
    .expect("move");
    let snap = org.snapshot().await.expect("snapshot");
    assert_eq!(
        snap.departments
            .iter()
            .find(|d| d.id == eng.id)
            .and_then(|d| d.lead_id),
        None
    );

    org.set_department_lead(SetDepartmentLead {
        department_id: sales.id,
        employee_id: Some(alice.id),
    })
    .await
    .expect("lead sales");
    org.fire(FireEmployee {
        employee_id: alice.id,
    })
    .await
    .expect("fire");
    let snap = org.snapshot().await.expect("snapshot");
    assert_eq!(
        snap.departments
            .iter()
            .find(|d| d.id == sales.id)
            .and_then(|d| d.lead_id),
        None
    );
}

// The same scenarios on PostgreSQL, each company on a fresh database of its own
// (skipped, with a line saying so, when CUBICLE_TEST_PG_URL is unset).

#[test]
fn boss_builds_a_department_tree_and_hires_into_it_on_postgres() {
    crate::pg::on_postgres(boss_builds_a_department_tree_and_hires_into_it);
}

#[test]
fn sibling_department_names_are_unique_but_cousins_may_share_on_postgres() {
    crate::pg::on_postgres(sibling_department_names_are_unique_but_cousins_may_share);
}

#[test]
fn firing_keeps_the_record_and_moves_reports_up_on_postgres() {
    crate::pg::on_postgres(firing_keeps_the_record_and_moves_reports_up);
}
