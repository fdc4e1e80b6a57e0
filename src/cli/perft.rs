//! `perft`: count the action sequences of a given length, to check move generation against
//! known counts (tests/data/perft.csv) and against other engines.

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use quoridor_solver::Result;
use quoridor_solver::error::count;
use quoridor_solver::geometry::Board;
use quoridor_solver::movegen::FloodFill;
use quoridor_solver::notation::format_record;
use quoridor_solver::perft::perft;
use quoridor_solver::position::Position;

use super::{BOARD_HELP, PositionArgs, walls_per_player};

/// Count the action sequences of exactly D plies (a finished game counts once)
#[derive(Args, Debug)]
pub struct PerftArgs {
    #[arg(value_name = "WxH", help = BOARD_HELP)]
    board: String,

    /// Walls per player at the start (with --position: the N the record must agree with)
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    walls: String,

    /// Number of plies to count
    #[arg(long, value_name = "D")]
    depth: u32,

    #[command(flatten)]
    position: PositionArgs,
}

/// A checked `perft` request.
pub struct Perft {
    board: Board,
    walls: u8,
    position: Position,
    depth: u32,
}

impl PerftArgs {
    pub fn validate(&self) -> Result<Perft> {
        let board = Board::parse(&self.board)?;
        let walls = walls_per_player(&self.walls)?;
        Ok(Perft {
            board,
            walls,
            position: self.position.validate(board, Some(walls), walls)?,
            depth: self.depth,
        })
    }
}

/// Prints a short header, then the count alone on the last line.
pub fn run(p: Perft, out: &mut dyn Write) -> Result<ExitCode> {
    writeln!(
        out,
        "board {}, {} per player",
        p.board,
        count(p.walls, "wall")
    )?;
    writeln!(out, "position {}", format_record(p.board, &p.position))?;
    writeln!(out, "depth {}", p.depth)?;
    out.flush()?;
    let count = perft(p.board, &p.position, p.depth, &FloodFill);
    writeln!(out, "{count}")?;
    Ok(ExitCode::SUCCESS)
}
