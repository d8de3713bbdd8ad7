//! How far one interaction may change an opinion (SPEC §5 relationships). The model
//! proposes a new affinity and impression; these rules bound the step so one heated
//! exchange cannot turn a friend into an enemy, and keep impressions short enough to
//! inject for every colleague present in a chat.

/// The lowest affinity.
pub const AFFINITY_MIN: i32 = 1;
/// The highest affinity.
pub const AFFINITY_MAX: i32 = 100;
/// A stranger's affinity, and what a reset by the boss returns to.
pub const AFFINITY_DEFAULT: i32 = 50;
/// The most one interaction can move affinity.
pub const MAX_AFFINITY_STEP: i32 = 15;
/// The longest impression kept, in characters (not bytes: impressions are often Chinese).
pub const IMPRESSION_MAX_CHARS: usize = 200;

/// The affinity after an interaction: toward `proposed`, by at most [`MAX_AFFINITY_STEP`],
/// within [`AFFINITY_MIN`]..=[`AFFINITY_MAX`]. Out-of-range values (a model answering 500
/// or −20) are clamped first, so they count as the scale's end, not as a huge step.
pub fn next_affinity(current: i32, proposed: i32) -> i32 {
    let current = current.clamp(AFFINITY_MIN, AFFINITY_MAX);
    let proposed = proposed.clamp(AFFINITY_MIN, AFFINITY_MAX);
    let step = (proposed - current).clamp(-MAX_AFFINITY_STEP, MAX_AFFINITY_STEP);
    (current + step).clamp(AFFINITY_MIN, AFFINITY_MAX)
}

/// An impression as stored: trimmed, whitespace collapsed to single spaces, and at most
/// [`IMPRESSION_MAX_CHARS`] characters, ending with "…" when it had to be cut.
pub fn clip_impression(s: &str) -> String {
    let collapsed = s.split_whitespace().collect::<Vec<_>>().join(" ");
    if collapsed.chars().count() <= IMPRESSION_MAX_CHARS {
        return collapsed;
    }
    let mut cut: String = collapsed.chars().take(IMPRESSION_MAX_CHARS - 1).collect();
    // Don't leave "word …" with a dangling space before the ellipsis.
    cut.truncate(cut.trim_end().len());
    cut.push('…');
    cut
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_changes_apply_in_full() {
        assert_eq!(next_affinity(50, 55), 55);
        assert_eq!(next_affinity(50, 42), 42);
        assert_eq!(next_affinity(50, 50), 50);
        assert_eq!(next_affinity(50, 65), 65);
        assert_eq!(next_affinity(50, 35), 35);
    }

    #[test]
    fn big_changes_are_capped_at_fifteen() {
        assert_eq!(next_affinity(50, 90), 65);
        assert_eq!(next_affinity(50, 5), 35);
        assert_eq!(next_affinity(20, 100), 35);
    }

    #[test]
    fn the_scale_is_clamped_at_both_ends() {
        assert_eq!(next_affinity(95, 100), 100);
        assert_eq!(next_affinity(100, 100), 100);
        assert_eq!(next_affinity(5, 1), 1);
        assert_eq!(next_affinity(1, 1), 1);
    }

    #[test]
    fn out_of_range_values_count_as_the_ends() {
        assert_eq!(next_affinity(50, 500), 65);
        assert_eq!(next_affinity(95, 500), 100);
        assert_eq!(next_affinity(50, -20), 35);
        assert_eq!(next_affinity(10, -20), 1);
        assert_eq!(next_affinity(0, 50), 16);
        assert_eq!(next_affinity(300, 50), 85);
        assert_eq!(next_affinity(i32::MIN, i32::MAX), 16);
        assert_eq!(next_affinity(i32::MAX, i32::MIN), 85);
    }

    #[test]
    fn impressions_are_tidied() {
        assert_eq!(
            clip_impression("  reliable,\n\n  but   slow  "),
            "reliable, but slow"
        );
        assert_eq!(clip_impression("   "), "");
    }

    #[test]
    fn long_impressions_are_cut_to_200_characters() {
        let s = clip_impression(&"ab ".repeat(200));
        assert_eq!(s.chars().count(), 200);
        assert!(s.ends_with("ab a…"));
        // A cut right after a space drops the space rather than end in " …".
        let s = clip_impression(&format!("{} {}", "x".repeat(198), "y".repeat(50)));
        assert_eq!(s.chars().count(), 199);
        assert!(s.ends_with("x…"));
        let exact = "x".repeat(200);
        assert_eq!(clip_impression(&exact), exact);
        let over = clip_impression(&"x".repeat(201));
        assert_eq!(over.chars().count(), 200);
        assert!(over.ends_with("x…"));
    }

    #[test]
    fn chinese_impressions_are_cut_by_character() {
        let s = "做事认真，但是开会总迟到。".repeat(30);
        let c = clip_impression(&s);
        assert_eq!(c.chars().count(), 200);
        assert!(c.ends_with('…'));
        assert!(c.starts_with("做事认真"));
        assert!(c.len() > 200, "bytes exceed chars for CJK: {}", c.len());
        let short = "很靠谱的同事";
        assert_eq!(clip_impression(short), short);
    }
}
