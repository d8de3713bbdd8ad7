//! Files beneath the workspace, opened without following any symbolic link.
//!
//! A path is checked and used in one walk: each folder is opened from the handle of the
//! one before it (`openat`, through cap-std, which never leaves the directory it was
//! given) with `O_NOFOLLOW`, and the file last, also without following a link. There
//! is no second look-up of the path by name, so nothing can swap a link in between the
//! check and the use, and a link — dangling or not, pointing out or in — is never
//! followed: a link to `.bashrc` named `notes.txt` could otherwise make a harmless-looking
//! write land on a dotfile.
//!
//! What is at a name is judged by what it is, not by the name: a write never goes
//! through the inode found there (a hard link shares it with another name, the
//! workspace's `Makefile` say) but replaces the name with a new file, and only a regular
//! file is ever read (a FIFO would block whoever opens it, a device never ends).

use std::ffi::{OsStr, OsString};
use std::io::{Read, Write};
use std::path::{Component, Path};
use std::time::Duration;

use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt};
use cap_std::ambient_authority;
use cap_std::fs::{Dir, File, Metadata, OpenOptions};

use super::{ToolError, io_error};

/// The longest a blocking file step may take. Reading or writing a workspace file takes
/// milliseconds; one still going after this is stuck on something that is not a plain
/// file on a local disk (a hung network mount, a device), and fails alone instead of
/// holding up the engine.
pub const FILE_STEP_LIMIT: Duration = Duration::from_secs(20);
/// Tries at a fresh temporary name before giving up: each is 64 random bits, so a
/// second try only happens when someone planted that very name.
const TEMP_TRIES: u32 = 8;

/// The parts of `rel`: relative, plain names only (no `..`, no root), not empty.
pub fn parts(rel: &str) -> Result<Vec<&OsStr>, ToolError> {
    let trimmed = rel.trim();
    let mut out = Vec::new();
    for c in Path::new(trimmed).components() {
        match c {
            Component::Normal(name) => out.push(name),
            Component::CurDir => {}
            Component::ParentDir => {
                return Err(ToolError::OutsideWorkspace(format!(
                    "{rel}: `..` may not leave the workspace"
                )));
            }
            Component::RootDir | Component::Prefix(_) => {
                return Err(ToolError::OutsideWorkspace(format!(
                    "{rel}: only paths inside the workspace, relative to it"
                )));
            }
        }
    }
    if out.is_empty() {
        return Err(ToolError::OutsideWorkspace("an empty path".into()));
    }
    Ok(out)
}

fn link_refused(rel: &str, name: &OsStr) -> ToolError {
    ToolError::OutsideWorkspace(format!(
        "{rel}: {} is a symbolic link; file tools do not follow links",
        name.to_string_lossy()
    ))
}

pub(crate) fn not_regular(rel: &str) -> ToolError {
    ToolError::Io(format!(
        "{rel} is not a regular file (a folder, a pipe, a device or a socket): file tools \
         read only regular files"
    ))
}

/// What is at a path now, seen without following a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    Nothing,
    /// A regular file: whether any execute bit is set, and how many names it has (more
    /// than one: a hard link, the same file as another name somewhere else).
    File {
        executable: bool,
        links: u64,
    },
    /// A folder, a FIFO, a device or a socket.
    Other,
}

impl Existing {
    fn of(m: &Metadata) -> Self {
        if m.is_file() {
            Existing::File {
                executable: is_executable(m),
                links: link_count(m),
            }
        } else {
            Existing::Other
        }
    }
}

/// Runs a blocking file step off the async threads, for at most `limit`. A step past
/// it fails with [`ToolError::Timeout`]; its thread is left to finish on its own (a
/// thread cannot be killed), and the caller goes on.
pub async fn blocking_within<T: Send + 'static>(
    limit: Duration,
    f: impl FnOnce() -> Result<T, ToolError> + Send + 'static,
) -> Result<T, ToolError> {
    match tokio::time::timeout(limit, tokio::task::spawn_blocking(f)).await {
        Ok(joined) => joined.map_err(|e| ToolError::Io(e.to_string()))?,
        Err(_) => Err(ToolError::Timeout(limit.as_secs().max(1))),
    }
}

/// The workspace, as a directory handle every path is opened beneath.
pub struct Beneath {
    root: Dir,
}

impl Beneath {
    pub fn open(workspace: &Path) -> Result<Self, ToolError> {
        Ok(Self {
            root: Dir::open_ambient_dir(workspace, ambient_authority()).map_err(io_error)?,
        })
    }

    /// The folder holding the last part of `rel`, walked one name at a time; missing
    /// folders are made when `create`, else `None` is returned.
    fn folder(&self, rel: &str, names: &[&OsStr], create: bool) -> Result<Option<Dir>, ToolError> {
        let mut dir = self.root.try_clone().map_err(io_error)?;
        for name in names {
            match dir.symlink_metadata(name) {
                Ok(m) if m.is_symlink() => return Err(link_refused(rel, name)),
                Ok(m) if !m.is_dir() => {
                    return Err(ToolError::Io(format!(
                        "{rel}: {} is not a folder",
                        name.to_string_lossy()
                    )));
                }
                Ok(_) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound && create => {
                    match dir.create_dir(name) {
                        Err(e) if e.kind() != std::io::ErrorKind::AlreadyExists => {
                            return Err(io_error(e));
                        }
                        Err(_) => {}
                        Ok(()) => {
                            let made = dir.open_dir_nofollow(name).map_err(io_error)?;
                            super::sandbox::give_to_boxes(&made).map_err(io_error)?;
                        }
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
                Err(e) => return Err(io_error(e)),
            }
            // The check above gives a clear error; this open is what holds: a link
            // swapped in since then fails here instead of being followed.
            dir = dir.open_dir_nofollow(name).map_err(io_error)?;
        }
        Ok(Some(dir))
    }

    /// The folder at `rel`, made (with any missing folder on the way) when absent,
    /// walked one name at a time without following a link: a handle to the very folder
    /// checked, whatever is swapped in at its path afterwards.
    pub fn dir(&self, rel: &str) -> Result<Dir, ToolError> {
        let names = parts(rel)?;
        self.folder(rel, &names, true)?
            .ok_or_else(|| ToolError::Io(format!("{rel}: could not make the folder")))
    }

    /// The folder at `rel` when it is there (walked like [`Beneath::dir`], nothing made).
    pub fn existing_dir(&self, rel: &str) -> Result<Option<Dir>, ToolError> {
        let names = parts(rel)?;
        self.folder(rel, &names, false)
    }

    fn split(rel: &str) -> Result<(Vec<&OsStr>, &OsStr), ToolError> {
        let mut names = parts(rel)?;
        let last = names
            .pop()
            .ok_or_else(|| ToolError::OutsideWorkspace(rel.into()))?;
        Ok((names, last))
    }

    /// What is at `rel` (a link anywhere on the way is refused).
    pub fn existing(&self, rel: &str) -> Result<Existing, ToolError> {
        let (names, last) = Self::split(rel)?;
        let Some(dir) = self.folder(rel, &names, false)? else {
            return Ok(Existing::Nothing);
        };
        match dir.symlink_metadata(last) {
            Ok(m) if m.is_symlink() => Err(link_refused(rel, last)),
            Ok(m) => Ok(Existing::of(&m)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Existing::Nothing),
            Err(e) => Err(io_error(e)),
        }
    }

    /// Up to `max` bytes of the regular file at `rel` (see [`read_in`]).
    pub fn read(&self, rel: &str, max: u64) -> Result<Vec<u8>, ToolError> {
        let (names, last) = Self::split(rel)?;
        let dir = self
            .folder(rel, &names, false)?
            .ok_or_else(|| ToolError::Io(format!("{rel}: no such file")))?;
        read_in(&dir, rel, last, max)
    }

    /// Creates or replaces the file at `rel`, making missing folders on the way (see
    /// [`replace_in`]). A link at the name is refused with a clear error; one swapped
    /// in after that check is replaced, not followed.
    pub fn write(&self, rel: &str, content: &[u8]) -> Result<(), ToolError> {
        let (names, last) = Self::split(rel)?;
        let dir = self
            .folder(rel, &names, true)?
            .ok_or_else(|| ToolError::Io(format!("{rel}: could not make its folder")))?;
        if dir.symlink_metadata(last).is_ok_and(|m| m.is_symlink()) {
            return Err(link_refused(rel, last));
        }
        replace_in(&dir, rel, last, content)
    }

    /// Deletes the file at `rel` (a folder or a link is refused).
    pub fn remove_file(&self, rel: &str) -> Result<(), ToolError> {
        let (names, last) = Self::split(rel)?;
        let dir = self
            .folder(rel, &names, false)?
            .ok_or_else(|| ToolError::Io(format!("{rel}: no such file")))?;
        let meta = dir.symlink_metadata(last).map_err(io_error)?;
        if meta.is_symlink() {
            return Err(link_refused(rel, last));
        }
        if meta.is_dir() {
            return Err(ToolError::Io(format!(
                "{rel} is a folder; only files can be deleted"
            )));
        }
        dir.remove_file(last).map_err(io_error)
    }
}

/// Up to `max` bytes of the regular file `name` in `dir` (`rel` names it in errors).
/// Anything else is refused before it is opened, and again once open (something may
/// have been swapped in between): it is opened without following a link and without
/// blocking, so a FIFO put at the name makes the open return at once, not wait for a
/// writer that never comes.
pub fn read_in(dir: &Dir, rel: &str, name: &OsStr, max: u64) -> Result<Vec<u8>, ToolError> {
    match dir.symlink_metadata(name) {
        Ok(m) if m.is_symlink() => return Err(link_refused(rel, name)),
        Ok(m) if !m.is_file() => return Err(not_regular(rel)),
        Ok(_) => {}
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(ToolError::Io(format!("{rel}: no such file")));
        }
        Err(e) => return Err(io_error(e)),
    }
    let mut options = OpenOptions::new();
    options.read(true).follow(FollowSymlinks::No);
    nonblocking(&mut options);
    let file = dir.open_with(name, &options).map_err(|e| {
        if is_link_error(&e) {
            link_refused(rel, name)
        } else {
            io_error(e)
        }
    })?;
    if !file.metadata().map_err(io_error)?.is_file() {
        return Err(not_regular(rel));
    }
    let mut out = Vec::new();
    file.take(max).read_to_end(&mut out).map_err(io_error)?;
    Ok(out)
}

/// Puts a new file with `content` at `name` in `dir`: written whole to a temporary file
/// made there (a fresh random name, created exclusively, no link followed), then renamed
/// over `name` within the same handle. Whatever was at the name — a hard link to
/// another file, a symbolic link, a FIFO — is replaced as a name, never written
/// through; a regular file's permissions (not set-id bits) carry over.
pub fn replace_in(dir: &Dir, rel: &str, name: &OsStr, content: &[u8]) -> Result<(), ToolError> {
    let keep_mode = dir
        .symlink_metadata(name)
        .ok()
        .filter(Metadata::is_file)
        .map(|m| permission_bits(&m));
    let (temp, mut file) = create_temp(dir, rel)?;
    let written = file
        .write_all(content)
        .and_then(|()| match keep_mode {
            Some(mode) => set_mode(&file, mode),
            None => Ok(()),
        })
        .and_then(|()| file.sync_data())
        .map_err(io_error);
    drop(file);
    let placed = written.and_then(|()| dir.rename(&temp, dir, name).map_err(io_error));
    if placed.is_err() {
        // Best effort: the temporary file is ours and worth nothing now.
        let _ = dir.remove_file(&temp);
    }
    placed
}

/// A new, empty file in `dir` under a name nobody can have planted ahead of it.
fn create_temp(dir: &Dir, rel: &str) -> Result<(OsString, File), ToolError> {
    let mut options = OpenOptions::new();
    // O_CREAT|O_EXCL: fails on anything already at the name, a link included.
    options
        .write(true)
        .create_new(true)
        .follow(FollowSymlinks::No);
    for _ in 0..TEMP_TRIES {
        let temp = OsString::from(format!(".cubicle-{:016x}.tmp", rand::random::<u64>()));
        match dir.open_with(&temp, &options) {
            Ok(file) => {
                super::sandbox::give_to_boxes(&file).map_err(io_error)?;
                return Ok((temp, file));
            }
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {}
            Err(e) => return Err(io_error(e)),
        }
    }
    Err(ToolError::Io(format!(
        "{rel}: no free temporary name to write it under"
    )))
}

#[cfg(unix)]
fn nonblocking(options: &mut OpenOptions) {
    use cap_std::fs::OpenOptionsExt;
    options.custom_flags(libc::O_NONBLOCK);
}

#[cfg(not(unix))]
fn nonblocking(_options: &mut OpenOptions) {}

/// `O_NOFOLLOW` on a link fails with `ELOOP`.
fn is_link_error(e: &std::io::Error) -> bool {
    #[cfg(unix)]
    {
        e.raw_os_error() == Some(libc::ELOOP)
    }
    #[cfg(not(unix))]
    {
        let _ = e;
        false
    }
}

#[cfg(unix)]
fn is_executable(m: &Metadata) -> bool {
    permission_bits(m) & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_m: &Metadata) -> bool {
    false
}

#[cfg(unix)]
fn link_count(m: &Metadata) -> u64 {
    use cap_std::fs::MetadataExt;
    m.nlink()
}

#[cfg(not(unix))]
fn link_count(_m: &Metadata) -> u64 {
    1
}

/// Read, write and execute bits: set-user-id, set-group-id and sticky are never carried.
#[cfg(unix)]
fn permission_bits(m: &Metadata) -> u32 {
    use cap_std::fs::PermissionsExt;
    m.permissions().mode() & 0o777
}

#[cfg(not(unix))]
fn permission_bits(_m: &Metadata) -> u32 {
    0
}

#[cfg(unix)]
fn set_mode(file: &File, mode: u32) -> std::io::Result<()> {
    use cap_std::fs::{Permissions, PermissionsExt};
    file.set_permissions(Permissions::from_mode(mode))
}

#[cfg(not(unix))]
fn set_mode(_file: &File, _mode: u32) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    #![allow(clippy::unwrap_used)]
    use super::*;

    #[test]
    fn paths_are_plain_names_inside_the_workspace() {
        assert_eq!(parts("notes/./a.txt").unwrap(), ["notes", "a.txt"]);
        assert!(parts("../a.txt").is_err());
        assert!(parts("notes/../../a.txt").is_err());
        assert!(parts("/etc/passwd").is_err());
        assert!(parts("").is_err());
        assert!(parts(".").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_link_inside_the_workspace_is_never_followed() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().join("ws");
        std::fs::create_dir_all(ws.join("docs")).unwrap();
        std::fs::write(ws.join("docs/real.txt"), "real").unwrap();
        std::os::unix::fs::symlink(ws.join("docs"), ws.join("alias")).unwrap();
        std::os::unix::fs::symlink(ws.join("docs/real.txt"), ws.join("docs/link.txt")).unwrap();
        let b = Beneath::open(&ws).unwrap();
        assert_eq!(b.read("docs/real.txt", 100).unwrap(), b"real");
        for p in ["alias/real.txt", "docs/link.txt"] {
            assert!(
                matches!(b.read(p, 100), Err(ToolError::OutsideWorkspace(_))),
                "{p}"
            );
            assert!(b.write(p, b"x").is_err(), "{p}");
        }
        assert!(b.remove_file("docs/link.txt").is_err());
        assert_eq!(std::fs::read(ws.join("docs/real.txt")).unwrap(), b"real");
    }

    /// Only the named file is left in `dir`: no temporary file stays behind.
    #[cfg(unix)]
    fn names_in(dir: &Path) -> Vec<String> {
        let mut names: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        names.sort();
        names
    }

    #[cfg(unix)]
    #[test]
    fn a_hard_link_is_seen_as_shared_and_replaced_not_written_through() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path();
        std::fs::create_dir_all(ws.join("mine")).unwrap();
        std::fs::write(ws.join("Makefile"), "all:\n\ttrue\n").unwrap();
        std::fs::hard_link(ws.join("Makefile"), ws.join("mine/notes.txt")).unwrap();
        let b = Beneath::open(ws).unwrap();
        assert_eq!(
            b.existing("mine/notes.txt").unwrap(),
            Existing::File {
                executable: false,
                links: 2
            }
        );
        b.write("mine/notes.txt", b"my notes").unwrap();
        assert_eq!(
            std::fs::read(ws.join("Makefile")).unwrap(),
            b"all:\n\ttrue\n"
        );
        assert_eq!(
            std::fs::read(ws.join("mine/notes.txt")).unwrap(),
            b"my notes"
        );
        assert_eq!(
            b.existing("Makefile").unwrap(),
            Existing::File {
                executable: false,
                links: 1
            }
        );
        assert_eq!(names_in(&ws.join("mine")), ["notes.txt"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_link_or_a_fifo_at_the_name_is_replaced_as_a_name() {
        let dir = tempfile::tempdir().unwrap();
        let (ws, outside) = (dir.path().join("ws"), dir.path().join("bashrc"));
        std::fs::create_dir_all(&ws).unwrap();
        std::fs::write(&outside, "export PATH=/usr/bin\n").unwrap();
        std::os::unix::fs::symlink(&outside, ws.join("report.md")).unwrap();
        mkfifo(&ws.join("pipe"));
        let root = Dir::open_ambient_dir(&ws, ambient_authority()).unwrap();
        // As if each had been swapped in after the check of `Beneath::write`.
        for name in ["report.md", "pipe"] {
            replace_in(&root, name, OsStr::new(name), b"# Report\n").unwrap();
            let m = std::fs::symlink_metadata(ws.join(name)).unwrap();
            assert!(m.is_file(), "{name} is now a regular file");
            assert_eq!(std::fs::read(ws.join(name)).unwrap(), b"# Report\n");
        }
        assert_eq!(std::fs::read(&outside).unwrap(), b"export PATH=/usr/bin\n");
        assert_eq!(names_in(&ws), ["pipe", "report.md"]);
    }

    #[cfg(unix)]
    #[test]
    fn a_replaced_file_keeps_its_permissions_but_never_set_id_bits() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path();
        std::fs::write(ws.join("build.sh"), "#!/bin/sh\n").unwrap();
        std::fs::set_permissions(ws.join("build.sh"), std::fs::Permissions::from_mode(0o4755))
            .unwrap();
        let b = Beneath::open(ws).unwrap();
        assert!(matches!(
            b.existing("build.sh").unwrap(),
            Existing::File {
                executable: true,
                ..
            }
        ));
        b.write("build.sh", b"#!/bin/sh\necho hi\n").unwrap();
        let mode = std::fs::metadata(ws.join("build.sh"))
            .unwrap()
            .permissions()
            .mode();
        assert_eq!(mode & 0o7777, 0o755);
    }

    #[cfg(unix)]
    fn mkfifo(path: &Path) {
        let made = std::process::Command::new("mkfifo")
            .arg(path)
            .status()
            .unwrap();
        assert!(made.success());
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_is_refused_at_once_not_opened_and_waited_on() {
        let dir = tempfile::tempdir().unwrap();
        let ws = dir.path().to_owned();
        mkfifo(&ws.join("pipe"));
        let b = Beneath::open(&ws).unwrap();
        assert_eq!(b.existing("pipe").unwrap(), Existing::Other);
        // On a thread: were the FIFO opened for reading, the open would wait for a writer.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let _ = tx.send(b.read("pipe", 100).map_err(|e| e.to_string()));
        });
        let read = rx.recv_timeout(Duration::from_secs(10));
        if read.is_err() {
            // Let the stuck reader go before failing.
            let _ = std::fs::OpenOptions::new()
                .write(true)
                .open(ws.join("pipe"));
        }
        let err = read.expect("the read returned at once").unwrap_err();
        assert!(err.contains("not a regular file"), "{err}");
    }

    #[cfg(unix)]
    #[test]
    fn a_fifo_opened_without_the_check_does_not_block_either() {
        let dir = tempfile::tempdir().unwrap();
        mkfifo(&dir.path().join("pipe"));
        let root = Dir::open_ambient_dir(dir.path(), ambient_authority()).unwrap();
        let mut options = OpenOptions::new();
        options.read(true).follow(FollowSymlinks::No);
        nonblocking(&mut options);
        // Returns at once (no writer needed), and the handle says what it is.
        let file = root.open_with("pipe", &options).unwrap();
        assert!(!file.metadata().unwrap().is_file());
    }

    #[tokio::test]
    async fn a_file_step_past_its_limit_fails_alone_with_a_time_out() {
        let (release, held) = std::sync::mpsc::channel::<()>();
        let stuck = blocking_within(Duration::from_millis(50), move || {
            let _ = held.recv();
            Ok(())
        })
        .await;
        assert!(matches!(stuck, Err(ToolError::Timeout(1))), "{stuck:?}");
        // The step was still held when the call gave up on it; now it may end.
        release.send(()).unwrap();
        let quick = blocking_within(Duration::from_secs(5), || Ok(7)).await;
        assert_eq!(quick.unwrap(), 7);
    }
}
