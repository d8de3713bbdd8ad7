//! `export` / `import`: the company as one JSON bundle file (see `cubicle_core::bundle`).

use std::io::Write as _;
use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use cubicle_core::AppCore;
use cubicle_core::bundle;

/// Writes the bundle to `out`, or to stdout; the summary goes to stderr so stdout stays
/// pure JSON for pipes.
pub async fn export(core: &AppCore, out: Option<PathBuf>) -> Result<()> {
    let b = bundle::export(core).await?;
    let json = bundle::to_json(&b)?;
    match &out {
        Some(path) => {
            // Write beside the target, then rename: a failed export never leaves half a file.
            let tmp = path.with_extension("partial");
            std::fs::write(&tmp, &json).with_context(|| format!("writing {}", tmp.display()))?;
            std::fs::rename(&tmp, path).with_context(|| format!("writing {}", path.display()))?;
        }
        None => {
            let mut stdout = std::io::stdout().lock();
            stdout.write_all(json.as_bytes())?;
            stdout.write_all(b"\n")?;
        }
    }
    eprintln!(
        "exported {} rows ({} bytes){}",
        b.tables.row_count(),
        json.len(),
        out.map(|p| format!(" to {}", p.display()))
            .unwrap_or_default()
    );
    Ok(())
}

pub async fn import(core: &AppCore, file: &Path) -> Result<()> {
    // Refused before it is read: a file far larger than any company's bundle.
    let len = std::fs::metadata(file)
        .with_context(|| format!("reading {}", file.display()))?
        .len();
    bundle::check_size(len)?;
    let json =
        std::fs::read_to_string(file).with_context(|| format!("reading {}", file.display()))?;
    let b = bundle::parse(&json)?;
    let report = bundle::import(core, b).await?;
    println!(
        "imported {} ({} people, {} rows)",
        report.company_name, report.employees, report.rows
    );
    Ok(())
}
