//! API keys: in the OS keychain only (SPEC §1), never in SQLite, logs or the webview.
//!
//! [`SecretStore`] is the seam: [`KeyringStore`] talks to the real keychain (Secret
//! Service on Linux, Keychain on macOS, Credential Manager on Windows); [`EnvOverlay`]
//! lets headless runs supply `CUBICLE_API_KEY_<PROVIDER_ID>` without any keychain.
//! There is no plaintext fallback: without a keychain, setting a key is an error.

use cubicle_llm::ApiKey;

/// Keychain service name; the account is the provider id.
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
}

pub trait SecretStore: Send + Sync {
    fn get(&self, provider_id: &str) -> Result<Option<ApiKey>, SecretError>;
    fn set(&self, provider_id: &str, key: &ApiKey) -> Result<(), SecretError>;
    fn delete(&self, provider_id: &str) -> Result<(), SecretError>;
}

/// The OS keychain through the `keyring` crate.
#[derive(Debug, Default, Clone, Copy)]
pub struct KeyringStore;

impl KeyringStore {
    fn entry(provider_id: &str) -> Result<keyring::Entry, SecretError> {
        if provider_id.is_empty() || provider_id.chars().any(char::is_control) {
            return Err(SecretError::BadId(provider_id.to_owned()));
        }
        keyring::Entry::new(KEYCHAIN_SERVICE, provider_id).map_err(map_keyring_error)
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
    fn get(&self, provider_id: &str) -> Result<Option<ApiKey>, SecretError> {
        match Self::entry(provider_id)?.get_password() {
            Ok(k) => Ok(Some(ApiKey::new(k))),
            Err(keyring::Error::NoEntry) => Ok(None),
            Err(e) => Err(map_keyring_error(e)),
        }
    }

    fn set(&self, provider_id: &str, key: &ApiKey) -> Result<(), SecretError> {
        Self::entry(provider_id)?
            .set_password(key.expose())
            .map_err(map_keyring_error)
    }

    fn delete(&self, provider_id: &str) -> Result<(), SecretError> {
        match Self::entry(provider_id)?.delete_credential() {
            Ok(()) | Err(keyring::Error::NoEntry) => Ok(()),
            Err(e) => Err(map_keyring_error(e)),
        }
    }
}

/// `CUBICLE_API_KEY_<PROVIDER_ID>` (upper-cased, `-` → `_`) wins over the inner store
/// for reads; writes go to the inner store.
pub struct EnvOverlay<S> {
    inner: S,
}

impl<S> EnvOverlay<S> {
    pub fn new(inner: S) -> Self {
        Self { inner }
    }
}

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

impl<S: SecretStore> SecretStore for EnvOverlay<S> {
    fn get(&self, provider_id: &str) -> Result<Option<ApiKey>, SecretError> {
        match std::env::var(env_var_for(provider_id)) {
            Ok(k) if !k.is_empty() => Ok(Some(ApiKey::new(k))),
            _ => self.inner.get(provider_id),
        }
    }
    fn set(&self, provider_id: &str, key: &ApiKey) -> Result<(), SecretError> {
        self.inner.set(provider_id, key)
    }
    fn delete(&self, provider_id: &str) -> Result<(), SecretError> {
        self.inner.delete(provider_id)
    }
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

/// The store the app and the CLI use: environment first, then the OS keychain.
pub fn default_store() -> EnvOverlay<KeyringStore> {
    EnvOverlay::new(KeyringStore)
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
