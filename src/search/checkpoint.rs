//! A proof search's transposition table kept in a file, so that a long search that stops
//! (its time limit, a full store, the end of a working day) goes on later where it stopped.
//! Every fact in the table is true whatever stopped the search (an aborted search stores
//! nothing), so the file holds no guess: the next run deepens from the iteration after the
//! last one finished, and what the table settles is not searched again.
//!
//! The file is one header line,
//! `quoridor-solver checkpoint 1 board WxH walls N keys NAME depth D bytes B`, then the
//! table's B bytes (`TranspositionTable::write_to`). Keys name configurations by the
//! store's key numbers, so a file is read back only over a store that numbers them alike
//! (`ConfigTables::key_numbering`). A save writes `FILE.part` and renames it, so a save
//! that is cut short leaves the last one whole.

use super::tt::{self, TranspositionTable};
use crate::error::{Error, Result};
use crate::tables::ConfigTables;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::path::{Path, PathBuf};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Saves between two iterations wait this long after the last one: writing a table of
/// gigabytes takes seconds.
const SAVE_EVERY: Duration = Duration::from_secs(600);

const MAGIC: &str = "quoridor-solver checkpoint 1";

/// A table read back, and the deepest iteration finished when it was saved.
pub(super) struct Saved {
    pub tt: TranspositionTable,
    pub depth: u8,
}

pub struct Checkpoint {
    path: PathBuf,
    /// `board WxH walls N keys NAME`: what a file must say to be this cell's.
    cell: String,
    with_dominance: bool,
    /// What the file held, until the search takes it.
    loaded: Mutex<Option<Saved>>,
    last_save: Mutex<Instant>,
}

impl Checkpoint {
    /// The checkpoint at `path` for the cell of `tables`, with its table if the file exists.
    pub fn open<T: ConfigTables>(path: &Path, tables: &T) -> Result<Checkpoint> {
        let Some(keys) = tables.key_numbering() else {
            return Err(Error::Argument(format!(
                "{} with {} walls cannot keep a checkpoint: its configurations are \
                 numbered in the order the search meets them, which the next run would not \
                 repeat",
                tables.board(),
                tables.walls_per_player()
            )));
        };
        let checkpoint = Checkpoint {
            path: path.to_path_buf(),
            cell: format!(
                "board {} walls {} keys {keys}",
                tables.board(),
                tables.walls_per_player()
            ),
            with_dominance: tt::dominance_holds(tables.board()),
            loaded: Mutex::new(None),
            last_save: Mutex::new(Instant::now()),
        };
        if path.exists() {
            let saved = checkpoint
                .read()
                .map_err(|e| Error::Input(format!("cannot resume from {}: {e}", path.display())))?;
            *checkpoint.loaded.lock().unwrap() = Some(saved);
        }
        Ok(checkpoint)
    }

    /// The deepest iteration the file had finished, if a table was read from it.
    pub fn depth_reached(&self) -> Option<u8> {
        self.loaded.lock().unwrap().as_ref().map(|s| s.depth)
    }

    /// The size of the table read from the file, if any.
    pub fn table_bytes(&self) -> Option<u64> {
        self.loaded.lock().unwrap().as_ref().map(|s| s.tt.bytes())
    }

    /// The table read from the file, once.
    pub(super) fn take(&self) -> Option<Saved> {
        self.loaded.lock().unwrap().take()
    }

    /// Whether a save between two iterations is due.
    pub(super) fn due(&self) -> bool {
        self.last_save.lock().unwrap().elapsed() >= SAVE_EVERY
    }

    /// Writes `tt`, with `depth` the deepest iteration finished.
    pub(super) fn save(&self, tt: &TranspositionTable, depth: u8) -> std::io::Result<()> {
        let mut name = self.path.clone().into_os_string();
        name.push(".part");
        let part = PathBuf::from(name);
        let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(&part)?);
        writeln!(
            out,
            "{MAGIC} {} depth {depth} bytes {}",
            self.cell,
            tt.bytes()
        )?;
        tt.write_to(&mut out)?;
        out.into_inner()?.sync_all()?;
        std::fs::rename(&part, &self.path)?;
        *self.last_save.lock().unwrap() = Instant::now();
        Ok(())
    }

    fn read(&self) -> std::result::Result<Saved, String> {
        let file = std::fs::File::open(&self.path).map_err(|e| e.to_string())?;
        let mut input = BufReader::with_capacity(1 << 20, file);
        let mut header = String::new();
        input.read_line(&mut header).map_err(|e| e.to_string())?;
        let header = header.trim_end();
        let rest = header
            .strip_prefix(MAGIC)
            .ok_or("not a checkpoint of this program (or of another version of its format)")?
            .trim_start();
        let (cell, numbers) = rest
            .split_once(" depth ")
            .ok_or("its header names no depth")?;
        if cell != self.cell {
            return Err(format!(
                "it is for {cell}, not {} (keys name the store's numbering: `--store` must \
                 be the same)",
                self.cell
            ));
        }
        let (depth, bytes) = numbers
            .split_once(" bytes ")
            .and_then(|(d, b)| Some((d.parse::<u8>().ok()?, b.parse::<u64>().ok()?)))
            .ok_or("its header's depth or size is not a number")?;
        let tt = TranspositionTable::read_from(&mut input, bytes, self.with_dominance)
            .map_err(|e| format!("its table is cut short or damaged ({e})"))?;
        Ok(Saved { tt, depth })
    }
}
