//! `post_webhook`: a real HTTP POST to a chat webhook outside the company (high risk:
//! SPEC §8 — sending anything outside the company waits for the boss).
//!
//! Only to hosts on the boss's allowlist (an `app_setting`, edited in Settings and with
//! `cubicle-cli webhooks`), only to public addresses, and only the status line comes
//! back (see `cubicle_llm::webhook` for the fence around the POST itself).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use cubicle_store::{DbErr, models as settings};

use super::{Risk, Tool, ToolContext, ToolError, ToolName};
use crate::types::Language;

/// `app_setting` key holding the boss's webhook destinations (a JSON array of hosts).
const DESTINATIONS_SETTING: &str = "webhook_destinations";

/// The boss's webhook destinations (`host` or `host:port`), in the order added.
pub async fn destinations(
    conn: &impl cubicle_store::ConnectionTrait,
) -> Result<Vec<String>, DbErr> {
    Ok(settings::get_setting(conn, DESTINATIONS_SETTING)
        .await?
        .and_then(|v| serde_json::from_str(&v).ok())
        .unwrap_or_default())
}

/// `hosts` as allowlist entries: each normalised (a pasted URL keeps only its host and
/// explicit port) and kept once; the error names the first one that is not a host.
pub fn normalize_destinations(hosts: &[String]) -> Result<Vec<String>, String> {
    let mut out: Vec<String> = Vec::new();
    for h in hosts.iter().filter(|h| !h.trim().is_empty()) {
        let d = cubicle_llm::webhook::destination(h)
            .map_err(|_| format!("{h:?} is not a host name, host:port or http(s) URL"))?;
        if !out.contains(&d) {
            out.push(d);
        }
    }
    Ok(out)
}

/// Stores the (normalised) destinations.
pub async fn store_destinations(
    conn: &impl cubicle_store::ConnectionTrait,
    list: &[String],
) -> Result<(), DbErr> {
    let json = serde_json::to_string(list).unwrap_or_else(|_| "[]".into());
    settings::set_setting(conn, DESTINATIONS_SETTING, Some(&json)).await
}

/// `url` with only its scheme, host and port: what a bundle or a log may keep of a
/// webhook whose path or query is its secret.
pub fn redacted_url(url: &str) -> String {
    let (scheme, rest) = url.split_once("://").unwrap_or(("", url));
    let authority = rest.split(['/', '?', '#']).next().unwrap_or_default();
    let host = authority.rsplit_once('@').map_or(authority, |(_, h)| h);
    let tail = if host.len() < rest.len() { "/…" } else { "" };
    format!("{scheme}://{host}{tail}")
}

/// The JSON shape the receiving service expects.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize, JsonSchema, TS)]
#[serde(rename_all = "snake_case")]
pub enum WebhookStyle {
    /// Slack (and anything taking `{"text": …}`).
    #[default]
    Slack,
    /// Feishu / Lark: `{"msg_type": "text", "content": {"text": …}}`.
    Feishu,
    /// DingTalk: `{"msgtype": "text", "text": {"content": …}}`.
    Dingtalk,
}

impl WebhookStyle {
    pub fn payload(self, text: &str) -> serde_json::Value {
        match self {
            WebhookStyle::Slack => serde_json::json!({ "text": text }),
            WebhookStyle::Feishu => {
                serde_json::json!({ "msg_type": "text", "content": { "text": text } })
            }
            WebhookStyle::Dingtalk => {
                serde_json::json!({ "msgtype": "text", "text": { "content": text } })
            }
        }
    }
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
pub struct PostWebhookArgs {
    /// The webhook URL (http or https).
    pub url: String,
    /// The message.
    pub text: String,
    #[serde(default)]
    pub style: WebhookStyle,
}

/// Only the status: the server's answer is not shown to the model, which could be
/// steered into fetching something it should not read.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Posted {
    pub status: u16,
}

pub struct PostWebhook;

impl Tool for PostWebhook {
    const NAME: ToolName = ToolName::PostWebhook;
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str = "Post a text message to a Slack, Feishu or DingTalk webhook \
         outside the company. Only hosts the boss allowed; you get the HTTP status back, not the answer.";
    type Args = PostWebhookArgs;
    type Output = Posted;

    fn bind(_cx: &ToolContext<'_>, args: PostWebhookArgs) -> Result<PostWebhookArgs, ToolError> {
        let lower = args.url.trim().to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            return Err(ToolError::InvalidArgs {
                tool: Self::NAME.to_string(),
                message: format!("{} is not an http(s) URL", args.url),
            });
        }
        Ok(PostWebhookArgs {
            url: args.url.trim().to_owned(),
            ..args
        })
    }

    /// Refused at once when the host is not allowed, rather than after the boss approved.
    async fn assess(cx: &ToolContext<'_>, args: &PostWebhookArgs) -> Result<Risk, ToolError> {
        let list = destinations(&cx.runtime.db).await?;
        cubicle_llm::Destinations::new(list).permits(&args.url)?;
        Ok(Self::RISK)
    }

    /// The allowlist is read again: the boss may have removed the host since.
    async fn run(cx: &ToolContext<'_>, args: PostWebhookArgs) -> Result<Posted, ToolError> {
        let list = destinations(&cx.runtime.db).await?;
        let fence = cubicle_llm::Destinations::new(list)
            .with_loopback_for_tests(cx.runtime.config.webhook_loopback_for_tests);
        let resp = cubicle_llm::post_json(
            &args.url,
            &args.style.payload(&args.text),
            cx.runtime.config.webhook_timeout,
            &fence,
        )
        .await?;
        Ok(Posted {
            status: resp.status,
        })
    }

    fn describe(args: &PostWebhookArgs, lang: Language) -> String {
        match lang {
            Language::En => format!("post to {}: {}", args.url, args.text),
            Language::ZhCn => format!("发往 {}：{}", args.url, args.text),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_redacted_webhook_url_keeps_only_where_it_went() {
        assert_eq!(
            redacted_url("https://hooks.slack.com/services/T0/B0/XYZ?x=1"),
            "https://hooks.slack.com/…"
        );
        assert_eq!(
            redacted_url("http://user:pw@127.0.0.1:9/hook"),
            "http://127.0.0.1:9/…"
        );
        assert_eq!(redacted_url("https://example.com"), "https://example.com");
    }
}
