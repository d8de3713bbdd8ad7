//! A circuit breaker per provider (SPEC §10): after 3 consecutive failed calls the
//! provider is skipped; after 30 s one probe call may try it again.
//!
//! Time is the company's clock, like every other rule: on a manual clock (simulated
//! days) the breaker's 30 s are simulated seconds, not 30 real seconds that would span
//! hours of simulated work.

use std::time::Duration;

use chrono::{DateTime, TimeDelta, Utc};

type Instant = DateTime<Utc>;

/// Consecutive failures that open the breaker.
pub const FAILURES_TO_OPEN: u32 = 3;
/// How long an open breaker waits before letting one probe through.
pub const OPEN_FOR: Duration = Duration::from_secs(30);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BreakerState {
    Closed {
        failures: u32,
    },
    Open {
        until: Instant,
    },
    /// One probe is in flight; everyone else is refused until it reports.
    HalfOpen,
}

/// What a recorded outcome did to the breaker, for the ledger.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Transition {
    /// It opened (from closed, or again after a failed probe).
    Opened,
    /// A success closed it after it had been open.
    Closed,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Admit {
    /// Go ahead.
    Yes,
    /// Go ahead as the half-open probe.
    Probe,
    No,
}

#[derive(Clone, Debug)]
pub struct Breaker {
    state: BreakerState,
    threshold: u32,
    open_for: Duration,
}

impl Default for Breaker {
    fn default() -> Self {
        Self::new(FAILURES_TO_OPEN, OPEN_FOR)
    }
}

impl Breaker {
    pub fn new(threshold: u32, open_for: Duration) -> Self {
        Self {
            state: BreakerState::Closed { failures: 0 },
            threshold: threshold.max(1),
            open_for,
        }
    }

    pub fn state(&self) -> BreakerState {
        self.state
    }

    pub fn admit(&mut self, now: Instant) -> Admit {
        match self.state {
            BreakerState::Closed { .. } => Admit::Yes,
            BreakerState::Open { until } if now >= until => {
                self.state = BreakerState::HalfOpen;
                Admit::Probe
            }
            BreakerState::Open { .. } | BreakerState::HalfOpen => Admit::No,
        }
    }

    /// Records one call's outcome; says when that opened or closed the breaker.
    pub fn record(&mut self, success: bool, now: Instant) -> Option<Transition> {
        let before = self.state;
        self.state = match (self.state, success) {
            (_, true) => BreakerState::Closed { failures: 0 },
            (BreakerState::Closed { failures }, false) if failures + 1 < self.threshold => {
                BreakerState::Closed {
                    failures: failures + 1,
                }
            }
            (BreakerState::Open { until }, false) => BreakerState::Open { until },
            (_, false) => BreakerState::Open {
                until: now + TimeDelta::from_std(self.open_for).unwrap_or(TimeDelta::MAX),
            },
        };
        match (before, self.state) {
            (BreakerState::Open { .. }, BreakerState::Open { .. }) => None,
            (_, BreakerState::Open { .. }) => Some(Transition::Opened),
            (BreakerState::Open { .. } | BreakerState::HalfOpen, BreakerState::Closed { .. }) => {
                Some(Transition::Closed)
            }
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t0() -> Instant {
        DateTime::from_timestamp(1_796_025_600, 0).unwrap()
    }

    fn secs(n: i64) -> TimeDelta {
        TimeDelta::seconds(n)
    }

    #[test]
    fn opens_after_three_consecutive_failures_only() {
        let now = t0();
        let mut b = Breaker::default();
        b.record(false, now);
        b.record(false, now);
        b.record(true, now);
        b.record(false, now);
        b.record(false, now);
        assert_eq!(b.admit(now), Admit::Yes, "success reset the count");
        assert_eq!(b.record(false, now), Some(Transition::Opened));
        assert_eq!(b.admit(now), Admit::No);
        assert_eq!(
            b.state(),
            BreakerState::Open {
                until: now + secs(30)
            }
        );
        assert_eq!(b.record(false, now), None, "already open");
    }

    #[test]
    fn half_opens_after_thirty_seconds_for_one_probe() {
        let now = t0();
        let mut b = Breaker::default();
        for _ in 0..3 {
            b.record(false, now);
        }
        assert_eq!(b.admit(now + secs(29)), Admit::No);
        let later = now + secs(30);
        assert_eq!(b.admit(later), Admit::Probe);
        assert_eq!(b.admit(later), Admit::No, "only one probe at a time");
        // A failed probe opens it again for another 30 s.
        assert_eq!(b.record(false, later), Some(Transition::Opened));
        assert_eq!(b.admit(later + secs(1)), Admit::No);
        assert_eq!(b.admit(later + secs(30)), Admit::Probe);
        assert_eq!(b.record(true, later + secs(30)), Some(Transition::Closed));
        assert_eq!(b.admit(later + secs(30)), Admit::Yes);
        assert_eq!(b.record(true, later + secs(31)), None, "already closed");
    }
}
