//! The stored enums keep the exact strings databases and bundles already hold: each
//! variant's stored spelling is checked against the literal it had before the enums
//! were typed, serde spells it alike, and a literal read back through the database
//! driver (SQLite, and PostgreSQL when `CUBICLE_TEST_PG_URL` is set) comes back as the
//! variant. An approval row written with literal strings by raw SQL reads back typed, and
//! a typed decision is stored as the old literals.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::fmt::Debug;

use chrono::{TimeZone, Utc};
use cubicle_migrations::{Migrator, MigratorTrait};
use cubicle_store::enums::*;
use cubicle_store::{ConnectionTrait, Db, approval as aq, connect};
use sea_orm::{ActiveEnum, Iterable, Statement};
use serde::Serialize;
use serde::de::DeserializeOwned;

/// Every stored enum with the strings its variants were stored as, in variant order.
macro_rules! each_enum {
    ($f:ident, $($arg:expr),*) => {{
        $f::<ApprovalStatus>(&["waiting", "approved", "rejected", "expired"], $($arg),*).await;
        $f::<DecidedVia>(&["ui", "notification", "cli", "policy"], $($arg),*).await;
        $f::<Risk>(&["read_only", "write", "high"], $($arg),*).await;
        $f::<CallLogOutcome>(&["ok", "error", "refused", "waiting_approval"], $($arg),*).await;
        $f::<TaskStatus>(&["pending", "resolved", "failed", "escalated"], $($arg),*).await;
        $f::<TaskKind>(&["oneshot", "long_running", "conditional"], $($arg),*).await;
        $f::<RequirementStatus>(
            &["open", "in_progress", "in_review", "waiting_for_boss", "done", "cancelled"],
            $($arg),*
        )
        .await;
        $f::<MailKind>(&["report", "escalation", "budget", "digest", "minutes"], $($arg),*).await;
        $f::<MailStatus>(&["unread", "read", "archived"], $($arg),*).await;
        $f::<MemoryKind>(&["long_term", "short_term"], $($arg),*).await;
        $f::<Visibility>(&["private", "team", "public"], $($arg),*).await;
        $f::<ApprovalPolicy>(&["auto", "key_steps", "manual"], $($arg),*).await;
        $f::<Archetype>(
            &[
                "shy_introvert", "chatterbox", "zen_slacker", "ultra_grinder",
                "passive_aggressive", "warm_hearted", "anxious_perfectionist", "rebel_slacker",
                "philosopher", "comedy_relief", "old_hand", "idealist",
            ],
            $($arg),*
        )
        .await;
        $f::<EmployeeStatus>(
            &["idle", "receiving", "planning", "acting", "reporting", "waiting_approval", "fired"],
            $($arg),*
        )
        .await;
        $f::<ActionStatus>(
            &["proposed", "in_progress", "applied", "cancelled", "undone", "failed"],
            $($arg),*
        )
            .await;
        $f::<ActionKind>(
            &[
                "hire", "fire", "transfer", "create_department", "rename_department",
                "set_policy", "assign_task", "create_requirement", "delete_department",
                "convene_meeting", "set_reviewer", "invite_person",
            ],
            $($arg),*
        )
        .await;
        $f::<Strategy>(&["round_robin", "rule_based", "model_picked"], $($arg),*).await;
        $f::<TraceOrigin>(&["chat", "secretary", "proxy"], $($arg),*).await;
        $f::<SilenceReason>(
            &[
                "saturation", "cooldown", "anti_spam", "identity", "repetition", "malformed",
                "budget", "model_error",
            ],
            $($arg),*
        )
        .await;
        $f::<Language>(&["en", "zh-CN"], $($arg),*).await;
        $f::<DecisionType>(
            &["tech", "ux", "compliance", "money", "resources", "external_commitment", "other"],
            $($arg),*
        )
        .await;
        $f::<RulingOutcome>(&["approved", "rejected", "escalated"], $($arg),*).await;
        $f::<Purpose>(
            &["intent", "thought", "summary", "report", "test", "ask", "privacy"],
            $($arg),*
        )
        .await;
        $f::<ChatKind>(
            &["department", "requirement", "meeting", "boss", "dm", "group", "people"],
            $($arg),*
        )
        .await;
        $f::<ChatMode>(&["work", "casual"], $($arg),*).await;
        $f::<SenderKind>(&["boss", "employee", "person", "proxy", "system"], $($arg),*).await;
        $f::<MeetingStatus>(&["open", "closed"], $($arg),*).await;
        $f::<MoveKind>(&["speak", "invite", "close", "pass"], $($arg),*).await;
        $f::<DecidedByKind>(&["lead", "vote", "boss"], $($arg),*).await;
        $f::<DecisionStatus>(&["decided", "escalated"], $($arg),*).await;
        $f::<LedgerOutcome>(
            &[
                "ok", "error", "cancelled", "budget_exceeded", "breaker_open", "breaker_opened",
                "breaker_closed",
            ],
            $($arg),*
        )
        .await;
        $f::<Speaker>(&["boss", "secretary"], $($arg),*).await;
        $f::<TaskOrigin>(
            &["boss", "secretary", "own", "review", "plan", "owner", "person"],
            $($arg),*
        )
        .await;
        $f::<ProxySpeaker>(&["person", "proxy"], $($arg),*).await;
        $f::<StructuredOutput>(
            &["valid", "repaired", "rejected", "dropped", "cut_off"],
            $($arg),*
        )
        .await;
    }};
}

trait Stored:
    ActiveEnum<Value = String> + Iterable + Serialize + DeserializeOwned + Copy + PartialEq + Debug
{
}
impl<T> Stored for T where
    T: ActiveEnum<Value = String>
        + Iterable
        + Serialize
        + DeserializeOwned
        + Copy
        + PartialEq
        + Debug
{
}

async fn spelled_as<E: Stored>(literals: &[&str]) {
    let variants: Vec<E> = E::iter().collect();
    let stored: Vec<String> = variants.iter().map(ActiveEnum::to_value).collect();
    assert_eq!(stored, literals, "{}", std::any::type_name::<E>());
    for (v, lit) in variants.iter().zip(literals) {
        assert_eq!(serde_json::to_value(v).unwrap(), serde_json::json!(lit));
        assert_eq!(
            serde_json::from_value::<E>(serde_json::json!(lit)).unwrap(),
            *v
        );
        assert_eq!(E::try_from_value(&(*lit).to_owned()).unwrap(), *v);
    }
    assert!(E::try_from_value(&"no_such_value".to_owned()).is_err());
}

#[tokio::test]
async fn every_variant_keeps_its_stored_and_serialized_spelling() {
    each_enum!(spelled_as,);
}

/// Each literal, selected through the driver, reads back as its variant.
async fn read_back<E: Stored + sea_orm::TryGetable>(literals: &[&str], db: &Db) {
    for (lit, v) in literals.iter().zip(E::iter()) {
        let row = db
            .query_one_raw(Statement::from_string(
                db.get_database_backend(),
                format!("SELECT '{lit}' AS v"),
            ))
            .await
            .unwrap()
            .expect("one row");
        assert_eq!(row.try_get::<E>("", "v").unwrap(), v, "{lit}");
    }
}

async fn sqlite() -> (tempfile::TempDir, Db) {
    let dir = tempfile::tempdir().expect("dir");
    let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
    (dir, connect(&url).await.expect("connect"))
}

/// An approval and a tool call filed by an older build (plain strings), read and
/// decided by this one.
async fn an_old_approval_reads_typed_and_is_decided_in_the_old_spelling(db: &Db) {
    for sql in [
        "INSERT INTO company (name, mission, boss_name, language, approval_policy, daily_budget_usd, created_at, updated_at) VALUES ('Acme', '', 'Ada', 'zh-CN', 'manual', 2.0, '2026-11-30T00:00:00Z', '2026-11-30T00:00:00Z')",
        "INSERT INTO employee (company_id, name, title, archetype, speaking_style, skills, backend_provider, backend_model, tool_whitelist, status, hired_at, approval_policy) VALUES (1, 'Alice', 'Engineer', 'old_hand', '', '[]', 'builtin', 'm', '[]', 'waiting_approval', '2026-11-30T00:00:00Z', 'key_steps')",
        "INSERT INTO approval (employee_id, tool, args, args_hash, reason, risk, status, created_at, expires_at, authorization_chain) VALUES (1, 'run_shell', '{}', 'h', 'why', 'high', 'waiting', '2026-11-30T00:00:00Z', '2026-12-30T00:00:00Z', '[]')",
        "INSERT INTO tool_call (employee_id, tool, args, risk, outcome, approval_id, created_at) VALUES (1, 'run_shell', '{}', 'high', 'waiting_approval', 1, '2026-11-30T00:00:00Z')",
    ] {
        db.execute_unprepared(sql)
            .await
            .unwrap_or_else(|e| panic!("{sql}: {e}"));
    }
    let company = cubicle_store::org::find_company(db).await.unwrap().unwrap();
    assert_eq!(
        (company.language, company.approval_policy),
        (Language::ZhCn, ApprovalPolicy::Manual)
    );
    let alice = cubicle_store::org::find_employee(db, 1)
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (alice.status, alice.approval_policy),
        (
            EmployeeStatus::WaitingApproval,
            Some(ApprovalPolicy::KeySteps)
        )
    );
    let waiting = aq::all_waiting(db).await.unwrap();
    assert_eq!(waiting.len(), 1);
    assert_eq!(
        (waiting[0].status, waiting[0].risk, waiting[0].decided_via),
        (ApprovalStatus::Waiting, Risk::High, None)
    );
    let calls = aq::list_tool_calls(db, Some(1), None, 10).await.unwrap();
    assert_eq!(calls[0].outcome, CallLogOutcome::WaitingApproval);

    let at = Utc.with_ymd_and_hms(2026, 12, 1, 9, 0, 0).unwrap();
    let claimed = aq::claim_decision(
        db,
        1,
        aq::Claim {
            status: ApprovalStatus::Approved,
            decided_at: at,
            decided_via: DecidedVia::Cli,
            note: None,
            authorization_chain: serde_json::json!([]),
            unexpired_at: Some(at),
            run_started_at: None,
            decided_by: None,
            decision_seal: None,
        },
    )
    .await
    .unwrap();
    assert!(claimed);
    let row = db
        .query_one_raw(Statement::from_string(
            db.get_database_backend(),
            "SELECT status, decided_via FROM approval WHERE id = 1",
        ))
        .await
        .unwrap()
        .expect("the approval");
    let stored: (String, String) = (
        row.try_get("", "status").unwrap(),
        row.try_get("", "decided_via").unwrap(),
    );
    assert_eq!(stored, ("approved".to_owned(), "cli".to_owned()));
    assert!(aq::queued_runs(db).await.unwrap().iter().any(|a| a.id == 1));
}

#[tokio::test]
async fn stored_literals_read_back_as_their_variants_on_sqlite() {
    let (_dir, db) = sqlite().await;
    each_enum!(read_back, &db);
    an_old_approval_reads_typed_and_is_decided_in_the_old_spelling(&db).await;
}

#[tokio::test]
async fn stored_literals_read_back_as_their_variants_on_postgres() {
    let Ok(url) = std::env::var("CUBICLE_TEST_PG_URL") else {
        eprintln!("SKIPPED: stored enums on PostgreSQL (CUBICLE_TEST_PG_URL not set)");
        return;
    };
    let _alone = crate::ON_POSTGRES.lock().await;
    let db = connect(&url).await.expect("connect to PostgreSQL");
    db.execute_unprepared("DROP SCHEMA public CASCADE; CREATE SCHEMA public;")
        .await
        .expect("reset schema");
    Migrator::up(&db, None).await.expect("migrate");
    each_enum!(read_back, &db);
    an_old_approval_reads_typed_and_is_decided_in_the_old_spelling(&db).await;
}
