//! Prices per model (USD per million tokens), what a call cost, and the prompt-cache rules
//! that decide how much of a prompt a provider bills at its cached price.

use cubicle_llm::Usage;

#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Price {
    pub input_per_mtok: f64,
    pub output_per_mtok: f64,
    /// An input token served from the provider's prompt cache.
    pub cached_input_per_mtok: f64,
    /// An input token written to the cache (Anthropic bills the write above the base price).
    pub cache_write_per_mtok: f64,
}

impl Price {
    pub const FREE: Price = Price::flat(0.0, 0.0);

    /// A price with no cache discount: every input token at the base price.
    pub const fn flat(input_per_mtok: f64, output_per_mtok: f64) -> Self {
        Self {
            input_per_mtok,
            output_per_mtok,
            cached_input_per_mtok: input_per_mtok,
            cache_write_per_mtok: input_per_mtok,
        }
    }

    /// What `usage` costs: the input served from the cache at the cached price, the input
    /// written to it at the write price, the rest at the base price.
    pub fn cost(&self, usage: Usage) -> f64 {
        let cached = usage.cached_input_tokens.min(usage.input_tokens);
        let written = usage
            .cache_write_input_tokens
            .min(usage.input_tokens - cached);
        let plain = usage.input_tokens - cached - written;
        (f64::from(plain) * self.input_per_mtok
            + f64::from(cached) * self.cached_input_per_mtok
            + f64::from(written) * self.cache_write_per_mtok
            + f64::from(usage.output_tokens) * self.output_per_mtok)
            / 1_000_000.0
    }

    /// The cached price over the base price: what a cached token weighs in billed-equivalent
    /// input tokens.
    pub fn cached_ratio(&self) -> f64 {
        if self.input_per_mtok > 0.0 {
            self.cached_input_per_mtok / self.input_per_mtok
        } else {
            1.0
        }
    }
}

/// For a paid provider's model we have no price for: deliberately expensive, so an
/// unpriced model can never slip past the budget. The boss can set the real price.
pub const UNKNOWN_PAID_MODEL: Price = Price::flat(10.0, 30.0);

/// Providers that run on the user's own machine cost nothing per token.
pub fn is_local_preset(preset: &str) -> bool {
    matches!(preset, "builtin" | "ollama" | "lmstudio" | "vllm")
}

/// Published list prices of the presets' common models, as defaults the boss may edit:
/// (preset, model, input, cached input, output), USD per million tokens.
///
/// Cached input, as published by each provider (checked 2026-12):
/// - OpenAI (openai.com/api/pricing): "cached input" is half the input price on the
///   GPT-4o family and a quarter of it on the GPT-4.1 family.
/// - DeepSeek (api-docs.deepseek.com/quick_start/pricing, DeepSeek-V3.2 behind both
///   endpoints): $0.28 on a cache miss, $0.028 on a cache hit, $0.42 output.
/// - Anthropic (platform.claude.com/docs/en/about-claude/pricing): "cache hits and
///   refreshes" at 0.1× the base input price; a 5-minute cache write at 1.25×
///   ([`ANTHROPIC_CACHE_WRITE`]).
/// - Qwen, Moonshot and OpenRouter: no cached price here; their input is billed in full.
pub const DEFAULT_PRICES: &[(&str, &str, f64, f64, f64)] = &[
    ("openai", "gpt-4o-mini", 0.15, 0.075, 0.60),
    ("openai", "gpt-4o", 2.50, 1.25, 10.00),
    ("openai", "gpt-4.1-mini", 0.40, 0.10, 1.60),
    ("openai", "gpt-4.1", 2.00, 0.50, 8.00),
    ("deepseek", "deepseek-chat", 0.28, 0.028, 0.42),
    ("deepseek", "deepseek-reasoner", 0.28, 0.028, 0.42),
    ("qwen", "qwen-plus", 0.40, 0.40, 1.20),
    ("qwen", "qwen-turbo", 0.05, 0.05, 0.20),
    ("moonshot", "moonshot-v1-8k", 1.65, 1.65, 1.65),
    ("anthropic", "claude-haiku-4-5", 1.00, 0.10, 5.00),
    ("anthropic", "claude-3-5-haiku-latest", 0.80, 0.08, 4.00),
    ("anthropic", "claude-sonnet-4-0", 3.00, 0.30, 15.00),
    ("anthropic", "claude-sonnet-4-5", 3.00, 0.30, 15.00),
    ("openrouter", "openai/gpt-4o-mini", 0.15, 0.15, 0.60),
];

/// Anthropic bills a 5-minute cache write at 1.25× the base input price.
pub const ANTHROPIC_CACHE_WRITE: f64 = 1.25;

pub fn default_price(preset: &str, model: &str) -> Option<Price> {
    if is_local_preset(preset) {
        return Some(Price::FREE);
    }
    DEFAULT_PRICES
        .iter()
        .find(|(p, m, ..)| *p == preset && *m == model)
        .map(|&(_, _, input, cached, output)| priced(preset, model, input, output, cached))
}

/// A price the boss set (input and output) with the cache discount the provider publishes
/// for the model, if we know one; else no discount.
pub fn with_known_cache(preset: &str, model: &str, input: f64, output: f64) -> Price {
    let ratio = DEFAULT_PRICES
        .iter()
        .find(|(p, m, ..)| *p == preset && *m == model)
        .map_or(1.0, |&(_, _, i, c, _)| if i > 0.0 { c / i } else { 1.0 });
    priced(preset, model, input, output, input * ratio)
}

fn priced(preset: &str, _model: &str, input: f64, output: f64, cached: f64) -> Price {
    Price {
        input_per_mtok: input,
        output_per_mtok: output,
        cached_input_per_mtok: cached,
        cache_write_per_mtok: if preset == "anthropic" {
            input * ANTHROPIC_CACHE_WRITE
        } else {
            input
        },
    }
}

/// How a provider decides what of a prompt it serves from its cache: only an exact prefix
/// of an earlier prompt, at least `min_tokens` long, counted in whole `unit`s.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CacheRules {
    /// A shared prefix shorter than this hits nothing.
    pub min_tokens: usize,
    /// Hits come in whole units of this many tokens past the minimum.
    pub unit: usize,
    /// The prefix is cached only up to a `cache_control` breakpoint the request marks
    /// (Anthropic); else wherever the prompts agree.
    pub explicit_breakpoints: bool,
}

impl CacheRules {
    /// Of a prefix `shared` tokens long that the previous prompt also had (and, with
    /// explicit breakpoints, that ends at one), how many tokens the provider serves from
    /// its cache.
    pub fn hit(&self, shared: usize) -> usize {
        if shared < self.min_tokens || self.unit == 0 {
            return 0;
        }
        self.min_tokens + (shared - self.min_tokens) / self.unit * self.unit
    }
}

/// The prompt-cache rules of a provider's model; `None` where it caches nothing we can
/// count on.
///
/// - OpenAI (platform.openai.com/docs/guides/prompt-caching): automatic for prompts of
///   1,024 tokens or more, "cache hits occurring in increments of 128 tokens" — a shared
///   prefix below 1,024 tokens hits nothing.
/// - DeepSeek (api-docs.deepseek.com/guides/kv_cache): automatic; a hit must fully match a
///   persisted prefix unit (the common prefix of earlier requests is persisted as one, so
///   from an employee's third thought on its shared prefix is a unit). Its earlier guide
///   counted the cache in 64-token units, and nothing under 64: kept here as the
///   conservative reading.
/// - Anthropic (platform.claude.com/docs/en/build-with-claude/prompt-caching): only up to
///   an explicit `cache_control` breakpoint, and only when the prefix there reaches the
///   model's minimum cacheable length: 1,024 tokens for Sonnet 4/4.5, 2,048 for Haiku 3.5,
///   4,096 for Haiku 4.5.
pub fn cache_rules(preset: &str, model: &str) -> Option<CacheRules> {
    let rules = |min_tokens, unit, explicit_breakpoints| {
        Some(CacheRules {
            min_tokens,
            unit,
            explicit_breakpoints,
        })
    };
    match preset {
        "openai" => rules(1024, 128, false),
        "deepseek" => rules(64, 64, false),
        "anthropic" if model.contains("haiku-4") => rules(4096, 1, true),
        "anthropic" if model.contains("haiku") => rules(2048, 1, true),
        "anthropic" => rules(1024, 1, true),
        _ => None,
    }
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
        let p = Price::flat(2.0, 8.0);
        let c = p.cost(Usage {
            input_tokens: 1_000,
            output_tokens: 500,
            ..Usage::default()
        });
        assert!((c - 0.006).abs() < 1e-12, "{c}");
    }

    #[test]
    fn cached_input_is_billed_at_the_cached_price_and_anthropic_writes_at_a_premium() {
        let mini = default_price("openai", "gpt-4.1-mini").expect("priced");
        assert!((mini.cached_ratio() - 0.25).abs() < 1e-9);
        let usage = Usage {
            input_tokens: 1_000_000,
            cached_input_tokens: 600_000,
            ..Usage::default()
        };
        // 400k at $0.40 and 600k at $0.10.
        assert!(
            (mini.cost(usage) - 0.22).abs() < 1e-9,
            "{}",
            mini.cost(usage)
        );
        let haiku = default_price("anthropic", "claude-haiku-4-5").expect("priced");
        let usage = Usage {
            input_tokens: 1_000_000,
            cached_input_tokens: 500_000,
            cache_write_input_tokens: 200_000,
            ..Usage::default()
        };
        // 300k at $1, 500k at $0.10, 200k at $1.25.
        assert!(
            (haiku.cost(usage) - 0.6).abs() < 1e-9,
            "{}",
            haiku.cost(usage)
        );
        let deepseek = default_price("deepseek", "deepseek-chat").expect("priced");
        assert!((deepseek.cached_ratio() - 0.1).abs() < 1e-9);
        // A price the boss set keeps the provider's published discount.
        let set = with_known_cache("openai", "gpt-4o-mini", 1.0, 2.0);
        assert!((set.cached_input_per_mtok - 0.5).abs() < 1e-9);
        assert_eq!(
            with_known_cache("qwen", "new", 1.0, 2.0),
            Price::flat(1.0, 2.0)
        );
    }

    #[test]
    fn a_shared_prefix_below_the_minimum_hits_nothing_and_hits_come_in_units() {
        let openai = cache_rules("openai", "gpt-4.1-mini").expect("caches");
        assert_eq!(openai.hit(1023), 0);
        assert_eq!(openai.hit(1024), 1024);
        assert_eq!(openai.hit(1151), 1024);
        assert_eq!(openai.hit(1152), 1152);
        let deepseek = cache_rules("deepseek", "deepseek-chat").expect("caches");
        assert_eq!(deepseek.hit(63), 0);
        assert_eq!(deepseek.hit(700), 640);
        let haiku = cache_rules("anthropic", "claude-haiku-4-5").expect("caches");
        assert!(haiku.explicit_breakpoints);
        assert_eq!(
            haiku.hit(1300),
            0,
            "Haiku 4.5 caches nothing under 4,096 tokens"
        );
        assert_eq!(
            cache_rules("anthropic", "claude-sonnet-4-5").map(|r| r.hit(1100)),
            Some(1100)
        );
        assert_eq!(cache_rules("qwen", "qwen-plus"), None);
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
