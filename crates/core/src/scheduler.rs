//! The one queue of wake-ups that drives every employee (DESIGN "Core shape"): nudges,
//! polls, task escalations and memory expiry, ordered by time on the [`crate::clock`].
//! There is no timer per employee, so a thousand idle employees cost nothing and a test
//! with a manual clock can drain a simulated day in milliseconds.
//!
//! The coalescing rules live here, not in the engine, so a burst of messages cannot pile up
//! duplicate wake-ups: one nudge per (employee, chat), one poll per employee, one
//! escalation per task, one expiry sweep per employee.

use std::collections::{BTreeMap, HashMap};

use chrono::{DateTime, Utc};

/// Why an employee is woken.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum WakeReason {
    /// A message arrived in this chat (SPEC §4 chain reaction).
    Nudge { chat_id: i32 },
    /// The adaptive re-check of the employee's chats (SPEC §4).
    Poll,
    /// A pending task crosses an urgency threshold (SPEC §6).
    TaskEscalation { task_id: i32 },
    /// A short-term memory reaches its TTL (SPEC §5).
    MemoryExpiry,
    /// A resolved task's owner reports the result (SPEC §6 onResolve).
    Report { task_id: i32 },
    /// The evening digest for the boss; scheduled for [`COMPANY`], not an employee.
    Digest,
    /// A tool the employee called in this chat has run: it sees the result.
    ToolResult { chat_id: i32 },
    /// The next waiting approval runs out of time (for [`COMPANY`]).
    ApprovalExpiry,
}

/// The wake-ups that belong to the company rather than to one employee (the digest).
pub const COMPANY: i32 = 0;

impl WakeReason {
    /// A newer poll supersedes the old one (the last thought set a new interest level);
    /// every other reason keeps whichever wake-up comes first, so coalescing never delays.
    fn replaces_pending(self) -> bool {
        matches!(self, WakeReason::Poll)
    }
}

/// One pending wake-up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WakeUp {
    pub at: DateTime<Utc>,
    pub employee_id: i32,
    pub reason: WakeReason,
}

/// Time-ordered wake-ups of all employees; at most one per (employee, reason).
///
/// Entries live in a `BTreeMap` keyed by (time, insertion sequence), which gives the
/// earliest-first order with deterministic ties; a per-employee index finds an entry to
/// coalesce or cancel in O(log n) without scanning.
#[derive(Debug, Default)]
pub struct Scheduler {
    queue: BTreeMap<(DateTime<Utc>, u64), (i32, WakeReason)>,
    index: HashMap<i32, HashMap<WakeReason, (DateTime<Utc>, u64)>>,
    seq: u64,
}

impl Scheduler {
    /// An empty queue.
    pub fn new() -> Self {
        Self::default()
    }

    /// Adds a wake-up, coalescing with the pending one for the same (employee, reason):
    /// a poll replaces the pending poll; any other reason keeps the earlier time.
    pub fn schedule(&mut self, at: DateTime<Utc>, employee_id: i32, reason: WakeReason) {
        let slot = self.index.entry(employee_id).or_default();
        if let Some(&(old_at, old_seq)) = slot.get(&reason) {
            if !reason.replaces_pending() && at >= old_at {
                return;
            }
            self.queue.remove(&(old_at, old_seq));
        }
        let key = (at, self.seq);
        self.seq += 1;
        slot.insert(reason, key);
        self.queue.insert(key, (employee_id, reason));
    }

    /// Removes one pending wake-up (a resolved task's escalation, say); true if one was pending.
    pub fn cancel(&mut self, employee_id: i32, reason: WakeReason) -> bool {
        let Some(slot) = self.index.get_mut(&employee_id) else {
            return false;
        };
        let Some(key) = slot.remove(&reason) else {
            return false;
        };
        if slot.is_empty() {
            self.index.remove(&employee_id);
        }
        self.queue.remove(&key);
        true
    }

    /// Stops polling an employee (SPEC §4: nothing unread and no pending task costs nothing).
    pub fn cancel_polls(&mut self, employee_id: i32) {
        self.cancel(employee_id, WakeReason::Poll);
    }

    /// Drops every wake-up of an employee (fired).
    pub fn cancel_employee(&mut self, employee_id: i32) {
        if let Some(slot) = self.index.remove(&employee_id) {
            for key in slot.into_values() {
                self.queue.remove(&key);
            }
        }
    }

    /// When the earliest wake-up is due, if any: what the engine sleeps until.
    pub fn next_at(&self) -> Option<DateTime<Utc>> {
        self.queue.first_key_value().map(|(&(at, _), _)| at)
    }

    /// Takes the earliest wake-up due at or before `now` (ties in the order they were
    /// scheduled).
    pub fn pop_due(&mut self, now: DateTime<Utc>) -> Option<WakeUp> {
        if self.next_at()? > now {
            return None;
        }
        let ((at, _), (employee_id, reason)) = self.queue.pop_first()?;
        if let Some(slot) = self.index.get_mut(&employee_id) {
            slot.remove(&reason);
            if slot.is_empty() {
                self.index.remove(&employee_id);
            }
        }
        Some(WakeUp {
            at,
            employee_id,
            reason,
        })
    }

    /// Takes every wake-up due at or before `now`, earliest first.
    pub fn drain_due(&mut self, now: DateTime<Utc>) -> Vec<WakeUp> {
        std::iter::from_fn(|| self.pop_due(now)).collect()
    }

    /// How many wake-ups are pending.
    pub fn len(&self) -> usize {
        self.queue.len()
    }

    /// True when nothing is pending.
    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    /// An employee's pending wake-ups, earliest first (for the profile view and tests).
    pub fn pending_for(&self, employee_id: i32) -> Vec<WakeUp> {
        let mut keys: Vec<_> = self
            .index
            .get(&employee_id)
            .map(|slot| slot.iter().map(|(r, &k)| (k, *r)).collect())
            .unwrap_or_default();
        keys.sort_by_key(|&(k, _)| k);
        keys.into_iter()
            .map(|((at, _), reason)| WakeUp {
                at,
                employee_id,
                reason,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeDelta;
    use rand::rngs::StdRng;
    use rand::{Rng, SeedableRng};

    fn t(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000, 0).unwrap() + TimeDelta::seconds(secs)
    }

    fn nudge(chat_id: i32) -> WakeReason {
        WakeReason::Nudge { chat_id }
    }

    fn wake(at: i64, employee_id: i32, reason: WakeReason) -> WakeUp {
        WakeUp {
            at: t(at),
            employee_id,
            reason,
        }
    }

    #[test]
    fn pops_earliest_first_and_only_when_due() {
        let mut s = Scheduler::new();
        s.schedule(t(30), 1, WakeReason::Poll);
        s.schedule(t(10), 2, nudge(7));
        s.schedule(t(20), 3, WakeReason::MemoryExpiry);
        assert_eq!(s.len(), 3);
        assert_eq!(s.next_at(), Some(t(10)));
        assert_eq!(s.pop_due(t(9)), None);
        assert_eq!(s.pop_due(t(10)), Some(wake(10, 2, nudge(7))));
        assert_eq!(s.pop_due(t(15)), None);
        assert_eq!(
            s.pop_due(t(100)),
            Some(wake(20, 3, WakeReason::MemoryExpiry))
        );
        assert_eq!(s.pop_due(t(100)), Some(wake(30, 1, WakeReason::Poll)));
        assert_eq!(s.pop_due(t(100)), None);
        assert!(s.is_empty());
        assert_eq!(s.next_at(), None);
    }

    #[test]
    fn ties_pop_in_insertion_order() {
        let mut s = Scheduler::new();
        for e in [5, 3, 9, 1] {
            s.schedule(t(0), e, WakeReason::Poll);
        }
        let order: Vec<i32> = s.drain_due(t(0)).iter().map(|w| w.employee_id).collect();
        assert_eq!(order, vec![5, 3, 9, 1]);
    }

    #[test]
    fn nudges_for_the_same_chat_coalesce_to_the_earlier_time() {
        let mut s = Scheduler::new();
        s.schedule(t(20), 1, nudge(7));
        s.schedule(t(40), 1, nudge(7));
        assert_eq!(s.pending_for(1), vec![wake(20, 1, nudge(7))]);
        s.schedule(t(5), 1, nudge(7));
        assert_eq!(s.pending_for(1), vec![wake(5, 1, nudge(7))]);
        assert_eq!(s.len(), 1);
        // Another chat, or another employee in the same chat, is a separate wake-up.
        s.schedule(t(40), 1, nudge(8));
        s.schedule(t(40), 2, nudge(7));
        assert_eq!(s.len(), 3);
    }

    #[test]
    fn an_equal_time_keeps_the_original_place_in_line() {
        let mut s = Scheduler::new();
        s.schedule(t(10), 1, nudge(7));
        s.schedule(t(10), 2, nudge(7));
        s.schedule(t(10), 1, nudge(7));
        let order: Vec<i32> = s.drain_due(t(10)).iter().map(|w| w.employee_id).collect();
        assert_eq!(order, vec![1, 2]);
    }

    #[test]
    fn a_new_poll_replaces_the_pending_poll_even_when_later() {
        let mut s = Scheduler::new();
        s.schedule(t(10), 1, WakeReason::Poll);
        s.schedule(t(200), 1, WakeReason::Poll);
        assert_eq!(s.pending_for(1), vec![wake(200, 1, WakeReason::Poll)]);
        s.schedule(t(15), 1, WakeReason::Poll);
        assert_eq!(s.pending_for(1), vec![wake(15, 1, WakeReason::Poll)]);
        assert_eq!(s.len(), 1);
        assert_eq!(s.pop_due(t(14)), None);
        assert_eq!(s.pop_due(t(15)), Some(wake(15, 1, WakeReason::Poll)));
    }

    #[test]
    fn escalations_coalesce_per_task_and_expiry_per_employee() {
        let mut s = Scheduler::new();
        let task = |task_id| WakeReason::TaskEscalation { task_id };
        s.schedule(t(300), 1, task(4));
        s.schedule(t(900), 1, task(4));
        s.schedule(t(900), 1, task(5));
        s.schedule(t(50), 1, WakeReason::MemoryExpiry);
        s.schedule(t(10), 1, WakeReason::MemoryExpiry);
        s.schedule(t(99), 1, WakeReason::MemoryExpiry);
        assert_eq!(
            s.pending_for(1),
            vec![
                wake(10, 1, WakeReason::MemoryExpiry),
                wake(300, 1, task(4)),
                wake(900, 1, task(5)),
            ]
        );
    }

    #[test]
    fn cancelling_polls_leaves_other_wake_ups() {
        let mut s = Scheduler::new();
        s.schedule(t(10), 1, WakeReason::Poll);
        s.schedule(t(20), 1, nudge(3));
        s.schedule(t(30), 2, WakeReason::Poll);
        s.cancel_polls(1);
        s.cancel_polls(99);
        assert_eq!(s.pending_for(1), vec![wake(20, 1, nudge(3))]);
        assert_eq!(s.pending_for(2), vec![wake(30, 2, WakeReason::Poll)]);
        assert_eq!(s.len(), 2);
        assert_eq!(s.next_at(), Some(t(20)));
    }

    #[test]
    fn cancelling_an_employee_drops_all_of_theirs_only() {
        let mut s = Scheduler::new();
        s.schedule(t(10), 1, WakeReason::Poll);
        s.schedule(t(20), 1, nudge(3));
        s.schedule(t(5), 1, WakeReason::TaskEscalation { task_id: 1 });
        s.schedule(t(15), 2, nudge(3));
        s.cancel_employee(1);
        assert!(s.pending_for(1).is_empty());
        assert_eq!(s.len(), 1);
        assert_eq!(s.drain_due(t(100)), vec![wake(15, 2, nudge(3))]);
        // A fired employee can still be scheduled again (rehired); nothing stale remains.
        s.schedule(t(50), 1, nudge(3));
        assert_eq!(s.pending_for(1), vec![wake(50, 1, nudge(3))]);
    }

    #[test]
    fn cancel_one_reports_whether_it_was_pending() {
        let mut s = Scheduler::new();
        let r = WakeReason::TaskEscalation { task_id: 9 };
        s.schedule(t(10), 1, r);
        assert!(s.cancel(1, r));
        assert!(!s.cancel(1, r));
        assert!(s.is_empty());
        assert!(s.index.is_empty());
    }

    #[test]
    fn popping_frees_the_slot_for_a_later_wake_up() {
        let mut s = Scheduler::new();
        s.schedule(t(10), 1, nudge(1));
        assert!(s.pop_due(t(10)).is_some());
        // Not coalesced with the one already taken, though later.
        s.schedule(t(60), 1, nudge(1));
        assert_eq!(s.pending_for(1), vec![wake(60, 1, nudge(1))]);
        assert!(s.index.len() == 1);
    }

    #[test]
    fn fifty_thousand_entries_drain_in_order() {
        let mut s = Scheduler::new();
        let mut rng = StdRng::seed_from_u64(7);
        for e in 0..50_000 {
            s.schedule(t(rng.random_range(0..86_400)), e, WakeReason::Poll);
        }
        assert_eq!(s.len(), 50_000);
        let all = s.drain_due(t(86_400));
        assert_eq!(all.len(), 50_000);
        assert!(all.windows(2).all(|w| w[0].at <= w[1].at));
        assert!(s.is_empty());
    }

    /// The obvious implementation, to check the fast one against.
    #[derive(Default)]
    struct Naive {
        items: Vec<(DateTime<Utc>, u64, i32, WakeReason)>,
        seq: u64,
    }

    impl Naive {
        fn schedule(&mut self, at: DateTime<Utc>, e: i32, r: WakeReason) {
            if let Some(i) = self.items.iter().position(|x| x.2 == e && x.3 == r) {
                if r != WakeReason::Poll && at >= self.items[i].0 {
                    return;
                }
                self.items.remove(i);
            }
            self.items.push((at, self.seq, e, r));
            self.seq += 1;
        }

        fn earliest(&self) -> Option<usize> {
            (0..self.items.len()).min_by_key(|&i| (self.items[i].0, self.items[i].1))
        }

        fn pop_due(&mut self, now: DateTime<Utc>) -> Option<WakeUp> {
            let i = self.earliest()?;
            if self.items[i].0 > now {
                return None;
            }
            let (at, _, employee_id, reason) = self.items.remove(i);
            Some(WakeUp {
                at,
                employee_id,
                reason,
            })
        }

        fn pending_for(&self, e: i32) -> Vec<WakeUp> {
            let mut v: Vec<_> = self.items.iter().filter(|x| x.2 == e).collect();
            v.sort_by_key(|x| (x.0, x.1));
            v.into_iter()
                .map(|x| WakeUp {
                    at: x.0,
                    employee_id: x.2,
                    reason: x.3,
                })
                .collect()
        }
    }

    #[test]
    fn matches_a_naive_model_over_100k_random_operations() {
        let mut rng = StdRng::seed_from_u64(0x5eed);
        let mut fast = Scheduler::new();
        let mut naive = Naive::default();
        let mut now = 0i64;
        for _ in 0..100_000 {
            let e = rng.random_range(0..40);
            match rng.random_range(0..100) {
                0..60 => {
                    let reason = match rng.random_range(0..4) {
                        0 => nudge(rng.random_range(0..4)),
                        1 => WakeReason::Poll,
                        2 => WakeReason::TaskEscalation {
                            task_id: rng.random_range(0..4),
                        },
                        _ => WakeReason::MemoryExpiry,
                    };
                    // Some in the past, many at the same instant, to exercise ties.
                    let at = t(now + rng.random_range(-5..60));
                    fast.schedule(at, e, reason);
                    naive.schedule(at, e, reason);
                }
                60..88 => {
                    now += rng.random_range(0..4);
                    assert_eq!(fast.pop_due(t(now)), naive.pop_due(t(now)));
                }
                88..95 => {
                    fast.cancel_polls(e);
                    naive
                        .items
                        .retain(|x| !(x.2 == e && x.3 == WakeReason::Poll));
                }
                95..97 => {
                    fast.cancel_employee(e);
                    naive.items.retain(|x| x.2 != e);
                }
                _ => assert_eq!(fast.pending_for(e), naive.pending_for(e)),
            }
            assert_eq!(fast.len(), naive.items.len());
            assert_eq!(fast.next_at(), naive.earliest().map(|i| naive.items[i].0));
        }
        let far = t(now + 1_000);
        loop {
            let (a, b) = (fast.pop_due(far), naive.pop_due(far));
            assert_eq!(a, b);
            if a.is_none() {
                break;
            }
        }
        assert!(fast.index.is_empty());
    }
}
