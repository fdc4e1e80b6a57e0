//! The mirror image and half turn of every configuration of a cell (`layout::symmetry_of`),
//! kept in the directory of an analysis in parts (`symmetry.bin`) so that a run that goes
//! on from it, or a search that reads its layers back, does not find them again: over the
//! ranked numbering that is the costliest step of `Layout::new`, about 3 minutes of both
//! cores for 7x5 with 5 walls (5.6e8 configurations; the file is 8 bytes each, 4.46 GB).
//!
//! The file: a line of JSON (`Header`: the cell, the layout's version, the count and the
//! SHA-256 of what follows), then the mirror images and the half turns as little-endian
//! `u32`s. A file that does not check (another cell or numbering, a wrong length or hash,
//! or a sample of its entries that the configurations contradict) is not used: the
//! symmetry is found again and the file written anew. An analysis in parts reads it a
//! layer at a time (`Kept`), for the layers whose indices its layout holds
//! (`Layout::holding`): 7x5 with 6 walls' whole symmetry is 12.6 GiB.

use super::hashed::hex;
use crate::configs::ConfigId;
use crate::error::{Error, Result};
use crate::retro::engine::layout::{Found, LAYOUT_VERSION, LayerSymmetry, Layout, symmetry_of};
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::symmetry;
use crate::support::progress::Progress;
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::io::{BufRead, BufReader, BufWriter, Read, Write};
use std::ops::Range;
use std::os::unix::fs::FileExt;
use std::path::{Path, PathBuf};

/// The file's name in the directory.
pub const FILE: &str = "symmetry.bin";
const FORMAT: &str = "quoridor-solver symmetry 1";

/// Cells with fewer configurations find their symmetry in about a second or less: no file.
/// (4x7 with 5 walls, 1.17e7 configurations: a run that reads every layer back took 6.1
/// to 6.6 s finding them, 1.8 to 2.9 s reading the file of 94 MB.)
pub const MIN_CONFIGS: usize = 1 << 22;

/// How many entries of a file read are checked against the configurations themselves.
const SAMPLES: usize = 4096;

#[derive(Serialize, Deserialize, PartialEq, Debug)]
struct Header {
    format: String,
    layout_version: u32,
    width: usize,
    height: usize,
    walls: u8,
    configs: u64,
    sha256: String,
}

/// The layout of `source`'s cell for an analysis through `dir`, holding the indices of
/// layers `hold` (`Layout::holding`), and where it reads the symmetry of the layers it
/// holds next (`Layout::hold_layers`): the file in `dir` where an earlier run kept it and
/// it checks, else found, and kept there when the cell has `min_configs` configurations or
/// more (a file that cannot be written is said, and the run goes on with the symmetry
/// held whole).
pub fn layout(
    source: &dyn ConfigSource,
    dir: &Path,
    (min_configs, hold): (usize, Range<usize>),
    progress: &dyn Progress,
) -> Result<(Layout, Box<dyn LayerSymmetry>)> {
    let found = |symmetry: Box<dyn LayerSymmetry>| {
        Layout::holding(source, &*symmetry, hold.clone()).map(|layout| (layout, symmetry))
    };
    if source.len() < min_configs {
        let (mirror, turned) = symmetry_of(source);
        return found(Box::new(Found(mirror, turned)));
    }
    let path = dir.join(FILE);
    match open(source, &path) {
        Ok(Some(kept)) => {
            progress.message(&format!(
                "the configurations' mirror images and half turns read from {}",
                path.display()
            ));
            return found(Box::new(kept));
        }
        Ok(None) => {}
        Err(why) => progress.warn(&format!("{}: {why}; found again", path.display())),
    }
    match write(source, dir, symmetry_of(source)) {
        // Read back a layer at a time: the file is the one just written.
        Ok(kept) => found(Box::new(kept)),
        Err(failed) => {
            let (e, (mirror, turned)) = *failed;
            progress.warn(&format!("{e}: the next run finds them again"));
            found(Box::new(Found(mirror, turned)))
        }
    }
}

/// The symmetry kept in a file, read a layer at a time: where the mirror images start
/// (after the header's line), and how many configurations there are.
pub struct Kept {
    path: PathBuf,
    start: u64,
    configs: u64,
}

impl LayerSymmetry for Kept {
    fn mirror(&self, ids: Range<ConfigId>) -> Result<Vec<ConfigId>> {
        let mut out = vec![0; ids.len()];
        self.read_into(0, ids, &mut out)?;
        Ok(out)
    }

    fn turned_into(&self, ids: Range<ConfigId>, out: &mut [ConfigId]) -> Result<()> {
        self.read_into(1, ids, out)
    }
}

impl Kept {
    /// Entries `ids` of array `array` (0: mirror images, 1: half turns) into `out`.
    fn read_into(&self, array: u64, ids: Range<ConfigId>, out: &mut [ConfigId]) -> Result<()> {
        let fail = |e: std::io::Error| Error::io("read", &self.path, e);
        let file = std::fs::File::open(&self.path).map_err(fail)?;
        let mut bytes = vec![0u8; 1 << 20];
        let mut at = self.start + 4 * (array * self.configs + u64::from(ids.start));
        for run in out.chunks_mut(bytes.len() / 4) {
            let bytes = &mut bytes[..4 * run.len()];
            file.read_exact_at(bytes, at).map_err(fail)?;
            for (id, b) in run.iter_mut().zip(bytes.chunks_exact(4)) {
                *id = ConfigId::from_le_bytes(b.try_into().expect("4 bytes"));
            }
            at += bytes.len() as u64;
        }
        Ok(())
    }
}

/// The layout of `source`'s cell for a reader of the table in `dir` (`verify`, `analyze
/// --table`): its symmetry read from `dir` where the analysis that wrote the table kept it
/// (cells of `min_configs` or more) and it checks, else found; nothing written.
pub fn layout_if_kept(source: &dyn ConfigSource, dir: &Path, min_configs: usize) -> Layout {
    let kept = (source.len() >= min_configs)
        .then(|| read(source, &dir.join(FILE)).ok().flatten())
        .flatten();
    match kept {
        Some(found) => Layout::with_symmetry(source, found),
        None => Layout::new(source),
    }
}

fn header(source: &dyn ConfigSource, sha256: String) -> Header {
    let board = source.board();
    Header {
        format: FORMAT.into(),
        layout_version: LAYOUT_VERSION,
        width: board.width(),
        height: board.height(),
        walls: source.walls_per_player(),
        configs: source.len() as u64,
        sha256,
    }
}

/// The symmetry kept at `path`, held whole: `None` if there is no file, an error in words
/// if it does not check.
fn read(source: &dyn ConfigSource, path: &Path) -> std::result::Result<Option<Sym>, String> {
    let Some(kept) = open(source, path)? else {
        return Ok(None);
    };
    let all = 0..source.len() as ConfigId;
    let mut turned = vec![0; source.len()];
    let read = |e: Error| e.to_string();
    kept.turned_into(all.clone(), &mut turned).map_err(read)?;
    Ok(Some((kept.mirror(all).map_err(read)?, turned)))
}

/// The symmetry kept at `path`, checked (its header, length and SHA-256, read through
/// once, and a sample of its entries) to be read a layer at a time: `None` if there is no
/// file, an error in words if it does not check.
fn open(source: &dyn ConfigSource, path: &Path) -> std::result::Result<Option<Kept>, String> {
    let file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => return Err(e.to_string()),
    };
    let mut input = BufReader::with_capacity(1 << 20, file);
    let mut line = String::new();
    input.read_line(&mut line).map_err(|e| e.to_string())?;
    let found: Header = serde_json::from_str(&line).map_err(|e| e.to_string())?;
    if found != header(source, found.sha256.clone()) {
        return Err(format!(
            "kept for another cell or numbering ({})",
            line.trim()
        ));
    }
    let mut sha = Sha256::new();
    let mut left = 8 * source.len() as u64;
    let mut bytes = vec![0u8; 1 << 20];
    while left > 0 {
        let bytes = &mut bytes[..left.min(1 << 20) as usize];
        input.read_exact(bytes).map_err(|e| e.to_string())?;
        sha.update(&*bytes);
        left -= bytes.len() as u64;
    }
    if input.read(&mut bytes[..1]).map_err(|e| e.to_string())? != 0 {
        return Err("longer than its configurations".into());
    }
    if hex(sha) != found.sha256 {
        return Err("its SHA-256 differs from its header's".into());
    }
    let kept = Kept {
        path: path.to_path_buf(),
        start: line.len() as u64,
        configs: source.len() as u64,
    };
    check_sample(source, &kept)?;
    Ok(Some(kept))
}

/// Mirror images and half turns by configuration id.
type Sym = (Vec<ConfigId>, Vec<ConfigId>);

/// Checks `SAMPLES` entries spread over the ids against the configurations' own walls.
fn check_sample(source: &dyn ConfigSource, kept: &Kept) -> std::result::Result<(), String> {
    let board = source.board();
    let len = source.len();
    let step = (len / SAMPLES).max(1);
    for id in (0..len).step_by(step).chain(len.checked_sub(1)) {
        let walls = source.walls(id as ConfigId);
        let own = (
            source.id_of(walls.mirror(board)),
            source.id_of(symmetry::turn_walls(board, walls)),
        );
        let one = id as ConfigId..id as ConfigId + 1;
        let mut turned = [0];
        let read = |e: Error| e.to_string();
        kept.turned_into(one.clone(), &mut turned).map_err(read)?;
        let mirror = kept.mirror(one).map_err(read)?;
        if own != (Some(mirror[0]), Some(turned[0])) {
            return Err(format!(
                "configuration {id}'s mirror image or half turn is not the file's"
            ));
        }
    }
    Ok(())
}

/// Writes `found` to `dir`'s file, aside first and renamed onto it once synced; returns
/// the file to be read a layer at a time, or the error and `found` back.
fn write(
    source: &dyn ConfigSource,
    dir: &Path,
    found: Sym,
) -> std::result::Result<Kept, Box<(Error, Sym)>> {
    match write_file(source, dir, &found) {
        Ok(start) => Ok(Kept {
            path: dir.join(FILE),
            start,
            configs: source.len() as u64,
        }),
        Err(e) => Err(Box::new((e, found))),
    }
}

/// `write`'s file; returns the bytes of its header's line.
fn write_file(source: &dyn ConfigSource, dir: &Path, (mirror, turned): &Sym) -> Result<u64> {
    let mut sha = Sha256::new();
    for array in [mirror, turned] {
        for run in array.chunks(1 << 18) {
            let bytes: Vec<u8> = run.iter().flat_map(|id| id.to_le_bytes()).collect();
            sha.update(&bytes);
        }
    }
    let line = serde_json::to_string(&header(source, hex(sha))).expect("serializable") + "\n";
    let part = dir.join(format!("{FILE}.part"));
    let fail = |e: std::io::Error| Error::io("write", &part, e);
    let file = std::fs::File::create(&part).map_err(fail)?;
    let mut out = BufWriter::with_capacity(1 << 20, file);
    out.write_all(line.as_bytes()).map_err(fail)?;
    for array in [mirror, turned] {
        for run in array.chunks(1 << 18) {
            let bytes: Vec<u8> = run.iter().flat_map(|id| id.to_le_bytes()).collect();
            out.write_all(&bytes).map_err(fail)?;
        }
    }
    let file = out.into_inner().map_err(|e| fail(e.into_error()))?;
    file.sync_all().map_err(fail)?;
    let path = dir.join(FILE);
    std::fs::rename(&part, &path).map_err(|e| Error::io("write", &path, e))?;
    Ok(line.len() as u64)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::configs::Ranked;
    use crate::rules::geometry::Board;
    use crate::support::progress::Silent;

    fn dir(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("qs-symmetry-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    fn same(a: &Layout, b: &Layout, configs: usize) {
        for k in 0..a.layers() {
            assert_eq!(a.stored(k), b.stored(k));
        }
        for id in 0..configs as ConfigId {
            assert_eq!(a.stored_turned(id), b.stored_turned(id));
        }
    }

    #[test]
    fn a_kept_symmetry_gives_the_layout_found_anew_and_a_damaged_one_is_not_used() {
        let ranked = Ranked::build(Board::new(4, 4).unwrap(), 2);
        let d = dir("kept");
        let fresh = Layout::new(&ranked);
        let all = 0..fresh.layers();
        let holding = |min| layout(&ranked, &d, (min, all.clone()), &Silent).unwrap().0;
        // Below the threshold no file, nor for a reader.
        same(&holding(usize::MAX), &fresh, ranked.len());
        same(&layout_if_kept(&ranked, &d, 0), &fresh, ranked.len());
        assert!(!d.join(FILE).exists());
        same(&holding(0), &fresh, ranked.len());
        assert!(d.join(FILE).exists());
        same(&layout_if_kept(&ranked, &d, 0), &fresh, ranked.len());
        let found = read(&ranked, &d.join(FILE)).unwrap().unwrap();
        assert_eq!(found, symmetry_of(&ranked));
        same(&holding(0), &fresh, ranked.len());
        // A layer at a time, as the whole.
        let kept = open(&ranked, &d.join(FILE)).unwrap().unwrap();
        for k in 0..ranked.layers() {
            let ids = ranked.layer(k);
            let r = ids.start as usize..ids.end as usize;
            let mut turned = vec![0; ids.len()];
            kept.turned_into(ids.clone(), &mut turned).unwrap();
            let mirror = kept.mirror(ids).unwrap();
            assert_eq!(
                (&mirror[..], &turned[..]),
                (&found.0[r.clone()], &found.1[r])
            );
        }
        // A flipped byte: the hash says so; the file is written anew.
        let mut bytes = std::fs::read(d.join(FILE)).unwrap();
        let at = bytes.len() - 5;
        bytes[at] ^= 1;
        std::fs::write(d.join(FILE), &bytes).unwrap();
        assert!(
            read(&ranked, &d.join(FILE))
                .unwrap_err()
                .contains("SHA-256")
        );
        same(&holding(0), &fresh, ranked.len());
        assert!(read(&ranked, &d.join(FILE)).unwrap().is_some());
        // Another cell's file is refused by its header.
        let other = Ranked::build(Board::new(4, 4).unwrap(), 1);
        assert!(
            read(&other, &d.join(FILE))
                .unwrap_err()
                .contains("another cell")
        );
        // Entries swapped, the hash made to match: the sample finds them.
        let (mut mirror, turned) = symmetry_of(&ranked);
        let n = mirror.len();
        mirror.swap(0, n - 1);
        assert!(write(&ranked, &d, (mirror, turned)).is_ok());
        assert!(
            read(&ranked, &d.join(FILE))
                .unwrap_err()
                .contains("not the file's")
        );
        std::fs::remove_dir_all(&d).unwrap();
    }
}
