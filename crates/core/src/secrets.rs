//! API keys: in the OS keychain only (SPEC §1), never in SQLite, logs or the webview.
//!
//! [`SecretStore`] is the seam, keyed by keychain account: [`KeyringStore`] talks to the
//! real keychain (Secret Service on Linux, Keychain on macOS, Credential Manager on
//! Windows). There is no plaintext fallback: without a keychain, setting a key is an error.
//!
//! Every entry is filed under the company's scope ([`company_scope`]), so two companies
//! on one computer never share an entry: a provider's key is account
//! `provider:<scope>:<provider id>` ([`provider_account`]), reached only through
//! [`ProviderKeys`], which also lets headless runs supply `CUBICLE_API_KEY_<PROVIDER_ID>`
//! without any keychain. An imported company draws a scope of its own, so a bundle whose
//! provider has the id of one already here never receives that provider's key.

use std::sync::Arc;

use cubicle_llm::ApiKey;
use cubicle_store::Db;

use serde::{Deserialize, Serialize};
use ts_rs::TS;

// Where a provider's key was found: the providers' list shows it (a key's value never
// leaves core).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "snake_case")]
pub enum KeySource {
    Keychain,
    Environment,
    None,
}

/// Keychain service name; accounts say whose entry it is (see [`provider_account`]).
pub const KEYCHAIN_SERVICE: &str = "cubicle";

#[derive(Debug, thiserror::Error)]
pub enum SecretError {
    #[error(
        "no OS keychain is available ({0}). Start a Secret Service (e.g. gnome-keyring) in your session, \
         or pass the key in the environment as CUBICLE_API_KEY_<PROVIDER_ID>"
    )]
    Unavailable(String),
    #[error("the keychain refused: {0}")]
    Keychain(String),
    #[error("invalid provider id for a keychain entry: {0:?}")]
    BadId(String),
    #[error("set up the company first: its keys are filed under it")]
    NoCompany,
    #[error("the company's key scope could not be read: {0}")]
    Storage(#[from] sea_orm::DbErr),
}

/// Keychain entries by account name (`provider:<scope>:<id>`, `approval-key:<scope>`).
pub trait SecretStore: Send + Sync {
    fn get(&self, account: &str) -> Result<Option<ApiKey>, SecretError>;
    fn set(&self, account: &str, key: &ApiKey) -> Result<(), SecretError>;
    fn delete(&self, account: &str) -> Result<(), SecretError>;
}

/// The OS keychain through the `keyring` crate.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyringStore;

impl KeyringStore {
    fn entry(account: &str) -> Result<keyring::Entry, SecretError> {
        if account.is_empty() || account.chars().any(char::is_control) {
            return Err(SecretError::BadId(account.to_owned()));
        }
        keyring::Entry::new(KEYCHAIN_SERVICE, account).map_err(map_keyring_error)
    }
}

/// Turns the keyring crate's errors into ours; "no D-Bus / no Secret Service" becomes
/// the one actionable [`SecretError::Unavailable`].
fn map_keyring_error(e: keyring::Error) -> SecretError {
    match e {
        keyring::Error::PlatformFailure(inner) | keyring::Error::NoStorageAccess(inner) => {
            SecretError::Unavailable(first_line(&inner.to_string()))
        }
        other => SecretError::Keychain(first_line(&other.to_string())),
    }
}

fn first_line(s: &str) -> String {
    s.lines().next().unwrap_or_default().to_owned()
}

impl SecretStore for KeyringStore {
    fn get(&self, account: &str) -> Result<Option<ApiKey>, SecretError> {
        match Self::entry(account)?.get_password() {
            Ok(k) => Ok(Some(ApiKey::new(k))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(map_keyring_error(e)),
        }
    }

    fn set(&self, account: &str, key: &ApiKey) -> Result<(), SecretError> {
        Self::entry(account)?
            .set_password(key.expose())
            .map_err(map_keyring_error)
    }

    fn delete(&self, account: &str) -> Result<(), SecretError> {
        match Self::entry(account)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(map_keyring_error(e)),
        }
    }
}

/// The environment variable that supplies a provider's key for headless runs:
/// `CUBICLE_API_KEY_<PROVIDER_ID>`, upper-cased, anything but `[A-Za-z0-9]` as `_`.
pub fn env_var_for(provider_id: &str) -> String {
    let id: String = provider_id
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() {
                c.to_ascii_uppercase()
            } else {
                '_'
            }
        })
        .collect();
    format!("CUBICLE_API_KEY_{id}")
}

/// The name a company's keychain entries are filed under, and whether this call drew it
/// (a database from before scopes, or a company just set up): a caller moving entries
/// from an older naming does it then, once.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompanyScope {
    pub name: String,
    pub newly_drawn: bool,
}

/// 128 random bits, hex: a fresh scope.
pub fn draw_scope() -> String {
    let bits: u128 = rand::random();
    format!("{bits:032x}")
}

/// This database's company scope, drawn (and stored) the first time it is asked for;
/// `None` before the company is set up.
pub async fn company_scope(
    conn: &impl sea_orm::ConnectionTrait,
) -> Result<Option<CompanyScope>, sea_orm::DbErr> {
    let candidate = draw_scope();
    let claimed = cubicle_store::org::claim_secret_scope(conn, &candidate).await?;
    Ok(claimed.map(|name| CompanyScope {
        newly_drawn: name == candidate,
        name,
    }))
}

/// The store the app and the CLI use: the OS keychain. (The environment's provider keys
/// are read by [`ProviderKeys`], which knows provider ids; the store knows accounts.)
pub fn default_store() -> KeyringStore {
    KeyringStore
}

/// The keychain account of a provider's API key in one company.
pub fn provider_account(scope: &str, provider_id: &str) -> String {
    format!("provider:{scope}:{provider_id}")
}

/// A company's provider API keys: the one way to them, for Settings, the CLI and the
/// gateway alike. The environment (`CUBICLE_API_KEY_<PROVIDER_ID>`) wins for reads; the
/// keychain entry is the company's own ([`provider_account`]).
#[derive(Clone)]
pub struct ProviderKeys {
    db: Db,
    store: Arc<dyn SecretStore>,
}

impl ProviderKeys {
    pub fn new(db: Db, store: Arc<dyn SecretStore>) -> Self {
        Self { db, store }
    }

    /// The key for `provider_id` and where it came from; `None` when there is none (or
    /// no company yet, whose keys these would be).
    pub async fn get(&self, provider_id: &str) -> Result<Option<(ApiKey, KeySource)>, SecretError> {
        if let Ok(k) = std::env::var(env_var_for(provider_id))
            && !k.is_empty()
        {
            return Ok(Some((ApiKey::new(k), KeySource::Environment)));
        }
        let Some(scope) = self.scope().await? else {
            return Ok(None);
        };
        Ok(self
            .store
            .get(&provider_account(&scope, provider_id))?
            .map(|k| (k, KeySource::Keychain)))
    }

    pub async fn set(&self, provider_id: &str, key: &ApiKey) -> Result<(), SecretError> {
        let scope = self.scope().await?.ok_or(SecretError::NoCompany)?;
        self.store.set(&provider_account(&scope, provider_id), key)
    }

    pub async fn delete(&self, provider_id: &str) -> Result<(), SecretError> {
        match self.scope().await? {
            Some(scope) => self.store.delete(&provider_account(&scope, provider_id)),
            None => Ok(()),
        }
    }

    /// Settles the company's scope now, when the database is opened: a database from
    /// before scopes gets its scope, and its keys are moved under it, before anything
    /// else (the approval key) can draw the scope and leave the old entries behind.
    pub async fn settle(&self) {
        if let Err(e) = self.scope().await {
            tracing::warn!(error = %e, "the company's key scope could not be settled");
        }
    }

    /// The company's scope; the call that draws it moves the company's keys from the old
    /// naming (account = provider id) into it.
    async fn scope(&self) -> Result<Option<String>, SecretError> {
        let Some(scope) = company_scope(&self.db).await? else {
            return Ok(None);
        };
        if scope.newly_drawn {
            self.adopt_unscoped(&scope.name).await?;
        }
        Ok(Some(scope.name))
    }

    /// Moves each configured provider's entry from the naming before scopes into the
    /// company's scope, once. Only for a scope drawn here (a company from before scopes or
    /// set up on this computer), never for an imported one: its scope is drawn at import.
    /// A keychain that cannot be reached is logged and skipped: the boss sets the key again.
    async fn adopt_unscoped(&self, scope: &str) -> Result<(), SecretError> {
        for p in cubicle_store::models::list_providers(&self.db).await? {
            if let Err(e) = self.adopt_one(scope, &p.id) {
                tracing::warn!(provider = %p.id, error = %e, "an API key from before key scopes could not be moved; set it again in Settings");
            }
        }
        Ok(())
    }

    fn adopt_one(&self, scope: &str, provider_id: &str) -> Result<(), SecretError> {
        let Some(key) = self.store.get(provider_id)? else {
            return Ok(());
        };
        let account = provider_account(scope, provider_id);
        if self.store.get(&account)?.is_none() {
            self.store.set(&account, &key)?;
        }
        self.store.delete(provider_id)?;
        tracing::info!(provider = %provider_id, "API key moved under the company's key scope");
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scopes_are_128_random_bits() {
        let (a, b) = (draw_scope(), draw_scope());
        assert_eq!(a.len(), 32);
        assert!(a.chars().all(|c| c.is_ascii_hexdigit()));
        assert_ne!(a, b);
    }

    #[test]
    fn env_var_names_are_shell_safe() {
        assert_eq!(env_var_for("deepseek"), "CUBICLE_API_KEY_DEEPSEEK");
        assert_eq!(env_var_for("my-ollama.2"), "CUBICLE_API_KEY_MY_OLLAMA_2");
    }
}
