//! `verify`: checks a saved table (`retro::saved`): every file against the manifest, every
//! length against the cell's layout, then the values themselves, position by position: a
//! position's value must be its best move's (`Analyst::consistent`).

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

use clap::Args;
use quoridor_solver::Result;
use quoridor_solver::analysis::{Analyst, random_games, reachable};
use quoridor_solver::error::count;
use quoridor_solver::geometry::Board;
use quoridor_solver::notation::format_record;
use quoridor_solver::progress::Progress;
use quoridor_solver::retro::saved;
use quoridor_solver::tables::Tables;

use super::progress::Bars;
use super::resources::{ResourceArgs, Resources};

/// Every position reachable from the start is checked when there are at most this many;
/// else the positions of `GAMES` random games.
const ALL_UP_TO: usize = 2_000_000;
const GAMES: usize = 2_000;

/// Check a saved table (solve --save DIR): its files against their manifest, then that
/// each value checked is its best move's
#[derive(Args, Debug)]
pub struct VerifyArgs {
    /// The saved table's directory
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

pub fn run(v: Verify, bars: &Bars, out: &mut dyn Write) -> Result<ExitCode> {
    let header = saved::header(&v.dir)?;
    let board = Board::new(header.width, header.height)?;
    let tables = Tables::build(board, header.walls, v.resources.memory_budget, bars)?;
    // A damaged or missing file is a failed check (exit 1), not bad usage.
    let solved = match saved::load(&tables, &v.dir, 0..usize::MAX) {
        Ok(solved) => solved,
        Err(e) => {
            writeln!(out, "verification failed: {e}")?;
            return Ok(ExitCode::from(1));
        }
    };
    let files: usize = header.layers.iter().map(Vec::len).sum();
    writeln!(
        out,
        "{}: {board} with {}, {} and the header match the manifest",
        v.dir.display(),
        count(header.walls, "wall"),
        count(files, "value file")
    )?;
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
            writeln!(
                out,
                "inconsistent value at {}: it is not its best move's",
                format_record(board, pos)
            )?;
            return Ok(ExitCode::from(1));
        }
        bars.advance(1);
    }
    bars.finish();
    writeln!(
        out,
        "values consistent on {} ({which})",
        count(positions.len(), "position")
    )?;
    Ok(ExitCode::SUCCESS)
}
