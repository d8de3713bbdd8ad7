//! Anti-echo layer 2 (SPEC §4): ten perspective seeds, one drawn at random for each
//! thought. Even two employees with the same archetype then approach a message from
//! different angles, which breaks the "+1, I agree" echo of same-model agents.

use rand::Rng;

/// One perspective, as injected into the prompt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seed {
    /// Stable name, stored with the thought for the boss's inner-thoughts view.
    pub id: &'static str,
    /// The instruction, addressed to the employee.
    pub instruction: &'static str,
}

/// The ten seeds of SPEC §4, in its order.
pub const SEEDS: [Seed; 10] = [
    Seed {
        id: "personal_experience",
        instruction: "If you speak, speak from your own experience.",
    },
    Seed {
        id: "different_view",
        instruction: "If you speak, offer an opposite or at least a different view.",
    },
    Seed {
        id: "story_or_joke",
        instruction: "If you speak, tell a short related story or joke.",
    },
    Seed {
        id: "ask_detail",
        instruction: "If you speak, ask about one specific detail.",
    },
    Seed {
        id: "steer_topic",
        instruction: "If you speak, steer the topic somewhere new but related.",
    },
    Seed {
        id: "tease",
        instruction: "If you speak, tease someone a little, kindly.",
    },
    Seed {
        id: "true_feelings",
        instruction: "If you speak, say how you really feel about this.",
    },
    Seed {
        id: "related_fact",
        instruction: "If you speak, share a related fact.",
    },
    Seed {
        id: "similar_case",
        instruction: "If you speak, recall a similar case and what happened.",
    },
    Seed {
        id: "challenge",
        instruction: "If you speak, question or challenge what was just said.",
    },
];

/// A seed drawn uniformly.
pub fn pick(rng: &mut impl Rng) -> &'static Seed {
    &SEEDS[rng.random_range(0..SEEDS.len())]
}

/// The seed with this id, for replaying a stored thought.
pub fn by_id(id: &str) -> Option<&'static Seed> {
    SEEDS.iter().find(|s| s.id == id)
}

#[cfg(test)]
mod tests {
    use std::collections::{HashMap, HashSet};

    use rand::SeedableRng;
    use rand::rngs::StdRng;

    use super::*;

    #[test]
    fn ten_distinct_seeds() {
        let ids: HashSet<_> = SEEDS.iter().map(|s| s.id).collect();
        let texts: HashSet<_> = SEEDS.iter().map(|s| s.instruction).collect();
        assert_eq!((ids.len(), texts.len()), (10, 10));
        for s in &SEEDS {
            assert_eq!(by_id(s.id), Some(s));
            assert!(s.id.chars().all(|c| c.is_ascii_lowercase() || c == '_'));
        }
        assert_eq!(by_id("nope"), None);
    }

    #[test]
    fn picks_cover_every_seed_roughly_evenly() {
        let mut rng = StdRng::seed_from_u64(11);
        let mut counts: HashMap<&str, usize> = HashMap::new();
        for _ in 0..10_000 {
            *counts.entry(pick(&mut rng).id).or_default() += 1;
        }
        assert_eq!(counts.len(), 10);
        assert!(
            counts.values().all(|&n| (800..1200).contains(&n)),
            "{counts:?}"
        );
    }

    #[test]
    fn the_same_seed_gives_the_same_picks() {
        let a: Vec<_> = {
            let mut r = StdRng::seed_from_u64(5);
            (0..20).map(|_| pick(&mut r).id).collect()
        };
        let mut r = StdRng::seed_from_u64(5);
        let b: Vec<_> = (0..20).map(|_| pick(&mut r).id).collect();
        assert_eq!(a, b);
    }
}
