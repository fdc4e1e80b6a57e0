//! Reading written layers back as streams: the splits of a layer side by side, in pieces
//! of stored configurations, inflated on a thread of their own while the last piece is
//! pushed, each file checked against its SHA-256 as it is read.

use super::codec::Codec;
use super::hashed::Hashed;
use super::saved::{self};
use super::spill::Spill;
use crate::error::{Error, Result};
use crate::retro::engine::layout::Layout;
use crate::retro::engine::store::Packing;
use std::io::Read;
use std::path::{Path, PathBuf};

impl Spill {
    /// Reads the splits `splits` of written layer `k` as streams side by side, in the pieces
    /// `pieces` (whole groups of stored configurations, in order, covering a split):
    /// `each(ranks, bytes)` gets each piece's ranks and, split by split, its bytes under
    /// packing `P`. The next piece is read and inflated while `each` works on one. Every
    /// file is checked against its SHA-256 at the end: a damaged file is an error, and the
    /// caller must drop what `each` made of it.
    pub fn stream_splits<P: Packing>(
        &self,
        (k, splits): (usize, &[usize]),
        layout: &Layout,
        pieces: &[std::ops::Range<usize>],
        each: impl FnMut(std::ops::Range<usize>, &[Vec<u8>]),
    ) -> Result<()> {
        let layer = self.written(k);
        let files = splits
            .iter()
            .map(|&j| Stream {
                path: self.dir.join(&layer.files[j].file),
                bytes: 0..layer.files[j].file_bytes,
                sha: Some(&layer.sha256[j]),
            })
            .collect();
        stream::<P>(files, layout.stored_len(), pieces, each)
    }

    /// As `stream_splits`, but only the configurations of the segments `segments` of each
    /// split (`segments.rs`), read from where their segments start in the files: a rank's
    /// share. The files' SHA-256 are not taken (they were checked when the run took them
    /// up, or written by this run); each segment's checksum is (zstd's in its frame, gzip's
    /// CRC-32 in its member).
    pub fn stream_segments<P: Packing>(
        &self,
        (k, splits): (usize, &[usize]),
        layout: &Layout,
        (segments, pieces): (std::ops::Range<usize>, &[std::ops::Range<usize>]),
        each: impl FnMut(std::ops::Range<usize>, &[Vec<u8>]),
    ) -> Result<()> {
        let layer = self.written(k);
        let files = splits
            .iter()
            .map(|&j| {
                let f = &layer.files[j];
                let lengths = &f.segments;
                if lengths.len() < segments.end {
                    return Err(Error::Damaged(format!(
                        "{}: {} segments recorded, the layer has more (written before \
                         segments? solve it again)",
                        self.dir.join(&f.file).display(),
                        lengths.len()
                    )));
                }
                let start: u64 = lengths[..segments.start].iter().sum();
                let len: u64 = lengths[segments.clone()].iter().sum();
                Ok(Stream {
                    path: self.dir.join(&f.file),
                    bytes: start..start + len,
                    sha: None,
                })
            })
            .collect::<Result<_>>()?;
        stream::<P>(files, layout.stored_len(), pieces, each)
    }
}

/// Pieces of a stream in memory at once: one pushed, one waiting, one being read.
pub const PIECES_LIVE: usize = 3;

/// A stretch of a split file to stream: its bytes `bytes` (whole frames or members), checked
/// against `sha` at the end when it is the whole file.
struct Stream<'a> {
    path: PathBuf,
    bytes: std::ops::Range<u64>,
    sha: Option<&'a String>,
}

/// Streams `files` side by side in the pieces `pieces` (runs of stored configurations of
/// `stored_len` slots, in order, covering the files' stretches): `each(ranks, bytes)` gets
/// each piece, file by file, under packing `P`, while the next is read and inflated.
fn stream<P: Packing>(
    files: Vec<Stream>,
    stored_len: usize,
    pieces: &[std::ops::Range<usize>],
    mut each: impl FnMut(std::ops::Range<usize>, &[Vec<u8>]),
) -> Result<()> {
    use std::io::Seek;
    let per_config = stored_len / P::PER_BYTE;
    let damaged =
        |path: &Path, e: std::io::Error| Error::Damaged(format!("{}: {e}", path.display()));
    if pieces.is_empty() {
        return Ok(()); // a rank's empty share: nothing to read (no segment to inflate)
    }
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::sync_channel::<(usize, Vec<Vec<u8>>)>(1);
        // The pieces come back once pushed and are filled again: a piece freshly allocated
        // is mapped anew (pieces are over `memory::return_freed_buffers`'s threshold) and
        // every page of it faulted in and zeroed by the kernel before the inflating writes
        // it (7x5 w5 exact at 18G: 170 M page faults and 12 % of the time in the kernel in
        // its first 83 min). The reader makes `PIECES_LIVE` pieces and then waits for one
        // back: while it fills one, one waits in the channel and one is being pushed.
        let (give_back, given_back) = std::sync::mpsc::channel::<Vec<Vec<u8>>>();
        let mut made = 0;
        let reader = scope.spawn(move || -> Result<()> {
            let mut streams = files
                .iter()
                .map(|f| {
                    let path = &f.path;
                    let mut file =
                        std::fs::File::open(path).map_err(|e| saved::io(path, "read", e))?;
                    file.seek(std::io::SeekFrom::Start(f.bytes.start))
                        .map_err(|e| saved::io(path, "read", e))?;
                    let stretch = file.take(f.bytes.end - f.bytes.start);
                    Codec::of(&path.to_string_lossy())
                        .decoder(Hashed::new(stretch))
                        .map_err(|e| saved::io(path, "read", e))
                })
                .collect::<Result<Vec<_>>>()?;
            for (i, ranks) in pieces.iter().enumerate() {
                let mut piece = if made < PIECES_LIVE {
                    made += 1;
                    Vec::new()
                } else {
                    given_back.recv().unwrap_or_default()
                };
                piece.resize_with(streams.len(), Vec::new);
                for ((gz, f), bytes) in streams.iter_mut().zip(&files).zip(&mut piece) {
                    bytes.resize(ranks.len() * per_config, 0);
                    gz.read_exact(bytes).map_err(|e| damaged(&f.path, e))?;
                }
                if send.send((i, piece)).is_err() {
                    return Ok(()); // the consumer stopped
                }
            }
            drop(send);
            for (gz, f) in streams.into_iter().zip(&files) {
                let mut gz = gz;
                let mut rest = Vec::new();
                gz.read_to_end(&mut rest).map_err(|e| damaged(&f.path, e))?;
                let mut hashed = gz.into_inner();
                std::io::copy(&mut hashed, &mut std::io::sink())
                    .map_err(|e| damaged(&f.path, e))?;
                let sha_differs = f.sha.is_some_and(|sha| hashed.finish().1 != *sha);
                if !rest.is_empty() || sha_differs {
                    return Err(Error::Damaged(format!(
                        "{} is damaged: its SHA-256 or its length differs from what was \
                         written",
                        f.path.display()
                    )));
                }
            }
            Ok(())
        });
        for (i, piece) in receive {
            each(pieces[i].clone(), &piece);
            let _ = give_back.send(piece); // the reader may be done: then it is dropped
        }
        reader.join().expect("the reader does not panic")
    })
}
