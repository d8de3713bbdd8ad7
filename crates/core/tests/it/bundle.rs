//! Company bundles (export / import): the seed-000 company goes out as one JSON document
//! and comes back whole in a fresh SQLite database; bad bundles and busy databases are
//! refused and leave everything as it was; no API key ever lands in a bundle.

use crate::util::DecideShown;
use cubicle_core::work::TaskOrigin;
use std::sync::{Arc, Mutex};

use chrono::TimeDelta;
use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::approvals::{ApprovalFilter, CallOutcome, DecidedVia, Decision};
use cubicle_core::bundle::{self, Bundle, BundleError};
use cubicle_core::clock::SharedClock;
use cubicle_core::error::ErrorCode;
use cubicle_core::meeting::OpenMeeting;
use cubicle_core::meeting::moderator::Strategy;
use cubicle_core::mind::memory_rules::{MemoryKind, Visibility};
use cubicle_core::mind::minds::NewMemory;
use cubicle_core::org::{NewEmployee, SetManager};
use cubicle_core::providers::{SaveProvider, SetProviderKey};
use cubicle_core::secrets::{SecretError, SecretStore};
use cubicle_core::tools::ToolCall;
use cubicle_core::work::NewTask;
use cubicle_llm::ApiKey;
use serde_json::{Value, json};
use tempfile::TempDir;

use crate::util::TestCompany;
use crate::work::{Stage, engineering, seed_000};

/// A database with no company in it (what a fresh install or `--db new.db` is).
pub(crate) struct Empty {
    pub(crate) core: AppCore,
    url: String,
    _dir: TempDir,
}

impl Empty {
    /// A connection of the test's own, to look at what the import stored.
    pub(crate) async fn db(&self) -> cubicle_store::Db {
        cubicle_store::db::connect(&self.url).await.unwrap()
    }
}

pub(crate) async fn empty_db(clock: SharedClock) -> Empty {
    let dir = tempfile::tempdir().unwrap();
    let url = format!(
        "sqlite://{}?mode=rwc",
        dir.path().join("imported.db").display()
    );
    let core = AppCore::open_with(
        &url,
        CoreOptions {
            clock,
            ..CoreOptions::default()
        },
    )
    .await
    .unwrap();
    Empty {
        core,
        url,
        _dir: dir,
    }
}

/// The seed-000 story played out, plus what it does not reach: a sub-department with a
/// manager, memories of each visibility, relationships, a sub-task, a meeting and
/// approvals both waiting and decided.
async fn rich_company() -> (Stage, i32, i32) {
    let stage = Stage::new(seed_000).await;
    let (alice, bob, charlie, group) = engineering(&stage).await;
    let core = &stage.co.core;
    let boss_chat = core.chats.boss_chat(alice).await.unwrap();
    stage
        .boss_says(
            boss_chat.id,
            "Alice, could you research REST vs GraphQL for our new API and tell me what you recommend?",
        )
        .await;
    stage.run_for(TimeDelta::minutes(30)).await;

    let eng = core.org.snapshot().await.unwrap().departments[0].id;
    let dana = platform_with_dana_under_alice_and_lin_answering(&stage, eng, alice, bob).await;
    alice_remembers_at_each_visibility_and_knows_people(core, (alice, bob, charlie), eng, group)
        .await;

    let parent = core.work.all().await.unwrap()[0].clone();
    core.work
        .create(NewTask {
            parent_task_id: Some(parent.id),
            trace_id: parent.trace_id.clone(),
            ..NewTask::new(
                charlie,
                "Rerun the load test with batching off",
                TaskOrigin::Own,
            )
        })
        .await
        .unwrap();

    core.meetings
        .open(OpenMeeting {
            topic: "API versioning".into(),
            participant_ids: vec![alice, bob],
            strategy: Strategy::RoundRobin,
            max_turns: None,
            trace_id: None,
        })
        .await
        .unwrap();

    bob_asks_to_delete_twice_and_one_is_rejected(core, bob, parent.trace_id.as_deref(), group)
        .await;
    (stage, alice, dana)
}

/// A Platform sub-department under Engineering with Dana managed by Alice (who leads
/// Engineering), and Lin, a person who answers for Platform and for Bob by name. Dana's id.
async fn platform_with_dana_under_alice_and_lin_answering(
    stage: &Stage,
    eng: i32,
    alice: i32,
    bob: i32,
) -> i32 {
    let core = &stage.co.core;
    let platform = stage.co.dept("Platform", Some(eng)).await;
    let dana = stage.co.hire("Dana", "SRE", Some(platform.id)).await;
    core.org
        .set_manager(SetManager {
            employee_id: dana.id,
            manager_id: Some(alice),
        })
        .await
        .unwrap();
    stage.co.make_lead(eng, alice).await;
    // A person who answers for Platform and for Bob by name.
    core.people
        .invite(cubicle_core::people::NewPerson {
            name: "Lin".into(),
            role: "Head of Platform".into(),
            language: Some(cubicle_core::types::Language::ZhCn),
            approval_policy: Some(cubicle_core::types::ApprovalPolicy::Manual),
            departments: vec![platform.id],
            employees: vec![bob],
        })
        .await
        .unwrap();
    dana.id
}

/// Alice remembers one thing at each visibility (one of them short-term), from the
/// group chat; she and Bob each know a colleague.
async fn alice_remembers_at_each_visibility_and_knows_people(
    core: &AppCore,
    (alice, bob, charlie): (i32, i32, i32),
    eng: i32,
    group: i32,
) {
    let memories = [
        (
            MemoryKind::LongTerm,
            Visibility::Private,
            "Ada prefers short answers",
        ),
        (
            MemoryKind::LongTerm,
            Visibility::Team,
            "Our API serves 2k rps",
        ),
        (
            MemoryKind::ShortTerm,
            Visibility::Public,
            "Load test is on Friday",
        ),
    ];
    for (i, (kind, visibility, content)) in memories.into_iter().enumerate() {
        core.minds
            .remember(
                alice,
                Some(eng),
                NewMemory {
                    kind,
                    content: content.into(),
                    importance: Some(4 + i as i32),
                    ttl_hours: (kind == MemoryKind::ShortTerm).then_some(12),
                    visibility,
                    requirement_id: None,
                    source_chat_id: Some(group),
                },
            )
            .await
            .unwrap();
    }
    core.minds
        .relate(alice, bob, Some("knows GraphQL inside out"), Some(70))
        .await
        .unwrap();
    core.minds
        .relate(bob, charlie, Some("numbers person"), Some(40))
        .await
        .unwrap();
}

/// Bob may delete files and asks twice under `trace`; the boss rejects the first
/// request with a note and the second still waits.
async fn bob_asks_to_delete_twice_and_one_is_rejected(
    core: &AppCore,
    bob: i32,
    trace: Option<&str>,
    group: i32,
) {
    core.approvals
        .set_tool_whitelist(bob, vec!["delete_file".into()])
        .await
        .unwrap();
    let mut asked = Vec::new();
    for path in ["old/a.txt", "old/b.txt"] {
        match core
            .approvals
            .request(
                bob,
                ToolCall::new("delete_file", json!({ "path": path }), "clean up"),
                trace,
                Some(group),
            )
            .await
            .unwrap()
        {
            CallOutcome::Waiting(id) => asked.push(id),
            other => panic!("expected to wait, got {other:?}"),
        }
    }
    core.approvals
        .decide_shown(
            asked[0],
            Decision::Reject,
            DecidedVia::Ui,
            Some("keep it".into()),
        )
        .await
        .unwrap();
}

/// Every row of every table, compared without the moment of export and without what
/// an import sets for this computer alone (a key scope of its own, providers' URLs and
/// CLI commands waiting for the boss's confirmation).
fn same_company(a: &Bundle, b: &Bundle) {
    assert_eq!(a.schema_version, b.schema_version);
    assert_eq!(a.format, b.format);
    let (ta, tb) = (as_exported(&a.tables), as_exported(&b.tables));
    // Table by table first, so a failure names the table.
    let (ja, jb) = (json!(ta), json!(tb));
    for (table, rows) in ja.as_object().unwrap() {
        assert_eq!(
            rows, &jb[table],
            "table {table} differs after the round trip"
        );
    }
    assert_eq!(ta, tb);
}

/// Every waiting approval of `core` carries a seal its own key verifies.
async fn waiting_approvals_verify(core: &cubicle_core::AppCore) {
    let waiting = core
        .approvals
        .list(cubicle_core::approvals::ApprovalFilter::Pending)
        .await
        .unwrap();
    for a in &waiting {
        assert!(
            core.approvals
                .seal()
                .verify(&a.tool, &a.args, &a.args_hash)
                .await
                .unwrap(),
            "approval #{} came in with a seal this company cannot verify",
            a.id
        );
    }
}

/// `t` without what an import sets for this computer alone: the keychain scope, the
/// imported-and-unconfirmed marks, and the seals of what still waits (sealed anew with
/// the importing company's key, checked by `waiting_approvals_verify`).
fn as_exported(t: &cubicle_store::bundle::Tables) -> cubicle_store::bundle::Tables {
    let mut t = t.clone();
    for c in &mut t.company {
        c.secret_scope = None;
    }
    for p in &mut t.provider {
        p.imported_base_url = None;
    }
    for e in &mut t.employee {
        e.imported_cli_command = None;
    }
    for r in t
        .approval
        .iter_mut()
        .filter(|r| r.status == cubicle_core::approvals::ApprovalStatus::Waiting)
    {
        r.args_hash.clear();
    }
    t
}

/// The bundle really carries the story, not just the org chart: rows in every table
/// the story touches.
fn the_bundle_carries_the_story(t: &cubicle_store::bundle::Tables) {
    for (table, n) in [
        ("department", t.department.len()),
        ("employee", t.employee.len()),
        ("chat_message", t.chat_message.len()),
        ("task", t.task.len()),
        ("memory", t.memory.len()),
        ("relationship", t.relationship.len()),
        ("thought", t.thought.len()),
        ("trace", t.trace.len()),
        ("mail", t.mail.len()),
        ("meeting", t.meeting.len()),
        ("approval", t.approval.len()),
        ("tool_call", t.tool_call.len()),
        ("cost_ledger", t.cost_ledger.len()),
        ("provider", t.provider.len()),
        ("model_route", t.model_route.len()),
        ("person", t.person.len()),
        ("person_duty", t.person_duty.len()),
    ] {
        assert!(n > 0, "no {table} rows in the bundle");
    }
}

/// Through the org and chat services, `new` is `old`: the same chart, Dana still
/// managed by Alice, the same chats and messages.
async fn same_org_and_chats(new: &AppCore, old: &AppCore, alice: i32, dana: i32) {
    assert_eq!(
        new.org.snapshot().await.unwrap(),
        old.org.snapshot().await.unwrap()
    );
    let dana_now = new
        .org
        .all_employees()
        .await
        .unwrap()
        .into_iter()
        .find(|e| e.id == dana)
        .unwrap();
    assert_eq!(
        dana_now.manager_id,
        Some(alice),
        "the manager link survives"
    );
    assert_eq!(
        new.chats.list().await.unwrap(),
        old.chats.list().await.unwrap()
    );
    for chat in old.chats.list().await.unwrap() {
        assert_eq!(
            new.chats.messages(chat.id).await.unwrap(),
            old.chats.messages(chat.id).await.unwrap(),
            "chat {}",
            chat.name
        );
    }
}

/// Through the mind service, `new` is `old`: Alice's profile with a memory of each
/// visibility, and the relationship graph.
async fn same_minds(new: &AppCore, old: &AppCore, alice: i32) {
    let profile = new.minds.profile(alice).await.unwrap();
    assert_eq!(profile, old.minds.profile(alice).await.unwrap());
    let vis: Vec<(Visibility, &str)> = profile
        .memories
        .iter()
        .map(|m| (m.visibility, m.content.as_str()))
        .collect();
    for want in [
        (Visibility::Private, "Ada prefers short answers"),
        (Visibility::Team, "Our API serves 2k rps"),
        (Visibility::Public, "Load test is on Friday"),
    ] {
        assert!(vis.contains(&want), "{want:?} missing from {vis:?}");
    }
    assert_eq!(
        new.minds.graph().await.unwrap(),
        old.minds.graph().await.unwrap()
    );
}

/// Through the work, trace and approval services, `new` is `old`: the tasks with
/// Alice's parent of the sub-task, its trace, the approval history and one waiting.
async fn same_work_traces_and_approvals(new: &AppCore, old: &AppCore, alice: i32) {
    let tasks = new.work.all().await.unwrap();
    assert_eq!(tasks, old.work.all().await.unwrap());
    let child = tasks
        .iter()
        .find(|x| x.parent_task_id.is_some())
        .expect("the sub-task");
    let parent = tasks
        .iter()
        .find(|x| Some(x.id) == child.parent_task_id)
        .expect("its parent");
    assert_eq!(parent.owner_id, alice);
    let trace = parent.trace_id.clone().unwrap();
    assert_eq!(
        new.traces.view(&trace).await.unwrap(),
        old.traces.view(&trace).await.unwrap()
    );
    let history = ApprovalFilter::History {
        status: None,
        employee_id: None,
    };
    assert_eq!(
        new.approvals.list(history.clone()).await.unwrap(),
        old.approvals.list(history).await.unwrap()
    );
    assert_eq!(new.approvals.pending_count().await.unwrap(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn seed_000_company_survives_export_and_import_into_a_fresh_database() {
    let (stage, alice, dana) = rich_company().await;
    let core = &stage.co.core;
    let first = bundle::export(core).await.unwrap();
    let t = &first.tables;
    the_bundle_carries_the_story(t);
    let json = bundle::to_json(&first).unwrap();
    eprintln!(
        "seed-000 bundle: {} bytes, {} rows in {} tables",
        json.len(),
        t.row_count(),
        cubicle_store::bundle::TABLES.len()
    );

    let fresh = empty_db(stage.clock.shared()).await;
    let report = bundle::import(&fresh.core, bundle::parse(&json).unwrap())
        .await
        .unwrap();
    assert_eq!(report.company_name, "Acme Robotics");
    assert_eq!(report.employees, 4);
    assert_eq!(report.rows as usize, t.row_count());

    let second = bundle::export(&fresh.core).await.unwrap();
    same_company(&first, &second);
    waiting_approvals_verify(&fresh.core).await;

    // Through the services, the imported company is the same company.
    let new = &fresh.core;
    same_org_and_chats(new, core, alice, dana).await;
    same_minds(new, core, alice).await;
    same_work_traces_and_approvals(new, core, alice).await;

    // The imported company keeps working: new rows get new ids, nothing collides.
    let eve = new
        .org
        .hire(NewEmployee {
            name: "Eve".into(),
            title: "QA".into(),
            department_id: None,
            manager_id: None,
            archetype: None,
        })
        .await
        .unwrap();
    assert!(t.employee.iter().all(|e| e.id < eve.id));
}

#[tokio::test]
async fn import_into_a_database_with_a_company_is_refused_and_changes_nothing() {
    let source = TestCompany::new().await;
    source.dept("Design", None).await;
    let b = bundle::export(&source.core).await.unwrap();

    let busy = TestCompany::new().await;
    busy.dept("Sales", None).await;
    let before = bundle::export(&busy.core).await.unwrap();
    let err = bundle::import(&busy.core, b).await.unwrap_err();
    assert!(matches!(err, BundleError::NotEmpty(_)), "{err:?}");
    assert_eq!(err.code(), ErrorCode::DatabaseNotEmpty);
    assert!(err.to_string().contains("company: 1"), "{err}");
    let after = bundle::export(&busy.core).await.unwrap();
    assert_eq!(before.tables, after.tables, "nothing changed");
}

async fn assert_empty(co: &Empty) {
    let counts = cubicle_store::bundle::counts(&co.db().await).await.unwrap();
    assert!(counts.iter().all(|(_, n)| *n == 0), "{counts:?}");
    assert!(co.core.org.company().await.unwrap().is_none());
}

async fn small_bundle_json() -> String {
    let source = TestCompany::new().await;
    let d = source.dept("Design", None).await;
    source.hire("Mia", "Designer", Some(d.id)).await;
    bundle::to_json(&bundle::export(&source.core).await.unwrap()).unwrap()
}

#[tokio::test]
async fn a_truncated_or_corrupted_bundle_gets_a_clear_error_and_imports_nothing() {
    let good = small_bundle_json().await;
    let fresh = empty_db(cubicle_core::clock::SystemClock::shared()).await;

    let truncated = &good[..good.len() / 2];
    let err = bundle::parse(truncated).unwrap_err();
    assert_eq!(err.code(), ErrorCode::BundleInvalid);
    assert!(err.to_string().contains("not valid JSON"), "{err}");

    let not_a_bundle = bundle::parse(r#"{"hello": "world"}"#).unwrap_err();
    assert_eq!(not_a_bundle.code(), ErrorCode::BundleInvalid);
    assert!(
        not_a_bundle.to_string().contains("format"),
        "{not_a_bundle}"
    );

    // Unknown fields are refused, not dropped: the file says something we would lose.
    let mut v: Value = serde_json::from_str(&good).unwrap();
    v["tables"]["employee"][0]["favourite_colour"] = json!("teal");
    let err = bundle::parse(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::BundleInvalid);
    assert!(err.to_string().contains("favourite_colour"), "{err}");

    // A wrongly typed value names what is wrong.
    let mut v: Value = serde_json::from_str(&good).unwrap();
    v["tables"]["employee"][0]["id"] = json!("seven");
    let err = bundle::parse(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::BundleInvalid);

    // A value outside a closed set (here an archetype) is refused on reading, never
    // stored for the app to trip over later.
    let mut v: Value = serde_json::from_str(&good).unwrap();
    v["tables"]["employee"][0]["archetype"] = json!("space_cowboy");
    let err = bundle::parse(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::BundleInvalid);
    assert!(err.to_string().contains("space_cowboy"), "{err}");
    // So is a chat message from a kind of sender the app does not know.
    let mut v: Value = serde_json::from_str(&good).unwrap();
    v["tables"]["chat_message"] = json!([{"id": 1, "chat_id": 1, "sender_kind": "robot",
        "sender_employee_id": null, "text": "hi", "trace_id": null,
        "created_at": "2026-12-01T09:00:00Z", "mentions": null}]);
    let err = bundle::parse(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::BundleInvalid);
    assert!(err.to_string().contains("robot"), "{err}");
    assert_empty(&fresh).await;

    // And after all that, the good one still goes in.
    bundle::import(&fresh.core, bundle::parse(&good).unwrap())
        .await
        .unwrap();
    assert_eq!(fresh.core.org.snapshot().await.unwrap().employees.len(), 1);
}

#[tokio::test]
async fn a_bundle_from_a_newer_cubicle_is_refused_before_anything_is_read() {
    let good = small_bundle_json().await;
    let mut v: Value = serde_json::from_str(&good).unwrap();
    v["schemaVersion"] = json!(bundle::SCHEMA_VERSION + 1);
    // A newer version may well have fields we do not know: the version decides first.
    v["tables"]["hologram"] = json!([]);
    let err = bundle::parse(&v.to_string()).unwrap_err();
    assert_eq!(err.code(), ErrorCode::BundleTooNew);
    assert!(err.to_string().contains("update Cubicle"), "{err}");

    // Built in code rather than parsed: import checks the version too.
    let fresh = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    let mut b = bundle::parse(&good).unwrap();
    b.schema_version = bundle::SCHEMA_VERSION + 1;
    let err = bundle::import(&fresh.core, b).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::BundleTooNew);
    assert_empty(&fresh).await;
}

#[tokio::test]
async fn a_version_1_bundle_still_imports() {
    let source = TestCompany::new().await;
    let mia = source.hire("Mia", "Designer", None).await;
    source
        .core
        .work
        .create(NewTask::new(
            mia.id,
            "Draw the onboarding screens",
            TaskOrigin::Boss,
        ))
        .await
        .unwrap();
    source
        .core
        .approvals
        .set_tool_whitelist(mia.id, vec!["post_webhook".into()])
        .await
        .unwrap();
    source.allow_webhooks_to("http://127.0.0.1:9").await;
    let asked = source
        .core
        .approvals
        .request(
            mia.id,
            ToolCall::new(
                "post_webhook",
                json!({"url": "http://127.0.0.1:9/hook", "text": "Screens are up", "style": "slack"}),
                "tell the partner",
            ),
            None,
            None,
        )
        .await
        .unwrap();
    assert!(matches!(asked, CallOutcome::Waiting(_)), "{asked:?}");
    let mut v: Value = serde_json::from_str(
        &bundle::to_json(&bundle::export(&source.core).await.unwrap()).unwrap(),
    )
    .unwrap();
    // What Cubicle wrote before tasks could owe a report and runs were claimed.
    v["schemaVersion"] = json!(1);
    for (table, column) in [("task", "report_due_at"), ("approval", "run_started_at")] {
        for row in v["tables"][table].as_array_mut().unwrap() {
            let row = row.as_object_mut().unwrap();
            assert!(row.remove(column).is_some(), "{table}.{column}");
        }
    }
    let fresh = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    let report = bundle::import(&fresh.core, bundle::parse(&v.to_string()).unwrap())
        .await
        .unwrap();
    assert_eq!(report.employees, 1);
    let tasks = cubicle_store::work::list_tasks(&fresh.db().await, 10)
        .await
        .unwrap();
    assert_eq!(tasks.len(), 1);
    assert_eq!(tasks[0].description, "Draw the onboarding screens");
    assert!(tasks[0].report_due_at.is_none());
    let waiting = fresh
        .core
        .approvals
        .list(ApprovalFilter::Pending)
        .await
        .unwrap();
    assert_eq!(waiting.len(), 1);
    assert_eq!(waiting[0].tool, "post_webhook");
    assert_eq!(waiting[0].args["text"], "Screens are up");
}

#[tokio::test]
async fn a_version_2_bundle_without_cached_tokens_still_imports() {
    use cubicle_store::entity::cost_ledger;
    use sea_orm::ActiveValue::{NotSet, Set};
    let source = TestCompany::new().await;
    cubicle_store::models::insert_ledger(
        &source.db().await,
        cost_ledger::ActiveModel {
            id: NotSet,
            at: Set(chrono::Utc::now()),
            trace_id: Set(None),
            employee_id: Set(None),
            purpose: Set(cubicle_core::gateway::Purpose::Thought),
            provider_id: Set("deepseek".into()),
            model: Set("deepseek-chat".into()),
            attempt: Set(1),
            input_tokens: Set(1500),
            output_tokens: Set(90),
            cached_tokens: Set(1280),
            cost_usd: Set(0.0005),
            latency_ms: Set(800),
            outcome: Set(cubicle_core::gateway::LedgerOutcome::Ok),
            fallback: Set(false),
            error: Set(None),
            backoff_ms: Set(None),
            output: Set(Some(cubicle_core::gateway::StructuredOutput::Valid)),
        },
    )
    .await
    .unwrap();
    let mut v: Value = serde_json::from_str(
        &bundle::to_json(&bundle::export(&source.core).await.unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(v["tables"]["cost_ledger"][0]["cached_tokens"], 1280);
    // What Cubicle wrote before the ledger knew about prompt caches.
    v["schemaVersion"] = json!(2);
    for row in v["tables"]["cost_ledger"].as_array_mut().unwrap() {
        assert!(
            row.as_object_mut()
                .unwrap()
                .remove("cached_tokens")
                .is_some()
        );
    }
    let fresh = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    bundle::import(&fresh.core, bundle::parse(&v.to_string()).unwrap())
        .await
        .unwrap();
    let rows = cubicle_store::models::ledger_since(&fresh.db().await, chrono::DateTime::UNIX_EPOCH)
        .await
        .unwrap();
    assert_eq!(rows.len(), 1);
    assert_eq!((rows[0].input_tokens, rows[0].cached_tokens), (1500, 0));
}

#[tokio::test]
async fn network_access_for_an_employees_sandbox_comes_in_off_and_old_bundles_still_import() {
    let source = TestCompany::new().await;
    let dev = source.hire("Dev", "Engineer", None).await;
    source
        .core
        .approvals
        .set_network_access(dev.id, true)
        .await
        .unwrap();
    let mut v: Value = serde_json::from_str(
        &bundle::to_json(&bundle::export(&source.core).await.unwrap()).unwrap(),
    )
    .unwrap();
    assert_eq!(v["tables"]["employee"][0]["network_access"], json!(true));

    // An edited file cannot grant the network: the boss decides that on this computer.
    let fresh = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    bundle::import(&fresh.core, bundle::parse(&v.to_string()).unwrap())
        .await
        .unwrap();
    assert!(!fresh.core.approvals.network_access(dev.id).await.unwrap());

    // What Cubicle wrote before employees' sandboxes had a network setting.
    v["schemaVersion"] = json!(3);
    for row in v["tables"]["employee"].as_array_mut().unwrap() {
        assert!(
            row.as_object_mut()
                .unwrap()
                .remove("network_access")
                .is_some()
        );
    }
    let older = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    bundle::import(&older.core, bundle::parse(&v.to_string()).unwrap())
        .await
        .unwrap();
    assert!(!older.core.approvals.network_access(dev.id).await.unwrap());
}

#[tokio::test]
async fn a_bundle_from_before_the_last_mood_was_dropped_still_imports() {
    let source = TestCompany::new().await;
    let dev = source.hire("Dev", "Engineer", None).await;
    let mut v: Value = serde_json::from_str(
        &bundle::to_json(&bundle::export(&source.core).await.unwrap()).unwrap(),
    )
    .unwrap();
    // What Cubicle wrote when employee_state still kept the last thought's mood.
    v["schemaVersion"] = json!(4);
    v["tables"]["employee_state"] = json!([{
        "employee_id": dev.id,
        "patience": 80.0,
        "fatigue": 10.0,
        "stress": 5.0,
        "last_interest": 7,
        "last_saturation": 3,
        "review_rejections": 1,
        "updated_at": "2026-11-30T09:00:00Z",
    }]);
    let older = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    let report = bundle::import(&older.core, bundle::parse(&v.to_string()).unwrap())
        .await
        .unwrap();
    assert_eq!(report.employees, 1);
    let state = bundle::export(&older.core)
        .await
        .unwrap()
        .tables
        .employee_state;
    assert_eq!(
        state
            .iter()
            .map(|s| (s.employee_id, s.patience, s.review_rejections))
            .collect::<Vec<_>>(),
        vec![(dev.id, 80.0, 1)],
        "the rest of the row came in"
    );

    // In a bundle of this version the field is unknown, and an unknown field is refused.
    v["schemaVersion"] = json!(bundle::SCHEMA_VERSION);
    let err = bundle::parse(&v.to_string()).unwrap_err();
    assert!(err.to_string().contains("last_interest"), "{err}");
}

#[tokio::test]
async fn a_bundle_from_before_people_imports_with_nobody_besides_the_boss() {
    let source = TestCompany::new().await;
    source.hire("Dev", "Engineer", None).await;
    let mut v: Value = serde_json::from_str(
        &bundle::to_json(&bundle::export(&source.core).await.unwrap()).unwrap(),
    )
    .unwrap();
    // What Cubicle wrote before a company had people: no such tables at all.
    v["schemaVersion"] = json!(5);
    let tables = v["tables"].as_object_mut().unwrap();
    tables.remove("person");
    tables.remove("person_duty");
    let older = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    let report = bundle::import(&older.core, bundle::parse(&v.to_string()).unwrap())
        .await
        .unwrap();
    assert_eq!(report.employees, 1);
    assert!(older.core.people.list().await.unwrap().is_empty());

    // In a bundle of this version a missing table is a damaged bundle, not an empty one.
    v["schemaVersion"] = json!(bundle::SCHEMA_VERSION);
    let err = bundle::parse(&v.to_string()).unwrap_err();
    assert!(err.to_string().contains("person"), "{err}");
}

#[tokio::test]
async fn a_bundle_that_fails_halfway_leaves_the_database_empty() {
    let good = small_bundle_json().await;
    let mut b = bundle::parse(&good).unwrap();
    // Valid JSON, and the first tables are fine; a late row points at nobody.
    let mut ghost =
        b.tables
            .memory
            .first()
            .cloned()
            .unwrap_or_else(|| cubicle_store::entity::memory::Model {
                id: 1,
                employee_id: 0,
                kind: cubicle_core::mind::memory_rules::MemoryKind::LongTerm,
                content: "x".into(),
                importance: 5,
                visibility: cubicle_core::mind::memory_rules::Visibility::Private,
                department_id: None,
                requirement_id: None,
                source_chat_id: None,
                expires_at: None,
                created_at: chrono::Utc::now(),
            });
    ghost.id = 999;
    ghost.employee_id = 4242;
    b.tables.memory.push(ghost);
    assert!(!b.tables.company.is_empty() && !b.tables.employee.is_empty());

    let fresh = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    let err = bundle::import(&fresh.core, b).await.unwrap_err();
    assert!(matches!(err, BundleError::Rejected(_)), "{err:?}");
    assert_eq!(err.code(), ErrorCode::BundleInvalid);
    assert!(err.to_string().contains("nothing was imported"), "{err}");
    assert_empty(&fresh).await;

    // Two companies in one bundle are refused up front.
    let mut two = bundle::parse(&good).unwrap();
    let mut other = two.tables.company[0].clone();
    other.id += 1;
    two.tables.company.push(other);
    let err = bundle::import(&fresh.core, two).await.unwrap_err();
    assert_eq!(err.code(), ErrorCode::BundleInvalid);
    assert_empty(&fresh).await;
}

/// A keychain in memory: what matters here is that a key *is* stored for the provider.
#[derive(Default)]
struct MemorySecrets(Mutex<Vec<(String, String)>>);

impl SecretStore for MemorySecrets {
    fn get(&self, id: &str) -> Result<Option<ApiKey>, SecretError> {
        let keys = self.0.lock().unwrap();
        Ok(keys
            .iter()
            .find(|(k, _)| k == id)
            .map(|(_, v)| ApiKey::new(v.clone())))
    }
    fn set(&self, id: &str, key: &ApiKey) -> Result<(), SecretError> {
        let mut keys = self.0.lock().unwrap();
        keys.retain(|(k, _)| k != id);
        keys.push((id.to_owned(), key.expose().to_owned()));
        Ok(())
    }
    fn delete(&self, id: &str) -> Result<(), SecretError> {
        self.0.lock().unwrap().retain(|(k, _)| k != id);
        Ok(())
    }
}

/// Saves a provider, stores `key` for it and checks the export holds no trace of it.
async fn export_has_no_key(co: &TestCompany, key: &str) {
    let p = co
        .core
        .providers
        .save(SaveProvider {
            id: None,
            name: "Moonshot".into(),
            preset: "moonshot".into(),
            base_url: "https://api.moonshot.cn/v1".into(),
            default_model: "kimi-k2".into(),
            models: vec!["kimi-k2".into()],
            enabled: true,
        })
        .await
        .unwrap();
    let p = co
        .core
        .providers
        .set_key(SetProviderKey {
            provider_id: p.id.clone(),
            key: key.into(),
        })
        .await
        .unwrap();
    assert!(p.has_key, "the key is stored (so the test means something)");
    let json = bundle::to_json(&bundle::export(&co.core).await.unwrap()).unwrap();
    assert!(
        json.contains("https://api.moonshot.cn/v1"),
        "the provider is in"
    );
    assert!(json.contains("kimi-k2"));
    assert!(!json.contains(key), "the API key leaked into the bundle");
    assert!(!json.contains(&key[3..15]), "part of the API key leaked");
    co.core.providers.delete(&p.id).await.unwrap();
}

#[tokio::test]
async fn no_api_key_is_ever_in_a_bundle() {
    let secrets = Arc::new(MemorySecrets::default());
    let co = TestCompany::with_options(CoreOptions {
        secrets: secrets.clone(),
        ..CoreOptions::default()
    })
    .await;
    export_has_no_key(&co, "sk-bundle-test-0123456789abcdef").await;
}

#[tokio::test]
async fn no_api_key_from_the_os_keychain_is_in_a_bundle() {
    // The same switch as the other keychain tests (see secrets.rs).
    if !std::env::var("CUBICLE_TEST_KEYRING").is_ok_and(|v| v == "1") {
        if std::env::var("CUBICLE_SKIP_KEYRING").is_ok_and(|v| v == "1") {
            eprintln!("SKIPPED: keychain test (CUBICLE_SKIP_KEYRING=1)");
            return;
        }
        panic!(
            "no test keychain: run scripts/test.sh, or set CUBICLE_SKIP_KEYRING=1 to skip knowingly"
        );
    }
    export_has_no_key(
        &TestCompany::new().await,
        "sk-keychain-bundle-9876543210fedcba",
    )
    .await;
}

const NIGHT_SHIFT: &str = "---\nname: Night Shift Operator\ndescription: Watches the robots overnight and files what went wrong.\ntemperature: 0.2\n---\nYou keep watch. Never restart a robot without asking.\n";

/// The boss's own cards travel with the company, as written; the shipped ones do not (the
/// other side has its own); a card in a bundle that does not parse stops the import.
#[tokio::test]
async fn the_boss_s_own_role_cards_travel_in_the_bundle() {
    let source = TestCompany::new().await;
    source
        .core
        .save_role_card(cubicle_core::roles::SaveRoleCard {
            key: "ops/night-shift".into(),
            text: NIGHT_SHIFT.into(),
        })
        .await
        .unwrap();
    let exported = bundle::export(&source.core).await.unwrap();
    assert_eq!(exported.role_cards.len(), 1, "only the boss's own card");
    assert_eq!(exported.role_cards[0].key, "ops/night-shift");
    let json = bundle::to_json(&exported).unwrap();

    let fresh = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    bundle::import(&fresh.core, bundle::parse(&json).unwrap())
        .await
        .unwrap();
    let cards = fresh.core.role_cards().await.unwrap();
    let night = cards
        .iter()
        .find(|c| c.key == "ops/night-shift")
        .expect("the card came along");
    assert!(!night.builtin);
    assert_eq!(night.card.temperature, Some(0.2));
    let again = bundle::export(&fresh.core).await.unwrap();
    assert_eq!(
        again.role_cards, exported.role_cards,
        "the same file, byte for byte"
    );

    // A card that does not parse: the whole import is refused, nothing is left behind.
    let mut v: Value = serde_json::from_str(&json).unwrap();
    v["roleCards"][0]["text"] = json!("---\nname: Broken\n---\n");
    let other = empty_db(cubicle_core::clock::SystemClock::shared()).await;
    let err = bundle::import(&other.core, bundle::parse(&v.to_string()).unwrap())
        .await
        .unwrap_err();
    assert!(matches!(err, BundleError::Rejected(_)), "{err}");
    assert!(err.to_string().contains("ops/night-shift.md"), "{err}");
    assert_empty(&other).await;

    // A key that would be a path out of a roster folder on export is refused too.
    let mut v: Value = serde_json::from_str(&json).unwrap();
    v["roleCards"][0]["key"] = json!("../../outside");
    let err = bundle::import(&other.core, bundle::parse(&v.to_string()).unwrap())
        .await
        .unwrap_err();
    assert!(err.to_string().contains("not a card key"), "{err}");
    assert_empty(&other).await;
}
