//! Python's arguments into the library's checked values, refused with the command line's
//! messages (the flag each stands for is named as there, e.g. `--walls 40: ...`), so that
//! a message found in docs or a test of the binary reads the same from Python. Values the
//! command line refuses in clap say so as its one line does, without "; see --help".

use pyo3::prelude::*;
use quoridor_solver::error::{Bound, Setting, clip, format_bytes};
use quoridor_solver::rules::cell::Cell;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::support::memory::{default_budget, parse_size, physical_bytes};
use quoridor_solver::{Error, Result};

/// A memory size: bytes, or text as `--memory` takes it (`"512M"`, `"4G"`).
#[derive(FromPyObject)]
pub enum Size {
    Bytes(u64),
    Text(String),
}

/// The cell: board and walls per player (`solve 4x4 --walls 2`).
pub fn cell(board: &str, walls: i64) -> Result<Cell> {
    let walls =
        quoridor_solver::rules::position::parse_walls_per_player("--walls", &walls.to_string())?;
    Ok(Cell::new(Board::parse(board)?, walls))
}

/// One of `values` (`--method`, `--precision`), as clap checks it: its index.
pub fn choice(flag: &str, value: &str, values: &[&str]) -> Result<usize> {
    values.iter().position(|v| *v == value).ok_or_else(|| {
        Error::Argument(format!(
            "invalid value '{}' for '{flag}', [possible values: {}]",
            clip(value),
            values.join(", ")
        ))
    })
}

/// `threads` (default: one per core), as `--threads` is checked.
pub fn threads(given: Option<i64>) -> Result<usize> {
    match given {
        None => Ok(std::thread::available_parallelism().map_or(1, |n| n.get())),
        Some(t) if t < 1 => Err(Error::limit(Setting::Threads, t, Bound::AtLeast(1))),
        Some(t) if t > 256 => Err(Error::limit(Setting::Threads, t, Bound::AtMost(256))),
        Some(t) => Ok(t as usize),
    }
}

/// The memory budget (default: 80% of the memory available now), as `--memory` is checked:
/// at most the machine's physical memory.
pub fn memory(given: Option<Size>) -> Result<u64> {
    let text = match given {
        None => return Ok(default_budget()),
        Some(Size::Bytes(n)) => n.to_string(),
        Some(Size::Text(t)) => t,
    };
    let budget = parse_size(&text)?;
    match physical_bytes() {
        Some(physical) if budget > physical => Err(Error::Argument(format!(
            "--memory {}: {} is more than this machine's physical memory, {}",
            clip(&text),
            format_bytes(budget),
            format_bytes(physical)
        ))),
        _ => Ok(budget),
    }
}

pub use quoridor_solver::cell::plan::time_limit;
