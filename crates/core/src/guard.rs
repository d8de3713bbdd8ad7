//! Guard rails against loops (SPEC §10): how many steps one boss instruction may take,
//! how often one task may be redone, and when a new attempt is no progress. The numbers
//! and the judgements live here; the engine and the review flow apply them.

use crate::mind::memory_rules::similarity;

/// Thoughts that speak under one boss instruction before it is stopped and handed to
/// the boss.
pub const MAX_TRACE_STEPS: u32 = 15;
/// How many times one task may be redone (a rework after a rejected review is a re-run).
pub const MAX_RERUNS: i32 = 3;
/// A new attempt at least this similar to the previous one is no progress.
pub const NO_PROGRESS_SIMILARITY: f64 = 0.9;

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
    fn a_task_is_redone_at_most_three_times() {
        assert!(may_rerun(0));
        assert!(may_rerun(2));
        assert!(!may_rerun(3));
        assert!(!may_rerun(4));
    }
}
