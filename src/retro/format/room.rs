//! Room on the disk: a layer is not started when the disk that holds the directory may not
//! take it, from the bytes on disk a byte of values took in the layers written.

use super::codec::Effort;
use super::spill::Spill;
use crate::error::{Error, Result};
use crate::support::progress::Progress;

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

    /// Chooses how hard layer `k` is compressed, and refuses to start it when the disk may
    /// not hold it: `raw` bytes of values, compressed at about the ratio of the layer above
    /// (which compresses better: more walls, longer runs) with half again to spare, or for
    /// the first one at a quarter of its size (measured: 6 to 8 times smaller at a byte a
    /// slot, 5 times at 2 bits), and a few MiB for the record and the file system. The
    /// layer is compressed `Fast` where the disk holds it and, estimated so, the `rest`
    /// bytes of values of the layers still to write (this one included; only this one
    /// where the layers above are deleted once used), else `Small` (`Effort`), and
    /// `Small` from then on. The refusal says which estimate it used.
    pub fn check_room(
        &mut self,
        k: usize,
        (raw, rest): (u64, u64),
        progress: &dyn Progress,
    ) -> Result<()> {
        // The ratio as if written `Fast`: the layer above was written with `self.effort`
        // if this run wrote it (an earlier run's, taken as `Fast`, are what they are).
        let measured = self.ratio(k + 1).map(|r| r / self.effort.size_factor());
        let rest = if self.bound_only { raw } else { rest };
        let free = self.free_bytes();
        let room = Room::new(measured, (raw, rest), free, self.effort);
        if room.effort != self.effort {
            progress.message(&format!(
                "from layer {k} on, the layers are compressed at zstd's level 9, not 1 (about \
                 {:.1} times the bytes, 5 times the seconds to write): the disk may not hold \
                 the layers left at level 1",
                Effort::Small.size_factor()
            ));
        }
        self.effort = room.effort;
        match free {
            Some(free) if free < room.needed => Err(Error::Disk {
                dir: self.dir.display().to_string(),
                what: format!(
                    "layer {k} of the analysis ({} of values, estimated compressed at {}, \
                     times {:.2} at zstd's level 9)",
                    crate::error::format_bytes(raw),
                    room.how,
                    Effort::Small.size_factor()
                ),
                needed: room.needed,
                free,
            }),
            _ => Ok(()),
        }
    }
}

/// What a layer takes on disk, and how hard it is compressed.
struct Room {
    effort: Effort,
    /// The bytes the layer is taken to need, compressed with `effort`.
    needed: u64,
    /// How the ratio was estimated, for a refusal.
    how: String,
}

impl Room {
    /// A layer of `raw` bytes of values, the layer above having taken `measured` bytes on
    /// disk a byte of values at `Fast` (if it is written), `rest` bytes of values left to
    /// write with it, `free` bytes free on the disk if the system tells, the layers before
    /// it written with `before`: once short, the disk stays short (the layers left
    /// compress worse than the ones written, having fewer walls), so no going back to
    /// `Fast`.
    fn new(
        measured: Option<f64>,
        (raw, rest): (u64, u64),
        free: Option<u64>,
        before: Effort,
    ) -> Room {
        let (ratio, how) = match measured {
            Some(r) => (
                (r * 1.5).min(1.0),
                format!("1.5 times the {:.1} % of the layer above", r * 100.0),
            ),
            None => (
                FIRST_LAYER_RATIO,
                "a quarter: no layer is written yet to measure".to_string(),
            ),
        };
        let needed =
            |effort: Effort| (raw as f64 * ratio * effort.size_factor()) as u64 + ROOM_SLACK_BYTES;
        let rest_needed = (rest as f64 * ratio) as u64;
        let effort = match free {
            _ if before == Effort::Small => Effort::Small,
            Some(free) if free < needed(Effort::Fast).max(rest_needed) => Effort::Small,
            _ => Effort::Fast,
        };
        Room {
            effort,
            needed: needed(effort),
            how,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layers_are_compressed_harder_only_where_the_disk_is_short() {
        const G: u64 = 1 << 30;
        // A layer of 10 GiB of values at the 10 % the layer above took: 1.5 GiB with the
        // slack, 1.2 GiB at level 9; the layers left, 40 GiB of values: 6 GiB.
        let room = |free| Room::new(Some(0.10), (10 * G, 40 * G), free, Effort::Fast);
        assert_eq!(room(None).effort, Effort::Fast, "the disk's room unknown");
        assert_eq!(room(Some(7 * G)).effort, Effort::Fast);
        // The layer fits, the layers left may not.
        let short = room(Some(5 * G));
        assert_eq!(short.effort, Effort::Small);
        let small = (10 * G) as f64 * (0.10 * 1.5) * Effort::Small.size_factor();
        assert_eq!(short.needed, small as u64 + ROOM_SLACK_BYTES);
        // Not even this layer at level 1.
        assert_eq!(room(Some(G + G / 4)).effort, Effort::Small);
        // No layer measured: a quarter.
        let first = Room::new(None, (8 * G, 12 * G), Some(3 * G), Effort::Fast);
        assert_eq!(
            (first.effort, first.needed),
            (Effort::Fast, 2 * G + ROOM_SLACK_BYTES)
        );
        assert_eq!(
            Room::new(None, (8 * G, 8 * G), Some(G), Effort::Fast).effort,
            Effort::Small
        );
    }
}
