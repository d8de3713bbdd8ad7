//! The OS keychain, for real: gnome-keyring on a private D-Bus session (scripts/test.sh).

use cubicle_core::secrets::{KeyringStore, SecretStore};
use cubicle_llm::ApiKey;

fn require_keyring() -> bool {
    if std::env::var("CUBICLE_TEST_KEYRING").is_ok_and(|v| v == "1") {
        return true;
    }
    if std::env::var("CUBICLE_SKIP_KEYRING").is_ok_and(|v| v == "1") {
        eprintln!("SKIPPED: keychain test (CUBICLE_SKIP_KEYRING=1)");
        return false;
    }
    panic!(
        "no test keychain: run scripts/test.sh, or set CUBICLE_SKIP_KEYRING=1 to skip knowingly"
    );
}

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
