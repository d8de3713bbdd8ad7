//! Stamina (SPEC §7): how worn out an employee is, from what happened to its work. It
//! changes what the prompt asks for — nothing in green, thrift in yellow, a forced
//! reflection in red — so an agent stuck in a failing loop is pushed to try something
//! else instead of burning budget on the same attempt.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// The lowest value of each stamina dimension.
pub const STAMINA_MIN: f64 = 0.0;
/// The highest value of each stamina dimension.
pub const STAMINA_MAX: f64 = 100.0;

/// Patience, fatigue and stress, each kept in 0..=100.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct Stamina {
    pub patience: f64,
    pub fatigue: f64,
    pub stress: f64,
}

impl Default for Stamina {
    /// A new hire: comfort 80, green.
    fn default() -> Self {
        Self {
            patience: 90.0,
            fatigue: 10.0,
            stress: 10.0,
        }
    }
}

/// The band comfort falls in; each band changes the prompt (see [`Stamina::prompt_note`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum Zone {
    /// comfort > 70: work normally.
    Green,
    /// 40 ≤ comfort ≤ 70: be cost-aware.
    Yellow,
    /// comfort < 40: stop and reflect.
    Red,
}

/// What happened to the employee's work.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StaminaEvent {
    /// One of its tasks was resolved.
    TaskResolved,
    /// One of its tasks failed.
    TaskFailed,
    /// Its work passed a review.
    ReviewPassed,
    /// The `nth` rejection of the same piece of work (1 = first).
    ReviewRejected { nth: u32 },
    /// A reply that repeats the employee's own recent message: a sign of going in circles.
    Repetition,
}

impl StaminaEvent {
    /// (patience, fatigue, stress) deltas.
    pub fn deltas(self) -> (f64, f64, f64) {
        match self {
            StaminaEvent::TaskResolved => (20.0, -15.0, -15.0),
            StaminaEvent::TaskFailed => (-10.0, 10.0, 25.0),
            StaminaEvent::ReviewPassed => (15.0, -10.0, -20.0),
            StaminaEvent::ReviewRejected { nth } if nth >= 3 => (-30.0, 15.0, 30.0),
            // SPEC §7 only prices the third rejection and later. One or two rejections are
            // normal review, so they sting mildly; the harsh row is for work that keeps
            // coming back. (nth 0 is treated as the first.)
            StaminaEvent::ReviewRejected { .. } => (-5.0, 5.0, 10.0),
            // Our addition: repeating oneself wears on patience a little and tires a lot,
            // so a looping employee drifts toward the reflection prompt.
            StaminaEvent::Repetition => (-5.0, 10.0, 5.0),
        }
    }
}

/// The yellow-zone instruction: same work, fewer tokens.
const YELLOW_NOTE: &str = "You are getting tired. Be cost-aware: keep replies short, \
avoid unnecessary model calls and chatter, and prefer finishing work over discussing it.";

/// The red-zone instruction (SPEC §7's reflection prompt).
const RED_NOTE: &str = "Stop and reflect: what have you been doing that doesn't work, why, \
and what entirely different approach should you try? Put this reflection in innerThoughts \
and act on the new approach.";

impl Stamina {
    /// A stamina with each value clamped to 0..=100.
    pub fn new(patience: f64, fatigue: f64, stress: f64) -> Self {
        let mut s = Self {
            patience,
            fatigue,
            stress,
        };
        s.clamp();
        s
    }

    /// `patience − (fatigue·0.4 + stress·0.6)`, between −100 and 100.
    pub fn comfort(&self) -> f64 {
        self.patience - (self.fatigue * 0.4 + self.stress * 0.6)
    }

    /// green > 70, yellow 40..=70, red < 40.
    pub fn zone(&self) -> Zone {
        let c = self.comfort();
        if c > 70.0 {
            Zone::Green
        } else if c >= 40.0 {
            Zone::Yellow
        } else {
            Zone::Red
        }
    }

    /// Applies an event's deltas (SPEC §7 table), then clamps.
    pub fn apply(&mut self, ev: StaminaEvent) {
        let (p, f, s) = ev.deltas();
        self.patience += p;
        self.fatigue += f;
        self.stress += s;
        self.clamp();
    }

    /// The instruction this zone adds to the prompt: none in green.
    pub fn prompt_note(&self) -> Option<&'static str> {
        match self.zone() {
            Zone::Green => None,
            Zone::Yellow => Some(YELLOW_NOTE),
            Zone::Red => Some(RED_NOTE),
        }
    }

    fn clamp(&mut self) {
        for v in [&mut self.patience, &mut self.fatigue, &mut self.stress] {
            // A NaN (from a corrupted row) would poison every later comparison; reset it
            // to the middle rather than pretend it is an extreme.
            *v = if v.is_nan() {
                (STAMINA_MIN + STAMINA_MAX) / 2.0
            } else {
                v.clamp(STAMINA_MIN, STAMINA_MAX)
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64) -> bool {
        (a - b).abs() < 1e-9
    }

    /// A stamina with the given comfort (fatigue and stress at 0).
    fn with_comfort(c: f64) -> Stamina {
        Stamina {
            patience: c,
            fatigue: 0.0,
            stress: 0.0,
        }
    }

    #[test]
    fn the_default_is_a_comfortable_green() {
        let s = Stamina::default();
        assert!(close(s.comfort(), 80.0));
        assert_eq!(s.zone(), Zone::Green);
        assert_eq!(s.prompt_note(), None);
    }

    #[test]
    fn comfort_formula() {
        let s = Stamina::new(60.0, 50.0, 20.0);
        assert!(close(s.comfort(), 60.0 - (20.0 + 12.0)));
        assert!(close(Stamina::new(0.0, 100.0, 100.0).comfort(), -100.0));
        assert!(close(Stamina::new(100.0, 0.0, 0.0).comfort(), 100.0));
    }

    #[test]
    fn zone_boundaries() {
        assert_eq!(with_comfort(70.1).zone(), Zone::Green);
        assert_eq!(with_comfort(70.0).zone(), Zone::Yellow);
        assert_eq!(with_comfort(55.0).zone(), Zone::Yellow);
        assert_eq!(with_comfort(40.0).zone(), Zone::Yellow);
        assert_eq!(with_comfort(39.9).zone(), Zone::Red);
        assert_eq!(Stamina::new(0.0, 100.0, 100.0).zone(), Zone::Red);
    }

    #[test]
    fn prompt_notes_per_zone() {
        assert_eq!(with_comfort(90.0).prompt_note(), None);
        let yellow = with_comfort(50.0).prompt_note().unwrap();
        assert!(yellow.contains("short") && yellow.contains("model calls"));
        let red = with_comfort(10.0).prompt_note().unwrap();
        assert!(red.starts_with(
            "Stop and reflect: what have you been doing that doesn't work, why, and what \
             entirely different approach should you try?"
        ));
        assert!(red.contains("innerThoughts"));
    }

    #[test]
    fn each_event_moves_by_its_table_row() {
        let mid = Stamina::new(50.0, 50.0, 50.0);
        for (ev, want) in [
            (StaminaEvent::TaskResolved, (70.0, 35.0, 35.0)),
            (StaminaEvent::TaskFailed, (40.0, 60.0, 75.0)),
            (StaminaEvent::ReviewPassed, (65.0, 40.0, 30.0)),
            (StaminaEvent::ReviewRejected { nth: 3 }, (20.0, 65.0, 80.0)),
            (StaminaEvent::ReviewRejected { nth: 7 }, (20.0, 65.0, 80.0)),
            (StaminaEvent::ReviewRejected { nth: 1 }, (45.0, 55.0, 60.0)),
            (StaminaEvent::ReviewRejected { nth: 2 }, (45.0, 55.0, 60.0)),
            (StaminaEvent::ReviewRejected { nth: 0 }, (45.0, 55.0, 60.0)),
            (StaminaEvent::Repetition, (45.0, 60.0, 55.0)),
        ] {
            let mut s = mid;
            s.apply(ev);
            assert_eq!((s.patience, s.fatigue, s.stress), want, "{ev:?}");
        }
    }

    #[test]
    fn values_are_clamped_after_each_event() {
        let mut s = Stamina::default();
        for _ in 0..10 {
            s.apply(StaminaEvent::TaskResolved);
        }
        assert_eq!((s.patience, s.fatigue, s.stress), (100.0, 0.0, 0.0));
        for _ in 0..10 {
            s.apply(StaminaEvent::ReviewRejected { nth: 5 });
        }
        assert_eq!((s.patience, s.fatigue, s.stress), (0.0, 100.0, 100.0));
        // Clamped per event, not at the end: one resolution from the floor counts fully.
        s.apply(StaminaEvent::TaskResolved);
        assert_eq!((s.patience, s.fatigue, s.stress), (20.0, 85.0, 85.0));
        assert_eq!(
            Stamina::new(-5.0, 150.0, f64::NAN),
            Stamina::new(0.0, 100.0, 50.0)
        );
    }

    #[test]
    fn repeated_rejections_escalate_to_red() {
        let mut s = Stamina::default();
        for nth in 1..=2 {
            s.apply(StaminaEvent::ReviewRejected { nth });
        }
        // Two rejections: still workable.
        assert_ne!(s.zone(), Zone::Red);
        s.apply(StaminaEvent::ReviewRejected { nth: 3 });
        assert_eq!(s.zone(), Zone::Red);
    }

    #[test]
    fn serializes_in_camel_case_and_zones_in_snake_case() {
        let v = serde_json::to_value(Stamina::default()).unwrap();
        assert_eq!(
            v,
            serde_json::json!({"patience": 90.0, "fatigue": 10.0, "stress": 10.0})
        );
        for (z, name) in [
            (Zone::Green, "green"),
            (Zone::Yellow, "yellow"),
            (Zone::Red, "red"),
        ] {
            assert_eq!(serde_json::to_value(z).unwrap(), name);
        }
    }
}
