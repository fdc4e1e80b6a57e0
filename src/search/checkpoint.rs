//! A proof search's transposition table kept in a file, so that a long search that stops
//! (its time limit, a full store, the end of a working day) goes on later where it stopped.
//! Every fact in the table is true whatever stopped the search (an aborted search stores
//! nothing), so the file holds no guess: the next run skips the iterations known to fail,
//! and what the table settles is not searched again.
//!
//! The file is one header line,
//! `quoridor-solver checkpoint 2 board WxH walls N keys NAME no-win A B bytes N`, then the
//! table's N bytes (`TranspositionTable::write_to`): Player 1 cannot win within A plies,
//! Player 2 within B (they differ after a search that asked one player, `--winner`).
//! Version 1 files (`... depth D bytes N`: neither wins within D plies) are read too. Keys name configurations by the
//! store's key numbers, so a file is read back only over a store that numbers them alike
//! (`ConfigTables::key_numbering`). A save writes `FILE.part` and renames it, so a save
//! that is cut short leaves the last one whole.

use super::deepening::NoWin;
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

const MAGIC: &str = "quoridor-solver checkpoint";
const VERSION: &str = "2";

/// A table read back, and the iterations it knew to fail when it was saved.
pub(super) struct Saved {
    pub tt: TranspositionTable,
    pub no_win: NoWin,
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

    /// Writes `tt`, with the iterations known to fail.
    pub(super) fn save(&self, tt: &TranspositionTable, no_win: NoWin) -> std::io::Result<()> {
        let mut name = self.path.clone().into_os_string();
        name.push(".part");
        let part = PathBuf::from(name);
        let mut out = BufWriter::with_capacity(1 << 20, std::fs::File::create(&part)?);
        let [one, two] = no_win.0;
        writeln!(
            out,
            "{MAGIC} {VERSION} {} no-win {one} {two} bytes {}",
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
        let unknown = "not a checkpoint of this program (or of another version of its format)";
        let (version, rest) = header
            .strip_prefix(MAGIC)
            .and_then(|r| r.trim_start().split_once(' '))
            .ok_or(unknown)?;
        let field = match version {
            "1" => " depth ",
            VERSION => " no-win ",
            _ => return Err(unknown.into()),
        };
        let (cell, numbers) = rest
            .split_once(field)
            .ok_or("its header does not say which iterations failed")?;
        if cell != self.cell {
            return Err(format!(
                "it is for {cell}, not {} (keys name the store's numbering: `--store` must \
                 be the same)",
                self.cell
            ));
        }
        let (depths, bytes) = numbers
            .split_once(" bytes ")
            .ok_or("its header names no size")?;
        let depths: Vec<u8> = depths
            .split(' ')
            .map(str::parse)
            .collect::<std::result::Result<_, _>>()
            .map_err(|_| "its header's depths are not numbers")?;
        let no_win = match depths[..] {
            [depth] if version == "1" => NoWin::both(depth),
            [one, two] if version == VERSION => NoWin([one, two]),
            _ => return Err("its header's depths are not numbers".into()),
        };
        let bytes = bytes
            .parse::<u64>()
            .map_err(|_| "its header's size is not a number")?;
        let tt = TranspositionTable::read_from(&mut input, bytes, self.with_dominance)
            .map_err(|e| format!("its table is cut short or damaged ({e})"))?;
        Ok(Saved { tt, no_win })
    }
}
