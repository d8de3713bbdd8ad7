//! The folder a box may write, held by a handle from the moment it is checked until
//! bubblewrap has bound it: the box gets the very folder that was checked, never what a
//! name resolves to later. A path is a name anyone who can write beside it can point
//! elsewhere — a colleague's box replacing `employees/<id>` with a link to the app's data
//! folder, say — so the engine never hands bubblewrap a path to bind, only this handle
//! (`--bind-fd`).

use std::fs::File;
use std::os::fd::OwnedFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

use cap_std::fs::Dir;

use super::SandboxError;

/// A folder a box runs in: a handle to it and where it is on this machine.
#[derive(Debug)]
pub struct BoxFolder {
    dir: File,
    path: PathBuf,
}

impl BoxFolder {
    /// `path` itself, a folder whose name nothing in a box can change (the company
    /// workspace, which lives in the app's data folder, or a folder the caller made):
    /// opened without following a link at its last step.
    pub fn open(path: &Path) -> Result<Self, SandboxError> {
        let dir = Dir::open_ambient_dir(path, cap_std::ambient_authority())
            .map_err(|e| SandboxError::Folder(format!("{}: {e}", path.display())))?;
        Self::checked(dir, path.to_owned())
    }

    /// `dir`, found at `path` by a walk that followed no link (see
    /// [`crate::tools::beneath::Beneath::dir`]).
    pub fn checked(dir: Dir, path: PathBuf) -> Result<Self, SandboxError> {
        let dir = File::from(OwnedFd::from(dir));
        let meta = dir
            .metadata()
            .map_err(|e| SandboxError::Folder(format!("{}: {e}", path.display())))?;
        if !meta.is_dir() {
            return Err(SandboxError::Folder(format!(
                "{} is not a folder",
                path.display()
            )));
        }
        let folder = Self { dir, path };
        folder.own(meta.uid())?;
        Ok(folder)
    }

    /// Where the folder is: the box sees it at the same path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// A second handle to the folder, for bubblewrap to bind.
    pub(super) fn handle(&self) -> Result<OwnedFd, SandboxError> {
        self.dir
            .try_clone()
            .map(OwnedFd::from)
            .map_err(|e| SandboxError::Io(e.to_string()))
    }

    pub(super) fn file(&self) -> &File {
        &self.dir
    }

    /// A folder the engine or its boxes made belongs to the engine's user, or to the
    /// boxes' own user when the engine runs as root (who then gives it to them, so a box
    /// can write the folder it is given). Any other owner means someone else put it
    /// there: refused.
    fn own(&self, owner: u32) -> Result<(), SandboxError> {
        let me = super::engine_uid();
        let boxes = super::box_user();
        if owner == boxes.unwrap_or(me) {
            return Ok(());
        }
        match boxes {
            Some(_) if owner == me => super::give_to_boxes(&self.dir).map_err(|e| {
                SandboxError::Folder(format!(
                    "{} could not be given to the box's user: {e}",
                    self.path.display()
                ))
            }),
            _ => Err(SandboxError::Folder(format!(
                "{} belongs to another user (uid {owner}), not to the app",
                self.path.display()
            ))),
        }
    }
}
