//! IPC commands. Each is a few lines: take `AppCore`, call one core function, map the
//! error to `IpcError { code, message }`.

mod org;

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
}
