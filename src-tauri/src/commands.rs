//! IPC commands. Each is a few lines: take `AppCore`, call one core function, map the
//! error to `IpcError { code, message }`.

mod app;
mod approvals;
mod bundle;
mod chats;
mod employee_tools;
mod mailbox;
mod models;
mod org;
mod secretary;
mod settings;
mod work;

pub fn handler<R: tauri::Runtime>() -> impl Fn(tauri::ipc::Invoke<R>) -> bool + Send + Sync + 'static
{
    tauri::generate_handler![
        org::get_org,
        org::list_role_templates,
        org::setup_company,
        org::update_company,
        org::create_department,
        org::rename_department,
        org::move_department,
        org::delete_department,
        org::set_department_lead,
        org::hire_employee,
        org::move_employee,
        org::set_manager,
        org::fire_employee,
        org::set_employee_backend,
        secretary::secretary_history,
        secretary::secretary_say,
        secretary::secretary_confirm,
        secretary::secretary_cancel,
        secretary::secretary_undo,
        settings::list_presets,
        settings::list_providers,
        settings::save_provider,
        settings::delete_provider,
        settings::set_provider_key,
        settings::delete_provider_key,
        settings::test_provider,
        settings::get_routes,
        settings::set_route,
        settings::list_prices,
        settings::set_price,
        settings::set_budget,
        settings::get_spend,
        settings::builtin_status,
        settings::connection,
        settings::set_builtin_model,
        settings::thought_model,
        chats::list_chats,
        chats::chat_view,
        chats::post_message,
        chats::mark_chat_read,
        chats::open_boss_chat,
        chats::create_group,
        chats::employee_profile,
        chats::delete_memory,
        chats::reset_relationships,
        chats::relationship_graph,
        mailbox::list_mail,
        mailbox::set_mail_status,
        mailbox::get_dashboard,
        work::list_traces,
        work::get_trace,
        work::requirements_board,
        work::set_requirement_status,
        work::set_reviewer,
        work::get_deliverable,
        work::meeting_view,
        work::close_meeting,
        approvals::list_approvals,
        approvals::decide_approval,
        approvals::decide_approvals,
        approvals::webhook_destinations,
        approvals::set_webhook_destinations,
        app::ui_first_paint,
        employee_tools::employee_tools,
        employee_tools::set_employee_tools,
        employee_tools::employee_network_access,
        employee_tools::set_employee_network_access,
        bundle::export_company,
        bundle::import_company,
        bundle::save_company_bundle,
        bundle::imported_to_confirm,
        bundle::confirm_imported,
        models::list_local_models,
        models::start_model_download,
        models::pause_model_download,
        models::cancel_model_download,
        models::use_local_model,
        models::use_local_model_for,
        models::detect_local_servers,
        models::add_local_server,
    ]
}

#[cfg(test)]
mod tests {
    //! The commands over a real core on a temp SQLite file, through Tauri's mock runtime:
    //! results arrive as JSON and failures as `{code, message}`.

    use cubicle_core::AppCore;
    use serde_json::{Value, json};
    use tauri::ipc::{CallbackFn, InvokeBody};
    use tauri::test::{
        INVOKE_KEY, MockRuntime, get_ipc_response, mock_builder, mock_context, noop_assets,
    };
    use tauri::webview::InvokeRequest;
    use tauri::{Manager, WebviewWindow, WebviewWindowBuilder};

    fn app(core: AppCore) -> (tauri::App<MockRuntime>, WebviewWindow<MockRuntime>) {
        let app = mock_builder()
            .invoke_handler(super::handler())
            .build(mock_context(noop_assets()))
            .expect("app");
        app.manage(core);
        let window = WebviewWindowBuilder::new(&app, "main", Default::default())
            .build()
            .expect("window");
        (app, window)
    }

    fn invoke(w: &WebviewWindow<MockRuntime>, cmd: &str, body: Value) -> Result<Value, Value> {
        get_ipc_response(
            w,
            InvokeRequest {
                cmd: cmd.into(),
                callback: CallbackFn(0),
                error: CallbackFn(1),
                url: "tauri://localhost".parse().expect("url"),
                body: InvokeBody::Json(body),
                headers: Default::default(),
                invoke_key: INVOKE_KEY.to_string(),
            },
        )
        .map(|b| b.deserialize::<Value>().expect("json"))
    }

    /// The commands `ui/src/ipc/api.ts` invokes.
    fn invoked_by_the_ui() -> Vec<&'static str> {
        include_str!("../../ui/src/ipc/api.ts")
            .split("invoke")
            .skip(1)
            .filter(|rest| rest.starts_with('<') || rest.starts_with('('))
            .filter_map(|rest| {
                let name = &rest[rest.find("(\"")? + 2..];
                Some(&name[..name.find('"')?])
            })
            .collect()
    }

    /// The mock runtime above skips the ACL; the real app refuses a command that is not
    /// in build.rs's manifest and allowed in the capability (the "Connected to server"
    /// badge was, and never showed).
    #[test]
    fn every_command_the_ui_invokes_is_in_the_manifest_and_allowed() {
        let manifest = include_str!("../build.rs");
        let capability: Value =
            serde_json::from_str(include_str!("../capabilities/default.json")).expect("json");
        let allowed: Vec<&str> = capability["permissions"]
            .as_array()
            .expect("permissions")
            .iter()
            .filter_map(Value::as_str)
            .collect();
        let invoked = invoked_by_the_ui();
        assert!(invoked.len() > 50, "{invoked:?}");
        for name in invoked {
            assert!(
                manifest.contains(&format!("\"{name}\",")),
                "{name} is not in src-tauri/build.rs"
            );
            let permission = format!("allow-{}", name.replace('_', "-"));
            assert!(
                allowed.contains(&permission.as_str()),
                "{permission} is not in src-tauri/capabilities/default.json"
            );
        }
    }

    #[test]
    fn the_shell_learns_the_server_it_is_attached_to_but_never_its_password() {
        let dir = tempfile::tempdir().expect("dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
        let core = tauri::async_runtime::block_on(AppCore::open(&url)).expect("core");
        let (app, w) = app(core);
        let server = cubicle_core::location::server_label("postgres://cubicle:s3cret@db:5432/acme");
        app.manage(crate::Connection(cubicle_core::types::ConnectionDto {
            server,
        }));
        let got = invoke(&w, "connection", json!({})).expect("connection");
        assert_eq!(got, json!({"server": "db:5432/acme"}));
        assert!(!got.to_string().contains("s3cret"));
    }

    #[test]
    fn commands_return_dtos_and_errors_carry_codes() {
        let dir = tempfile::tempdir().expect("dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
        let core = tauri::async_runtime::block_on(AppCore::open(&url)).expect("core");
        let (_app, w) = app(core);

        let snap = invoke(&w, "get_org", json!({})).expect("get_org");
        assert_eq!(snap["company"], Value::Null);

        let err = invoke(
            &w,
            "create_department",
            json!({"input": {"name": "Eng", "parentId": null, "mission": null}}),
        )
        .expect_err("no company yet");
        assert_eq!(err["code"], "company_missing");
        assert!(err["message"].as_str().is_some_and(|m| !m.is_empty()));

        let company = invoke(
            &w,
            "setup_company",
            json!({"input": {"name": "Acme", "bossName": "Ada", "language": "zh-CN", "mission": null}}),
        )
        .expect("setup");
        assert_eq!(company["language"], "zh-CN");

        let dept = invoke(
            &w,
            "create_department",
            json!({"input": {"name": "Eng", "parentId": null, "mission": null}}),
        )
        .expect("create");
        let alice = invoke(
            &w,
            "hire_employee",
            json!({"input": {"name": "Alice", "title": "QA Engineer", "departmentId": dept["id"], "managerId": null, "archetype": null}}),
        )
        .expect("hire");
        assert_eq!(alice["archetype"], "anxious_perfectionist");

        let err = invoke(
            &w,
            "delete_department",
            json!({"input": {"id": dept["id"], "reassignTo": null}}),
        )
        .expect_err("not empty");
        assert_eq!(err["code"], "department_not_empty");

        let roles = invoke(&w, "list_role_templates", json!({})).expect("roles");
        assert!(roles.as_array().is_some_and(|r| r.len() >= 15));
    }

    #[test]
    fn employee_tools_are_saved_in_one_go_or_refused_with_a_clear_error() {
        let dir = tempfile::tempdir().expect("dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
        let core = tauri::async_runtime::block_on(AppCore::open(&url)).expect("core");
        let (_app, w) = app(core);
        invoke(
            &w,
            "setup_company",
            json!({"input": {"name": "Acme", "bossName": "Ada", "language": "en", "mission": null}}),
        )
        .expect("setup");
        let bob = invoke(
            &w,
            "hire_employee",
            json!({"input": {"name": "Bob", "title": "Engineer", "departmentId": null, "managerId": null, "archetype": null}}),
        )
        .expect("hire");
        let id = bob["id"].clone();

        let card =
            invoke(&w, "employee_tools", json!({"input": {"employeeId": id}})).expect("read");
        assert_eq!(card["policy"], Value::Null);
        assert_eq!(card["companyPolicy"], "key_steps");
        assert!(card["catalogue"].as_array().is_some_and(|c| c.len() == 10));

        let err = invoke(
            &w,
            "set_employee_tools",
            json!({"input": {"employeeId": id, "policy": "manual", "tools": ["read_file", "nope"], "cliCommand": null}}),
        )
        .expect_err("unknown tool");
        assert_eq!(err["code"], "invalid_input");
        assert!(
            err["message"]
                .as_str()
                .is_some_and(|m| m.contains("\"nope\"")),
            "{err}"
        );
        let err = invoke(
            &w,
            "set_employee_tools",
            json!({"input": {"employeeId": id, "policy": "manual", "tools": ["run_cli"], "cliCommand": ""}}),
        )
        .expect_err("empty command");
        assert!(
            err["message"]
                .as_str()
                .is_some_and(|m| m.contains("CLI command is empty")),
            "{err}"
        );
        let unchanged =
            invoke(&w, "employee_tools", json!({"input": {"employeeId": id}})).expect("read");
        assert_eq!(unchanged, card, "a refused edit changes nothing");

        let saved = invoke(
            &w,
            "set_employee_tools",
            json!({"input": {"employeeId": id, "policy": "manual", "tools": ["run_cli", "read_file"], "cliCommand": " codex exec "}}),
        )
        .expect("save");
        assert_eq!(saved["policy"], "manual");
        assert_eq!(saved["tools"], json!(["read_file", "run_cli"]));
        assert_eq!(saved["cliCommand"], "codex exec");
        let org = invoke(&w, "get_org", json!({})).expect("org");
        assert_eq!(org["employees"][0]["approvalPolicy"], "manual");
    }

    #[test]
    fn an_employees_sandbox_network_is_off_until_the_boss_switches_it_on() {
        let dir = tempfile::tempdir().expect("dir");
        let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
        let core = tauri::async_runtime::block_on(AppCore::open(&url)).expect("core");
        let (_app, w) = app(core.clone());
        invoke(
            &w,
            "setup_company",
            json!({"input": {"name": "Acme", "bossName": "Ada", "language": "en", "mission": null}}),
        )
        .expect("setup");
        let bob = invoke(
            &w,
            "hire_employee",
            json!({"input": {"name": "Bob", "title": "DevOps", "departmentId": null, "managerId": null, "archetype": null}}),
        )
        .expect("hire");
        let read = |w: &WebviewWindow<MockRuntime>| {
            invoke(
                w,
                "employee_network_access",
                json!({"input": {"employeeId": bob["id"]}}),
            )
        };
        assert_eq!(read(&w).expect("read"), json!(false), "off by default");

        let set = |allowed: bool| {
            invoke(
                &w,
                "set_employee_network_access",
                json!({"input": {"employeeId": bob["id"], "allowed": allowed}}),
            )
        };
        set(true).expect("on");
        assert_eq!(read(&w).expect("read"), json!(true));
        let id = bob["id"]
            .as_i64()
            .and_then(|i| i32::try_from(i).ok())
            .expect("id");
        let stored = tauri::async_runtime::block_on(core.approvals.network_access(id));
        assert!(
            stored.expect("stored"),
            "what the sandbox reads is what was set"
        );
        set(false).expect("off");
        assert_eq!(read(&w).expect("read"), json!(false));

        let err = invoke(
            &w,
            "set_employee_network_access",
            json!({"input": {"employeeId": bob["id"], "allowed": "yes"}}),
        )
        .expect_err("not a boolean");
        assert!(err.to_string().contains("boolean"), "{err}");
        let err = invoke(
            &w,
            "employee_network_access",
            json!({"input": {"employeeId": 999}}),
        )
        .expect_err("unknown employee");
        assert_eq!(err["code"], "not_found");
        assert_eq!(
            read(&w).expect("read"),
            json!(false),
            "a refused call changes nothing"
        );
    }

    #[test]
    fn a_company_exported_over_ipc_imports_into_an_empty_app_only() {
        let open = |dir: &tempfile::TempDir| {
            let url = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
            tauri::async_runtime::block_on(AppCore::open(&url)).expect("core")
        };
        let (from, to) = (
            tempfile::tempdir().expect("dir"),
            tempfile::tempdir().expect("dir"),
        );
        let (_a, wa) = app(open(&from));
        invoke(
            &wa,
            "setup_company",
            json!({"input": {"name": "Acme", "bossName": "Ada", "language": "en", "mission": null}}),
        )
        .expect("setup");
        invoke(
            &wa,
            "save_provider",
            json!({"input": {"id": null, "name": "Lab", "preset": "vllm",
                "baseUrl": "http://127.0.0.1:9/v1", "defaultModel": "m", "models": [], "enabled": true}}),
        )
        .expect("save provider");
        let json = invoke(&wa, "export_company", json!({})).expect("export");
        let json = json.as_str().expect("a JSON string").to_owned();
        assert!(json.contains("\"schemaVersion\""));

        let (_b, wb) = app(open(&to));
        let bad = invoke(&wb, "import_company", json!({"json": "{"})).expect_err("half a file");
        assert_eq!(bad["code"], "bundle_invalid");
        let report = invoke(&wb, "import_company", json!({"json": json})).expect("import");
        assert_eq!(report["companyName"], "Acme");
        let org = invoke(&wb, "get_org", json!({})).expect("get_org");
        assert_eq!(org["company"]["name"], "Acme");
        let again = invoke(&wb, "import_company", json!({"json": json})).expect_err("busy");
        assert_eq!(again["code"], "database_not_empty");

        // The imported provider's URL waits for the boss, who confirms what they saw.
        let waiting = invoke(&wb, "imported_to_confirm", json!({})).expect("to confirm");
        assert_eq!(waiting["providers"][0]["providerId"], "lab");
        assert_eq!(waiting["providers"][0]["baseUrl"], "http://127.0.0.1:9/v1");
        let stale = invoke(
            &wb,
            "confirm_imported",
            json!({"input": {"kind": "provider_url", "providerId": "lab", "baseUrl": "http://elsewhere/v1"}}),
        )
        .expect_err("not what was shown");
        assert_eq!(stale["code"], "invalid_input");
        let left = invoke(
            &wb,
            "confirm_imported",
            json!({"input": {"kind": "provider_url", "providerId": "lab", "baseUrl": "http://127.0.0.1:9/v1"}}),
        )
        .expect("confirm");
        assert_eq!(left["providers"], json!([]));
    }

    /// The keychain tests need a Secret Service: scripts/test.sh runs them inside a private
    /// D-Bus session with gnome-keyring and sets CUBICLE_TEST_KEYRING=1.
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
    fn a_key_set_through_ipc_never_reaches_the_database_the_logs_or_the_webview() {
        use std::sync::{Arc, Mutex};
        use tauri::Listener;
        use wiremock::matchers::{body_partial_json, header, method, path};
        use wiremock::{Mock, MockServer, ResponseTemplate};

        if !require_keyring() {
            return;
        }
        let dir = tempfile::tempdir().expect("dir");
        let log_dir = dir.path().join("logs");
        let guard = crate::logging::init(&log_dir, "debug").expect("logging");
        let nanos = std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .expect("clock")
            .as_nanos();
        let key = format!("sk-leaktest-{nanos}-Zq9");

        let server = tauri::async_runtime::block_on(async {
            let server = MockServer::start().await;
            // A provider error that echoes the request headers back, as some proxies do.
            Mock::given(method("POST"))
                .and(body_partial_json(json!({"model": "no-such-model"})))
                .respond_with(ResponseTemplate::new(404).set_body_string(format!(
                    "unknown model; you sent Authorization: Bearer {key}"
                )))
                .with_priority(1)
                .mount(&server)
                .await;
            Mock::given(method("POST"))
                .and(path("/v1/chat/completions"))
                .and(header("authorization", format!("Bearer {key}").as_str()))
                .respond_with(ResponseTemplate::new(200).set_body_json(json!({
                    "id": "c", "object": "chat.completion", "model": "gpt-4.1-mini",
                    "choices": [{"index": 0, "message": {"role": "assistant", "content": "hello boss"}, "finish_reason": "stop"}],
                    "usage": {"prompt_tokens": 12, "completion_tokens": 3}
                })))
                .mount(&server)
                .await;
            server
        });

        let db_path = dir.path().join("c.db");
        let url = format!("sqlite://{}?mode=rwc", db_path.display());
        let core = tauri::async_runtime::block_on(AppCore::open(&url)).expect("core");
        let bus = core.bus.clone();
        let (app, w) = app(core);
        let events = Arc::new(Mutex::new(Vec::<String>::new()));
        let sink = events.clone();
        app.listen_any(crate::events::DOMAIN_EVENT, move |e| {
            sink.lock().expect("lock").push(e.payload().to_owned());
        });
        crate::events::spawn_bridge(app.handle().clone(), &bus);

        let mut seen = Vec::new();
        let mut call = |cmd: &str, body: Value| {
            let r = invoke(&w, cmd, body);
            seen.push(format!("{r:?}"));
            r
        };
        call("setup_company", json!({"input": {"name": "Acme", "bossName": "Ada", "language": "en", "mission": null}}))
            .expect("setup");
        let p = call(
            "save_provider",
            json!({"input": {"id": null, "name": "OpenAI", "preset": "openai",
                "baseUrl": format!("{}/v1", server.uri()), "defaultModel": "gpt-4.1-mini", "models": [], "enabled": true}}),
        )
        .expect("save");
        let id = p["id"].as_str().expect("id").to_owned();
        let with_key = call(
            "set_provider_key",
            json!({"input": {"providerId": id, "key": key}}),
        )
        .expect("set key");
        assert_eq!(with_key["hasKey"], true);
        assert_eq!(with_key["keySource"], "keychain");
        let tested = call(
            "test_provider",
            json!({"input": {"providerId": id, "model": null}}),
        )
        .expect("test");
        assert_eq!(
            tested["ok"], true,
            "the key from the keychain reached the provider: {tested}"
        );
        for cmd in [
            "list_providers",
            "get_spend",
            "list_prices",
            "get_routes",
            "get_org",
        ] {
            call(cmd, json!({})).expect(cmd);
        }
        // A failing call with the key in flight: its error must not carry the key either.
        let failed = call(
            "test_provider",
            json!({"input": {"providerId": id, "model": "no-such-model"}}),
        )
        .expect("a failed test is a result, not an error");
        assert_eq!(failed["ok"], false, "{failed}");
        call("delete_provider_key", json!({"input": {"providerId": id}})).expect("delete key");
        std::thread::sleep(std::time::Duration::from_millis(200));
        drop(guard);

        let mut haystacks: Vec<(String, Vec<u8>)> = seen
            .into_iter()
            .map(|s| ("ipc response".to_owned(), s.into_bytes()))
            .collect();
        for e in events.lock().expect("lock").iter() {
            haystacks.push(("webview event".into(), e.clone().into_bytes()));
        }
        assert!(
            haystacks.iter().any(|(k, _)| k == "webview event"),
            "events were captured"
        );
        for entry in std::fs::read_dir(dir.path())
            .expect("dir")
            .chain(std::fs::read_dir(&log_dir).expect("logs"))
        {
            let path = entry.expect("entry").path();
            if path.is_file() {
                haystacks.push((
                    path.display().to_string(),
                    std::fs::read(&path).expect("read"),
                ));
            }
        }
        let logs: usize = haystacks
            .iter()
            .filter(|(k, _)| k.contains("/logs/"))
            .map(|(_, v)| v.len())
            .sum();
        assert!(logs > 0, "the log dir has content to check");
        assert!(
            haystacks.iter().any(|(k, _)| k.ends_with("c.db")),
            "the database was checked"
        );
        let needle = key.as_bytes();
        for (source, bytes) in &haystacks {
            assert!(
                !bytes.windows(needle.len()).any(|w| w == needle),
                "the API key leaked into {source}"
            );
        }
    }
}
