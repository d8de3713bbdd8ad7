//! Finds model servers already running on this machine (Ollama, LM Studio, a llama.cpp
//! server) on their default ports, so the boss can add one without typing a URL.
//! Every probe is a single GET to 127.0.0.1 with a short timeout, all run at once.

use std::time::Duration;

use serde::Deserialize;

/// Whether an endpoint is on this machine: `localhost`, `127.x.x.x` or `[::1]` (a name
/// that merely starts with one, `localhost.example.com`, is not).
pub fn is_loopback_endpoint(url: &str) -> bool {
    let Ok(parsed) = reqwest::Url::parse(url.trim()) else {
        return false;
    };
    parsed.host_str().is_some_and(|host| {
        host.eq_ignore_ascii_case("localhost")
            || host
                .trim_matches(['[', ']'])
                .parse::<std::net::IpAddr>()
                .is_ok_and(|ip| ip.is_loopback())
    })
}

/// Long enough for a busy local server, short enough that Settings opens at once.
pub const PROBE_TIMEOUT: Duration = Duration::from_millis(800);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ServerKind {
    Ollama,
    LmStudio,
    LlamaCpp,
}

impl ServerKind {
    /// The provider preset that talks to it (llama.cpp has none: any OpenAI-compatible
    /// endpoint, the `custom` preset).
    pub fn preset(self) -> &'static str {
        match self {
            ServerKind::Ollama => "ollama",
            ServerKind::LmStudio => "lmstudio",
            ServerKind::LlamaCpp => "custom",
        }
    }

    pub fn display_name(self) -> &'static str {
        match self {
            ServerKind::Ollama => "Ollama",
            ServerKind::LmStudio => "LM Studio",
            ServerKind::LlamaCpp => "llama.cpp server",
        }
    }
}

/// Where to look for one kind of server: its root URL (no trailing slash).
#[derive(Clone, Debug)]
pub struct ProbeTarget {
    pub kind: ServerKind,
    pub root: String,
}

/// The default ports, as each server documents them.
pub fn default_targets() -> Vec<ProbeTarget> {
    vec![
        ProbeTarget {
            kind: ServerKind::Ollama,
            root: "http://127.0.0.1:11434".into(),
        },
        ProbeTarget {
            kind: ServerKind::LmStudio,
            root: "http://127.0.0.1:1234".into(),
        },
        ProbeTarget {
            kind: ServerKind::LlamaCpp,
            root: "http://127.0.0.1:8080".into(),
        },
    ]
}

/// A server that answered like the kind it was probed as.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LocalServer {
    pub kind: ServerKind,
    /// The OpenAI-compatible API root (`…/v1`) a provider is configured with.
    pub base_url: String,
    /// Models it serves; may be empty (a llama.cpp server that only answers `/health`).
    pub models: Vec<String>,
}

#[derive(Deserialize)]
struct OllamaTags {
    models: Vec<OllamaModel>,
}

#[derive(Deserialize)]
struct OllamaModel {
    name: String,
}

#[derive(Deserialize)]
struct OpenAiModels {
    data: Vec<OpenAiModel>,
}

#[derive(Deserialize)]
struct OpenAiModel {
    id: String,
}

/// Probes every target at once; returns the ones that answered, in target order.
pub async fn detect(targets: &[ProbeTarget], timeout: Duration) -> Vec<LocalServer> {
    let Ok(client) = reqwest::Client::builder()
        .timeout(timeout)
        .connect_timeout(timeout)
        .no_proxy()
        .build()
    else {
        return Vec::new();
    };
    let probes = targets.iter().map(|t| probe(&client, t));
    futures::future::join_all(probes)
        .await
        .into_iter()
        .flatten()
        .collect()
}

async fn probe(client: &reqwest::Client, target: &ProbeTarget) -> Option<LocalServer> {
    let root = target.root.trim_end_matches('/');
    let models = match target.kind {
        ServerKind::Ollama => {
            let tags: OllamaTags = get_json(client, &format!("{root}/api/tags")).await?;
            tags.models.into_iter().map(|m| m.name).collect()
        }
        ServerKind::LmStudio => openai_models(client, root).await?,
        ServerKind::LlamaCpp => match openai_models(client, root).await {
            Some(models) => models,
            None => {
                let ok = client.get(format!("{root}/health")).send().await.ok()?;
                ok.status().is_success().then(Vec::new)?
            }
        },
    };
    Some(LocalServer {
        kind: target.kind,
        base_url: format!("{root}/v1"),
        models,
    })
}

async fn openai_models(client: &reqwest::Client, root: &str) -> Option<Vec<String>> {
    let list: OpenAiModels = get_json(client, &format!("{root}/v1/models")).await?;
    Some(list.data.into_iter().map(|m| m.id).collect())
}

async fn get_json<T: serde::de::DeserializeOwned>(
    client: &reqwest::Client,
    url: &str,
) -> Option<T> {
    let response = client.get(url).send().await.ok()?;
    if !response.status().is_success() {
        return None;
    }
    response.json().await.ok()
}

#[cfg(test)]
mod loopback_tests {
    use super::is_loopback_endpoint;

    #[test]
    fn only_loopback_endpoints_are_on_this_machine() {
        for local in [
            "http://localhost:11434/v1",
            "http://127.0.0.1:1234/v1",
            "http://127.8.0.1/v1",
            "http://[::1]:8080/v1",
            "http://LOCALHOST/v1",
        ] {
            assert!(is_loopback_endpoint(local), "{local}");
        }
        for remote in [
            "https://api.openai.com/v1",
            "http://192.168.1.20:11434/v1",
            "http://localhost.example.com/v1",
            "http://127.0.0.1.nip.io/v1",
            "not a url",
        ] {
            assert!(!is_loopback_endpoint(remote), "{remote}");
        }
    }
}
