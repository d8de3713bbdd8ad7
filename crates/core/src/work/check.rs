//! Whether a deliverable addresses its task (SPEC §13: a "completed" story means a
//! deliverable a person can use). Checked when a task is resolved, on every model: a
//! deliverable not readable in the company's language ([`readable`]), much too short for
//! what the task asks, one that repeats a chat message, or one with none of the words of
//! the task's subject is not done — it waits for the boss's review, with why
//! ([`ReviewReason`]). Pure rules, English and Chinese alike; `bench builtin` counts a
//! story as completed by the same rules.

use crate::mind::memory_rules::{keywords, similarity};
use crate::types::Language;
pub use cubicle_store::enums::ReviewReason;

/// Words of a document the task asks for, at least: two lines that say something.
const DOCUMENT_MIN_WORDS: usize = 12;
/// A deliverable at least this similar to a message someone wrote is a copy of it.
const COPY_SIMILARITY: f64 = 0.75;
/// A message makes up at least this share of the deliverable: it is a copy with a frame.
const COPY_SHARE: f64 = 0.6;
/// Messages shorter than this (normalized characters) are too common to be copied
/// ("ok", "thanks").
const COPY_MIN_CHARS: usize = 15;
/// A text with fewer keywords than this says too little to be judged off topic ("Done.").
const TOPIC_MIN_KEYWORDS: usize = 4;

/// A line the app adds to a deliverable (the draft note): not the author's words.
pub const APP_LINE_PREFIX: &str = "> ";

/// What the task asks for, by the nouns it names: a document must have some length.
const DOCUMENT_WORDS: &[&str] = &[
    "note",
    "notes",
    "document",
    "doc",
    "docs",
    "report",
    "summary",
    "proposal",
    "spec",
    "specification",
    "memo",
    "article",
    "essay",
    "guide",
    "readme",
    "outline",
    "analysis",
    "write-up",
    "writeup",
    "post",
    "announcement",
    "minutes",
    "brief",
    "overview",
    "文档",
    "说明",
    "报告",
    "方案",
    "总结",
    "纪要",
    "文章",
    "草稿",
    "简报",
    "公告",
];

/// Words that frame a task rather than name its subject ("write a short design note on
/// …"): a deliverable need not repeat them to be on topic.
const FRAME_WORDS: &[&str] = &[
    "write",
    "short",
    "brief",
    "quick",
    "design",
    "note",
    "notes",
    "document",
    "doc",
    "report",
    "summary",
    "draft",
    "memo",
    "discuss",
    "ask",
    "talk",
    "please",
    "make",
    "create",
    "prepare",
    "review",
    "check",
    "plan",
    "new",
    "one",
    "page",
    "task",
    "work",
    "colleague",
    "team",
    "boss",
    "get",
    "give",
    "help",
    "look",
    "find",
    "send",
    "post",
    "share",
    "together",
    "input",
    "them",
    "写一份",
    "写一篇",
    "写一",
    "一份",
    "一下",
    "一个",
    "关于",
    "简短",
    "设计",
    "说明",
    "文档",
    "报告",
    "总结",
    "讨论",
    "方案",
    "草稿",
    "任务",
    "工作",
    "请你",
    "并和",
    "和他",
    "和她",
    "一起",
    "意见",
    "一篇",
    "写",
    "份",
    "并",
    "和",
    "请",
];

/// Why a deliverable waits for review, in the company's language: one sentence.
pub fn why(reason: ReviewReason, lang: Language) -> &'static str {
    match (reason, lang) {
        (ReviewReason::TooShort, Language::En) => "it is much shorter than what the task asks for",
        (ReviewReason::TooShort, Language::ZhCn) => "它比任务要求的短得多",
        (ReviewReason::CopiesMessage, Language::En) => {
            "it repeats a chat message instead of doing the work"
        }
        (ReviewReason::CopiesMessage, Language::ZhCn) => "它照抄了一条聊天消息，没有真正完成工作",
        (ReviewReason::OffTopic, Language::En) => "it says nothing about the task's subject",
        (ReviewReason::OffTopic, Language::ZhCn) => "它没有谈到任务的主题",
        (ReviewReason::Unreadable, Language::En) => {
            "it is not readable English (garbled, another language, or the prompt's own wording)"
        }
        (ReviewReason::Unreadable, Language::ZhCn) => {
            "它不是通顺可读的中文（乱码、别的语言，或照抄了提示词的格式）"
        }
    }
}

/// The line that tells the boss a deliverable is not done yet, and why.
pub fn needs_review_line(reason: ReviewReason, lang: Language) -> String {
    match lang {
        Language::En => format!("Needs your review: {}.", why(reason, lang)),
        Language::ZhCn => format!("需要你审阅：{}。", why(reason, lang)),
    }
}

/// The app's note on a document a small offline model wrote: plainly a draft.
/// The built-in route names no model (`""`: the one installed); then none is named.
pub fn draft_note(model: &str, lang: Language) -> String {
    let model = model.trim();
    match (lang, model.is_empty()) {
        (Language::En, false) => format!(
            "{APP_LINE_PREFIX}Draft by the small offline model ({model}): check it before you use it."
        ),
        (Language::En, true) => {
            format!(
                "{APP_LINE_PREFIX}Draft by the small offline model: check it before you use it."
            )
        }
        (Language::ZhCn, false) => {
            format!("{APP_LINE_PREFIX}草稿：由离线小模型（{model}）写成，使用前请核对。")
        }
        (Language::ZhCn, true) => {
            format!("{APP_LINE_PREFIX}草稿：由离线小模型写成，使用前请核对。")
        }
    }
}

/// What the author wrote of a deliverable: its lines without the app's own
/// ([`APP_LINE_PREFIX`]) and without blank lines. What [`judge`] reads.
pub fn authored(deliverable: &str) -> String {
    own_lines(deliverable).join("\n")
}

/// The author's lines of a deliverable: trimmed, without blank lines and the app's own
/// ([`APP_LINE_PREFIX`]).
fn own_lines(deliverable: &str) -> Vec<&str> {
    deliverable
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with(APP_LINE_PREFIX.trim_end()))
        .collect()
}

/// Why `deliverable` does not address `task`, if it does not. `messages` are what others
/// wrote in the chats the author saw while on the task; `names` are the people's names
/// (a name is no subject); `lang` is the company's: the language the work must be
/// readable in. The app's own lines ([`APP_LINE_PREFIX`]) are left out.
pub fn judge(
    task: &str,
    deliverable: &str,
    messages: &[&str],
    names: &[&str],
    lang: Language,
) -> Option<ReviewReason> {
    let lines = own_lines(deliverable);
    let whole = lines.join("\n");
    if !whole.is_empty() && !readable(&whole, lang) {
        return Some(ReviewReason::Unreadable);
    }
    // A title line, then the body: a copy hides under a title of its own.
    let body = if lines.len() > 1 {
        lines[1..].join("\n")
    } else {
        whole.clone()
    };
    if copies_a_message(&body, messages) {
        return Some(ReviewReason::CopiesMessage);
    }
    if off_topic(task, &whole, names) {
        return Some(ReviewReason::OffTopic);
    }
    let too_short = if asks_for_document(task) {
        word_count(&body) < DOCUMENT_MIN_WORDS
    } else {
        whole.trim().is_empty()
    };
    too_short.then_some(ReviewReason::TooShort)
}

/// Labels of a prompt's layout instructions a small model may write back instead of
/// following them ("第一行：标题", "Second line: …"), and the instructions' own words.
const SCAFFOLDING: &[&str] = &[
    "第一行",
    "第二行",
    "第三行",
    "第四行",
    "第五行",
    "第六行",
    "第n行",
    "然后写三到六条",
    "三到六条要点",
    "三到六个要点",
    "只写文档本身",
    "只写消息本身",
    "只写回复本身",
    "用简体中文",
    "你的任务：",
    "first line:",
    "your task:",
    "second line:",
    "third line:",
    "next lines:",
    "line 1:",
    "line 2:",
    "then three to six",
    "three to six points",
    "points of one sentence",
    "one or two full sentences",
    "每条要点一到两句",
    "write only the document",
    "write only the message",
    "write only your reply",
];

/// Whether a line of the author's is the prompt's scaffolding echoed back: it starts with
/// one of its labels, or says one of its instructions.
pub fn is_scaffolding(line: &str) -> bool {
    let l = line
        .trim()
        .trim_start_matches(['#', '*', '-', '>', ' ', '•'])
        .to_lowercase();
    SCAFFOLDING.iter().any(|s| {
        if s.ends_with(':') {
            l.starts_with(s) || l.starts_with(&s.replace(':', "："))
        } else if s.is_ascii() {
            l.contains(s)
        } else {
            l.starts_with(s) || l.contains(&format!("{s}："))
        }
    })
}

/// Whether `text` is readable in `lang`, by rules that need no dictionary:
/// - never: a replacement character (U+FFFD: bytes that were no text), or a line of the
///   prompt's scaffolding ([`is_scaffolding`]);
/// - Chinese: mostly Chinese characters ([`crate::mind::guided::is_chinese`]: one of
///   them for every four Latin letters at least) and a handful of them;
/// - English: no Chinese characters to speak of, and at least three words in four look
///   like words — Latin letters with a vowel (or a short acronym such as "PID"), or a
///   number with its unit ("5s") — with no one word taking over the text (a loop such as
///   "the the the").
pub fn readable(text: &str, lang: Language) -> bool {
    if text.contains(char::REPLACEMENT_CHARACTER) || text.lines().any(is_scaffolding) {
        return false;
    }
    match lang {
        Language::ZhCn => {
            let cjk = text.chars().filter(|c| is_cjk(*c)).count();
            cjk >= ZH_MIN_CHARS && crate::mind::guided::is_chinese(text)
        }
        Language::En => english_readable(text),
    }
}

/// Chinese characters a readable Chinese text has at least.
const ZH_MIN_CHARS: usize = 4;
/// Share of a text's words that must look like English words.
const EN_WORDLIKE_SHARE: f64 = 0.75;
/// The most any one word (of three letters or more) may take of an English text's words.
const EN_ONE_WORD_SHARE: f64 = 0.3;

fn is_cjk(c: char) -> bool {
    ('\u{4E00}'..='\u{9FFF}').contains(&c) || ('\u{3400}'..='\u{4DBF}').contains(&c)
}

fn english_readable(text: &str) -> bool {
    let cjk = text.chars().filter(|c| is_cjk(*c)).count();
    let latin = text.chars().filter(char::is_ascii_alphabetic).count();
    if cjk * 4 > latin {
        return false;
    }
    let words: Vec<String> = text
        .split_whitespace()
        .map(|w| {
            w.trim_matches(|c: char| !c.is_alphanumeric())
                .to_lowercase()
        })
        .filter(|w| !w.is_empty())
        .collect();
    if words.is_empty() {
        return false;
    }
    let wordlike = words.iter().filter(|w| looks_like_a_word(w)).count();
    if (wordlike as f64) < EN_WORDLIKE_SHARE * words.len() as f64 {
        return false;
    }
    if words.len() >= 8 {
        let mut counts: std::collections::HashMap<&str, usize> = Default::default();
        for w in words.iter().filter(|w| w.len() >= 3) {
            *counts.entry(w.as_str()).or_default() += 1;
        }
        let most = counts.values().copied().max().unwrap_or(0);
        if most as f64 > EN_ONE_WORD_SHARE * words.len() as f64 {
            return false;
        }
    }
    true
}

/// An English-looking word: Latin letters (an apostrophe or hyphen inside) with a vowel,
/// at most 20 letters; an acronym of up to five capitals (lowercased here: any short
/// run of letters); or a number, with a unit or not ("5", "2.5", "30s", "v2").
fn looks_like_a_word(w: &str) -> bool {
    if w.chars().any(|c| c.is_ascii_digit()) {
        return w
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | ',' | '%' | '-' | '/'));
    }
    let letters_only = w
        .chars()
        .all(|c| c.is_ascii_alphabetic() || matches!(c, '\'' | '’' | '-'));
    if !letters_only {
        return false;
    }
    let n = w.chars().filter(char::is_ascii_alphabetic).count();
    (1..=20).contains(&n) && (n <= 5 || w.chars().any(|c| "aeiouy".contains(c)))
}

/// Letters and digits only, lowercased: how texts are compared.
fn normalized(s: &str) -> String {
    s.chars()
        .filter(|c| c.is_alphanumeric())
        .flat_map(char::to_lowercase)
        .collect()
}

fn copies_a_message(body: &str, messages: &[&str]) -> bool {
    let b = normalized(body);
    let blen = b.chars().count();
    if blen < COPY_MIN_CHARS {
        return false;
    }
    messages.iter().any(|m| {
        let n = normalized(m);
        let mlen = n.chars().count();
        if mlen < COPY_MIN_CHARS {
            return false;
        }
        similarity(body, m) >= COPY_SIMILARITY
            || n.contains(&b)
            || (b.contains(&n) && mlen as f64 >= COPY_SHARE * blen as f64)
    })
}

/// Whether the task names a document (a note, a report, 一份说明 …).
fn asks_for_document(task: &str) -> bool {
    let lower = task.to_lowercase();
    let words: Vec<&str> = lower
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .collect();
    DOCUMENT_WORDS.iter().any(|w| {
        if w.is_ascii() {
            words.contains(w)
        } else {
            lower.contains(w)
        }
    })
}

/// Words for length: each Latin word one, each two Chinese characters one.
fn word_count(text: &str) -> usize {
    let latin = text
        .split(|c: char| !c.is_alphanumeric() || !c.is_ascii())
        .filter(|w| !w.is_empty())
        .count();
    let cjk = text
        .chars()
        .filter(|c| ('\u{4E00}'..='\u{9FFF}').contains(c))
        .count();
    latin + cjk.div_ceil(2)
}

/// A word as compared: its first five letters, so "calibrate" meets "calibration" and
/// "timeouts" meets "timeout"; a Chinese bigram as it is.
fn stem(word: &str) -> String {
    let w = word.trim_end_matches('s');
    if w.chars().count() > 5 {
        w.chars().take(5).collect()
    } else {
        w.to_owned()
    }
}

/// The task names a subject, the deliverable says enough to be judged, and none of the
/// subject's words are in it.
fn off_topic(task: &str, deliverable: &str, names: &[&str]) -> bool {
    let named: Vec<String> = names.iter().flat_map(|n| keywords(n)).collect();
    // Chinese has no spaces: frame words and names are cut out of the text first, so
    // no bigram straddles one ("计说" of "设计说明").
    let mut rest = task.to_owned();
    let mut cut: Vec<&str> = FRAME_WORDS
        .iter()
        .copied()
        .filter(|w| !w.is_ascii())
        .collect();
    cut.extend(names.iter().copied().filter(|n| !n.is_ascii()));
    cut.sort_by_key(|w| std::cmp::Reverse(w.chars().count()));
    for w in cut.into_iter().filter(|w| !w.is_empty()) {
        rest = rest.replace(w, " ");
    }
    let subject: Vec<String> = keywords(&rest)
        .into_iter()
        .filter(|k| !FRAME_WORDS.contains(&k.as_str()) && !named.contains(k))
        .filter(|k| !k.chars().all(|c| c.is_ascii_digit()))
        .map(|k| stem(&k))
        .collect();
    let said: Vec<String> = keywords(deliverable).iter().map(|k| stem(k)).collect();
    if subject.is_empty() || said.len() < TOPIC_MIN_KEYWORDS {
        return false;
    }
    !said.iter().any(|k| subject.iter().any(|w| same_word(k, w)))
}

/// "fix" and "fixed", "calib(ration)" and "calib(rate)": one stem starts the other.
fn same_word(a: &str, b: &str) -> bool {
    let (short, long) = if a.chars().count() <= b.chars().count() {
        (a, b)
    } else {
        (b, a)
    };
    short == long || (short.is_ascii() && short.len() >= 3 && long.starts_with(short))
}

#[cfg(test)]
mod tests {
    use super::*;

    const TASK: &str =
        "write a short design note on the gripper calibration timeout and discuss it with Bob";
    const BOB: &str = "Not sure, I was out at lunch; maybe ask someone else about it.";
    const EN: Language = Language::En;
    const ZH: Language = Language::ZhCn;

    #[test]
    fn a_copied_reply_under_a_title_needs_review() {
        let doc = format!("Design note\n{BOB}");
        assert_eq!(
            judge(TASK, &doc, &[BOB], &["Bob", "Alice"], EN),
            Some(ReviewReason::CopiesMessage)
        );
    }

    #[test]
    fn two_lines_off_the_subject_need_review() {
        let doc = "Lunch plans\nWe could order pizza for the team on Friday afternoon.";
        assert_eq!(
            judge(TASK, doc, &[], &["Bob"], EN),
            Some(ReviewReason::OffTopic)
        );
    }

    #[test]
    fn a_document_task_done_in_a_line_is_too_short() {
        let doc = "Gripper calibration timeout\nRaise the timeout.";
        assert_eq!(
            judge(TASK, doc, &[], &["Bob"], EN),
            Some(ReviewReason::TooShort)
        );
    }

    #[test]
    fn a_proper_note_and_a_short_answer_to_a_small_task_are_done() {
        let doc = "Gripper calibration timeout\n- The gripper needs about 4 s to home (Bob).\n\
                   - Raise the timeout from 2 s to 5 s.\n- Log each calibration step.\n\
                   > Draft by the small offline model: check it before use.";
        let bob = "The gripper needs about 4 s to home, and the timeout is 2 s. Raise it.";
        assert_eq!(judge(TASK, doc, &[bob], &["Bob"], EN), None);
        assert_eq!(
            judge(
                "fix the login bug",
                "Fixed: the session cookie expired early.",
                &[],
                &[],
                EN
            ),
            None
        );
        assert_eq!(judge("fix the login bug", "Done.", &[], &[], EN), None);
    }

    #[test]
    fn a_draft_note_names_the_model_only_when_there_is_a_name() {
        assert!(draft_note("SmolLM2-135M", Language::En).contains("(SmolLM2-135M)"));
        assert!(!draft_note("", Language::En).contains("()"));
        assert!(!draft_note("", Language::ZhCn).contains("（）"));
    }

    #[test]
    fn chinese_deliverables_are_judged_alike() {
        let task = "写一份关于夹爪校准超时的简短设计说明，并和王强讨论";
        let good = "夹爪校准超时设计说明\n王强说夹爪回零大约需要 4 秒，而超时只有 2 秒。\
                    建议把校准超时从 2 秒改为 5 秒，并记录每一步校准的耗时。";
        assert_eq!(judge(task, good, &[], &["王强"], ZH), None);
        let copied = "王强：我不太清楚，刚才在吃午饭，你问问别人吧。";
        assert_eq!(
            judge(
                task,
                &format!("设计说明\n{copied}"),
                &[copied],
                &["王强"],
                ZH
            ),
            Some(ReviewReason::CopiesMessage)
        );
        assert_eq!(
            judge(
                task,
                "设计说明\n周五下午大家一起去吃火锅，顺便聊聊团建安排。",
                &[],
                &["王强"],
                ZH
            ),
            Some(ReviewReason::OffTopic)
        );
    }

    #[test]
    fn readable_english_is_words_and_nothing_else_is() {
        let note = "**Gripper Calibration Timeout**\n\n- The gripper needs about 4 s to home.\n\
                    - Raise the PID loop's timeout from 2s to 5s.\n- Log each step (v2).";
        assert!(readable(note, EN));
        assert!(readable("Done.", EN));
        // Another language, garble, a loop, bytes that were no text, the prompt echoed.
        assert!(!readable("夹爪校准超时的设计说明：把超时改为五秒。", EN));
        assert!(!readable(
            "Gripr xqzvtplm bcdfghjklm wrtzpq ghjklmnbvcxz qwrtzp",
            EN
        ));
        assert!(!readable("the gripper the the the the the the the the", EN));
        assert!(!readable("Gripper timeout \u{FFFD}\u{FFFD} raised", EN));
        assert!(!readable(
            "First line: Gripper timeout\nSecond line: raise it to 5 s",
            EN
        ));
        assert!(!readable("", EN));
    }

    #[test]
    fn readable_chinese_is_mostly_chinese_characters_without_scaffolding() {
        assert!(readable(
            "标题：夹爪校准超时问题研究与对策\n- 原因：回零需要约 4 秒，超时只有 2 秒。\n- 对策：把 timeout 改为 5 秒。",
            ZH
        ));
        // English in a Chinese company, the prompt's layout echoed, replacement characters.
        assert!(!readable(
            "Gripper calibration timeout: raise it to 5 s.",
            ZH
        ));
        assert!(!readable(
            "第一行：标题\n第二行：夹爪校准超时的原因\n第三行：把超时改为五秒",
            ZH
        ));
        assert!(!readable("夹爪校准\u{FFFD}超时改为五秒", ZH));
        assert!(!readable(
            "你的任务：写一行小说\n王强喜海鳊上来，这就是一个意见要用简体中文写出来的话。",
            ZH
        ));
        assert!(!readable("好的", ZH), "a handful of characters at least");
    }

    #[test]
    fn an_unreadable_deliverable_needs_review_in_either_language() {
        let en_doc = "Gripper calibration timeout\n夹爪校准超时的设计说明：回零需要四秒，超时只有两秒，所以改成五秒。\n\
                      > Draft by the small offline model: check it before you use it.";
        assert_eq!(
            judge(TASK, en_doc, &[], &["Bob"], EN),
            Some(ReviewReason::Unreadable)
        );
        let task = "写一份关于夹爪校准超时的简短设计说明，并和王强讨论";
        let echoed = "第一行：夹爪校准超时设计说明\n第二行：回零需要四秒，超时只有两秒，建议改为五秒，并记录每一步的耗时。";
        assert_eq!(
            judge(task, echoed, &[], &["王强"], ZH),
            Some(ReviewReason::Unreadable)
        );
        // The app's own draft line is not the author's: an English line in a Chinese
        // company's note is fine there.
        let good = "夹爪校准超时设计说明\n王强说夹爪回零大约需要 4 秒，而超时只有 2 秒。\
                    建议把校准超时从 2 秒改为 5 秒，并记录每一步校准的耗时。\n> Draft note";
        assert_eq!(judge(task, good, &[], &["王强"], ZH), None);
        for lang in [EN, ZH] {
            assert!(!why(ReviewReason::Unreadable, lang).is_empty());
            assert!(needs_review_line(ReviewReason::Unreadable, lang).len() > 10);
        }
    }
}
