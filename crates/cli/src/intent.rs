//! `cubicle-cli intent [--json] TEXT...`: what the secretary would understand, with no
//! change to the company. The rules answer when they are sure; otherwise, when a model
//! tier is configured (an intent route in the company's settings, or `CUBICLE_PROVIDER`),
//! the model tier reads it with the company's names in its prompt — exactly as in a
//! secretary turn. With no model configured it is the rule tier alone, same JSON shape.
//! A company database that does not exist yet is never created by this command.

use anyhow::Result;
use clap::Args;
use cubicle_core::AppCore;
use cubicle_core::secretary::{Parse, parse_rules};

#[derive(Args)]
pub struct IntentArgs {
    /// Print exactly one JSON object: {"tier", "intents": [{"kind", "confidence", "slots"}]}.
    #[arg(long)]
    json: bool,
    /// The boss's message (several words are joined with spaces).
    #[arg(required = true, num_args = 1.., trailing_var_arg = true, allow_hyphen_values = true)]
    text: Vec<String>,
}

/// The rule tier alone: no company to read, no model configured.
pub fn rules_only(args: IntentArgs) -> Result<()> {
    print_parse(&parse_rules(&args.text.join(" ")), args.json)
}

/// Through the secretary of an existing company (model tier when configured).
pub async fn run(core: &AppCore, args: IntentArgs) -> Result<()> {
    let parse = core.secretary.understand(&args.text.join(" ")).await?;
    print_parse(&parse, args.json)
}

fn print_parse(parse: &Parse, json: bool) -> Result<()> {
    if json {
        println!("{}", serde_json::to_string(&parse)?);
    } else {
        print!("{}", summary(parse)?);
    }
    Ok(())
}

/// One line per intent: kind, confidence, what to do about it, then its slots.
fn summary(parse: &Parse) -> Result<String> {
    let tier = serde_json::to_value(parse.tier)?;
    let mut out = format!("tier: {}\n", tier.as_str().unwrap_or("?"));
    for (n, intent) in parse.intents.iter().enumerate() {
        let note = if intent.kind.is_destructive() {
            "confirm first"
        } else if intent.is_confident() {
            "clear"
        } else {
            "would ask"
        };
        out.push_str(&format!(
            "{}. {} ({:.2}, {note})\n",
            n + 1,
            intent.kind,
            intent.confidence
        ));
        if let serde_json::Value::Object(slots) = serde_json::to_value(&intent.slots)? {
            for (k, v) in slots {
                let v = match v {
                    serde_json::Value::String(s) => s,
                    other => other.to_string(),
                };
                out.push_str(&format!("   {k}: {v}\n"));
            }
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn summary_lists_intents_and_slots() {
        let text = summary(&parse_rules("hire two designers and fire Bob")).unwrap();
        assert!(text.starts_with("tier: rules\n"), "{text}");
        assert!(text.contains("1. hire_employee"), "{text}");
        assert!(text.contains("   role: UI/UX Designer"), "{text}");
        assert!(text.contains("   count: 2"), "{text}");
        assert!(
            text.contains("2. fire_employee") && text.contains("confirm first"),
            "{text}"
        );
    }
}
