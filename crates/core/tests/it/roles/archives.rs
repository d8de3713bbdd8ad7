//! A roster that comes as an archive (GitHub's "Download ZIP" of a roster folder, a
//! tarball) or as files picked in the app imports exactly as its folder does; a hostile
//! archive is refused whole, and a card too large or not a card is said so.

use std::io::Write;
use std::path::Path;

use base64::Engine as _;
use cubicle_core::roles::{RosterFile, RosterUpload};

use super::{assert_first_import, roster, tree};
use crate::util::TestCompany;

/// The fixture roster zipped the way GitHub does: every file under `roster-main/`, plus
/// the metadata macOS's archiver adds beside a file.
fn zipped(files: &[(String, Vec<u8>)]) -> Vec<u8> {
    let mut zip = zip::ZipWriter::new(std::io::Cursor::new(Vec::new()));
    let opts = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated);
    for (name, bytes) in files {
        zip.start_file(name.as_str(), opts).unwrap();
        zip.write_all(bytes).unwrap();
    }
    zip.finish().unwrap().into_inner()
}

fn github_zip() -> Vec<u8> {
    let mut files: Vec<(String, Vec<u8>)> = tree(&roster())
        .into_iter()
        .map(|(rel, bytes)| (format!("roster-main/{rel}"), bytes))
        .collect();
    files.push((
        "__MACOSX/roster-main/marketing/._growth-hacker.md".into(),
        vec![0, 5, 22, 7],
    ));
    zipped(&files)
}

/// The same roster as a gzipped tarball, with the folder at its root.
fn tarball() -> Vec<u8> {
    let gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
    let mut tar = tar::Builder::new(gz);
    for (rel, bytes) in tree(&roster()) {
        let mut header = tar::Header::new_gnu();
        header.set_size(bytes.len() as u64);
        header.set_mode(0o644);
        header.set_cksum();
        tar.append_data(&mut header, format!("roster/{rel}"), bytes.as_slice())
            .unwrap();
    }
    tar.into_inner().unwrap().finish().unwrap()
}

fn upload(name: &str, bytes: &[u8]) -> RosterUpload {
    RosterUpload {
        files: vec![RosterFile {
            name: name.into(),
            base64: base64::engine::general_purpose::STANDARD.encode(bytes),
        }],
    }
}

#[tokio::test]
async fn a_zip_or_a_tarball_of_a_roster_imports_as_its_folder_does() {
    let co = TestCompany::new().await;
    let dir = tempfile::tempdir().unwrap();
    let zip_path = dir.path().join("roster-main.zip");
    std::fs::write(&zip_path, github_zip()).unwrap();

    // The CLI's path: a file on disk.
    let from_zip = co.core.import_roles(&zip_path, true).await.unwrap();
    assert_first_import(&from_zip);
    assert_eq!(
        from_zip,
        co.core.import_roles(&roster(), true).await.unwrap(),
        "the archive and its folder give the same preview"
    );

    // The app's path: a tarball picked and sent as base64, previewed, then imported.
    let picked = upload("roster.tar.gz", &tarball());
    let preview = co
        .core
        .import_roster_upload(picked.clone(), true)
        .await
        .unwrap();
    assert_first_import(&preview);
    let done = co.core.import_roster_upload(picked, false).await.unwrap();
    assert!(done.applied);
    assert_eq!(done.new, preview.new);

    let again = co.core.import_roles(&zip_path, false).await.unwrap();
    assert!(
        again.new.is_empty() && again.changed.is_empty(),
        "{again:?}"
    );
    assert_eq!(again.unchanged.len(), 5);
}

#[tokio::test]
async fn card_files_picked_from_a_folder_keep_their_divisions() {
    let co = TestCompany::new().await;
    let files = tree(&roster())
        .into_iter()
        .map(|(rel, bytes)| RosterFile {
            // A folder pick names each file by its path from the picked folder.
            name: format!("roster/{rel}"),
            base64: base64::engine::general_purpose::STANDARD.encode(bytes),
        })
        .collect();
    let r = co
        .core
        .import_roster_upload(RosterUpload { files }, true)
        .await
        .unwrap();
    assert_first_import(&r);
}

#[tokio::test]
async fn an_archive_with_an_entry_outside_the_roster_is_refused_whole() {
    let co = TestCompany::new().await;
    let before = co.core.role_cards().await.unwrap();
    let good = std::fs::read(roster().join("marketing/growth-hacker.md")).unwrap();
    for evil in ["../escape.md", "/etc/cubicle.md", "a/../../escape.md"] {
        let bytes = zipped(&[
            ("marketing/growth-hacker.md".into(), good.clone()),
            (evil.into(), good.clone()),
        ]);
        let err = co
            .core
            .import_roster_upload(upload("evil.zip", &bytes), false)
            .await
            .unwrap_err()
            .to_string();
        assert!(
            err.starts_with("evil.zip: the entry") && err.contains("points outside the roster"),
            "{evil}: {err}"
        );
    }
    assert_eq!(
        co.core.role_cards().await.unwrap(),
        before,
        "nothing came in"
    );
}

#[tokio::test]
async fn an_oversized_card_is_unreadable_and_a_file_that_is_no_roster_is_refused() {
    let co = TestCompany::new().await;
    let mut huge = b"---\nname: Huge\ndescription: far too long\n---\n".to_vec();
    huge.resize(cubicle_core::roles::MAX_CARD_BYTES + 10, b'x');
    let bytes = zipped(&[("huge.md".into(), huge)]);
    let r = co
        .core
        .import_roster_upload(upload("big.zip", &bytes), true)
        .await
        .unwrap();
    assert_eq!(r.unreadable.len(), 1, "{r:?}");
    assert_eq!(r.unreadable[0].file, "huge.md");
    assert!(r.unreadable[0].reason.starts_with("larger than"), "{r:?}");

    let err = co
        .core
        .import_roster_upload(upload("notes.txt", b"just some notes"), true)
        .await
        .unwrap_err()
        .to_string();
    assert_eq!(
        err,
        "notes.txt is neither a card (.md) nor an archive (.zip, .tar, .tar.gz)"
    );

    let truncated = &github_zip()[..200];
    let err = co
        .core
        .import_roster_upload(upload("cut.zip", truncated), true)
        .await
        .unwrap_err()
        .to_string();
    assert!(err.starts_with("cut.zip: "), "{err}");

    let missing = Path::new("/nonexistent/roster.zip");
    let err = co.core.import_roles(missing, true).await.unwrap_err();
    assert!(err.to_string().contains("does not exist"), "{err}");
}
