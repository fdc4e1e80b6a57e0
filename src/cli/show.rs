//! `show`: draw a position as a text diagram (`diagram::render`).

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use quoridor_solver::Result;
use quoridor_solver::diagram::render;
use quoridor_solver::geometry::Board;
use quoridor_solver::position::Position;

use super::{BOARD_HELP, PositionArgs, walls_per_player};

/// Walls per player when --walls is not given (the board game's count).
const DEFAULT_WALLS: u8 = 10;

/// Draw a position: the board with pawns and walls, walls left, whose turn, the record
#[derive(Args, Debug)]
pub struct ShowArgs {
    #[arg(value_name = "WxH", help = BOARD_HELP)]
    board: String,

    /// Walls per player at the start [default: 10]. With --position the record gives the
    /// walls left; --walls is then only checked against it
    #[arg(long, value_name = "N", allow_negative_numbers = true)]
    walls: Option<String>,

    #[command(flatten)]
    position: PositionArgs,
}

/// A checked `show` request.
pub struct Show {
    board: Board,
    position: Position,
}

impl ShowArgs {
    pub fn validate(&self) -> Result<Show> {
        let board = Board::parse(&self.board)?;
        let walls = self.walls.as_deref().map(walls_per_player).transpose()?;
        Ok(Show {
            board,
            position: self.position.validate(board, walls, DEFAULT_WALLS)?,
        })
    }
}

pub fn run(s: Show, out: &mut dyn Write) -> Result<ExitCode> {
    out.write_all(render(s.board, &s.position).as_bytes())?;
    Ok(ExitCode::SUCCESS)
}
