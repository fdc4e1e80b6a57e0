//! One run at a time in a directory. A results directory (`table --out`), a campaign's, a
//! `--save` directory and a `--scratch` directory are each written by one run: two runs that
//! meet there drop each other's cells, remove each other's temporary tables or write the
//! same layer files. So a run takes the directory first: an exclusive advisory lock
//! (`flock`) on the directory itself, which the kernel releases when the process ends,
//! however it ends (a `kill -9` leaves no stale lock, and no lock file is left in the
//! directory for the readers of a saved table to trip on).
//!
//! Within one process a directory is taken once and shared: a campaign runs each cell as a
//! table run of its own in the same directories, and a solve takes its scratch directory
//! before the analysis that opens it again. The ranks of an MPI job share one scratch
//! directory: rank 0 takes it, the others do not (a lock across machines is not what
//! `flock` gives on every network file system).

use crate::error::{Error, Result};
use std::fs::File;
use std::os::fd::AsRawFd;
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// A directory this process holds: released when the last holder drops it.
#[derive(Debug)]
pub struct DirLock {
    key: (u64, u64),
}

/// The directories held, by device and inode (a path can be spelt many ways), each with its
/// open handle (closing it releases the lock) and its number of holders.
static HELD: Mutex<Vec<Held>> = Mutex::new(Vec::new());

struct Held {
    key: (u64, u64),
    _file: File,
    holders: usize,
}

impl DirLock {
    /// Takes `dir`, which must exist, for this process; refused with the process that holds
    /// it when another run does.
    pub fn take(dir: &Path) -> Result<DirLock> {
        let io = |e: std::io::Error| Error::io("open", dir, e);
        let meta = std::fs::metadata(dir).map_err(io)?;
        if !meta.is_dir() {
            return Err(Error::NotADirectory {
                path: dir.to_path_buf(),
            });
        }
        let key = (meta.dev(), meta.ino());
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(h) = held.iter_mut().find(|h| h.key == key) {
            h.holders += 1;
            return Ok(DirLock { key });
        }
        let file = File::open(dir).map_err(io)?;
        // SAFETY: `flock` on a descriptor this function owns; it touches no memory.
        let taken = unsafe { libc::flock(file.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        if taken != 0 {
            let e = std::io::Error::last_os_error();
            if e.raw_os_error() != Some(libc::EWOULDBLOCK) {
                return Err(Error::io("lock", dir, e));
            }
            return Err(Error::InUse {
                dir: dir.display().to_string(),
                pid: holder(meta.ino()),
            });
        }
        held.push(Held {
            key,
            _file: file,
            holders: 1,
        });
        Ok(DirLock { key })
    }

    /// Creates `dir` (and its parents) if need be, then takes it.
    pub fn create_and_take(dir: &Path) -> Result<DirLock> {
        std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
        DirLock::take(dir)
    }
}

impl Drop for DirLock {
    fn drop(&mut self) {
        let mut held = HELD.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(i) = held.iter().position(|h| h.key == self.key) {
            held[i].holders -= 1;
            if held[i].holders == 0 {
                held.swap_remove(i);
            }
        }
    }
}

/// The directories a run takes, in one place: those that exist or that it will create.
pub fn take_all<'a>(dirs: impl IntoIterator<Item = &'a PathBuf>) -> Result<Vec<DirLock>> {
    dirs.into_iter()
        .map(|d| DirLock::create_and_take(d))
        .collect()
}

/// The process holding the `flock` on the file with inode `ino`, from the kernel's list of
/// locks (Linux: `/proc/locks`, lines like `1: FLOCK  ADVISORY  WRITE 4242 fd:01:1234 0 EOF`);
/// `None` where the list cannot be read.
fn holder(ino: u64) -> Option<u32> {
    let locks = std::fs::read_to_string("/proc/locks").ok()?;
    locks.lines().find_map(|line| {
        let fields: Vec<&str> = line.split_whitespace().collect();
        let (kind, pid, file) = (fields.get(1)?, fields.get(4)?, fields.get(5)?);
        let inode: u64 = file.rsplit(':').next()?.parse().ok()?;
        (*kind == "FLOCK" && inode == ino)
            .then(|| pid.parse().ok())
            .flatten()
    })
}

#[cfg(test)]
mod tests {
    use super::DirLock;

    #[test]
    fn a_directory_is_shared_within_a_process_and_released_by_its_last_holder() {
        let dir = std::env::temp_dir().join(format!("dir-lock-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        let first = DirLock::create_and_take(&dir).unwrap();
        let second = DirLock::take(&dir).unwrap();
        // Another open file description is another holder to the kernel: refused while held.
        let other = std::fs::File::open(&dir).unwrap();
        use std::os::fd::AsRawFd;
        let try_other = || unsafe { libc::flock(other.as_raw_fd(), libc::LOCK_EX | libc::LOCK_NB) };
        assert_ne!(try_other(), 0);
        drop(first);
        assert_ne!(try_other(), 0, "the second holder still holds it");
        drop(second);
        assert_eq!(try_other(), 0, "released with the last holder");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
