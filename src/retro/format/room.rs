//! Room on the disk: a layer is not started when the disk that holds the directory may not
//! take it, from the bytes on disk a byte of values took in the layers written.

use super::spill::Spill;
use crate::error::{Error, Result};

/// The bytes on disk a byte of values of the first layer written is taken to need, with
/// no layer yet to measure: about 1.5 to 2 times the worst measured (6 to 8 times smaller
/// at a byte a slot, 5 times at 2 bits).
const FIRST_LAYER_RATIO: f64 = 0.25;
/// What a layer's room adds to its estimate: the progress record, the file system's own.
const ROOM_SLACK_BYTES: u64 = 4 << 20;

impl Spill {
    /// The bytes free for this user on the disk that holds the directory, if the system
    /// tells.
    pub fn free_bytes(&self) -> Option<u64> {
        use std::os::unix::ffi::OsStrExt;
        let path = std::ffi::CString::new(self.dir.as_os_str().as_bytes()).ok()?;
        let mut s: libc::statvfs = unsafe { std::mem::zeroed() };
        // SAFETY: `path` is a NUL-terminated string and `s` a whole `statvfs` to fill.
        let status = unsafe { libc::statvfs(path.as_ptr(), &mut s) };
        (status == 0).then(|| s.f_bavail as u64 * s.f_frsize as u64)
    }

    /// The bytes on disk per byte of values of written layer `k`, if it is written.
    pub fn ratio(&self, k: usize) -> Option<f64> {
        let layer = self.progress.layers.get(k)?.as_ref()?;
        let raw: u64 = layer.files.iter().map(|f| f.bytes).sum();
        let file: u64 = layer.files.iter().map(|f| f.file_bytes).sum();
        (raw > 0).then(|| file as f64 / raw as f64)
    }

    /// Refuses to start layer `k` when the disk may not hold it: `raw` bytes of values,
    /// compressed at about the ratio of the layer above (which compresses better: more
    /// walls, longer runs) with half again to spare, or for the first one at a quarter of
    /// its size (measured: 6 to 8 times smaller at a byte a slot, 5 times at 2 bits), and a
    /// few MiB for the record and the file system. The refusal says which estimate it
    /// used.
    pub fn check_room(&self, k: usize, raw: u64) -> Result<()> {
        let (ratio, how) = match self.ratio(k + 1) {
            Some(r) => (
                (r * 1.5).min(1.0),
                format!("1.5 times the {:.1} % layer {} took", r * 100.0, k + 1),
            ),
            None => (
                FIRST_LAYER_RATIO,
                "a quarter: no layer is written yet to measure".to_string(),
            ),
        };
        let needed = (raw as f64 * ratio) as u64 + ROOM_SLACK_BYTES;
        match self.free_bytes() {
            Some(free) if free < needed => Err(Error::Disk {
                dir: self.dir.display().to_string(),
                what: format!(
                    "layer {k} of the analysis ({} of values, estimated compressed at {how})",
                    crate::error::format_bytes(raw)
                ),
                needed,
                free,
            }),
            _ => Ok(()),
        }
    }
}
