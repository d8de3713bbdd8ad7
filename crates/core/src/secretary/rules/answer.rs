//! A message that is only a yes or a no ("yes", "OK, go ahead", "确认！", "好的", "算了"):
//! the boss answering the card that waits, the way its Confirm or Cancel button would.
//! The whole message has to be made of these words; anything else ("ok thanks", "好不好",
//! "ok?") is not an answer and goes through the ordinary rows.

use super::super::normalize::normalize;

/// What a typed answer says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TypedAnswer {
    /// Yes (confirm) or no (cancel).
    pub yes: bool,
    /// The words also decide a pending approval on their own ("go ahead", "do it",
    /// "不行"): with no card waiting they still go to the approval queue. A bare "yes",
    /// "ok" or "好的" never approves an employee's action.
    pub firm: bool,
}

struct Phrase {
    words: &'static str,
    yes: bool,
    firm: bool,
}

const fn y(words: &'static str) -> Phrase {
    Phrase {
        words,
        yes: true,
        firm: false,
    }
}
const fn yf(words: &'static str) -> Phrase {
    Phrase {
        words,
        yes: true,
        firm: true,
    }
}
const fn n(words: &'static str) -> Phrase {
    Phrase {
        words,
        yes: false,
        firm: false,
    }
}
const fn nf(words: &'static str) -> Phrase {
    Phrase {
        words,
        yes: false,
        firm: true,
    }
}

#[rustfmt::skip]
const PHRASES: &[Phrase] = &[
    // yes
    y("yes"), y("yeah"), y("yep"), y("yup"), y("yea"), y("ok"), y("okay"), y("okey"), y("k"),
    y("kk"), y("sure"), y("confirm"), y("confirmed"), y("i confirm"), y("please confirm"),
    y("sounds good"), y("looks good"), y("alright"), y("all right"), y("fine"), y("correct"),
    y("right"), y("of course"), y("absolutely"), y("definitely"), y("yes please"),
    y("please do"), y("do that"), y("let's do it"), y("lets do it"), y("let's go"),
    yf("go ahead"), yf("do it"), yf("go for it"), yf("proceed"), yf("carry on"),
    y("确认"), y("确定"), y("确认一下"), y("好的"), y("好"), y("好啊"), y("好呀"), y("好嘞"),
    y("可以"), y("可以的"), y("行"), y("行的"), y("是的"), y("是"), y("对"), y("对的"),
    y("没问题"), y("嗯"), y("嗯嗯"), y("就这样"), y("就这么定了"), y("确认执行"),
    yf("就这么办"), yf("照办"), yf("执行"),
    // no
    n("no"), n("nope"), n("nah"), n("cancel"), n("cancel it"), n("cancel that"),
    n("cancel this"), n("never mind"), n("nevermind"), n("no thanks"), n("no thank you"),
    n("forget it"), n("forget about it"), n("not now"), n("stop"), n("don't"), n("dont"),
    n("取消"), n("取消吧"), n("算了"), n("算了吧"), n("不要"), n("不要了"), n("不用了"), n("不用"),
    n("不了"), n("不"), n("别"), n("别了"), n("先不要"), n("先不用"), n("不需要"), n("不需要了"),
    n("先算了"), nf("不行"),
];

/// Words that may stand around an answer without changing it.
const FILLERS: &[&str] = &[
    "please", "pls", "plz", "then", "just", "吧", "啊", "呀", "了", "哈", "嘛", "呢", "哦", "的",
    "那就", "那", "就",
];

/// The longest phrase or filler `rest` starts with: (its byte length, the phrase if it is one).
fn next_piece(rest: &str) -> Option<(usize, Option<&'static Phrase>)> {
    let boundary = |len: usize| {
        let tail = &rest[len..];
        let last = rest[..len].chars().next_back();
        // An English word must end where the next one starts: "no" is not "now".
        !(last.is_some_and(|c| c.is_ascii_alphanumeric())
            && tail
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphanumeric()))
    };
    let phrase = PHRASES
        .iter()
        .filter(|p| rest.starts_with(p.words) && boundary(p.words.len()))
        .max_by_key(|p| p.words.len());
    let filler = FILLERS
        .iter()
        .filter(|f| rest.starts_with(**f) && boundary(f.len()))
        .max_by_key(|f| f.len());
    match (phrase, filler) {
        (Some(p), Some(f)) if f.len() > p.words.len() => Some((f.len(), None)),
        (Some(p), _) => Some((p.words.len(), Some(p))),
        (None, Some(f)) => Some((f.len(), None)),
        (None, None) => None,
    }
}

/// The yes or no a whole message says, if that is all it says. Case, spacing, full-width
/// forms and punctuation do not matter; a question mark makes it no answer ("ok?").
pub fn typed_answer(text: &str) -> Option<TypedAnswer> {
    let text = normalize(text).to_lowercase();
    if text.contains('?') || text.chars().count() > 40 {
        return None;
    }
    let cleaned: String = text
        .chars()
        .map(|c| match c {
            ',' | '.' | '!' | '~' | ';' | ':' | '、' | '…' | '-' | '"' | '\'' | '\n' => ' ',
            c => c,
        })
        .collect();
    let mut rest = cleaned.trim();
    let (mut yes, mut no, mut firm) = (false, false, false);
    while !rest.is_empty() {
        let (len, phrase) = next_piece(rest)?;
        if let Some(p) = phrase {
            if p.yes {
                yes = true;
            } else {
                no = true;
            }
            firm |= p.firm;
        }
        rest = rest[len..].trim_start();
    }
    match (yes, no) {
        (true, false) => Some(TypedAnswer { yes: true, firm }),
        (false, true) => Some(TypedAnswer { yes: false, firm }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn yes(t: &str) -> bool {
        typed_answer(t).is_some_and(|a| a.yes)
    }
    fn no(t: &str) -> bool {
        typed_answer(t).is_some_and(|a| !a.yes)
    }

    #[test]
    fn yes_words_in_both_languages_with_punctuation_and_case() {
        for t in [
            "yes",
            "Yes!",
            " YES. ",
            "ok",
            "OK",
            "okay",
            "Okay!",
            "go ahead",
            "Go ahead.",
            "confirm",
            "Confirm!",
            "sure",
            "Sure.",
            "do it",
            "yes please",
            "ok, go ahead",
            "确认",
            "确认！",
            "确认。",
            " 确认 ",
            "好的",
            "好的！",
            "好",
            "可以",
            "可以的",
            "行",
            "是的",
            "没问题",
            "没问题！",
            "好的，确认",
            "ＯＫ",
            "嗯",
            "好吧",
        ] {
            assert!(yes(t), "{t:?} is a yes");
        }
    }

    #[test]
    fn no_words_in_both_languages() {
        for t in [
            "no",
            "No.",
            "NO!",
            "cancel",
            "Cancel it",
            "nope",
            "never mind",
            "取消",
            "取消！",
            "算了",
            "算了吧",
            "不要",
            "不用了",
            "不用了。",
            "不行",
        ] {
            assert!(no(t), "{t:?} is a no");
        }
    }

    #[test]
    fn anything_more_is_no_answer() {
        for t in [
            "ok thanks",
            "yes no",
            "好不好",
            "ok?",
            "确认一下吗",
            "now",
            "nobody",
            "hire a tester",
            "yes, hire two more",
            "可以把小张辞了",
            "approve it",
            "",
            "   ",
        ] {
            assert_eq!(typed_answer(t), None, "{t:?}");
        }
    }

    #[test]
    fn the_words_that_already_approved_stay_firm() {
        assert!(typed_answer("go ahead").is_some_and(|a| a.firm));
        assert!(typed_answer("ok, do it").is_some_and(|a| a.firm));
        assert!(typed_answer("不行").is_some_and(|a| a.firm && !a.yes));
        assert!(typed_answer("yes").is_some_and(|a| !a.firm));
        assert!(typed_answer("确认").is_some_and(|a| !a.firm));
    }
}
