//! Each person is someone where the data lives (SPEC §12): on PostgreSQL the boss's
//! server role gives Lin and Sam logins of their own, and the database itself holds each
//! to their rights — whatever a person's process sends, not only what the app would.
//! Lin's proxy asks Sam's for an estimate on their own connections; Mia's action waits for
//! Lin; Sam's attempts to decide it (through the app or in raw SQL), to file a decided
//! approval, to loosen the company's policy or to repoint a provider are refused by the
//! database; Lin approves from her own connection, the server runs the action once, and
//! the chain names Lin, as who decided, and Mia, who proposed it.

use cubicle_core::AppCore;
use cubicle_core::approvals::{
    ApprovalDto, ApprovalError, ApprovalFilter, ApprovalStatus, CallOutcome, DecideApproval,
    DecidedVia, Decision,
};
use cubicle_core::people::{NewPerson, PersonDto};
use cubicle_core::proxy::SayToProxy;
use cubicle_core::tools::ToolCall;
use cubicle_core::types::*;
use sea_orm::{ConnectionTrait, Database, DatabaseConnection, DbBackend, Statement};
use serde_json::json;

use crate::util::TestCompany;

#[test]
fn three_people_on_three_roles_and_the_database_holds_each_to_their_rights_on_postgres() {
    crate::pg::on_postgres_threads(three_people_on_three_roles());
}

/// A process signed in as a person: their own role, their own core.
pub(crate) struct Signed {
    pub(crate) core: AppCore,
    pub(crate) raw: DatabaseConnection,
    pub(crate) url: String,
}

/// `person` signs in with a login the boss issued: a core of their own on their role,
/// and a raw connection on it for SQL of their own.
pub(crate) async fn sign_in(co: &TestCompany, person: &PersonDto) -> Signed {
    let login = co
        .core
        .people
        .issue_login(person.id)
        .await
        .expect("a login");
    let url = login.url(co.url());
    let password = url
        .split_once("://")
        .and_then(|(_, rest)| rest.split_once('@'))
        .and_then(|(user, _)| user.split_once(':'))
        .map(|(_, pw)| pw.to_owned())
        .expect("a password in the URL");
    assert!(
        !format!("{login:?}").contains(&password),
        "the password is not in Debug output"
    );
    let core = co.open_at(&url).await;
    assert_eq!(core.approvals.signed_in(), Some(person.id));
    let raw = Database::connect(&url).await.expect("a raw connection");
    Signed { core, raw, url }
}

/// Approves `id` from a signed-in process, for what its desktop shows.
pub(crate) async fn approve_as_shown(
    s: &Signed,
    id: i32,
    via: DecidedVia,
) -> Result<ApprovalDto, ApprovalError> {
    let shown = s.core.approvals.get(id).await?.args_hash;
    let input = DecideApproval {
        approval_id: id,
        decision: Decision::Approve,
        note: None,
        args_hash: shown,
    };
    s.core.approvals.decide(input, via).await
}

pub(crate) fn invite(name: &str, departments: Vec<i32>, policy: ApprovalPolicy) -> NewPerson {
    NewPerson {
        name: name.into(),
        role: format!("head of {name}'s area"),
        language: None,
        approval_policy: Some(policy),
        departments,
        employees: vec![],
    }
}

async fn three_people_on_three_roles() {
    let co = TestCompany::new().await;
    let product = co.dept("Product", None).await;
    let eng = co.dept("Engineering", None).await;
    let mia = co.hire("Mia", "Product Manager", Some(product.id)).await;
    co.core
        .approvals
        .set_tool_whitelist(mia.id, vec!["write_file".into()])
        .await
        .unwrap();
    let people = &co.core.people;
    let lin = people
        .invite(invite("Lin", vec![product.id], ApprovalPolicy::Manual))
        .await
        .unwrap();
    let sam = people
        .invite(invite("Sam", vec![eng.id], ApprovalPolicy::KeySteps))
        .await
        .unwrap();
    let (lin_s, sam_s) = (sign_in(&co, &lin).await, sign_in(&co, &sam).await);

    proxies_talk_on_their_own_connections(&lin_s, &lin, &sam_s, &sam).await;

    // Mia's write waits for Lin (manual policy), raised by the server's engine.
    let write = ToolCall::new(
        "write_file",
        json!({"path": format!("employees/{}/launch.md", mia.id), "content": "launch plan"}),
        "save the launch plan",
    );
    let CallOutcome::Waiting(id) = co
        .core
        .approvals
        .request(mia.id, write, None, None)
        .await
        .unwrap()
    else {
        panic!("Lin's manual policy holds Mia's write");
    };
    assert_eq!(
        lin_s.core.approvals.pending_count().await.unwrap(),
        1,
        "Lin's badge"
    );
    assert_eq!(sam_s.core.approvals.pending_count().await.unwrap(), 0);
    // Each desktop's queue (what its notifications and tray count come from) is theirs.
    let queue = |core: &AppCore| {
        let core = core.clone();
        async move {
            let pending = core.approvals.list(ApprovalFilter::Pending).await.unwrap();
            pending.iter().map(|a| a.id).collect::<Vec<_>>()
        }
    };
    assert_eq!(queue(&lin_s.core).await, [id]);
    assert!(queue(&sam_s.core).await.is_empty());
    assert_eq!(queue(&co.core).await, [id], "the boss sees everything");

    sam_is_refused_by_the_database(&co, &sam_s, id, lin.id).await;

    lin_approves_and_the_server_runs_it_once(&co, &lin_s, id, lin.id).await;

    // Removing Sam ends his login.
    sam_s.core.close().await.unwrap();
    sam_s.raw.close().await.unwrap();
    co.core.people.remove(sam.id).await.unwrap();
    let gone = Database::connect(&sam_s.url).await;
    assert!(gone.is_err(), "Sam's login is gone with him");
    lin_s.core.close().await.unwrap();
    lin_s.raw.close().await.unwrap();
    co.core.people.remove(lin.id).await.unwrap();
}

/// Lin approves from her own connection, as from her notification: recorded in her name
/// and queued; her role cannot start the run; the server's role runs it, once, and the
/// chain names who proposed it and who decided.
async fn lin_approves_and_the_server_runs_it_once(
    co: &TestCompany,
    lin_s: &Signed,
    id: i32,
    lin: i32,
) {
    // Lin approves from her own connection, as from her notification: recorded, queued.
    let decided = approve_as_shown(lin_s, id, DecidedVia::Notification)
        .await
        .expect("Lin decides hers");
    assert_eq!(
        (decided.status, decided.decided_by, decided.executed_at),
        (ApprovalStatus::Approved, Some(lin), None),
        "decided in Lin's name; it runs on the server"
    );
    // Lin's role cannot start the run itself.
    let claimed = lin_s
        .raw
        .execute_unprepared(&format!(
            "UPDATE approval SET run_started_at = now() WHERE id = {id}"
        ))
        .await
        .map(|r| r.rows_affected());
    assert!(!matches!(claimed, Ok(1)), "{claimed:?}");

    // The server's role runs it, once.
    assert_eq!(co.core.approvals.run_queued().await.unwrap(), [id]);
    assert!(co.core.approvals.run_queued().await.unwrap().is_empty());
    let done = co.core.approvals.get(id).await.unwrap();
    assert!(
        done.executed_at.is_some() && done.error.is_none(),
        "{done:?}"
    );
    let chain = &done.authorization_chain;
    assert_eq!(chain[0].who, "Mia", "who proposed it");
    assert_eq!(chain.last().unwrap().who, "Lin", "the human who decided");
}

/// Lin's proxy asks Sam's for an estimate and Sam answers, each on their own login; a
/// person cannot speak through another's proxy.
async fn proxies_talk_on_their_own_connections(
    lin_s: &Signed,
    lin: &PersonDto,
    sam_s: &Signed,
    sam: &PersonDto,
) {
    let say = |core: &AppCore, person_id: i32, text: &str| {
        let core = core.clone();
        let text = text.to_owned();
        async move { core.proxies.say(SayToProxy { person_id, text }).await }
    };
    let asked = say(
        &lin_s.core,
        lin.id,
        "ask Sam for an estimate of the onboarding work",
    )
    .await
    .expect("Lin's proxy asks");
    assert!(asked.posted.is_some(), "{asked:?}");
    let answered = say(&sam_s.core, sam.id, "answer Lin: about three days")
        .await
        .expect("Sam answers through his proxy");
    assert_eq!(answered.posted.unwrap().text, "About three days");
    let heard = lin_s.core.proxies.conversation(lin.id).await.unwrap();
    assert!(
        heard.last().unwrap().text.contains("About three days"),
        "{heard:?}"
    );
    let impostor = say(&sam_s.core, lin.id, "tell Mia the launch moved").await;
    assert!(
        impostor
            .as_ref()
            .is_err_and(|e| e.to_string().contains("Lin's proxy")),
        "{impostor:?}"
    );
}

/// Everything Sam's login tries against Lin's approval and the company's rules fails in
/// the database, and nothing changes.
async fn sam_is_refused_by_the_database(co: &TestCompany, sam_s: &Signed, id: i32, lin: i32) {
    // Through the app: not his to decide.
    let err = approve_as_shown(sam_s, id, DecidedVia::Ui)
        .await
        .unwrap_err();
    assert!(matches!(err, ApprovalError::NotYours { .. }), "{err}");

    // In raw SQL on his own connection: the rows are not his to update...
    for decided_by in ["NULL".to_owned(), lin.to_string()] {
        let updated = sam_s
            .raw
            .execute_unprepared(&format!(
                "UPDATE approval SET status = 'approved', decided_by = {decided_by} WHERE id = {id}"
            ))
            .await
            .expect("the update runs, on no row");
        assert_eq!(updated.rows_affected(), 0, "row-level security hides it");
    }
    // ...a decided approval cannot be filed, nor one deleted...
    let mia = co.core.approvals.get(id).await.unwrap().employee_id;
    let refused = [
        format!(
            "INSERT INTO approval (employee_id, tool, args, args_hash, reason, risk, status, \
             created_at, expires_at, authorization_chain, decided_at, approver_id) \
             VALUES ({mia}, 'write_file', '{{}}', 'x', 'r', 'low', 'approved', now(), \
             now() + interval '1 day', '[]', now(), {lin})"
        ),
        format!("DELETE FROM approval WHERE id = {id}"),
        // ...nor the company's policy, a provider, people or settings changed.
        "UPDATE company SET approval_policy = 'auto'".to_owned(),
        "UPDATE provider SET base_url = 'http://evil.example'".to_owned(),
        "INSERT INTO app_setting (key, value) VALUES ('webhook_destinations', '[\"evil\"]')"
            .to_owned(),
        format!("UPDATE person SET approval_policy = 'auto' WHERE id = {lin}"),
        "UPDATE employee SET approval_policy = 'auto'".to_owned(),
    ];
    for sql in refused {
        let r = sam_s.raw.execute_unprepared(&sql).await;
        let e = r.expect_err(&sql).to_string();
        assert!(
            e.contains("permission denied") || e.contains("row-level security"),
            "{sql}: {e}"
        );
    }
    let still = co.core.approvals.get(id).await.unwrap();
    assert_eq!(
        (still.status, still.decided_by),
        (ApprovalStatus::Waiting, None)
    );
    let policy = co
        .db()
        .await
        .query_one_raw(Statement::from_string(
            DbBackend::Postgres,
            "SELECT approval_policy FROM company",
        ))
        .await
        .unwrap()
        .unwrap()
        .try_get::<String>("", "approval_policy")
        .unwrap();
    assert_ne!(policy, "auto");
}
