//! Text clean-up before the rules look at it, and the number readers the slots need
//! ("two", "两个", "3个", "$3.50", "二十美元", "10刀").

use std::sync::LazyLock;

use regex::Regex;

/// Full-width forms, Chinese punctuation, odd spaces and control characters become their
/// plain ASCII counterparts, so one pattern covers "，" and ",", "３" and "3".
/// Newlines survive (they end a sentence); runs of other whitespace become one space.
pub fn normalize(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut pending_space = false;
    for c in text.chars() {
        let mapped = match c {
            // Before the full-width range: its backtick would become '`', which is itself
            // mapped, and normalizing twice must change nothing.
            '‘' | '’' | '`' | '\u{FF40}' => '\'',
            '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
            '\u{3000}' | '\u{00A0}' | '\u{2000}'..='\u{200A}' | '\u{202F}' | '\u{205F}' => ' ',
            '\u{200B}'..='\u{200D}' | '\u{2060}' | '\u{FEFF}' => continue,
            '。' | '｡' => '.',
            '“' | '”' | '「' | '」' | '『' | '』' | '《' | '》' => '"',
            '—' | '–' | '―' => '-',
            '【' | '〔' => '[',
            '】' | '〕' => ']',
            '\n' | '\r' => '\n',
            c if c.is_whitespace() || c.is_control() => ' ',
            c => c,
        };
        if mapped == ' ' {
            pending_space = true;
            continue;
        }
        if pending_space && !out.is_empty() && mapped != '\n' && !out.ends_with('\n') {
            out.push(' ');
        }
        pending_space = false;
        out.push(mapped);
    }
    out
}

/// `true` for CJK ideographs (the characters of Chinese names and words).
pub fn is_han(c: char) -> bool {
    matches!(c, '\u{4E00}'..='\u{9FFF}' | '\u{3400}'..='\u{4DBF}' | '\u{F900}'..='\u{FAFF}')
}

pub fn has_han(s: &str) -> bool {
    s.chars().any(is_han)
}

const EN_NUMBERS: &[(&str, u32)] = &[
    ("a", 1),
    ("an", 1),
    ("one", 1),
    ("single", 1),
    ("two", 2),
    ("couple", 2),
    ("pair", 2),
    ("three", 3),
    ("few", 3),
    ("four", 4),
    ("five", 5),
    ("six", 6),
    ("seven", 7),
    ("eight", 8),
    ("nine", 9),
    ("ten", 10),
    ("eleven", 11),
    ("twelve", 12),
    ("dozen", 12),
    ("thirteen", 13),
    ("fourteen", 14),
    ("fifteen", 15),
    ("sixteen", 16),
    ("seventeen", 17),
    ("eighteen", 18),
    ("nineteen", 19),
    ("twenty", 20),
    ("thirty", 30),
    ("forty", 40),
    ("fifty", 50),
    ("hundred", 100),
];

/// A head-count larger than this is a typo, not a plan.
pub const MAX_COUNT: u32 = 1000;

/// A count written as digits, an English word or Chinese numerals ("3", "two", "两", "十二").
pub fn parse_count(word: &str) -> Option<u32> {
    let w = word.trim().to_lowercase();
    if w.is_empty() {
        return None;
    }
    let n = if w.chars().all(|c| c.is_ascii_digit()) {
        w.parse::<u32>().ok()?
    } else if let Some(&(_, n)) = EN_NUMBERS.iter().find(|(k, _)| *k == w) {
        n
    } else {
        u32::try_from(parse_chinese_number(&w)?).ok()?
    };
    (1..=MAX_COUNT).contains(&n).then_some(n)
}

/// Chinese numerals up to the thousands: 一, 两, 十二, 二十, 一百五十, 俩, 仨.
pub fn parse_chinese_number(s: &str) -> Option<u64> {
    if s.is_empty() {
        return None;
    }
    let mut total: u64 = 0;
    let mut digit: Option<u64> = None;
    for c in s.chars() {
        let d = match c {
            '零' | '〇' => Some(0),
            '一' | '壹' => Some(1),
            '二' | '两' | '俩' | '贰' => Some(2),
            '三' | '仨' | '叁' => Some(3),
            '四' | '肆' => Some(4),
            '五' | '伍' => Some(5),
            '六' | '陆' => Some(6),
            '七' | '柒' => Some(7),
            '八' | '捌' => Some(8),
            '九' | '玖' => Some(9),
            _ => None,
        };
        if let Some(d) = d {
            digit = Some(d);
            continue;
        }
        let unit = match c {
            '十' | '拾' => 10,
            '百' | '佰' => 100,
            '千' | '仟' => 1000,
            _ => return None,
        };
        total += digit.unwrap_or(1) * unit;
        digit = None;
    }
    Some(total + digit.unwrap_or(0))
}

const CN_NUM: &str = "[零〇一二两俩仨三四五六七八九十百千]+";

static MONEY: LazyLock<Vec<Regex>> = LazyLock::new(|| {
    [
        // $5, $ 3.50, usd 10
        r"(?i)(?:\$|us\$|usd)\s*(?P<n>\d+(?:\.\d+)?)".to_owned(),
        // 5 dollars, 10 usd, 5美元, 10刀, 15 块
        r"(?i)(?P<n>\d+(?:\.\d+)?)\s*(?:dollars?|bucks?|usd|美元|美金|刀|块钱|块|元)".to_owned(),
        // 二十美元, 五块
        format!(r"(?P<cn>{CN_NUM})\s*(?:美元|美金|刀|块钱|块|元)"),
        // "… to 20", "调到 10": a bare number after a setting verb
        r"(?i)(?:to|at|of|:|到|为|成|至)\s*(?P<n>\d+(?:\.\d+)?)(?:\s|$|[^\d.%])".to_owned(),
        format!(r"(?:到|为|成|至)\s*(?P<cn>{CN_NUM})"),
    ]
    .iter()
    .filter_map(|p| Regex::new(p).ok())
    .collect()
});

/// The first money amount in `text`, in the boss's currency units (dollars per SPEC §10).
pub fn parse_amount(text: &str) -> Option<f64> {
    for re in MONEY.iter() {
        let Some(caps) = re.captures(text) else {
            continue;
        };
        let value = if let Some(n) = caps.name("n") {
            n.as_str().parse::<f64>().ok()
        } else {
            caps.name("cn")
                .and_then(|m| parse_chinese_number(m.as_str()))
                .map(|n| n as f64)
        };
        if let Some(v) = value.filter(|v| v.is_finite() && *v >= 0.0) {
            return Some(v);
        }
    }
    None
}

/// Levenshtein distance with adjacent transpositions counted once ("desginer" ~ "designer").
pub fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    let (n, m) = (a.len(), b.len());
    let mut d = vec![vec![0usize; m + 1]; n + 1];
    for (i, row) in d.iter_mut().enumerate() {
        row[0] = i;
    }
    for (j, cell) in d[0].iter_mut().enumerate() {
        *cell = j;
    }
    for i in 1..=n {
        for j in 1..=m {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut v = (d[i - 1][j] + 1)
                .min(d[i][j - 1] + 1)
                .min(d[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                v = v.min(d[i - 2][j - 2] + 1);
            }
            d[i][j] = v;
        }
    }
    d[n][m]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn full_width_and_chinese_punctuation_become_ascii() {
        assert_eq!(normalize("ＨＩＲＥ　ＴＷＯ，好！"), "HIRE TWO,好!");
        assert_eq!(normalize("招３个ＱＡ。谢谢"), "招3个QA.谢谢");
        assert_eq!(normalize("  a \t b\u{200B}c  "), "a bc");
        assert_eq!(normalize("what’s up"), "what's up");
    }

    /// Found by the `intent_rules` fuzz target: the full-width backtick became '`' on
    /// the first pass and '\'' on the second.
    #[test]
    fn normalizing_twice_changes_nothing() {
        for text in ["ＨＩＲ ｀ＱＡ｀ to $１", "a ` b ｀ c ‘d’", "　ｘ\r\n ｙ "] {
            let once = normalize(text);
            assert_eq!(normalize(&once), once, "{text:?}");
        }
        assert_eq!(normalize("｀rm｀"), "'rm'");
    }

    #[test]
    fn counts_in_words_digits_and_chinese() {
        assert_eq!(parse_count("two"), Some(2));
        assert_eq!(parse_count("Two"), Some(2));
        assert_eq!(parse_count("3"), Some(3));
        assert_eq!(parse_count("两"), Some(2));
        assert_eq!(parse_count("十二"), Some(12));
        assert_eq!(parse_count("二十"), Some(20));
        assert_eq!(parse_count("a"), Some(1));
        assert_eq!(parse_count("0"), None);
        assert_eq!(parse_count("99999"), None);
        assert_eq!(parse_count("many"), None);
    }

    #[test]
    fn amounts_in_dollars_yuan_words_and_digits() {
        assert_eq!(parse_amount("set the daily budget to $5"), Some(5.0));
        assert_eq!(parse_amount("cap spending at $3.50 per day"), Some(3.5));
        assert_eq!(parse_amount("5美元"), Some(5.0));
        assert_eq!(parse_amount("预算调到10刀"), Some(10.0));
        assert_eq!(parse_amount("设置成二十美元"), Some(20.0));
        assert_eq!(parse_amount("budget: 10 usd"), Some(10.0));
        assert_eq!(parse_amount("日预算提高到 15 块"), Some(15.0));
        assert_eq!(parse_amount("no money here"), None);
    }

    #[test]
    fn transpositions_cost_one() {
        assert_eq!(edit_distance("desginer", "designer"), 1);
        assert_eq!(edit_distance("alice", "alcie"), 1);
        assert_eq!(edit_distance("bob", "rob"), 1);
        assert_eq!(edit_distance("", "ab"), 2);
    }
}
