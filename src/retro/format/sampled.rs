//! Reading and checking a saved table too large to load (`verify`, `analyze --table` and
//! `play --table` of a cell whose tables or layers do not fit the memory, such as one
//! solved in parts, `parts.rs`). The positions to check
//! (say, those of random games from the start) and the positions after each of their
//! legal actions are located in the store (`locate`); then every file of the table is read
//! once as a stream, its SHA-256 checked against the manifest as it goes, and only the
//! codes of those slots are kept. Each position checked must then have the value of its
//! best move, as `verify` checks a table it loads whole (for a table of outcomes only, the
//! outcome of its best move); and every file must be whole.
//!
//! Memory: the layout's indices, the configurations, and a few bytes per slot wanted.

use super::codec::Codec;
use super::hashed::Hashed;
use super::saved::{self, Header};
use super::symmetry_cache;
use crate::error::{Error, Result};
use crate::retro::engine::code;
use crate::retro::engine::layout::Layout;
use crate::retro::engine::solved::Wdl;
use crate::retro::engine::solved::{Located, locate};
use crate::retro::engine::source::ConfigSource;
use crate::retro::engine::store::Precision;
use crate::retro::engine::store::{Compact, Packing};
use crate::retro::engine::value::Value;
use crate::rules::position::Position;
use crate::support::progress::Progress;
use rayon::prelude::*;
use std::collections::HashMap;
use std::io::Read as _;
use std::path::{Path, PathBuf};

/// A saved table too large to load, read a few positions at a time: each `fetch` streams
/// the files that hold the positions asked (or every file) once, checking each against the
/// manifest, and keeps the values of those positions only. What `check` checks, and what
/// `analyze --table` and `play --table` answer from.
pub struct Reader<'t> {
    configs: &'t dyn ConfigSource,
    dir: PathBuf,
    layout: Layout,
    header: Header,
    manifest: Vec<(String, String)>,
    precision: Precision,
    values: HashMap<Position, Value>,
}

impl<'t> Reader<'t> {
    /// The saved table in `dir` of the cell of `configs`: its header and manifest checked,
    /// nothing read yet.
    pub fn open(configs: &'t dyn ConfigSource, dir: &Path) -> Result<Reader<'t>> {
        let layout = symmetry_cache::layout_if_kept(configs, dir, symmetry_cache::MIN_CONFIGS);
        let (header, manifest) = saved::checked_header(configs, dir, &layout)?;
        let precision = saved::precision_of(&header).expect("a header read is of a precision");
        Ok(Reader {
            configs,
            dir: dir.to_path_buf(),
            layout,
            header,
            manifest,
            precision,
            values: HashMap::new(),
        })
    }

    /// The value of `pos`, if it was fetched (a table of outcomes gives a loss as `Loss(0)`
    /// and a win as `Win(1)`: their remoteness means nothing).
    pub fn value(&self, pos: &Position) -> Option<Value> {
        self.values.get(pos).copied()
    }

    /// Whether the values are exact (else outcomes only).
    pub fn is_exact(&self) -> bool {
        self.precision == Precision::Exact
    }

    /// Reads the values of `positions` not fetched yet (positions of the cell; any other is
    /// left out) in one pass over the files that hold them, or over every file with
    /// `every_file`. A damaged file read is `Error::Damaged`, named.
    pub fn fetch(
        &mut self,
        positions: &[Position],
        every_file: bool,
        progress: &dyn Progress,
    ) -> Result<()> {
        let (configs, layout, header) = (self.configs, &self.layout, &self.header);
        let located: Vec<(Position, Located)> = positions
            .par_iter()
            .filter(|pos| !self.values.contains_key(pos))
            .filter_map(|pos| Some((*pos, locate(configs, layout, pos)?)))
            .collect();
        let mut wanted: Vec<Vec<Vec<usize>>> = header
            .layers
            .iter()
            .map(|files| vec![Vec::new(); files.len()])
            .collect();
        for (_, at) in &located {
            if let Located::Stored(k, j, slot) = *at {
                wanted[k][j].push(slot);
            }
        }
        let files: Vec<(usize, usize)> = (0..header.layers.len())
            .flat_map(|k| (0..header.layers[k].len()).map(move |j| (k, j)))
            .filter(|&(k, j)| every_file || !wanted[k][j].is_empty())
            .collect();
        if files.is_empty() && located.is_empty() {
            return Ok(());
        }
        progress.begin("reading the table's files", files.len() as u64);
        let per_byte = self.precision.per_byte() as usize;
        let codes: Vec<Vec<(usize, u8)>> = files
            .par_iter()
            .map(|&(k, j)| {
                let mut slots = wanted[k][j].clone();
                slots.sort_unstable();
                slots.dedup();
                let len = layout.split_len(k).div_ceil(per_byte);
                let at = (self.dir.as_path(), header, self.manifest.as_slice());
                let read = read_slots(at, (k, j), (len, per_byte), &slots);
                progress.advance(1);
                read
            })
            .collect::<Result<_>>()?;
        progress.finish();
        for (pos, at) in located {
            let value = match at {
                Located::Over(v) => v,
                Located::Stored(k, j, slot) => {
                    let file = files.binary_search(&(k, j)).expect("a file read");
                    let codes = &codes[file];
                    let i = codes
                        .binary_search_by_key(&slot, |&(s, _)| s)
                        .expect("every slot asked for is read");
                    let byte = codes[i].1;
                    code::value(match self.precision {
                        Precision::Exact => byte,
                        Precision::Compact => Compact::read(&[byte], slot % Compact::PER_BYTE),
                    })
                }
            };
            self.values.insert(pos, value);
        }
        Ok(())
    }
}

/// Checks the saved table in `dir` of the cell of `configs` on `positions` (positions of
/// the cell): every file whole, and each position's value its best move's (`read`). A
/// damaged file, or a position whose value is not its best move's, is `Error::Damaged`,
/// named.
pub fn check(
    configs: &dyn ConfigSource,
    dir: &Path,
    positions: &[Position],
    progress: &dyn Progress,
) -> Result<()> {
    let board = configs.board();
    // Each position and the positions after its legal actions.
    let asked: Vec<Vec<Position>> = positions
        .par_iter()
        .map(|pos| {
            let mut family = vec![*pos];
            if pos.winner(board).is_none() {
                family.extend(pos.legal_actions(board).into_iter().map(|a| pos.play(a)));
            }
            family
        })
        .collect();
    let all: Vec<Position> = asked.iter().flatten().copied().collect();
    let mut read = Reader::open(configs, dir)?;
    read.fetch(&all, true, progress)?;
    let value = |pos: &Position| read.value(pos).ok_or_else(|| not_a_position(board, pos));
    for family in &asked {
        let (pos, after) = (&family[0], &family[1..]);
        let own = value(pos)?;
        let best = match pos.winner(board) {
            Some(_) => own, // over: its value is where it stands, no move to check
            None => after
                .iter()
                .map(|q| value(q).map(before_move))
                .collect::<Result<Vec<Value>>>()?
                .into_iter()
                .min_by_key(|&v| rank(v))
                .unwrap_or(Value::Draw), // no legal action: a draw
        };
        let same = match read.precision {
            Precision::Exact => own == best,
            // Outcomes only: their remoteness means nothing.
            Precision::Compact => Wdl::from(own) == Wdl::from(best),
        };
        if !same {
            return Err(Error::Damaged(format!(
                "inconsistent value at {}: it is not its best move's",
                crate::rules::notation::format_record(board, pos)
            )));
        }
    }
    Ok(())
}

/// The bytes that hold the sorted `slots` of split `j` of layer `k` (`len` bytes,
/// `per_byte` slots a byte), each with its slot, read as a stream from its file, which must
/// match the manifest and inflate to `len` bytes.
fn read_slots(
    (dir, header, manifest): (&Path, &Header, &[(String, String)]),
    (k, j): (usize, usize),
    (len, per_byte): (usize, usize),
    slots: &[usize],
) -> Result<Vec<(usize, u8)>> {
    let name = &header.layers[k][j].file;
    let path = dir.join(name);
    let expected = saved::expected_sha(dir, manifest, name)?;
    let damaged = |what: String| Error::Damaged(format!("{}: {what}", path.display()));
    let file = std::fs::File::open(&path).map_err(|e| damaged(e.to_string()))?;
    let mut gz = Codec::of(name)
        .decoder(Hashed::new(file))
        .map_err(|e| damaged(e.to_string()))?;
    let mut buffer = vec![0u8; 1 << 20];
    let (mut start, mut next) = (0usize, 0usize);
    let mut codes = Vec::with_capacity(slots.len());
    loop {
        let n = gz.read(&mut buffer).map_err(|e| damaged(e.to_string()))?;
        if n == 0 {
            break;
        }
        while next < slots.len() && slots[next] / per_byte < start + n {
            codes.push((slots[next], buffer[slots[next] / per_byte - start]));
            next += 1;
        }
        start += n;
    }
    let mut hashed = gz.into_inner();
    std::io::copy(&mut hashed, &mut std::io::sink()).map_err(|e| damaged(e.to_string()))?;
    if hashed.finish().1 != expected {
        return Err(damaged("its SHA-256 differs from the manifest's".into()));
    }
    if start != len {
        return Err(damaged(format!("{start} bytes, its layer needs {len}")));
    }
    Ok(codes)
}

/// The value for the player who moved into a position of value `v`.
fn before_move(v: Value) -> Value {
    match v {
        Value::Win(r) => Value::Loss(r + 1),
        Value::Loss(r) => Value::Win(r + 1),
        Value::Draw => Value::Draw,
    }
}

/// A key that sorts the best value first for the player it belongs to: the shortest win,
/// a draw, the longest loss.
fn rank(v: Value) -> (u8, i64) {
    match v {
        Value::Win(r) => (0, r as i64),
        Value::Draw => (1, 0),
        Value::Loss(r) => (2, -(r as i64)),
    }
}

/// A position the table has no value for: checked positions are the cell's.
fn not_a_position(board: crate::rules::geometry::Board, pos: &Position) -> Error {
    Error::Argument(format!(
        "{} is not a position of the cell",
        crate::rules::notation::format_record(board, pos)
    ))
}
