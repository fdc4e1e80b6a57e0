//! `show`: draw a position as a text diagram (`diagram::render`), and as an SVG picture
//! with --svg (`picture::render`).

use std::io::Write;
use std::process::ExitCode;

use clap::Args;
use quoridor_solver::Result;
use quoridor_solver::output::diagram::render;
use quoridor_solver::output::picture;
use quoridor_solver::rules::geometry::Board;
use quoridor_solver::rules::position::Position;
use quoridor_solver::support::output_file;
use std::path::PathBuf;

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

    /// Also write the position as an SVG picture to FILE (open it in a web browser)
    #[arg(long, value_name = "FILE")]
    svg: Option<PathBuf>,
}

/// A checked `show` request.
pub struct Show {
    board: Board,
    position: Position,
    svg: Option<PathBuf>,
}

impl ShowArgs {
    pub fn validate(&self) -> Result<Show> {
        let board = Board::parse(&self.board)?;
        let walls = self.walls.as_deref().map(walls_per_player).transpose()?;
        Ok(Show {
            board,
            position: self.position.validate(board, walls, DEFAULT_WALLS)?,
            svg: self.svg.clone(),
        })
    }
}

pub fn run(s: Show, out: &mut dyn Write) -> Result<ExitCode> {
    out.write_all(render(s.board, &s.position).as_bytes())?;
    if let Some(path) = &s.svg {
        output_file::replace(path, picture::render(s.board, &s.position).as_bytes())?;
        writeln!(out, "Picture: {}", path.display())?;
    }
    Ok(ExitCode::SUCCESS)
}
