//! Anti-echo layer 3 (SPEC §4): the hard limits applied after the model has decided to
//! speak. Personas and seeds only make employees *want* to vary; these gates guarantee a
//! chat cannot turn into a flood, whatever the model says. The model's own saturation
//! score can force silence too, because a topic it calls exhausted rarely needs more.

use crate::chat::ChatKind;
use chrono::{DateTime, TimeDelta, Utc};

/// Which gate table a chat follows.
pub use cubicle_store::enums::ChatMode;

/// The mode of a chat of `kind`: department groups are casual, everything else is work,
/// the stricter table, so a new kind can never open the floodgates.
pub fn mode_for(kind: ChatKind) -> ChatMode {
    match kind {
        ChatKind::Department => ChatMode::Casual,
        ChatKind::Requirement
        | ChatKind::Meeting
        | ChatKind::Boss
        | ChatKind::Dm
        | ChatKind::Group
        | ChatKind::People => ChatMode::Work,
    }
}

/// A DM follows the kind of the chat it was started from (SPEC §4), work when unknown.
pub fn mode_for_dm_from(origin: Option<ChatKind>) -> ChatMode {
    origin.map_or(ChatMode::Work, mode_for)
}

/// Why a message the model wanted to post was held back: the gates answer with the
/// first three reasons.
pub use cubicle_store::enums::SilenceReason;

/// The numbers of one gate table column.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GateLimits {
    /// Messages allowed per `window`.
    pub max_posts: usize,
    /// The sliding anti-spam window.
    pub window: TimeDelta,
    /// The pause required after one's own message.
    pub cooldown: TimeDelta,
}

/// SPEC §4: work 2 per 5 min with a 60 s cooldown; casual 4 per 10 min with 30 s.
pub fn limits(mode: ChatMode) -> GateLimits {
    match mode {
        ChatMode::Work => GateLimits {
            max_posts: 2,
            window: TimeDelta::minutes(5),
            cooldown: TimeDelta::seconds(60),
        },
        ChatMode::Casual => GateLimits {
            max_posts: 4,
            window: TimeDelta::minutes(10),
            cooldown: TimeDelta::seconds(30),
        },
    }
}

/// A saturation score at or above this silences the employee (SPEC §4).
pub const SATURATION_SILENCE: u8 = 7;

/// Whether the employee may post now, given its own posts in this chat.
///
/// Checked in this order: saturation (waived when the boss @mentions the employee — the
/// boss asked, so it answers even on a tired topic; the mention waives nothing else),
/// cooldown (the latest post must be at least `cooldown` old: exactly 60 s passes), then
/// anti-spam (posts younger than `window` count; one exactly `window` old has left it).
/// Posts stamped after `now` (clock skew) count as just made.
pub fn check(
    mode: ChatMode,
    now: DateTime<Utc>,
    my_recent_posts: &[DateTime<Utc>],
    saturation: u8,
    boss_mentioned_me: bool,
) -> Result<(), SilenceReason> {
    if saturation >= SATURATION_SILENCE && !boss_mentioned_me {
        return Err(SilenceReason::Saturation);
    }
    let l = limits(mode);
    if let Some(&latest) = my_recent_posts.iter().max()
        && now - latest < l.cooldown
    {
        return Err(SilenceReason::Cooldown);
    }
    if in_window(l, now, my_recent_posts) >= l.max_posts {
        return Err(SilenceReason::AntiSpam);
    }
    Ok(())
}

/// How many more posts the anti-spam window allows right now. A thought may carry several
/// messages: the engine posts at most this many of them (the cooldown applies between
/// thoughts, not between the messages of one thought).
pub fn room_left(mode: ChatMode, now: DateTime<Utc>, my_recent_posts: &[DateTime<Utc>]) -> usize {
    let l = limits(mode);
    l.max_posts
        .saturating_sub(in_window(l, now, my_recent_posts))
}

/// The earliest instant at which both the cooldown and the anti-spam gate are open again
/// (`now` if they already are): when a held-back employee is worth waking.
pub fn next_open_at(
    mode: ChatMode,
    now: DateTime<Utc>,
    my_recent_posts: &[DateTime<Utc>],
) -> DateTime<Utc> {
    let l = limits(mode);
    let mut open = now;
    if let Some(&latest) = my_recent_posts.iter().max() {
        open = open.max(latest + l.cooldown);
    }
    // With k posts in the window, the window has room once the oldest k − max + 1 of them
    // have aged out: the (max_posts)-th newest one decides.
    let mut recent: Vec<_> = my_recent_posts
        .iter()
        .copied()
        .filter(|&p| now - p < l.window)
        .collect();
    if recent.len() >= l.max_posts {
        recent.sort_unstable_by(|a, b| b.cmp(a));
        if let Some(&p) = recent.get(l.max_posts - 1) {
            open = open.max(p + l.window);
        }
    }
    open
}

fn in_window(l: GateLimits, now: DateTime<Utc>, posts: &[DateTime<Utc>]) -> usize {
    posts.iter().filter(|&&p| now - p < l.window).count()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn t(secs: i64) -> DateTime<Utc> {
        DateTime::from_timestamp(1_700_000_000, 0).unwrap() + TimeDelta::seconds(secs)
    }

    #[test]
    fn chat_kinds_map_to_modes() {
        for k in [
            ChatKind::Requirement,
            ChatKind::Meeting,
            ChatKind::Dm,
            ChatKind::Boss,
            ChatKind::Group,
        ] {
            assert_eq!(mode_for(k), ChatMode::Work, "{k}");
        }
        assert_eq!(mode_for(ChatKind::Department), ChatMode::Casual);
        assert_eq!(mode_for_dm_from(None), ChatMode::Work);
        assert_eq!(
            mode_for_dm_from(Some(ChatKind::Department)),
            ChatMode::Casual
        );
        assert_eq!(
            mode_for_dm_from(Some(ChatKind::Requirement)),
            ChatMode::Work
        );
    }

    #[test]
    fn names_match_serde() {
        for r in [
            SilenceReason::Saturation,
            SilenceReason::Cooldown,
            SilenceReason::AntiSpam,
        ] {
            assert_eq!(
                serde_json::to_value(r).unwrap(),
                sea_orm::ActiveEnum::to_value(&r)
            );
        }
        for m in [ChatMode::Work, ChatMode::Casual] {
            assert_eq!(
                serde_json::to_value(m).unwrap(),
                sea_orm::ActiveEnum::to_value(&m)
            );
        }
    }

    #[test]
    fn the_spec_table() {
        let w = limits(ChatMode::Work);
        assert_eq!(
            (w.max_posts, w.window, w.cooldown),
            (2, TimeDelta::minutes(5), TimeDelta::seconds(60))
        );
        let c = limits(ChatMode::Casual);
        assert_eq!(
            (c.max_posts, c.window, c.cooldown),
            (4, TimeDelta::minutes(10), TimeDelta::seconds(30))
        );
    }

    #[test]
    fn a_fresh_employee_may_speak() {
        for m in [ChatMode::Work, ChatMode::Casual] {
            assert_eq!(check(m, t(0), &[], 1, false), Ok(()));
            assert_eq!(room_left(m, t(0), &[]), limits(m).max_posts);
        }
    }

    #[test]
    fn saturation_at_seven_silences() {
        for m in [ChatMode::Work, ChatMode::Casual] {
            assert_eq!(check(m, t(0), &[], 6, false), Ok(()));
            assert_eq!(
                check(m, t(0), &[], 7, false),
                Err(SilenceReason::Saturation)
            );
            assert_eq!(
                check(m, t(0), &[], 10, false),
                Err(SilenceReason::Saturation)
            );
        }
    }

    #[test]
    fn a_boss_mention_overrides_saturation_only() {
        assert_eq!(check(ChatMode::Work, t(0), &[], 9, true), Ok(()));
        // Not the cooldown…
        assert_eq!(
            check(ChatMode::Work, t(10), &[t(0)], 9, true),
            Err(SilenceReason::Cooldown)
        );
        // …nor the anti-spam window.
        assert_eq!(
            check(ChatMode::Work, t(200), &[t(0), t(100)], 9, true),
            Err(SilenceReason::AntiSpam)
        );
    }

    #[test]
    fn cooldown_boundaries_per_mode() {
        let posts = [t(0)];
        assert_eq!(
            check(ChatMode::Work, t(59), &posts, 0, false),
            Err(SilenceReason::Cooldown)
        );
        assert_eq!(check(ChatMode::Work, t(60), &posts, 0, false), Ok(()));
        assert_eq!(
            check(ChatMode::Casual, t(29), &posts, 0, false),
            Err(SilenceReason::Cooldown)
        );
        assert_eq!(check(ChatMode::Casual, t(30), &posts, 0, false), Ok(()));
        // Only the latest post matters for the cooldown, whatever the order given.
        assert_eq!(
            check(ChatMode::Casual, t(1000), &[t(990), t(0)], 0, false),
            Err(SilenceReason::Cooldown)
        );
        // A post from "the future" (clock skew) counts as just made.
        assert_eq!(
            check(ChatMode::Casual, t(0), &[t(5)], 0, false),
            Err(SilenceReason::Cooldown)
        );
    }

    #[test]
    fn work_allows_two_per_five_minutes() {
        let posts = [t(0), t(100)];
        assert_eq!(
            check(ChatMode::Work, t(299), &posts, 0, false),
            Err(SilenceReason::AntiSpam)
        );
        assert_eq!(room_left(ChatMode::Work, t(299), &posts), 0);
        // Exactly five minutes after the first post it has left the window.
        assert_eq!(check(ChatMode::Work, t(300), &posts, 0, false), Ok(()));
        assert_eq!(room_left(ChatMode::Work, t(300), &posts), 1);
        assert_eq!(room_left(ChatMode::Work, t(400), &posts), 2);
    }

    #[test]
    fn casual_allows_four_per_ten_minutes() {
        let posts = [t(0), t(40), t(80), t(120)];
        assert_eq!(room_left(ChatMode::Casual, t(130), &posts[..3]), 1);
        assert_eq!(
            check(ChatMode::Casual, t(160), &posts[..3], 0, false),
            Ok(())
        );
        assert_eq!(
            check(ChatMode::Casual, t(599), &posts, 0, false),
            Err(SilenceReason::AntiSpam)
        );
        assert_eq!(room_left(ChatMode::Casual, t(599), &posts), 0);
        assert_eq!(check(ChatMode::Casual, t(600), &posts, 0, false), Ok(()));
        // The same four posts in a work chat are far over its limit.
        assert_eq!(
            check(ChatMode::Work, t(200), &posts, 0, false),
            Err(SilenceReason::AntiSpam)
        );
    }

    #[test]
    fn saturation_is_checked_before_cooldown_before_anti_spam() {
        let posts = [t(0), t(50)];
        assert_eq!(
            check(ChatMode::Work, t(55), &posts, 8, false),
            Err(SilenceReason::Saturation)
        );
        assert_eq!(
            check(ChatMode::Work, t(55), &posts, 0, false),
            Err(SilenceReason::Cooldown)
        );
        assert_eq!(
            check(ChatMode::Work, t(200), &posts, 0, false),
            Err(SilenceReason::AntiSpam)
        );
    }

    #[test]
    fn next_open_at_is_when_check_first_passes() {
        assert_eq!(next_open_at(ChatMode::Work, t(0), &[]), t(0));
        assert_eq!(next_open_at(ChatMode::Work, t(10), &[t(0)]), t(60));
        assert_eq!(next_open_at(ChatMode::Work, t(200), &[t(0)]), t(200));
        // Two in the window: open once the older leaves it (t(0) + 5 min).
        assert_eq!(
            next_open_at(ChatMode::Work, t(120), &[t(100), t(0)]),
            t(300)
        );
        let posts = [t(0), t(40), t(80), t(120), t(500)];
        let open = next_open_at(ChatMode::Casual, t(510), &posts);
        // Four in the window: open once the 4th newest (t(40)) ages out.
        assert_eq!(open, t(640));
        assert_eq!(
            check(
                ChatMode::Casual,
                open - TimeDelta::seconds(1),
                &posts,
                0,
                false
            ),
            Err(SilenceReason::AntiSpam)
        );
        assert_eq!(check(ChatMode::Casual, open, &posts, 0, false), Ok(()));
    }
}
