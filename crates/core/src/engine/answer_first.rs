//! Who answers first: when the boss speaks to someone in a group chat (by @mention or
//! by name, in English or Chinese), that member is woken with the shortest nudge; the
//! others are held back until the one asked has had their thought, so they see the
//! answer before deciding whether they have anything to add. A hold lasts at most
//! [`ANSWER_WAIT`]: a broken model or a silent colleague never keeps the rest waiting.
//!
//! Holds live only in memory: after a restart the bootstrap polls everyone with unread
//! messages, which is what a released hold does.

use chrono::{DateTime, TimeDelta, Utc};
use cubicle_store::entity::chat_message;
use cubicle_store::{DbErr, chat as cq};

use super::{Engine, lock};
use crate::chat::{SenderKind, mentions};
use crate::scheduler::WakeReason;

/// The longest the others wait for the answer of the one the boss spoke to.
pub(super) const ANSWER_WAIT: TimeDelta = TimeDelta::minutes(2);

/// Colleagues held back until the ones the boss spoke to have thought about it.
#[derive(Clone, Debug)]
pub(super) struct Hold {
    chat_id: i32,
    message_id: i32,
    waiting_on: Vec<i32>,
    others: Vec<i32>,
    until: DateTime<Utc>,
}

impl Engine {
    /// The members (of `members`) a boss message speaks to; empty for anyone else's.
    pub(super) async fn addressed_members(
        &self,
        m: &chat_message::Model,
        members: &[i32],
    ) -> Result<Vec<i32>, DbErr> {
        if m.sender_kind != SenderKind::Boss {
            return Ok(vec![]);
        }
        let names = crate::chat::Names::load(&self.core().db).await?;
        let members: Vec<(i32, String)> = members
            .iter()
            .map(|id| (*id, names.person(*id).to_owned()))
            .filter(|(_, n)| !n.is_empty())
            .collect();
        let mentioned: Vec<i32> = m
            .mentions
            .as_ref()
            .and_then(|v| serde_json::from_value(v.clone()).ok())
            .unwrap_or_default();
        Ok(mentions::addressed(&m.text, &mentioned, &members))
    }

    /// Nudges for a boss message that speaks to `named`: they are woken first, with the
    /// shortest nudge; `others` get a nudge only once the answer is in (or the wait is
    /// over).
    pub(super) fn nudge_named_first(
        &self,
        chat_id: i32,
        message_id: i32,
        named: &[i32],
        others: &[i32],
    ) {
        let now = self.now();
        let first = now + self.inner.config.nudge.shortest_after_boss();
        for id in named {
            self.schedule(first, *id, WakeReason::Nudge { chat_id });
        }
        if others.is_empty() {
            return;
        }
        let until = now + ANSWER_WAIT;
        {
            let mut holds = lock(&self.inner.holds);
            holds.retain(|h| h.until > now && h.chat_id != chat_id);
            holds.push(Hold {
                chat_id,
                message_id,
                waiting_on: named.to_vec(),
                others: others.to_vec(),
                until,
            });
        }
        // Should the answer never come, the others are nudged when the wait is over.
        for id in others {
            self.schedule(until, *id, WakeReason::Nudge { chat_id });
        }
    }

    /// After a thought of `employee_id`: colleagues held back for its answer hear the
    /// question (and the answer, already posted) now.
    pub(super) async fn release_holds(&self, employee_id: i32) -> Result<(), DbErr> {
        let now = self.now();
        let mine: Vec<Hold> = {
            let mut holds = lock(&self.inner.holds);
            holds.retain(|h| h.until > now);
            holds
                .iter()
                .filter(|h| h.waiting_on.contains(&employee_id))
                .cloned()
                .collect()
        };
        for hold in mine {
            // Only a thought that took the question in answers it (not a failed one).
            let read = cq::find_member(&self.core().db, hold.chat_id, employee_id)
                .await?
                .and_then(|m| m.last_read_message_id)
                .is_some_and(|r| r >= hold.message_id);
            if read {
                self.answered(&hold, employee_id);
            }
        }
        Ok(())
    }

    fn answered(&self, hold: &Hold, employee_id: i32) {
        let released = {
            let mut holds = lock(&self.inner.holds);
            let Some(i) = holds
                .iter()
                .position(|h| h.chat_id == hold.chat_id && h.message_id == hold.message_id)
            else {
                return;
            };
            holds[i].waiting_on.retain(|id| *id != employee_id);
            if holds[i].waiting_on.is_empty() {
                Some(holds.remove(i))
            } else {
                None
            }
        };
        let Some(hold) = released else {
            return;
        };
        let now = self.now();
        for id in hold.others {
            let delay = {
                let mut rng = lock(&self.inner.rng);
                self.inner.config.nudge.nudge_delay(true, &mut *rng)
                    + self.inner.config.nudge.absorb_wait(&mut *rng)
            };
            self.schedule(
                now + delay,
                id,
                WakeReason::Nudge {
                    chat_id: hold.chat_id,
                },
            );
        }
    }
}
