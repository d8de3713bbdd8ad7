//! Prices per model (USD per million tokens) and what a call cost.

use cubicle_llm::Usage;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
}

impl Price {
    pub const FREE: Price = Price {
        input_per_mtok: 0.0,
        output_per_mtok: 0.0,
    };

    pub fn cost(&self, usage: Usage) -> f64 {
        (f64::from(usage.input_tokens) * self.input_per_mtok
            + f64::from(usage.output_tokens) * self.output_per_mtok)
            / 1_000_000.0
    }
}

/// For a paid provider's model we have no price for: deliberately expensive, so an
/// unpriced model can never slip past the budget. The boss can set the real price.
pub const UNKNOWN_PAID_MODEL: Price = Price {
    input_per_mtok: 10.0,
    output_per_mtok: 30.0,
};

/// Providers that run on the user's own machine cost nothing per token.
pub fn is_local_preset(preset: &str) -> bool {
    matches!(preset, "builtin" | "ollama" | "lmstudio" | "vllm")
}

/// Published list prices of the presets' common models, as defaults the boss may edit.
pub const DEFAULT_PRICES: &[(&str, &str, f64, f64)] = &[
    ("openai", "gpt-4o-mini", 0.15, 0.60),
    ("openai", "gpt-4o", 2.50, 10.00),
    ("openai", "gpt-4.1-mini", 0.40, 1.60),
    ("openai", "gpt-4.1", 2.00, 8.00),
    ("deepseek", "deepseek-chat", 0.27, 1.10),
    ("deepseek", "deepseek-reasoner", 0.55, 2.19),
    ("qwen", "qwen-plus", 0.40, 1.20),
    ("qwen", "qwen-turbo", 0.05, 0.20),
    ("moonshot", "moonshot-v1-8k", 1.65, 1.65),
    ("anthropic", "claude-3-5-haiku-latest", 0.80, 4.00),
    ("anthropic", "claude-sonnet-4-0", 3.00, 15.00),
    ("openrouter", "openai/gpt-4o-mini", 0.15, 0.60),
];

pub fn default_price(preset: &str, model: &str) -> Option<Price> {
    if is_local_preset(preset) {
        return Some(Price::FREE);
    }
    DEFAULT_PRICES
        .iter()
        .find(|(p, m, _, _)| *p == preset && *m == model)
        .map(|&(_, _, i, o)| Price {
            input_per_mtok: i,
            output_per_mtok: o,
        })
}

/// Rough token count of a text for estimates (≈ 4 characters per token; CJK ≈ 1 per char).
pub fn estimate_tokens(text: &str) -> u32 {
    let cjk = text.chars().filter(|c| *c as u32 >= 0x2E80).count();
    let other = text.chars().count() - cjk;
    u32::try_from(cjk + other.div_ceil(4)).unwrap_or(u32::MAX)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cost_is_tokens_times_price_per_million() {
        let p = Price {
            input_per_mtok: 2.0,
            output_per_mtok: 8.0,
        };
        let c = p.cost(Usage {
            input_tokens: 1_000,
            output_tokens: 500,
            ..Usage::default()
        });
        assert!((c - 0.006).abs() < 1e-12, "{c}");
    }

    #[test]
    fn local_models_are_free_and_unknown_paid_ones_are_not() {
        assert_eq!(default_price("ollama", "llama3"), Some(Price::FREE));
        assert_eq!(default_price("deepseek", "something-new"), None);
        let unpriced = UNKNOWN_PAID_MODEL.cost(Usage {
            input_tokens: 1_000_000,
            output_tokens: 0,
            ..Usage::default()
        });
        assert!(
            unpriced >= 1.0,
            "an unpriced model must look expensive: {unpriced}"
        );
    }

    #[test]
    fn token_estimates_count_cjk_per_character() {
        assert_eq!(estimate_tokens("abcdefgh"), 2);
        assert_eq!(estimate_tokens("帮我招一个测试"), 7);
    }
}
