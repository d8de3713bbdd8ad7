//! What binds a decision to what the boss saw: every waiting action carries an
//! HMAC-SHA256 of its tool and canonical arguments, keyed with the company's approval
//! key. The key never touches the database, so someone who can edit the database (or a
//! bundle) can change an action's arguments but cannot make its seal match them; the
//! queue, a notification and the CLI send back the seal of what they displayed, and a
//! decision whose seal differs is refused.
//!
//! A decision is sealed too ([`Seal::seal_decision`]): the process that decides (when it
//! holds the key) writes, with the decision, an HMAC of the approval's id, requester,
//! tool and canonical arguments, whom it was routed to, until when, and the decision
//! (its status, the person who made it, through what). Where the action runs it must
//! match the row as it is then, so a status set in the database, or an executed row
//! copied back into the queue under a new id, does not run. That seal is made with a key
//! derived from the approval key for decisions only: no seal of an action, whatever a
//! row's tool and arguments say, can stand in for one.
//!
//! Where the key lives, first found wins:
//! - `CUBICLE_APPROVAL_KEY` (at least 32 characters): a company server, whose engine
//!   runs the actions, has no keychain of its own;
//! - the OS keychain, account `approval-key:<company scope>`, made on first use;
//! - without either, a key for this process only, said loudly in the log: its waiting
//!   approvals cannot be verified by a later process and are expired there, so the
//!   employee asks again.

use std::sync::Arc;

use chrono::{DateTime, Utc};
use cubicle_llm::ApiKey;
use cubicle_store::Db;
use cubicle_store::entity::approval;
use cubicle_store::enums::{ApprovalStatus, DecidedVia};
use hmac::{Hmac, Mac};
use sea_orm::ActiveEnum;
use sha2::Sha256;
use tokio::sync::OnceCell;

use crate::secrets::{self, SecretError, SecretStore};
use crate::tools::canonical_json;

/// The environment variable a server's approval key comes from.
pub const APPROVAL_KEY_ENV: &str = "CUBICLE_APPROVAL_KEY";
/// The shortest key accepted from the environment.
const MIN_ENV_KEY_CHARS: usize = 32;

/// What the decisions' own key is derived with. It holds no zero byte, while whatever an
/// action's seal covers does (the tool, a zero byte, the arguments): the two never meet.
const DECISION_DOMAIN: &[u8] = b"cubicle approval decision";

type HmacSha256 = Hmac<Sha256>;

/// What a decision's seal covers: which approval, whose action (requester, tool and
/// arguments), whom it was routed to and until when, and the decision itself (its
/// status, the person who made it, through what).
#[derive(Clone, Copy, Debug)]
pub struct DecisionRecord<'a> {
    pub approval_id: i32,
    pub employee_id: i32,
    pub tool: &'a str,
    pub args: &'a serde_json::Value,
    pub approver_id: Option<i32>,
    pub expires_at: DateTime<Utc>,
    pub status: ApprovalStatus,
    pub decided_by: Option<i32>,
    pub decided_via: Option<DecidedVia>,
}

impl<'a> DecisionRecord<'a> {
    /// The decision `row` holds as it is now.
    pub fn of(row: &'a approval::Model) -> Self {
        Self::deciding(row, row.status, row.decided_by, row.decided_via)
    }

    /// `row`, read while it waited, decided `status` by `decided_by` (`None`: the boss or
    /// a policy) through `via`.
    pub fn deciding(
        row: &'a approval::Model,
        status: ApprovalStatus,
        decided_by: Option<i32>,
        decided_via: Option<DecidedVia>,
    ) -> Self {
        Self {
            approval_id: row.id,
            employee_id: row.employee_id,
            tool: &row.tool,
            args: &row.args,
            approver_id: row.approver_id,
            expires_at: row.expires_at,
            status,
            decided_by,
            decided_via,
        }
    }

    /// One canonical text per decision. The expiry counts in microseconds, the finest
    /// either database keeps, so it reads back the same from a row as it was sealed.
    fn canonical(&self) -> String {
        canonical_json(&serde_json::json!({
            "approval": self.approval_id,
            "employee": self.employee_id,
            "tool": self.tool,
            "args": self.args,
            "approver": self.approver_id,
            "expiresAtMicros": self.expires_at.timestamp_micros(),
            "status": self.status.to_value(),
            "decidedBy": self.decided_by,
            "decidedVia": self.decided_via.map(|v| v.to_value()),
        }))
    }
}

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

    /// The seal of a decision: hex HMAC-SHA256 of its canonical record, under the key
    /// derived for decisions.
    pub async fn seal_decision(&self, decision: &DecisionRecord<'_>) -> Result<String, SealError> {
        Ok(hex(&self
            .decision_mac(decision)
            .await?
            .finalize()
            .into_bytes()))
    }

    /// Whether `seal` is the seal of `decision` under this company's key (compared in
    /// constant time).
    pub async fn verify_decision(
        &self,
        decision: &DecisionRecord<'_>,
        seal: &str,
    ) -> Result<bool, SealError> {
        let Some(claimed) = unhex(seal) else {
            return Ok(false);
        };
        Ok(self
            .decision_mac(decision)
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

    /// The keyed MAC over a decision's canonical record, keyed with the decisions' own key.
    async fn decision_mac(&self, decision: &DecisionRecord<'_>) -> Result<HmacSha256, SealError> {
        let key = self.key().await?;
        let mut derive =
            HmacSha256::new_from_slice(&key.bytes).map_err(|e| SealError::Key(e.to_string()))?;
        derive.update(DECISION_DOMAIN);
        let decisions_key = derive.finalize().into_bytes();
        let mut mac = HmacSha256::new_from_slice(&decisions_key)
            .map_err(|e| SealError::Key(e.to_string()))?;
        mac.update(decision.canonical().as_bytes());
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
