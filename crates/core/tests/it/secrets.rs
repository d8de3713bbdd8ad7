//! The OS keychain, for real: gnome-keyring on a private D-Bus session (scripts/test.sh).

use crate::util::require_keyring;
use cubicle_core::secrets::{KeyringStore, SecretStore};
use cubicle_llm::ApiKey;

#[test]
fn a_key_round_trips_through_the_os_keychain() {
    if !require_keyring() {
        return;
    }
    let store = KeyringStore;
    let id = format!("roundtrip-{}", std::process::id());
    assert!(store.get(&id).unwrap().is_none(), "starts empty");
    store.set(&id, &ApiKey::new("sk-first")).unwrap();
    assert_eq!(store.get(&id).unwrap().unwrap().expose(), "sk-first");
    store.set(&id, &ApiKey::new("sk-second")).unwrap();
    assert_eq!(
        store.get(&id).unwrap().unwrap().expose(),
        "sk-second",
        "replaced"
    );
    store.delete(&id).unwrap();
    assert!(store.get(&id).unwrap().is_none(), "deleted");
    store.delete(&id).unwrap();
}

/// A provider whose key is where an older Cubicle left it: under the bare provider id,
/// with no key scope in the database.
async fn a_key_as_an_older_cubicle_left_it(
    co: &crate::util::TestCompany,
    store: &KeyringStore,
) -> cubicle_core::providers::ProviderDto {
    use sea_orm::ConnectionTrait;
    let p = co
        .core
        .providers
        .save(cubicle_core::providers::SaveProvider {
            id: None,
            name: format!("Legacy {}", std::process::id()),
            preset: "deepseek".into(),
            base_url: "https://api.deepseek.com".into(),
            default_model: "deepseek-chat".into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap();
    // As an older Cubicle left it: the key under the provider id, no scope in the database.
    store
        .set(&p.id, &ApiKey::new("sk-legacy-0123456789"))
        .unwrap();
    co.db()
        .await
        .execute_unprepared("UPDATE company SET secret_scope = NULL")
        .await
        .unwrap();
    p
}

/// With an entry under the old naming left over, the company goes out as a bundle and
/// into a fresh database: the imported provider of the same id has no key, and the old
/// entry was not taken.
async fn an_import_never_takes_the_old_entry(
    co: &crate::util::TestCompany,
    store: &KeyringStore,
    provider: &str,
) {
    use cubicle_core::bundle;
    store
        .set(provider, &ApiKey::new("sk-left-over-0123456789"))
        .unwrap();
    let fresh = crate::bundle::empty_db(cubicle_core::clock::SystemClock::shared()).await;
    bundle::import(
        &fresh.core,
        bundle::parse(&bundle::to_json(&bundle::export(&co.core).await.unwrap()).unwrap()).unwrap(),
    )
    .await
    .unwrap();
    let theirs = fresh.core.providers.list().await.unwrap();
    let theirs = theirs.iter().find(|x| x.id == provider).unwrap();
    assert!(!theirs.has_key, "{theirs:?}");
    assert_eq!(
        store
            .get(provider)
            .unwrap()
            .map(|k| k.expose().to_owned())
            .as_deref(),
        Some("sk-left-over-0123456789"),
        "the old entry was not taken"
    );
}

/// A company's database from before key scopes kept its provider keys under the bare
/// provider id. Opened now, it draws its scope and takes those keys under it, once; an
/// imported company with a provider of the same id never takes them.
#[tokio::test]
async fn keys_from_before_scopes_move_under_their_company_once_and_never_into_an_import() {
    use cubicle_core::providers::KeySource;
    use cubicle_core::secrets::{company_scope, provider_account};

    if !require_keyring() {
        return;
    }
    let store = KeyringStore;
    let co = crate::util::TestCompany::new().await;
    let p = a_key_as_an_older_cubicle_left_it(&co, &store).await;

    let reopened = co.another_process().await;
    let scope = company_scope(&co.db().await).await.unwrap().unwrap();
    assert!(!scope.newly_drawn, "drawn when the database was opened");
    assert_eq!(
        store
            .get(&provider_account(&scope.name, &p.id))
            .unwrap()
            .map(|k| k.expose().to_owned())
            .as_deref(),
        Some("sk-legacy-0123456789"),
        "moved under the company's scope"
    );
    assert!(store.get(&p.id).unwrap().is_none(), "and not left behind");
    let listed = reopened.providers.list().await.unwrap();
    let mine = listed.iter().find(|x| x.id == p.id).unwrap();
    assert!(mine.has_key && mine.key_source == KeySource::Keychain);

    // An entry under the old naming, and a bundle with the same provider id: the imported
    // company draws its scope at import and never looks at the old entry.
    an_import_never_takes_the_old_entry(&co, &store, &p.id).await;

    store.delete(&p.id).unwrap();
    reopened.providers.delete(&p.id).await.unwrap();
    assert!(
        store
            .get(&provider_account(&scope.name, &p.id))
            .unwrap()
            .is_none(),
        "the key goes with the provider"
    );
}

/// Keys are filed under the company: before one is set up there is nowhere to file a key,
/// and saying so beats filing it under a name no company will ever have.
#[tokio::test]
async fn a_key_before_the_company_is_set_up_is_refused_with_what_to_do() {
    use cubicle_core::clock::SystemClock;
    use cubicle_core::error::ErrorCode;
    use cubicle_core::providers::{ProviderError, SaveProvider, SetProviderKey};

    let empty = crate::bundle::empty_db(SystemClock::shared()).await;
    let p = empty
        .core
        .providers
        .save(SaveProvider {
            id: None,
            name: "DeepSeek".into(),
            preset: "deepseek".into(),
            base_url: "https://api.deepseek.com".into(),
            default_model: "deepseek-chat".into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap();
    assert!(!p.has_key);
    let err = empty
        .core
        .providers
        .set_key(SetProviderKey {
            provider_id: p.id.clone(),
            key: "sk-nowhere-0123456789".into(),
        })
        .await
        .unwrap_err();
    assert!(matches!(err, ProviderError::Secret(_)), "{err:?}");
    assert_eq!(err.code(), ErrorCode::CompanyMissing);
    assert!(
        err.to_string().contains("set up the company first"),
        "{err}"
    );
}
