//! When an employee next looks at its chats (SPEC §4): the nudge delays of the chain
//! reaction and the adaptive polling formula. Pure numbers, so the engine and the
//! scheduler stay free of magic constants and tests can pin the SPEC's worked examples.
//!
//! An employee who is interested and finds the topic fresh comes back within seconds; a
//! bored one whose topic is exhausted comes back after minutes. That spacing is what keeps
//! a quiet company cheap.

use chrono::TimeDelta;
use rand::Rng;
use serde::{Deserialize, Serialize};

/// Shortest poll delay, in seconds.
pub const POLL_MIN_SECS: f64 = 10.0;
/// Longest poll delay, in seconds.
pub const POLL_MAX_SECS: f64 = 300.0;
/// Relative jitter of a poll delay (±10 %), so employees polled together drift apart.
pub const JITTER: f64 = 0.10;

/// How an employee feels about a chat after a thought: interest 1–10 (10 = keen) and the
/// topic's saturation 0–10 (10 = nothing new to say). Resolved once, where the model's
/// answer is read; the gates, the thought's row and the next poll take it as it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Mood {
    interest: u8,
    saturation: u8,
}

impl Mood {
    /// Interest clamped to 1..=10, saturation to 0..=10.
    pub fn new(interest: u8, saturation: u8) -> Self {
        Self {
            interest: interest.clamp(1, 10),
            saturation: saturation.min(10),
        }
    }

    /// The mood when the model says nothing about it: a DM is addressed to the employee,
    /// so it stays attentive; a group starts neutral and unsaturated.
    pub fn default_for(is_dm: bool) -> Self {
        if is_dm {
            Self::new(7, 3)
        } else {
            Self::new(5, 0)
        }
    }

    /// The model's 1–10 scores, rounded and clamped; a missing or non-numeric one is the
    /// chat's default.
    pub fn from_answer(interest: Option<f64>, saturation: Option<f64>, is_dm: bool) -> Self {
        let score = |v: Option<f64>| {
            v.filter(|x| x.is_finite())
                .map(|x| x.round().clamp(1.0, 10.0) as u8)
        };
        let default = Self::default_for(is_dm);
        Self::new(
            score(interest).unwrap_or(default.interest),
            score(saturation).unwrap_or(default.saturation),
        )
    }

    pub fn interest(self) -> u8 {
        self.interest
    }

    pub fn saturation(self) -> u8 {
        self.saturation
    }
}

/// The poll delay in seconds. `jitter` is clamped to [-1, 1] (it scales the ±[`JITTER`]
/// band); the result stays in [[`POLL_MIN_SECS`], [`POLL_MAX_SECS`]].
pub fn poll_delay_secs(mood: Mood, jitter: f64) -> f64 {
    let interest = f64::from(mood.interest);
    let saturation = f64::from(mood.saturation);
    // A NaN jitter (a broken random source) means "no jitter" rather than a NaN delay.
    let jitter = if jitter.is_nan() {
        0.0
    } else {
        jitter.clamp(-1.0, 1.0)
    };
    let interest_factor = (10.0 - interest) / 9.0;
    let saturation_factor = saturation / 10.0;
    let base = POLL_MIN_SECS
        + (0.6 * interest_factor + 0.4 * saturation_factor) * (POLL_MAX_SECS - POLL_MIN_SECS);
    (base * (1.0 + JITTER * jitter)).clamp(POLL_MIN_SECS, POLL_MAX_SECS)
}

/// The next poll delay after a thought that left this mood, jittered.
pub fn poll_delay(mood: Mood, rng: &mut impl Rng) -> TimeDelta {
    let jitter = rng.random_range(-1.0..=1.0);
    secs_to_delta(poll_delay_secs(mood, jitter))
}

/// Nudge and absorb delays in seconds, each a (low, high) uniform range. Configurable so
/// a demo can run faster than the SPEC's office pace.
#[derive(Clone, Debug, PartialEq)]
pub struct NudgeConfig {
    /// After the boss posts: employees react quickly (SPEC: 1–5 s).
    pub after_boss: (f64, f64),
    /// After an employee posts: colleagues take their time (SPEC: 5–60 s).
    pub after_employee: (f64, f64),
    /// A woken employee waits this long to absorb further messages (SPEC: 2–8 s).
    pub absorb: (f64, f64),
}

impl Default for NudgeConfig {
    fn default() -> Self {
        Self {
            after_boss: (1.0, 5.0),
            after_employee: (5.0, 60.0),
            absorb: (2.0, 8.0),
        }
    }
}

impl NudgeConfig {
    /// How long after a message a member is nudged.
    pub fn nudge_delay(&self, from_boss: bool, rng: &mut impl Rng) -> TimeDelta {
        let range = if from_boss {
            self.after_boss
        } else {
            self.after_employee
        };
        secs_to_delta(uniform(range, rng))
    }

    /// The quickest a member hears the boss: the shortest nudge and the shortest wait
    /// to absorb what follows. The one the boss speaks to is woken this fast, so they
    /// answer before their colleagues (who wait for that answer).
    pub fn shortest_after_boss(&self) -> TimeDelta {
        secs_to_delta(bounds(self.after_boss).0 + bounds(self.absorb).0)
    }

    /// How long a woken employee waits before thinking, so one thought answers the
    /// messages that arrive meanwhile.
    pub fn absorb_wait(&self, rng: &mut impl Rng) -> TimeDelta {
        secs_to_delta(uniform(self.absorb, rng))
    }
}

/// Longest delay a configured range may ask for: a typo must not park an employee forever.
const MAX_CONFIGURED_SECS: f64 = 86_400.0;

/// A uniform draw in the range, tolerating reversed, negative or non-finite bounds from a
/// hand-edited config instead of panicking in `random_range`.
fn uniform(range: (f64, f64), rng: &mut impl Rng) -> f64 {
    let (lo, hi) = bounds(range);
    if lo == hi {
        lo
    } else {
        rng.random_range(lo..=hi)
    }
}

/// A configured range as (low, high) within sane bounds.
fn bounds((a, b): (f64, f64)) -> (f64, f64) {
    let fix = |x: f64| {
        if x.is_nan() {
            0.0
        } else {
            x.clamp(0.0, MAX_CONFIGURED_SECS)
        }
    };
    let (a, b) = (fix(a), fix(b));
    if a <= b { (a, b) } else { (b, a) }
}

/// Seconds to a delta at millisecond precision (finer is meaningless for chat pacing).
fn secs_to_delta(secs: f64) -> TimeDelta {
    TimeDelta::milliseconds((secs * 1000.0).round() as i64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::SeedableRng;
    use rand::rngs::StdRng;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    #[test]
    fn the_formula_without_jitter() {
        // interest 10, saturation 0: nothing but MIN.
        assert!(close(poll_delay_secs(Mood::new(10, 0), 0.0), 10.0));
        // interest 1, saturation 10: factors 1 and 1 → MAX.
        assert!(close(poll_delay_secs(Mood::new(1, 10), 0.0), 300.0));
        // interest 5, saturation 0: 10 + 0.6·(5/9)·290.
        assert!(close(
            poll_delay_secs(Mood::new(5, 0), 0.0),
            10.0 + 0.6 * 5.0 / 9.0 * 290.0
        ));
        // interest 7, saturation 3: 10 + (0.6·3/9 + 0.4·0.3)·290 = 10 + 0.32·290.
        assert!(close(poll_delay_secs(Mood::new(7, 3), 0.0), 102.8));
        // interest 4, saturation 6: 10 + (0.4 + 0.24)·290.
        assert!(close(poll_delay_secs(Mood::new(4, 6), 0.0), 195.6));
    }

    #[test]
    fn spec_worked_examples() {
        for j in [-1.0, -0.5, 0.0, 0.5, 1.0] {
            // High interest, low saturation: ~10–15 s.
            let fast = poll_delay_secs(Mood::new(10, 0), j);
            assert!((10.0..=15.0).contains(&fast), "{fast}");
            // Low interest, high saturation: ~4–5 min.
            for (i, s) in [(1, 10), (2, 9), (1, 8)] {
                let slow = poll_delay_secs(Mood::new(i, s), j);
                assert!((240.0..=300.0).contains(&slow), "{i}/{s}: {slow}");
            }
        }
    }

    #[test]
    fn jitter_scales_by_ten_percent_and_is_clamped() {
        let base = poll_delay_secs(Mood::new(5, 5), 0.0);
        assert!(close(poll_delay_secs(Mood::new(5, 5), 1.0), base * 1.1));
        assert!(close(poll_delay_secs(Mood::new(5, 5), -1.0), base * 0.9));
        // Out-of-range jitter counts as the band's edge; NaN as none.
        assert!(close(poll_delay_secs(Mood::new(5, 5), 7.0), base * 1.1));
        assert!(close(poll_delay_secs(Mood::new(5, 5), -7.0), base * 0.9));
        assert!(close(poll_delay_secs(Mood::new(5, 5), f64::NAN), base));
        // The band never leaves [MIN, MAX].
        assert!(close(
            poll_delay_secs(Mood::new(10, 0), -1.0),
            POLL_MIN_SECS
        ));
        assert!(close(poll_delay_secs(Mood::new(1, 10), 1.0), POLL_MAX_SECS));
    }

    #[test]
    fn inputs_are_clamped() {
        assert_eq!(
            poll_delay_secs(Mood::new(0, 0), 0.0),
            poll_delay_secs(Mood::new(1, 0), 0.0)
        );
        assert_eq!(
            poll_delay_secs(Mood::new(200, 0), 0.0),
            poll_delay_secs(Mood::new(10, 0), 0.0)
        );
        assert_eq!(
            poll_delay_secs(Mood::new(5, 255), 0.0),
            poll_delay_secs(Mood::new(5, 10), 0.0)
        );
    }

    #[test]
    fn defaults_depend_on_the_chat() {
        assert_eq!(Mood::default_for(true), Mood::new(7, 3));
        assert_eq!(Mood::default_for(false), Mood::new(5, 0));
    }

    #[test]
    fn the_model_s_scores_are_rounded_and_clamped_once() {
        assert_eq!(
            Mood::from_answer(Some(14.0), Some(2.6), false),
            Mood::new(10, 3)
        );
        assert_eq!(
            Mood::from_answer(Some(-3.0), Some(0.0), false),
            Mood::new(1, 1)
        );
        assert_eq!(
            Mood::from_answer(Some(f64::NAN), Some(f64::INFINITY), true),
            Mood::default_for(true)
        );
    }

    #[test]
    fn sampled_delays_stay_in_the_jitter_band() {
        let mut rng = StdRng::seed_from_u64(42);
        for mood in [
            Mood::new(5, 5),
            Mood::default_for(true),
            Mood::default_for(false),
            Mood::new(10, 0),
            Mood::new(1, 10),
        ] {
            let base = poll_delay_secs(mood, 0.0);
            let (mut lo, mut hi) = (f64::MAX, f64::MIN);
            for _ in 0..10_000 {
                let d = poll_delay(mood, &mut rng).num_milliseconds() as f64 / 1000.0;
                assert!((POLL_MIN_SECS..=POLL_MAX_SECS).contains(&d), "{d}");
                assert!(
                    d >= base * 0.9 - 0.001 && d <= base * 1.1 + 0.001,
                    "{d} vs {base}"
                );
                lo = lo.min(d);
                hi = hi.max(d);
            }
            // The jitter is really applied (unless clamping eats the whole band).
            if base * 0.9 >= POLL_MIN_SECS && base * 1.1 <= POLL_MAX_SECS {
                assert!(hi - lo > base * 0.15, "{lo}..{hi} around {base}");
            }
        }
    }

    #[test]
    fn omitted_values_use_the_defaults() {
        let mut a = StdRng::seed_from_u64(1);
        let mut b = StdRng::seed_from_u64(1);
        assert_eq!(
            poll_delay(Mood::from_answer(None, None, true), &mut a),
            poll_delay(Mood::new(7, 3), &mut b)
        );
        assert_eq!(
            poll_delay(Mood::from_answer(None, Some(9.0), false), &mut a),
            poll_delay(Mood::new(5, 9), &mut b)
        );
    }

    #[test]
    fn nudge_delays_follow_the_spec_ranges() {
        let cfg = NudgeConfig::default();
        let mut rng = StdRng::seed_from_u64(3);
        let secs = |d: TimeDelta| d.num_milliseconds() as f64 / 1000.0;
        for _ in 0..5_000 {
            assert!((1.0..=5.0).contains(&secs(cfg.nudge_delay(true, &mut rng))));
            assert!((5.0..=60.0).contains(&secs(cfg.nudge_delay(false, &mut rng))));
            assert!((2.0..=8.0).contains(&secs(cfg.absorb_wait(&mut rng))));
        }
    }

    #[test]
    fn a_broken_config_does_not_panic() {
        let cfg = NudgeConfig {
            after_boss: (5.0, 1.0),
            after_employee: (f64::NAN, -3.0),
            absorb: (4.0, 4.0),
        };
        let mut rng = StdRng::seed_from_u64(9);
        for _ in 0..100 {
            let d = cfg.nudge_delay(true, &mut rng);
            assert!(d >= TimeDelta::seconds(1) && d <= TimeDelta::seconds(5));
            assert_eq!(cfg.nudge_delay(false, &mut rng), TimeDelta::zero());
            assert_eq!(cfg.absorb_wait(&mut rng), TimeDelta::seconds(4));
        }
        let huge = NudgeConfig {
            after_boss: (f64::INFINITY, f64::INFINITY),
            ..NudgeConfig::default()
        };
        assert_eq!(huge.nudge_delay(true, &mut rng), TimeDelta::days(1));
    }
}
