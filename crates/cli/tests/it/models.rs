//! A model download killed mid-file, with real processes: `cubicle-cli models download`
//! fetches a real GGUF from a loopback server and is killed with SIGKILL; the catalogue
//! then shows the model paused (resumable), never installed; a second run resumes with a
//! range request, verifies the SHA-256 and installs it.

#![allow(clippy::unwrap_used, clippy::expect_used)] // tests fail loudly by design

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cubicle_llm::download::fixture::FileServer;
use cubicle_llm::download::{partial_path, sync_and_hash};
use serde_json::{Value, json};

const ID: &str = "test-model";

struct Setup {
    dir: tempfile::TempDir,
    catalogue: PathBuf,
    models: PathBuf,
    db: String,
}

impl Setup {
    fn new(server: &FileServer, source: &Path) -> Self {
        let dir = tempfile::tempdir().unwrap();
        let catalogue = dir.path().join("catalogue.json");
        let entry = json!([{
            "id": ID,
            "name": "Test Model",
            "params": "135M",
            "quantization": "Q4_1",
            "file_name": "test-model.gguf",
            "url": server.url("test-model.gguf"),
            "size_bytes": server.bytes().len(),
            "sha256": sync_and_hash(source).unwrap(),
            "ram_bytes": 1u64 << 30,
            "languages": ["en"],
            "writes_chinese": false,
            "licence": "Apache-2.0",
            "licence_url": "https://example.invalid/licence",
            "source": "the test's own file"
        }]);
        std::fs::write(&catalogue, entry.to_string()).unwrap();
        let models = dir.path().join("models");
        let db = format!("sqlite://{}?mode=rwc", dir.path().join("c.db").display());
        Self {
            dir,
            catalogue,
            models,
            db,
        }
    }

    fn cli(&self, args: &[&str]) -> Command {
        let mut cmd = Command::new(env!("CARGO_BIN_EXE_cubicle-cli"));
        cmd.arg("--db")
            .arg(&self.db)
            .args(args)
            .env("CUBICLE_MODEL_CATALOGUE", &self.catalogue)
            .env("CUBICLE_MODELS_DIR", &self.models)
            .env_remove("CUBICLE_PROVIDER")
            .env("HOME", self.dir.path());
        cmd
    }

    fn state(&self) -> Value {
        let out = self.cli(&["models", "list", "--json"]).output().unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let list: Value = serde_json::from_slice(&out.stdout).unwrap();
        list.as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == ID)
            .unwrap()["state"]
            .clone()
    }

    fn dest(&self) -> PathBuf {
        self.models.join("test-model.gguf")
    }
}

/// The installed built-in model (real bytes of a real GGUF), else a generated file.
fn source_file(scratch: &Path) -> PathBuf {
    let real = cubicle_llm::model_file::default_model_path();
    if real.is_file() {
        return real;
    }
    eprintln!(
        "{} is not installed: serving a generated GGUF",
        real.display()
    );
    let path = scratch.join("generated.gguf");
    let mut bytes = b"GGUF".to_vec();
    bytes.extend((0..(24u32 << 20)).map(|i| (i.wrapping_mul(2_654_435_761) >> 24) as u8));
    std::fs::write(&path, bytes).unwrap();
    path
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_download_killed_mid_file_is_paused_never_installed_and_resumes() {
    let scratch = tempfile::tempdir().unwrap();
    let source = source_file(scratch.path());
    let server = FileServer::serve_file(&source).await.unwrap();
    // About 6 MB/s: the kill lands well inside the file.
    server.set_chunk_delay(Duration::from_millis(10));
    let setup = Setup::new(&server, &source);
    let partial = partial_path(&setup.dest());

    let mut child = setup
        .cli(&["models", "download", ID])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(60);
    // Past the first 1 MiB write buffer, so bytes are on disk when the kill lands.
    while std::fs::metadata(&partial).map_or(0, |m| m.len()) < 2 << 20 {
        assert!(Instant::now() < deadline, "the download never got going");
        assert!(
            child.try_wait().unwrap().is_none(),
            "the download ended early"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    child.kill().unwrap(); // SIGKILL: no clean-up code runs
    child.wait().unwrap();

    let kept = std::fs::metadata(&partial).unwrap().len();
    assert!(kept > 0 && kept < server.bytes().len() as u64);
    assert!(
        !setup.dest().exists(),
        "a killed download is never installed"
    );
    let state = setup.state();
    assert_eq!(state["status"], "paused", "{state}");
    assert_eq!(state["received"], kept);
    let refused = setup.cli(&["models", "use", ID]).output().unwrap();
    assert!(
        !refused.status.success(),
        "a partial file cannot become the model"
    );
    assert!(String::from_utf8_lossy(&refused.stderr).contains("not installed"));

    server.set_chunk_delay(Duration::ZERO);
    let out = setup.cli(&["models", "download", ID]).output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("installed and verified"));

    let seen = server.seen();
    assert_eq!(
        seen.last().unwrap().range_start,
        Some(kept),
        "resumed, not restarted"
    );
    assert_eq!(
        sync_and_hash(&setup.dest()).unwrap(),
        sync_and_hash(&source).unwrap()
    );
    assert!(!partial.exists());
    let state = setup.state();
    assert_eq!(state["status"], "installed", "{state}");
    assert_eq!(state["inUse"], false);

    let used = setup.cli(&["models", "use", ID]).output().unwrap();
    assert!(
        used.status.success(),
        "{}",
        String::from_utf8_lossy(&used.stderr)
    );
    assert_eq!(setup.state()["inUse"], true);
}
