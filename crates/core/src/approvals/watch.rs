//! Approvals raised and decided by other processes (SPEC §8 on a shared server). A
//! desktop attached to a company server runs no engine: the approvals the server's
//! engine raises, and the decisions other desktops or `cubicle-cli` make, never pass
//! through this app's event bus. [`spawn_watch`] looks at the queue every so often and
//! publishes what changed as the bus's own events, so the desktop notifies the boss of
//! a new approval (and withdraws the notification once it is decided elsewhere) and the
//! UI refreshes, as in a desktop with its own engine.

use std::collections::BTreeSet;
use std::time::Duration;

use tokio::task::JoinHandle;

use super::ApprovalFilter;
use crate::AppCore;
use crate::events::DomainEvent;

/// How often an attached desktop looks at the shared queue.
pub const WATCH_EVERY: Duration = Duration::from_secs(5);

/// Watches the waiting approvals every `every` until the task is aborted. Approvals
/// already waiting when it starts are not announced (the badge and the queue show them);
/// from then on each new one is published once as `ApprovalRequested`, and each that
/// leaves the queue as `ApprovalDecided`.
pub fn spawn_watch(core: AppCore, every: Duration) -> JoinHandle<()> {
    tokio::spawn(async move {
        let mut known: Option<BTreeSet<i32>> = None;
        let mut tick = tokio::time::interval(every);
        tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            tick.tick().await;
            let waiting: BTreeSet<i32> = match core.approvals.list(ApprovalFilter::Pending).await {
                Ok(list) => list.into_iter().map(|a| a.id).collect(),
                Err(e) => {
                    tracing::warn!(error = %e, "could not look at the shared approval queue");
                    continue;
                }
            };
            if let Some(before) = &known {
                for &approval_id in waiting.difference(before) {
                    core.bus
                        .publish(DomainEvent::ApprovalRequested { approval_id });
                }
                for &approval_id in before.difference(&waiting) {
                    core.bus
                        .publish(DomainEvent::ApprovalDecided { approval_id });
                }
            }
            known = Some(waiting);
        }
    })
}
