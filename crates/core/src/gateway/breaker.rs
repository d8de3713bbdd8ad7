//! A circuit breaker per provider (SPEC §10): after 3 consecutive failed calls the
//! provider is skipped; after 30 s one probe call may try it again.

use std::time::Duration;

use tokio::time::Instant;

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

    pub fn record(&mut self, success: bool, now: Instant) {
        self.state = match (self.state, success) {
            (_, true) => BreakerState::Closed { failures: 0 },
            (BreakerState::Closed { failures }, false) if failures + 1 < self.threshold => {
                BreakerState::Closed {
                    failures: failures + 1,
                }
            }
            (BreakerState::Open { until }, false) => BreakerState::Open { until },
            (_, false) => BreakerState::Open {
                until: now + self.open_for,
            },
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn opens_after_three_consecutive_failures_only() {
        let now = Instant::now();
        let mut b = Breaker::default();
        b.record(false, now);
        b.record(false, now);
        b.record(true, now);
        b.record(false, now);
        b.record(false, now);
        assert_eq!(b.admit(now), Admit::Yes, "success reset the count");
        b.record(false, now);
        assert_eq!(b.admit(now), Admit::No);
        assert_eq!(
            b.state(),
            BreakerState::Open {
                until: now + OPEN_FOR
            }
        );
    }

    #[test]
    fn half_opens_after_thirty_seconds_for_one_probe() {
        let now = Instant::now();
        let mut b = Breaker::default();
        for _ in 0..3 {
            b.record(false, now);
        }
        assert_eq!(b.admit(now + Duration::from_secs(29)), Admit::No);
        let later = now + OPEN_FOR;
        assert_eq!(b.admit(later), Admit::Probe);
        assert_eq!(b.admit(later), Admit::No, "only one probe at a time");
        // A failed probe opens it again for another 30 s.
        b.record(false, later);
        assert_eq!(b.admit(later + Duration::from_secs(1)), Admit::No);
        assert_eq!(b.admit(later + OPEN_FOR), Admit::Probe);
        b.record(true, later + OPEN_FOR);
        assert_eq!(b.admit(later + OPEN_FOR), Admit::Yes);
    }
}
