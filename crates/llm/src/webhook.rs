//! One plain JSON POST, for the `post_webhook` tool in core: reqwest lives only in this
//! crate (DESIGN.md), so core calls this instead of holding an HTTP client itself.
//!
//! The URL comes from a model, which a prompt-injected page or message can steer, so
//! the POST is fenced in:
//! 1. the host must be on the boss's allowlist ([`Destinations`]);
//! 2. the name is resolved here, and every address it resolves to must be public —
//!    loopback, private, link-local (cloud metadata at 169.254.169.254), unique-local,
//!    CGNAT, multicast and unspecified addresses are refused;
//! 3. the connection goes to the address that was checked (pinned in the client), so a
//!    second DNS answer cannot swap in another one;
//! 4. no proxy (it would connect elsewhere), no redirects (they would lead elsewhere);
//! 5. only the status line comes back: the body never reaches the model.

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, SocketAddr};
use std::time::Duration;

use reqwest::Url;

/// What came back from a POST that reached the server: its status line, nothing more.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostResponse {
    pub status: u16,
}

#[derive(Debug, thiserror::Error)]
pub enum PostError {
    #[error("only http and https URLs can be posted to: {0}")]
    InvalidUrl(String),
    #[error(
        "{0} is not on the boss's list of webhook destinations (Settings → Webhooks, or `cubicle-cli webhooks allow`)"
    )]
    NotAllowed(String),
    #[error("{host} resolves to {addr}, a {kind} address: webhooks only go to public addresses")]
    PrivateAddress {
        host: String,
        addr: IpAddr,
        kind: AddressKind,
    },
    #[error("{0} could not be resolved: {1}")]
    Resolve(String, String),
    #[error("the request did not complete: {0}")]
    Transport(String),
    #[error("the server answered {0} (a redirect; redirects are not followed)")]
    Redirect(u16),
    #[error("the server answered {0}")]
    Status(u16),
}

/// The ports a host entry without one allows: http's and https's own.
const WEB_PORTS: [u16; 2] = [80, 443];

/// Where webhooks may go: the boss's allowlist of hosts (`host` or `host:port`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Destinations {
    allowed: Vec<String>,
    loopback: bool,
}

impl Destinations {
    /// The boss's list, as [`destination`] normalised it.
    pub fn new(allowed: Vec<String>) -> Self {
        Self {
            allowed,
            loopback: false,
        }
    }

    /// Lets loopback addresses through (every other check stays). Only for tests, which
    /// have no public server to post to: an embedder sets it in code; nothing a model
    /// writes reaches it.
    pub fn with_loopback_for_tests(mut self, on: bool) -> Self {
        self.loopback = on;
        self
    }

    /// Whether `url` is an http(s) URL to an allowed host (nothing is resolved yet:
    /// [`post_json`] checks the addresses when it posts).
    pub fn permits(&self, url: &str) -> Result<(), PostError> {
        let (host, port) = host_and_port(&parse_http(url)?)?;
        if self.allows(&host, port) {
            Ok(())
        } else {
            Err(PostError::NotAllowed(host))
        }
    }

    /// A `host:port` entry allows that port; a bare `host` only the web's own ports (80
    /// and 443): allowing a chat service's host must not open its SSH, database or admin
    /// ports as well.
    fn allows(&self, host: &str, port: u16) -> bool {
        let with_port = format!("{host}:{port}");
        self.allowed
            .iter()
            .any(|a| *a == with_port || (*a == host && WEB_PORTS.contains(&port)))
    }
}

/// The allowlist entry a boss's input stands for: a host (`hooks.slack.com`), a host
/// and port, or a whole URL (only its host and explicit port are kept), lowercased.
pub fn destination(input: &str) -> Result<String, PostError> {
    let input = input.trim();
    let with_scheme = if input.contains("://") {
        input.to_owned()
    } else {
        format!("https://{input}")
    };
    let url = Url::parse(&with_scheme).map_err(|_| PostError::InvalidUrl(input.to_owned()))?;
    if !matches!(url.scheme(), "http" | "https") {
        return Err(PostError::InvalidUrl(input.to_owned()));
    }
    let host = url
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| PostError::InvalidUrl(input.to_owned()))?
        .to_ascii_lowercase();
    Ok(match url.port() {
        Some(p) => format!("{host}:{p}"),
        None => host,
    })
}

/// The kind of non-public address a webhook is refused for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressKind {
    Loopback,
    Private,
    UniqueLocal,
    LinkLocal,
    /// 100.64.0.0/10, a carrier's shared address space.
    SharedCgnat,
    Unspecified,
    Reserved,
}

/// The kind in the error's English words ("a link-local address").
impl std::fmt::Display for AddressKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            AddressKind::Loopback => "loopback",
            AddressKind::Private => "private",
            AddressKind::UniqueLocal => "unique-local",
            AddressKind::LinkLocal => "link-local",
            AddressKind::SharedCgnat => "shared (CGNAT)",
            AddressKind::Unspecified => "unspecified",
            AddressKind::Reserved => "reserved",
        })
    }
}

/// Why `ip` may not receive a webhook, or `None` for a public address.
pub fn non_public_kind(ip: IpAddr) -> Option<AddressKind> {
    match ip {
        IpAddr::V4(v4) => v4_kind(v4),
        IpAddr::V6(v6) => match v6.to_ipv4_mapped() {
            Some(v4) => v4_kind(v4),
            None => v6_kind(v6),
        },
    }
}

fn v4_kind(ip: Ipv4Addr) -> Option<AddressKind> {
    let [a, b, ..] = ip.octets();
    if ip.is_loopback() {
        Some(AddressKind::Loopback)
    } else if ip.is_private() {
        Some(AddressKind::Private)
    } else if ip.is_link_local() {
        Some(AddressKind::LinkLocal)
    } else if a == 100 && (64..128).contains(&b) {
        Some(AddressKind::SharedCgnat)
    } else if ip.is_unspecified() || a == 0 {
        Some(AddressKind::Unspecified)
    } else if ip.is_multicast()
        || ip.is_broadcast()
        || a >= 240
        || ip.is_documentation()
        || (a == 198 && (b == 18 || b == 19))
    {
        Some(AddressKind::Reserved)
    } else {
        None
    }
}

fn v6_kind(ip: Ipv6Addr) -> Option<AddressKind> {
    let first = ip.segments()[0];
    if ip.is_loopback() {
        Some(AddressKind::Loopback)
    } else if ip.is_unspecified() {
        Some(AddressKind::Unspecified)
    } else if first & 0xfe00 == 0xfc00 {
        Some(AddressKind::UniqueLocal)
    } else if first & 0xffc0 == 0xfe80 {
        Some(AddressKind::LinkLocal)
    } else if ip.is_multicast() {
        Some(AddressKind::Reserved)
    } else if let Some(v4) = ip.to_ipv4().or_else(|| nat64(ip)) {
        // IPv4-compatible and NAT64 (64:ff9b::/96) addresses reach the IPv4 address inside.
        v4_kind(v4)
    } else {
        None
    }
}

fn nat64(ip: Ipv6Addr) -> Option<Ipv4Addr> {
    let o = ip.octets();
    (o[..12] == [0, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0])
        .then(|| Ipv4Addr::new(o[12], o[13], o[14], o[15]))
}

fn parse_http(url: &str) -> Result<Url, PostError> {
    let parsed = Url::parse(url.trim()).map_err(|_| PostError::InvalidUrl(url.to_owned()))?;
    if !matches!(parsed.scheme(), "http" | "https") {
        return Err(PostError::InvalidUrl(url.to_owned()));
    }
    Ok(parsed)
}

fn host_and_port(url: &Url) -> Result<(String, u16), PostError> {
    let host = url
        .host_str()
        .filter(|h| !h.is_empty())
        .ok_or_else(|| PostError::InvalidUrl(url.to_string()))?
        .to_ascii_lowercase();
    let port = url
        .port_or_known_default()
        .ok_or_else(|| PostError::InvalidUrl(url.to_string()))?;
    Ok((host, port))
}

/// The address to connect to: `url`'s host must be allowed and every address it
/// resolves to must be public (or loopback, where tests allow it).
pub async fn check_destination(
    url: &Url,
    destinations: &Destinations,
) -> Result<SocketAddr, PostError> {
    let (host, port) = host_and_port(url)?;
    if !destinations.allows(&host, port) {
        return Err(PostError::NotAllowed(host));
    }
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    let addrs: Vec<SocketAddr> = match bare.parse::<IpAddr>() {
        Ok(ip) => vec![SocketAddr::new(ip, port)],
        Err(_) => tokio::net::lookup_host((bare, port))
            .await
            .map_err(|e| PostError::Resolve(host.clone(), e.to_string()))?
            .collect(),
    };
    // Any non-public answer refuses the whole name: a rebinding name lists both kinds.
    for a in &addrs {
        let loopback_ok = destinations.loopback && a.ip().is_loopback();
        if let Some(kind) = non_public_kind(a.ip()).filter(|_| !loopback_ok) {
            return Err(PostError::PrivateAddress {
                host,
                addr: a.ip(),
                kind,
            });
        }
    }
    addrs
        .first()
        .copied()
        .ok_or_else(|| PostError::Resolve(host, "no address".into()))
}

/// POSTs `body` as JSON to `url` within `timeout`, fenced in as the module doc says;
/// a non-2xx answer is an error.
pub async fn post_json(
    url: &str,
    body: &serde_json::Value,
    timeout: Duration,
    destinations: &Destinations,
) -> Result<PostResponse, PostError> {
    let parsed = parse_http(url)?;
    let addr = check_destination(&parsed, destinations).await?;
    let mut client = reqwest::Client::builder()
        .timeout(timeout)
        .redirect(reqwest::redirect::Policy::none())
        .no_proxy();
    if let Some(host) = parsed.host_str() {
        // Pinned: the client connects to the address checked above and resolves nothing.
        client = client.resolve(host, addr);
    }
    let client = client
        .build()
        .map_err(|e| PostError::Transport(crate::http::error_chain(&e)))?;
    let resp = client
        .post(parsed)
        .json(body)
        .send()
        .await
        // Without the URL: its path or query is often the webhook's secret.
        .map_err(|e| PostError::Transport(crate::http::error_chain(&e.without_url())))?;
    let status = resp.status();
    if status.is_redirection() {
        return Err(PostError::Redirect(status.as_u16()));
    }
    if !status.is_success() {
        return Err(PostError::Status(status.as_u16()));
    }
    Ok(PostResponse {
        status: status.as_u16(),
    })
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn every_kind_of_non_public_address_is_named() {
        for (ip, kind) in [
            ("127.0.0.1", "loopback"),
            ("10.1.2.3", "private"),
            ("172.16.0.1", "private"),
            ("192.168.1.1", "private"),
            ("169.254.169.254", "link-local"),
            ("100.64.0.1", "shared (CGNAT)"),
            ("0.0.0.0", "unspecified"),
            ("224.0.0.1", "reserved"),
            ("::1", "loopback"),
            ("::", "unspecified"),
            ("fd00::1", "unique-local"),
            ("fe80::1", "link-local"),
            ("::ffff:127.0.0.1", "loopback"),
            ("::ffff:169.254.169.254", "link-local"),
            ("64:ff9b::a9fe:a9fe", "link-local"),
        ] {
            assert_eq!(
                non_public_kind(ip.parse().unwrap()).map(|k| k.to_string()),
                Some(kind.to_owned()),
                "{ip}"
            );
        }
        for ip in ["93.184.215.14", "1.1.1.1", "2606:4700:4700::1111"] {
            assert_eq!(non_public_kind(ip.parse().unwrap()), None, "{ip}");
        }
    }

    #[test]
    fn a_destination_is_a_lowercase_host_with_its_explicit_port() {
        assert_eq!(
            destination("https://Hooks.Slack.com/services/T0/B0/x?token=1").unwrap(),
            "hooks.slack.com"
        );
        assert_eq!(
            destination("open.feishu.cn:8443").unwrap(),
            "open.feishu.cn:8443"
        );
        assert_eq!(destination(" 127.0.0.1:9 ").unwrap(), "127.0.0.1:9");
        assert!(destination("ftp://example.com").is_err());
        assert!(destination("").is_err());
    }

    #[test]
    fn a_host_without_a_port_allows_only_the_web_ports() {
        let list = Destinations::new(vec![
            "hooks.example.com".into(),
            "ci.example.com:8443".into(),
        ]);
        for ok in [
            "https://hooks.example.com/x",
            "http://hooks.example.com/x",
            "https://hooks.example.com:443/x",
            "https://ci.example.com:8443/hook",
        ] {
            assert!(list.permits(ok).is_ok(), "{ok}");
        }
        for refused in [
            "https://hooks.example.com:22/x",
            "http://hooks.example.com:5432/x",
            "https://hooks.example.com:8443/x",
            "https://ci.example.com/hook",
        ] {
            assert!(
                matches!(list.permits(refused), Err(PostError::NotAllowed(_))),
                "{refused}"
            );
        }
    }

    #[tokio::test]
    async fn a_name_is_checked_after_it_is_resolved() {
        let list = Destinations::new(vec!["localhost:9".into()]);
        let url = Url::parse("http://localhost:9/hook").unwrap();
        let err = check_destination(&url, &list).await.unwrap_err();
        assert!(
            matches!(
                err,
                PostError::PrivateAddress {
                    kind: AddressKind::Loopback,
                    ..
                }
            ),
            "{err}"
        );
        let other = Url::parse("http://localhost:10/hook").unwrap();
        assert!(matches!(
            check_destination(&other, &list).await.unwrap_err(),
            PostError::NotAllowed(_)
        ));
    }
}
