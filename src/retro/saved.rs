//! Saved tables: an exact analysis with every layer kept, written to a directory and read
//! back without solving (`solve --method retro --save DIR`, `analyze --table DIR`,
//! `verify DIR`). The format is in docs/FORMATS.md:
//!
//! - `header.json`: what the values are of (board, walls, precision, the layout's version,
//!   the program's version) and, per layer, each split's file and length; the counts;
//! - `layer-KK-split-JJ.bin.gz`: one split's store as it is in memory (`store.rs`, a byte
//!   per slot in the order of `layout.rs`), gzip-compressed at the fastest level (value
//!   planes are long runs: 5x5 with 4 walls 0.22 bytes a position raw, 0.03 compressed);
//! - `MANIFEST.sha256`: the SHA-256 of every other file, in the form `sha256sum -c` reads.
//!
//! Reading checks every file against the manifest and every length against the layout of
//! the cell's tables before any value is used: a damaged or missing file is named in the
//! error (`Error::Damaged`), never read as values.
//!
//! Writing never mixes two tables: a save goes into a new or empty directory, or replaces
//! a saved table when told to (`Target::replace`), and never deletes files that are not a
//! saved table's. The files are written into a temporary directory beside the destination
//! and renamed onto it when whole. A `table --save` directory holds one saved table per
//! cell, in subdirectories named `WxH-wN`.

use super::ConfigSource;
use super::layout::Layout;
use super::segments::{self, SegmentWriter};
use super::solved::Splits;
use super::{Precision, RetroStats, Solved};
use crate::error::{Error, Result, clip, count};
use crate::rules::geometry::Board;
use crate::support::dir_lock::DirLock;
use flate2::read::MultiGzDecoder;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::ops::Range;
use std::path::{Path, PathBuf};

/// The name and version of the format, first in the header.
const FORMAT: &str = "quoridor-solver exact values 1 (gzip)";
/// The same for a table of outcomes only (the compact analysis, 2 bits a slot).
const FORMAT_OUTCOMES: &str = "quoridor-solver outcomes 1 (gzip)";

/// The word for `precision` in a header and in `progress.json`.
pub fn precision_name(precision: Precision) -> &'static str {
    match precision {
        Precision::Exact => "exact",
        Precision::Compact => "compact",
    }
}

/// The precision a header names: `None` for a word no precision has.
pub fn precision_of(header: &Header) -> Option<Precision> {
    match (header.format.as_str(), header.precision.as_str()) {
        (FORMAT, "exact") => Some(Precision::Exact),
        (FORMAT_OUTCOMES, "compact") => Some(Precision::Compact),
        _ => None,
    }
}
/// The version of the slot order (`layout.rs`); a change there must change it.
pub(super) const LAYOUT_VERSION: u32 = 1;
const HEADER: &str = "header.json";
/// The file that says which layers are written, while a run is on (`spill.rs`).
pub const PROGRESS: &str = "progress.json";
const MANIFEST: &str = "MANIFEST.sha256";

#[derive(Serialize, Deserialize)]
pub struct Header {
    pub format: String,
    pub version: String,
    pub layout_version: u32,
    pub width: usize,
    pub height: usize,
    pub walls: u8,
    pub precision: String,
    pub positions: u64,
    pub p1_wins: u64,
    pub p2_wins: u64,
    pub draws: u64,
    /// Per layer (walls on the board), per split: the file and its bytes.
    pub layers: Vec<Vec<SplitFile>>,
}

#[derive(Clone, Serialize, Deserialize)]
pub struct SplitFile {
    pub file: String,
    /// The store's bytes, uncompressed.
    pub bytes: u64,
    /// The file's bytes (compressed).
    pub file_bytes: u64,
    /// The compressed bytes of each of its gzip members, one a segment (`segments.rs`);
    /// empty in tables written before segments (one member a file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<u64>,
}

pub(super) fn io(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::Io(format!("cannot {what} {}: {e}", path.display()))
}

/// A file of a saved table that cannot be read: damage if it is missing or not text where
/// text is due, else the system's reason (permissions, a disk error).
fn damaged_or_io(path: &Path, e: std::io::Error) -> Error {
    match e.kind() {
        std::io::ErrorKind::NotFound => Error::Damaged(format!("{} is missing", path.display())),
        std::io::ErrorKind::InvalidData => {
            Error::Damaged(format!("{} is damaged: {e}", path.display()))
        }
        _ => io(path, "read", e),
    }
}

pub fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Where to save a table, and whether a saved table already there may be replaced.
#[derive(Clone, Debug)]
pub struct Target {
    pub dir: PathBuf,
    /// Replace a saved table (or a `table --save` directory of them) found at `dir`; files
    /// that are not a saved table's are never replaced.
    pub replace: bool,
    /// Write straight into `dir` layer by layer, going on from the layers an earlier run of
    /// the same cell wrote there (`spill.rs`, `solve --scratch`), rather than into a
    /// temporary directory renamed onto `dir` at the end.
    pub resume: bool,
    /// Solve across these ranks (`retro::across`), each a share of every layer, `dir`
    /// shared by all (with `resume`: they write straight into it).
    pub ranks: Option<super::ranks::SharedRanks>,
}

impl Target {
    /// Takes `dir` for this run before any work is done for it (`dir_lock.rs`): where the
    /// run writes straight into it (`resume`), created if need be, on rank 0 only of an MPI
    /// job; else where a table is there to be replaced. A new table goes through a
    /// temporary directory of this process's own first.
    pub fn take(&self) -> Result<Option<DirLock>> {
        let first_rank = self.ranks.as_ref().is_none_or(|r| r.0.rank() == 0);
        match (self.resume, first_rank) {
            (true, true) => DirLock::create_and_take(&self.dir).map(Some),
            (false, _) if self.dir.is_dir() => DirLock::take(&self.dir).map(Some),
            _ => Ok(None),
        }
    }
}

/// The name of a cell's directory in a `table --save` directory, e.g. `3x3-w1`.
pub fn cell_dir_name(board: Board, walls: u8) -> String {
    format!("{board}-w{walls}")
}

/// The cell a `table --save` subdirectory is named for, if its name is one.
pub fn parse_cell_dir_name(name: &str) -> Option<(Board, u8)> {
    let (board, walls) = name.split_once("-w")?;
    let walls: u8 = walls.parse().ok()?;
    let board = Board::parse(board).ok()?;
    (cell_dir_name(board, walls) == name).then_some((board, walls))
}

/// Whether `name` is the name of one of a saved table's own files, or of the record of an
/// analysis writing one (`spill.rs`).
fn is_table_file(name: &str) -> bool {
    name == HEADER
        || name == MANIFEST
        || name == PROGRESS
        || name == format!("{}.part", PROGRESS)
        || (name.starts_with("layer-") && name.ends_with(".bin.gz"))
}

/// The directory beside `dir` that a save writes into (`part`) or moves the table it
/// replaces to (`old`) before deleting it: `NAME.part-PID`, `NAME.old-PID`.
fn sibling(dir: &Path, what: &str) -> PathBuf {
    let name = dir.file_name().map(|n| n.to_string_lossy().into_owned());
    let name = name.unwrap_or_else(|| "saved".into());
    dir.with_file_name(format!("{name}.{what}-{}", std::process::id()))
}

/// Whether `name` is that of a temporary directory of a save (`sibling`).
fn is_temporary_name(name: &str) -> bool {
    ["part", "old"].iter().any(|what| {
        name.rsplit_once(&format!(".{what}-"))
            .is_some_and(|(_, pid)| !pid.is_empty() && pid.chars().all(|c| c.is_ascii_digit()))
    })
}

/// What a directory holds, as far as saved tables go: enough to decide whether a save may
/// write there, replace it, or what `verify` should check.
#[derive(Debug, Default)]
pub struct Contents {
    /// Files of one saved table directly in the directory (`solve --save`).
    pub table_files: bool,
    /// Subdirectories named for a cell (`WxH-wN`, `table --save`), sorted.
    pub cells: Vec<String>,
    /// Temporary directories of a save that was killed (`NAME.part-PID`, `NAME.old-PID`)
    /// holding only a saved table's files: never a result.
    pub leftovers: Vec<PathBuf>,
    /// The first entry (by name, at any depth) that is not a saved table's: a reason
    /// never to delete the directory.
    pub foreign: Option<String>,
}

impl Contents {
    /// `one` for a single saved table, `many` for the tables of several cells: the words
    /// of a message about them.
    pub fn it_or_them<'a>(&self, one: &'a str, many: &'a str) -> &'a str {
        match !self.table_files && self.cells.len() > 1 {
            true => many,
            false => one,
        }
    }

    pub fn is_empty(&self) -> bool {
        !self.table_files
            && self.cells.is_empty()
            && self.leftovers.is_empty()
            && self.foreign.is_none()
    }
}

/// The names in `dir`, sorted, each with whether it is a directory.
fn entries(dir: &Path) -> Result<Vec<(String, bool)>> {
    let mut names = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| io(dir, "read", e))? {
        let entry = entry.map_err(|e| io(dir, "read", e))?;
        // A symbolic link is not followed: it counts as a file, so it is never a table.
        let is_dir = entry.file_type().map_err(|e| io(dir, "read", e))?.is_dir();
        names.push((entry.file_name().to_string_lossy().into_owned(), is_dir));
    }
    names.sort();
    Ok(names)
}

/// The first entry of `dir` that is not one of a saved table's files, if any.
fn foreign_in_table(dir: &Path) -> Result<Option<String>> {
    Ok(entries(dir)?
        .into_iter()
        .find(|(name, is_dir)| *is_dir || !is_table_file(name))
        .map(|(name, _)| name))
}

/// What `dir` holds; `None` if nothing is there. A path that is not a directory is an
/// error: nothing can be saved or verified there.
pub fn contents(dir: &Path) -> Result<Option<Contents>> {
    // Followed if a link: a link to a directory is that directory.
    match std::fs::metadata(dir) {
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(io(dir, "read", e)),
        Ok(m) if !m.is_dir() => {
            return Err(Error::Argument(format!(
                "{} is not a directory",
                dir.display()
            )));
        }
        Ok(_) => {}
    }
    let mut c = Contents::default();
    for (name, is_dir) in entries(dir)? {
        let foreign_inside = |c: &mut Contents| -> Result<bool> {
            match foreign_in_table(&dir.join(&name))? {
                Some(inner) => {
                    c.foreign.get_or_insert(format!("{name}/{inner}"));
                    Ok(true)
                }
                None => Ok(false),
            }
        };
        if !is_dir && is_table_file(&name) {
            c.table_files = true;
        } else if is_dir && parse_cell_dir_name(&name).is_some() {
            foreign_inside(&mut c)?;
            c.cells.push(name);
        } else if is_dir && is_temporary_name(&name) {
            if !foreign_inside(&mut c)? {
                c.leftovers.push(dir.join(&name));
            }
        } else {
            c.foreign.get_or_insert(name);
        }
    }
    Ok(Some(c))
}

/// A short description of the saved tables in `dir` (`c`), for a message: the cell of
/// one table (read from its header when it can be), or the cells of a `table --save`.
pub fn describe(dir: &Path, c: &Contents) -> String {
    if c.table_files {
        return match header(dir) {
            Ok(h) => format!(
                "a saved table ({}x{} with {})",
                h.width,
                h.height,
                count(h.walls, "wall")
            ),
            Err(_) => "a saved table (its header unreadable)".into(),
        };
    }
    if !c.cells.is_empty() {
        return format!(
            "the {} of {} ({})",
            c.it_or_them("saved table", "saved tables"),
            count(c.cells.len(), "cell"),
            c.cells.join(", ")
        );
    }
    "the remains of an interrupted save".into()
}

/// The refusal of a destination `dir` that holds `foreign`, not a saved table's.
pub fn not_a_table(dir: &Path, foreign: &str) -> Error {
    Error::Argument(format!(
        "{} is not empty and not a saved table (it holds {foreign}); --save writes only into \
         a new or empty directory, or with --force over a saved table",
        dir.display()
    ))
}

/// The refusal of a directory `dir` for the layers of an analysis (`--scratch`) that holds
/// `foreign`.
pub fn not_for_layers(dir: &Path, foreign: &str) -> Error {
    Error::Argument(format!(
        "{} is not empty and holds neither layers of an analysis nor a saved table (it holds \
         {foreign}): the layers go into a new or empty directory, or one of this cell's \
         layers, taken up where they stopped",
        dir.display()
    ))
}

/// Refuses `to` before any work is done for it, unless a save may write there: `to.dir`
/// does not exist or is empty, or holds saved tables and `to.replace` is set. Files that
/// are not a saved table's are never replaced, even with `replace`: deleting what this
/// program did not write is not its to do. Then makes sure the temporary directory beside
/// it can be created, so that a full analysis is not lost to a directory that cannot be
/// written at the end.
pub fn check_destination(to: &Target) -> Result<()> {
    if let Some(c) = contents(&to.dir)? {
        if let Some(foreign) = &c.foreign {
            return Err(match to.resume {
                true => not_for_layers(&to.dir, foreign),
                false => not_a_table(&to.dir, foreign),
            });
        }
        if to.resume {
            // One cell's layers or table is taken up (the cell is checked when the run
            // opens it: `Spill::open`); a `table --save` directory is not one cell's.
            if !c.cells.is_empty() {
                return Err(Error::Argument(format!(
                    "{} holds {}, not one cell's layers",
                    to.dir.display(),
                    describe(&to.dir, &c)
                )));
            }
            return Ok(());
        }
        if !c.is_empty() && !to.replace {
            return Err(Error::Argument(format!(
                "{} already holds {}; --force replaces {}",
                to.dir.display(),
                describe(&to.dir, &c),
                c.it_or_them("it", "them")
            )));
        }
    }
    // The directory written: the temporary one beside `dir`, or `dir` itself.
    let part = match to.resume {
        true => to.dir.clone(),
        false => sibling(&to.dir, "part"),
    };
    if !part.exists() {
        create_fresh(&part)?;
        std::fs::remove_dir(&part).map_err(|e| io(&part, "remove", e))?;
    }
    Ok(())
}

/// Creates `dir` empty (its parents if need be), first removing one left by a killed
/// process with this process's id.
fn create_fresh(dir: &Path) -> Result<()> {
    if dir.exists() {
        std::fs::remove_dir_all(dir).map_err(|e| io(dir, "remove", e))?;
    }
    if let Some(parent) = dir.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).map_err(|e| io(parent, "create", e))?;
    }
    std::fs::create_dir(dir).map_err(|e| io(dir, "create", e))
}

/// A directory removed when dropped unless kept: the temporary table of a save that
/// failed (an error, or a panic unwinding) never stays behind.
struct Scratch<'a>(Option<&'a Path>);

impl Scratch<'_> {
    /// The directory is no longer scratch (it was renamed into place).
    fn keep(mut self) {
        self.0 = None;
    }
}

impl Drop for Scratch<'_> {
    fn drop(&mut self) {
        if let Some(dir) = self.0 {
            let _ = std::fs::remove_dir_all(dir);
        }
    }
}

/// Writes `bytes` to `path` and syncs them, so that the rename that publishes the table
/// comes after its contents are on disk.
fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = std::fs::File::create(path).map_err(|e| io(path, "write", e))?;
    f.write_all(bytes).map_err(|e| io(path, "write", e))?;
    f.sync_all().map_err(|e| io(path, "write", e))
}

/// Writes `solved` (exact, every layer kept) into the new or empty directory `dir`;
/// returns the bytes written. `save_to` says what happens when `dir` holds a table.
pub fn save(solved: &Solved, dir: &Path) -> Result<u64> {
    save_to(
        solved,
        &Target {
            dir: dir.to_path_buf(),
            replace: false,
            resume: false,
            ranks: None,
        },
    )
}

/// Writes `solved` (exact, every layer kept) as a saved table at `to.dir`; returns the
/// bytes written. The files go into a temporary directory beside it (`NAME.part-PID`,
/// the manifest last), which is renamed onto `to.dir` only when whole: a failure removes
/// it, and a killed process leaves it under its temporary name, never a part of a table
/// under the final one. A table replaced (`to.replace`) is moved aside and deleted only
/// once the new one is in place.
pub fn save_to(solved: &Solved, to: &Target) -> Result<u64> {
    if solved.precision != Precision::Exact || !solved.keeps_all_layers() {
        return Err(Error::Argument(
            "only an exact analysis that keeps every layer can be saved (--precision exact, \
             and a memory budget that holds every layer)"
                .into(),
        ));
    }
    through_temporary(to, |part| write_files(solved, part))
}

/// Writes a table at `to.dir` by `write` into a temporary directory beside it, renamed
/// onto `to.dir` when whole: a failure removes the temporary directory, and a killed
/// process leaves it under its temporary name, never part of a table under the final one.
pub(super) fn through_temporary<T>(
    to: &Target,
    write: impl FnOnce(&Path) -> Result<T>,
) -> Result<T> {
    // A link to a directory stays a link: the table is renamed onto where it leads.
    let to = &Target {
        dir: crate::support::output_file::resolved(&to.dir),
        ..to.clone()
    };
    check_destination(to)?;
    let part = sibling(&to.dir, "part");
    create_fresh(&part)?;
    let scratch = Scratch(Some(&part));
    let done = write(&part)?;
    install(&part, &to.dir)?;
    scratch.keep();
    Ok(done)
}

/// Renames the whole table `part` onto `dir`, moving what `dir` held aside first and
/// deleting it last (checked by `check_destination`: nothing, or saved tables).
fn install(part: &Path, dir: &Path) -> Result<()> {
    if !dir.exists() {
        return std::fs::rename(part, dir).map_err(|e| io(dir, "create", e));
    }
    let old = sibling(dir, "old");
    if old.exists() {
        std::fs::remove_dir_all(&old).map_err(|e| io(&old, "remove", e))?;
    }
    std::fs::rename(dir, &old).map_err(|e| io(dir, "move aside", e))?;
    if let Err(e) = std::fs::rename(part, dir) {
        // Put the old table back rather than leave nothing under its name.
        let _ = std::fs::rename(&old, dir);
        return Err(io(dir, "create", e));
    }
    std::fs::remove_dir_all(&old).map_err(|e| io(&old, "remove", e))
}

/// The table's files in `dir`: every split, the header, the manifest last.
fn write_files(solved: &Solved, dir: &Path) -> Result<u64> {
    let mut shas = Vec::new();
    let mut layers = Vec::new();
    let per_byte = solved.precision.per_byte() as usize;
    for (k, splits) in solved.values.iter().enumerate() {
        let lengths = segment_lengths(&solved.layout, k, per_byte);
        // Compressing is the work; the splits of a layer compress in parallel.
        let written: Vec<(SplitFile, String)> = splits
            .par_iter()
            .enumerate()
            .map(|(j, store)| {
                let store = store.as_ref().expect("every layer is kept");
                write_split(dir, (k, j), store, &lengths)
            })
            .collect::<Result<_>>()?;
        let (files, sha): (Vec<SplitFile>, Vec<String>) = written.into_iter().unzip();
        shas.extend(files.iter().map(|f| f.file.clone()).zip(sha));
        layers.push(files);
    }
    write_header_and_manifest(
        dir,
        solved.configs,
        (Precision::Exact, solved.stats),
        layers,
        &shas,
    )
}

/// Writes split `j` of layer `k` into `dir`, gzip-compressed at the fastest level and
/// synced; returns its entry of the header and its SHA-256.
pub(super) fn write_split(
    dir: &Path,
    (k, j): (usize, usize),
    store: &[u8],
    lengths: &[usize],
) -> Result<(SplitFile, String)> {
    let mut gz = SegmentWriter::new(Vec::new(), lengths);
    // In memory, and the segments are the split's own: nothing can fail.
    gz.write_all(store).expect("the segments hold the split");
    let (gz, segments, _) = gz.finish().expect("the split fills its segments");
    let file = split_file_name(k, j);
    write_synced(&dir.join(&file), &gz)?;
    let entry = SplitFile {
        file,
        bytes: store.len() as u64,
        file_bytes: gz.len() as u64,
        segments,
    };
    Ok((entry, sha256_hex(&gz)))
}

/// The bytes of each segment of a split of layer `k` at `per_byte` slots a byte.
pub(super) fn segment_lengths(layout: &Layout, k: usize, per_byte: usize) -> Vec<usize> {
    let per_config = layout.stored_len() / per_byte;
    segments::lengths(&segments::cut(layout, k, per_byte), per_config)
}

/// The name of the file of split `j` of layer `k`.
pub(super) fn split_file_name(k: usize, j: usize) -> String {
    format!("layer-{k:02}-split-{j:02}.bin.gz")
}

/// The header (of the splits in `layers`, with the cell's counts `stats`) and the manifest
/// (`shas`: each split file's SHA-256), written last: they make `dir` a saved table.
/// Returns the bytes of the table's files.
pub(super) fn write_header_and_manifest(
    dir: &Path,
    configs: &dyn ConfigSource,
    (precision, stats): (Precision, RetroStats),
    layers: Vec<Vec<SplitFile>>,
    shas: &[(String, String)],
) -> Result<u64> {
    let board = configs.board();
    let written: u64 = layers.iter().flatten().map(|f| f.file_bytes).sum();
    let header = Header {
        format: match precision {
            Precision::Exact => FORMAT,
            Precision::Compact => FORMAT_OUTCOMES,
        }
        .into(),
        version: env!("CARGO_PKG_VERSION").into(),
        layout_version: LAYOUT_VERSION,
        width: board.width(),
        height: board.height(),
        walls: configs.walls_per_player(),
        precision: precision_name(precision).into(),
        positions: stats.positions,
        p1_wins: stats.p1_wins,
        p2_wins: stats.p2_wins,
        draws: stats.draws,
        layers,
    };
    let json = serde_json::to_string_pretty(&header).expect("serializable") + "\n";
    write_synced(&dir.join(HEADER), json.as_bytes())?;
    let mut manifest: String = shas
        .iter()
        .map(|(file, sha)| format!("{sha}  {file}\n"))
        .collect();
    manifest.push_str(&format!("{}  {HEADER}\n", sha256_hex(json.as_bytes())));
    write_synced(&dir.join(MANIFEST), manifest.as_bytes())?;
    Ok(written + json.len() as u64)
}

/// Replaces `dir/name` with `bytes` whole: written aside, synced, renamed over it, and the
/// rename synced, so that a crash leaves the old file or the new one.
pub(super) fn replace_synced(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let part = dir.join(format!("{name}.part"));
    write_synced(&part, bytes)?;
    let path = dir.join(name);
    std::fs::rename(&part, &path).map_err(|e| io(&path, "write", e))?;
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io(dir, "sync", e))
}

/// The bytes of the files of the saved table in `dir`.
pub(super) fn table_bytes(dir: &Path) -> Result<u64> {
    let mut bytes = 0;
    for (name, is_dir) in entries(dir)? {
        if !is_dir && is_table_file(&name) {
            let path = dir.join(name);
            bytes += std::fs::metadata(&path)
                .map_err(|e| io(&path, "read", e))?
                .len();
        }
    }
    Ok(bytes)
}

/// Removes what a `table --save` run found in `dir` and did not write: the files of a
/// single saved table directly in it, and every cell directory not in `keep`. Only a saved
/// table's files are removed (`contents`): anything else stays, and is named.
pub fn remove_tables_except(dir: &Path, keep: &[String]) -> Result<()> {
    let Some(c) = contents(dir)? else {
        return Ok(());
    };
    if let Some(foreign) = &c.foreign {
        return Err(Error::Io(format!(
            "{} now holds {foreign}, which is not a saved table's: the old tables there were \
             not removed",
            dir.display()
        )));
    }
    if c.table_files {
        for (name, _) in entries(dir)? {
            if is_table_file(&name) {
                let path = dir.join(name);
                std::fs::remove_file(&path).map_err(|e| io(&path, "remove", e))?;
            }
        }
    }
    for cell in c.cells.iter().filter(|c| !keep.contains(c)) {
        let path = dir.join(cell);
        std::fs::remove_dir_all(&path).map_err(|e| io(&path, "remove", e))?;
    }
    remove_leftovers(&c);
    Ok(())
}

/// Removes the temporary directories of killed saves found by `contents`: never results.
pub fn remove_leftovers(c: &Contents) {
    for path in &c.leftovers {
        let _ = std::fs::remove_dir_all(path);
    }
}

/// The manifest of `dir`: each file's expected SHA-256.
pub(super) fn manifest(dir: &Path) -> Result<Vec<(String, String)>> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => no_manifest(dir),
        _ => damaged_or_io(&path, e),
    })?;
    text.lines()
        .map(|line| {
            line.split_once("  ")
                .filter(|(hash, file)| hash.len() == 64 && !file.contains('/'))
                .map(|(hash, file)| (file.to_string(), hash.to_string()))
                .ok_or_else(|| {
                    Error::Damaged(format!(
                        "{}: not a SHA-256 manifest line: {line}",
                        path.display()
                    ))
                })
        })
        .collect()
}

/// Why `dir` has no manifest, in words: it is not there, it holds an analysis still going
/// on, a table whose manifest (written last) is missing, or nothing of a table.
fn no_manifest(dir: &Path) -> Error {
    let d = dir.display();
    if !dir.exists() {
        return Error::Argument(format!("{d} does not exist"));
    }
    if dir.join(PROGRESS).exists() {
        return Error::Argument(format!(
            "{d} holds an analysis in progress, not a finished table (its progress.json lists \
             the layers written so far): run the command that wrote it again to finish it"
        ));
    }
    if dir.join(HEADER).exists() {
        return Error::Damaged(format!(
            "{d} is not a whole table: its {MANIFEST}, written last, is missing (the run that \
             wrote it was stopped before the end, or the file was removed)"
        ));
    }
    Error::Argument(format!("{d} holds no saved table (no {MANIFEST})"))
}

/// The SHA-256 the manifest gives `file` of `dir`.
pub(super) fn expected_sha(
    dir: &Path,
    manifest: &[(String, String)],
    file: &str,
) -> Result<String> {
    manifest
        .iter()
        .find(|(f, _)| f == file)
        .map(|(_, h)| h.clone())
        .ok_or_else(|| {
            Error::Damaged(format!(
                "{} is not in the manifest",
                dir.join(file).display()
            ))
        })
}

/// The contents of `path`, which must have the SHA-256 `expected`.
pub(super) fn read_with_sha(path: &Path, expected: &str) -> Result<Vec<u8>> {
    let bytes = std::fs::read(path).map_err(|e| damaged_or_io(path, e))?;
    if sha256_hex(&bytes) != expected {
        return Err(Error::Damaged(format!(
            "{} is damaged: its SHA-256 differs from the manifest's",
            path.display()
        )));
    }
    Ok(bytes)
}

/// The contents of `file` in `dir`, checked against the manifest.
fn read_checked(dir: &Path, manifest: &[(String, String)], file: &str) -> Result<Vec<u8>> {
    read_with_sha(&dir.join(file), &expected_sha(dir, manifest, file)?)
}

/// A split's store from its file's bytes `gz` (read from `path`), which must inflate to
/// `len` bytes, the layout's length of the split.
pub(super) fn inflate(path: &Path, gz: &[u8], len: usize) -> Result<Vec<u8>> {
    let mut store = Vec::with_capacity(len);
    MultiGzDecoder::new(gz)
        .read_to_end(&mut store)
        .map_err(|e| Error::Damaged(format!("{}: {e}", path.display())))?;
    if store.len() != len {
        return Err(Error::Damaged(format!(
            "{} has {} bytes, its layer needs {len}",
            path.display(),
            store.len()
        )));
    }
    Ok(store)
}

/// The header of the saved table in `dir`, checked against the manifest.
pub fn header(dir: &Path) -> Result<Header> {
    let manifest = manifest(dir)?;
    let bytes = read_checked(dir, &manifest, HEADER)?;
    let header: Header = serde_json::from_slice(&bytes)
        .map_err(|e| Error::Damaged(format!("{}: {e}", dir.join(HEADER).display())))?;
    let known = [FORMAT, FORMAT_OUTCOMES].contains(&header.format.as_str());
    if known && precision_of(&header).is_none() {
        return Err(Error::Damaged(format!(
            "{}: precision \"{}\" with format \"{}\" (a table of values is exact, one of \
             outcomes compact)",
            dir.join(HEADER).display(),
            clip(&header.precision),
            header.format
        )));
    }
    // A line for a file the table does not have would pass every check of the files it has.
    let files: Vec<&str> = header
        .layers
        .iter()
        .flatten()
        .map(|f| f.file.as_str())
        .collect();
    if let Some((extra, _)) = manifest
        .iter()
        .find(|(f, _)| f != HEADER && !files.contains(&f.as_str()))
    {
        return Err(Error::Damaged(format!(
            "{} lists {extra}, which is not a file of the table its header describes",
            dir.join(MANIFEST).display()
        )));
    }
    if precision_of(&header).is_none() || header.layout_version != LAYOUT_VERSION {
        return Err(Error::Damaged(format!(
            "{}: format \"{}\" (layout {}), this program reads \"{FORMAT}\" and \
             \"{FORMAT_OUTCOMES}\" (layout {LAYOUT_VERSION})",
            dir.join(HEADER).display(),
            header.format,
            header.layout_version
        )));
    }
    Ok(header)
}

/// The header and the manifest of the saved table in `dir`, checked against the cell of
/// `configs` laid out by `layout`: the same cell, and as many layers and splits.
pub(super) fn checked_header(
    configs: &dyn ConfigSource,
    dir: &Path,
    layout: &Layout,
) -> Result<(Header, Vec<(String, String)>)> {
    let manifest = manifest(dir)?;
    let header = header(dir)?;
    let board = configs.board();
    let n = configs.walls_per_player();
    if (header.width, header.height, header.walls) != (board.width(), board.height(), n) {
        return Err(Error::Argument(format!(
            "{} holds {}x{} with {}, not {board} with {}",
            dir.display(),
            header.width,
            header.height,
            count(header.walls, "wall"),
            count(n, "wall")
        )));
    }
    let shape_error =
        |what: String| Error::Damaged(format!("{}: {what}", dir.join(HEADER).display()));
    if header.layers.len() != layout.layers() {
        return Err(shape_error(format!(
            "{} layers, the cell has {}",
            header.layers.len(),
            layout.layers()
        )));
    }
    for (k, files) in header.layers.iter().enumerate() {
        if files.len() != layout.splits(k) {
            return Err(shape_error(format!(
                "layer {k} has {} splits, the cell {}",
                files.len(),
                layout.splits(k)
            )));
        }
    }
    Ok((header, manifest))
}

/// Reads the saved table in `dir` for the cell of `tables` (which must be the header's),
/// checking every file read against the manifest and its length against the layout. Only
/// the layers in `layers` are read (a position and its moves need its layer and the next):
/// the others stay unread, and the values there unknown to the result.
pub fn load<'t>(
    configs: &'t dyn ConfigSource,
    dir: &Path,
    layers: Range<usize>,
) -> Result<Solved<'t>> {
    let layout = Layout::new(configs);
    let (header, manifest) = checked_header(configs, dir, &layout)?;
    if precision_of(&header) != Some(Precision::Exact) {
        return Err(Error::Argument(format!(
            "{} holds outcomes only (a compact analysis: no remoteness), which `verify` \
             checks; `analyze` and `play` read an exact table",
            dir.display()
        )));
    }
    // Every file asked for, with the bytes its store must have.
    let mut wanted = Vec::new();
    for (k, files) in header.layers.iter().enumerate() {
        if layers.contains(&k) {
            let len = super::store::bytes_for::<super::store::Exact>(layout.split_len(k));
            wanted.extend(files.iter().map(|f| (f, len)));
        }
    }
    // Decompressing is the work (5x5 with 4 walls: 500 MB from 125 MB). Every file at
    // once rather than a layer at a time: one layer's files differ in size by far, and
    // the cores would wait for a layer's largest.
    let stores = wanted
        .par_iter()
        .map(|&(f, len)| {
            let gz = read_checked(dir, &manifest, &f.file)?;
            inflate(&dir.join(&f.file), &gz, len)
        })
        .collect::<Result<Vec<_>>>()?;
    let bytes = stores.iter().map(|s| s.len() as u64).sum::<u64>();
    let mut values: Vec<Splits> = header
        .layers
        .iter()
        .map(|files| vec![None; files.len()])
        .collect();
    let mut stores = stores.into_iter();
    for (k, splits) in values.iter_mut().enumerate() {
        if layers.contains(&k) {
            for split in splits.iter_mut() {
                *split = stores.next();
            }
        }
    }
    Ok(Solved {
        configs,
        peak_bytes: bytes + layout.bytes(),
        layout,
        precision: Precision::Exact,
        values,
        stats: RetroStats {
            positions: header.positions,
            p1_wins: header.p1_wins,
            p2_wins: header.p2_wins,
            draws: header.draws,
        },
    })
}

/// The saved tables in `dir`: the one table it holds (`solve --save`), or one per cell
/// directory (`table --save`, `WxH-wN`), each with its cell read from its header. A
/// directory that holds neither, or files that are not a saved table's, is refused.
pub fn tables_in(dir: &Path) -> Result<Vec<(PathBuf, Board, u8)>> {
    let c = contents(dir)?
        .ok_or_else(|| Error::Argument(format!("{} does not exist", dir.display())))?;
    if let Some(foreign) = &c.foreign {
        return Err(Error::Argument(format!(
            "{} holds {foreign}, which is not a saved table's: give a directory written by \
             `solve --method retro --save` or `table --save`",
            dir.display()
        )));
    }
    let dirs: Vec<PathBuf> = match c.table_files {
        true => vec![dir.to_path_buf()],
        false => c.cells.iter().map(|name| dir.join(name)).collect(),
    };
    if dirs.is_empty() {
        return Err(Error::Argument(format!(
            "{} holds no saved table",
            dir.display()
        )));
    }
    dirs.into_iter()
        .map(|d| {
            let h = header(&d)?;
            let board = Board::new(h.width, h.height)
                .map_err(|e| Error::Damaged(format!("{}: {e}", d.join(HEADER).display())))?;
            Ok((d, board, h.walls))
        })
        .collect()
}
