//! The soak, short: one simulated day of the 12-person company at 20 % faults.

use std::time::Duration;

use super::*;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_faulty_day_leaves_no_crash_no_stuck_employee_and_a_ledger_that_shows_it_all() {
    let s = soak(Options {
        days: 1,
        call_timeout: Duration::from_millis(800),
        backoff: Duration::from_millis(10),
        ..Options::default()
    })
    .await
    .unwrap();
    let f = &s.figures;
    let inj = &s.injected;
    assert_eq!(f.crashes, 0, "no panic anywhere");
    assert!(f.stuck.is_empty(), "stuck: {:?}", f.stuck);
    assert_eq!(f.employees, 12);
    // Every kind of fault was dealt …
    for kind in Fault::ALL {
        assert!(
            inj.faults.get(&kind).copied().unwrap_or(0) > 0,
            "{kind:?} never injected: {inj:?}"
        );
    }
    // … and every transport failure is visible in the ledger.
    for kind in [
        "429 + Retry-After",
        "429 (no Retry-After)",
        "HTTP 500",
        "timeout",
        "cut (connection closed mid-body)",
    ] {
        assert!(
            f.attempts_failed.get(kind).copied().unwrap_or(0) > 0,
            "{kind} not in the ledger: {:?}",
            f.attempts_failed
        );
    }
    assert!(
        f.retries > 0 && f.retry_wait_ms_max >= 1000,
        "Retry-After: 1 was waited"
    );
    // Garbage was reported back, and what stayed garbage was dropped.
    assert!(
        f.outputs
            .get(&StructuredOutput::Rejected)
            .copied()
            .unwrap_or(0)
            > 0,
        "{:?}",
        f.outputs
    );
    assert!(
        f.outputs
            .get(&StructuredOutput::Dropped)
            .copied()
            .unwrap_or(0)
            > 0,
        "{:?}",
        f.outputs
    );
    assert!(f.thoughts_lost.get("malformed").copied().unwrap_or(0) > 0);
    // The outage opened the breaker, and it closed again.
    assert!(f.breaker_opened >= 1, "{f:?}");
    assert!(f.breaker_closed >= 1, "{f:?}");
    // The budget bound, and spend stayed within it plus the call in flight.
    assert!(
        f.refused_budget > 0,
        "the budget never bound: {:?}",
        f.spend
    );
    assert!(f.spend.iter().all(|d| d.within_rule), "{:?}", f.spend);
    assert!(f.tasks_resolved >= 1, "no task done");
    assert!(f.employee_messages > 0);
}
