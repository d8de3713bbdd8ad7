//! Time as a dependency. Every rule that depends on "now" (nudges, polling, cooldowns,
//! urgency, memory TTL) reads it from a [`Clock`], so the engine runs on the wall clock in
//! the app and on a [`ManualClock`] in tests, where a simulated day takes milliseconds.

use std::sync::{Arc, Mutex, PoisonError};

use chrono::{DateTime, TimeDelta, Utc};

/// The source of "now" for the whole engine.
pub trait Clock: Send + Sync + std::fmt::Debug {
    /// The current instant.
    fn now(&self) -> DateTime<Utc>;
}

/// The clock every service holds: one instance shared by the engine and the scheduler.
pub type SharedClock = Arc<dyn Clock>;

/// The wall clock.
#[derive(Clone, Copy, Debug, Default)]
pub struct SystemClock;

impl SystemClock {
    /// The wall clock as a [`SharedClock`].
    pub fn shared() -> SharedClock {
        Arc::new(SystemClock)
    }
}

impl Clock for SystemClock {
    fn now(&self) -> DateTime<Utc> {
        Utc::now()
    }
}

/// A clock that only moves when told to. Clones share the same time, so a test keeps one
/// handle and gives another to the engine.
#[derive(Clone, Debug)]
pub struct ManualClock {
    // A std mutex is enough: it is held for a copy, never across an await.
    now: Arc<Mutex<DateTime<Utc>>>,
}

impl ManualClock {
    /// A clock standing at `start`.
    pub fn new(start: DateTime<Utc>) -> Self {
        Self {
            now: Arc::new(Mutex::new(start)),
        }
    }

    /// Jumps to `t` (backwards too: tests of clock skew need it).
    pub fn set(&self, t: DateTime<Utc>) {
        *self.lock() = t;
    }

    /// Moves the clock by `by` (a negative delta moves it back).
    pub fn advance(&self, by: TimeDelta) {
        let mut now = self.lock();
        // Past chrono's range there is nothing meaningful to move to; stay put.
        if let Some(t) = now.checked_add_signed(by) {
            *now = t;
        }
    }

    /// This clock as a [`SharedClock`], still driven by `self`.
    pub fn shared(&self) -> SharedClock {
        Arc::new(self.clone())
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, DateTime<Utc>> {
        // The guarded value is a plain timestamp: a panic elsewhere cannot leave it torn.
        self.now.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl Clock for ManualClock {
    fn now(&self) -> DateTime<Utc> {
        *self.lock()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t0() -> DateTime<Utc> {
        DateTime::parse_from_rfc3339("2025-01-01T09:00:00Z")
            .unwrap()
            .with_timezone(&Utc)
    }

    #[test]
    fn a_manual_clock_stands_still_until_moved() {
        let c = ManualClock::new(t0());
        assert_eq!(c.now(), t0());
        assert_eq!(c.now(), t0());
        c.advance(TimeDelta::seconds(90));
        assert_eq!(c.now(), t0() + TimeDelta::seconds(90));
        c.advance(TimeDelta::seconds(-30));
        assert_eq!(c.now(), t0() + TimeDelta::seconds(60));
        c.set(t0());
        assert_eq!(c.now(), t0());
    }

    #[test]
    fn clones_and_shared_handles_see_the_same_time() {
        let c = ManualClock::new(t0());
        let shared: SharedClock = c.shared();
        let clone = c.clone();
        c.advance(TimeDelta::hours(24));
        assert_eq!(shared.now(), t0() + TimeDelta::hours(24));
        assert_eq!(clone.now(), shared.now());
    }

    #[test]
    fn advancing_past_the_calendar_range_keeps_the_time() {
        let c = ManualClock::new(t0());
        c.advance(TimeDelta::MAX);
        assert_eq!(c.now(), t0());
    }

    #[test]
    fn the_system_clock_follows_the_wall_clock() {
        let before = Utc::now();
        let now = SystemClock::shared().now();
        assert!(now >= before);
        assert!(now - before < TimeDelta::seconds(5));
    }
}
