//! A reader or writer that takes the SHA-256 and the count of the bytes through it: the
//! layer files are hashed as they are written and read, never read twice to be checked.

use sha2::{Digest, Sha256};
use std::io::{Read, Write};

/// A reader or writer that takes the SHA-256 and the count of the bytes through it.
pub struct Hashed<T> {
    pub(in crate::retro) inner: T,
    pub(in crate::retro) sha: Sha256,
    pub(in crate::retro) bytes: u64,
}

impl<T> Hashed<T> {
    pub fn new(inner: T) -> Hashed<T> {
        Hashed {
            inner,
            sha: Sha256::new(),
            bytes: 0,
        }
    }

    /// The inner reader or writer, the SHA-256 (hex) and the bytes through.
    pub fn finish(self) -> (T, String, u64) {
        (self.inner, hex(self.sha), self.bytes)
    }
}

/// The SHA-256 of what went through `sha`, in hex.
pub fn hex(sha: Sha256) -> String {
    sha.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

impl<W: Write> Write for Hashed<W> {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let n = self.inner.write(buf)?;
        self.sha.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
    fn flush(&mut self) -> std::io::Result<()> {
        self.inner.flush()
    }
}

impl<R: Read> Read for Hashed<R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let n = self.inner.read(buf)?;
        self.sha.update(&buf[..n]);
        self.bytes += n as u64;
        Ok(n)
    }
}
