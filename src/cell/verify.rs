//! The check of a saved table (`retro::saved`): every file against the manifest, every
//! length against the cell's layout, then the values themselves, position by position: a
//! position's value must be its best move's (`Analyst::consistent`). A `table --save`
//! directory is checked cell by cell. What is damaged is a finding (`Checked`), not an
//! error: an error is what stops the check itself (a wrong path, the memory budget).

use std::path::Path;

use crate::cell::analysis::{Analyst, random_games, random_games_by, reachable};
use crate::cell::estimate::CellEstimate;
use crate::configs::{Ranked, Tables};
use crate::error::{Error, Result, count};
use crate::retro::{Precision, sampled, saved, saved_dir};
use crate::rules::cell::Cell;
use crate::rules::geometry::Board;
use crate::rules::notation::format_record;
use crate::rules::position::MAX_WALLS_PER_PLAYER;
use crate::support::memory;
use crate::support::progress::Progress;

/// Every position reachable from the start is checked when there are at most this many;
/// else the positions of `GAMES` random games.
const ALL_UP_TO: usize = 2_000_000;
const GAMES: usize = 2_000;

/// A saved table that passed every check.
#[derive(Clone, Debug)]
pub struct Whole {
    pub cell: Cell,
    /// Its value files.
    pub files: usize,
    /// The positions whose values were checked.
    pub positions: usize,
    /// Which positions were checked, in words.
    pub which: &'static str,
}

/// The check of one saved table: whole, or what is damaged (in words).
pub type Checked = std::result::Result<Whole, String>;

/// What a directory checked holds.
#[derive(Clone, Debug)]
pub enum Verified {
    /// One saved table (`solve --save`), and what its check found.
    Table(Checked),
    /// A `table --save` directory: the cells checked (each told as it was), and the
    /// directories of those damaged, in the order checked.
    Cells {
        checked: usize,
        damaged: Vec<String>,
    },
}

/// Checks the saved table in `dir`, or each cell's of a `table --save` directory, within
/// `memory_budget`; each cell's finding goes to `each_cell` (its directory's name) as soon
/// as it is checked. A directory that does not exist or holds no saved table is refused:
/// passing a check of nothing would hide a wrong path.
pub fn verify(
    dir: &Path,
    memory_budget: u64,
    progress: &dyn Progress,
    each_cell: &mut dyn FnMut(&str, &Checked) -> Result<()>,
) -> Result<Verified> {
    let found = saved_dir::contents(dir)?.ok_or_else(|| Error::Missing {
        path: dir.to_path_buf(),
    })?;
    if found.table_files {
        return Ok(Verified::Table(check_table(
            dir,
            None,
            memory_budget,
            progress,
        )?));
    }
    if found.cells.is_empty() {
        return Err(Error::NoSavedTable {
            dir: dir.to_path_buf(),
        });
    }
    let mut damaged = Vec::new();
    for name in &found.cells {
        let cell = saved_dir::parse_cell_dir_name(name);
        let checked = check_table(&dir.join(name), cell, memory_budget, progress)?;
        each_cell(name, &checked)?;
        if checked.is_err() {
            damaged.push(name.clone());
        }
    }
    Ok(Verified::Cells {
        checked: found.cells.len(),
        damaged,
    })
}

/// Checks the saved table in `dir` (of `cell` when its directory is named for one). The
/// outer `Err` is an error that is no damage (the memory budget); the inner one says what
/// is damaged.
pub fn check_table(
    dir: &Path,
    cell: Option<Cell>,
    memory_budget: u64,
    progress: &dyn Progress,
) -> Result<Checked> {
    let damage = |e: Error| match e {
        Error::Damaged(m) => Ok(Err(m)),
        e => Err(e),
    };
    let header = match saved::header(dir) {
        Ok(h) => h,
        Err(e) => return damage(e),
    };
    // The header matches the manifest, so these hold unless it was written damaged.
    let board = match Board::new(header.width, header.height) {
        Ok(b) if header.walls <= MAX_WALLS_PER_PLAYER => b,
        _ => {
            return Ok(Err(format!(
                "{}: {}x{} with {} is not a cell",
                dir.join("header.json").display(),
                header.width,
                header.height,
                count(header.walls, "wall")
            )));
        }
    };
    let held = Cell::new(board, header.walls);
    if let Some(named) = cell.filter(|&c| c != held) {
        return Ok(Err(format!(
            "{} holds {held}, not {named} as its name says",
            dir.display()
        )));
    }
    let files = header.layers.iter().map(Vec::len).sum();
    let values: u64 = header.layers.iter().flatten().map(|f| f.bytes).sum();
    let estimate = CellEstimate::new(board, header.walls);
    let outcomes_only = saved::precision_of(&header) == Some(Precision::Compact);
    if outcomes_only || estimate.tables.bytes.saturating_add(values) > memory_budget {
        return check_sampled(dir, held, files, memory_budget, progress);
    }
    let tables = Tables::build(board, header.walls, memory_budget, progress)?;
    let solved = match saved::load(&tables, dir, 0..usize::MAX) {
        Ok(solved) => solved,
        Err(e) => return damage(e),
    };
    let mut analyst = Analyst::from_solved(solved);
    let (positions, which) = match reachable(&tables, ALL_UP_TO) {
        Some(all) => (all, "every position reachable from the start"),
        None => (
            random_games(&tables, GAMES),
            "those of 2000 random games: the cell has too many to check them all",
        ),
    };
    progress.begin("checking values", positions.len() as u64);
    for pos in &positions {
        if !analyst.consistent(pos, progress) {
            progress.finish();
            return Ok(Err(format!(
                "inconsistent value at {}: it is not its best move's",
                format_record(board, pos)
            )));
        }
        progress.advance(1);
    }
    progress.finish();
    Ok(Ok(Whole {
        cell: held,
        files,
        positions: positions.len(),
        which,
    }))
}

/// `check_table` for a table whose tables and values do not fit the memory together: the
/// positions of random games and their moves, read from the files in one pass
/// (`retro::sampled`), over the ranked numbering of the configurations.
fn check_sampled(
    dir: &Path,
    cell: Cell,
    files: usize,
    memory_budget: u64,
    progress: &dyn Progress,
) -> Result<Checked> {
    let Cell { board, walls } = cell;
    let layers = 2 * walls as usize + 1;
    let ranked_bytes = Ranked::estimate_bytes(board, layers);
    memory::check(
        &format!("checking the saved table of {cell} (numbering the configurations)"),
        ranked_bytes,
        memory_budget,
    )?;
    let ranked = Ranked::build(board, walls);
    let positions = random_games_by(board, walls, GAMES, |p| p.legal_actions(board));
    match sampled::check(&ranked, dir, &positions, progress) {
        Ok(_) => Ok(Ok(Whole {
            cell,
            files,
            positions: positions.len(),
            which: "those of 2000 random games, read from the files in one pass",
        })),
        Err(Error::Damaged(m)) => Ok(Err(m)),
        Err(e) => Err(e),
    }
}
