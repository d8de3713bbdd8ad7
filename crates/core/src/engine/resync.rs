//! Catching up with other processes on the same database.
//!
//! The engine hears its own process's changes on the event bus. A company on a shared
//! server (PostgreSQL) is also written by desktops pointed at it, and any database by
//! `cubicle-cli post` / `say`: nothing of that reaches this bus. So the real-time loop
//! looks at the database every [`RESYNC_EVERY`]: messages it did not hear of nudge
//! their chat's members exactly as if heard, new tasks reach their owners, and a new
//! approval's expiry is scheduled. One cheap query each; idempotent. Beside it, actions
//! the boss approved on an attached desktop run here, once each, off the loop (a CLI
//! agent may take minutes).

use std::collections::BTreeSet;

use cubicle_store::chat as cq;

use super::{Engine, lock};

/// How often the real-time engine looks for changes made by other processes.
pub const RESYNC_EVERY: std::time::Duration = std::time::Duration::from_secs(5);

/// Newest messages looked at per resync: more than the busiest company posts between
/// two resyncs. A window (not "after id N") so a message whose transaction committed
/// late, with an id below one already seen, is still found.
const WINDOW: u64 = 200;

/// Messages the engine has already reacted to, within the window.
#[derive(Default)]
pub(super) struct Seen {
    /// Below this id everything predates the engine (the restart's polls cover it).
    floor: Option<i32>,
    ids: BTreeSet<i32>,
}

impl Engine {
    /// Notes a message heard on the bus, so a resync does not nudge for it again.
    pub(super) fn heard(&self, message_id: i32) {
        lock(&self.inner.seen).ids.insert(message_id);
    }

    /// Starts the watch at the newest message: what came before is the bootstrap's.
    pub(super) async fn mark_seen_up_to_now(&self) -> Result<(), cubicle_store::DbErr> {
        let newest = cq::recent_message_ids(&self.core().db, 1)
            .await?
            .first()
            .map_or(0, |&(id, _)| id);
        let mut seen = lock(&self.inner.seen);
        seen.floor = Some(seen.floor.map_or(newest, |f| f.max(newest)));
        Ok(())
    }

    /// Reacts to what other processes wrote since the last look (see the module doc).
    pub async fn resync(&self) -> Result<(), cubicle_store::DbErr> {
        let floor = lock(&self.inner.seen).floor;
        let Some(floor) = floor else {
            return self.mark_seen_up_to_now().await;
        };
        let mut recent = cq::recent_message_ids(&self.core().db, WINDOW).await?;
        recent.reverse(); // oldest first, as they were posted
        let mut unheard = Vec::new();
        {
            let mut seen = lock(&self.inner.seen);
            for &(id, chat_id) in &recent {
                if id > floor && seen.ids.insert(id) {
                    unheard.push((chat_id, id));
                }
            }
            // Forget what fell out of the window.
            if recent.len() as u64 == WINDOW
                && let Some(&(oldest, _)) = recent.first()
            {
                let keep = seen.ids.split_off(&oldest);
                seen.ids = keep;
                seen.floor = Some(floor.max(oldest - 1));
            }
        }
        for (chat_id, message_id) in unheard {
            tracing::debug!(chat_id, message_id, "message from another process");
            self.nudge_members(chat_id, message_id).await?;
        }
        self.schedule_tasks().await?;
        self.schedule_approval_expiry().await
    }

    /// Runs the approved actions decided where they do not run (see
    /// [`crate::approvals::Approvals::run_queued`]) on `tasks`, unless a run of them is
    /// still going.
    pub(super) fn spawn_queued_approvals(&self, tasks: &tokio_util::task::TaskTracker) {
        use std::sync::atomic::Ordering;
        if self.inner.running_queued.swap(true, Ordering::SeqCst) {
            return;
        }
        let engine = self.clone();
        tasks.spawn(async move {
            match engine.core().approvals.run_queued().await {
                Ok(ran) if !ran.is_empty() => {
                    tracing::info!(?ran, "ran approvals decided on another app");
                }
                Ok(_) => {}
                Err(e) => tracing::warn!(error = %e, "queued approvals could not run"),
            }
            engine.inner.running_queued.store(false, Ordering::SeqCst);
        });
    }
}
