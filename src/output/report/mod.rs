//! The results table: one record per cell, written as CSV, JSON and Markdown, each file
//! replaced atomically (written to a temporary file, then renamed) so an interrupted run
//! never leaves a half-written file; read back for `--resume` and `--check`.

pub mod analyze;
pub mod beyond;
pub mod check;
pub mod markdown;
pub mod published;
pub mod svg;

use crate::cell::solver::{CellResult, MethodUsed, Outcome};
use crate::error::{Error, Result, count};
use crate::rules::cell::Cell;
use crate::rules::geometry::{Board, Player};
use crate::rules::notation::format_moves;
use crate::rules::position::MAX_WALLS_PER_PLAYER;
use crate::support::output_file;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// One solved (or attempted) cell, as written to results/table.csv and table.json.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellRecord {
    pub width: usize,
    pub height: usize,
    pub walls: u8,
    pub outcome: Outcome,
    pub plies: Option<u32>,
    pub method: MethodUsed,
    pub nodes: u64,
    pub seconds: f64,
    pub peak_bytes: u64,
    pub version: String,
    /// The deepest search iteration completed (what "unknown" reached).
    pub depth_reached: u32,
    /// The principal line from the start in move notation (`1. c2 c4 2. b2h c3`): for a
    /// win, the winner's line of exactly `plies` plies, which `show --moves` replays to the
    /// goal (scripts/replay_lines.sh); for a draw, moves into the cycle. Empty when the run
    /// found none (undecided, or a compact analysis whose length search stopped) and in
    /// rows written before the column existed, which read back with it empty.
    #[serde(default)]
    pub line: String,
}

impl CellRecord {
    pub fn from_result(r: &CellResult) -> CellRecord {
        CellRecord {
            width: r.width,
            height: r.height,
            walls: r.walls,
            outcome: r.outcome,
            plies: r.plies,
            method: r.method,
            nodes: r.nodes,
            seconds: (r.seconds * 1000.0).round() / 1000.0,
            peak_bytes: r.peak_bytes,
            version: version(),
            depth_reached: r.depth_reached,
            line: match Board::new(r.width, r.height) {
                Ok(board) => format_moves(board, Player::One, &r.line),
                Err(_) => String::new(),
            },
        }
    }

    pub fn cell(&self) -> (usize, usize, u8) {
        (self.width, self.height, self.walls)
    }

    /// Whether this row is `cell`'s.
    pub fn is(&self, cell: Cell) -> bool {
        self.cell() == (cell.board.width(), cell.board.height(), cell.walls)
    }

    /// Whether this row is a cell left unsolved (undecided, or a win without its length)
    /// after `limit` or longer: a campaign does not try it again at that limit (a longer
    /// one does), nor the second method.
    pub fn undecided_after(&self, limit: std::time::Duration) -> bool {
        // A search stops at its limit give or take a check of the clock.
        !self.is_solved() && self.seconds + 1.0 >= limit.as_secs_f64()
    }

    /// Whether the cell is decided (not `unknown`).
    pub fn is_decided(&self) -> bool {
        self.outcome != Outcome::Unknown
    }

    /// Whether the cell is decided with its length (a draw has none): a win whose length's
    /// search stopped at its limit after a compact analysis is decided, not solved, and a
    /// resumed run solves it again (through the disk, from its layers and the search's
    /// checkpoint).
    pub fn is_solved(&self) -> bool {
        self.is_decided() && (self.outcome == Outcome::Draw || self.plies.is_some())
    }

    /// Why this record cannot be a result of the solver, if it cannot: a board outside the
    /// rules, a wall count the solver does not support, an outcome that does not exist, or a
    /// length that does not fit the outcome. A win ends with the winner's own ply, so Player 1
    /// (who moves first) wins in an odd number of plies and Player 2 in an even one; a draw
    /// or an undecided cell has no length; a win by retrograde analysis may lack it (its
    /// search for the length stopped at the time limit).
    pub fn impossibility(&self) -> Option<String> {
        if let Err(e) = Board::new(self.width, self.height) {
            return Some(e.to_string());
        }
        if self.walls > MAX_WALLS_PER_PLAYER {
            return Some(format!(
                "{} walls per player: the solver supports 0 to {MAX_WALLS_PER_PLAYER}",
                self.walls
            ));
        }
        let parity = |winner: u32| match self.plies {
            // The compact analysis decides the outcome; the search for its length may stop
            // at the time limit. Proof search always knows the length of a win it finds.
            None if self.method.is_retro() => None,
            None => Some(format!(
                "a win for Player {winner} by proof search needs its length in plies"
            )),
            Some(0) => Some("a win in 0 plies is impossible".to_string()),
            Some(p) if p % 2 != winner % 2 => Some(format!(
                "Player {winner} cannot win in {}: Player {winner} wins in an {} number of plies",
                count(p, "ply"),
                if winner == 1 { "odd" } else { "even" }
            )),
            Some(_) => None,
        };
        let why = match self.outcome {
            Outcome::Player1 => parity(1),
            Outcome::Player2 => parity(2),
            Outcome::Draw | Outcome::Unknown => self.plies.map(|p| {
                format!(
                    "outcome {} with {}: only a win has a length",
                    self.outcome,
                    count(p, "ply")
                )
            }),
        };
        why.or_else(|| {
            (!(self.seconds >= 0.0 && self.seconds.is_finite()))
                .then(|| format!("seconds {} is not a duration", self.seconds))
        })
    }
}

/// The version a results row records: the package's and, when built from a git checkout,
/// the commit (`0.1.0+0fde75b`; build.rs). The package version alone never changed from
/// one build to the next, so `table --resume` could not tell an older build's rows.
pub fn version() -> String {
    match option_env!("QUORIDOR_SOLVER_COMMIT") {
        Some(commit) => format!("{}+{commit}", env!("CARGO_PKG_VERSION")),
        None => env!("CARGO_PKG_VERSION").to_string(),
    }
}

pub const CSV_NAME: &str = "table.csv";
pub const JSON_NAME: &str = "table.json";
pub const MARKDOWN_NAME: &str = "table.md";
pub const SVG_NAME: &str = "table.svg";
/// Every file `write_all` writes, for checking them all before any work.
const OUTPUT_NAMES: [&str; 4] = [CSV_NAME, JSON_NAME, MARKDOWN_NAME, SVG_NAME];

/// Reads a results CSV (as written by `write_all`), refusing any row that cannot be a
/// result (`CellRecord::impossibility`) or repeats a cell, with the file and line: `--check`
/// and `--resume` would otherwise count such a row as a match or a new result.
pub fn read_csv(path: &Path) -> Result<Vec<CellRecord>> {
    // A CSV error before the first row is the file's (opening it, its header), so it is
    // told as an I/O error of the file (`csv` turns its errors into `io::Error`s).
    let cannot = |source: std::io::Error| Error::io("read", path, source);
    if path.is_dir() {
        return Err(cannot(std::io::Error::new(
            std::io::ErrorKind::IsADirectory,
            "it is a directory, not a CSV file",
        )));
    }
    let mut reader = csv::Reader::from_path(path).map_err(|e| cannot(e.into()))?;
    let headers = reader.headers().map_err(|e| cannot(e.into()))?.clone();
    let mut records: Vec<(CellRecord, u64)> = Vec::new();
    for row in reader.records() {
        let at =
            |line: u64, why: String| Error::Input(format!("{} line {line}: {why}", path.display()));
        let row = row.map_err(|e| {
            at(
                e.position().map_or(0, |p| p.line()),
                csv_reason(&e, &headers),
            )
        })?;
        let line = row.position().map_or(0, |p| p.line());
        let record: CellRecord = row
            .deserialize(Some(&headers))
            .map_err(|e| at(line, csv_reason(&e, &headers)))?;
        if let Some(why) = record.impossibility() {
            return Err(at(line, why));
        }
        if let Some((_, first)) = records.iter().find(|(r, _)| r.cell() == record.cell()) {
            return Err(at(
                line,
                format!(
                    "{}x{} with {} again (first on line {first})",
                    record.width,
                    record.height,
                    count(record.walls, "wall")
                ),
            ));
        }
        records.push((record, line));
    }
    Ok(records.into_iter().map(|(r, _)| r).collect())
}

/// `read_csv`, or no rows when there is no file at `path` yet (a first run).
pub fn read_csv_if_any(path: &Path) -> Result<Vec<CellRecord>> {
    match path.exists() {
        true => read_csv(path),
        false => Ok(Vec::new()),
    }
}

/// What is wrong with a CSV row, without the csv crate's own position (the caller names
/// the line) and with the column's name rather than its index.
fn csv_reason(e: &csv::Error, headers: &csv::StringRecord) -> String {
    match e.kind() {
        csv::ErrorKind::Deserialize { err, .. } => {
            let column = err
                .field()
                .and_then(|i| headers.get(i as usize))
                .map_or(String::new(), |name| format!("column {name}: "));
            format!("{column}{}", err.kind())
        }
        csv::ErrorKind::UnequalLengths {
            expected_len, len, ..
        } => format!("{len} fields where the header has {expected_len}"),
        _ => e.to_string(),
    }
}

/// Writes table.csv, table.json, table.md and table.svg into `dir`, each atomically, records sorted
/// by board and walls.
pub fn write_all(dir: &Path, records: &[CellRecord]) -> Result<()> {
    std::fs::create_dir_all(dir).map_err(|e| Error::io("create", dir, e))?;
    let sorted = write_csv(&dir.join(CSV_NAME), records)?;
    let json = serde_json::to_string_pretty(&sorted).map_err(std::io::Error::from)?;
    output_file::replace(&dir.join(JSON_NAME), format!("{json}\n").as_bytes())?;
    output_file::replace(
        &dir.join(MARKDOWN_NAME),
        markdown::render(&sorted).as_bytes(),
    )?;
    output_file::replace(&dir.join(SVG_NAME), svg::render(&sorted).as_bytes())?;
    Ok(())
}

/// Writes `records` to the CSV file `path` (`output_file::replace`), sorted by board and walls (height,
/// then width), and returns them so sorted.
pub fn write_csv(path: &Path, records: &[CellRecord]) -> Result<Vec<CellRecord>> {
    let mut sorted = records.to_vec();
    sorted.sort_by_key(|r| (r.height, r.width, r.walls));
    let mut csv_bytes = Vec::new();
    {
        let mut w = csv::Writer::from_writer(&mut csv_bytes);
        for r in &sorted {
            w.serialize(r).map_err(std::io::Error::from)?;
        }
        w.flush()?;
    }
    output_file::replace(path, &csv_bytes)?;
    Ok(sorted)
}

/// Makes sure results can be written into `dir` before any work is done for them: creates
/// it, then checks each file `write_all` writes (`output_file::check`: not a directory,
/// and its temporary creatable). Without this, a bad `--out` (a file, /dev/null, a
/// directory without write permission, a table.md that is a directory) failed only when
/// the first cell was solved, which can be many minutes in. The probes are the
/// temporaries themselves, so `remove_stale_temporaries` clears them if the run is killed
/// in between.
pub fn check_writable(dir: &Path) -> Result<()> {
    let cannot = |source: std::io::Error| Error::io("write results to", dir, source);
    if dir.exists() && !dir.is_dir() {
        return Err(cannot(std::io::Error::new(
            std::io::ErrorKind::NotADirectory,
            "it is not a directory",
        )));
    }
    std::fs::create_dir_all(dir).map_err(cannot)?;
    for name in OUTPUT_NAMES {
        let path = dir.join(name);
        // The file that failed, named before the system's reason, its kind kept.
        output_file::check(&path).map_err(|e| {
            cannot(std::io::Error::new(
                e.kind(),
                format!("{}: {e}", path.display()),
            ))
        })?;
    }
    Ok(())
}

/// Removes the temporary files a run killed while writing left in `dir`; they are never
/// the results.
pub fn remove_stale_temporaries(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.path()
                .extension()
                .is_some_and(|x| x == output_file::TEMPORARY)
            {
                let _ = std::fs::remove_file(e.path());
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn record(w: usize, h: usize, n: u8, outcome: &str, plies: Option<u32>) -> CellRecord {
        CellRecord {
            width: w,
            height: h,
            walls: n,
            outcome: Outcome::try_from(outcome.to_string()).unwrap(),
            plies,
            method: MethodUsed::Search,
            nodes: 10,
            seconds: 0.5,
            peak_bytes: 1 << 20,
            version: "0.1.0".into(),
            depth_reached: plies.unwrap_or(40),
            line: String::new(),
        }
    }

    #[test]
    fn csv_round_trips_and_files_appear() {
        let dir = std::env::temp_dir().join(format!("qs-report-{}", std::process::id()));
        let mut with_line = record(3, 3, 0, "2", Some(4));
        with_line.line = "1. b1 b3 2. b2 b2".into();
        let records = vec![
            record(5, 5, 4, "2", Some(38)),
            with_line,
            record(8, 3, 3, "unknown", None),
        ];
        write_all(&dir, &records).unwrap();
        let back = read_csv(&dir.join(CSV_NAME)).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back[0], records[1], "sorted by height, width, walls");
        assert!(back.contains(&records[2]));
        let md = std::fs::read_to_string(dir.join(MARKDOWN_NAME)).unwrap();
        assert!(md.contains("2 (38)"), "{md}");
        let svg = std::fs::read_to_string(dir.join(SVG_NAME)).unwrap();
        assert!(svg.contains(">2 (38)<"), "{svg}");
        let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(entries.len(), 4, "no temporary file left");
        std::fs::remove_dir_all(dir).unwrap();
    }

    #[test]
    fn a_table_written_before_the_line_column_reads_with_empty_lines() {
        let dir = std::env::temp_dir().join(format!("qs-report-old-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join(CSV_NAME);
        std::fs::write(
            &path,
            "width,height,walls,outcome,plies,method,nodes,seconds,peak_bytes,version,depth_reached\n\
             3,3,0,2,4,proof-search,10,0.5,1048576,0.1.0,4\n",
        )
        .unwrap();
        let back = read_csv(&path).unwrap();
        assert_eq!(back, vec![record(3, 3, 0, "2", Some(4))]);
        std::fs::remove_dir_all(dir).unwrap();
    }
}
