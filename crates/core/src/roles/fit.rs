//! Which card fits the boss's words best ("hire a growth hacker into Marketing",
//! "给市场部招一个增长黑客"): the words of the message are weighed against each card's
//! name (heavily) and description (lightly). English is compared word by word, Chinese
//! by pairs of characters, since Chinese has no spaces between words. The words that
//! matched are kept: they are the "why" the secretary shows on its card.

use super::library::LibraryCard;

/// A word of the card's name counts this much more than one of its description.
const NAME_WEIGHT: u32 = 3;
/// Below this a card does not fit: one name word, or three description words.
const MIN_SCORE: u32 = 3;
/// Words of a hire request that say nothing about the role.
#[rustfmt::skip]
const STOP_WORDS: &[&str] = &[
    "hire", "hiring", "recruit", "need", "needs", "want", "get", "find", "bring", "add",
    "the", "and", "for", "into", "with", "our", "new", "one", "two", "three", "someone",
    "who", "can", "could", "please", "team", "department", "named", "called", "more",
    "招聘", "招一", "一个", "一名", "一位", "招个", "需要", "部门",
];

/// The best-fitting card and the words that made it fit.
#[derive(Clone, Debug, PartialEq)]
pub struct Fit<'a> {
    pub card: &'a LibraryCard,
    pub words: Vec<String>,
    pub score: u32,
}

/// The card of `cards` whose name and description fit `text` best, leaving out the
/// words of `exclude` (the department named, so "into Marketing" does not pick any
/// card that mentions marketing). `None` when no card fits well enough.
pub fn best_fit<'a>(text: &str, exclude: &[&str], cards: &'a [LibraryCard]) -> Option<Fit<'a>> {
    let asked = asked(text, exclude);
    let mut best: Option<Fit<'a>> = None;
    for card in cards {
        let fit = score(&asked, card);
        if fit.score >= MIN_SCORE && best.as_ref().is_none_or(|b| fit.score > b.score) {
            best = Some(fit);
        }
    }
    best
}

/// The words of `text` that can say something about a role: not a stop word, not a
/// word of `exclude`.
fn asked(text: &str, exclude: &[&str]) -> Vec<String> {
    let excluded: Vec<String> = exclude.iter().flat_map(|e| terms(e)).collect();
    terms(text)
        .into_iter()
        .filter(|t| !excluded.contains(t) && !STOP_WORDS.contains(&t.as_str()))
        .collect()
}

fn score<'a>(asked: &[String], card: &'a LibraryCard) -> Fit<'a> {
    let mut name = terms(&card.card.name);
    if let Some(zh) = &card.card.name_zh {
        name.extend(terms(zh));
    }
    let mut description = terms(&card.card.description);
    for skill in &card.card.skills {
        description.extend(terms(skill));
    }
    let mut words = Vec::new();
    let mut total = 0;
    for t in asked {
        let weight = if name.contains(t) {
            NAME_WEIGHT
        } else if description.contains(t) {
            1
        } else {
            continue;
        };
        if !words.contains(t) {
            total += weight;
            words.push(t.clone());
        }
    }
    Fit {
        card,
        words,
        score: total,
    }
}

/// Below this a person's card does not fit a task: one name word, or two words of the
/// description or skills (a task says less about a role than a hire request does).
const MIN_TASK_SCORE: u32 = 2;

/// Who of `people` (each with their card) fits `task` best, leaving out the words of
/// `exclude` (the department the task was given to); ties go to the earlier one. `None`
/// when nobody's card fits.
pub fn best_for_task<'a, T>(
    task: &str,
    exclude: &[&str],
    people: &'a [(T, &'a LibraryCard)],
) -> Option<(&'a T, Fit<'a>)> {
    let asked = asked(task, exclude);
    let mut best: Option<(&'a T, Fit<'a>)> = None;
    for (who, card) in people {
        let fit = score(&asked, card);
        if fit.score >= MIN_TASK_SCORE && best.as_ref().is_none_or(|(_, b)| fit.score > b.score) {
            best = Some((who, fit));
        }
    }
    best
}

/// The card whose name (English or Chinese) or key is `title`, ignoring case.
pub fn by_title<'a>(cards: &'a [LibraryCard], title: &str) -> Option<&'a LibraryCard> {
    let t = title.trim().to_lowercase();
    cards.iter().find(|c| {
        c.card.name.to_lowercase() == t
            || c.card
                .name_zh
                .as_deref()
                .is_some_and(|z| z.to_lowercase() == t)
            || c.key.to_lowercase() == t
    })
}

/// Lower-case English words of three letters or more (a plural's `s` dropped) and
/// pairs of neighbouring Chinese characters.
fn terms(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut han: Vec<char> = Vec::new();
    let flush_word = |w: &mut String, out: &mut Vec<String>| {
        if w.chars().count() >= 3 {
            let stem = match w.strip_suffix('s') {
                Some(s) if s.len() >= 3 && !s.ends_with('s') => s.to_owned(),
                _ => w.clone(),
            };
            out.push(stem);
        }
        w.clear();
    };
    let flush_han = |h: &mut Vec<char>, out: &mut Vec<String>| {
        out.extend(h.windows(2).map(|p| p.iter().collect::<String>()));
        h.clear();
    };
    for c in text.chars() {
        if c.is_alphanumeric() && c.is_ascii() {
            flush_han(&mut han, &mut out);
            word.extend(c.to_lowercase());
        } else if is_han(c) {
            flush_word(&mut word, &mut out);
            han.push(c);
        } else {
            flush_word(&mut word, &mut out);
            flush_han(&mut han, &mut out);
        }
    }
    flush_word(&mut word, &mut out);
    flush_han(&mut han, &mut out);
    out
}

fn is_han(c: char) -> bool {
    matches!(c, '\u{4e00}'..='\u{9fff}' | '\u{3400}'..='\u{4dbf}')
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::roles::card::parse;

    fn card(key: &str, text: &str) -> LibraryCard {
        LibraryCard {
            key: key.into(),
            builtin: false,
            text: text.into(),
            card: parse(key, text).expect("card"),
        }
    }

    fn roster() -> Vec<LibraryCard> {
        vec![
            card(
                "marketing/manager",
                "---\nname: Marketing Manager\nname_zh: 市场经理\ndescription: Runs campaigns and positioning for marketing.\n---\n",
            ),
            card(
                "marketing/growth",
                "---\nname: Growth Hacker\nname_zh: 增长黑客\ndescription: Finds cheap experiments that grow sign-ups: funnels, referrals, A/B tests.\n---\n",
            ),
            card(
                "eng/reviewer",
                "---\nname: Code Reviewer\ndescription: Reviews code for security holes and performance problems; never edits it.\n---\n",
            ),
        ]
    }

    #[test]
    fn the_name_the_boss_uses_beats_the_department_word() {
        let cards = roster();
        let fit = best_fit(
            "hire a growth hacker into Marketing",
            &["Marketing"],
            &cards,
        )
        .expect("a fit");
        assert_eq!(fit.card.key, "marketing/growth");
        assert_eq!(fit.words, vec!["growth", "hacker"]);
        let fit = best_fit("给市场部招一个增长黑客", &["市场部"], &cards).expect("a fit");
        assert_eq!(fit.card.key, "marketing/growth");
        assert!(fit.words.contains(&"黑客".to_owned()), "{:?}", fit.words);
    }

    #[test]
    fn a_description_fits_when_the_name_is_not_said() {
        let cards = roster();
        let fit = best_fit(
            "we need someone to check code for security holes",
            &[],
            &cards,
        )
        .expect("a fit");
        assert_eq!(fit.card.key, "eng/reviewer");
        assert!(best_fit("hire an astronaut", &[], &cards).is_none());
    }
}
