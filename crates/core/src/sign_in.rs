//! A person's sign-in to a company server (SPEC §12), kept in this computer's OS keychain.
//!
//! The boss's server role issues each person a login of their own
//! ([`crate::people::People::issue_login`]) and hands them its URL; the person saves it
//! here once ([`save`]), after it is checked to open the company. From then on the app
//! and the CLI open the company with it when `CUBICLE_DATABASE_URL` does not say
//! otherwise ([`database_url`]). The URL holds a password: it never goes to disk, logs
//! or the webview — only to the keychain.

use cubicle_llm::ApiKey;
use cubicle_store::login::Session;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

use crate::error::{ErrorCode, IpcError};
use crate::secrets::{SecretError, SecretStore};

/// How long a sign-in is given to open its company before the person is told: a
/// mistyped host is said within this, not after the pool's own half minute.
const CHECK_PATIENCE: std::time::Duration = std::time::Duration::from_secs(8);

/// The keychain account of this computer's company-server sign-in.
pub const ACCOUNT: &str = "company-server-sign-in";

#[derive(Debug, thiserror::Error)]
pub enum SignInError {
    #[error("a sign-in is a postgres:// URL of a company server; this is not one ({0})")]
    NotAServer(String),
    #[error("could not open the company with this sign-in: {0}")]
    Open(String),
    #[error("this sign-in opens no company yet: the server's own role sets it up first")]
    NoCompany,
    #[error(transparent)]
    Keychain(#[from] SecretError),
}

impl From<SignInError> for IpcError {
    fn from(e: SignInError) -> Self {
        let code = match &e {
            SignInError::NotAServer(_) => ErrorCode::InvalidInput,
            SignInError::Open(_) => ErrorCode::SignInRefused,
            SignInError::NoCompany => ErrorCode::CompanyMissing,
            SignInError::Keychain(_) => ErrorCode::SecretUnavailable,
        };
        IpcError::new(code, e.to_string())
    }
}

/// The sign-in the boss gave a person, as they paste it into the app.
#[derive(Clone, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct ServerSignIn {
    /// A `postgres://` URL with the person's login and password.
    pub url: String,
}

impl std::fmt::Debug for ServerSignIn {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ServerSignIn")
            .field("url", &cubicle_store::db::redact_url(&self.url))
            .finish()
    }
}

/// Who a saved sign-in opens the company as.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
pub struct SignedIn {
    /// `host:port/database`, without user or password.
    pub server: String,
    pub company: String,
    /// The person it signs in as; `None` for the server's own role (the boss).
    pub person: Option<String>,
}

/// Checks that `url` opens a company on a server, then keeps it in the keychain.
pub async fn save(secrets: &dyn SecretStore, url: &str) -> Result<SignedIn, SignInError> {
    let url = url.trim();
    let Some(server) = cubicle_store::db::server_label(url) else {
        return Err(SignInError::NotAServer(cubicle_store::db::redact_url(url)));
    };
    let db = tokio::time::timeout(CHECK_PATIENCE, cubicle_store::connect(url))
        .await
        .map_err(|_| {
            SignInError::Open(format!(
                "no answer from {server} within {} s",
                CHECK_PATIENCE.as_secs()
            ))
        })?
        .map_err(|e| SignInError::Open(e.to_string()))?;
    let who = async {
        let company = cubicle_store::org::find_company(&db).await?;
        let person = match cubicle_store::login::session(&db).await? {
            Session::Person { person_id } => cubicle_store::people::find_person(&db, person_id)
                .await?
                .map(|p| p.name),
            Session::Owner | Session::Stranger => None,
        };
        Ok::<_, cubicle_store::DbErr>((company, person))
    }
    .await;
    let _ = db.close().await;
    let (company, person) = who.map_err(|e| SignInError::Open(e.to_string()))?;
    let company = company.ok_or(SignInError::NoCompany)?.name;
    secrets.set(ACCOUNT, &ApiKey::new(url))?;
    Ok(SignedIn {
        server,
        company,
        person,
    })
}

/// Forgets this computer's sign-in (the login itself stays until the boss removes it).
pub fn forget(secrets: &dyn SecretStore) -> Result<(), SecretError> {
    secrets.delete(ACCOUNT)
}

/// The URL to open: `CUBICLE_DATABASE_URL`, else the sign-in saved in the keychain, else
/// this computer's own company file. A keychain that cannot be reached counts as no
/// sign-in (said in the log): the local company still opens.
pub fn database_url(secrets: &dyn SecretStore) -> Result<String, cubicle_store::DbError> {
    if let Ok(url) = std::env::var(cubicle_store::db::DATABASE_URL_ENV)
        && !url.trim().is_empty()
    {
        return Ok(url);
    }
    match saved(secrets) {
        Some(url) => Ok(url),
        None => cubicle_store::default_database_url(),
    }
}

/// The sign-in saved in the keychain, if any. A keychain that cannot be reached counts as
/// none (said in the log).
pub fn saved(secrets: &dyn SecretStore) -> Option<String> {
    match secrets.get(ACCOUNT) {
        Ok(url) => url.map(|u| u.expose().to_owned()),
        Err(e) => {
            tracing::debug!(error = %e, "no keychain to read a company-server sign-in from");
            None
        }
    }
}
