//! Layers through a directory: the exact analysis writes each layer to disk as soon as it
//! is solved, so that a run that is killed goes on from the last layer written, and the
//! finished directory is a saved table (`saved.rs`: the same split files, header and
//! manifest) that `analyze --table` and `verify` read. The analysis itself still holds at
//! most two layers in memory (`mod.rs`); what the directory adds is that nothing solved is
//! lost and that every layer is kept, whatever the memory budget.
//!
//! While a run is on, the directory holds the split files of the layers written and
//! `progress.json`: for each layer written, its files, their SHA-256 and the layer's
//! counts, replaced whole (written aside and renamed) after each layer, and after each part
//! of a layer solved in parts that ends at a segment's end (`Partial`: a run killed inside
//! the layer goes on from there). Layers are solved
//! from the most walls down, so the layers written are always the top ones. When the last
//! layer is written, `finish` writes the header and the manifest and removes
//! `progress.json`.
//!
//! Opening a directory that holds a run of the same cell checks every layer written
//! against its SHA-256: a damaged or missing file is named, and its layer and every layer
//! below it are solved again (a layer is solved from the one above), never read as values.

use super::ConfigSource;
use super::layout::Layout;
use super::saved::{self, SplitFile};
use super::segments::{self, SegmentWriter};
use super::solved::Splits;
use super::store::Packing;
use super::{Precision, RetroStats};
use crate::error::{Error, Result, count};
use crate::support::dir_lock::DirLock;
use crate::support::progress::Progress;
use flate2::read::MultiGzDecoder;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The bytes on disk a byte of values of the first layer written is taken to need, with
/// no layer yet to measure: about 1.5 to 2 times the worst measured (6 to 8 times smaller
/// at a byte a slot, 5 times at 2 bits).
const FIRST_LAYER_RATIO: f64 = 0.25;
/// What a layer's room adds to its estimate: the progress record, the file system's own.
const ROOM_SLACK_BYTES: u64 = 4 << 20;

pub use super::saved::PROGRESS;
/// What `progress.json` says it is, first.
const FORMAT: &str = "quoridor-solver analysis in progress 1";

/// Whether `dir` holds layers an earlier analysis wrote: a run's record of them, or the
/// finished table's files (whose cell, precision and files `Spill::open` checks).
pub fn holds_layers(dir: &Path) -> bool {
    dir.join(PROGRESS).exists() || matches!(saved::contents(dir), Ok(Some(c)) if c.table_files)
}

/// One layer written: its splits' files, each file's SHA-256, and the layer's counts.
#[derive(Clone, Serialize, Deserialize)]
struct Written {
    files: Vec<SplitFile>,
    sha256: Vec<String>,
    stats: RetroStats,
    /// The SHA-256 of the record above (`Written::computed_seal`): counts edited by hand,
    /// or a record altered on disk, are found when a run takes the layer up rather than
    /// sealed into the finished table's header. Records written before it was kept have
    /// none.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    seal: Option<String>,
}

impl Written {
    fn new(files: Vec<SplitFile>, sha256: Vec<String>, stats: RetroStats) -> Written {
        let mut w = Written {
            files,
            sha256,
            stats,
            seal: None,
        };
        w.seal = Some(w.computed_seal());
        w
    }

    /// The SHA-256 of the record's files, their SHA-256 and its counts, as JSON.
    fn computed_seal(&self) -> String {
        let json =
            serde_json::to_vec(&(&self.files, &self.sha256, &self.stats)).expect("serializable");
        saved::sha256_hex(&json)
    }

    /// Whether the record is as this program wrote it (a record without a seal, from a
    /// version before it, is taken as written).
    fn sealed(&self) -> Result<()> {
        match &self.seal {
            Some(seal) if *seal != self.computed_seal() => Err(Error::Damaged(
                "its record in progress.json was altered (its counts or files do not match \
                 their seal)"
                    .into(),
            )),
            _ => Ok(()),
        }
    }
}

/// A layer solved in parts, as far as a part that ended at a segment's end: its stored
/// configurations `0..done` are in its files (each at a member's end), with the counts of
/// their positions. A run that stops inside the layer goes on from there.
#[derive(Clone, Serialize, Deserialize)]
struct Partial {
    layer: usize,
    done: usize,
    written: Written,
}

#[derive(Serialize, Deserialize)]
struct ProgressFile {
    format: String,
    layout_version: u32,
    width: usize,
    height: usize,
    walls: u8,
    /// "exact" or "compact" (`saved::precision_name`); runs before it was written were
    /// exact.
    #[serde(default = "exact")]
    precision: String,
    /// By layer (walls on the board); `None` for a layer not written yet.
    layers: Vec<Option<Written>>,
    /// The layer below the layers written, as far as its parts are written.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    partial: Option<Partial>,
}

fn exact() -> String {
    saved::precision_name(Precision::Exact).into()
}

/// A directory the analysis of one cell writes its layers into.
pub struct Spill {
    dir: PathBuf,
    progress: ProgressFile,
    /// The counts of the whole cell, when the directory already held the finished table.
    finished: Option<RetroStats>,
    /// The directory held for this run (`None` on the ranks of an MPI job but rank 0).
    _taken: Option<DirLock>,
}

impl Spill {
    /// The directory `dir` for the analysis of the cell of `tables`, created if need be.
    /// A run of the same cell found there is taken up where it stopped (`written_from`),
    /// once each of its layers has been checked; `progress` hears what was found. A
    /// directory that holds anything else (another cell's table or run, other files) is
    /// refused.
    pub fn open(
        dir: &Path,
        configs: &dyn ConfigSource,
        precision: Precision,
        progress: &dyn Progress,
    ) -> Result<Spill> {
        let taken = DirLock::create_and_take(dir)?;
        let mut spill = Spill::open_shared(dir, configs, precision, progress)?;
        spill._taken = Some(taken);
        Ok(spill)
    }

    /// `open` without taking the directory: a rank other than rank 0, which holds it.
    fn open_shared(
        dir: &Path,
        configs: &dyn ConfigSource,
        precision: Precision,
        progress: &dyn Progress,
    ) -> Result<Spill> {
        // Layers 0 to the most walls the board holds (at most 2N).
        let layout_layers = configs.by_walls().len();
        let board = configs.board();
        let fresh = ProgressFile {
            format: FORMAT.into(),
            layout_version: saved::LAYOUT_VERSION,
            width: board.width(),
            height: board.height(),
            walls: configs.walls_per_player(),
            precision: saved::precision_name(precision).into(),
            layers: vec![None; layout_layers],
            partial: None,
        };
        let mut spill = Spill {
            dir: dir.to_path_buf(),
            progress: fresh,
            finished: None,
            _taken: None,
        };
        let Some(found) = saved::contents(dir)? else {
            std::fs::create_dir_all(dir).map_err(|e| saved::io(dir, "create", e))?;
            return Ok(spill);
        };
        if let Some(foreign) = &found.foreign {
            return Err(saved::not_for_layers(dir, foreign));
        }
        if !found.cells.is_empty() {
            return Err(Error::Argument(format!(
                "{} holds {}, not one cell's layers",
                dir.display(),
                saved::describe(dir, &found)
            )));
        }
        if dir.join(PROGRESS).exists() {
            spill.take_up(progress)?;
        } else if found.table_files {
            spill.take_finished()?;
        }
        Ok(spill)
    }

    /// `open` on every rank of `ranks` (each calls it), one after the other: rank 0 first
    /// (it creates the directory and checks what is there), then the others, before any
    /// rank writes, so that none takes another's first files for a damaged table. An error
    /// on one rank is an error on all.
    pub fn open_across(
        dir: &Path,
        configs: &dyn ConfigSource,
        precision: Precision,
        (ranks, progress): (&dyn super::ranks::Ranks, &dyn Progress),
    ) -> Result<Spill> {
        use super::ranks::all_gather;
        let first = (ranks.rank() == 0).then(|| Spill::open(dir, configs, precision, progress));
        let first_ok = first.as_ref().is_none_or(Result::is_ok) as u8;
        if all_gather(ranks, &[first_ok])[0] != [1] {
            return first.unwrap_or_else(|| {
                Err(Error::Argument(format!(
                    "rank 0 could not take up {}: see its message",
                    dir.display()
                )))
            });
        }
        let mine = first.unwrap_or_else(|| Spill::open_shared(dir, configs, precision, progress));
        let all = all_gather(ranks, &[mine.is_ok() as u8]);
        match all.iter().position(|ok| ok != &[1]) {
            Some(r) if mine.is_ok() => Err(Error::Io(format!(
                "rank {r} could not take up {}: see its message",
                dir.display()
            ))),
            _ => mine,
        }
    }

    /// Reads `progress.json` of an earlier run of this cell and keeps the top layers whose
    /// files are whole.
    fn take_up(&mut self, progress: &dyn Progress) -> Result<()> {
        let path = self.dir.join(PROGRESS);
        let bytes = std::fs::read(&path).map_err(|e| saved::io(&path, "read", e))?;
        let found: ProgressFile = serde_json::from_slice(&bytes)
            .map_err(|e| Error::Damaged(format!("{}: {e}", path.display())))?;
        let mine = &self.progress;
        if found.format != FORMAT || found.layout_version != mine.layout_version {
            return Err(Error::Damaged(format!(
                "{}: \"{}\" (layout {}), not what this program writes; delete the directory \
                 to start again",
                path.display(),
                found.format,
                found.layout_version
            )));
        }
        let cell = (found.width, found.height, found.walls);
        self.refuse_other_cell("the analysis", cell, found.layers.len())?;
        self.refuse_other_precision("the analysis", &found.precision)?;
        // From the top down, while the layers are written and whole.
        for k in (0..found.layers.len()).rev() {
            let Some(layer) = &found.layers[k] else { break };
            if let Err(e) = layer.sealed().and_then(|()| self.check(layer)) {
                progress.warn(&format!(
                    "{e}: layer {k} and those below it are solved again"
                ));
                break;
            }
            self.progress.layers[k] = Some(layer.clone());
        }
        // Its files are checked when the layer is taken up (`layer_writer`).
        self.progress.partial = found.partial.filter(|p| p.layer + 1 == self.written_from());
        if let Some(Err(e)) = self.progress.partial.as_ref().map(|p| p.written.sealed()) {
            let layer = self.progress.partial.take().expect("checked").layer;
            progress.warn(&format!(
                "layer {layer}, as far as it was written: {e}: it is solved again from its start"
            ));
        }
        let (from, layers) = (self.written_from(), found.layers.len());
        if from < layers {
            let next = match from {
                0 => "the table is finished from them".to_string(),
                _ => format!("going on from layer {}", from - 1),
            };
            progress.message(&format!(
                "{}: layers {from} to {} of an earlier run are whole; {next}",
                self.dir.display(),
                layers - 1,
            ));
        }
        Ok(())
    }

    /// A finished table of this cell: every layer is written, and every file is checked
    /// against the manifest now, whatever the run does next: a run whose budget keeps no
    /// layer in memory reads none, and would answer from a damaged table unchecked.
    fn take_finished(&mut self) -> Result<()> {
        let header = saved::header(&self.dir)?;
        let cell = (header.width, header.height, header.walls);
        self.refuse_other_cell("the saved table", cell, header.layers.len())?;
        self.refuse_other_precision("the saved table", &header.precision)?;
        let manifest = saved::manifest(&self.dir)?;
        for (k, files) in header.layers.into_iter().enumerate() {
            let sha256 = files
                .iter()
                .map(|f| saved::expected_sha(&self.dir, &manifest, &f.file))
                .collect::<Result<_>>()?;
            // Per-layer counts are not in a finished table, only the cell's.
            let written = Written::new(files, sha256, RetroStats::default());
            self.check(&written)?;
            self.progress.layers[k] = Some(written);
        }
        self.finished = Some(RetroStats {
            positions: header.positions,
            p1_wins: header.p1_wins,
            p2_wins: header.p2_wins,
            draws: header.draws,
        });
        Ok(())
    }

    /// Refuses what the directory holds (`what`: the analysis or the saved table) when it is
    /// of another cell (`cell`: width, height, walls) or has another number of layers.
    fn refuse_other_cell(&self, what: &str, cell: (usize, usize, u8), layers: usize) -> Result<()> {
        let mine = &self.progress;
        if cell == (mine.width, mine.height, mine.walls) && layers == mine.layers.len() {
            return Ok(());
        }
        Err(Error::Argument(format!(
            "{} holds {what} of {}x{} with {}, not of {}x{} with {}",
            self.dir.display(),
            cell.0,
            cell.1,
            count(cell.2, "wall"),
            mine.width,
            mine.height,
            count(mine.walls, "wall")
        )))
    }

    /// Refuses what the directory holds (`what`) when it is of another precision.
    fn refuse_other_precision(&self, what: &str, precision: &str) -> Result<()> {
        let mine = &self.progress.precision;
        if precision == mine {
            return Ok(());
        }
        Err(Error::Argument(format!(
            "{} holds {what} at the {precision} precision, not the {mine} one asked for \
             (--precision)",
            self.dir.display()
        )))
    }

    /// Whether every file of `layer` is there with its SHA-256.
    fn check(&self, layer: &Written) -> Result<()> {
        for (f, sha) in layer.files.iter().zip(&layer.sha256) {
            saved::read_with_sha(&self.dir.join(&f.file), sha)?;
        }
        Ok(())
    }

    /// The lowest layer from which every layer up is written: the analysis solves the
    /// layers below it only (the number of layers when none is written).
    pub fn written_from(&self) -> usize {
        let layers = &self.progress.layers;
        (0..layers.len())
            .rev()
            .take_while(|&k| layers[k].is_some())
            .last()
            .unwrap_or(layers.len())
    }

    /// The layer an earlier run stopped inside and the stored configurations of it that
    /// it recorded as whole (`record_part`), if any.
    pub fn partial(&self) -> Option<(usize, usize)> {
        self.progress.partial.as_ref().map(|p| (p.layer, p.done))
    }

    /// The counts of the layers written from `k` up, or of the whole cell when the
    /// directory held the finished table.
    pub fn stats_from(&self, k: usize) -> RetroStats {
        if let Some(all) = self.finished {
            return if k == 0 { all } else { RetroStats::default() };
        }
        self.progress.layers[k..]
            .iter()
            .flatten()
            .fold(RetroStats::default(), |a, w| a + w.stats)
    }

    /// The stores of written layer `k`, read back and checked against their SHA-256 and
    /// the layout's lengths.
    pub fn read_layer<P: Packing>(&self, k: usize, layout: &Layout) -> Result<Splits> {
        let layer = self.progress.layers[k]
            .as_ref()
            .expect("only layers written are read back");
        let len = super::store::bytes_for::<P>(layout.split_len(k));
        layer
            .files
            .par_iter()
            .zip(&layer.sha256)
            .map(|(f, sha)| {
                let path = self.dir.join(&f.file);
                let gz = saved::read_with_sha(&path, sha)?;
                saved::inflate(&path, &gz, len).map(Some)
            })
            .collect()
    }

    /// Writes solved layer `k` (every split in memory) with its counts, then records it in
    /// `progress.json`: a run killed before that record solves the layer again.
    pub fn write_layer(
        &mut self,
        (k, per_byte): (usize, usize),
        layout: &Layout,
        splits: &Splits,
        stats: RetroStats,
        progress: &dyn Progress,
    ) -> Result<()> {
        let started = std::time::Instant::now();
        let lengths = saved::segment_lengths(layout, k, per_byte);
        let written: Vec<(SplitFile, String)> = splits
            .par_iter()
            .enumerate()
            .map(|(j, store)| {
                let store = store.as_ref().expect("a layer just solved has every split");
                saved::write_split(&self.dir, (k, j), store, &lengths)
            })
            .collect::<Result<_>>()?;
        self.record_layer(k, written, stats, started, progress)
    }

    /// Records layer `k`, whose files (`written`: each split's entry and SHA-256) are
    /// whole on disk, in `progress.json`, replaced whole.
    fn record_layer(
        &mut self,
        k: usize,
        written: Vec<(SplitFile, String)>,
        stats: RetroStats,
        started: std::time::Instant,
        progress: &dyn Progress,
    ) -> Result<()> {
        let (files, sha256): (Vec<SplitFile>, Vec<String>) = written.into_iter().unzip();
        let bytes: u64 = files.iter().map(|f| f.file_bytes).sum();
        self.progress.layers[k] = Some(Written::new(files, sha256, stats));
        self.progress.partial = None;
        self.save_progress()?;
        progress.message(&format!(
            "layer {k} written to {}: {} positions, {} on disk ({:.1} s)",
            self.dir.display(),
            stats.positions,
            crate::error::format_bytes(bytes),
            started.elapsed().as_secs_f64()
        ));
        Ok(())
    }

    /// Writes `progress.json`, replaced whole.
    fn save_progress(&self) -> Result<()> {
        let json = serde_json::to_string_pretty(&self.progress).expect("serializable") + "\n";
        saved::replace_synced(&self.dir, PROGRESS, json.as_bytes())
    }

    /// Records that layer `k`'s stored configurations `0..done`, of counts `stats`, are in
    /// its files as `checkpoint` found them (each file synced at a member's end).
    pub fn record_part(
        &mut self,
        (k, done): (usize, usize),
        written: Vec<(SplitFile, String)>,
        stats: RetroStats,
    ) -> Result<()> {
        let (files, sha256) = written.into_iter().unzip();
        self.progress.partial = Some(Partial {
            layer: k,
            done,
            written: Written::new(files, sha256, stats),
        });
        self.save_progress()
    }

    /// The directory the layers go to.
    pub fn dir(&self) -> &Path {
        &self.dir
    }

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
            |j| saved::split_file_name(k, j),
            |file| SegmentWriter::new(file, &lengths),
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
        let members = files.first().map_or(0, |f| f.segments.len());
        let at = cut.get(members).map_or(layout.stored(k).len(), |s| s.start);
        if files.len() != layout.splits(k)
            || at != p.done
            || files.iter().any(|f| f.segments.len() != members)
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
                    SegmentWriter::resume(hashed, &lengths[members..], so_far),
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

    /// Reads the splits `splits` of written layer `k` as streams side by side, in the pieces
    /// `chunks` (whole groups of stored configurations, in order, covering a split):
    /// `each(ranks, bytes)` gets each piece's ranks and, split by split, its bytes under
    /// packing `P`. The next piece is read and inflated while `each` works on one. Every
    /// file is checked against its SHA-256 at the end: a damaged file is an error, and the
    /// caller must drop what `each` made of it.
    pub fn stream_splits<P: Packing>(
        &self,
        (k, splits): (usize, &[usize]),
        layout: &Layout,
        chunks: &[std::ops::Range<usize>],
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
        stream::<P>(files, layout.stored_len(), chunks, each)
    }

    /// As `stream_splits`, but only the configurations of the segments `segments` of each
    /// split (`segments.rs`), read from where their members start in the files: a rank's
    /// share. The files' SHA-256 are not taken (they were checked when the run took them
    /// up, or written by this run); each member's CRC-32 is.
    pub fn stream_segments<P: Packing>(
        &self,
        (k, splits): (usize, &[usize]),
        layout: &Layout,
        (segments, chunks): (std::ops::Range<usize>, &[std::ops::Range<usize>]),
        each: impl FnMut(std::ops::Range<usize>, &[Vec<u8>]),
    ) -> Result<()> {
        let layer = self.written(k);
        let files = splits
            .iter()
            .map(|&j| {
                let f = &layer.files[j];
                let members = &f.segments;
                if members.len() < segments.end {
                    return Err(Error::Damaged(format!(
                        "{}: {} segments recorded, the layer has more (written before \
                         segments? solve it again)",
                        self.dir.join(&f.file).display(),
                        members.len()
                    )));
                }
                let start: u64 = members[..segments.start].iter().sum();
                let len: u64 = members[segments.clone()].iter().sum();
                Ok(Stream {
                    path: self.dir.join(&f.file),
                    bytes: start..start + len,
                    sha: None,
                })
            })
            .collect::<Result<_>>()?;
        stream::<P>(files, layout.stored_len(), chunks, each)
    }

    /// Written layer `k`.
    fn written(&self, k: usize) -> &Written {
        self.progress.layers[k]
            .as_ref()
            .expect("only layers written are read back")
    }

    /// A writer of rank `rank`'s share of layer `k` (the segments `segments`, `per_byte`
    /// slots a byte): a file a split beside the layer's (`shard_file_name`), joined by
    /// `join_shards` once every rank has written its own.
    pub fn shard_writer(
        &self,
        layout: &Layout,
        (k, per_byte): (usize, usize),
        (segments, rank): (std::ops::Range<usize>, usize),
    ) -> Result<LayerWriter> {
        let lengths = saved::segment_lengths(layout, k, per_byte);
        self.writer(
            k,
            layout.splits(k),
            |j| shard_file_name(k, j, rank),
            |file| SegmentWriter::share(file, &lengths[segments.clone()]),
        )
    }

    /// Joins the shards of layer `k` (`shards[r]`: rank `r`'s files, by split, as
    /// `LayerWriter::finish` gave them) into the layer's split files, in rank order, and
    /// records the layer with its counts. The members are copied, not inflated: the files
    /// are those a single process writes. With `write` false (a rank other than the first)
    /// only records the layer here, as the first rank writes it, for the next layer's
    /// stream.
    pub fn join_shards(
        &mut self,
        k: usize,
        shards: &[Vec<SplitFile>],
        (stats, write): (RetroStats, bool),
        progress: &dyn Progress,
    ) -> Result<()> {
        let started = std::time::Instant::now();
        let splits = shards.first().map_or(0, Vec::len);
        let written = (0..splits)
            .into_par_iter()
            .map(|j| {
                let name = saved::split_file_name(k, j);
                let pieces: Vec<&SplitFile> = shards.iter().map(|s| &s[j]).collect();
                let entry = SplitFile {
                    file: name.clone(),
                    bytes: pieces.iter().map(|p| p.bytes).sum(),
                    file_bytes: pieces.iter().map(|p| p.file_bytes).sum(),
                    segments: pieces.iter().flat_map(|p| p.segments.clone()).collect(),
                };
                let sha = match write {
                    true => self.join_files(&name, &pieces)?,
                    false => String::new(),
                };
                Ok((entry, sha))
            })
            .collect::<Result<Vec<_>>>()?;
        match write {
            true => self.record_layer(k, written, stats, started, progress),
            false => {
                let (files, sha256) = written.into_iter().unzip();
                self.progress.layers[k] = Some(Written::new(files, sha256, stats));
                Ok(())
            }
        }
    }

    /// Copies the files `pieces` one after another into `name`, synced; removes them;
    /// returns the SHA-256 of the whole.
    fn join_files(&self, name: &str, pieces: &[&SplitFile]) -> Result<String> {
        let path = self.dir.join(name);
        let fail = |e: std::io::Error| saved::io(&path, "write", e);
        let file = std::fs::File::create(&path).map_err(fail)?;
        let mut out = Hashed::new(std::io::BufWriter::with_capacity(1 << 20, file));
        for piece in pieces {
            let from = self.dir.join(&piece.file);
            let mut input = std::fs::File::open(&from).map_err(|e| saved::io(&from, "read", e))?;
            let copied = std::io::copy(&mut input, &mut out).map_err(fail)?;
            if copied != piece.file_bytes {
                return Err(Error::Damaged(format!(
                    "{} has {copied} bytes, its rank wrote {}",
                    from.display(),
                    piece.file_bytes
                )));
            }
        }
        let (file, sha, _) = out.finish();
        let file = file.into_inner().map_err(|e| fail(e.into_error()))?;
        file.sync_all().map_err(fail)?;
        for piece in pieces {
            let from = self.dir.join(&piece.file);
            std::fs::remove_file(&from).map_err(|e| saved::io(&from, "remove", e))?;
        }
        Ok(sha)
    }

    /// Every layer is written: the header and the manifest make the directory a saved
    /// table, and `progress.json` goes. Returns the bytes of the table's files.
    pub fn finish(self, configs: &dyn ConfigSource, stats: RetroStats) -> Result<u64> {
        if self.finished.is_some() {
            return saved::table_bytes(&self.dir);
        }
        let mut layers = Vec::new();
        let mut shas = Vec::new();
        for (k, layer) in self.progress.layers.into_iter().enumerate() {
            let layer = layer.ok_or_else(|| {
                Error::Argument(format!("layer {k} of the analysis was not written"))
            })?;
            shas.extend(layer.files.iter().map(|f| f.file.clone()).zip(layer.sha256));
            layers.push(layer.files);
        }
        let precision = match self.progress.precision == exact() {
            true => Precision::Exact,
            false => Precision::Compact,
        };
        let bytes = saved::write_header_and_manifest(
            &self.dir,
            configs,
            (precision, stats),
            layers,
            &shas,
        )?;
        let path = self.dir.join(PROGRESS);
        std::fs::remove_file(&path).map_err(|e| saved::io(&path, "remove", e))?;
        Ok(bytes)
    }
}

/// A stretch of a split file to stream: its bytes `bytes` (whole gzip members), checked
/// against `sha` at the end when it is the whole file.
struct Stream<'a> {
    path: PathBuf,
    bytes: std::ops::Range<u64>,
    sha: Option<&'a String>,
}

/// Streams `files` side by side in the pieces `chunks` (runs of stored configurations of
/// `stored_len` slots, in order, covering the files' stretches): `each(ranks, bytes)` gets
/// each piece, file by file, under packing `P`, while the next is read and inflated.
fn stream<P: Packing>(
    files: Vec<Stream>,
    stored_len: usize,
    chunks: &[std::ops::Range<usize>],
    mut each: impl FnMut(std::ops::Range<usize>, &[Vec<u8>]),
) -> Result<()> {
    use std::io::Seek;
    let per_config = stored_len / P::PER_BYTE;
    let damaged =
        |path: &Path, e: std::io::Error| Error::Damaged(format!("{}: {e}", path.display()));
    if chunks.is_empty() {
        return Ok(()); // a rank's empty share: nothing to read (no member to inflate)
    }
    std::thread::scope(|scope| {
        let (send, receive) = std::sync::mpsc::sync_channel::<(usize, Vec<Vec<u8>>)>(1);
        let reader = scope.spawn(|| -> Result<()> {
            let mut streams = files
                .iter()
                .map(|f| {
                    let path = &f.path;
                    let mut file =
                        std::fs::File::open(path).map_err(|e| saved::io(path, "read", e))?;
                    file.seek(std::io::SeekFrom::Start(f.bytes.start))
                        .map_err(|e| saved::io(path, "read", e))?;
                    let stretch = file.take(f.bytes.end - f.bytes.start);
                    Ok(MultiGzDecoder::new(Hashed::new(stretch)))
                })
                .collect::<Result<Vec<_>>>()?;
            for (i, ranks) in chunks.iter().enumerate() {
                let mut piece = Vec::with_capacity(streams.len());
                for (gz, f) in streams.iter_mut().zip(&files) {
                    let mut bytes = vec![0u8; ranks.len() * per_config];
                    gz.read_exact(&mut bytes).map_err(|e| damaged(&f.path, e))?;
                    piece.push(bytes);
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
            each(chunks[i].clone(), &piece);
        }
        reader.join().expect("the reader does not panic")
    })
}

/// The name of rank `rank`'s share of split `j` of layer `k` while the layer is written.
fn shard_file_name(k: usize, j: usize, rank: usize) -> String {
    format!("layer-{k:02}-split-{j:02}.rank-{rank:03}.bin.gz")
}

/// The split files of one layer being written part after part: each a gzip stream whose
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

    /// Where every file is between two members (the part just appended ended at a
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
                let (hashed, members, bytes) = gz.between().expect("checked above");
                hashed.flush().map_err(fail)?;
                hashed.inner.get_ref().sync_all().map_err(fail)?;
                let entry = SplitFile {
                    file: name.clone(),
                    bytes,
                    file_bytes: hashed.bytes,
                    segments: members.to_vec(),
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

/// One split file being written: gzip members, one a segment, over a hashed, buffered file.
type SplitWriter = SegmentWriter<HashedFile>;

/// A file being written, through a buffer, its SHA-256 taken.
type HashedFile = Hashed<std::io::BufWriter<std::fs::File>>;

/// A reader or writer that takes the SHA-256 and the count of the bytes through it.
pub struct Hashed<T> {
    inner: T,
    sha: Sha256,
    bytes: u64,
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
fn hex(sha: Sha256) -> String {
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
