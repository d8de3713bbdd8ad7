//! @mentions: who a message addresses. An @mention of an employee by the boss lifts the
//! saturation gate for that employee (SPEC §4), so matching must be exact enough never to
//! wake the wrong person: the longest member name (or first name) right after an `@`
//! wins, and a Latin name must end at a word boundary ("@Al" is not "@Alice").

/// Ids of the members mentioned in `text`, in order of first mention, without repeats.
pub fn find(text: &str, members: &[(i32, String)]) -> Vec<i32> {
    let mut out = Vec::new();
    for (at, _) in text.match_indices(['@', '＠']) {
        let rest = &text[at..];
        let rest = rest
            .strip_prefix('@')
            .or_else(|| rest.strip_prefix('＠'))
            .unwrap_or(rest);
        let lower = rest.to_lowercase();
        let mut best: Option<(usize, i32)> = None;
        for (id, name) in members {
            for candidate in candidates(name) {
                let c = candidate.to_lowercase();
                if lower.starts_with(&c) && ends_cleanly(&lower[c.len()..], &c) {
                    let len = c.chars().count();
                    if best.is_none_or(|(l, _)| len > l) {
                        best = Some((len, *id));
                    }
                }
            }
        }
        if let Some((_, id)) = best
            && !out.contains(&id)
        {
            out.push(id);
        }
    }
    out
}

/// The full name, and its first word when the name has several ("Alice Chen" → "Alice").
fn candidates(name: &str) -> Vec<&str> {
    let name = name.trim();
    let mut out = vec![name];
    if let Some(first) = name.split_whitespace().next()
        && first != name
    {
        out.push(first);
    }
    out.retain(|c| !c.is_empty());
    out
}

/// A Latin name must not run on into more letters ("@Alicia" is not "@Ali"); Chinese
/// names are written without spaces before the next word, so any character may follow.
fn ends_cleanly(after: &str, name: &str) -> bool {
    let latin = name
        .chars()
        .last()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    !latin
        || !after
            .chars()
            .next()
            .is_some_and(|c| c.is_alphanumeric() && c.is_ascii())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn team() -> Vec<(i32, String)> {
        vec![
            (1, "Alice Chen".into()),
            (2, "Al".into()),
            (3, "张伟".into()),
            (4, "张伟明".into()),
            (5, "Bob".into()),
        ]
    }

    #[test]
    fn finds_full_and_first_names_at_word_boundaries() {
        assert_eq!(find("@Alice can you look?", &team()), vec![1]);
        assert_eq!(find("@alice chen, please", &team()), vec![1]);
        assert_eq!(find("@Al, and @Bob", &team()), vec![2, 5]);
        assert_eq!(find("@Alicia hi", &team()), Vec::<i32>::new());
        assert_eq!(find("email me at a@b.com", &team()), Vec::<i32>::new());
    }

    #[test]
    fn chinese_names_take_the_longest_match_without_a_space() {
        assert_eq!(find("@张伟你看一下", &team()), vec![3]);
        assert_eq!(find("@张伟明 你看一下", &team()), vec![4]);
        assert_eq!(find("＠张伟 和 @张伟", &team()), vec![3]);
    }
}
