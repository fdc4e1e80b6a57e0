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
//! error, never read as values.

use super::layout::Layout;
use super::{Precision, RetroStats, Solved, Splits};
use crate::error::{Error, Result, count};
use crate::tables::Tables;
use flate2::Compression;
use flate2::read::GzDecoder;
use flate2::write::GzEncoder;
use rayon::prelude::*;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::ops::Range;
use std::path::Path;

/// The name and version of the format, first in the header.
const FORMAT: &str = "quoridor-solver exact values 1 (gzip)";
/// The version of the slot order (`layout.rs`); a change there must change it.
const LAYOUT_VERSION: u32 = 1;
const HEADER: &str = "header.json";
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

#[derive(Serialize, Deserialize)]
pub struct SplitFile {
    pub file: String,
    /// The store's bytes, uncompressed.
    pub bytes: u64,
    /// The file's bytes (compressed).
    pub file_bytes: u64,
}

fn io(path: &Path, what: &str, e: impl std::fmt::Display) -> Error {
    Error::Io(format!("cannot {what} {}: {e}", path.display()))
}

fn sha256_hex(bytes: &[u8]) -> String {
    Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Writes `solved` (exact, every layer kept) into `dir`, which is created if need be;
/// returns the bytes written.
pub fn save(solved: &Solved, dir: &Path) -> Result<u64> {
    if solved.precision != Precision::Exact || !solved.keeps_all_layers() {
        return Err(Error::Argument(
            "only an exact analysis that keeps every layer can be saved (--precision exact, \
             and a memory budget that holds every layer)"
                .into(),
        ));
    }
    std::fs::create_dir_all(dir).map_err(|e| io(dir, "create", e))?;
    let tables = solved.tables;
    let board = tables.board();
    let mut manifest = String::new();
    let mut written = 0;
    let mut layers = Vec::new();
    for (k, splits) in solved.values.iter().enumerate() {
        // Compressing is the work; the splits of a layer compress in parallel.
        let packed: Vec<(String, u64, Vec<u8>)> = splits
            .par_iter()
            .enumerate()
            .map(|(j, store)| {
                let store = store.as_ref().expect("every layer is kept");
                let mut gz = GzEncoder::new(Vec::new(), Compression::fast());
                gz.write_all(store).expect("writing to memory");
                let file = format!("layer-{k:02}-split-{j:02}.bin.gz");
                (
                    file,
                    store.len() as u64,
                    gz.finish().expect("writing to memory"),
                )
            })
            .collect();
        let mut files = Vec::new();
        for (file, bytes, gz) in packed {
            let path = dir.join(&file);
            std::fs::write(&path, &gz).map_err(|e| io(&path, "write", e))?;
            manifest.push_str(&format!("{}  {file}\n", sha256_hex(&gz)));
            written += gz.len() as u64;
            files.push(SplitFile {
                file,
                bytes,
                file_bytes: gz.len() as u64,
            });
        }
        layers.push(files);
    }
    let stats = solved.stats;
    let header = Header {
        format: FORMAT.into(),
        version: env!("CARGO_PKG_VERSION").into(),
        layout_version: LAYOUT_VERSION,
        width: board.width(),
        height: board.height(),
        walls: tables.walls_per_player(),
        precision: "exact".into(),
        positions: stats.positions,
        p1_wins: stats.p1_wins,
        p2_wins: stats.p2_wins,
        draws: stats.draws,
        layers,
    };
    let json = serde_json::to_string_pretty(&header).expect("serializable") + "\n";
    let path = dir.join(HEADER);
    std::fs::write(&path, &json).map_err(|e| io(&path, "write", e))?;
    manifest.push_str(&format!("{}  {HEADER}\n", sha256_hex(json.as_bytes())));
    let path = dir.join(MANIFEST);
    std::fs::write(&path, manifest).map_err(|e| io(&path, "write", e))?;
    Ok(written + json.len() as u64)
}

/// The manifest of `dir`: each file's expected SHA-256.
fn manifest(dir: &Path) -> Result<Vec<(String, String)>> {
    let path = dir.join(MANIFEST);
    let text = std::fs::read_to_string(&path).map_err(|e| io(&path, "read", e))?;
    text.lines()
        .map(|line| {
            line.split_once("  ")
                .filter(|(hash, file)| hash.len() == 64 && !file.contains('/'))
                .map(|(hash, file)| (file.to_string(), hash.to_string()))
                .ok_or_else(|| {
                    Error::Io(format!(
                        "{}: not a SHA-256 manifest line: {line}",
                        path.display()
                    ))
                })
        })
        .collect()
}

/// The contents of `file` in `dir`, checked against the manifest.
fn read_checked(dir: &Path, manifest: &[(String, String)], file: &str) -> Result<Vec<u8>> {
    let path = dir.join(file);
    let expected = manifest
        .iter()
        .find(|(f, _)| f == file)
        .map(|(_, h)| h)
        .ok_or_else(|| Error::Io(format!("{} is not in the manifest", path.display())))?;
    let bytes = std::fs::read(&path).map_err(|e| io(&path, "read", e))?;
    if &sha256_hex(&bytes) != expected {
        return Err(Error::Io(format!(
            "{} is damaged: its SHA-256 differs from the manifest's",
            path.display()
        )));
    }
    Ok(bytes)
}

/// The header of the saved table in `dir`, checked against the manifest.
pub fn header(dir: &Path) -> Result<Header> {
    let bytes = read_checked(dir, &manifest(dir)?, HEADER)?;
    let header: Header = serde_json::from_slice(&bytes)
        .map_err(|e| Error::Io(format!("{}: {e}", dir.join(HEADER).display())))?;
    if header.format != FORMAT || header.layout_version != LAYOUT_VERSION {
        return Err(Error::Io(format!(
            "{}: format \"{}\" (layout {}), this program reads \"{FORMAT}\" (layout \
             {LAYOUT_VERSION})",
            dir.join(HEADER).display(),
            header.format,
            header.layout_version
        )));
    }
    Ok(header)
}

/// Reads the saved table in `dir` for the cell of `tables` (which must be the header's),
/// checking every file read against the manifest and its length against the layout. Only
/// the layers in `layers` are read (a position and its moves need its layer and the next):
/// the others stay unread, and the values there unknown to the result.
pub fn load<'t>(tables: &'t Tables, dir: &Path, layers: Range<usize>) -> Result<Solved<'t>> {
    let manifest = manifest(dir)?;
    let header = header(dir)?;
    let board = tables.board();
    let n = tables.walls_per_player();
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
    let layout = Layout::new(tables);
    let shape_error = |what: String| Error::Io(format!("{}: {what}", dir.join(HEADER).display()));
    if header.layers.len() != layout.layers() {
        return Err(shape_error(format!(
            "{} layers, the cell has {}",
            header.layers.len(),
            layout.layers()
        )));
    }
    let mut values: Vec<Splits> = Vec::with_capacity(layout.layers());
    let mut bytes = 0;
    for (k, files) in header.layers.iter().enumerate() {
        let len = super::store::bytes_for::<super::store::Exact>(layout.split_len(k));
        if files.len() != layout.splits(k) {
            return Err(shape_error(format!(
                "layer {k} has {} splits, the cell {}",
                files.len(),
                layout.splits(k)
            )));
        }
        let mut splits = Vec::with_capacity(files.len());
        if !layers.contains(&k) {
            values.push(vec![None; files.len()]);
            continue;
        }
        for f in files {
            let gz = read_checked(dir, &manifest, &f.file)?;
            let mut store = Vec::with_capacity(len);
            GzDecoder::new(&gz[..])
                .read_to_end(&mut store)
                .map_err(|e| Error::Io(format!("{}: {e}", dir.join(&f.file).display())))?;
            if store.len() != len {
                return Err(shape_error(format!(
                    "{} has {} bytes, layer {k} needs {len}",
                    f.file,
                    store.len()
                )));
            }
            bytes += store.len() as u64;
            splits.push(Some(store));
        }
        values.push(splits);
    }
    Ok(Solved {
        tables,
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
