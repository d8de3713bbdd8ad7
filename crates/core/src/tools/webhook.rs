//! `post_webhook`: a real HTTP POST to a chat webhook outside the company (high risk:
//! SPEC §8 — sending anything outside the company waits for the boss).

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use super::{Risk, Tool, ToolContext, ToolError};

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

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize, JsonSchema)]
pub struct Posted {
    pub status: u16,
    /// The start of the server's answer.
    pub body: String,
}

pub struct PostWebhook;

impl Tool for PostWebhook {
    const NAME: &'static str = "post_webhook";
    const RISK: Risk = Risk::High;
    const DESCRIPTION: &'static str =
        "Post a text message to a Slack, Feishu or DingTalk webhook outside the company.";
    type Args = PostWebhookArgs;
    type Output = Posted;

    fn bind(_cx: &ToolContext<'_>, args: PostWebhookArgs) -> Result<PostWebhookArgs, ToolError> {
        let lower = args.url.trim().to_ascii_lowercase();
        if !(lower.starts_with("http://") || lower.starts_with("https://")) {
            return Err(ToolError::InvalidArgs {
                tool: Self::NAME.into(),
                message: format!("{} is not an http(s) URL", args.url),
            });
        }
        Ok(PostWebhookArgs {
            url: args.url.trim().to_owned(),
            ..args
        })
    }

    async fn run(cx: &ToolContext<'_>, args: PostWebhookArgs) -> Result<Posted, ToolError> {
        let resp = cubicle_llm::post_json(
            &args.url,
            &args.style.payload(&args.text),
            cx.runtime.config.webhook_timeout,
        )
        .await?;
        Ok(Posted {
            status: resp.status,
            body: resp.body,
        })
    }

    fn describe(args: &PostWebhookArgs) -> String {
        format!("post to {}: {}", args.url, args.text)
    }
}
