//! How an employee thinks: prompts built from the persona and agent card (SPEC §2, §4):
//! a new hire's self-introduction, the thought's scene and answer shape (`thought`), the
//! guided steps for a small model (`guided`), and the rules of memory, relationships and
//! stamina the engine applies.

/// The personality archetypes live on the types floor, where the org reads them too.
pub use crate::types::archetypes;
pub mod guided;
pub mod memory_rules;
pub mod minds;
pub mod relationship_rules;
pub mod seeds;
pub mod stamina;
pub mod thought;

use cubicle_llm::{ChatMessage, CompletionRequest};

use crate::org::{CompanyDto, EmployeeDto};
use crate::tools::{CommitToDate, Tool as _};
use crate::types::Language;

/// A short first message: a cap keeps even a rambling model brief.
const INTRO_MAX_TOKENS: u32 = 120;
/// What is posted at most, in characters.
const INTRO_MAX_CHARS: usize = 400;
/// The longest chat message an employee posts.
pub const CHAT_MESSAGE_MAX_CHARS: usize = 1000;
/// How much of a role card's persona a prompt carries: imported cards run to pages,
/// and the whole thought prompt has [`thought::PROMPT_TOKEN_BUDGET`] tokens.
const PERSONA_PROMPT_CHARS: usize = 1200;

/// The agent card (SPEC §2): identity, capabilities, permission boundary. The
/// personality follows it: [`personality_line`] for a short request, the archetype's
/// whole persona block for a thought (never both: the model would read it twice).
pub fn agent_card(e: &EmployeeDto, company: &CompanyDto, department: Option<&str>) -> String {
    format!(
        "You are {name}, {title} at {company}{dept}, an AI employee working for {boss}, the boss.\n\
         Skills: {skills}. Tools: {tools}.\n\
         Boundaries: speak only as {name}; never decide approvals; anything sensitive, a date you \
         promise (ask first with {commit}) or a memory shared beyond yourself waits for the boss.",
        name = e.name,
        title = e.title,
        company = company.name,
        dept = department
            .map(|d| format!(" ({d} department)"))
            .unwrap_or_default(),
        boss = company.boss_name,
        skills = if e.skills.is_empty() {
            "general".into()
        } else {
            e.skills.join(", ")
        },
        tools = if e.tool_whitelist.is_empty() {
            "none".into()
        } else {
            e.tool_whitelist
                .iter()
                .map(|t| crate::tools::signature(t).unwrap_or_else(|| t.clone()))
                .collect::<Vec<_>>()
                .join(", ")
        },
        commit = crate::tools::signature(&CommitToDate::NAME.to_string()).unwrap_or_default(),
    ) + &persona_block(e)
        + &language_rule(company)
}

/// The company's language, as the last word of the card: it rules over the language of
/// the role card, the speaking style and whatever the employee was hired in.
fn language_rule(company: &CompanyDto) -> String {
    match company.language {
        Language::ZhCn => format!(
            "\nLanguage: {} works in Simplified Chinese (简体中文). Write every message in \
             Simplified Chinese, even when your role card, your style or a colleague uses another \
             language. 请只用简体中文写消息。",
            company.name
        ),
        Language::En => format!(
            "\nLanguage: {} works in English. Write every message in English, even when your \
             role card, your style or a colleague uses another language.",
            company.name
        ),
    }
}

/// The role card's persona and rules, when the employee was hired from a card with one.
fn persona_block(e: &EmployeeDto) -> String {
    let Some(persona) = e
        .persona
        .as_deref()
        .map(str::trim)
        .filter(|p| !p.is_empty())
    else {
        return String::new();
    };
    let mut text: String = persona.chars().take(PERSONA_PROMPT_CHARS).collect();
    if persona.chars().nth(PERSONA_PROMPT_CHARS).is_some() {
        text.push('…');
    }
    format!("\nYour role card:\n{text}")
}

/// The personality in one line, for requests that do without the persona block.
pub fn personality_line(e: &EmployeeDto) -> String {
    format!(
        "Personality: {}. Style: {}",
        e.archetype.to_string().replace('_', " "),
        e.speaking_style
    )
}

/// The request for a new hire's first message to their department's group chat.
pub fn introduction_request(
    e: &EmployeeDto,
    company: &CompanyDto,
    department: &str,
) -> CompletionRequest {
    // Asked in the company's language: a model answers in the language it is asked in.
    let ask = match company.language {
        Language::ZhCn => format!(
            "你刚加入{department}群聊。给团队写第一条消息：用简体中文、以你自己的风格，用一到三句话\
             介绍自己（{name}）。以“大家好，我是{name}”开头。只写这条消息。",
            name = e.name,
        ),
        Language::En => format!(
            "You just joined the {department} group chat. Write your first message to the team: \
             introduce yourself as {name} in one to three sentences, in English, in your own style. \
             Start with \"Hi everyone, I'm {name}\". Write only the message.",
            name = e.name,
        ),
    };
    CompletionRequest {
        messages: vec![
            ChatMessage::system(format!(
                "{}\n{}",
                agent_card(e, company, Some(department)),
                personality_line(e)
            )),
            ChatMessage::user(ask),
        ],
        max_tokens: Some(INTRO_MAX_TOKENS),
        temperature: Some(0.7),
        // A small local model stops within the shape instead of at the token cap.
        shape: Some(cubicle_llm::TextShape::Text {
            max_chars: INTRO_MAX_CHARS as u32,
            single_line: true,
        }),
        ..Default::default()
    }
}

/// A model's introduction as posted: cleaned ([`clean_introduction`]) and in the
/// company's language; `None` when it is not (the caller asks again, then posts
/// [`own_introduction`]).
pub fn introduction_in(
    text: &str,
    e: &EmployeeDto,
    company: &CompanyDto,
    others: &[&str],
) -> Option<String> {
    let t = clean_introduction(text, e, others)?;
    let chinese = guided::is_chinese(&t);
    match company.language {
        Language::ZhCn if !chinese => None,
        Language::En if chinese => None,
        _ => Some(t),
    }
}

/// The introduction the app writes itself when the model gives none it can post: in the
/// company's language, whatever language the employee was hired in.
pub fn own_introduction(e: &EmployeeDto, company: &CompanyDto) -> String {
    match company.language {
        Language::ZhCn => format!("大家好，我是{}，新加入的{}。", e.name, e.title),
        Language::En => format!("Hi everyone, I'm {}, the new {}.", e.name, e.title),
    }
}

/// Cleans a model's introduction; `None` when nothing usable is left or it speaks as
/// someone else (the identity check of SPEC §10: the caller regenerates once).
pub fn clean_introduction(text: &str, e: &EmployeeDto, others: &[&str]) -> Option<String> {
    let text = if looks_like_json(text) {
        message_in_json(text)?
    } else {
        text.to_owned()
    };
    let mut t = text.trim().trim_matches('"').trim().to_owned();
    // "Alice: hi all" → "hi all"
    if let Some(rest) = t.strip_prefix(&format!("{}:", e.name)) {
        t = rest.trim().to_owned();
    }
    if others
        .iter()
        .any(|o| !o.is_empty() && t.starts_with(&format!("{o}:")))
    {
        return None;
    }
    if claims_other_identity(&t, &e.name, others) {
        return None;
    }
    let t = shorten(&t, INTRO_MAX_CHARS);
    (!t.trim().is_empty()).then_some(t)
}

/// Cleans one chat message of a thought: `None` when nothing is left or it speaks as
/// someone else (the identity check: the engine regenerates the thought once).
pub fn clean_chat_message(text: &str, e: &EmployeeDto, others: &[&str]) -> Option<String> {
    // A raw JSON answer is never a chat line: the message inside it, if it carries one
    // (repaired), else nothing (the caller asks again or drops the thought on record).
    let text = if looks_like_json(text) {
        message_in_json(text)?
    } else {
        text.to_owned()
    };
    let mut t = text.trim().trim_matches('"').trim().to_owned();
    for prefix in [format!("{}:", e.name), format!("{}：", e.name)] {
        if let Some(rest) = t.strip_prefix(&prefix) {
            t = rest.trim().to_owned();
        }
    }
    if others.iter().any(|o| {
        !o.is_empty() && (t.starts_with(&format!("{o}:")) || t.starts_with(&format!("{o}：")))
    }) {
        return None;
    }
    if claims_other_identity(&t, &e.name, others) {
        return None;
    }
    let t = shorten(&t, CHAT_MESSAGE_MAX_CHARS);
    (!t.trim().is_empty()).then_some(t)
}

/// A text without a code fence around it (```json … ```).
fn unfenced(text: &str) -> &str {
    let t = text.trim();
    let Some(rest) = t.strip_prefix("```") else {
        return t;
    };
    let rest = rest.trim_start_matches(|c: char| c.is_ascii_alphabetic());
    rest.strip_suffix("```").unwrap_or(rest).trim()
}

/// Whether a model's text is raw structured output (a JSON object or array, whole or
/// cut off, fenced or not) rather than words for people to read.
pub fn looks_like_json(text: &str) -> bool {
    let t = unfenced(text);
    let opens = t.starts_with('{') || t.starts_with('[');
    opens
        && (serde_json::from_str::<serde_json::Value>(t).is_ok()
            || t.starts_with("{\"")
            || t.starts_with("[{")
            || t.contains("\":"))
}

/// The message a raw JSON answer carries (`messages[0].content`, `content`, `message`,
/// `text` or `reply`), never its private parts; `None` when it carries none, or is cut off.
fn message_in_json(text: &str) -> Option<String> {
    let v: serde_json::Value = serde_json::from_str(unfenced(text)).ok()?;
    let v = match v {
        serde_json::Value::Array(items) => items.into_iter().next()?,
        v => v,
    };
    let found = v
        .get("messages")
        .and_then(|m| m.get(0))
        .and_then(|m| m.get("content").or(Some(m)))
        .and_then(serde_json::Value::as_str)
        .or_else(|| {
            ["content", "message", "text", "reply"]
                .iter()
                .find_map(|k| v.get(k).and_then(serde_json::Value::as_str))
        })?
        .trim()
        .to_owned();
    (!found.is_empty() && !looks_like_json(&found)).then_some(found)
}

/// "I'm Alex Chen" from Alice, or "我是张伟" from someone else.
fn claims_other_identity(text: &str, own: &str, others: &[&str]) -> bool {
    let own_first = own.split_whitespace().next().unwrap_or(own).to_lowercase();
    // Matched on the text itself, ASCII case folded: `to_lowercase` can change byte
    // lengths ("Ⱥ" is 2 bytes, "ⱥ" 3), so offsets found in a lowercased copy may not be
    // char boundaries of the original (a panic the fuzzer found).
    let bytes = text.as_bytes();
    for marker in ["i'm ", "i am ", "my name is ", "this is "] {
        let m = marker.as_bytes();
        let mut from = 0;
        while let Some(pos) = bytes[from..]
            .windows(m.len())
            .position(|w| w.eq_ignore_ascii_case(m))
        {
            // An ASCII match starts and ends on char boundaries.
            let start = from + pos + m.len();
            let word: String = text[start..]
                .chars()
                .take_while(|c| c.is_alphabetic())
                .collect();
            if word.chars().next().is_some_and(char::is_uppercase)
                && word.to_lowercase() != own_first
                && !["AI", "I"].contains(&word.as_str())
            {
                return true;
            }
            from = start;
        }
    }
    others.iter().any(|o| {
        !o.is_empty() && (text.contains(&format!("我是{o}")) || text.contains(&format!("我叫{o}")))
    })
}

/// At most `max` characters, cut after the last full sentence when there is one.
fn shorten(text: &str, max: usize) -> String {
    if text.chars().count() <= max {
        return text.to_owned();
    }
    let cut: String = text.chars().take(max).collect();
    match cut.rfind(['.', '!', '?', '。', '！', '？']) {
        Some(i) if i > max / 3 => {
            let end = i + cut[i..].chars().next().map_or(1, char::len_utf8);
            cut[..end].to_owned()
        }
        _ => cut,
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::org::BackendRef;
    use crate::types::*;

    /// An employee for prompt tests.
    pub(crate) fn alice() -> EmployeeDto {
        EmployeeDto {
            id: 1,
            name: "Alice".into(),
            title: "QA Engineer".into(),
            department_id: Some(1),
            team_id: None,
            manager_id: None,
            archetype: Archetype::AnxiousPerfectionist,
            speaking_style: "Let me check again.".into(),
            skills: vec!["testing".into()],
            backend: BackendRef {
                provider: String::new(),
                model: String::new(),
            },
            tool_whitelist: vec![],
            avatar: None,
            status: EmployeeStatus::Idle,
            hired_at: String::new(),
            fired_at: None,
            approval_policy: None,
            cli_command: None,
            persona: None,
            temperature: None,
            max_retries: None,
        }
    }

    #[test]
    fn introductions_keep_only_the_employees_own_words() {
        let a = alice();
        assert_eq!(
            clean_introduction("Alice: Hi team!", &a, &["Bob"]).as_deref(),
            Some("Hi team!")
        );
        assert_eq!(clean_introduction("Bob: I'm Bob", &a, &["Bob"]), None);
        assert_eq!(clean_introduction("   ", &a, &[]), None);
        assert_eq!(
            clean_introduction(&"x".repeat(1000), &a, &[]).map(|t| t.len()),
            Some(400)
        );
    }

    /// Letters whose lowercase is longer in UTF-8 ("Ⱥ" → "ⱥ") used to shift the offsets
    /// of "i'm" into the middle of a character: a panic in the engine.
    #[test]
    fn raw_json_is_never_a_chat_line() {
        let e = alice();
        let thought = r#"{"innerThoughts":"Bob is slow","shouldSpeak":true,"messages":[{"content":"On it, Ada."}]}"#;
        assert_eq!(
            clean_chat_message(thought, &e, &["Bob"]).as_deref(),
            Some("On it, Ada.")
        );
        for raw in [
            r#"{"innerThoughts":"Bob is slow","shouldSpeak":false}"#,
            r#"{"innerThoughts":"cut off here"#,
            "```json\n{\"interestLevel\": 3}\n```",
            r#"[{"content":"{\"nested\":1}"}]"#,
        ] {
            assert_eq!(clean_chat_message(raw, &e, &["Bob"]), None, "{raw}");
            assert_eq!(clean_introduction(raw, &e, &["Bob"]), None, "{raw}");
        }
        assert_eq!(
            clean_chat_message("{braces} are fine in words", &e, &[]).as_deref(),
            Some("{braces} are fine in words")
        );
    }

    #[test]
    fn identity_check_survives_case_changing_letters() {
        let e = alice();
        assert_eq!(
            clean_chat_message("ȺȺȺȺȺ i'm 张伟", &e, &["Bob"]).as_deref(),
            Some("ȺȺȺȺȺ i'm 张伟")
        );
        assert!(clean_chat_message("ȺȺȺȺ I'M Eve, the lead", &e, &["Bob"]).is_none());
        assert!(clean_chat_message("ȺȺ i'm Alice, hi", &e, &["Bob"]).is_some());
    }

    #[test]
    fn the_agent_card_names_identity_capabilities_boundaries_and_style() {
        let company = CompanyDto {
            id: 1,
            name: "Acme".into(),
            mission: String::new(),
            boss_name: "Ada".into(),
            language: Language::En,
            approval_policy: ApprovalPolicy::KeySteps,
            daily_budget_usd: 2.0,
            created_at: String::new(),
        };
        let card = format!(
            "{}\n{}",
            agent_card(&alice(), &company, Some("Engineering")),
            personality_line(&alice())
        );
        for needle in [
            "Alice",
            "QA Engineer",
            "Acme",
            "Engineering",
            "Ada",
            "testing",
            "never decide approvals",
            "anxious perfectionist",
            "Let me check again.",
        ] {
            assert!(card.contains(needle), "{needle} missing from {card}");
        }
    }
}
