//! Builds the Tauri context from the root tauri.conf.json. The IPC commands are read once
//! from their fns (`build/commands.rs` says how) and everything that names them is
//! generated into OUT_DIR: the handler registration, the ACL manifest (each command gets an
//! `allow-<command>` permission), the capability that allows them all to the main window,
//! and the TypeScript API the shell's test compares with `ui/src/ipc/commands.ts`.

#[path = "build/commands.rs"]
mod commands;

use std::path::{Path, PathBuf};

const COMMANDS_DIR: &str = "src-tauri/src/commands";

fn main() {
    if let Err(e) = run() {
        eprintln!("build failed: {e}");
        std::process::exit(1);
    }
}

fn run() -> Result<(), String> {
    println!("cargo:rerun-if-changed={COMMANDS_DIR}");
    println!("cargo:rerun-if-changed=src-tauri/build");
    let out = PathBuf::from(std::env::var("OUT_DIR").map_err(|e| format!("OUT_DIR: {e}"))?);
    // tauri_build keeps the names and the capability pattern as `&'static`; leaking them in
    // a build script that exits right after costs nothing.
    let list: &'static [commands::Command] =
        Box::leak(read_commands(Path::new(COMMANDS_DIR))?.into_boxed_slice());
    let names: &'static [&'static str] = Box::leak(
        list.iter()
            .map(|c| c.name.as_str())
            .collect::<Vec<_>>()
            .into_boxed_slice(),
    );
    let names_rs: Vec<String> = names.iter().map(|n| format!("    \"{n}\",\n")).collect();
    write(&out.join("handler.rs"), &commands::handler(list))?;
    write(
        &out.join("command_names.rs"),
        &format!("&[\n{}]\n", names_rs.concat()),
    )?;
    write(&out.join("commands.ts"), &commands::typescript(list))?;
    let capabilities = out.join("capabilities");
    std::fs::create_dir_all(&capabilities).map_err(|e| e.to_string())?;
    write(
        &capabilities.join("default.json"),
        &commands::capability(list),
    )?;
    let pattern: &'static str = Box::leak(format!("{}/**/*", capabilities.display()).into());
    let attrs = tauri_build::Attributes::new()
        .capabilities_path_pattern(pattern)
        .app_manifest(tauri_build::AppManifest::new().commands(names));
    tauri_build::try_build(attrs).map_err(|e| format!("tauri build: {e:#}"))
}

/// Every module's commands, modules in name order, fns in the order they are written.
fn read_commands(dir: &Path) -> Result<Vec<commands::Command>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("{}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "rs"))
        .collect();
    files.sort();
    let mut list = Vec::new();
    for path in files {
        let module = path
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| format!("{}: not a module name", path.display()))?;
        let source =
            std::fs::read_to_string(&path).map_err(|e| format!("{}: {e}", path.display()))?;
        list.extend(commands::parse(module, &source)?);
    }
    Ok(list)
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}
