//! Saved tables: an exact analysis with every layer kept, written to a directory and read
//! back without solving (`solve --method retro --save DIR`, `analyze --table DIR`,
//! `verify DIR`). The format is in docs/FORMATS.md:
//!
//! - `header.json`: what the values are of (board, walls, precision, the layout's version,
//!   the program's version) and, per layer, each split's file and length; the counts;
//! - `layer-KK-split-JJ.bin.zst`: one split's store as it is in memory (`store.rs`, a byte
//!   per slot in the order of `layout.rs`), zstd-compressed at level 1 (value planes are
//!   long runs: 5x5 with 4 walls 0.22 bytes a position raw, 0.03 compressed); `.bin.gz`,
//!   gzip, in tables written before 2026-11-30 (`codec.rs`);
//! - `MANIFEST.sha256`: the SHA-256 of every other file, in the form `sha256sum -c` reads.
//!
//! Reading checks every file against the manifest and every length against the layout of
//! the cell's tables before any value is used: a damaged or missing file is named in the
//! error (`Error::Damaged`), never read as values.
//!
//! Where a saved table may be written, and what a directory holds: `saved_dir.rs`.

use super::codec::Codec;
use super::hashed::{Hashed, hex};
use super::segments::{self, SegmentWriter};
use crate::error::{Error, Result, clip, count};
use crate::retro::engine::layout::Layout;
use crate::retro::engine::solved::Solved;
use crate::retro::engine::solved::Splits;
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::Precision;
use crate::retro::engine::value::RetroStats;
use crate::rules::cell::Cell;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::ops::Range;
use std::path::Path;

/// The name and version of the format, first in the header. Version 2 (2026-11-30): each
/// split file compressed as its name says (`codec.rs`: zstd written, gzip still read), so
/// that a binary of version 1, which reads gzip alone, refuses the table in words.
const FORMAT: &str = "quoridor-solver exact values 2";
/// The same for a table of outcomes only (the compact analysis, 2 bits a slot).
const FORMAT_OUTCOMES: &str = "quoridor-solver outcomes 2";
/// Version 1 of both: every split file gzip (tables written before 2026-11-30).
const FORMAT_GZIP: &str = "quoridor-solver exact values 1 (gzip)";
const FORMAT_OUTCOMES_GZIP: &str = "quoridor-solver outcomes 1 (gzip)";

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
        (FORMAT | FORMAT_GZIP, "exact") => Some(Precision::Exact),
        (FORMAT_OUTCOMES | FORMAT_OUTCOMES_GZIP, "compact") => Some(Precision::Compact),
        _ => None,
    }
}
/// What to do with files of an older layout version: they are not damaged, only numbered
/// otherwise (empty for any other version).
pub(in crate::retro) fn older_layout(version: u32) -> &'static str {
    if version == 1 {
        "; layout 1 was written before 2026-11-28 (commit 3345ae9), when configurations were \
         numbered otherwise: a binary built from an earlier commit reads it"
    } else {
        ""
    }
}

pub(in crate::retro) use crate::retro::engine::layout::LAYOUT_VERSION;
pub(in crate::retro) const HEADER: &str = "header.json";
/// The file that says which layers are written, while a run is on (`spill.rs`).
pub const PROGRESS: &str = "progress.json";
pub(in crate::retro) const MANIFEST: &str = "MANIFEST.sha256";

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
    /// The compressed bytes of each of its frames (gzip members), one a segment
    /// (`segments.rs`); empty in tables written before segments (one gzip member a file).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub segments: Vec<u64>,
}

pub(in crate::retro) fn io(path: &Path, what: &str, e: std::io::Error) -> Error {
    Error::io(what, path, e)
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

/// Writes `bytes` to `path` and syncs them, so that the rename that publishes the table
/// comes after its contents are on disk.
fn write_synced(path: &Path, bytes: &[u8]) -> Result<()> {
    let mut f = std::fs::File::create(path).map_err(|e| io(path, "write", e))?;
    f.write_all(bytes).map_err(|e| io(path, "write", e))?;
    f.sync_all().map_err(|e| io(path, "write", e))
}

/// The table's files in `dir`: every split, the header, the manifest last.
pub(in crate::retro) fn write_files(solved: &Solved, dir: &Path) -> Result<u64> {
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

/// Writes split `j` of layer `k` into `dir`, compressed (`Codec::NEW`) and
/// synced; returns its entry of the header and its SHA-256.
pub(in crate::retro) fn write_split(
    dir: &Path,
    (k, j): (usize, usize),
    store: &[u8],
    lengths: &[usize],
) -> Result<(SplitFile, String)> {
    let mut gz = SegmentWriter::new(Vec::new(), lengths, Codec::NEW);
    // In memory, and the segments are the split's own: nothing can fail.
    gz.write_all(store).expect("the segments hold the split");
    let (gz, segments, _) = gz.finish().expect("the split fills its segments");
    let file = split_file_name(k, j, Codec::NEW);
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
pub(in crate::retro) fn segment_lengths(layout: &Layout, k: usize, per_byte: usize) -> Vec<usize> {
    let per_config = layout.stored_len() / per_byte;
    segments::lengths(&segments::cut(layout, k, per_byte), per_config)
}

/// The name of the file of split `j` of layer `k`, compressed by `codec`.
pub(in crate::retro) fn split_file_name(k: usize, j: usize, codec: Codec) -> String {
    format!("layer-{k:02}-split-{j:02}.{}", codec.extension())
}

/// The header (of the splits in `layers`, with the cell's counts `stats`) and the manifest
/// (`shas`: each split file's SHA-256), written last: they make `dir` a saved table.
/// Returns the bytes of the table's files.
pub(in crate::retro) fn write_header_and_manifest(
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
pub(in crate::retro) fn replace_synced(dir: &Path, name: &str, bytes: &[u8]) -> Result<()> {
    let part = dir.join(format!("{name}.part"));
    write_synced(&part, bytes)?;
    let path = dir.join(name);
    std::fs::rename(&part, &path).map_err(|e| io(&path, "write", e))?;
    std::fs::File::open(dir)
        .and_then(|d| d.sync_all())
        .map_err(|e| io(dir, "sync", e))
}

/// The manifest of `dir`: each file's expected SHA-256.
pub(in crate::retro) fn manifest(dir: &Path) -> Result<Vec<(String, String)>> {
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
        return Error::Missing {
            path: dir.to_path_buf(),
        };
    }
    if let Some(first) = first_discarded(&dir.join(PROGRESS)) {
        return Error::Argument(format!(
            "{d} holds layers 0 to {} of an analysis that deleted the layers above them once \
             used (--bound-layers-only): it bounds a search (solve --fewer-walls) but is no \
             table to read, verify or explore",
            first.saturating_sub(1)
        ));
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

/// The lowest layer the record of a run at `path` (`progress.json`, `record.rs`) marks
/// deleted once used (`"discarded": true`), if it can be read and marks one. Read as plain
/// JSON: the record's types are the writer's.
fn first_discarded(path: &Path) -> Option<usize> {
    let found: serde_json::Value = serde_json::from_slice(&std::fs::read(path).ok()?).ok()?;
    found
        .get("layers")?
        .as_array()?
        .iter()
        .position(|layer| layer.get("discarded").and_then(serde_json::Value::as_bool) == Some(true))
}

/// The SHA-256 the manifest gives `file` of `dir`.
pub(in crate::retro) fn expected_sha(
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
pub(in crate::retro) fn read_with_sha(path: &Path, expected: &str) -> Result<Vec<u8>> {
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

/// A split's store from its file `path`, which must inflate to `len` bytes (the layout's
/// length of the split) and hash to `expected`. Read as a stream, hashed as it goes: the
/// file's bytes are never held beside the store (a layer held by the analysis in parts
/// would take them on top of its room).
pub(in crate::retro) fn inflate_file(path: &Path, expected: &str, len: usize) -> Result<Vec<u8>> {
    let file = std::fs::File::open(path).map_err(|e| damaged_or_io(path, e))?;
    let mut hashed = Hashed::new(std::io::BufReader::with_capacity(1 << 20, file));
    let mut store = Vec::with_capacity(len);
    crate::support::memory::advise_huge_pages(&mut store);
    let inflated = Codec::of(&path.to_string_lossy())
        .decoder(&mut hashed)
        .and_then(|mut values| values.read_to_end(&mut store));
    // The rest of the file (nothing, if it inflated whole), so that the hash is the file's.
    let rest = std::io::copy(&mut hashed, &mut std::io::sink());
    if rest.is_ok() && hex(hashed.sha) != expected {
        return Err(Error::Damaged(format!(
            "{} is damaged: its SHA-256 differs from the manifest's",
            path.display()
        )));
    }
    inflated.map_err(|e| Error::Damaged(format!("{}: {e}", path.display())))?;
    rest.map_err(|e| damaged_or_io(path, e))?;
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
    let known = [FORMAT, FORMAT_OUTCOMES, FORMAT_GZIP, FORMAT_OUTCOMES_GZIP]
        .contains(&header.format.as_str());
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
             \"{FORMAT_OUTCOMES}\" (and their version 1, gzip; layout {LAYOUT_VERSION}){}",
            dir.join(HEADER).display(),
            header.format,
            header.layout_version,
            older_layout(header.layout_version)
        )));
    }
    Ok(header)
}

/// The header and the manifest of the saved table in `dir`, checked against the cell of
/// `configs` laid out by `layout`: the same cell, and as many layers and splits.
pub(in crate::retro) fn checked_header(
    configs: &dyn ConfigSource,
    dir: &Path,
    layout: &Layout,
) -> Result<(Header, Vec<(String, String)>)> {
    let manifest = manifest(dir)?;
    let header = header(dir)?;
    let board = configs.board();
    let n = configs.walls_per_player();
    if (header.width, header.height, header.walls) != (board.width(), board.height(), n) {
        return Err(Error::OtherCell {
            dir: dir.to_path_buf(),
            holds: None,
            held: format!(
                "{}x{} with {}",
                header.width,
                header.height,
                count(header.walls, "wall")
            ),
            asked: Cell::new(board, n).to_string(),
        });
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
    let layout =
        super::symmetry_cache::layout_if_kept(configs, dir, super::symmetry_cache::MIN_CONFIGS);
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
            let len = crate::retro::engine::store::bytes_for::<crate::retro::engine::store::Exact>(
                layout.split_len(k),
            );
            wanted.extend(files.iter().map(|f| (f, len)));
        }
    }
    // Decompressing is the work (5x5 with 4 walls: 500 MB from 125 MB). Every file at
    // once rather than a layer at a time: one layer's files differ in size by far, and
    // the cores would wait for a layer's largest.
    let stores = wanted
        .par_iter()
        .map(|&(f, len)| {
            let sha = expected_sha(dir, &manifest, &f.file)?;
            inflate_file(&dir.join(&f.file), &sha, len)
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
