//! What a tool printed can hold a credential: a key echoed by a script, a token in a
//! config file it read, a URL with a password. A bundle is a file that travels, so the
//! tool data in it is scrubbed on export: the keys this company holds, wherever they
//! appear, and anything shaped like a credential.

use std::sync::LazyLock;

use regex::Regex;

/// What a cut-out credential reads as.
pub const REDACTED: &str = "[redacted]";

/// Well-known key shapes (OpenAI/Anthropic, Slack, GitHub, GitLab, AWS, Google).
static KEY_SHAPES: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(concat!(
        r"\b(?:sk|rk|pk)-[A-Za-z0-9_\-]{16,}",
        r"|\bxox[abprs]-[A-Za-z0-9\-]{10,}",
        r"|\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}|\bgithub_pat_[A-Za-z0-9_]{20,}",
        r"|\bglpat-[A-Za-z0-9_\-]{20,}",
        r"|\bAKIA[0-9A-Z]{16}\b",
        r"|\bAIza[0-9A-Za-z_\-]{30,}",
    ))
    .ok()
});

/// A labelled secret: `Bearer x`, `password=x`, `api_key: "x"`, `token=x` — the label
/// stays. Only `Bearer` may be followed by a bare space: "password protected" is prose.
static LABELLED: LazyLock<Option<Regex>> = LazyLock::new(|| {
    Regex::new(
        r#"(?i)\b(bearer)(\s+)[A-Za-z0-9_\-.=+/]{8,}|\b(token|api[_-]?key|password|passwd|secret)(\s*[:=]\s*["']?)[A-Za-z0-9_\-.=+/]{8,}"#,
    )
    .ok()
});

/// A URL, to lose its password and query string.
static URL: LazyLock<Option<Regex>> =
    LazyLock::new(|| Regex::new(r#"[A-Za-z][A-Za-z0-9+.\-]*://[^\s"'<>]+"#).ok());

/// `text` with every one of `known` and anything shaped like a credential cut out.
pub fn scrub(text: &str, known: &[String]) -> String {
    let mut out = text.to_owned();
    // Keys shorter than this would cut out ordinary words.
    for k in known.iter().filter(|k| k.len() >= 8) {
        out = out.replace(k.as_str(), REDACTED);
    }
    if let Some(re) = KEY_SHAPES.as_ref() {
        out = re.replace_all(&out, REDACTED).into_owned();
    }
    if let Some(re) = LABELLED.as_ref() {
        out = re
            .replace_all(&out, format!("${{1}}${{2}}${{3}}${{4}}{REDACTED}"))
            .into_owned();
    }
    if let Some(re) = URL.as_ref() {
        out = re
            .replace_all(&out, |c: &regex::Captures<'_>| {
                cubicle_store::db::redact_url(&c[0])
            })
            .into_owned();
    }
    out
}

/// [`scrub`] over every string in a JSON value.
pub fn scrub_json(v: &mut serde_json::Value, known: &[String]) {
    match v {
        serde_json::Value::String(s) => *s = scrub(s, known),
        serde_json::Value::Array(items) => items.iter_mut().for_each(|x| scrub_json(x, known)),
        serde_json::Value::Object(map) => map.values_mut().for_each(|x| scrub_json(x, known)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_keys_held_and_credential_shapes_are_cut_out() {
        let known = vec!["my-own-deepseek-key-123".to_owned()];
        let text = "key=my-own-deepseek-key-123 then sk-ant-api03-abcdefghijklmnopqrst \
                    xoxb-1234567890-abcdef ghp_abcdefghijklmnopqrstuvwx AKIAABCDEFGHIJKLMNOP \
                    Authorization: Bearer eyJhbGciOiJIUzI1NiJ9 password=hunter2hunter2 \
                    https://bob:pw@example.com/x?token=abc";
        let out = scrub(text, &known);
        for secret in [
            "my-own-deepseek-key-123",
            "sk-ant-api03",
            "xoxb-1234567890",
            "ghp_abcdef",
            "AKIAABCDEF",
            "eyJhbGciOiJIUzI1NiJ9",
            "hunter2",
            "bob:pw",
            "token=abc",
        ] {
            assert!(!out.contains(secret), "{secret} left in {out}");
        }
        assert!(out.contains("Bearer [redacted]"), "{out}");
        assert!(out.contains("password=[redacted]"), "{out}");
        assert!(out.contains("https://***@example.com/x?…"), "{out}");
    }

    #[test]
    fn ordinary_output_is_left_alone() {
        let text = "test result: ok. 12 passed; see https://docs.rs/regex, a password protected \
                    zip and the secret ingredients";
        assert_eq!(scrub(text, &["ok".to_owned()]), text);
        let mut v = serde_json::json!({"stdout": "sk-abcdefghijklmnopqrstu", "code": 0});
        scrub_json(&mut v, &[]);
        assert_eq!(v, serde_json::json!({"stdout": REDACTED, "code": 0}));
    }
}
