//! Which model answers the employees' thoughts, as the UI asks before telling the boss
//! that the small bundled model is the one thinking.

use std::path::Path;
use std::sync::Arc;

use cubicle_core::AppCore;
use cubicle_core::app::CoreOptions;
use cubicle_core::gateway::Purpose;
use cubicle_core::org::{
    EmployeeDto, FireEmployee, NewDepartment, NewEmployee, SetEmployeeBackend, SetupCompany,
};
use cubicle_core::providers::{ProviderDto, SaveProvider, SetBuiltinModel, SetRoute};
use cubicle_core::providers::{ThoughtBackend, ThoughtModelKind};
use cubicle_core::types::*;
use cubicle_llm::model_file::DEFAULT_MODEL_FILE;
use wiremock::MockServer;

use crate::gateway::{NoSecrets, fast_config};

/// A file the built-in runtime accepts as a GGUF (only the magic is checked before loading).
fn gguf(dir: &Path, name: &str) -> String {
    let path = dir.join(name);
    std::fs::write(&path, b"GGUF\x03\x00\x00\x00").unwrap();
    path.display().to_string()
}

async fn hire(core: &AppCore, name: &str, department_id: i32) -> EmployeeDto {
    core.org
        .hire(NewEmployee {
            name: name.into(),
            title: "Engineer".into(),
            department_id: Some(department_id),
            manager_id: None,
            archetype: None,
        })
        .await
        .unwrap()
}

/// A company database in `dir` whose built-in model's file comes from Settings, as in
/// the desktop app, set to the shipped file.
async fn open_with_the_shipped_model(dir: &Path) -> AppCore {
    let url = format!("sqlite://{}?mode=rwc", dir.join("c.db").display());
    // No override: the built-in model's file comes from Settings, as in the desktop app.
    let core = AppCore::open_with(
        &url,
        CoreOptions {
            secrets: Arc::new(NoSecrets),
            builtin_model: None,
            env_provider: None,
            gateway: fast_config(),
            clock: cubicle_core::clock::SystemClock::shared(),
            ..CoreOptions::default()
        },
    )
    .await
    .unwrap();
    // The shipped file, wherever it lives (the environment may point the default elsewhere).
    let shipped = gguf(dir, DEFAULT_MODEL_FILE);
    core.providers
        .set_builtin_model(SetBuiltinModel {
            path: Some(shipped),
        })
        .await
        .unwrap();
    core
}

/// Acme, in Chinese, with an Eng department. The department's id.
async fn set_up_acme_with_eng(core: &AppCore) -> i32 {
    core.org
        .setup_company(SetupCompany {
            name: "Acme".into(),
            boss_name: "Ada".into(),
            language: Language::ZhCn,
            mission: None,
        })
        .await
        .unwrap();
    core.org
        .create_department(NewDepartment {
            name: "Eng".into(),
            parent_id: None,
            mission: None,
        })
        .await
        .unwrap()
        .id
}

/// A local vLLM provider serving qwen2.5-7b from `server`.
async fn a_local_vllm(core: &AppCore, server: &MockServer) -> ProviderDto {
    core.providers
        .save(SaveProvider {
            id: None,
            name: "Local vLLM".into(),
            preset: "vllm".into(),
            base_url: format!("{}/v1", server.uri()),
            default_model: "qwen2.5-7b".into(),
            models: vec![],
            enabled: true,
        })
        .await
        .unwrap()
}

/// Thoughts routed to `vllm`: the company no longer thinks with the bundled model, and
/// nobody is left on it; other purposes on the built-in model do not count.
async fn thoughts_routed_to_the_provider(core: &AppCore, vllm: &ProviderDto) {
    let p = &core.providers;
    p.set_route(SetRoute {
        purpose: Purpose::Thought,
        provider_id: vllm.id.clone(),
        model: "qwen2.5-7b".into(),
    })
    .await
    .unwrap();
    let now = p.thought_model().await.unwrap();
    assert_eq!(
        now.company,
        ThoughtBackend {
            provider_id: vllm.id.clone(),
            model: "qwen2.5-7b".into(),
            kind: ThoughtModelKind::Provider,
        }
    );
    assert!(now.bundled_employee_ids.is_empty());

    // Other purposes on the built-in model do not count: only thoughts are the employees' work.
    assert_eq!(
        p.route_for(Purpose::Intent).await.unwrap().provider_id,
        "builtin"
    );
}

/// Thoughts back on the built-in runtime, but with a better GGUF the boss chose: a
/// local file, not the bundled model.
async fn a_better_gguf_on_the_built_in_runtime(core: &AppCore, dir: &Path) {
    let p = &core.providers;
    p.set_route(SetRoute {
        purpose: Purpose::Thought,
        provider_id: "builtin".into(),
        model: String::new(),
    })
    .await
    .unwrap();
    let better = gguf(dir, "qwen2.5-1.5b-instruct.Q4_K_M.gguf");
    p.set_builtin_model(SetBuiltinModel { path: Some(better) })
        .await
        .unwrap();
    let now = p.thought_model().await.unwrap();
    assert_eq!(
        now.company,
        ThoughtBackend {
            provider_id: "builtin".into(),
            model: "qwen2.5-1.5b-instruct".into(),
            kind: ThoughtModelKind::LocalFile,
        }
    );
    assert!(now.bundled_employee_ids.is_empty());
}

#[tokio::test]
async fn the_bundled_model_is_reported_until_a_provider_or_another_model_does_the_thinking() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_with_the_shipped_model(dir.path()).await;
    let p = &core.providers;

    // Before the company exists: the bundled model, nobody yet.
    let before = p.thought_model().await.unwrap();
    let bundled = ThoughtBackend {
        provider_id: "builtin".into(),
        model: "SmolLM2-135M-Instruct".into(),
        kind: ThoughtModelKind::Bundled,
    };
    assert_eq!(before.company, bundled);
    assert_eq!(before.bundled_model, "SmolLM2-135M-Instruct");
    assert!(
        !before.bundled_writes_chinese,
        "SmolLM2's Chinese is not readable"
    );
    assert!(before.bundled_employee_ids.is_empty());

    let dept = set_up_acme_with_eng(&core).await;
    let alice = hire(&core, "Alice", dept).await;
    let bob = hire(&core, "Bob", dept).await;
    let carol = hire(&core, "Carol", dept).await;
    let now = p.thought_model().await.unwrap();
    assert_eq!(now.company, bundled);
    assert_eq!(now.bundled_employee_ids, vec![alice.id, bob.id, carol.id]);

    // A fired employee thinks no more.
    core.org
        .fire(FireEmployee {
            employee_id: carol.id,
        })
        .await
        .unwrap();
    let server = MockServer::start().await;
    let vllm = a_local_vllm(&core, &server).await;
    // Bob gets a provider of his own: only Alice is left on the bundled model.
    core.set_employee_backend(SetEmployeeBackend {
        employee_id: bob.id,
        provider: Some(vllm.id.clone()),
        model: Some("qwen2.5-7b".into()),
    })
    .await
    .unwrap();
    let now = p.thought_model().await.unwrap();
    assert_eq!(now.company.kind, ThoughtModelKind::Bundled);
    assert_eq!(now.bundled_employee_ids, vec![alice.id]);

    // Thoughts routed to the provider: the company no longer thinks with the bundled model.
    thoughts_routed_to_the_provider(&core, &vllm).await;
    // Back on the built-in runtime, but with a better GGUF the boss chose: not the bundled model.
    a_better_gguf_on_the_built_in_runtime(&core, dir.path()).await;
}

#[tokio::test]
async fn the_other_shipped_model_is_bundled_too_and_writes_chinese() {
    let dir = tempfile::tempdir().unwrap();
    let core = open_with_the_shipped_model(dir.path()).await;
    let p = &core.providers;
    let qwen = gguf(dir.path(), cubicle_llm::model_file::QWEN_CODER.file);
    p.set_builtin_model(SetBuiltinModel { path: Some(qwen) })
        .await
        .unwrap();
    let now = p.thought_model().await.unwrap();
    assert_eq!(
        now.company,
        ThoughtBackend {
            provider_id: "builtin".into(),
            model: "Qwen2.5-Coder-0.5B-Instruct".into(),
            kind: ThoughtModelKind::Bundled,
        }
    );
    assert_eq!(now.bundled_model, "Qwen2.5-Coder-0.5B-Instruct");
    assert!(now.bundled_writes_chinese);
}
