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

/// Whether `text` names `name` without an `@`: the full name, or a Latin first name as a
/// whole word ("Bob", not "bobcat"); a Chinese name anywhere, since Chinese puts no
/// spaces around names ("李娜，进度怎么样？").
pub fn names(text: &str, name: &str) -> bool {
    let lower = text.to_lowercase();
    candidates(name).into_iter().any(|c| {
        let c = c.to_lowercase();
        lower.match_indices(&c).any(|(i, _)| {
            starts_cleanly(&lower[..i], &c) && ends_cleanly(&lower[i + c.len()..], &c)
        })
    })
}

/// The members a boss message speaks to: those it @mentions (`mentioned`, as stored with
/// the message) and those it names. A name inside a longer member's name that the text
/// also holds ("张伟" in "张伟明") is that longer name, not a second person.
pub fn addressed(text: &str, mentioned: &[i32], members: &[(i32, String)]) -> Vec<i32> {
    let named: Vec<&(i32, String)> = members.iter().filter(|(_, n)| names(text, n)).collect();
    let mut out: Vec<i32> = mentioned
        .iter()
        .copied()
        .filter(|id| members.iter().any(|(m, _)| m == id))
        .collect();
    for (id, name) in &named {
        let inside_longer = named.iter().any(|(other, longer)| {
            other != id && longer.len() > name.len() && longer.contains(name.as_str())
        });
        if !inside_longer && !out.contains(id) {
            out.push(*id);
        }
    }
    out
}

/// A Latin name must not continue a word before it ("Malice" does not name "Alice").
fn starts_cleanly(before: &str, name: &str) -> bool {
    let latin = name
        .chars()
        .next()
        .is_some_and(|c| c.is_ascii_alphanumeric());
    !latin
        || !before
            .chars()
            .next_back()
            .is_some_and(|c| c.is_alphanumeric() && c.is_ascii())
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
    fn a_name_without_an_at_is_matched_as_a_word_or_in_chinese_anywhere() {
        assert!(names("Alice, what's the status?", "Alice Chen"));
        assert!(names("what does alice chen think", "Alice Chen"));
        assert!(!names("Malice in the logs", "Alice Chen"));
        assert!(!names("Alicia, look", "Alice Chen"));
        assert!(names("李娜，校准进度怎么样？", "李娜"));
        assert!(!names("Alice, what's up?", "Bob"));
    }

    #[test]
    fn a_message_addresses_who_it_mentions_and_who_it_names() {
        let team = team();
        assert_eq!(addressed("Bob, and @Alice too", &[1], &team), vec![1, 5]);
        assert_eq!(addressed("张伟明，你来说", &[], &team), vec![4]);
        assert_eq!(addressed("Team, let's plan", &[], &team), Vec::<i32>::new());
        // A mention of someone who is not a member here wakes nobody.
        assert_eq!(addressed("hi", &[99], &team), Vec::<i32>::new());
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
