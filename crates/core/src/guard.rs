//! Guard rails against loops (SPEC §10): how many steps one boss instruction may take,
//! how often one task may be redone, and when a new attempt is no progress. The numbers
//! and the judgements live here; the engine and the review flow apply them.

use crate::chat::gates::SilenceReason;
use crate::mind::memory_rules::similarity;

/// Steps one boss instruction may take before it is stopped and handed to the boss. A
/// step is a thought that spoke, or that wanted to and was held back by the engine's own
/// checks ([`HeldBack`]): it cost a model call all the same.
pub const MAX_TRACE_STEPS: u32 = 15;
/// Held-back steps in a row that stop an instruction early: its employees are going
/// round in circles (the same line again, or lines in someone else's name), and more
/// thoughts would only cost more.
pub const MAX_HELD_BACK_IN_A_ROW: usize = 4;
/// How many times one task may be redone (a rework after a rejected review is a re-run).
pub const MAX_RERUNS: i32 = 3;
/// A new attempt at least this similar to the previous one is no progress.
pub const NO_PROGRESS_SIMILARITY: f64 = 0.9;

/// Why a thought that wanted to speak was held back by the engine's own checks (not by
/// a chat's pacing gates, which only make it wait): the stored [`SilenceReason`]s
/// that count as steps of an instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HeldBack {
    /// Every line repeated what the speaker had just said (the repetition filter).
    Repetition,
    /// Every line spoke as someone else, even after one regeneration (the identity check).
    Identity,
}

impl HeldBack {
    /// The engine's own reasons, as a thought row stores them.
    pub const REASONS: [SilenceReason; 2] = [SilenceReason::Repetition, SilenceReason::Identity];

    /// The held-back reason behind a stored silence; `None` for a gate or a failure.
    pub fn of(reason: SilenceReason) -> Option<Self> {
        match reason {
            SilenceReason::Repetition => Some(HeldBack::Repetition),
            SilenceReason::Identity => Some(HeldBack::Identity),
            _ => None,
        }
    }
}

/// Whether a thought is a step of its instruction: it spoke, or was held back.
pub fn is_step(spoke: bool, silenced_by: Option<SilenceReason>) -> bool {
    spoke || silenced_by.and_then(HeldBack::of).is_some()
}

/// Why an instruction is stopped.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TraceStop {
    /// It took its [`MAX_TRACE_STEPS`].
    Steps,
    /// Its last [`MAX_HELD_BACK_IN_A_ROW`] steps were all held back, the last for this.
    HeldBack(HeldBack),
}

/// Whether an instruction whose steps so far are `steps` (oldest first: `None` for one
/// that spoke, else why it was held back) must stop.
pub fn judge_trace(steps: &[Option<HeldBack>], max_steps: u32) -> Option<TraceStop> {
    let run = steps.iter().rev().take_while(|s| s.is_some()).count();
    if run >= MAX_HELD_BACK_IN_A_ROW {
        return steps.last().copied().flatten().map(TraceStop::HeldBack);
    }
    (steps.len() >= max_steps as usize).then_some(TraceStop::Steps)
}

/// What to do with a task's new attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rerun {
    /// Go on: review it (again).
    Proceed,
    /// The attempt says what the previous one said: stop retrying and tell the boss.
    NoProgress,
}

/// Judges attempt `next` against the `previous` one (`None` for a first attempt).
pub fn judge_attempt(previous: Option<&str>, next: &str) -> Rerun {
    match previous {
        Some(prev) if similarity(prev, next) >= NO_PROGRESS_SIMILARITY => Rerun::NoProgress,
        _ => Rerun::Proceed,
    }
}

/// Whether a task at `attempt` (0 = first try) may be redone once more.
pub fn may_rerun(attempt: i32) -> bool {
    attempt < MAX_RERUNS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_near_identical_attempt_is_no_progress() {
        let prev = "Benchmarks show GraphQL adds 12 ms per request on our API.";
        let same = "Benchmarks show GraphQL adds 12 ms per request on our API!";
        assert_eq!(judge_attempt(Some(prev), same), Rerun::NoProgress);
        assert_eq!(judge_attempt(Some(prev), prev), Rerun::NoProgress);
    }

    #[test]
    fn a_changed_attempt_or_a_first_one_proceeds() {
        let prev = "Benchmarks show GraphQL adds 12 ms per request on our API.";
        let new = "Reran with caching: GraphQL is now within 2 ms of REST; details attached.";
        assert_eq!(judge_attempt(Some(prev), new), Rerun::Proceed);
        assert_eq!(judge_attempt(None, prev), Rerun::Proceed);
    }

    #[test]
    fn chinese_attempts_are_judged_the_same_way() {
        let prev = "压测结果：GraphQL 每个请求多 12 毫秒。";
        assert_eq!(
            judge_attempt(Some(prev), "压测结果：GraphQL 每个请求多12毫秒"),
            Rerun::NoProgress
        );
        assert_eq!(
            judge_attempt(
                Some(prev),
                "加了缓存以后两者差距不到 2 毫秒，建议用 GraphQL。"
            ),
            Rerun::Proceed
        );
    }

    #[test]
    fn held_back_thoughts_are_steps_and_a_run_of_them_stops_the_instruction() {
        assert!(is_step(true, None));
        assert!(is_step(false, Some(SilenceReason::Repetition)));
        assert!(is_step(false, Some(SilenceReason::Identity)));
        assert!(!is_step(false, Some(SilenceReason::Saturation)));
        assert!(!is_step(false, None));
        let rep = Some(HeldBack::Repetition);
        let id = Some(HeldBack::Identity);
        assert_eq!(judge_trace(&[None, rep, rep, rep], 15), None);
        assert_eq!(
            judge_trace(&[None, rep, rep, id, rep], 15),
            Some(TraceStop::HeldBack(HeldBack::Repetition))
        );
        assert_eq!(
            judge_trace(&[rep, rep, rep, None], 15),
            None,
            "a spoken line breaks the run"
        );
        assert_eq!(judge_trace(&[None; 15], 15), Some(TraceStop::Steps));
        assert_eq!(judge_trace(&[None; 14], 15), None);
    }

    #[test]
    fn a_task_is_redone_at_most_three_times() {
        assert!(may_rerun(0));
        assert!(may_rerun(2));
        assert!(!may_rerun(3));
        assert!(!may_rerun(4));
    }
}
