//! How a connection to a PostgreSQL server is protected. The company's data and the
//! database password cross the network, so a server is reached with TLS that checks
//! its certificate (`sslmode=verify-full`) unless the URL (or libpq's `PGSSLMODE`) says
//! otherwise; a server on this machine (loopback, a Unix socket) has no network in
//! between and keeps the driver's default. Anything weaker than `verify-full` across the
//! network is logged as a warning that says exactly what it leaves open.

use std::str::FromStr;

use sea_orm::sqlx::postgres::{PgConnectOptions, PgSslMode};

/// How a server connection is protected, weakest last.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ServerTls {
    /// On this machine (loopback or a Unix socket): no network in between.
    Local,
    /// `verify-full`: encrypted; the certificate must chain to a trusted CA and name the host.
    Verified,
    /// `verify-ca`: encrypted; the certificate must chain to the CA, its name is not checked.
    CaOnly,
    /// `require`: encrypted, but any certificate is accepted.
    Unverified,
    /// `prefer` / `allow`: TLS only if the server offers it, with any certificate.
    MaybePlain,
    /// `disable`: plain text.
    Plain,
}

/// What a server URL connects with: its TLS protection and the mode to force, if any
/// (`verify-full` when nothing was said for a server across the network).
#[derive(Clone, Copy, Debug)]
pub struct ServerConnection {
    pub tls: ServerTls,
    pub forced_mode: Option<PgSslMode>,
    /// The mode the driver will use (after `forced_mode`).
    pub mode: PgSslMode,
}

/// The advice every warning ends with.
const ADVICE: &str = "use sslmode=verify-full with sslrootcert=/path/to/ca.crt in the URL";

/// Reads a `postgres:` URL the way the driver will.
pub fn server_connection(url: &str) -> Result<ServerConnection, String> {
    let options = PgConnectOptions::from_str(url).map_err(|e| e.to_string())?;
    let said = mode_in_url(url) || std::env::var_os("PGSSLMODE").is_some();
    let local = is_local(&options);
    let forced_mode = (!said && !local).then_some(PgSslMode::VerifyFull);
    let mode = forced_mode.unwrap_or_else(|| options.get_ssl_mode());
    let tls = if local {
        ServerTls::Local
    } else {
        match mode {
            PgSslMode::VerifyFull => ServerTls::Verified,
            PgSslMode::VerifyCa => ServerTls::CaOnly,
            PgSslMode::Require => ServerTls::Unverified,
            PgSslMode::Prefer | PgSslMode::Allow => ServerTls::MaybePlain,
            PgSslMode::Disable => ServerTls::Plain,
        }
    };
    Ok(ServerConnection {
        tls,
        forced_mode,
        mode,
    })
}

impl ServerTls {
    /// What this leaves open for a server at `label`, said precisely; `None` when the
    /// server is verified or on this machine.
    pub fn warning(self, label: &str) -> Option<String> {
        let what = match self {
            ServerTls::Local | ServerTls::Verified => return None,
            ServerTls::CaOnly => format!(
                "the certificate of {label} is checked against the CA but not its host name \
                 (sslmode=verify-ca): any server holding a certificate from that CA can pose as it"
            ),
            ServerTls::Unverified => format!(
                "the connection to {label} is encrypted but the server's certificate is not \
                 checked (sslmode=require): a machine in between can pose as the server and read \
                 the password and the company's data"
            ),
            ServerTls::MaybePlain => format!(
                "the connection to {label} falls back to plain text when the server offers no \
                 TLS, and any certificate is accepted (sslmode=prefer or allow): a machine in \
                 between can read and change everything"
            ),
            ServerTls::Plain => format!(
                "the connection to {label} is not encrypted (sslmode=disable): the password and \
                 the company's data cross the network in plain text"
            ),
        };
        Some(format!("{what}; {ADVICE}"))
    }
}

/// Why a TLS connection that had to verify the server failed, and what to do.
pub fn verify_failed(label: &str, mode: PgSslMode, cause: &str) -> String {
    let named = match mode {
        PgSslMode::VerifyCa => "sslmode=verify-ca",
        PgSslMode::Require => "sslmode=require",
        _ => "sslmode=verify-full, Cubicle's default for a server across the network",
    };
    format!(
        "no TLS connection to {label} ({named}): {cause}. Give the CA that signed the server's \
         certificate with sslrootcert=/path/to/ca.crt in the URL; only on a network you trust \
         completely, add sslmode=disable"
    )
}

/// Whether the URL's query names a TLS mode (`sslmode` or the driver's `ssl-mode`).
fn mode_in_url(url: &str) -> bool {
    let query = url.split_once('?').map_or("", |(_, q)| q);
    let query = query.split('#').next().unwrap_or(query);
    query
        .split('&')
        .filter_map(|pair| pair.split('=').next())
        .any(|key| key == "sslmode" || key == "ssl-mode")
}

/// Loopback or a Unix socket: the connection never leaves this machine.
fn is_local(options: &PgConnectOptions) -> bool {
    if options.get_socket().is_some() {
        return true;
    }
    let host = options.get_host();
    let bare = host.trim_start_matches('[').trim_end_matches(']');
    host.starts_with('/')
        || bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<std::net::IpAddr>()
            .is_ok_and(|ip| ip.is_loopback())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tls(url: &str) -> ServerTls {
        server_connection(url).unwrap().tls
    }

    #[test]
    fn a_server_across_the_network_is_verified_unless_the_url_says_otherwise() {
        if std::env::var_os("PGSSLMODE").is_some() {
            eprintln!("SKIPPED: PGSSLMODE is set in this environment");
            return;
        }
        let c = server_connection("postgres://u:pw@db.example.com:5432/acme").unwrap();
        assert!(matches!(c.forced_mode, Some(PgSslMode::VerifyFull)));
        assert!(matches!(c.mode, PgSslMode::VerifyFull));
        assert_eq!(c.tls, ServerTls::Verified);
        // What the driver will be given: verify-full, with the URL's CA file kept.
        let opts = PgConnectOptions::from_str(
            "postgres://db.example.com/acme?sslrootcert=/etc/cubicle/ca.crt",
        )
        .unwrap()
        .ssl_mode(c.forced_mode.unwrap());
        assert!(matches!(opts.get_ssl_mode(), PgSslMode::VerifyFull));

        for (url, want) in [
            (
                "postgres://db.example.com/acme?sslmode=verify-full&sslrootcert=/ca.crt",
                ServerTls::Verified,
            ),
            (
                "postgres://db.example.com/acme?sslmode=verify-ca",
                ServerTls::CaOnly,
            ),
            (
                "postgres://db.example.com/acme?sslmode=require",
                ServerTls::Unverified,
            ),
            (
                "postgresql://db.example.com/acme?ssl-mode=prefer",
                ServerTls::MaybePlain,
            ),
            (
                "postgres://10.0.0.5/acme?sslmode=allow",
                ServerTls::MaybePlain,
            ),
            (
                "postgres://db.example.com/acme?application_name=x&sslmode=disable",
                ServerTls::Plain,
            ),
        ] {
            assert_eq!(tls(url), want, "{url}");
            assert!(
                server_connection(url).unwrap().forced_mode.is_none(),
                "{url}"
            );
        }
        for url in [
            "postgres://u@127.0.0.1:5432/acme",
            "postgres://u@localhost/acme",
            "postgres://u@[::1]:5432/acme",
            "postgres://u@%2Fvar%2Frun%2Fpostgresql/acme",
            "postgres:///acme?host=/var/run/postgresql",
        ] {
            let c = server_connection(url).unwrap();
            assert_eq!(c.tls, ServerTls::Local, "{url}");
            assert!(c.forced_mode.is_none(), "{url}: the driver's own default");
        }
    }

    #[test]
    fn each_weaker_mode_says_what_it_leaves_open() {
        assert_eq!(ServerTls::Verified.warning("db:5432/acme"), None);
        assert_eq!(ServerTls::Local.warning("localhost/acme"), None);
        let require = ServerTls::Unverified.warning("db:5432/acme").unwrap();
        assert!(require.contains("sslmode=require") && require.contains("not checked"));
        let plain = ServerTls::Plain.warning("db:5432/acme").unwrap();
        assert!(plain.contains("not encrypted") && plain.contains("plain text"));
        let maybe = ServerTls::MaybePlain.warning("db:5432/acme").unwrap();
        assert!(maybe.contains("falls back to plain text"));
        let ca = ServerTls::CaOnly.warning("db:5432/acme").unwrap();
        assert!(ca.contains("not its host name"));
        for w in [require, plain, maybe, ca] {
            assert!(w.contains("db:5432/acme"), "{w}");
            assert!(w.ends_with(ADVICE), "{w}");
        }
    }
}
