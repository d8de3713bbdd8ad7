//! `cubicle-cli provider …` and `cubicle-cli ask …`: the model gateway from the terminal.

use anyhow::{Result, anyhow, bail};
use clap::Subcommand;
use cubicle_core::AppCore;
use cubicle_core::gateway::{CallContext, Purpose, Route};
use cubicle_core::providers::{
    BuiltinStatus, KeySource, SaveProvider, SetBuiltinModel, SetProviderKey, TestProvider,
};
use cubicle_llm::{ChatMessage, CompletionRequest};
use std::io::Read;

#[derive(Subcommand)]
pub enum ProviderCommand {
    /// Configured providers (the built-in model first) and whether each has a key.
    List {
        #[arg(long)]
        json: bool,
    },
    /// Add a provider from a preset (openai, deepseek, qwen, moonshot, openrouter,
    /// ollama, lmstudio, vllm, anthropic).
    Add {
        preset: String,
        /// Display name; default: the preset's name.
        #[arg(long)]
        name: Option<String>,
        #[arg(long)]
        base_url: Option<String>,
        #[arg(long)]
        model: Option<String>,
    },
    /// Store a provider's API key in the OS keychain. Reads the key from stdin so it
    /// never lands in shell history.
    SetKey { provider: String },
    /// Point the built-in model at another GGUF file (or `--default` to go back).
    SetBuiltin {
        #[arg(required_unless_present = "default")]
        path: Option<String>,
        #[arg(long, conflicts_with = "path")]
        default: bool,
    },
    /// Make a real minimal call to a provider and report the result.
    Test {
        provider: String,
        #[arg(long)]
        model: Option<String>,
    },
}

pub async fn run(core: &AppCore, cmd: ProviderCommand) -> Result<()> {
    match cmd {
        ProviderCommand::List { json } => list(core, json).await,
        ProviderCommand::Add {
            preset,
            name,
            base_url,
            model,
        } => add(core, preset, name, base_url, model).await,
        ProviderCommand::SetKey { provider } => set_key(core, provider).await,
        ProviderCommand::SetBuiltin { path, default } => {
            let status = core
                .providers
                .set_builtin_model(SetBuiltinModel {
                    path: if default { None } else { path },
                })
                .await?;
            println!("built-in model: {}", installed(&status));
            Ok(())
        }
        ProviderCommand::Test { provider, model } => test(core, provider, model).await,
    }
}

async fn list(core: &AppCore, json: bool) -> Result<()> {
    let p = &core.providers;
    let list = p.list().await?;
    if json {
        println!("{}", serde_json::to_string_pretty(&list)?);
        return Ok(());
    }
    for x in list {
        let key = match (x.key_required, x.key_source) {
            (false, _) => "no key needed",
            (true, KeySource::Keychain) => "key in keychain",
            (true, KeySource::Environment) => "key from environment",
            (true, KeySource::None) => "NO KEY",
        };
        println!(
            "{:<16} {:<28} {:<24} {}",
            x.id,
            x.name,
            x.default_model,
            if x.builtin {
                format!("built-in, {}", installed(&p.builtin_status().await))
            } else if x.imported_unconfirmed {
                format!(
                    "{key}, IMPORTED: not used until `cubicle-cli imported confirm provider {}`",
                    x.id
                )
            } else {
                key.to_owned()
            }
        );
    }
    Ok(())
}

/// A provider from `preset`, each value the caller leaves out taken from the preset.
async fn add(
    core: &AppCore,
    preset: String,
    name: Option<String>,
    base_url: Option<String>,
    model: Option<String>,
) -> Result<()> {
    let p = &core.providers;
    let known = p
        .list_presets()
        .into_iter()
        .find(|x| x.id == preset)
        .ok_or_else(|| anyhow!("unknown preset {preset:?}"))?;
    let saved = p
        .save(SaveProvider {
            id: None,
            name: name.unwrap_or(known.name),
            preset,
            base_url: base_url.unwrap_or(known.base_url),
            default_model: model.unwrap_or(known.default_model),
            models: vec![],
            enabled: true,
        })
        .await?;
    println!("provider {} added", saved.id);
    if saved.key_required && !saved.has_key {
        println!(
            "set its key with: cubicle-cli provider set-key {} < keyfile",
            saved.id
        );
    }
    Ok(())
}

async fn set_key(core: &AppCore, provider: String) -> Result<()> {
    let mut key = String::new();
    std::io::stdin().read_to_string(&mut key)?;
    let key = key.trim().to_owned();
    if key.is_empty() {
        bail!(
            "no key on stdin: pipe it in, e.g. `cubicle-cli provider set-key {provider} < keyfile`"
        );
    }
    core.providers
        .set_key(SetProviderKey {
            provider_id: provider.clone(),
            key,
        })
        .await?;
    println!("key for {provider} stored in the OS keychain");
    Ok(())
}

async fn test(core: &AppCore, provider: String, model: Option<String>) -> Result<()> {
    let r = core
        .providers
        .test(
            &core.gateway,
            TestProvider {
                provider_id: provider.clone(),
                model,
            },
        )
        .await;
    if !r.ok {
        let e = r
            .error
            .map(|e| format!("{}: {}", e.code, e.message))
            .unwrap_or_default();
        bail!("{provider} failed after {} ms: {e}", r.latency_ms);
    }
    println!(
        "ok: {provider} ({}) answered in {} ms: {}",
        r.model,
        r.latency_ms,
        r.reply.unwrap_or_default()
    );
    Ok(())
}

fn installed(s: &BuiltinStatus) -> String {
    if s.installed {
        format!("installed ({})", s.path)
    } else {
        format!(
            "NOT installed (run scripts/install-model.sh; expected at {})",
            s.path
        )
    }
}

/// `cubicle-cli ask [--provider P] [--schema FILE] PROMPT`
pub async fn ask(
    core: &AppCore,
    provider: Option<String>,
    model: Option<String>,
    schema: Option<std::path::PathBuf>,
    prompt: String,
) -> Result<()> {
    let mut route = match provider {
        Some(id) => Route {
            provider_id: id,
            model: String::new(),
        },
        None => core.providers.route_for(Purpose::Intent).await?,
    };
    if let Some(m) = model {
        route.model = m;
    }
    let ctx = CallContext::new(Purpose::Ask);
    let req = CompletionRequest {
        messages: vec![ChatMessage::user(prompt)],
        ..Default::default()
    };
    match schema {
        None => {
            let reply = core.gateway.complete(&ctx, route, req).await?;
            if reply.fallback {
                eprintln!("(answered by the built-in model as a fallback)");
            }
            println!("{}", reply.value.text.trim());
        }
        Some(path) => {
            let text = std::fs::read_to_string(&path)
                .map_err(|e| anyhow!("cannot read {}: {e}", path.display()))?;
            let schema: serde_json::Value = serde_json::from_str(&text)
                .map_err(|e| anyhow!("{} is not JSON: {e}", path.display()))?;
            let reply = core
                .gateway
                .complete_json_value(&ctx, route, req, schema)
                .await?;
            println!("{}", serde_json::to_string_pretty(&reply.value)?);
        }
    }
    Ok(())
}
