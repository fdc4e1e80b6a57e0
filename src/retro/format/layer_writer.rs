//! Writing a layer's split files part after part (`LayerWriter`): frames cut at
//! segments, each file's SHA-256 taken as it goes, a run going on after the parts recorded,
//! and a rank's share of a layer written as files of its own (`shares.rs` joins them).

use super::codec::Codec;
use super::hashed::{Hashed, hex};
use super::record::Partial;
use super::saved::{self, SplitFile};
use super::segments::{self, SegmentWriter};
use super::spill::{PROGRESS, Spill};
use crate::error::{Error, Result};
use crate::retro::engine::layout::Layout;
use crate::retro::engine::value::RetroStats;
use crate::support::progress::Progress;
use rayon::prelude::*;
use std::io::Write;
use std::path::PathBuf;

impl Spill {
    /// A writer of layer `k`'s split files, part after part (`parts.rs`), at `per_byte`
    /// slots a byte, with the stored configurations it starts from and their counts: where
    /// an earlier run recorded some of the layer's parts (`record_part`) and its files
    /// hold them whole, it goes on after them; else (a damaged file is named) from the
    /// layer's start.
    pub fn layer_writer(
        &mut self,
        layout: &Layout,
        (k, per_byte): (usize, usize),
        progress: &dyn Progress,
    ) -> Result<(LayerWriter, usize, RetroStats)> {
        if let Some(p) = self.progress.partial.take().filter(|p| p.layer == k) {
            match self.resume_writer(layout, (k, per_byte), &p) {
                Ok(writer) => {
                    progress.message(&format!(
                        "layer {k}: {} of its {} stored configurations written by an \
                         earlier run, whole; going on from there",
                        p.done,
                        layout.stored(k).len()
                    ));
                    return Ok((writer, p.done, p.written.stats));
                }
                Err(e) => progress.warn(&format!("{e}: layer {k} is solved from its start")),
            }
        }
        let lengths = saved::segment_lengths(layout, k, per_byte);
        let writer = self.writer(
            k,
            layout.splits(k),
            |j| saved::split_file_name(k, j, Codec::NEW),
            |file| SegmentWriter::new(file, &lengths, Codec::NEW).with_effort(self.effort),
        )?;
        Ok((writer, 0, RetroStats::default()))
    }

    /// A writer that goes on with layer `k` after the parts `p` recorded: each file cut
    /// back to what was recorded (a killed run may have written more) and checked against
    /// its SHA-256 as it is read to take up the hash.
    fn resume_writer(
        &self,
        layout: &Layout,
        (k, per_byte): (usize, usize),
        p: &Partial,
    ) -> Result<LayerWriter> {
        let cut = segments::cut(layout, k, per_byte);
        let lengths = segments::lengths(&cut, layout.stored_len() / per_byte);
        let files = &p.written.files;
        let written = files.first().map_or(0, |f| f.segments.len());
        let at = cut.get(written).map_or(layout.stored(k).len(), |s| s.start);
        if files.len() != layout.splits(k)
            || at != p.done
            || files.iter().any(|f| f.segments.len() != written)
        {
            return Err(Error::Damaged(format!(
                "{}: the parts recorded of layer {k} do not fit its layout",
                self.dir.join(PROGRESS).display()
            )));
        }
        let files = files
            .par_iter()
            .zip(&p.written.sha256)
            .map(|(f, sha)| {
                let path = self.dir.join(&f.file);
                let fail = |e: std::io::Error| saved::io(&path, "take up", e);
                let mut file = std::fs::OpenOptions::new()
                    .read(true)
                    .write(true)
                    .open(&path)
                    .map_err(fail)?;
                let mut hashed = Hashed::new(std::io::Read::take(&mut file, f.file_bytes));
                std::io::copy(&mut hashed, &mut std::io::sink()).map_err(fail)?;
                let Hashed {
                    sha: state,
                    bytes: read,
                    ..
                } = hashed;
                // A file shorter than recorded reads short.
                if read != f.file_bytes || &hex(state.clone()) != sha {
                    return Err(Error::Damaged(format!(
                        "{}: not the bytes an earlier run recorded",
                        path.display()
                    )));
                }
                file.set_len(f.file_bytes).map_err(fail)?;
                let hashed = Hashed {
                    inner: std::io::BufWriter::with_capacity(256 << 10, file),
                    sha: state,
                    bytes: read,
                };
                let so_far = (f.segments.clone(), f.bytes, f.file_bytes);
                Ok((
                    f.file.clone(),
                    // A layer begun by gzip (a run of an older binary) goes on so.
                    SegmentWriter::resume(
                        hashed,
                        (&lengths[written..], Codec::of(&f.file)),
                        so_far,
                    )
                    .with_effort(self.effort),
                ))
            })
            .collect::<Result<_>>()?;
        Ok(LayerWriter {
            k,
            dir: self.dir.clone(),
            files,
            started: std::time::Instant::now(),
        })
    }

    /// A writer of `splits` files of layer `k` named by `name`, each compressed by the
    /// writer `segments` makes over it.
    fn writer(
        &self,
        k: usize,
        splits: usize,
        name: impl Fn(usize) -> String,
        segments: impl Fn(HashedFile) -> SplitWriter,
    ) -> Result<LayerWriter> {
        let files = (0..splits)
            .map(|j| {
                let name = name(j);
                let path = self.dir.join(&name);
                // A layer an older binary began in gzip and did not record a part of is
                // begun again here: its files would lie beside this one's, unlisted.
                let stale = self.dir.join(Codec::other_name(&name));
                match std::fs::remove_file(&stale) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(saved::io(&stale, "remove", e));
                    }
                    _ => {}
                }
                let file =
                    std::fs::File::create(&path).map_err(|e| saved::io(&path, "write", e))?;
                let hashed = Hashed::new(std::io::BufWriter::with_capacity(256 << 10, file));
                Ok((name, segments(hashed)))
            })
            .collect::<Result<_>>()?;
        Ok(LayerWriter {
            k,
            dir: self.dir.clone(),
            files,
            started: std::time::Instant::now(),
        })
    }

    /// Records layer `k` written by `writer` (every part appended) with its counts.
    pub fn finish_layer(
        &mut self,
        writer: LayerWriter,
        stats: RetroStats,
        progress: &dyn Progress,
    ) -> Result<()> {
        let (k, started) = (writer.k, writer.started);
        let written = writer.finish()?;
        self.record_layer(k, written, stats, started, progress)
    }

    /// A writer of rank `rank`'s share of layer `k` (the segments `segments`, `per_byte`
    /// slots a byte): a file a split beside the layer's (`share_file_name`), joined by
    /// `join_shares` once every rank has written its own.
    pub fn share_writer(
        &self,
        layout: &Layout,
        (k, per_byte): (usize, usize),
        (segments, rank): (std::ops::Range<usize>, usize),
    ) -> Result<LayerWriter> {
        let lengths = saved::segment_lengths(layout, k, per_byte);
        self.writer(
            k,
            layout.splits(k),
            |j| share_file_name(k, j, rank),
            |file| {
                SegmentWriter::share(file, &lengths[segments.clone()], Codec::NEW)
                    .with_effort(self.effort)
            },
        )
    }
}

/// The name of rank `rank`'s share of split `j` of layer `k` while the layer is written.
fn share_file_name(k: usize, j: usize, rank: usize) -> String {
    let extension = Codec::NEW.extension();
    format!("layer-{k:02}-split-{j:02}.rank-{rank:03}.{extension}")
}

/// The split files of one layer being written part after part: each a compressed stream whose
/// SHA-256 is taken as it goes, so that nothing is read back to record it.
pub struct LayerWriter {
    k: usize,
    dir: PathBuf,
    /// Per split: the file's name and its stream.
    files: Vec<(String, SplitWriter)>,
    started: std::time::Instant,
}

impl LayerWriter {
    /// Ends every file (synced): each one's entry and SHA-256.
    pub fn finish(self) -> Result<Vec<(SplitFile, String)>> {
        let dir = self.dir;
        self.files
            .into_par_iter()
            .map(|(name, gz)| {
                let path = dir.join(&name);
                let fail = |e: std::io::Error| saved::io(&path, "write", e);
                let (hashed, segments, bytes) = gz.finish().map_err(fail)?;
                let (file, sha, file_bytes) = hashed.finish();
                let file = file.into_inner().map_err(|e| fail(e.into_error()))?;
                file.sync_all().map_err(fail)?;
                let entry = SplitFile {
                    file: name,
                    bytes,
                    file_bytes,
                    segments,
                };
                Ok((entry, sha))
            })
            .collect()
    }

    /// Where every file is between two segments (the part just appended ended at a
    /// segment's end): flushes and syncs them, and returns each one's entry and SHA-256
    /// so far, for `Spill::record_part`; `None` inside a segment.
    pub fn checkpoint(&mut self) -> Result<Option<Vec<(SplitFile, String)>>> {
        if !self.files.iter_mut().all(|(_, gz)| gz.between().is_some()) {
            return Ok(None);
        }
        let dir = &self.dir;
        self.files
            .par_iter_mut()
            .map(|(name, gz)| {
                let path = dir.join(name.as_str());
                let fail = |e: std::io::Error| saved::io(&path, "write", e);
                let (hashed, segments, bytes) = gz.between().expect("checked above");
                hashed.flush().map_err(fail)?;
                hashed.inner.get_ref().sync_all().map_err(fail)?;
                let entry = SplitFile {
                    file: name.clone(),
                    bytes,
                    file_bytes: hashed.bytes,
                    segments: segments.to_vec(),
                };
                Ok((entry, hex(hashed.sha.clone())))
            })
            .collect::<Result<_>>()
            .map(Some)
    }

    /// Appends a part: `stores[j]` to split `j`'s file (the splits compress in parallel).
    pub fn append(&mut self, stores: &[Vec<u8>]) -> Result<()> {
        let dir = &self.dir;
        self.files
            .par_iter_mut()
            .zip(stores)
            .try_for_each(|((name, gz), store)| {
                gz.write_all(store)
                    .map_err(|e| saved::io(&dir.join(name.as_str()), "write", e))
            })
    }
}

/// One split file being written: frames, one a segment, over a hashed, buffered file.
type SplitWriter = SegmentWriter<HashedFile>;

/// A file being written, through a buffer, its SHA-256 taken.
type HashedFile = Hashed<std::io::BufWriter<std::fs::File>>;
