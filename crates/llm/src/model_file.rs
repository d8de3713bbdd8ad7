//! Where the built-in model's GGUF file is expected. Compiled with or without the
//! `builtin` feature: the app shows the path and installs the file even in a build that
//! cannot run it (the fuzz targets are built without llama.cpp).

use std::path::PathBuf;

/// File name of the model that `scripts/install-model.sh` installs.
pub const DEFAULT_MODEL_FILE: &str = "SmolLM2-135M-Instruct.Q4_1.gguf";
/// The app's identifier: its data dir is `<platform data dir>/<this>`.
pub const APP_DATA_DIR_NAME: &str = "app.cubicle.desktop";
/// Environment variable that points at another GGUF file.
pub const MODEL_PATH_ENV: &str = "CUBICLE_BUILTIN_MODEL";
/// Environment variable that moves the folder catalogue downloads go to.
pub const MODELS_DIR_ENV: &str = "CUBICLE_MODELS_DIR";

/// Where catalogue models are downloaded: `$CUBICLE_MODELS_DIR` when set, else
/// `<data dir>/app.cubicle.desktop/models`, beside the bundled model.
pub fn models_dir() -> PathBuf {
    if let Some(p) = std::env::var_os(MODELS_DIR_ENV).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    data_dir().join(APP_DATA_DIR_NAME).join("models")
}

/// Where the built-in model lives: `$CUBICLE_BUILTIN_MODEL` when set, else
/// `<data dir>/app.cubicle.desktop/models/SmolLM2-135M-Instruct.Q4_1.gguf`, the data dir
/// being `$XDG_DATA_HOME` or `~/.local/share` on Linux (what Tauri's `app_data_dir` uses).
pub fn default_model_path() -> PathBuf {
    if let Some(p) = std::env::var_os(MODEL_PATH_ENV).filter(|p| !p.is_empty()) {
        return PathBuf::from(p);
    }
    data_dir()
        .join(APP_DATA_DIR_NAME)
        .join("models")
        .join(DEFAULT_MODEL_FILE)
}

fn data_dir() -> PathBuf {
    let home = || std::env::var_os("HOME").map(PathBuf::from);
    if cfg!(target_os = "macos") {
        if let Some(h) = home() {
            return h.join("Library").join("Application Support");
        }
    } else if cfg!(windows) {
        if let Some(p) = std::env::var_os("APPDATA") {
            return PathBuf::from(p);
        }
    } else {
        if let Some(p) = std::env::var_os("XDG_DATA_HOME")
            .map(PathBuf::from)
            .filter(|p| p.is_absolute())
        {
            return p;
        }
        if let Some(h) = home() {
            return h.join(".local").join("share");
        }
    }
    PathBuf::from(".")
}
