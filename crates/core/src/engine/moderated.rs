//! The engine in a moderated meeting (SPEC §9): there, members are not all nudged by a
//! new message — the moderator gives the floor to one speaker and only they are nudged
//! (and only they think about the meeting on their polls). A speaker who stays silent
//! passes, and the moderator moves on, so a meeting never waits on anyone.

use cubicle_store::{DbErr, chat as cq, meeting as mq};

use super::{Engine, Focus, lock};
use crate::chat::SenderKind;
use crate::chat::gates::{self, ChatMode};
use crate::meeting::MeetingStatus;
use crate::meeting::moderator::Move;
use crate::scheduler::WakeReason;

/// Where a poll should look, given the meetings the employee does not have the floor in.
pub(super) enum PollTarget {
    /// As always: the first chat with unread messages (or the boss chat for tasks).
    Default,
    Chat(i32),
    /// Only meetings where someone else has the floor: nothing to do.
    Nothing,
}

impl Engine {
    /// Handles a message in a moderated meeting; `false` when the chat is not one (the
    /// caller then nudges every member as usual).
    pub(super) async fn moderate(&self, chat_id: i32, message_id: i32) -> Result<bool, DbErr> {
        let core = self.core();
        let Some(meeting) = core.meetings.find(chat_id).await? else {
            return Ok(false);
        };
        let Some(m) = cq::find_message(&core.db, message_id).await? else {
            return Ok(true);
        };
        if meeting.status != MeetingStatus::Open {
            // After the close only the boss's words wake the members, as in any chat.
            return Ok(m.sender_kind != SenderKind::Boss);
        }
        if m.sender_kind == SenderKind::System {
            // The topic note starts the meeting; later notes (joins, escalations,
            // rulings) are not turns.
            if core.meetings.notes(chat_id).await?.is_empty() {
                self.advance(chat_id, false).await?;
            }
            return Ok(true);
        }
        if let Err(e) = core.meetings.on_turn(m.id).await {
            tracing::warn!(error = %e, chat = chat_id, "arbitration failed; the meeting goes on");
        }
        // A thought may post several messages: the meeting moves once, on the last.
        let latest_turn = cq::last_messages(&core.db, chat_id, 10)
            .await?
            .into_iter()
            .rev()
            .find(|x| x.sender_kind != SenderKind::System)
            .map(|x| x.id);
        if latest_turn == Some(message_id) {
            self.advance(chat_id, m.sender_kind == SenderKind::Boss)
                .await?;
        }
        Ok(true)
    }

    /// Meetings opened, or left mid-turn, while no engine ran (another process opened
    /// them, or the app stopped): their topic note and any boss post were never heard
    /// here, so the moderator moves now — a meeting nobody has the floor in gets its
    /// first speaker, one with a speaker nudges them again.
    pub(super) async fn take_up_meetings(&self) -> Result<(), DbErr> {
        let db = &self.core().db;
        for m in mq::open_meetings(db).await? {
            let speaker = match m.current_speaker_id {
                Some(id) => cq::find_member(db, m.chat_id, id).await?.map(|_| id),
                None => None,
            };
            match speaker {
                Some(id) => self.nudge_speaker(m.chat_id, id, false).await?,
                None => {
                    let boss_last = cq::last_messages(db, m.chat_id, 1)
                        .await?
                        .first()
                        .is_some_and(|x| x.sender_kind == SenderKind::Boss);
                    self.advance(m.chat_id, boss_last).await?;
                }
            }
        }
        Ok(())
    }

    /// Asks the moderator for the next move and carries it out.
    async fn advance(&self, chat_id: i32, from_boss: bool) -> Result<(), DbErr> {
        let meetings = &self.core().meetings;
        match meetings.next_move(chat_id).await? {
            None => {}
            Some(Move::Speak { employee_id, .. }) => {
                self.nudge_speaker(chat_id, employee_id, from_boss).await?;
            }
            Some(Move::Invite { employee_ids, .. }) => {
                meetings.add_members(chat_id, &employee_ids).await?;
                if let Some(first) = employee_ids.first() {
                    self.nudge_speaker(chat_id, *first, from_boss).await?;
                }
            }
            Some(Move::Close { .. }) => {
                meetings.close(chat_id).await?;
            }
        }
        Ok(())
    }

    /// Nudges the one speaker after the SPEC's delays, and not before the work-chat
    /// gates let them speak again (a speaker nudged into a cooldown would only pass).
    async fn nudge_speaker(
        &self,
        chat_id: i32,
        employee_id: i32,
        from_boss: bool,
    ) -> Result<(), DbErr> {
        let now = self.now();
        let mode = ChatMode::Work;
        let window = gates::limits(mode).window.max(gates::limits(mode).cooldown);
        let posts = cq::posts_by_since(&self.core().db, chat_id, employee_id, now - window).await?;
        let open = gates::next_open_at(mode, now, &posts);
        let delay = {
            let mut rng = lock(&self.inner.rng);
            self.inner.config.nudge.nudge_delay(from_boss, &mut *rng)
                + self.inner.config.nudge.absorb_wait(&mut *rng)
        };
        self.schedule(
            (now + delay).max(open),
            employee_id,
            WakeReason::Nudge { chat_id },
        );
        Ok(())
    }

    /// A nudge into a chat: in a moderated meeting only the speaker with the floor
    /// thinks, and a silent speaker passes so the moderator moves on.
    pub(super) async fn think_in_chat(&self, employee_id: i32, chat_id: i32) -> Result<(), DbErr> {
        let core = self.core();
        let floor = core
            .meetings
            .find(chat_id)
            .await?
            .filter(|m| m.status == MeetingStatus::Open)
            .map(|m| m.current_speaker_id);
        let Some(floor) = floor else {
            return self
                .think(employee_id, Some(chat_id), Focus::Messages)
                .await;
        };
        if floor != Some(employee_id) {
            return Ok(());
        }
        let before = cq::latest_message_id(&core.db, chat_id).await?.unwrap_or(0);
        self.think(employee_id, Some(chat_id), Focus::Messages)
            .await?;
        let spoke = cq::messages_after(&core.db, chat_id, before)
            .await?
            .iter()
            .any(|m| m.sender_employee_id == Some(employee_id));
        let still_floor = core.meetings.find(chat_id).await?.is_some_and(|m| {
            m.status == MeetingStatus::Open && m.current_speaker_id == Some(employee_id)
        });
        if !spoke && still_floor {
            core.meetings.record_pass(chat_id, employee_id).await?;
            self.advance(chat_id, false).await?;
        }
        Ok(())
    }

    /// Where a poll looks: never into a meeting where someone else has the floor.
    pub(super) async fn poll_target(&self, employee_id: i32) -> Result<PollTarget, DbErr> {
        let core = self.core();
        let unread = cq::chats_with_unread_for(&core.db, employee_id).await?;
        let mut allowed = Vec::new();
        for id in &unread {
            let held_by_other = core.meetings.find(*id).await?.is_some_and(|m| {
                m.status == MeetingStatus::Open && m.current_speaker_id != Some(employee_id)
            });
            if !held_by_other {
                allowed.push(*id);
            }
        }
        Ok(match (unread.first(), allowed.first()) {
            (first, Some(a)) if first == Some(a) => PollTarget::Default,
            (_, Some(a)) => PollTarget::Chat(*a),
            (None, None) => PollTarget::Default,
            (Some(_), None) => {
                if core.work.pending_of(employee_id).await?.is_empty() {
                    PollTarget::Nothing
                } else {
                    PollTarget::Chat(self.boss_chat(employee_id).await?.id)
                }
            }
        })
    }
}
