//! Files beneath the workspace, opened without following any symbolic link.
//!
//! A path is checked and used in one walk: each folder is opened from the handle of the
//! one before it (`openat`, through cap-std, which never leaves the directory it was
//! given) with `O_NOFOLLOW`, and the file last, also without following a link. There
//! is no second look-up of the path by name, so nothing can swap a link in between the
//! check and the use, and a link — dangling or not, pointing out or in — is never
//! followed: a link to `.bashrc` named `notes.txt` could otherwise make a harmless-looking
//! write land on a dotfile.

use std::ffi::OsStr;
use std::io::{Read, Write};
use std::path::{Component, Path};

use cap_fs_ext::{DirExt, FollowSymlinks, OpenOptionsFollowExt};
use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};

use super::{ToolError, io_error};

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

/// What is at a path now, seen without following a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Existing {
    Nothing,
    /// A regular file; whether any execute bit is set.
    File {
        executable: bool,
    },
    Other,
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
                        _ => {}
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
            Ok(m) if m.is_file() => Ok(Existing::File {
                executable: is_executable(&m),
            }),
            Ok(_) => Ok(Existing::Other),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(Existing::Nothing),
            Err(e) => Err(io_error(e)),
        }
    }

    /// Up to `max` bytes of the regular file at `rel`.
    pub fn read(&self, rel: &str, max: u64) -> Result<Vec<u8>, ToolError> {
        let (names, last) = Self::split(rel)?;
        let dir = self
            .folder(rel, &names, false)?
            .ok_or_else(|| ToolError::Io(format!("{rel}: no such file")))?;
        let mut options = OpenOptions::new();
        options.read(true).follow(FollowSymlinks::No);
        let file = self.open_last(&dir, rel, last, &options)?;
        // A FIFO or device would block or never end.
        if !file.metadata().map_err(io_error)?.is_file() {
            return Err(ToolError::Io(format!("{rel} is not a regular file")));
        }
        let mut out = Vec::new();
        file.take(max).read_to_end(&mut out).map_err(io_error)?;
        Ok(out)
    }

    /// Creates or replaces the file at `rel`, making missing folders on the way.
    pub fn write(&self, rel: &str, content: &[u8]) -> Result<(), ToolError> {
        let (names, last) = Self::split(rel)?;
        let dir = self
            .folder(rel, &names, true)?
            .ok_or_else(|| ToolError::Io(format!("{rel}: could not make its folder")))?;
        let mut options = OpenOptions::new();
        options
            .write(true)
            .create(true)
            .truncate(true)
            .follow(FollowSymlinks::No);
        let mut file = self.open_last(&dir, rel, last, &options)?;
        file.write_all(content).map_err(io_error)
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

    fn open_last(
        &self,
        dir: &Dir,
        rel: &str,
        last: &OsStr,
        options: &OpenOptions,
    ) -> Result<cap_std::fs::File, ToolError> {
        if dir.symlink_metadata(last).is_ok_and(|m| m.is_symlink()) {
            return Err(link_refused(rel, last));
        }
        dir.open_with(last, options).map_err(io_error)
    }
}

#[cfg(unix)]
fn is_executable(m: &cap_std::fs::Metadata) -> bool {
    use cap_std::fs::PermissionsExt;
    m.permissions().mode() & 0o111 != 0
}

#[cfg(not(unix))]
fn is_executable(_m: &cap_std::fs::Metadata) -> bool {
    false
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
}
