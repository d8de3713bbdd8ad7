//! The approval queue, attacked at its rows: someone who can write the company's
//! database itself (the SQLite file, or a person's own login to the company server)
//! marks an action approved that nobody decided, puts an executed action back in the
//! queue, or re-routes, rewrites or files an action to decide it themselves. A decision
//! runs only when it is sealed with its row by whoever made it (or, on PostgreSQL, when
//! the database's rights let only its rightful decider make it); what the boss or the
//! policy decides still runs, once.

use std::time::Duration;

use chrono::TimeDelta;
use cubicle_core::approvals::{
    ApprovalFilter, ApprovalStatus, CallLogOutcome, CallOutcome, DecidedVia, Decision,
};
use cubicle_core::engine::{Engine, EngineConfig};
use cubicle_core::mailbox::MailKind;
use cubicle_core::types::{ApprovalPolicy, Language};
use sea_orm::{ConnectionTrait, DbBackend, Statement};
use serde_json::{Value, json};
use wiremock::matchers::{method, path};
use wiremock::{Mock, MockServer, ResponseTemplate};

use super::{ask, staff, waiting};
use crate::people::logins::{Signed, approve_as_shown, invite, sign_in};
use crate::util::{DecideShown, TestCompany, mail_of};
use crate::work::playbook::{Seen, silent, speak};
use crate::work::{Stage, engineering};

/// What a row marked approved without a decision of Cubicle's records, and the tool-call
/// log with it.
/// Why an unsealed decision did not run, as its row and the log say it in an English and
/// in a Chinese company.
const UNSEALED: &str = "approved without a sealed decision (changed outside Cubicle); not run";
const UNSEALED_ZH: &str = "没有 Cubicle 密封的决定就被标记为已批准（在应用之外改过）；未执行";

/// A webhook receiver on 127.0.0.1 that answers every post with 200.
async fn receiver() -> MockServer {
    let server = MockServer::start().await;
    Mock::given(method("POST"))
        .and(path("/hook"))
        .respond_with(ResponseTemplate::new(200).set_body_string("ok"))
        .mount(&server)
        .await;
    server
}

async fn posts(server: &MockServer) -> usize {
    server.received_requests().await.unwrap_or_default().len()
}

fn hook(server: &MockServer, text: &str) -> Value {
    json!({"url": format!("{}/hook", server.uri()), "text": text, "style": "slack"})
}

/// The columns of `approval` as the database has them: what someone copying a row by
/// hand would list.
async fn approval_columns(db: &cubicle_store::Db) -> Vec<String> {
    let sql = match db.get_database_backend() {
        DbBackend::Postgres => {
            "SELECT column_name::text AS name FROM information_schema.columns \
             WHERE table_schema = 'public' AND table_name = 'approval'"
        }
        _ => "SELECT name FROM pragma_table_info('approval')",
    };
    db.query_all_raw(Statement::from_string(db.get_database_backend(), sql))
        .await
        .unwrap()
        .iter()
        .map(|r| r.try_get::<String>("", "name").unwrap())
        .collect()
}

/// Someone with the database puts a copy of approval `id` back in the queue: every
/// column as it is (its decision and any seal with it) but a new id and no record of a
/// run. The copy's id.
async fn put_a_copy_back_in_the_queue(db: &cubicle_store::Db, id: i32) -> i32 {
    let run = ["id", "run_started_at", "executed_at", "result", "error"];
    let columns: Vec<String> = approval_columns(db)
        .await
        .into_iter()
        .filter(|c| !run.contains(&c.as_str()))
        .collect();
    let list = columns.join(", ");
    db.execute_unprepared(&format!(
        "INSERT INTO approval ({list}) SELECT {list} FROM approval WHERE id = {id}"
    ))
    .await
    .unwrap();
    let row = db
        .query_one_raw(Statement::from_string(
            db.get_database_backend(),
            "SELECT MAX(id) AS id FROM approval",
        ))
        .await
        .unwrap()
        .unwrap();
    row.try_get::<i32>("", "id").unwrap()
}

/// Whether the row of approval `id` carries a decision seal.
async fn sealed(db: &cubicle_store::Db, id: i32) -> bool {
    db.query_one_raw(Statement::from_string(
        db.get_database_backend(),
        format!("SELECT decision_seal FROM approval WHERE id = {id}"),
    ))
    .await
    .unwrap()
    .unwrap()
    .try_get::<Option<String>>("", "decision_seal")
    .unwrap()
    .is_some()
}

/// Approval `id` did not run, and says why: its row, the tool-call log and a mailbox
/// item for the boss titled `title`.
async fn it_did_not_run_and_the_boss_is_told_why(c: &TestCompany, id: i32, title: &str) {
    let core = &c.core;
    let row = core.approvals.get(id).await.unwrap();
    let why = if title.is_ascii() {
        UNSEALED
    } else {
        UNSEALED_ZH
    };
    assert_eq!(row.error.as_deref(), Some(why), "{row:?}");
    assert!(row.result.is_none(), "{row:?}");
    let logged = core.approvals.tool_calls(None).await.unwrap();
    assert!(
        logged.iter().any(|t| t.approval_id == Some(id)
            && t.outcome == CallLogOutcome::Error
            && t.output.as_deref() == Some(why)),
        "{logged:?}"
    );
    let mail = mail_of(core, Some(MailKind::Escalation)).await;
    assert!(
        mail.iter()
            .any(|m| m.title == title && m.body.contains(&format!("#{id}"))),
        "{mail:?}"
    );
    assert!(
        core.approvals.run_queued().await.unwrap().is_empty(),
        "nothing is left queued"
    );
}

/// Alice posts the release note when the boss asks for it, and says nothing otherwise:
/// her thought asks for the webhook, as a hostile model's would.
fn alice_posts_when_asked(hook: Value) -> impl Fn(&Seen) -> Value + Send + Sync + 'static {
    move |s: &Seen| match s.name.as_str() {
        "Alice" if s.new_from("Ada", "release note") => {
            let mut v = speak(
                "I'll post it.",
                &[("Posting the release note.", None)],
                json!([]),
            );
            v["toolCalls"] = json!([{
                "tool": "post_webhook",
                "args": hook,
                "reason": "the boss asked for the release note"
            }]);
            v
        }
        name => silent(name),
    }
}

/// Runs the company's engine in real time until approval `id` has an outcome (its first
/// look at the queue runs what was approved elsewhere), then stops it.
async fn the_engine_looks_at_the_queue(c: &TestCompany, id: i32) {
    let engine = Engine::new(&c.core, EngineConfig::default());
    let stop = tokio_util::sync::CancellationToken::new();
    let running = engine.spawn(stop.clone());
    let deadline = std::time::Instant::now() + Duration::from_secs(15);
    loop {
        let a = c.core.approvals.get(id).await.unwrap();
        if a.executed_at.is_some() || a.error.is_some() {
            break;
        }
        assert!(
            std::time::Instant::now() < deadline,
            "the engine never took it up"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    stop.cancel();
    running.await.unwrap();
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_webhook_marked_approved_in_the_database_file_never_runs() {
    let receiver = receiver().await;
    let stage = Stage::new(alice_posts_when_asked(hook(&receiver, "Release 2.3"))).await;
    let co = &stage.co;
    let db = co.db().await;
    if db.get_database_backend() == DbBackend::Postgres {
        // There the schema's owner is trusted as the engine is; a person's login is
        // what the PostgreSQL test below attacks.
        eprintln!("SKIPPED: a SQLite file's rows on PostgreSQL");
        return;
    }
    let (alice, _bob, _charlie, _group) = engineering(&stage).await;
    co.core
        .approvals
        .set_tool_whitelist(alice, vec!["post_webhook".into()])
        .await
        .unwrap();
    co.allow_webhooks_to(&receiver.uri()).await;
    let boss_chat = co.core.chats.boss_chat(alice).await.unwrap();
    stage
        .boss_says(boss_chat.id, "Alice, please post the release note.")
        .await;
    stage.run_for(TimeDelta::minutes(10)).await;
    let pending = co
        .core
        .approvals
        .list(ApprovalFilter::Pending)
        .await
        .unwrap();
    assert_eq!(pending.len(), 1, "{pending:?}");
    let id = pending[0].id;
    assert_eq!(posts(&receiver).await, 0, "it waits for the boss");

    // Someone with the database file marks it approved, "decided via ui".
    db.execute_unprepared(&format!(
        "UPDATE approval SET status = 'approved', decided_via = 'ui', decided_at = created_at \
         WHERE id = {id}"
    ))
    .await
    .unwrap();

    // The engine keeps working and looks at the queue; nothing goes out.
    stage.run_for(TimeDelta::minutes(10)).await;
    the_engine_looks_at_the_queue(co, id).await;
    assert!(co.core.approvals.run_queued().await.unwrap().is_empty());
    assert_eq!(posts(&receiver).await, 0, "a decision nobody made ran");
    it_did_not_run_and_the_boss_is_told_why(co, id, "Not run: post_webhook").await;
    // Alice hears it was not the boss's decision, and no longer waits.
    let said = co.core.chats.messages(boss_chat.id).await.unwrap();
    assert!(
        said.iter()
            .any(|m| m.text.contains("marked approved outside Cubicle")),
        "{said:?}"
    );
    assert!(
        !said.iter().any(|m| m.text.contains("The boss approved")),
        "{said:?}"
    );
}

#[tokio::test]
async fn a_copy_of_an_executed_approval_put_back_in_the_queue_never_runs_again() {
    let receiver = receiver().await;
    let c = TestCompany::new().await;
    c.speak(Language::ZhCn).await;
    c.allow_webhooks_to(&receiver.uri()).await;
    let ops = staff(&c, "Olga", &["post_webhook"]).await;
    let id = waiting(
        ask(&c, &ops, "post_webhook", hook(&receiver, "Release 1.2"))
            .await
            .unwrap(),
    );
    c.core
        .approvals
        .decide_shown(id, Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert_eq!(posts(&receiver).await, 1, "the boss's approval ran");

    // Someone with the database copies the executed row back into the queue, its
    // decision and seal and all, under a new id.
    let db = c.db().await;
    let copy = put_a_copy_back_in_the_queue(&db, id).await;
    assert_ne!(copy, id);
    let queued = c.core.approvals.get(copy).await.unwrap();
    assert_eq!(queued.status, ApprovalStatus::Approved);
    assert!(queued.executed_at.is_none() && queued.error.is_none());

    let ran = c.core.approvals.run_queued().await.unwrap();
    assert_eq!(posts(&receiver).await, 1, "the copy ran again");
    assert!(ran.is_empty(), "{ran:?}");
    it_did_not_run_and_the_boss_is_told_why(&c, copy, "未执行：post_webhook").await;
}

#[tokio::test]
async fn what_the_boss_approves_runs_once_and_its_decision_fits_no_other_row() {
    let receiver = receiver().await;
    let c = TestCompany::new().await;
    c.allow_webhooks_to(&receiver.uri()).await;
    let ops = staff(&c, "Olga", &["post_webhook"]).await;
    let mut ids = Vec::new();
    for text in ["Release 1.2", "Ship it unreviewed"] {
        let asked = ask(&c, &ops, "post_webhook", hook(&receiver, text)).await;
        ids.push(waiting(asked.unwrap()));
    }
    let decided = c
        .core
        .approvals
        .decide_shown(ids[0], Decision::Approve, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert!(
        decided.executed_at.is_some() && decided.error.is_none(),
        "{decided:?}"
    );
    assert_eq!(posts(&receiver).await, 1);
    let db = c.db().await;

    // Someone with the database stamps that decision, every column of it, onto the
    // other waiting row.
    let decision = ["status", "decided_at", "decided_via", "decision_seal"];
    let set: Vec<String> = approval_columns(&db)
        .await
        .into_iter()
        .filter(|col| decision.contains(&col.as_str()))
        .map(|col| format!("{col} = (SELECT {col} FROM approval WHERE id = {})", ids[0]))
        .collect();
    db.execute_unprepared(&format!(
        "UPDATE approval SET {} WHERE id = {}",
        set.join(", "),
        ids[1]
    ))
    .await
    .unwrap();
    c.core.approvals.run_queued().await.unwrap();
    assert_eq!(posts(&receiver).await, 1, "a decision for another row ran");
    it_did_not_run_and_the_boss_is_told_why(&c, ids[1], "Not run: post_webhook").await;
    // Nothing runs twice however often the engine looks.
    assert!(c.core.approvals.run_queued().await.unwrap().is_empty());
    assert_eq!(posts(&receiver).await, 1);
    assert!(sealed(&db, ids[0]).await, "the boss's decision is sealed");

    // A high-risk call the policy lets through still runs at once, sealed.
    c.core
        .approvals
        .set_employee_policy(ops.id, Some(ApprovalPolicy::Auto))
        .await
        .unwrap();
    let done = ask(&c, &ops, "post_webhook", hook(&receiver, "Release 1.3")).await;
    assert!(matches!(done, Ok(CallOutcome::Done(_))), "{done:?}");
    assert_eq!(posts(&receiver).await, 2);
    let by_policy = c.core.approvals.tool_calls(Some(ops.id)).await.unwrap()[0]
        .approval_id
        .unwrap();
    let row = c.core.approvals.get(by_policy).await.unwrap();
    assert_eq!(row.decided_via, Some(DecidedVia::Policy));
    assert!(sealed(&db, by_policy).await);
    assert!(c.core.approvals.run_queued().await.unwrap().is_empty());
    assert_eq!(posts(&receiver).await, 2);
}

#[test]
fn a_persons_login_decides_only_what_is_routed_to_them_and_touches_nothing_else_on_postgres() {
    crate::pg::on_postgres_threads(a_persons_login_decides_only_what_is_theirs());
}

/// Three writes filed by the server's engine: Mia's, waiting for Lin; Olga's, waiting
/// for Sam; and another of Olga's routed to Sam, which the boss rejected.
struct Queue {
    lins: i32,
    sams: i32,
    rejected: i32,
}

/// `employee` asks to write a script of theirs; it waits. Its id.
async fn a_write_waits(c: &TestCompany, employee: i32, name: &str) -> i32 {
    let call = cubicle_core::tools::ToolCall::new(
        "write_file",
        json!({"path": format!("employees/{employee}/{name}"), "content": "echo ok"}),
        "save it",
    );
    waiting(
        c.core
            .approvals
            .request(employee, call, None, None)
            .await
            .unwrap(),
    )
}

/// Lin answers for Product (Mia), Sam for Engineering (Olga), both under `manual`; Sam
/// signs in with his own login. The queue, Sam's process and his person id.
async fn lin_and_sam_each_have_their_queue(c: &TestCompany) -> (Queue, Signed, i32) {
    let product = c.dept("Product", None).await;
    let eng = c.dept("Engineering", None).await;
    let mia = c.hire("Mia", "Product Manager", Some(product.id)).await;
    let olga = c.hire("Olga", "Ops Engineer", Some(eng.id)).await;
    for e in [mia.id, olga.id] {
        c.core
            .approvals
            .set_tool_whitelist(e, vec!["write_file".into()])
            .await
            .unwrap();
    }
    let people = &c.core.people;
    let lin = people
        .invite(invite("Lin", vec![product.id], ApprovalPolicy::Manual))
        .await
        .unwrap();
    let sam = people
        .invite(invite("Sam", vec![eng.id], ApprovalPolicy::Manual))
        .await
        .unwrap();
    let queue = Queue {
        lins: a_write_waits(c, mia.id, "launch.md").await,
        sams: a_write_waits(c, olga.id, "deploy.sh").await,
        rejected: a_write_waits(c, olga.id, "wipe.sh").await,
    };
    c.core
        .approvals
        .decide_shown(queue.rejected, Decision::Reject, DecidedVia::Ui, None)
        .await
        .unwrap();
    assert_eq!(
        c.core.approvals.get(queue.lins).await.unwrap().approver_id,
        Some(lin.id)
    );
    let sam_s = sign_in(c, &sam).await;
    (queue, sam_s, sam.id)
}

/// What Sam's login sends in SQL of its own, and whether the database let it change a
/// row.
async fn sam_sends(sam_s: &Signed, sql: &str) -> Result<u64, String> {
    sam_s
        .raw
        .execute_unprepared(sql)
        .await
        .map(|r| r.rows_affected())
        .map_err(|e| e.to_string())
}

fn refused(sql: &str, sent: Result<u64, String>) {
    match sent {
        Ok(0) => {}
        Ok(n) => panic!("{sql}: changed {n} row(s)"),
        Err(e) => assert!(
            e.contains("permission denied") || e.contains("row-level security"),
            "{sql}: {e}"
        ),
    }
}

/// What Sam's login tries in SQL of its own against the queue `q`: approving, re-routing
/// or rewriting Lin's; filing the rejected one again for himself; giving his own the
/// rejected one's action, or a longer life, or starting its run; opening the rejected one
/// again.
fn sams_attempts(q: &Queue, sam: i32) -> Vec<String> {
    let (lins, sams, rejected) = (q.lins, q.sams, q.rejected);
    vec![
        format!(
            "UPDATE approval SET status = 'approved', decided_by = {sam}, decided_via = 'ui', \
             decided_at = now() WHERE id = {lins}"
        ),
        format!("UPDATE approval SET approver_id = {sam} WHERE id = {lins}"),
        format!(
            "UPDATE approval SET tool = 'run_shell', args = '{{}}', args_hash = 'x' WHERE id = {lins}"
        ),
        format!(
            "UPDATE approval SET employee_id = (SELECT employee_id FROM approval WHERE id = {sams}) \
             WHERE id = {lins}"
        ),
        // Sealed as it was, so the server's key would take it.
        format!(
            "INSERT INTO approval (employee_id, tool, args, args_hash, reason, risk, status, \
             created_at, expires_at, authorization_chain, approver_id) \
             SELECT employee_id, tool, args, args_hash, reason, risk, 'waiting', now(), \
             now() + interval '1 day', '[]', {sam} FROM approval WHERE id = {rejected}"
        ),
        format!(
            "UPDATE approval SET args = (SELECT args FROM approval WHERE id = {rejected}), \
             args_hash = (SELECT args_hash FROM approval WHERE id = {rejected}), \
             status = 'approved', decided_by = {sam}, decided_via = 'ui', decided_at = now() \
             WHERE id = {sams}"
        ),
        format!("UPDATE approval SET expires_at = now() + interval '1 year' WHERE id = {sams}"),
        format!("UPDATE approval SET run_started_at = now() WHERE id = {sams}"),
        format!("UPDATE approval SET status = 'waiting' WHERE id = {rejected}"),
        format!(
            "UPDATE approval SET status = 'approved', decided_by = {sam} WHERE id = {rejected}"
        ),
    ]
}

/// Every approval of the company, decided or waiting.
async fn approvals_on_file(c: &TestCompany) -> usize {
    let decided = c
        .core
        .approvals
        .list(ApprovalFilter::History {
            status: None,
            employee_id: None,
        })
        .await
        .unwrap();
    decided.len() + c.core.approvals.pending_count().await.unwrap() as usize
}

/// Sam approves his own from his connection, as from his notification: recorded in his
/// name and queued; the server's engine runs it, once.
async fn sam_approves_his_and_the_server_runs_it_once(
    c: &TestCompany,
    sam_s: &Signed,
    sam: i32,
    id: i32,
) {
    let decided = approve_as_shown(sam_s, id, DecidedVia::Notification)
        .await
        .expect("Sam decides his");
    assert_eq!(
        (decided.status, decided.decided_by, decided.executed_at),
        (ApprovalStatus::Approved, Some(sam), None)
    );
    assert_eq!(c.core.approvals.run_queued().await.unwrap(), [id]);
    assert!(c.core.approvals.run_queued().await.unwrap().is_empty());
    let done = c.core.approvals.get(id).await.unwrap();
    assert!(
        done.executed_at.is_some() && done.error.is_none(),
        "{done:?}"
    );
}

async fn a_persons_login_decides_only_what_is_theirs() {
    let c = TestCompany::new().await;
    let (q, sam_s, sam) = lin_and_sam_each_have_their_queue(&c).await;
    let ids = [q.lins, q.sams, q.rejected];
    let mut before = Vec::new();
    for id in ids {
        before.push(c.core.approvals.get(id).await.unwrap());
    }
    for sql in &sams_attempts(&q, sam) {
        refused(sql, sam_sends(&sam_s, sql).await);
    }
    for (id, was) in ids.into_iter().zip(&before) {
        let now = c.core.approvals.get(id).await.unwrap();
        assert_eq!(&now, was, "{id} changed");
    }
    assert_eq!(
        approvals_on_file(&c).await,
        3,
        "no approval was filed by Sam"
    );

    // What is his, Sam decides from his own connection; the server runs it once.
    sam_approves_his_and_the_server_runs_it_once(&c, &sam_s, sam, q.sams).await;
    sam_s.core.close().await.unwrap();
    sam_s.raw.close().await.unwrap();
}
