//! Layers through a directory: the exact analysis writes each layer to disk as soon as it
//! is solved, so that a run that is killed goes on from the last layer written, and the
//! finished directory is a saved table (`saved.rs`: the same split files, header and
//! manifest) that `analyze --table` and `verify` read. The analysis itself still holds at
//! most two layers in memory (`retro/mod.rs`); what the directory adds is that nothing solved is
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
//!
//! For a search's bound only (`Target::bound_only`, `keep_only`) the layers above those
//! read back are deleted once the layer below them is written, marked `discarded` in
//! `progress.json` first; the directory then stays a record of a run, never a table.

use super::codec::Effort;
use super::saved::{self, SplitFile};
use super::saved_dir;
use crate::error::{Clash, Error, Occupied, Result, count};
use crate::retro::engine::layout::Layout;
use crate::retro::engine::solved::Splits;
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::Packing;
use crate::retro::engine::store::Precision;
use crate::retro::engine::value::RetroStats;
use crate::support::dir_lock::DirLock;
use crate::support::progress::Progress;
use rayon::prelude::*;
use std::path::{Path, PathBuf};

use super::record::{FORMAT, FORMAT_GZIP, Partial, ProgressFile, Written, exact};
pub use super::saved::PROGRESS;
/// Whether `dir` holds layers an earlier analysis wrote: a run's record of them, or the
/// finished table's files (whose cell, precision and files `Spill::open` checks).
pub fn holds_layers(dir: &Path) -> bool {
    dir.join(PROGRESS).exists() || matches!(saved_dir::contents(dir), Ok(Some(c)) if c.table_files)
}

/// A directory the analysis of one cell writes its layers into.
pub struct Spill {
    pub(in crate::retro) dir: PathBuf,
    pub(in crate::retro) progress: ProgressFile,
    /// The counts of the whole cell, when the directory already held the finished table.
    finished: Option<RetroStats>,
    /// The directory held for this run (`None` on the ranks of an MPI job but rank 0).
    _taken: Option<DirLock>,
    /// Whether the layers read back only are kept on disk (`Target::bound_only`), from
    /// `keep_only`'s on: the others are deleted once the layer below them is written.
    pub(super) bound_only: bool,
    discard_from: Option<usize>,
    /// How hard the layer being written is compressed (`check_room` chooses).
    pub(super) effort: Effort,
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
            bound_only: false,
            discard_from: None,
            effort: Effort::Fast,
        };
        let Some(found) = saved_dir::contents(dir)? else {
            std::fs::create_dir_all(dir).map_err(|e| saved::io(dir, "create", e))?;
            return Ok(spill);
        };
        if let Some(foreign) = &found.foreign {
            return Err(saved_dir::not_for_layers(dir, foreign));
        }
        if !found.cells.is_empty() {
            return Err(Error::Occupied {
                dir: dir.to_path_buf(),
                holds: saved_dir::describe(dir, &found),
                what: Occupied::NotOneCell,
            });
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
        (ranks, progress): (&dyn crate::retro::engine::ranks::Ranks, &dyn Progress),
    ) -> Result<Spill> {
        use crate::retro::engine::ranks::all_gather;
        let first = (ranks.rank() == 0).then(|| Spill::open(dir, configs, precision, progress));
        let first_ok = first.as_ref().is_none_or(Result::is_ok) as u8;
        if all_gather(ranks, &[first_ok])[0] != [1] {
            return first.unwrap_or_else(|| {
                Err(Error::PeerTakeUp {
                    rank: 0,
                    dir: dir.to_path_buf(),
                })
            });
        }
        let mine = first.unwrap_or_else(|| Spill::open_shared(dir, configs, precision, progress));
        let all = all_gather(ranks, &[mine.is_ok() as u8]);
        match all.iter().position(|ok| ok != &[1]) {
            Some(r) if mine.is_ok() => Err(Error::PeerTakeUp {
                rank: r,
                dir: dir.to_path_buf(),
            }),
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
        let known = [FORMAT, FORMAT_GZIP].contains(&found.format.as_str());
        if !known || found.layout_version != mine.layout_version {
            return Err(Error::Damaged(format!(
                "{}: \"{}\" (layout {}), not what this program writes; delete the directory \
                 to start again{}",
                path.display(),
                found.format,
                found.layout_version,
                saved::older_layout(found.layout_version)
            )));
        }
        let cell = (found.width, found.height, found.walls);
        self.refuse_other_cell("the analysis", cell, found.layers.len())?;
        self.refuse_other_precision("the analysis", &found.precision)?;
        // From the top down, while the layers are written and whole.
        for k in (0..found.layers.len()).rev() {
            let Some(layer) = &found.layers[k] else { break };
            let whole = |l: &Written| if l.discarded { Ok(()) } else { self.check(l) };
            if let Err(e) = layer.sealed().and_then(|()| whole(layer)) {
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
            let next = match (from, self.first_discarded()) {
                (0, Some(d)) => format!(
                    "the analysis is whole (layers {d} and above deleted once used, as asked)"
                ),
                (0, None) => "the table is finished from them".to_string(),
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
        let cell_text =
            |(w, h, n): (usize, usize, u8)| format!("{w}x{h} with {}", count(n, "wall"));
        Err(Error::OtherCell {
            dir: self.dir.clone(),
            holds: Some(what.to_string()),
            held: cell_text(cell),
            asked: cell_text((mine.width, mine.height, mine.walls)),
        })
    }

    /// Refuses what the directory holds (`what`) when it is of another precision.
    fn refuse_other_precision(&self, what: &str, precision: &str) -> Result<()> {
        let mine = &self.progress.precision;
        if precision == mine {
            return Ok(());
        }
        Err(Error::Options(Clash::OtherPrecision {
            dir: self.dir.clone(),
            holds: what.to_string(),
            held: precision.to_string(),
            asked: mine.to_string(),
        }))
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

    /// Keeps on disk only layers `0..kept` where the target asked for it
    /// (`Target::bound_only`): the layers above them an earlier run left that no layer
    /// left to solve reads are deleted now, and from now on each layer above them once the
    /// layer below it is written (it is read no more), so that the disk holds the two
    /// layers being solved and those kept, not the whole analysis. A finished table is
    /// left whole.
    pub(in crate::retro) fn keep_only(
        &mut self,
        kept: usize,
        progress: &dyn Progress,
    ) -> Result<()> {
        if !self.bound_only || self.finished.is_some() {
            return Ok(());
        }
        self.discard_from = Some(kept);
        match self.written_from() {
            from if from < self.progress.layers.len() => self.discard_above(from, progress),
            _ => Ok(()),
        }
    }

    /// Asks `keep_only` of this directory's analysis (`Target::bound_only`).
    pub(in crate::retro) fn set_bound_only(&mut self, bound_only: bool) {
        self.bound_only = bound_only;
    }

    /// The lowest layer whose files an earlier run or this one deleted (`keep_only`), if
    /// any: only the layers below it can be read back.
    pub fn first_discarded(&self) -> Option<usize> {
        let layers = &self.progress.layers;
        (0..layers.len()).find(|&k| layers[k].as_ref().is_some_and(|w| w.discarded))
    }

    /// Of layers `0..kept`, those that can be read back: the layers below the first one
    /// deleted once used (`keep_only`), by this run or an earlier one.
    pub fn readable(&self, kept: usize) -> usize {
        kept.min(self.first_discarded().unwrap_or(usize::MAX))
    }

    /// Deletes the files of the layers above `k` that `keep_only` leaves out, now that
    /// layer `k` is written: each is marked discarded in `progress.json` first, so that a
    /// run killed in between finds a layer recorded as gone, never one with missing files.
    fn discard_above(&mut self, k: usize, progress: &dyn Progress) -> Result<()> {
        let Some(from) = self.discard_from else {
            return Ok(());
        };
        let gone: Vec<usize> = (from.max(k + 1)..self.progress.layers.len())
            .filter(|&j| {
                self.progress.layers[j]
                    .as_ref()
                    .is_some_and(|w| !w.discarded)
            })
            .collect();
        if gone.is_empty() {
            return Ok(());
        }
        for &j in &gone {
            self.progress.layers[j].as_mut().expect("written").discard();
        }
        self.save_progress()?;
        for &j in &gone {
            let layer = self.progress.layers[j].as_ref().expect("written");
            for f in &layer.files {
                let path = self.dir.join(&f.file);
                match std::fs::remove_file(&path) {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        progress.warn(&format!("could not delete {}: {e}", path.display()))
                    }
                    _ => {}
                }
            }
            progress.message(&format!(
                "layer {j} deleted from {}: read no more (only the {} below layer {from} are \
                 kept)",
                self.dir.display(),
                count(from, "layer")
            ));
        }
        Ok(())
    }

    /// The stores of written layer `k`, read back and checked against their SHA-256 and
    /// the layout's lengths.
    pub fn read_layer<P: Packing>(&self, k: usize, layout: &Layout) -> Result<Splits> {
        let layer = self.progress.layers[k]
            .as_ref()
            .expect("only layers written are read back");
        if layer.discarded {
            return Err(Error::Argument(format!(
                "layer {k} of the analysis in {} was deleted once used (only the layers below \
                 it are kept there): solve it again in a new directory to read it",
                self.dir.display()
            )));
        }
        let len = crate::retro::engine::store::bytes_for::<P>(layout.split_len(k));
        layer
            .files
            .par_iter()
            .zip(&layer.sha256)
            .map(|(f, sha)| saved::inflate_file(&self.dir.join(&f.file), sha, len).map(Some))
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
    pub(in crate::retro) fn record_layer(
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
        self.discard_above(k, progress)
    }

    /// Writes `progress.json`, replaced whole.
    fn save_progress(&self) -> Result<()> {
        let json = serde_json::to_string_pretty(&self.progress).expect("serializable") + "\n";
        saved::replace_synced(&self.dir, PROGRESS, json.as_bytes())
    }

    /// Records that layer `k`'s stored configurations `0..done`, of counts `stats`, are in
    /// its files as `checkpoint` found them (each file synced at a segment's end).
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

    /// Written layer `k`.
    pub(in crate::retro) fn written(&self, k: usize) -> &Written {
        self.progress.layers[k]
            .as_ref()
            .expect("only layers written are read back")
    }

    /// Every layer is written: the header and the manifest make the directory a saved
    /// table, and `progress.json` goes. Returns the bytes of the table's files.
    /// With layers deleted (`keep_only`) the directory is no table: `progress.json` stays,
    /// every layer recorded, and a later run reads the kept layers back from it.
    pub fn finish(self, configs: &dyn ConfigSource, stats: RetroStats) -> Result<u64> {
        if self.finished.is_some() {
            return saved_dir::table_bytes(&self.dir);
        }
        if self.first_discarded().is_some() {
            let kept = self
                .progress
                .layers
                .iter()
                .flatten()
                .filter(|w| !w.discarded);
            return Ok(kept.flat_map(|w| &w.files).map(|f| f.file_bytes).sum());
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
