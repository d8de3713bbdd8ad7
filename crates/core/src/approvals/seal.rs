//! What binds a decision to what the boss saw: every waiting action carries an
//! HMAC-SHA256 of its tool and canonical arguments, keyed with the company's approval
//! key. The key never touches the database, so someone who can edit the database (or a
//! bundle) can change an action's arguments but cannot make its seal match them; the
//! queue, a notification and the CLI send back the seal of what they displayed, and a
//! decision whose seal differs is refused.
//!
//! Where the key lives, first found wins:
//! - `CUBICLE_APPROVAL_KEY` (at least 32 characters): a company server, whose engine
//!   runs the actions, has no keychain of its own;
//! - the OS keychain, account `approval-key:<company scope>`, made on first use;
//! - without either, a key for this process only, said loudly in the log: its waiting
//!   approvals cannot be verified by a later process and are expired there, so the
//!   employee asks again.

use std::sync::Arc;

use cubicle_llm::ApiKey;
use cubicle_store::Db;
use hmac::{Hmac, Mac};
use sha2::Sha256;
use tokio::sync::OnceCell;

use crate::secrets::{self, SecretError, SecretStore};
use crate::tools::canonical_json;

/// The environment variable a server's approval key comes from.
pub const APPROVAL_KEY_ENV: &str = "CUBICLE_APPROVAL_KEY";
/// The shortest key accepted from the environment.
const MIN_ENV_KEY_CHARS: usize = 32;

type HmacSha256 = Hmac<Sha256>;

/// Where this process's approval key came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeySource {
    Environment,
    Keychain,
    /// No keychain and no environment key: good for this process only.
    ThisProcess,
}

#[derive(Debug, thiserror::Error)]
pub enum SealError {
    #[error(
        "{APPROVAL_KEY_ENV} is set but has {0} characters; it needs at least {MIN_ENV_KEY_CHARS} \
         (e.g. `openssl rand -hex 32`)"
    )]
    ShortEnvKey(usize),
    #[error("the company is not set up, so it has no approval key yet")]
    NoCompany,
    #[error("the approval key cannot be used: {0}")]
    Key(String),
    #[error("database: {0}")]
    Db(#[from] cubicle_store::DbErr),
}

struct Key {
    bytes: Vec<u8>,
    source: KeySource,
}

/// The company's approval key, found on first use.
#[derive(Clone)]
pub struct Seal {
    db: Db,
    secrets: Option<Arc<dyn SecretStore>>,
    key: Arc<OnceCell<Key>>,
}

impl std::fmt::Debug for Seal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Seal")
            .field("source", &self.key.get().map(|k| k.source))
            .finish_non_exhaustive()
    }
}

impl Seal {
    /// `secrets: None` never looks in a keychain (a key for this process only, unless the
    /// environment has one).
    pub fn new(db: Db, secrets: Option<Arc<dyn SecretStore>>) -> Self {
        Self {
            db,
            secrets,
            key: Arc::new(OnceCell::new()),
        }
    }

    /// The seal of `tool` with `args`: hex HMAC-SHA256 over the tool name, a zero byte
    /// and the canonical JSON of the arguments.
    pub async fn seal(&self, tool: &str, args: &serde_json::Value) -> Result<String, SealError> {
        Ok(hex(&self.mac_of(tool, args).await?.finalize().into_bytes()))
    }

    /// Whether `seal` is the seal of `tool` with `args` under this company's key
    /// (compared in constant time).
    pub async fn verify(
        &self,
        tool: &str,
        args: &serde_json::Value,
        seal: &str,
    ) -> Result<bool, SealError> {
        let Some(claimed) = unhex(seal) else {
            return Ok(false);
        };
        Ok(self
            .mac_of(tool, args)
            .await?
            .verify_slice(&claimed)
            .is_ok())
    }

    /// Where the key came from (finding it first if need be).
    pub async fn source(&self) -> Result<KeySource, SealError> {
        Ok(self.key().await?.source)
    }

    /// The keyed MAC over the tool name, a zero byte and the canonical JSON of the arguments.
    async fn mac_of(&self, tool: &str, args: &serde_json::Value) -> Result<HmacSha256, SealError> {
        let key = self.key().await?;
        let mut mac =
            HmacSha256::new_from_slice(&key.bytes).map_err(|e| SealError::Key(e.to_string()))?;
        mac.update(tool.as_bytes());
        mac.update(&[0]);
        mac.update(canonical_json(args).as_bytes());
        Ok(mac)
    }

    async fn key(&self) -> Result<&Key, SealError> {
        self.key.get_or_try_init(|| self.find_key()).await
    }

    async fn find_key(&self) -> Result<Key, SealError> {
        if let Ok(k) = std::env::var(APPROVAL_KEY_ENV)
            && !k.is_empty()
        {
            let n = k.chars().count();
            if n < MIN_ENV_KEY_CHARS {
                return Err(SealError::ShortEnvKey(n));
            }
            return Ok(Key {
                bytes: k.into_bytes(),
                source: KeySource::Environment,
            });
        }
        let scope = secrets::company_scope(&self.db)
            .await?
            .ok_or(SealError::NoCompany)?;
        let account = format!("approval-key:{}", scope.name);
        let found = match &self.secrets {
            Some(store) => keychain_key(store.clone(), account).await,
            None => Err(SecretError::Unavailable("no keychain given".into())),
        };
        match found {
            Ok(bytes) => Ok(Key {
                bytes,
                source: KeySource::Keychain,
            }),
            Err(e) => {
                tracing::warn!(
                    error = %e,
                    "no keychain for the approval key: using a key for this process only; \
                     approvals still waiting when it ends will be asked for again. Set \
                     {APPROVAL_KEY_ENV} or start a Secret Service to keep them"
                );
                Ok(Key {
                    bytes: random_key().into_bytes(),
                    source: KeySource::ThisProcess,
                })
            }
        }
    }
}

/// The keychain's key for `account`, made and stored there on first use. The keychain
/// blocks on D-Bus: off the async workers.
async fn keychain_key(
    store: Arc<dyn SecretStore>,
    account: String,
) -> Result<Vec<u8>, SecretError> {
    tokio::task::spawn_blocking(move || {
        if let Some(k) = store.get(&account)? {
            return Ok(k.expose().as_bytes().to_vec());
        }
        let fresh = random_key();
        store.set(&account, &ApiKey::new(fresh.clone()))?;
        // Read back: another process may have made one at the same moment; the
        // keychain's copy is the one both use from now on.
        Ok(store
            .get(&account)?
            .map_or_else(|| fresh.into_bytes(), |k| k.expose().as_bytes().to_vec()))
    })
    .await
    .map_err(|e| SecretError::Keychain(e.to_string()))?
}

/// 256 random bits, hex.
fn random_key() -> String {
    let bytes: [u8; 32] = rand::random();
    hex(&bytes)
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

fn unhex(s: &str) -> Option<Vec<u8>> {
    if !s.len().is_multiple_of(2) || !s.is_ascii() {
        return None;
    }
    (0..s.len())
        .step_by(2)
        .map(|i| u8::from_str_radix(&s[i..i + 2], 16).ok())
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hex_goes_both_ways_and_refuses_what_is_not_hex() {
        assert_eq!(unhex(&hex(&[0, 1, 254, 255])), Some(vec![0, 1, 254, 255]));
        assert_eq!(unhex("abc"), None);
        assert_eq!(unhex("zz"), None);
        assert_eq!(unhex("é1"), None);
    }
}
