//! The results table: one record per cell, written as CSV, JSON and Markdown, each file
//! replaced atomically (written to a temporary file, then renamed) so an interrupted run
//! never leaves a half-written file; read back for `--resume` and `--check`.

pub mod check;
pub mod markdown;
pub mod published;

use crate::error::{Error, Result};
use crate::solver::{CellResult, Outcome};
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};

/// One solved (or attempted) cell, as written to results/table.csv and table.json.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct CellRecord {
    pub width: usize,
    pub height: usize,
    pub walls: u8,
    /// `1`, `2`, `D` or `unknown`.
    pub outcome: String,
    pub plies: Option<u32>,
    pub method: String,
    pub nodes: u64,
    pub seconds: f64,
    pub peak_bytes: u64,
    pub version: String,
    /// The deepest search iteration completed (what "unknown" reached).
    pub depth_reached: u32,
}

impl CellRecord {
    pub fn from_result(r: &CellResult) -> CellRecord {
        CellRecord {
            width: r.width,
            height: r.height,
            walls: r.walls,
            outcome: r.outcome.code().to_string(),
            plies: r.plies,
            method: r.method.clone(),
            nodes: r.nodes,
            seconds: (r.seconds * 1000.0).round() / 1000.0,
            peak_bytes: r.peak_bytes,
            version: env!("CARGO_PKG_VERSION").to_string(),
            depth_reached: r.depth_reached,
        }
    }

    pub fn cell(&self) -> (usize, usize, u8) {
        (self.width, self.height, self.walls)
    }

    /// Whether the cell is decided (not `unknown`).
    pub fn is_decided(&self) -> bool {
        self.outcome != Outcome::Unknown.code()
    }
}

pub const CSV_NAME: &str = "table.csv";
pub const JSON_NAME: &str = "table.json";
pub const MARKDOWN_NAME: &str = "table.md";

/// Reads a results CSV (as written by `write_all`).
pub fn read_csv(path: &Path) -> Result<Vec<CellRecord>> {
    let mut reader = csv::Reader::from_path(path)
        .map_err(|e| Error::Io(format!("cannot read {}: {e}", path.display())))?;
    reader
        .deserialize()
        .enumerate()
        .map(|(i, row)| {
            row.map_err(|e| Error::Io(format!("{} row {}: {e}", path.display(), i + 2)))
        })
        .collect()
}

/// Writes table.csv, table.json and table.md into `dir`, each atomically, records sorted
/// by board and walls.
pub fn write_all(dir: &Path, records: &[CellRecord]) -> Result<()> {
    std::fs::create_dir_all(dir)
        .map_err(|e| Error::Io(format!("cannot create {}: {e}", dir.display())))?;
    let mut sorted = records.to_vec();
    sorted.sort_by_key(|r| (r.height, r.width, r.walls));
    let mut csv_bytes = Vec::new();
    {
        let mut w = csv::Writer::from_writer(&mut csv_bytes);
        for r in &sorted {
            w.serialize(r).map_err(|e| Error::Io(e.to_string()))?;
        }
        w.flush()?;
    }
    write_atomically(&dir.join(CSV_NAME), &csv_bytes)?;
    let json = serde_json::to_string_pretty(&sorted).map_err(|e| Error::Io(e.to_string()))?;
    write_atomically(&dir.join(JSON_NAME), format!("{json}\n").as_bytes())?;
    write_atomically(
        &dir.join(MARKDOWN_NAME),
        markdown::render(&sorted).as_bytes(),
    )?;
    Ok(())
}

/// The extension of the temporary files `write_atomically` renames into place.
const TEMPORARY: &str = "tmp";

/// Writes `bytes` to a temporary file beside `path`, syncs it, and renames it over `path`:
/// readers see the old file or the new one, never a part.
pub fn write_atomically(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let tmp: PathBuf = path.with_extension(format!(
        "{}.{TEMPORARY}",
        path.extension().and_then(|e| e.to_str()).unwrap_or("")
    ));
    let io = |e: std::io::Error| Error::Io(format!("cannot write {}: {e}", path.display()));
    let mut f = std::fs::File::create(&tmp).map_err(io)?;
    f.write_all(bytes).map_err(io)?;
    f.sync_all().map_err(io)?;
    drop(f);
    std::fs::rename(&tmp, path).map_err(io)
}

/// Removes the temporary files a run killed while writing left in `dir`; they are never
/// the results.
pub fn remove_stale_temporaries(dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(dir) {
        for e in entries.flatten() {
            if e.path().extension().is_some_and(|x| x == TEMPORARY) {
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
            outcome: outcome.into(),
            plies,
            method: "proof-search".into(),
            nodes: 10,
            seconds: 0.5,
            peak_bytes: 1 << 20,
            version: "0.1.0".into(),
            depth_reached: plies.unwrap_or(40),
        }
    }

    #[test]
    fn csv_round_trips_and_files_appear() {
        let dir = std::env::temp_dir().join(format!("qs-report-{}", std::process::id()));
        let records = vec![
            record(5, 5, 4, "2", Some(38)),
            record(3, 3, 0, "2", Some(4)),
            record(8, 3, 3, "unknown", None),
        ];
        write_all(&dir, &records).unwrap();
        let back = read_csv(&dir.join(CSV_NAME)).unwrap();
        assert_eq!(back.len(), 3);
        assert_eq!(back[0], records[1], "sorted by height, width, walls");
        assert!(back.contains(&records[2]));
        let md = std::fs::read_to_string(dir.join(MARKDOWN_NAME)).unwrap();
        assert!(md.contains("2 (38)"), "{md}");
        let entries: Vec<_> = std::fs::read_dir(&dir).unwrap().collect();
        assert_eq!(entries.len(), 3, "no temporary file left");
        std::fs::remove_dir_all(dir).unwrap();
    }
}
