//! `verify`: checks a saved table (`retro::saved`): every file against the manifest, every
//! length against the cell's layout, then the values themselves, position by position: a
//! position's value must be its best move's (`Analyst::consistent`). A `table --save`
//! directory is checked cell by cell.
//!
//! Exit codes, one rule: 0 every check passed, 1 a table is damaged (whatever the damage:
//! manifest, header, a value file, a value), 2 the command is wrong (the path, the flags,
//! nothing saved there) or the check could not run (the memory budget).

use quoridor_solver::retro::saved_dir;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::ExitCode;

use clap::Args;
use quoridor_solver::cell::analysis::{Analyst, random_games, random_games_by, reachable};
use quoridor_solver::cell::estimate::CellEstimate;
use quoridor_solver::configs::Ranked;
use quoridor_solver::configs::Tables;
use quoridor_solver::error::count;
use quoridor_solver::retro::saved;
use quoridor_solver::retro::{Precision, sampled};
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::rules::notation::format_record;
use quoridor_solver::rules::position::MAX_WALLS_PER_PLAYER;
use quoridor_solver::support::memory;
use quoridor_solver::support::progress::Progress;
use quoridor_solver::{Error, Result};

use super::progress::Bars;
use super::resources::{ResourceArgs, Resources};

/// Every position reachable from the start is checked when there are at most this many;
/// else the positions of `GAMES` random games.
const ALL_UP_TO: usize = 2_000_000;
const GAMES: usize = 2_000;

/// Check a saved table (solve --save DIR), or each cell of a table --save DIR: its files
/// against their manifest, then that each value checked is its best move's.
///
/// Exit status: 0 every check passed; 1 a table is damaged (a file missing or altered, a
/// manifest or header that cannot be read, a value that is not its best move's; with
/// table --save, any cell); 2 the command is wrong (no such directory, not a directory,
/// nothing saved there, bad flags) or the check cannot run (memory budget)
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The saved table's directory, or a `table --save` directory (one WxH-wN per cell)
    #[arg(value_name = "DIR")]
    dir: PathBuf,

    #[command(flatten)]
    resources: ResourceArgs,

    /// Print nothing on stderr but errors: no progress bar
    #[arg(short, long)]
    pub quiet: bool,
}

pub struct Verify {
    dir: PathBuf,
    resources: Resources,
}

impl VerifyArgs {
    pub fn validate(&self) -> Result<Verify> {
        Ok(Verify {
            dir: self.dir.clone(),
            resources: self.resources.validate()?,
        })
    }
}

/// A saved table that passed every check.
struct Whole {
    board: Board,
    walls: u8,
    files: usize,
    positions: usize,
    /// Which positions were checked, in words.
    which: &'static str,
}

pub fn run(v: Verify, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let found = saved_dir::contents(&v.dir)?
        .ok_or_else(|| Error::Argument(format!("{} does not exist", v.dir.display())))?;
    if found.table_files {
        return match check_table(&v.dir, None, &v.resources, bars)? {
            Ok(w) => {
                writeln!(
                    out,
                    "{}: {} with {}, {} and the header match the manifest",
                    v.dir.display(),
                    w.board,
                    count(w.walls, "wall"),
                    count(w.files, "value file")
                )?;
                writeln!(
                    out,
                    "values consistent on {} ({})",
                    count(w.positions, "position"),
                    w.which
                )?;
                Ok(ExitCode::SUCCESS)
            }
            Err(damage) => {
                writeln!(out, "verification failed: {damage}")?;
                Ok(ExitCode::from(1))
            }
        };
    }
    if found.cells.is_empty() {
        // Passing a check of nothing would hide a wrong path.
        return Err(Error::Argument(format!(
            "{} holds no saved table: neither a MANIFEST.sha256 (solve --save) nor WxH-wN \
             directories (table --save)",
            v.dir.display()
        )));
    }
    let mut damaged = Vec::new();
    for name in &found.cells {
        let cell = saved_dir::parse_cell_dir_name(name);
        match check_table(&v.dir.join(name), cell, &v.resources, bars)? {
            Ok(w) => writeln!(
                out,
                "{name}: whole: {} and the header match the manifest, values consistent on {} \
                 ({})",
                count(w.files, "value file"),
                count(w.positions, "position"),
                w.which
            )?,
            Err(damage) => {
                writeln!(out, "{name}: DAMAGED: {damage}")?;
                damaged.push(name.as_str());
            }
        }
    }
    writeln!(
        out,
        "{}: {} checked, {} whole, {} damaged{}",
        v.dir.display(),
        count(found.cells.len(), "cell"),
        found.cells.len() - damaged.len(),
        damaged.len(),
        match damaged.is_empty() {
            true => String::new(),
            false => format!(" ({})", damaged.join(", ")),
        }
    )?;
    Ok(match damaged.is_empty() {
        true => ExitCode::SUCCESS,
        false => ExitCode::from(1),
    })
}

/// Checks the saved table in `dir` (of `cell` when its directory is named for one). The
/// outer `Err` is an error that is no damage (the memory budget, the output); the inner
/// one says what is damaged.
fn check_table(
    dir: &Path,
    cell: Option<(Board, u8)>,
    resources: &Resources,
    bars: &Bars,
) -> Result<std::result::Result<Whole, String>> {
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
    if let Some((b, n)) = cell.filter(|&c| c != (board, header.walls)) {
        return Ok(Err(format!(
            "{} holds {board} with {}, not {b} with {} as its name says",
            dir.display(),
            count(header.walls, "wall"),
            count(n, "wall")
        )));
    }
    let files = header.layers.iter().map(Vec::len).sum();
    let values: u64 = header.layers.iter().flatten().map(|f| f.bytes).sum();
    let estimate = CellEstimate::new(board, header.walls);
    let outcomes_only = saved::precision_of(&header) == Some(Precision::Compact);
    if outcomes_only || estimate.tables.bytes.saturating_add(values) > resources.memory_budget {
        return check_sampled(dir, (board, header.walls), files, resources, bars);
    }
    let tables = Tables::build(board, header.walls, resources.memory_budget, bars)?;
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
    bars.begin("checking values", positions.len() as u64);
    for pos in &positions {
        if !analyst.consistent(pos, bars) {
            bars.finish();
            return Ok(Err(format!(
                "inconsistent value at {}: it is not its best move's",
                format_record(board, pos)
            )));
        }
        bars.advance(1);
    }
    bars.finish();
    Ok(Ok(Whole {
        board,
        walls: header.walls,
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
    (board, walls): (Board, u8),
    files: usize,
    resources: &Resources,
    bars: &Bars,
) -> Result<std::result::Result<Whole, String>> {
    let layers = 2 * walls as usize + 1;
    let ranked_bytes = Ranked::estimate_bytes(board, layers);
    memory::check(
        &format!(
            "checking the saved table of {board} with {} (numbering the configurations)",
            count(walls, "wall")
        ),
        ranked_bytes,
        resources.memory_budget,
    )?;
    let ranked = Ranked::build(board, walls);
    let positions = random_games_by(board, walls, GAMES, |p| p.legal_actions(board));
    match sampled::check(&ranked, dir, &positions, bars) {
        Ok(_) => Ok(Ok(Whole {
            board,
            walls,
            files,
            positions: positions.len(),
            which: "those of 2000 random games, read from the files in one pass",
        })),
        Err(Error::Damaged(m)) => Ok(Err(m)),
        Err(e) => Err(e),
    }
}
