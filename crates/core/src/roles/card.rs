//! The role card file: a Markdown file that opens with a front-matter header between two
//! `---` lines, the persona and its rules as the body. The same shape as the public
//! agency-agents roster and coding agents' sub-agent definitions, so their files import
//! as they are.
//!
//! The header is read by a small strict parser instead of a YAML library: it takes
//! `key: value` lines, quoted values, inline lists (`[a, b]`), comma lists and block
//! lists (`- item` lines under `key:`), which is everything those files use. Anything
//! else is an error that names the line, never a guess; unknown keys are kept and left
//! alone (agency-agents cards carry `color`, `emoji`, …).

use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::types::Archetype;

/// A card's text beyond this is not a role card (the largest agency-agents files are
/// ~30 KB); reading stops there instead of filling memory.
pub const MAX_CARD_BYTES: usize = 256 * 1024;
/// Temperatures the providers accept.
const TEMPERATURE_RANGE: std::ops::RangeInclusive<f64> = 0.0..=2.0;
/// More retries than this only spends money on a failing provider.
pub const MAX_RETRIES_LIMIT: u32 = 10;

/// One parsed role card.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct RoleCard {
    pub name: String,
    /// The name in Chinese when the card gives one (`name_zh`).
    pub name_zh: Option<String>,
    /// Precise enough to pick the right person for a task: the secretary matches on it.
    pub description: String,
    /// Tools as the card names them, Cubicle's or not (see [`super::split_tools`]).
    pub tools: Vec<String>,
    /// `provider/model`, or absent / `inherit` for the company's route.
    pub model: Option<String>,
    pub temperature: Option<f64>,
    pub max_retries: Option<u32>,
    pub language: Option<String>,
    pub archetype: Option<Archetype>,
    pub skills: Vec<String>,
    /// The skills in Chinese when the card gives them (`skills_zh`): a hire in a Chinese
    /// company gets these.
    pub skills_zh: Vec<String>,
    /// Keys Cubicle does not use, in file order, as written.
    pub other_keys: Vec<String>,
    /// The persona and its "never do" rules.
    pub persona: String,
}

/// Why a card could not be read: the file, the line (1-based, 0 for the whole file),
/// the key when one is at fault, and the reason.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct CardError {
    pub file: String,
    pub line: u32,
    pub key: Option<String>,
    pub reason: String,
}

impl CardError {
    /// What is wrong with a file as a whole (too large, not text), before any line.
    pub fn whole_file(file: String, reason: String) -> Self {
        Self {
            file,
            line: 0,
            key: None,
            reason,
        }
    }
}

/// `team/critic.md:4 (temperature): "warm" is not a number`.
impl std::fmt::Display for CardError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.file)?;
        if self.line > 0 {
            write!(f, ":{}", self.line)?;
        }
        if let Some(key) = &self.key {
            write!(f, " ({key})")?;
        }
        write!(f, ": {}", self.reason)
    }
}

impl std::error::Error for CardError {}

/// A header value: one scalar or a list.
enum Value {
    One(String),
    Many(Vec<String>),
}

struct Header {
    entries: Vec<(u32, String, Value)>,
    body: String,
}

impl RoleCard {
    /// The skills as a hire in a company speaking `lang` gets them: the Chinese ones in a
    /// Chinese company when the card has them, else the card's own.
    pub fn skills_in(&self, lang: crate::types::Language) -> &[String] {
        match lang {
            crate::types::Language::ZhCn if !self.skills_zh.is_empty() => &self.skills_zh,
            _ => &self.skills,
        }
    }
}

/// Parses one card; `file` only names it in errors.
pub fn parse(file: &str, text: &str) -> Result<RoleCard, CardError> {
    let err = |line: u32, key: Option<&str>, reason: String| CardError {
        file: file.to_owned(),
        line,
        key: key.map(str::to_owned),
        reason,
    };
    if text.len() > MAX_CARD_BYTES {
        return Err(err(
            0,
            None,
            format!("larger than {} KB", MAX_CARD_BYTES / 1024),
        ));
    }
    let header = split_header(text).map_err(|(line, reason)| err(line, None, reason))?;
    let mut card = RoleCard {
        name: String::new(),
        name_zh: None,
        description: String::new(),
        tools: vec![],
        model: None,
        temperature: None,
        max_retries: None,
        language: None,
        archetype: None,
        skills: vec![],
        skills_zh: vec![],
        other_keys: vec![],
        persona: header.body.trim().to_owned(),
    };
    let mut seen: Vec<&str> = Vec::new();
    for (line, key, value) in &header.entries {
        if seen.contains(&key.as_str()) {
            return Err(err(*line, Some(key), "appears twice".into()));
        }
        seen.push(key);
        apply(&mut card, key, value).map_err(|reason| err(*line, Some(key), reason))?;
    }
    if card.name.trim().is_empty() {
        return Err(err(
            1,
            Some("name"),
            "missing: every card needs a name".into(),
        ));
    }
    if card.description.trim().is_empty() {
        return Err(err(
            1,
            Some("description"),
            "missing: the description is how the right role is picked for a task".into(),
        ));
    }
    Ok(card)
}

/// One header entry onto the card; the error is the reason only.
fn apply(card: &mut RoleCard, key: &str, value: &Value) -> Result<(), String> {
    match key {
        "name" => card.name = one(value)?,
        "name_zh" => card.name_zh = Some(one(value)?).filter(|v| !v.is_empty()),
        "description" => card.description = one(value)?,
        "tools" => card.tools = list(value),
        "skills" => card.skills = list(value),
        "skills_zh" => card.skills_zh = list(value),
        "model" => card.model = Some(one(value)?).filter(|v| !v.is_empty()),
        "language" => card.language = Some(one(value)?).filter(|v| !v.is_empty()),
        "temperature" => {
            let v = one(value)?;
            let t: f64 = v.parse().map_err(|_| format!("{v:?} is not a number"))?;
            if !TEMPERATURE_RANGE.contains(&t) {
                return Err(format!("{t} is outside 0 to 2"));
            }
            card.temperature = Some(t);
        }
        "max_retries" => {
            let v = one(value)?;
            let n: u32 = v
                .parse()
                .map_err(|_| format!("{v:?} is not a whole number"))?;
            if n > MAX_RETRIES_LIMIT {
                return Err(format!("{n} is more than {MAX_RETRIES_LIMIT}"));
            }
            card.max_retries = Some(n);
        }
        "archetype" => {
            let v = one(value)?;
            card.archetype = Some(
                Archetype::ALL
                    .into_iter()
                    .find(|a| a.to_string() == v)
                    .ok_or_else(|| format!("{v:?} is not an archetype"))?,
            );
        }
        other => card.other_keys.push(other.to_owned()),
    }
    Ok(())
}

fn one(value: &Value) -> Result<String, String> {
    match value {
        Value::One(v) => Ok(v.clone()),
        Value::Many(_) => Err("expected one value, found a list".into()),
    }
}

/// A list value; a single value is a comma-separated list (`tools: Read, Write`).
fn list(value: &Value) -> Vec<String> {
    match value {
        Value::Many(items) => items.clone(),
        Value::One(v) => v
            .split(',')
            .map(|s| unquote(s.trim()))
            .filter(|s| !s.is_empty())
            .collect(),
    }
}

/// The header's entries and the body; the error is (line, reason).
fn split_header(text: &str) -> Result<Header, (u32, String)> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut lines = text.split_inclusive('\n');
    match lines.next() {
        Some(first) if first.trim_end() == "---" => {}
        _ => return Err((1, "a card starts with a `---` line".into())),
    }
    let mut entries: Vec<(u32, String, Value)> = Vec::new();
    let mut consumed = text.split_inclusive('\n').next().map_or(0, str::len);
    for (i, raw) in lines.enumerate() {
        let line_no = u32::try_from(i + 2).unwrap_or(u32::MAX);
        consumed += raw.len();
        let line = raw.trim_end();
        if line == "---" {
            return Ok(Header {
                entries,
                body: text[consumed..].to_owned(),
            });
        }
        read_line(line, line_no, &mut entries)?;
    }
    Err((1, "the header has no closing `---` line".into()))
}

/// One header line: a `key: value`, a `- item` of the list above, a comment or blank.
fn read_line(
    line: &str,
    line_no: u32,
    entries: &mut Vec<(u32, String, Value)>,
) -> Result<(), (u32, String)> {
    let trimmed = line.trim();
    if trimmed.is_empty() || trimmed.starts_with('#') {
        return Ok(());
    }
    if let Some(item) = trimmed
        .strip_prefix("- ")
        .or((trimmed == "-").then_some(""))
    {
        let Some((_, _, value)) = entries.last_mut() else {
            return Err((line_no, "a `- item` line outside a list".into()));
        };
        if let Value::One(s) = value
            && s.is_empty()
        {
            *value = Value::Many(vec![]);
        }
        return match value {
            Value::Many(items) => {
                items.push(unquote(item.trim()));
                Ok(())
            }
            Value::One(_) => Err((line_no, "a `- item` line outside a list".into())),
        };
    }
    if line.starts_with([' ', '\t']) {
        return Err((
            line_no,
            "an indented line that is not a `- item` (nested values are not supported)".into(),
        ));
    }
    let Some((key, value)) = line.split_once(':') else {
        return Err((line_no, "expected `key: value`".into()));
    };
    let key = key.trim();
    if key.is_empty()
        || !key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err((line_no, format!("{key:?} is not a key")));
    }
    entries.push((line_no, key.to_owned(), read_value(value.trim(), line_no)?));
    Ok(())
}

fn read_value(v: &str, line_no: u32) -> Result<Value, (u32, String)> {
    if let Some(inner) = v.strip_prefix('[') {
        let Some(inner) = inner.strip_suffix(']') else {
            return Err((
                line_no,
                "a list that opens with `[` must close with `]`".into(),
            ));
        };
        return Ok(Value::Many(
            inner
                .split(',')
                .map(|s| unquote(s.trim()))
                .filter(|s| !s.is_empty())
                .collect(),
        ));
    }
    if v.starts_with(['|', '>']) {
        return Err((line_no, "multi-line values are not supported".into()));
    }
    let quoted = v.len() >= 2
        && ((v.starts_with('"') && v.ends_with('"')) || (v.starts_with('\'') && v.ends_with('\'')));
    if (v.starts_with('"') || v.starts_with('\'')) && !quoted {
        return Err((line_no, "a quoted value is not closed".into()));
    }
    Ok(Value::One(unquote(v)))
}

/// `"a \"b\""` → `a "b"`, `'it''s'` → `it's`; anything else as it is.
fn unquote(v: &str) -> String {
    if v.len() >= 2 && v.starts_with('"') && v.ends_with('"') {
        let inner = &v[1..v.len() - 1];
        let mut out = String::with_capacity(inner.len());
        let mut chars = inner.chars();
        while let Some(c) = chars.next() {
            match (c, chars.clone().next()) {
                ('\\', Some(n @ ('"' | '\\'))) => {
                    out.push(n);
                    chars.next();
                }
                ('\\', Some('n')) => {
                    out.push('\n');
                    chars.next();
                }
                _ => out.push(c),
            }
        }
        return out;
    }
    if v.len() >= 2 && v.starts_with('\'') && v.ends_with('\'') {
        return v[1..v.len() - 1].replace("''", "'");
    }
    v.to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sub_agent_style_card_reads_with_its_extra_keys_kept() {
        let text = "---\nname: Growth Hacker\ndescription: \"Finds cheap, fast ways to grow: funnels, referrals\"\ncolor: green\ntools: WebSearch, read_file\ntemperature: 0.6\nmax_retries: 2\n---\n\n# Growth Hacker\nNever buy followers.\n";
        let card = parse("growth.md", text).expect("parses");
        assert_eq!(card.name, "Growth Hacker");
        assert_eq!(
            card.description,
            "Finds cheap, fast ways to grow: funnels, referrals"
        );
        assert_eq!(card.tools, vec!["WebSearch", "read_file"]);
        assert_eq!(card.temperature, Some(0.6));
        assert_eq!(card.max_retries, Some(2));
        assert_eq!(card.other_keys, vec!["color"]);
        assert_eq!(card.persona, "# Growth Hacker\nNever buy followers.");
    }

    #[test]
    fn block_and_inline_lists_read_alike() {
        let block = "---\nname: A\ndescription: d\ntools:\n  - read_file\n  - 'write_file'\nskills: [a, \"b c\"]\n---\n";
        let card = parse("a.md", block).expect("parses");
        assert_eq!(card.tools, vec!["read_file", "write_file"]);
        assert_eq!(card.skills, vec!["a", "b c"]);
    }

    #[test]
    fn errors_name_the_file_the_line_the_key_and_why() {
        let bad = "---\nname: Critic\ndescription: d\ntemperature: warm\n---\nbody";
        let e = parse("team/critic.md", bad).expect_err("bad temperature");
        assert_eq!((e.line, e.key.as_deref()), (4, Some("temperature")));
        assert_eq!(
            e.to_string(),
            "team/critic.md:4 (temperature): \"warm\" is not a number"
        );
        let e = parse("x.md", "# just markdown").expect_err("no header");
        assert!(e.reason.contains("starts with"), "{e}");
        let e = parse("x.md", "---\nname: X\n").expect_err("unclosed");
        assert!(e.reason.contains("closing"), "{e}");
        let e = parse("x.md", "---\nname: X\n---\n").expect_err("no description");
        assert_eq!(e.key.as_deref(), Some("description"));
        let e = parse("x.md", "---\nname: X\nname: Y\ndescription: d\n---\n").expect_err("twice");
        assert_eq!((e.line, e.reason.as_str()), (3, "appears twice"));
        let e = parse("x.md", "---\nname: X\ndescription: >\n  folded\n---\n").expect_err("folded");
        assert_eq!(e.line, 3);
        let e = parse(
            "x.md",
            "---\nname: X\ndescription: d\nmax_retries: 99\n---\n",
        )
        .expect_err("too many retries");
        assert_eq!(e.key.as_deref(), Some("max_retries"));
    }
}
