//! Builds the Tauri context from the root tauri.conf.json, with an ACL that only knows
//! our own commands (each gets an `allow-<command>` permission used in capabilities/).

const COMMANDS: &[&str] = &[
    "get_org",
    "list_role_templates",
    "setup_company",
    "update_company",
    "create_department",
    "rename_department",
    "move_department",
    "delete_department",
    "set_department_lead",
    "hire_employee",
    "move_employee",
    "set_manager",
    "fire_employee",
    "set_employee_backend",
    "secretary_history",
    "secretary_say",
    "secretary_confirm",
    "secretary_cancel",
    "secretary_undo",
    "list_presets",
    "list_providers",
    "save_provider",
    "delete_provider",
    "set_provider_key",
    "delete_provider_key",
    "test_provider",
    "get_routes",
    "set_route",
    "list_prices",
    "set_price",
    "set_budget",
    "get_spend",
    "builtin_status",
    "set_builtin_model",
    "thought_model",
    "list_chats",
    "chat_view",
    "post_message",
    "mark_chat_read",
    "open_boss_chat",
    "create_group",
    "employee_profile",
    "delete_memory",
    "reset_relationships",
    "relationship_graph",
    "list_mail",
    "set_mail_status",
    "get_dashboard",
    "list_traces",
    "get_trace",
    "requirements_board",
    "set_requirement_status",
    "set_reviewer",
    "meeting_view",
    "close_meeting",
    "list_approvals",
    "decide_approval",
    "ui_first_paint",
    "employee_tools",
    "set_employee_tools",
    "export_company",
    "import_company",
    "save_company_bundle",
    "connection",
];

fn main() {
    println!("cargo:rerun-if-changed=src-tauri/capabilities");
    let attrs = tauri_build::Attributes::new()
        .capabilities_path_pattern("./src-tauri/capabilities/**/*")
        .app_manifest(tauri_build::AppManifest::new().commands(COMMANDS));
    if let Err(e) = tauri_build::try_build(attrs) {
        eprintln!("tauri build failed: {e:#}");
        std::process::exit(1);
    }
}
