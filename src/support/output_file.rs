//! Writing a file the user named: `show --svg`, the files of `table --out` (and its
//! `confirm.csv`), `--checkpoint`. Whatever stands at the path stays what it is:
//!
//! - a regular file, or nothing yet: written beside it (`NAME.part`), synced and renamed
//!   onto it, so that a reader sees the old file or the new one whole, never a part;
//! - a symbolic link to a regular file: the same, onto the link's final target, so that
//!   the link stays a link and points at the new content;
//! - anything else that is not a directory (a FIFO, a device such as /dev/null): written
//!   through, opened as it is, since renaming onto it would replace the node itself;
//! - a directory: refused.
//!
//! Depends on nothing in the crate but its error type.

use crate::error::{Error, Result};
use std::fs::{File, OpenOptions};
use std::io;
use std::path::{Path, PathBuf};

/// The extension of the temporary files renamed into place (`NAME.part`); a run killed
/// while writing leaves one, which is never a result.
pub const TEMPORARY: &str = "part";

/// How a file is written, by what stands at its path.
#[derive(Debug, PartialEq, Eq)]
pub enum Destination {
    /// Written beside this path (a regular file, or nothing yet) and renamed onto it.
    Aside(PathBuf),
    /// Written through the path as it is (a FIFO, a device, a link to nothing yet).
    Through,
}

/// How `path` is written (`Destination`); a directory is an error.
pub fn destination(path: &Path) -> io::Result<Destination> {
    // `metadata` follows links: what a write would reach.
    match std::fs::metadata(path) {
        Ok(m) if m.is_dir() => Err(io::Error::new(
            io::ErrorKind::IsADirectory,
            "it is a directory, not a file",
        )),
        Ok(m) if m.is_file() => Ok(Destination::Aside(resolved(path))),
        Ok(_) => Ok(Destination::Through),
        // A link to nothing yet: opening it creates its target, which a rename would not.
        Err(e) if e.kind() == io::ErrorKind::NotFound => match std::fs::symlink_metadata(path) {
            Ok(m) if m.is_symlink() => Ok(Destination::Through),
            _ => Ok(Destination::Aside(path.to_path_buf())),
        },
        Err(e) => Err(e),
    }
}

/// Where a rename onto `path` must go so that a symbolic link there stays a link: the
/// link's final target; `path` itself where it is no link (or leads nowhere). Also for the
/// directories a saved table is renamed onto.
pub fn resolved(path: &Path) -> PathBuf {
    match std::fs::symlink_metadata(path) {
        Ok(m) if m.is_symlink() => std::fs::canonicalize(path).unwrap_or_else(|_| {
            // A link to nothing yet: where it leads, relative to the link's directory.
            match std::fs::read_link(path) {
                Ok(to) => path.parent().map_or(to.clone(), |dir| dir.join(&to)),
                Err(_) => path.to_path_buf(),
            }
        }),
        _ => path.to_path_buf(),
    }
}

/// The temporary file written beside `target` before it is renamed onto it.
pub fn temporary_path(target: &Path) -> PathBuf {
    let mut name = target.as_os_str().to_owned();
    name.push(format!(".{TEMPORARY}"));
    PathBuf::from(name)
}

/// Replaces the file at `path` with what `write` writes into it (see the module doc for
/// how, by what stands there). Written aside, the file is synced before the rename and a
/// failure removes the temporary; `write` need not sync.
pub fn replace_with(
    path: &Path,
    write: impl FnOnce(&mut File) -> io::Result<()>,
) -> io::Result<()> {
    let target = match destination(path)? {
        Destination::Through => {
            // No sync: a FIFO or a device has nothing to sync, and some refuse it.
            let mut f = OpenOptions::new()
                .write(true)
                .create(true)
                .truncate(true)
                .open(path)?;
            return write(&mut f);
        }
        Destination::Aside(target) => target,
    };
    let tmp = temporary_path(&target);
    let mut f = File::create(&tmp)?;
    let written = (|| {
        // A file replaced keeps its permissions (one made private stays private).
        if let Ok(m) = std::fs::metadata(&target) {
            f.set_permissions(m.permissions())?;
        }
        write(&mut f)?;
        f.sync_all()?;
        std::fs::rename(&tmp, &target)
    })();
    if written.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    written
}

/// Replaces the file at `path` with `bytes` (`replace_with`).
pub fn replace(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    replace_with(path, |f| f.write_all(bytes)).map_err(|e| cannot_write(path, e))
}

/// The error of a write to `path` that failed.
pub fn cannot_write(path: &Path, e: io::Error) -> Error {
    Error::io("write", path, e)
}

/// Checks, before any work is done for it, that `path` can be written: not a directory,
/// and where it is written aside, its temporary can be made (made and removed). A path
/// written through is not opened: a FIFO would wait for a reader.
pub fn check(path: &Path) -> io::Result<()> {
    match destination(path)? {
        Destination::Through => Ok(()),
        Destination::Aside(target) => {
            let probe = temporary_path(&target);
            File::create(&probe)?;
            std::fs::remove_file(&probe)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dir(name: &str) -> PathBuf {
        let d = std::env::temp_dir().join(format!("qs-output-file-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn each_kind_of_path_is_written_as_it_is() {
        let d = dir("kinds");
        let file = d.join("a.svg");
        assert_eq!(
            destination(&file).unwrap(),
            Destination::Aside(file.clone())
        );
        replace(&file, b"one").unwrap();
        let link = d.join("link.svg");
        std::os::unix::fs::symlink(&file, &link).unwrap();
        let target = std::fs::canonicalize(&file).unwrap();
        assert_eq!(destination(&link).unwrap(), Destination::Aside(target));
        replace(&link, b"two").unwrap();
        assert!(std::fs::symlink_metadata(&link).unwrap().is_symlink());
        assert_eq!(std::fs::read(&file).unwrap(), b"two");
        let dangling = d.join("dangling.svg");
        std::os::unix::fs::symlink(d.join("new.svg"), &dangling).unwrap();
        assert_eq!(destination(&dangling).unwrap(), Destination::Through);
        replace(&dangling, b"three").unwrap();
        assert_eq!(std::fs::read(d.join("new.svg")).unwrap(), b"three");
        assert_eq!(
            destination(Path::new("/dev/null")).unwrap(),
            Destination::Through
        );
        let e = destination(&d).unwrap_err();
        assert_eq!(e.kind(), io::ErrorKind::IsADirectory);
        let names: Vec<_> = std::fs::read_dir(&d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name())
            .collect();
        assert_eq!(names.len(), 4, "no temporary left: {names:?}");
        std::fs::remove_dir_all(&d).unwrap();
    }
}
