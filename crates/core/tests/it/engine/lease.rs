//! One engine per company: the engine lease. On a SQLite file a second engine is
//! refused, naming the holder, until the first lets go; on PostgreSQL a second one
//! stands by and takes over within seconds of the holder's session ending, and the old
//! holder learns that it lost the lease.

use std::time::{Duration, Instant};

use cubicle_core::AppCore;
use cubicle_core::engine::lease::{EngineLease, LeaseError, STANDBY_RETRY};
use cubicle_core::org::SetupCompany;
use cubicle_core::types::Language;
use sea_orm::ConnectionTrait;
use tokio_util::sync::CancellationToken;

use crate::util::TestCompany;

async fn sqlite_company(dir: &std::path::Path) -> (AppCore, AppCore) {
    let url = format!("sqlite://{}?mode=rwc", dir.join("c.db").display());
    let a = AppCore::open(&url).await.expect("open");
    a.org
        .setup_company(SetupCompany {
            name: "Acme".into(),
            boss_name: "Ada".into(),
            language: Language::En,
            mission: None,
        })
        .await
        .expect("setup");
    let b = AppCore::open(&url).await.expect("open again");
    (a, b)
}

#[tokio::test]
async fn a_second_engine_on_a_sqlite_file_is_refused_until_the_first_lets_go() {
    let dir = tempfile::tempdir().expect("dir");
    let (a, b) = sqlite_company(dir.path()).await;
    let first = EngineLease::try_take(&a).await.expect("the first engine");
    let me = format!("pid {}", std::process::id());
    assert!(first.holder().contains(&me), "{}", first.holder());

    let refused = EngineLease::try_take(&b)
        .await
        .expect_err("a second engine");
    let LeaseError::HeldLocally { holder, path } = &refused else {
        panic!("refused for another reason: {refused}");
    };
    assert!(holder.contains(&me), "the holder is named: {holder}");
    assert_eq!(path, &dir.path().join("c.db.engine.lock"));
    let message = refused.to_string();
    assert!(
        message.contains("another engine runs this company") && message.contains(&me),
        "{message}"
    );
    // A local file has no standby: the second engine is told at once.
    let started = Instant::now();
    let at_once = EngineLease::take_or_stand_by(&b, &CancellationToken::new()).await;
    assert!(matches!(at_once, Err(LeaseError::HeldLocally { .. })));
    assert!(started.elapsed() < Duration::from_secs(1));

    drop(first);
    let second = EngineLease::try_take(&b)
        .await
        .expect("granted once the first is dropped");
    assert!(second.holder().contains(&me));
}

#[test]
fn a_standby_takes_over_within_seconds_when_the_holder_s_session_dies_on_postgres() {
    crate::pg::on_postgres_threads(a_standby_takes_over_when_the_holder_s_session_dies());
}

async fn a_standby_takes_over_when_the_holder_s_session_dies() {
    let co = TestCompany::new().await;
    let b = co.another_process().await;
    let first = EngineLease::try_take(&co.core)
        .await
        .expect("the first engine");
    let refused = EngineLease::try_take(&b)
        .await
        .expect_err("a second engine");
    let LeaseError::HeldOnServer { holder } = &refused else {
        panic!("refused for another reason: {refused}");
    };
    assert_eq!(holder, first.holder(), "the standby is told who holds it");

    let stop = CancellationToken::new();
    let standby = {
        let (b, stop) = (b.clone(), stop.clone());
        tokio::spawn(async move { EngineLease::take_or_stand_by(&b, &stop).await })
    };
    tokio::time::sleep(STANDBY_RETRY * 2).await;
    assert!(
        !standby.is_finished(),
        "the standby waits while the holder lives"
    );

    // The holder's session dies as it does when its process is killed: the one session
    // granted the advisory lock in this database. (Not by name: the standby's retries
    // and other tests' leases in this process connect under the same name.)
    let admin = co.db().await;
    let killed = admin
        .execute_unprepared(
            "SELECT pg_terminate_backend(pid) FROM pg_locks \
             WHERE locktype = 'advisory' AND granted \
             AND database = (SELECT oid FROM pg_database WHERE datname = current_database())",
        )
        .await
        .expect("terminate the holder's session");
    assert_eq!(killed.rows_affected(), 1, "one lock session");
    let died = Instant::now();
    let second = tokio::time::timeout(Duration::from_secs(10), standby)
        .await
        .expect("the standby took over within 10 s")
        .expect("join")
        .expect("the lease");
    let took = died.elapsed();
    println!("lease: the standby took over {took:?} after the holder's session died");
    assert!(took <= STANDBY_RETRY + Duration::from_secs(2), "{took:?}");
    assert_ne!(second.holder(), "");
    // The old holder finds out at its next check and must stop.
    tokio::time::timeout(Duration::from_secs(12), first.lost())
        .await
        .expect("the old holder learns it lost the lease");

    // Dropping the lease ends its session: the next engine gets it at once.
    drop(second);
    let deadline = Instant::now() + Duration::from_secs(5);
    let third = loop {
        match EngineLease::try_take(&b).await {
            Ok(lease) => break lease,
            Err(LeaseError::HeldOnServer { .. }) if Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(100)).await;
            }
            Err(e) => panic!("not released on drop: {e}"),
        }
    };
    drop(third);
    drop(first);
    stop.cancel();
}
